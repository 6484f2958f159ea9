"""Games as stored: a game is a log of changes, with its current standings kept.

``games`` holds each game's current state (its game file), the standings of that
version and the engine's state after each hand (so a change replays only from the
hand it touches), all written once when the version is written. ``changes`` holds
every change as the change itself: the game file when created or imported, the
hand recorded, the hand corrected, the hand deleted, the game ended early, or
the version an undo or a restore went back to. Nothing is ever overwritten in
the log, so any version can be rebuilt and restored, and undo is one more change.

Each write is one transaction guarded by the version the writer read: two phones
saving at once cannot both win. Every table is in ``schema.py``.
"""

from __future__ import annotations

import hmac
import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from sqlite_utils import Database

from . import budget, change_notes, connection, records
from .schema import new_key, unused_code


class Conflict(Exception):
    """The game changed since the writer read it."""


class UnreadableGame(Exception):
    """A game whose stored row cannot be read back: a damaged byte in its text, JSON that
    does not parse, a game file the engine cannot load. The rest of the file may be whole;
    ``game_id`` names the game to restore (web pages and ``scorekeeper check-db`` say so)."""

    def __init__(self, game_id: str, reason: str) -> None:
        self.game_id, self.reason = game_id, reason
        super().__init__(f"game {game_id} cannot be read: {reason}")


# What reading a damaged game's row raises: text that is not UTF-8 (sqlite3 says so with an
# OperationalError of its own, without an SQLite error code), JSON that does not parse, and
# JSON of the wrong shape.
_DAMAGED_ROW = (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError, AttributeError)


@contextmanager
def reading(game_id: str) -> Iterator[None]:
    """Turn what a damaged row raises into UnreadableGame(game_id)."""
    try:
        yield
    except sqlite3.OperationalError as error:
        if getattr(error, "sqlite_errorcode", None) is not None:  # SQLite's own: not the row
            raise
        raise UnreadableGame(game_id, str(error)) from error
    except _DAMAGED_ROW as error:
        raise UnreadableGame(game_id, f"{type(error).__name__}: {error}") from error


@dataclass(frozen=True)
class StoredGame:
    """One game's row: its current version, read without replaying anything."""

    id: str
    edit_key: str
    version: int
    created: str
    updated: str
    state_text: str = field(metadata=records.column("state"))
    standings_text: str | None = field(default=None, metadata=records.column("standings"))
    kept_text: str | None = field(default=None, metadata=records.column("kept"))
    code: str | None = None  # the short code read aloud to open the watch page
    time_zone: str | None = None  # its clock (IANA name) while in no table; None: the server's

    @cached_property
    def state(self) -> dict[str, Any]:
        """The game file of this version (docs/game-format.md); UnreadableGame if damaged."""
        with reading(self.id):
            state = json.loads(self.state_text)
            if not isinstance(state, dict):
                raise TypeError("the game file is not a JSON object")
            return state

    @cached_property
    def standings(self) -> dict[str, Any] | None:
        """``Standings.to_json()`` of this version, or None if never computed."""
        with reading(self.id):
            return json.loads(self.standings_text) if self.standings_text else None

    @cached_property
    def kept(self) -> list[dict[str, Any]] | None:
        """The engine's state after each hand (``rules.replay.replay_from``), or None."""
        with reading(self.id):
            kept: list[dict[str, Any]] | None = (
                json.loads(self.kept_text) if self.kept_text else None
            )
            return kept


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _texts(game: StoredGame) -> int:
    """The bytes of the row's texts (``game_sizes.row_bytes``, schema.ROW_BYTES)."""
    return budget.size_of(game.state_text, game.standings_text, game.kept_text)


