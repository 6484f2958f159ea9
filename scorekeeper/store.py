"""SQLite storage: a game is a log of changes, with its current standings kept.

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

import atexit
import hmac
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from sqlite_utils import Database

from . import notes, schema, sizes
from .bells import Listener
from .dbfile import DatabaseFile
from .schema import new_key, unused_code


def _per_thread() -> Any:
    """Connections are kept per thread of the system. Under gevent (``serve``) that is one
    connection for every request of the process: a request never yields to another in the
    middle of an SQLite call or a transaction (neither does any I/O gevent waits on), and
    thousands of waiting pages need no connection each."""
    try:
        from gevent import monkey
    except ImportError:
        return threading.local()
    return monkey.get_original("_thread", "_local")()


_local = _per_thread()
_open: set[sqlite3.Connection] = set()  # every connection this process opened, to close at exit
_open_lock = threading.Lock()


def _forget_connections() -> None:
    """A forked child (a gunicorn worker) opens its own: SQLite connections must not cross."""
    global _local, _files, _file_of
    _local = _per_thread()
    _files, _file_of = {}, {}  # threads do not cross a fork, and locks must start free


os.register_at_fork(after_in_child=_forget_connections)


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
    state_text: str
    standings_text: str | None = None
    kept_text: str | None = None
    code: str | None = None  # the short code read aloud to open the watch page

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


@dataclass(frozen=True)
class Change:
    """One entry of a game's history."""

    version: int
    at: str
    action: str
    note: str  # what happened: its facts (notes.py), or words for changes saved before notes
    hands: int  # how many hands the game had after it
    undo_to: int | None  # the version Undo goes back to when this is the latest change

    @property
    def summary(self) -> str:
        """What happened, in words of the current language."""
        return notes.words(self.note)

    @property
    def when(self) -> datetime:
        """When it happened (UTC), for the page's ``day`` and time filters."""
        return datetime.fromisoformat(self.at)


def now() -> str:
    """The store's clock: every time it writes comes from here (tests set it)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


# --- connections ------------------------------------------------------------------------


def connect(path: str | Path) -> Database:
    """One connection per thread and path, migrated and in WAL mode.

    Reusing a connection per thread is several times faster than opening one per
    request; ``close_all`` closes them when the app stops or a test ends.
    """
    cache: dict[str, Database] | None = getattr(_local, "dbs", None)
    if cache is None or getattr(_local, "generation", None) != _generation:
        cache = _local.dbs = {}
        _local.generation = _generation
    key = str(path)
    if key not in cache:
        conn = sqlite3.connect(key, check_same_thread=False, timeout=10, isolation_level=None)
        with _open_lock:
            _open.add(conn)
        db = Database(conn)
        if key != ":memory:":
            with _open_lock:
                _file_of[conn] = _files.setdefault(key, DatabaseFile(key, changed))
            # a new file gives purged pages back (purge.py); only before its first table and
            # before WAL, so an older file keeps its mode (VACUUM changes it, docs/storage.md)
            db.execute("PRAGMA auto_vacuum=INCREMENTAL")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA wal_autocheckpoint=0")  # in the background (dbfile.py)
        db.execute("PRAGMA synchronous=FULL")  # a confirmed hand survives a power cut
        db.execute("PRAGMA busy_timeout=10000")
        migrate(db)
        cache[key] = db
    return cache[key]


def close_all() -> None:
    """Close every connection ``connect`` opened, in every thread (app shutdown, tests).

    A thread that uses the store afterwards opens a new connection.
    """
    global _generation
    with _open_lock:
        conns, files = list(_open), list(_files.values())
        _open.clear()
        _files.clear()
        _file_of.clear()
        _generation += 1
    for file in files:
        file.stop()
    for conn in conns:
        conn.close()


_generation = 0
atexit.register(close_all)


_files: dict[str, DatabaseFile] = {}  # per path: its writers' queue and checkpoints
_file_of: dict[sqlite3.Connection, DatabaseFile] = {}


@contextmanager
def transaction(db: Database) -> Iterator[Database]:
    """One write transaction, taking the write lock up front so writers queue.

    Writers in this process queue on their file's lock first (dbfile.py says why).
    Inside another transaction it is part of that one, all of it written or none, and a
    savepoint of its own: when it fails, what it wrote goes and the outer one may go on
    (a game refused for its table's budget leaves no row behind in a rematch's).
    """
    if db.conn.in_transaction:
        db.execute("SAVEPOINT part")
        try:
            yield db
        except BaseException:
            if db.conn.in_transaction:
                db.execute("ROLLBACK TO part")
                db.execute("RELEASE part")
            raise
        db.execute("RELEASE part")
        return
    file = _file_of.get(db.conn)
    with file.writers if file else nullcontext():
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.execute("COMMIT")  # inside: a full disk can refuse the commit itself
        except BaseException:
            if db.conn.in_transaction:  # SQLite may have rolled back already (disk full)
                db.execute("ROLLBACK")
            raise
    if file:
        file.written()


@contextmanager
def writing(db: Database) -> Iterator[Database]:
    """Queued with this process's writers, outside any transaction (a vacuum step, which
    SQLite runs in a transaction of its own)."""
    file = _file_of.get(db.conn)
    with file.writers if file else nullcontext():
        yield db
    if file:
        file.written()


# --- schema ---------------------------------------------------------------------------


def table_key(table_id: str) -> str:
    """What a table's screen listens on (a game's pages listen on the game's id)."""
    return f"table:{table_id}"


