"""A season as its pages show it: its nights, the board, each player's nights and the
ratings, worked out from the nights' games as they stand (so a corrected hand counts).

Each game's results are kept per version of the game (``table_figures.per_game``), so a
hand saved tonight reads tonight's changed game again, not the season's hundreds; and the
whole reading is kept per version of the season (``store.seasons.version``) for every
phone that asks for the same.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlite_utils import Database

from ..rules.nights import NightRow, Result, night_standings
from ..rules.nights import results as night_results
from ..rules.seasons import NightPlayed, SeasonRow, counted_nights, season_standings
from ..store import seasons, tables
from ..store.nights import Night
from . import current_game, table_figures
from .season_ratings import Rating, rate


@dataclass(frozen=True)
class SeasonNight:
    """One night of the season: the night, what the season counts of it, and its board
    under the season's scheme."""

    night: Night
    played: NightPlayed
    board: tuple[NightRow, ...]

    def row(self, name: str) -> NightRow | None:
        return next((row for row in self.board if row.name == name), None)


@dataclass(frozen=True)
class PlayerNight:
    """A night on a player's season page: their line of it, and whether it counts."""

    night: Night
    row: NightRow
    counted: bool


@dataclass(frozen=True)
class SeasonNow:
    season: seasons.Season
    nights: tuple[SeasonNight, ...]
    board: tuple[SeasonRow, ...]
    counted: Mapping[str, Sequence[int]]  # player -> the indexes of their nights counted
    ratings: tuple[Rating, ...]

    @property
    def games(self) -> int:
        return sum(len(night.played.games) for night in self.nights)

    def rating(self, name: str) -> Rating | None:
        return next((rating for rating in self.ratings if rating.name == name), None)

    def line(self, name: str) -> SeasonRow | None:
        return next((row for row in self.board if row.name == name), None)

    def nights_of(self, name: str) -> list[PlayerNight]:
        """The nights a player came to, the first first."""
        counted = set(self.counted.get(name, ()))
        found = []
        for index, night in enumerate(self.nights):
            row = night.row(name)
            if row is not None:
                found.append(PlayerNight(night.night, row, index in counted))
        return found


def season_now(db: Database, season: seasons.Season) -> SeasonNow:
    """The season as of now, read once per version of it for every page that asks."""
    tag = seasons.version(db, season.id)
    key = (table_figures.db_path(db), season.id)
    with _lock:
        kept = _readings.get(key)
        if kept is not None and kept[0] == (tag, season):
            _readings.move_to_end(key)
            return kept[1]
    now = work_out(db, season)
    with _lock:
        _readings[key] = ((tag, season), now)
        while len(_readings) > READINGS:
            _readings.popitem(last=False)
    return now


READINGS = 32  # seasons whose latest reading is kept: those being watched now
_readings: OrderedDict[tuple[str, str], tuple[tuple[str, seasons.Season], SeasonNow]] = (
    OrderedDict()
)
_lock = threading.Lock()


def work_out(db: Database, season: seasons.Season) -> SeasonNow:
    """The season from its nights' games, under the roster's current names."""
    names = tables.aliases(db, season.table_id)
    came = seasons.came(db, season.id)
    by_night: dict[str, list[tuple[Result, ...]]] = {}
    for game in seasons.games(db, season.id):
        found = table_figures.per_game(
            db, "night-results", game.game_id, game.version, lambda i: _results(db, i)
        )
        if found is not None:
            by_night.setdefault(game.night_id, []).append(_renamed(found, names))
    scheme = season.scheme
    nights = []
    for night in seasons.nights_of_season(db, season.id):
        attendees = tuple(dict.fromkeys(names.get(n, n) for n in came.get(night.id, ())))
        played = NightPlayed(attendees, tuple(by_night.get(night.id, ())))
        rows = night_standings(played.games, scheme, played.players)
        nights.append(SeasonNight(night, played, tuple(rows)))
    board = season_standings([n.played for n in nights], scheme, season.best)
    counted = counted_nights([n.played for n in nights], scheme, season.best)
    ratings = rate(game for n in nights for game in n.played.games)
    return SeasonNow(season, tuple(nights), tuple(board), counted, tuple(ratings))


def _results(db: Database, game_id: str) -> tuple[Result, ...] | None:
    """A finished game's places (None while it is played)."""
    current = current_game.load(db, game_id)
    if current is None or not current.standings.over:
        return None
    return night_results(current.standings, current.game.rules)


def _renamed(game: tuple[Result, ...], names: Mapping[str, str]) -> tuple[Result, ...]:
    """The game under the roster's names (a merged spelling counts for its player); as it
    was played when two of its players were merged into one."""
    renamed = tuple(_as(result, names.get(result.name, result.name)) for result in game)
    return renamed if len({r.name for r in renamed}) == len(renamed) else game


def _as(result: Result, name: str) -> Result:
    if name == result.name:
        return result
    return Result(name, result.place, result.sharing, result.players, result.score, result.phases)
