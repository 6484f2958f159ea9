"""SQLite storage: games as interchange-format JSON, every change a new version.

A game row holds the current state and a version number. Each change writes the
full new state into ``changes`` under the next version inside one transaction,
guarded by the version the writer read: two phones saving at once cannot both
win, and any version can be looked at or restored later (undo is a new change).
"""

from __future__ import annotations

import hmac
import json
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from sqlite_utils.db import NotFoundError

SCHEMA_VERSION = 1
_local = threading.local()


class Conflict(Exception):
    """The game changed since the writer read it."""


@dataclass(frozen=True)
class StoredGame:
    id: str
    edit_key: str
    version: int
    created: str
    updated: str
    state: dict[str, Any]


@dataclass(frozen=True)
class Change:
    version: int
    at: str
    action: str
    summary: str
    state: dict[str, Any]


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_key() -> str:
    """22 url-safe characters: 128 bits of randomness."""
    return secrets.token_urlsafe(16)


def connect(path: str | Path) -> Database:
    """One connection per thread and path, migrated and in WAL mode."""
    cache = getattr(_local, "dbs", None)
    if cache is None:
        cache = _local.dbs = {}
    key = str(path)
    if key not in cache:
        conn = sqlite3.connect(key, check_same_thread=False, timeout=10, isolation_level=None)
        db = Database(conn)
        if key != ":memory:":
            db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA busy_timeout=10000")
        migrate(db)
        cache[key] = db
    return cache[key]


@contextmanager
def transaction(db: Database) -> Iterator[Database]:
    """One write transaction, taking the write lock up front so writers queue."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def migrate(db: Database) -> None:
    """Create or upgrade the schema; safe to run at every start."""
    current = db.execute("PRAGMA user_version").fetchone()[0]
    if current >= SCHEMA_VERSION:
        return
    with transaction(db):
        if db.execute("PRAGMA user_version").fetchone()[0] < 1:
            db["games"].create(
                {
                    "id": str,
                    "edit_key": str,
                    "version": int,
                    "created": str,
                    "updated": str,
                    "state": str,
                },
                pk="id",
                if_not_exists=True,
            )
            db["changes"].create(
                {
                    "game_id": str,
                    "version": int,
                    "at": str,
                    "action": str,
                    "summary": str,
                    "state": str,
                },
                pk=("game_id", "version"),
                foreign_keys=[("game_id", "games", "id")],
                if_not_exists=True,
            )
            db["names"].create({"name": str, "last_used": str}, pk="name", if_not_exists=True)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _row_to_game(row: dict[str, Any]) -> StoredGame:
    return StoredGame(
        row["id"],
        row["edit_key"],
        row["version"],
        row["created"],
        row["updated"],
        json.loads(row["state"]),
    )


def create_game(
    db: Database, state: dict[str, Any], *, action: str = "create", summary: str = "Game created"
) -> StoredGame:
    game_id, edit_key, at = new_key(), new_key(), now()
    text = json.dumps(state, sort_keys=True)
    with transaction(db):
        db["games"].insert(
            {
                "id": game_id,
                "edit_key": edit_key,
                "version": 1,
                "created": at,
                "updated": at,
                "state": text,
            }
        )
        db["changes"].insert(
            {
                "game_id": game_id,
                "version": 1,
                "at": at,
                "action": action,
                "summary": summary,
                "state": text,
            }
        )
        db["names"].upsert_all([{"name": n, "last_used": at} for n in state["players"]], pk="name")
    return StoredGame(game_id, edit_key, 1, at, at, state)


def get_game(db: Database, game_id: str) -> StoredGame | None:
    try:
        return _row_to_game(db["games"].get(game_id))
    except NotFoundError:
        return None


def edit_key_matches(game: StoredGame, key: str) -> bool:
    return hmac.compare_digest(game.edit_key.encode(), key.encode())


def save_change(
    db: Database,
    game_id: str,
    expected_version: int,
    state: dict[str, Any],
    *,
    action: str,
    summary: str,
) -> StoredGame:
    """Write a new version, or raise Conflict if someone else wrote first."""
    at, text = now(), json.dumps(state, sort_keys=True)
    with transaction(db):
        cursor = db.execute(
            "UPDATE games SET state = ?, version = version + 1, updated = ? "
            "WHERE id = ? AND version = ?",
            [text, at, game_id, expected_version],
        )
        if cursor.rowcount != 1:
            raise Conflict(game_id)
        db["changes"].insert(
            {
                "game_id": game_id,
                "version": expected_version + 1,
                "at": at,
                "action": action,
                "summary": summary,
                "state": text,
            }
        )
    row = db["games"].get(game_id)
    return _row_to_game(row)


def changes(db: Database, game_id: str) -> list[Change]:
    rows = db.query(
        "SELECT version, at, action, summary, state FROM changes WHERE game_id = ? "
        "ORDER BY version DESC",
        [game_id],
    )
    return [
        Change(r["version"], r["at"], r["action"], r["summary"], json.loads(r["state"]))
        for r in rows
    ]


def get_change(db: Database, game_id: str, version: int) -> Change | None:
    rows = list(
        db.query(
            "SELECT version, at, action, summary, state FROM changes "
            "WHERE game_id = ? AND version = ?",
            [game_id, version],
        )
    )
    if not rows:
        return None
    r = rows[0]
    return Change(r["version"], r["at"], r["action"], r["summary"], json.loads(r["state"]))


def known_names(db: Database, limit: int = 30) -> list[str]:
    rows = db.query("SELECT name FROM names ORDER BY last_used DESC, name LIMIT ?", [limit])
    return [r["name"] for r in rows]


def game_version(db: Database, game_id: str) -> int | None:
    row = db.execute("SELECT version FROM games WHERE id = ?", [game_id]).fetchone()
    return row[0] if row else None