@contextmanager
def listening(db: Database, key: str) -> Iterator[Listener | None]:
    """Wait for commits that change ``key``; None for an in-memory database (no commit of
    another connection can come)."""
    file = _file_of.get(db.conn)
    if file is None:
        yield None
        return
    with file.listening(key) as listener:
        yield listener


Mark = tuple[int, int, int, int]


def night_key(night_id: str) -> str:
    """What a night's pages listen on: its own changes and its games' (nights.py)."""
    return f"night:{night_id}"


def changed(conn: sqlite3.Connection, mark: Mark | None) -> tuple[set[str], Mark]:
    """The keys the commits since ``mark`` changed, and the mark after them: new rows of the
    change log (a game's every version), of players' sendings, of tables' games and of
    nights' changes, each read by its position (rowid), never by a scan. A changed game's
    pages, the game it follows (whose pages follow it), its table's screen and its night's
    pages listen."""
    now: Mark = conn.execute(
        "SELECT (SELECT coalesce(max(rowid), 0) FROM changes), "
        "(SELECT coalesce(max(id), 0) FROM hand_entries), "
        "(SELECT coalesce(max(rowid), 0) FROM table_games), "
        "(SELECT coalesce(max(id), 0) FROM night_changes)"
    ).fetchone()
    if mark is None:
        return set(), now

    def column(sql: str, *args: Any) -> set[str]:
        return {row[0] for row in conn.execute(sql, args)}

    games = column("SELECT game_id FROM changes WHERE rowid > ?", mark[0])
    games |= column("SELECT game_id FROM hand_entries WHERE id > ?", mark[1])
    tables = column("SELECT table_id FROM table_games WHERE rowid > ?", mark[2])
    nights = column("SELECT night_id FROM night_changes WHERE id > ?", mark[3])
    if games:
        found = sorted(games)
        marks = ",".join("?" * len(found))
        games |= column(f"SELECT follows FROM games WHERE id IN ({marks})", *found) - {None}
        tables |= column(f"SELECT table_id FROM table_games WHERE game_id IN ({marks})", *found)
        nights |= column(f"SELECT night_id FROM night_games WHERE game_id IN ({marks})", *found)
    return (
        games | {table_key(table) for table in tables} | {night_key(night) for night in nights}
    ), now


def migrate(db: Database) -> None:
    """Create or upgrade the schema (schema.py); safe at every start and from many threads."""
    if not schema.migrations.pending(db):
        return
    with transaction(db):  # one writer migrates; the others wait, then find nothing to do
        schema.migrations.apply(db)


# --- games ------------------------------------------------------------------------------

_GAME_COLUMNS = "id, edit_key, version, created, updated, state, standings, kept, code"


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _row_to_game(row: sqlite3.Row | tuple[Any, ...]) -> StoredGame:
    return StoredGame(*row)


