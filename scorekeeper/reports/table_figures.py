"""What a whole table's pages cost, paid once per version of the table.

The statistics page and the backup read and replay every game of a table. Both are
kept here, per table, with the table's version (``version``: every game's id and
version, and the merged spellings), and served again until something in the table
changes; a table's own page reads only the games it shows (``tables.games_page``).
Each game's own part of the statistics is kept too, by the game's version
(``per_game``), so after a change only the games that changed are replayed; and a
finished game's figures are kept in the file as well (``game_figures``), so a process
that has just started replays none of the games it has figures for.
Several requests for the same table at once wait for one to work it out.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from sqlite_utils import Database

from .. import clock, store
from ..live.turns import let_others_run
from ..rules.game import Game, GameError
from ..rules.phases import RulesError
from ..store import game_figures, tables
from ..store.game_figures import KeptFigures
from . import current_game, statistics

log = logging.getLogger(__name__)
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
    _keep_game(key, value)
    return value


def _keep_game(key: tuple[str, str, str, int], value: Any) -> None:
    with _lock:
        _games[key] = value
        _games.move_to_end(key)
        while len(_games) > KEPT_GAMES:
            _games.popitem(last=False)


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


def game_figures_of_table(db: Database, table_id: str) -> list[statistics.GameFigures]:
    """The figures of the table's finished games, oldest first: each kept in this process,
    or else in the file (at the game's version), or else worked out from the game's hands
    and then kept in both. Other requests run between the games worked out."""
    versions = tables.game_versions(db, table_id)
    path = db_path(db)
    with _lock:
        found = {
            game_id: _games[key]
            for game_id, version in versions
            if (key := (path, "figures", game_id, version)) in _games
        }
    in_file = game_figures.of_table(db, table_id) if len(found) < len(versions) else {}
    new: list[KeptFigures] = []
    for number, (game_id, version) in enumerate(versions):
        if game_id in found:
            continue
        if number % 100 == 0:
            let_others_run()
        figures = _from_file(in_file.get(game_id), version)
        if figures is None:
            figures = worked_out(db, game_id)
            if figures is not None:
                new.append(_kept_figures(game_id, version, figures))
        _keep_game((path, "figures", game_id, version), figures)
        found[game_id] = figures
    try:
        game_figures.keep(db, new)
    except sqlite3.OperationalError as error:  # a full disk, a file that is read-only now:
        log.warning("statistics of %s not kept in the file: %s", table_id, error)  # next time
    finished = (found[game_id] for game_id, _version in versions)
    return sorted((f for f in finished if f is not None), key=lambda figures: figures.date)


def _from_file(kept: KeptFigures | None, version: int) -> statistics.GameFigures | None:
    """Figures the file kept for this version of the game, in today's format; None when
    there are none (or they are damaged: they are worked out again)."""
    if kept is None or kept.version != version or kept.format != statistics.FIGURES_FORMAT:
        return None
    try:
        return statistics.GameFigures.from_json(kept.figures)
    except (ValueError, KeyError, TypeError):
        return None


def worked_out(db: Database, game_id: str) -> statistics.GameFigures | None:
    """A game's part of its table's statistics, from its hands (None while it is played,
    or when it can no longer be read)."""
    let_others_run()
    try:
        stored = store.games.get_game(db, game_id)
        if stored is None or (stored.standings is not None and not stored.standings.get("over")):
            return None  # gone, or in progress: nothing to replay
        game = current_game.played(stored)
    except store.games.UnreadableGame:
        return None
    return _figures(statistics.PlayedGame(game, stored.created, minutes=_minutes(db, stored)))


def _figures(played: statistics.PlayedGame) -> statistics.GameFigures | None:
    try:
        return statistics.figures(played)
    except (GameError, RulesError):
        return None


def _minutes(db: Database, stored: store.games.StoredGame) -> int | None:
    """The game's playing time: none for a game that came whole (imported); one under a
    minute has 0."""
    played_until = store.history.played_until(db, stored)
    return None if played_until == stored.created else clock.minutes(stored.created, played_until)


def _kept_figures(game_id: str, version: int, figures: statistics.GameFigures) -> KeptFigures:
    return KeptFigures(game_id, version, statistics.FIGURES_FORMAT, figures.to_json())


def before_import(new: store.games.NewGame, game: Game) -> statistics.GameFigures | None:
    """A game's figures before it is written whole (a table's import), dated as the file
    will have it; its playing time is read once it is written (``keep_imported``)."""
    return _figures(statistics.PlayedGame(game, new.game.created))


def size_before_import(figures: statistics.GameFigures | None) -> int:
    """What ``before_import``'s figures will take in the file once kept."""
    return 0 if figures is None else game_figures.size(figures.to_json())


def keep_imported(
    db: Database, written: list[tuple[store.games.StoredGame, statistics.GameFigures | None]]
) -> None:
    """Keep the figures of games just written whole (a table's import), worked out before
    (``before_import``), with the playing time the file now gives each game: its statistics
    replay none of them."""
    kept = []
    for number, (stored, figures) in enumerate(written, start=1):
        if number % 16 == 0:
            let_others_run()
        if figures is not None:
            timed = replace(figures, minutes=_minutes(db, stored))
            kept.append(_kept_figures(stored.id, stored.version, timed))
    game_figures.keep(db, kept)
