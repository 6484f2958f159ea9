"""Deleted games and tables purged for good once their grace period is over, and the room
they took given back.

A game or table deleted by its link stays in the file, hidden, for ``PURGE_AFTER_DAYS``
days: until then its link's page brings it back (docs/storage.md). After that ``purge``
removes every row of it, one game per transaction, so the other tables' writers wait for
one game's rows at most; then it gives the freed pages back to the file system a few at a
time (SQLite's incremental vacuum, in files made since it was added; an older file reuses
its free pages for new games instead, and shrinks after a ``scorekeeper purge --vacuum``).

It runs when the app starts (``create_app``), every ``PURGE_EVERY`` seconds while a
server runs (``every``), and on demand (``scorekeeper purge``). The store's clock
(``store.connection.now``) says what is due, so tests set the day.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlite_utils import Database

from .. import store

PURGE_AFTER_DAYS = 7  # how long a deleted game or table can still be restored
PURGE_EVERY = 3600.0  # seconds between purges while a server runs
VACUUM_STEP = 256  # pages given back per step: a step holds the write lock ~ms

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Purged:
    games: int
    tables: int
    pages: int  # pages given back to the file system


def due_before(now: str) -> str:
    """Deletions at or before this moment are past their grace period."""
    moment = datetime.fromisoformat(now) - timedelta(days=PURGE_AFTER_DAYS)
    return moment.isoformat(timespec="seconds")


def purge(db: Database) -> Purged:
    """Remove every game and table deleted more than PURGE_AFTER_DAYS ago; give room back."""
    cutoff = due_before(store.connection.now())
    due_games = db.execute(
        "SELECT game_id FROM deleted_games WHERE at <= ? ORDER BY at", [cutoff]
    ).fetchall()
    games = sum(_purge_game(db, game_id, cutoff) for (game_id,) in due_games)
    due_tables = db.execute(
        "SELECT id FROM tables WHERE deleted IS NOT NULL AND deleted <= ?", [cutoff]
    ).fetchall()
    purged_tables = sum(_purge_table(db, table_id, cutoff) for (table_id,) in due_tables)
    pages = give_back(db) if games or purged_tables else 0
    return Purged(games, purged_tables, pages)


def _purge_game(db: Database, game_id: str, cutoff: str) -> bool:
    with store.connection.transaction(db):
        still = db.execute(  # restored meanwhile, or purged by another process
            "SELECT 1 FROM deleted_games WHERE game_id = ? AND at <= ?", [game_id, cutoff]
        ).fetchone()
        if still is None:
            return False
        _remove_game(db, game_id)
    return True


def _remove_game(db: Database, game_id: str) -> None:
    for name in (
        "changes",
        "hand_entries",
        "game_sizes",
        "game_figures",
        "table_games",
        "night_games",
        "deleted_games",
    ):
        db.execute(f"DELETE FROM {name} WHERE game_id = ?", [game_id])
    db.execute("UPDATE games SET follows = NULL WHERE follows = ?", [game_id])
    db.execute("DELETE FROM games WHERE id = ?", [game_id])


def _purge_table(db: Database, table_id: str, cutoff: str) -> bool:
    """The table's rows; its games were deleted with it and are purged first, one by one."""
    for (game_id,) in db.execute(
        "SELECT game_id FROM table_games WHERE table_id = ?", [table_id]
    ).fetchall():
        _purge_game(db, game_id, cutoff)
    with store.connection.transaction(db):
        still = db.execute(
            "SELECT 1 FROM tables WHERE id = ? AND deleted IS NOT NULL AND deleted <= ?",
            [table_id, cutoff],
        ).fetchone()
        if still is None:
            return False
        for (game_id,) in db.execute(
            "SELECT game_id FROM table_games WHERE table_id = ?", [table_id]
        ).fetchall():  # a game not deleted with it cannot be here; purge it all the same
            _remove_game(db, game_id)
        _remove_table_rows(db, table_id)
    return True


def _remove_table_rows(db: Database, table_id: str) -> None:
    """A table's own rows, its nights' and its seasons' (its games are removed one by one
    before)."""
    for name in ("season_nights", "season_changes"):
        db.execute(
            f"DELETE FROM {name} WHERE season_id IN (SELECT id FROM seasons WHERE table_id = ?)",
            [table_id],
        )
    for name in ("night_players", "night_rounds", "night_games", "night_changes"):
        db.execute(
            f"DELETE FROM {name} WHERE night_id IN (SELECT id FROM nights WHERE table_id = ?)",
            [table_id],
        )
    for name in ("table_players", "table_aliases", "nights", "seasons"):
        db.execute(f"DELETE FROM {name} WHERE table_id = ?", [table_id])
    db.execute("DELETE FROM tables WHERE id = ?", [table_id])


def remove_table(db: Database, table_id: str) -> None:
    """A table and its games gone at once, with no grace: an import that did not finish."""
    for (game_id,) in db.execute(
        "SELECT game_id FROM table_games WHERE table_id = ?", [table_id]
    ).fetchall():
        with store.connection.transaction(db):
            _remove_game(db, game_id)
    with store.connection.transaction(db):
        _remove_table_rows(db, table_id)


def give_back(db: Database) -> int:
    """Hand the file's free pages back to the file system, VACUUM_STEP at a time, each step
    queued with the other writers; the pages given back (0 in a file without incremental
    vacuum, which reuses them for new games)."""
    if db.execute("PRAGMA auto_vacuum").fetchone()[0] != 2:  # INCREMENTAL
        return 0
    given = 0
    while (free := db.execute("PRAGMA freelist_count").fetchone()[0]) > 0:
        with store.connection.writing(db):
            # executescript steps the pragma to its end (execute would free one page)
            db.conn.executescript(f"PRAGMA incremental_vacuum({VACUUM_STEP})")
        left = db.execute("PRAGMA freelist_count").fetchone()[0]
        if left >= free:
            break  # nothing moved: another connection holds what is left
        given += free - left
    return given


def every(path: str, seconds: float = PURGE_EVERY) -> threading.Event:
    """Purge on a thread of its own every ``seconds`` while the server runs; set the event
    returned to stop it."""
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(seconds):
            try:
                done = purge(store.connection.connect(path))
            except sqlite3.Error as error:  # busy, full, read-only: the next round tries again
                log.warning("purging deleted games failed: %s", error)
                continue
            if done.games or done.tables:
                log.info("purged %s deleted games and %s tables", done.games, done.tables)

    threading.Thread(target=run, name="scorekeeper-purge", daemon=True).start()
    return stop
