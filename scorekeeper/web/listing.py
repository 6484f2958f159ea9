"""Lists of games for people: this device's games and tables, a table's games."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from markupsafe import Markup
from sqlite_utils import Database

from .. import store, tables
from ..rules.game import Game, GameError, Standings, load_game, standings_by_hand
from ..rules.phases import RulesError
from . import device
from .bidi import bdi_join

_replayed: dict[tuple[str, int], tuple[Game, list[Standings]]] = {}
MAX_KEPT = 4096


def replayed(stored: store.StoredGame) -> tuple[Game, list[Standings]]:
    """The game and its standings hand by hand, worked out once per game version.

    A version never changes once written, so a table's finished games are
    replayed once, not on every view of the table or its statistics.
    """
    key = (stored.id, stored.version)
    found = _replayed.get(key)
    if found is None:
        game = load_game(stored.state)
        found = (game, standings_by_hand(game, checked=False))  # checked when it was saved
        if len(_replayed) >= MAX_KEPT:
            _replayed.clear()
        _replayed[key] = found
    return found


@dataclass(frozen=True)
class GameSummary:
    """One game as a list shows it: who, how far, who won, and the link to open."""

    stored: store.StoredGame
    game: Game
    steps: list[Standings]  # before the first hand, then after each
    edit_key: str | None = None  # known to this device: open the scorekeeper page

    @property
    def standings(self) -> Standings:
        return self.steps[-1]

    @property
    def label(self) -> Markup:
        """The players in seat order, each name a unit (``<bdi>``)."""
        return bdi_join(self.game.players)

    @property
    def hands_played(self) -> int:
        return len(self.game.hands)

    @property
    def started(self) -> date | None:
        """The day the game was started, for the pages' ``day`` filter (dates in the
        reader's language); None if the stored date cannot be read."""
        return _day(self.stored.created)

    @property
    def last_played(self) -> date | None:
        """The day of the game's latest change: for a finished game, the day it ended."""
        return _day(self.stored.updated)


def _day(text: str) -> date | None:
    try:
        return datetime.fromisoformat(text).date()
    except ValueError:
        return None


def summarise(stored: store.StoredGame, edit_key: str | None = None) -> GameSummary | None:
    """None for a game the engine can no longer read (it is skipped, never shown broken)."""
    try:
        return GameSummary(stored, *replayed(stored), edit_key)
    except (GameError, RulesError):
        return None


def device_games(db: Database) -> list[GameSummary]:
    """The games this device created or opened, newest first."""
    result = []
    for game_id, key in device.games():
        stored = store.get_game(db, game_id)
        if stored is None:
            continue
        if key and not store.edit_key_matches(stored, key):
            key = None
        summary = summarise(stored, key)
        if summary is not None:
            result.append(summary)
    return result


def device_tables(db: Database) -> list[tables.Table]:
    found = (tables.get_table(db, table_id) for table_id in device.table_ids())
    return [table for table in found if table is not None]


def device_home(db: Database) -> dict[str, object]:
    """The start page's lists: games this device keeps score of, games it watches, tables."""
    games = device_games(db)
    keeping = [s for s in games if s.edit_key]
    return {
        "continuing": [s for s in keeping if not s.standings.over],
        "watching": [s for s in games if not s.edit_key],
        "finished": [s for s in keeping if s.standings.over][:6],
        "my_tables": device_tables(db),
    }


def suggested_names(db: Database) -> list[str]:
    """Names from this device's tables only: never another family's."""
    names: dict[str, None] = {}
    for table in device_tables(db):
        for player in tables.roster(db, table.id):
            if not player.retired:
                names.setdefault(player.name)
    return list(names)