def create_game(
    db: Database,
    state: dict[str, Any],
    *,
    action: str = "create",
    summary: str = notes.note("create"),
    standings: dict[str, Any] | None = None,
    kept: list[dict[str, Any]] | None = None,
    follows: str | None = None,
    dates: tuple[str, str] | None = None,
) -> StoredGame:
    """A new game; the log's first change is its game file.

    ``follows``: the game it was started after (a rematch). ``dates``: when it was
    first and last played, for a game brought back from a backup (else now).
    """
    new = new_game(
        state,
        action=action,
        summary=summary,
        standings=standings,
        kept=kept,
        follows=follows,
        dates=dates,
    )
    with transaction(db):
        room_for(db, None, [new.size])
        stored = insert_game(db, new)
        check_room(db, [stored.id])
        return stored


@dataclass(frozen=True)
class NewGame:
    """A game's first row and first change, encoded and measured, ready to be inserted."""

    row: tuple[Any, ...]  # id, edit key, version, created, updated, state, standings, kept
    follows: str | None
    change: tuple[Any, ...]  # at, action, summary, detail, hands
    size: int  # the bytes it will take in the file, estimated (sizes.game_bytes)

    @property
    def id(self) -> str:
        return str(self.row[0])


def new_game(
    state: dict[str, Any],
    *,
    action: str = "create",
    summary: str = notes.note("create"),
    standings: dict[str, Any] | None = None,
    kept: list[dict[str, Any]] | None = None,
    follows: str | None = None,
    dates: tuple[str, str] | None = None,
) -> NewGame:
    """Everything ``insert_game`` writes, worked out before any lock is taken."""
    created, updated = dates or (now(), now())
    text = _dumps(state)
    row = (
        new_key(),
        new_key(),
        1,
        created,
        updated,
        text,
        None if standings is None else _dumps(standings),
        None if kept is None else _dumps(kept),
    )
    detail = _dumps({"game": state})
    change = (created, action, summary, detail, len(state["hands"]))
    size = sizes.game_bytes(size_of(*row[5:]), size_of(summary, detail))
    return NewGame(row, follows, change, size)


def insert_game(db: Database, new: NewGame) -> StoredGame:
    """Write a game made by ``new_game`` (inside the caller's transaction); only inserts.
    What its rows add to the file is measured and kept (``game_sizes``); the caller checks
    the budgets once the game is filed (``check_room``)."""
    with transaction(db):
        row = (*new.row, unused_code(db))  # checked free under the write lock
        before = sizes.used_bytes(db)
        db.execute(
            f"INSERT INTO games ({_GAME_COLUMNS}, follows) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [*row, new.follows],
        )
        between = sizes.used_bytes(db)
        at, action, summary, detail, hands = new.change
        db.execute(
            "INSERT INTO changes (game_id, version, at, action, summary, detail, hands, undo_to) "
            "VALUES (?, 1, ?, ?, ?, ?, ?, NULL)",
            [new.id, at, action, summary, detail, hands],
        )
        db.execute(  # the estimate holds its place (its numbers are as long) until measured
            "INSERT INTO game_sizes (game_id, row_bytes, log_bytes) VALUES (?, ?, ?)",
            [new.id, new.size, new.size],
        )
        after = sizes.used_bytes(db)
        db.execute(
            "UPDATE game_sizes SET row_bytes = ?, log_bytes = ? WHERE game_id = ?",
            [between - before, after - between, new.id],
        )
    return _row_to_game(row)


def get_game(db: Database, game_id: str, *, deleted: bool = False) -> StoredGame | None:
    """The game's row, None if there is no such game (or it is deleted, unless ``deleted``);
    UnreadableGame if its text is damaged."""
    shown = "1" if deleted else _NOT_DELETED.format("id")
    with reading(game_id):
        row = db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ? AND {shown}", [game_id]
        ).fetchone()
    return _row_to_game(row) if row else None


# SQL: the game whose id is in the named column is not deleted (deleted_games)
_NOT_DELETED = "NOT EXISTS (SELECT 1 FROM deleted_games d WHERE d.game_id = {})"


def edit_key_matches(game: StoredGame, key: str) -> bool:
    return hmac.compare_digest(game.edit_key.encode(), key.encode())


def renew_edit_key(db: Database, game_id: str, old: str) -> str | None:
    """A new scorekeeper link: the old key stops working at once. None when ``old`` is no
    longer the game's key (another phone renewed it first). Access, not play: the change
    log is not touched (docs/decisions.md)."""
    key = new_key()
    with transaction(db):
        cursor = db.execute(
            "UPDATE games SET edit_key = ? WHERE id = ? AND edit_key = ?", [key, game_id, old]
        )
    return key if cursor.rowcount == 1 else None