def create_game(
    db: Database,
    state: dict[str, Any],
    *,
    action: str = "create",
    summary: str = change_notes.note("create"),
    standings: dict[str, Any] | None = None,
    kept: list[dict[str, Any]] | None = None,
    follows: str | None = None,
    dates: tuple[str, str] | None = None,
    time_zone: str | None = None,
) -> StoredGame:
    """A new game; the log's first change is its game file.

    ``follows``: the game it was started after (a rematch). ``dates``: when it was
    first and last played, for a game brought back from a backup (else now).
    ``time_zone``: its clock while it is in no table.
    """
    new = new_game(
        state,
        action=action,
        summary=summary,
        standings=standings,
        kept=kept,
        follows=follows,
        dates=dates,
        time_zone=time_zone,
    )
    with connection.transaction(db):
        budget.room_for(db, None, [new.size])
        stored = insert_game(db, new)
        budget.check_room(db, [stored.id])
        return stored


@dataclass(frozen=True)
class NewGame:
    """A game's first row and first change, encoded and measured, ready to be inserted."""

    game: StoredGame  # without its short code, given as it is inserted
    follows: str | None
    change: dict[str, Any]  # its first row of ``changes``, by column (its game's id aside)
    size: int  # the bytes it will take in the file, estimated (budget.game_bytes)

    @property
    def id(self) -> str:
        return self.game.id


def new_game(
    state: dict[str, Any],
    *,
    action: str = "create",
    summary: str = change_notes.note("create"),
    standings: dict[str, Any] | None = None,
    kept: list[dict[str, Any]] | None = None,
    follows: str | None = None,
    dates: tuple[str, str] | None = None,
    time_zone: str | None = None,
) -> NewGame:
    """Everything ``insert_game`` writes, worked out before any lock is taken."""
    now = connection.now()  # one moment: a game that came whole took no time (device.py)
    created, updated = dates or (now, now)
    game = StoredGame(
        id=new_key(),
        edit_key=new_key(),
        version=1,
        created=created,
        updated=updated,
        state_text=dumps(state),
        standings_text=None if standings is None else dumps(standings),
        kept_text=None if kept is None else dumps(kept),
        time_zone=time_zone,
    )
    change: dict[str, Any] = {
        "version": 1,
        "at": created,
        "action": action,
        "summary": summary,
        "detail": dumps({"game": state}),
        "hands": len(state["hands"]),
        "undo_to": None,
    }
    size = budget.game_bytes(_texts(game), budget.size_of(summary, change["detail"]))
    return NewGame(game, follows, change, size)


def insert_game(db: Database, new: NewGame) -> StoredGame:
    """Write a game made by ``new_game`` (inside the caller's transaction); only inserts.
    What its rows add to the file is measured and kept (``game_sizes``); the caller checks
    the budgets once the game is filed (``budget.check_room``)."""
    with connection.transaction(db):
        game = replace(new.game, code=unused_code(db))  # checked free under the write lock
        before = budget.used_bytes(db)
        records.insert(db, "games", {**records.row(game), "follows": new.follows})
        between = budget.used_bytes(db)
        records.insert(db, "changes", {"game_id": game.id, **new.change})
        # the estimate holds its place (its numbers are as long) until measured
        budget.charge(db, budget.GameSize(game.id, new.size, new.size))
        after = budget.used_bytes(db)
        db.execute(
            "UPDATE game_sizes SET row_bytes = ?, log_bytes = ? WHERE game_id = ?",
            [between - before, after - between, game.id],
        )
    return game


def get_game(db: Database, game_id: str, *, deleted: bool = False) -> StoredGame | None:
    """The game's row, None if there is no such game (or it is deleted, unless ``deleted``);
    UnreadableGame if its text is damaged."""
    shown = "1" if deleted else _NOT_DELETED.format("id")
    with reading(game_id):
        return records.one(
            db, StoredGame, f"SELECT {_COLUMNS} FROM games WHERE id = ? AND {shown}", [game_id]
        )


_COLUMNS = records.columns(StoredGame)


# SQL: the game whose id is in the named column is not deleted (deleted_games)
_NOT_DELETED = "NOT EXISTS (SELECT 1 FROM deleted_games d WHERE d.game_id = {})"


