"""A night as its pages show it: who came, each round and its games, and the leaderboard,
worked out from the games as they stand (so a corrected hand counts).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlite_utils import Database

from ..rules.nights import (
    NightRow,
    TableSeating,
    night_standings,
)
from ..rules.nights import results as night_results
from ..store import nights
from . import current_game


@dataclass(frozen=True)
class NightNow:
    """A night as its pages show it: who came, each round, its games, the leaderboard."""

    night: nights.Night
    attendees: tuple[nights.Attendee, ...]
    rounds: tuple[nights.Round, ...]
    games: Mapping[tuple[int, int], current_game.Current]  # (round, table) -> the game
    board: tuple[NightRow, ...]

    @property
    def latest(self) -> nights.Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def here(self) -> list[str]:
        return [a.name for a in self.attendees if a.here]

    def round_over(self, number: int) -> bool:
        """Every game of the started round is finished (a game deleted from the table no
        longer holds the night up)."""
        found = [game for (at, _table), game in self.games.items() if at == number]
        return all(game.standings.over for game in found)

    @property
    def playing(self) -> nights.Round | None:
        """The round being played now: started, not every game finished."""
        latest = self.latest
        if latest is None or latest.started is None or self.round_over(latest.number):
            return None
        return latest

    @property
    def seated(self) -> nights.Round | None:
        """A round seated whose games have not started: it may be seated again."""
        latest = self.latest
        return latest if latest is not None and latest.started is None else None

    @property
    def over(self) -> bool:
        latest = self.latest
        return (
            latest is not None
            and latest.started is not None
            and latest.number >= self.night.rounds
            and self.round_over(latest.number)
        )

    def where(self, name: str) -> tuple[nights.Round, TableSeating, int] | None:
        """The latest round seating ``name``: (round, table, seat from 1)."""
        for seated in reversed(self.rounds):
            table = next((t for t in seated.tables if name in t.seats), None)
            if table is not None:
                return seated, table, table.seats.index(name) + 1
        return None


def night_now(db: Database, night: nights.Night) -> NightNow:
    """The night with its games' kept standings and the leaderboard, as of now."""
    played: dict[tuple[int, int], current_game.Current] = {}
    for entry in nights.games(db, night.id):
        found = current_game.load(db, entry.game_id)
        if found is not None:
            played[entry.round, entry.table] = found
    attendees = tuple(nights.attendees(db, night.id))
    finished = [
        night_results(game.standings, game.game.rules)
        for game in played.values()
        if game.standings.over
    ]
    board = night_standings(finished, night.scheme, [a.name for a in attendees])
    return NightNow(night, attendees, tuple(nights.rounds(db, night.id)), played, tuple(board))