def renew_player_key(db: Database, game_id: str, old: str | None) -> str | None:
    """New links for the players (web/access.py derives them from this key): every old
    one stops working. None when the key is no longer ``old`` (renewed meanwhile)."""
    key = new_key()
    with transaction(db):
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
    at = now()
    text, kept_text = _extended(extends, state, kept) if extends else (None, None)
    text = text or _dumps(state)
    if kept_text is None and kept is not None:
        kept_text = _dumps(kept)
    standings_text = None if standings is None else _dumps(standings)
    detail_text = _dumps(detail if detail is not None else {"game": state})
    version = expected_version + 1
    with transaction(db):  # everything encoded beforehand: other writers wait only for the write
        before = sizes.used_bytes(db)
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
        between = sizes.used_bytes(db)
        _log(
            db,
            game_id,
            version,
            at,
            action,
            summary,
            detail_text,
            len(state["hands"]),
            expected_version if undo_to == -1 else undo_to,
        )
        if then is not None:
            then(db)
        after = sizes.used_bytes(db)
        _charge(db, game_id, between - before, after - between)
        if after > before:  # a write that takes no more room always goes through
            check_room(db, [game_id])
        row = db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", [game_id]).fetchone()
    return _row_to_game(row)


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
        state_text = f"{text[:-2]}{',' if before['hands'] else ''}{_dumps(hands[-1])}]}}"
    kept_text = None
    if kept is not None and len(kept) == len(hands) and base.kept_text is not None:
        old = base.kept_text
        if old.endswith("]"):
            kept_text = f"{old[:-1]}{',' if len(kept) > 1 else ''}{_dumps(kept[-1])}]"
    return state_text, kept_text


def _log(
    db: Database,
    game_id: str,
    version: int,
    at: str,
    action: str,
    summary: str,
    detail: str,
    hands: int,
    undo_to: int | None,
) -> None:
    db.execute(
        "INSERT INTO changes (game_id, version, at, action, summary, detail, hands, undo_to) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [game_id, version, at, action, summary, detail, hands, undo_to],
    )


# --- the storage budget -------------------------------------------------------------------


@dataclass(frozen=True)
class Budget:
    """The most one game, and one table with all its games, may take in the file: one family
    cannot crowd out the others (docs/storage.md). Set per connection by the web layer from
    ``MAX_GAME_BYTES`` and ``MAX_TABLE_BYTES``."""

    game: int = 8 * 1024**2
    table: int = 64 * 1024**2


class OverBudget(Exception):
    """A write that would take the game (``what`` = "game") or its table past its budget."""

    def __init__(self, what: str, most: int) -> None:
        self.what, self.most = what, most
        super().__init__(f"the {what} would take more than {most} bytes")


_budgets: WeakKeyDictionary[Database, Budget] = WeakKeyDictionary()


def set_budget(db: Database, budget: Budget) -> None:
    _budgets[db] = budget


def budget(db: Database) -> Budget:
    return _budgets.get(db) or Budget()


def size_of(*texts: str | None) -> int:
    """The bytes these texts take encoded (UTF-8): what a row holds, before SQLite lays it
    out in pages (``sizes.stored_bytes``)."""
    return sum(len(text.encode()) for text in texts if text is not None)


def _charge(db: Database, game_id: str, row: int, log: int) -> None:
    """Add what a write measured to the game's row and log in ``game_sizes`` (a row may
    shrink: an undo to a shorter version gives room back)."""
    db.execute(
        "INSERT INTO game_sizes (game_id, row_bytes, log_bytes) VALUES (?, max(0, ?), max(0, ?)) "
        "ON CONFLICT (game_id) DO UPDATE SET row_bytes = max(0, row_bytes + excluded.row_bytes), "
        "log_bytes = max(0, log_bytes + ?)",
        [game_id, row, log, log],
    )


@contextmanager
def charging(db: Database, game_id: str) -> Iterator[None]:
    """Inside a transaction: what the writes inside add to the file (a new game filed in
    its table, its players on the roster) is charged to the game, as its own rows are."""
    before = sizes.used_bytes(db)
    yield
    _charge(db, game_id, sizes.used_bytes(db) - before, 0)