def edit_key_matches(game: StoredGame, key: str) -> bool:
    return hmac.compare_digest(game.edit_key.encode(), key.encode())


def renew_edit_key(db: Database, game_id: str, old: str) -> str | None:
    """A new scorekeeper link: the old key stops working at once. None when ``old`` is no
    longer the game's key (another phone renewed it first). Access, not play: the change
    log is not touched (docs/decisions.md)."""
    key = new_key()
    with connection.transaction(db):
        cursor = db.execute(
            "UPDATE games SET edit_key = ? WHERE id = ? AND edit_key = ?", [key, game_id, old]
        )
    return key if cursor.rowcount == 1 else None


def set_time_zone(db: Database, game_id: str, time_zone: str) -> None:
    """The clock a game in no table is dated on (an IANA name the caller has checked).
    Like its links, not play: the change log is not touched."""
    with connection.transaction(db):
        db.execute("UPDATE games SET time_zone = ? WHERE id = ?", [time_zone, game_id])


def renew_player_key(db: Database, game_id: str, old: str | None) -> str | None:
    """New links for the players (web/access.py derives them from this key): every old
    one stops working. None when the key is no longer ``old`` (renewed meanwhile)."""
    key = new_key()
    with connection.transaction(db):
        cursor = db.execute(
            "UPDATE games SET player_key = ? WHERE id = ? AND player_key IS ?",
            [key, game_id, old],
        )
    return key if cursor.rowcount == 1 else None


def save_change(
    db: Database,
    game_id: str,
    expected_version: int,
    state: dict[str, Any],
    *,
    action: str,
    summary: str,
    detail: dict[str, Any] | None = None,
    standings: dict[str, Any] | None = None,
    kept: list[dict[str, Any]] | None = None,
    undo_to: int | None = -1,
    extends: StoredGame | None = None,
    then: Callable[[Database], None] | None = None,
) -> StoredGame:
    """Write the next version, or raise Conflict if someone else wrote first.

    ``detail`` is the change itself ({"hand": ...}, {"number": k, "hand": ...},
    {"number": k}, {"end": "early"}, {"to": version}); without it the whole game
    file is logged.
    ``undo_to``: the version Undo would go back to afterwards (default: the one
    this change replaced). ``extends``: the version this change adds one hand
    to (a hand recorded), whose stored text is extended rather than the whole
    game encoded again. ``then``: more to write in the same transaction.
    """
    at = connection.now()
    text, kept_text = _extended(extends, state, kept) if extends else (None, None)
    text = text or dumps(state)
    if kept_text is None and kept is not None:
        kept_text = dumps(kept)
    standings_text = None if standings is None else dumps(standings)
    detail_text = dumps(detail if detail is not None else {"game": state})
    version = expected_version + 1
    # everything encoded beforehand: other writers wait only for the write
    with connection.transaction(db):
        before = budget.used_bytes(db)
        cursor = db.execute(
            "UPDATE games SET state = ?, standings = ?, kept = ?, version = ?, updated = ? "
            "WHERE id = ? AND version = ?",
            [
                text,
                standings_text,
                kept_text,
                version,
                at,
                game_id,
                expected_version,
            ],
        )
        if cursor.rowcount != 1:
            raise Conflict(game_id)
        between = budget.used_bytes(db)
        records.insert(
            db,
            "changes",
            {
                "game_id": game_id,
                "version": version,
                "at": at,
                "action": action,
                "summary": summary,
                "detail": detail_text,
                "hands": len(state["hands"]),
                "undo_to": expected_version if undo_to == -1 else undo_to,
            },
        )
        if then is not None:
            then(db)
        after = budget.used_bytes(db)
        budget.charge(db, budget.GameSize(game_id, between - before, after - between))
        if after > before:  # a write that takes no more room always goes through
            budget.check_room(db, [game_id])
        saved = records.one(db, StoredGame, f"SELECT {_COLUMNS} FROM games WHERE id = ?", [game_id])
    if saved is None:  # cannot be: the row was written in this transaction
        raise Conflict(game_id)
    return saved


