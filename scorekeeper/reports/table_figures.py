"""What a whole table's pages cost, paid once per version of the table.

The statistics page and the backup read and replay every game of a table. Both are
kept here, per table, with the table's version (``version``: every game's id and
version, and the merged spellings), and served again until something in the table
changes; a table's own page reads only the games it shows (``tables.games_page``).
Each game's own part of the statistics is kept too, by the game's version
(``per_game``), so after a change only the games that changed are replayed.
Several requests for the same table at once wait for one to work it out.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from sqlite_utils import Database

from ..store import tables

T = TypeVar("T")
KEPT = 16  # tables whose statistics (and backups) are kept; the least recently used go
KEPT_GAMES = 20_000  # games whose own part of them is kept (a few hundred bytes each)

_kept: OrderedDict[tuple[str, str, str], tuple[str, Any]] = OrderedDict()
_lock = threading.Lock()
_working: dict[tuple[str, str, str], threading.Lock] = {}
_games: OrderedDict[tuple[str, str, str, int], Any] = OrderedDict()


def db_path(db: Database) -> str:
    """The file a connection reads: every thread's connection to it shares what is kept."""
    row = db.execute("PRAGMA database_list").fetchone()
    return str(row[2])


def version(db: Database, table_id: str) -> str:
    """Changes whenever a game of the table changes, joins or leaves it, or a name merges."""
    games = ",".join(f"{game}:{number}" for game, number in tables.game_versions(db, table_id))
    names = db.execute(
        "SELECT group_concat(alias || '>' || name, ',') FROM (SELECT alias, name "
        "FROM table_aliases WHERE table_id = ? ORDER BY alias)",
        [table_id],
    ).fetchone()[0]
    return hashlib.sha256(f"{games}|{names}".encode()).hexdigest()


def per_game(
    db: Database, what: str, game_id: str, version: int, work_out: Callable[[str], T]
) -> T:
    """One game's part of a table's page at one version of the game (``work_out(game_id)``):
    kept, so a change to one game works out that game's part again, not every game's."""
    key = (db_path(db), what, game_id, version)
    with _lock:
        if key in _games:
            _games.move_to_end(key)
            return _games[key]  # type: ignore[no-any-return]
    value = work_out(game_id)
    with _lock:
        _games[key] = value
        while len(_games) > KEPT_GAMES:
            _games.popitem(last=False)
    return value


def kept(db: Database, table_id: str, what: str, work_out: Callable[[], T], also: str = "") -> T:
    """``what`` ("stats", "backup") of the table at its current version (and ``also``,
    whatever else it shows): kept, or worked out once by ``work_out`` while other requests
    for it wait."""
    key = (db_path(db), table_id, what)
    now = f"{version(db, table_id)}|{also}"
    with _lock:
        lock = _working.setdefault(key, threading.Lock())
    with lock:
        with _lock:
            found = _kept.get(key)
            if found is not None and found[0] == now:
                _kept.move_to_end(key)
                return found[1]  # type: ignore[no-any-return]
        value = work_out()
        with _lock:
            _kept[key] = (now, value)
            _kept.move_to_end(key)
            while len(_kept) > KEPT:
                old, _ = _kept.popitem(last=False)
                _working.pop(old, None)
    return value