def game_size(db: Database, game_id: str) -> int:
    """The bytes a game takes in the file: its row and its whole log."""
    row = db.execute(
        "SELECT row_bytes + log_bytes FROM game_sizes WHERE game_id = ?", [game_id]
    ).fetchone()
    return int(row[0] or 0) if row else 0


def table_size(db: Database, table_id: str) -> int:
    """The bytes a table's games take in the file (deleted ones too, until purged)."""
    row = db.execute(
        "SELECT coalesce(sum(s.row_bytes + s.log_bytes), 0) FROM table_games t "
        "JOIN game_sizes s ON s.game_id = t.game_id WHERE t.table_id = ?",
        [table_id],
    ).fetchone()
    return int(row[0])


def _table_of(db: Database, game_id: str) -> str | None:
    found = db.execute("SELECT table_id FROM table_games WHERE game_id = ?", [game_id]).fetchone()
    return found[0] if found else None


def check_room(db: Database, game_ids: list[str]) -> None:
    """After writing these games (and filing them in their table), before the commit:
    OverBudget if what they measured takes one of them or its table past its budget, so
    the transaction writes nothing."""
    most = budget(db)
    if any(game_size(db, game_id) > most.game for game_id in game_ids):
        raise OverBudget("game", most.game)
    found = {_table_of(db, game_id) for game_id in game_ids} - {None}
    if any(table_size(db, table_id) > most.table for table_id in found if table_id):
        raise OverBudget("table", most.table)


def room_for(
    db: Database, table_id: str | None, estimates: list[int], *, new_table: bool = False
) -> None:
    """Raise OverBudget unless games of these sizes (``NewGame.size``: estimated) fit: each
    in a game's budget, and all of them in the budget of the table ``table_id`` (or of a
    ``new_table`` they make)."""
    most = budget(db)
    if any(size > most.game for size in estimates):
        raise OverBudget("game", most.game)
    if table_id is None and not new_table:
        return
    if sum(estimates) + (table_size(db, table_id) if table_id else 0) > most.table:
        raise OverBudget("table", most.table)


# --- history ----------------------------------------------------------------------------

_CHANGE_COLUMNS = "version, at, action, summary, hands, undo_to"


def changes(db: Database, game_id: str) -> list[Change]:
    """The game's history, newest first (without the game at each version)."""
    with reading(game_id):
        rows = db.execute(
            f"SELECT {_CHANGE_COLUMNS} FROM changes WHERE game_id = ? ORDER BY version DESC",
            [game_id],
        ).fetchall()
    return [Change(*row) for row in rows]


def get_change(db: Database, game_id: str, version: int) -> Change | None:
    with reading(game_id):
        row = db.execute(
            f"SELECT {_CHANGE_COLUMNS} FROM changes WHERE game_id = ? AND version = ?",
            [game_id, version],
        ).fetchone()
    return Change(*row) if row else None


def played_until(db: Database, game: StoredGame) -> str:
    """When the game's playing time ends: the moment it first had as many hands as it has
    now, that is when the hand that ended it (or the latest so far) was recorded. Later
    corrections, an undo and its restore leave it where it was. Without a hand: when it was
    created. A game that came whole (imported with its hands): its latest change, as the
    file it came from said."""
    with reading(game.id):
        row = db.execute(
            "SELECT version, at, hands FROM changes WHERE game_id = ?1 AND hands >= "
            "(SELECT hands FROM changes WHERE game_id = ?1 AND version = ?2) "
            "ORDER BY version LIMIT 1",
            [game.id, game.version],
        ).fetchone()
    if row is None:
        return game.updated
    version, at, hands = row
    if version == 1:  # no hand yet: the start; all of them at once: as the file said
        return game.updated if hands else game.created
    return str(at)


def state_at(db: Database, game_id: str, version: int) -> dict[str, Any] | None:
    """The game file as it was at ``version``, rebuilt from the log.

    Follows the log back from ``version`` to the game file it grew from (jumping
    over undo and restore to the version they went back to), parsing only the
    changes on that path, then applies them in order. UnreadableGame if one is damaged.
    """
    with reading(game_id):
        return _state_at(db, game_id, version)