def _extended(
    base: StoredGame, state: dict[str, Any], kept: list[dict[str, Any]] | None
) -> tuple[str | None, str | None]:
    """The texts of ``state`` and ``kept``, each ``base``'s text with one more hand, or None.

    Encoding a 150-hand game again for every hand recorded took longer than
    the rest of the write. Where ``base``'s text has the expected shape (the
    hands last in the game file, as ``_dumps`` writes it), its text is reused
    and only the new hand and its kept state are encoded.
    """
    hands = state["hands"]
    before = base.state
    if len(hands) != len(before["hands"]) + 1 or list(state) != list(before):
        return None, None
    text = base.state_text
    state_text = None
    if list(state)[-1] == "hands" and text.endswith("]}"):
        state_text = f"{text[:-2]}{',' if before['hands'] else ''}{dumps(hands[-1])}]}}"
    kept_text = None
    if kept is not None and len(kept) == len(hands) and base.kept_text is not None:
        old = base.kept_text
        if old.endswith("]"):
            kept_text = f"{old[:-1]}{',' if len(kept) > 1 else ''}{dumps(kept[-1])}]"
    return state_text, kept_text


@dataclass(frozen=True)
class Link:
    """What checking a game's link reads: its keys, and what tells whether a page showing
    it is still current, without reading the game itself."""

    game_id: str
    edit_key: str
    player_key: str | None
    version: int
    entries: int  # the newest points sent from players' phones (0: none)
    next_game: str | None  # the game started after this one (a rematch, the table's next)
    deleted: str | None = None  # when the game was deleted (it can be restored until purged)

    def edit_key_matches(self, key: str) -> bool:
        return hmac.compare_digest(self.edit_key.encode(), key.encode())


def game_link(db: Database, game_id: str) -> Link | None:
    """One indexed read per request, however long the game."""
    with reading(game_id):
        return records.one(
            db,
            Link,
            "SELECT g.id AS game_id, g.edit_key, g.player_key, g.version, "
            "coalesce((SELECT max(e.id) FROM hand_entries e WHERE e.game_id = g.id), 0) "
            "AS entries, "
            "(SELECT n.id FROM games n WHERE n.follows = g.id AND "
            f"{_NOT_DELETED.format('n.id')} ORDER BY n.created, n.rowid LIMIT 1) AS next_game, "
            "(SELECT d.at FROM deleted_games d WHERE d.game_id = g.id) AS deleted "
            "FROM games g WHERE g.id = ?",
            [game_id],
        )


def game_by_code(db: Database, code: str) -> str | None:
    """The game whose short code this is (not a deleted one)."""
    row = db.execute(
        f"SELECT id FROM games WHERE code = ? AND {_NOT_DELETED.format('id')}", [code]
    ).fetchone()
    return row[0] if row else None


def delete_game(db: Database, game_id: str, *, with_table: bool = False) -> None:
    """Hide a game until it is restored or purged (purge.py); its rows stay until then."""
    with connection.transaction(db):
        db.execute(
            "INSERT OR IGNORE INTO deleted_games (game_id, at, with_table) VALUES (?, ?, ?)",
            [game_id, connection.now(), int(with_table)],
        )


def restore_game(db: Database, game_id: str) -> bool:
    """Bring back a game deleted on its own; False when it is not (one deleted with its
    table comes back with the table, tables.restore_table)."""
    with connection.transaction(db):
        cursor = db.execute(
            "DELETE FROM deleted_games WHERE game_id = ? AND with_table = 0", [game_id]
        )
    return cursor.rowcount == 1


def deleted_game(db: Database, game_id: str) -> tuple[str, bool] | None:
    """(when, deleted with its table) for a deleted game, else None."""
    row = db.execute(
        "SELECT at, with_table FROM deleted_games WHERE game_id = ?", [game_id]
    ).fetchone()
    return (row[0], bool(row[1])) if row else None
