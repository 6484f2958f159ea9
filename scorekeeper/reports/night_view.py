"""A night as its pages show it: who came, each round and its games, and the leaderboard,
worked out from the games as they stand (so a corrected hand counts).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlite_utils import Database

from .. import clock
from ..i18n import _, ngettext
from ..rules.nights import (
    Mode,
    NightRow,
    TableSeating,
    night_standings,
)
from ..rules.nights import results as night_results
from ..store import check_in, nights
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
        """The night is over: ended early by the organiser, or its last round finished."""
        return self.ended_early or self.last_round_over

    @property
    def ended_early(self) -> bool:
        return self.night.ended is not None

    @property
    def last_round_over(self) -> bool:
        latest = self.latest
        return (
            latest is not None
            and latest.started is not None
            and latest.number >= self.night.rounds
            and self.round_over(latest.number)
        )

    @property
    def finished_rounds(self) -> int:
        """How many rounds have been played to the end."""
        return sum(1 for seated in self.rounds if seated.started and self.round_over(seated.number))

    @property
    def last_started(self) -> bool:
        """The night's last round has started: its number of rounds is settled, and nobody
        new can be seated tonight."""
        latest = self.latest
        return (
            latest is not None and latest.started is not None and latest.number >= self.night.rounds
        )

    @property
    def winners(self) -> list[str]:
        """Who is first on the board, once anyone has played a game."""
        return [row.name for row in self.board if row.place == 1 and row.games]

    def row(self, name: str) -> NightRow | None:
        return next((row for row in self.board if row.name == name), None)

    def attendee(self, name: str) -> nights.Attendee | None:
        return next((a for a in self.attendees if a.name == name), None)

    def where(self, name: str) -> tuple[nights.Round, TableSeating, int] | None:
        """Where ``name`` sits in the round seated or being played: (round, table, seat
        from 1); None when they are not seated in it, or no round is waiting or playing (an
        earlier round's seat is no guide)."""
        latest = self.latest
        if latest is None or self.over or (latest.started and self.round_over(latest.number)):
            return None
        table = next((t for t in latest.tables if name in t.seats), None)
        if table is None:
            return None
        return latest, table, table.seats.index(name) + 1

    def latest_table(self, name: str) -> int | None:
        """The table ``name`` sits at in the latest round (the one to keep), if any."""
        latest = self.latest
        table = next((t for t in latest.tables if name in t.seats), None) if latest else None
        return table.number if table else None

    def game_of(self, number: int, name: str) -> current_game.Current | None:
        """The game ``name`` plays in round ``number``."""
        seated = self.rounds[number - 1] if 0 < number <= len(self.rounds) else None
        table = next((t for t in seated.tables if name in t.seats), None) if seated else None
        return self.games.get((number, table.number)) if table else None

    def taken_out(self, name: str) -> bool:
        """``name`` was taken out of the round being played (their game goes on)."""
        playing = self.playing
        game = self.game_of(playing.number, name) if playing else None
        return game is not None and name in game.game.left_after


def night_now(db: Database, night: nights.Night) -> NightNow:
    """The night with its games' kept standings and the leaderboard, as of now (its own row
    read again: the organiser may have changed its rounds, clock or end since ``night``)."""
    night = nights.get_night(db, night.id) or night
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


@dataclass(frozen=True)
class RoundClock:
    """The round clock of the round being played: what is left of its minutes at a moment
    (the server's), for the pages to count down from; it enforces nothing."""

    round: int
    minutes: int
    left: int  # seconds left at that moment; 0 once time is up: the last hand

    @property
    def last_hand(self) -> bool:
        return self.left <= 0


def round_clock(now: NightNow, at: str) -> RoundClock | None:
    """The round clock at ``at`` (the store's clock), or None: no clock, or no round playing."""
    playing, minutes = now.playing, now.night.minutes
    if playing is None or not minutes or playing.started is None:
        return None
    ends = clock.moment(playing.started) + timedelta(minutes=minutes)
    left = (ends - clock.moment(at)).total_seconds()
    return RoundClock(playing.number, minutes, max(0, math.ceil(left)))


def change_words(action: str, facts: dict[str, Any]) -> str:
    """One change of the night's log (``store.nights.history``), in the reader's language."""
    mode = facts.get("mode")
    player = facts.get("player")
    match action:
        case "create":
            count = len(facts.get("players", ()))
            return ngettext(
                "The night began with %(num)s player", "The night began with %(num)s players", count
            )
        case "seat" if mode in {m.value for m in Mode}:
            return _(
                "Round %(round)s seated: %(mode)s", round=facts.get("round"), mode=Mode(mode).label
            )
        case "start":
            return _("Round %(round)s started", round=facts.get("round"))
        case "leave":
            return _("%(player)s left the night", player=player)
        case "arrive":
            return _("%(player)s joined the night", player=player)
        case "swap":
            first, second = (facts.get("players") or ["?", "?"])[:2]
            return _(
                "Round %(round)s: %(first)s and %(second)s swapped places",
                round=facts.get("round"),
                first=first,
                second=second,
            )
        case "move":
            return _(
                "Round %(round)s: %(player)s moved to table %(table)s",
                round=facts.get("round"),
                player=player,
                table=facts.get("table"),
            )
        case "keep" if facts.get("table"):
            return _("%(player)s keeps table %(table)s", player=player, table=facts["table"])
        case "keep":
            return _("%(player)s may sit at any table again", player=player)
        case "take-out":
            return _(
                "%(player)s was taken out of round %(round)s",
                player=player,
                round=facts.get("round"),
            )
        case "end":
            return _("The night was ended after round %(round)s", round=facts.get("round"))
        case "reopen":
            return _("The night goes on")
        case "plan" if facts.get("minutes"):
            return _(
                "The night has %(rounds)s rounds of %(minutes)s minutes",
                rounds=facts.get("rounds"),
                minutes=facts["minutes"],
            )
        case "plan":
            return _("The night has %(rounds)s rounds, without a clock", rounds=facts.get("rounds"))
        case "import":
            return _("Brought in from a table's backup")
        case check_in.CHECKED_IN:
            return _("%(player)s checked in from their phone", player=player)
        case check_in.CLOSED:
            return _("The list was closed to players' phones")
        case check_in.OPENED:
            return _("The list was opened to players' phones")
    return action