def _state_at(db: Database, game_id: str, version: int) -> dict[str, Any] | None:
    rows = dict(
        db.execute(
            "SELECT version, detail FROM changes WHERE game_id = ? AND version <= ?",
            [game_id, version],
        ).fetchall()
    )
    if version not in rows:
        return None
    path: list[dict[str, Any]] = []
    step = version
    while True:
        detail = json.loads(rows[step])
        if "moved" in detail:  # the game went to another table: its play is as before
            step -= 1
            continue
        if "game" in detail:
            state = detail["game"]
            break
        if "to" in detail:
            if not detail["to"] < step:  # a damaged log could point forward, round and round
                raise KeyError(f"version {step} goes back to {detail['to']}")
            step = detail["to"]
        else:
            path.append(detail)
            step -= 1
    hands = list(state["hands"])
    ended = {}
    for detail in reversed(path):
        if "end" in detail:
            ended = {"ended_early": True}
        else:
            apply_detail(hands, detail)
    state = {key: value for key, value in state.items() if key != "hands"}
    return {**state, **ended, "hands": hands}


def change_detail(db: Database, game_id: str, version: int) -> dict[str, Any] | None:
    """The change itself (``changes.detail``) of one version."""
    with reading(game_id):
        row = db.execute(
            "SELECT detail FROM changes WHERE game_id = ? AND version = ?", [game_id, version]
        ).fetchone()
        return json.loads(row[0]) if row else None


def apply_detail(hands: list[Any], detail: dict[str, Any]) -> None:
    """Apply one logged hand change to the list of hands (an end changes none)."""
    if "number" in detail and "hand" in detail:
        hands[detail["number"] - 1] = detail["hand"]
    elif "number" in detail:
        del hands[detail["number"] - 1]
    else:
        hands.append(detail["hand"])


def undo_step(db: Database, game_id: str) -> tuple[Change | None, int] | None:
    """(the change Undo takes back, the version it goes back to), or None if nothing is left.

    Each undo cancels one earlier change, so tapping Undo again keeps stepping back;
    the target is kept with every change, so this reads two rows, never the whole log.
    The change is None when the target kept is no earlier version (a damaged row).
    """
    row = db.execute(
        "SELECT c.undo_to, g.version FROM games g JOIN changes c "
        "ON c.game_id = g.id AND c.version = g.version WHERE g.id = ?",
        [game_id],
    ).fetchone()
    if row is None or row[0] is None:
        return None
    target, version = row
    return (get_change(db, game_id, target + 1) if 0 < target < version else None), target


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
        row = _link_row(db, game_id)
    if row is None:
        return None
    game, edit_key, player_key, version, entries, next_game, deleted = row
    return Link(game, edit_key, player_key, version, entries or 0, next_game, deleted)


def _link_row(db: Database, game_id: str) -> tuple[Any, ...] | None:
    found: tuple[Any, ...] | None = db.execute(
        "SELECT g.id, g.edit_key, g.player_key, g.version, "
        "(SELECT max(e.id) FROM hand_entries e WHERE e.game_id = g.id), "
        "(SELECT n.id FROM games n WHERE n.follows = g.id AND "
        f"{_NOT_DELETED.format('n.id')} ORDER BY n.created, n.rowid LIMIT 1), "
        "(SELECT d.at FROM deleted_games d WHERE d.game_id = g.id) "
        "FROM games g WHERE g.id = ?",
        [game_id],
    ).fetchone()
    return found


def game_by_code(db: Database, code: str) -> str | None:
    """The game whose short code this is (not a deleted one)."""
    row = db.execute(
        f"SELECT id FROM games WHERE code = ? AND {_NOT_DELETED.format('id')}", [code]
    ).fetchone()
    return row[0] if row else None


# --- deleting and restoring -------------------------------------------------------------


def delete_game(db: Database, game_id: str, *, with_table: bool = False) -> None:
    """Hide a game until it is restored or purged (purge.py); its rows stay until then."""
    with transaction(db):
        db.execute(
            "INSERT OR IGNORE INTO deleted_games (game_id, at, with_table) VALUES (?, ?, ?)",
            [game_id, now(), int(with_table)],
        )


def restore_game(db: Database, game_id: str) -> bool:
    """Bring back a game deleted on its own; False when it is not (one deleted with its
    table comes back with the table, tables.restore_table)."""
    with transaction(db):
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
