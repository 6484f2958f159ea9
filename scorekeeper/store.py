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
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from . import notes, schema
from .dbfile import DatabaseFile
from .schema import new_key, unused_code

_local = threading.local()
_open: set[sqlite3.Connection] = set()  # every connection this process opened, to close at exit
_open_lock = threading.Lock()


def _forget_connections() -> None:
    """A forked child (a gunicorn worker) opens its own: SQLite connections must not cross."""
    global _local, _files, _file_of
    _local = threading.local()
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
                _file_of[conn] = _files.setdefault(key, DatabaseFile(key))
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
    Inside another transaction it is part of that one: all of it is written, or none.
    """
    if db.conn.in_transaction:
        yield db
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


# --- schema ---------------------------------------------------------------------------


def wait_for_commit(db: Database, seen: int | None, timeout: float) -> int:
    """The count of commits to ``db``'s file seen by this process, after waiting at most
    ``timeout`` seconds for one more than ``seen`` (None: just the count)."""
    file = _file_of.get(db.conn)
    if file is None:  # an in-memory database is this connection's alone: no commit will come
        time.sleep(timeout if seen is not None else 0)
        return 0
    return file.commits if seen is None else file.wait_for_commit(seen, timeout)


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
    game_id, edit_key = new_key(), new_key()
    created, updated = dates or (now(), now())
    text = _dumps(state)
    row: tuple[Any, ...] = (
        game_id,
        edit_key,
        1,
        created,
        updated,
        text,
        None if standings is None else _dumps(standings),
        None if kept is None else _dumps(kept),
    )
    with transaction(db):
        row = (*row, unused_code(db))  # checked free under the write lock
        db.execute(
            f"INSERT INTO games ({_GAME_COLUMNS}, follows) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [*row, follows],
        )
        _log(db, game_id, 1, created, action, summary, {"game": state}, len(state["hands"]), None)
    return _row_to_game(row)


def get_game(db: Database, game_id: str) -> StoredGame | None:
    """The game's row, None if there is no such game; UnreadableGame if its text is damaged."""
    with reading(game_id):
        row = db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", [game_id]).fetchone()
    return _row_to_game(row) if row else None


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
    version = expected_version + 1
    with transaction(db):  # everything encoded beforehand: other writers wait only for the write
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
        _log(
            db,
            game_id,
            version,
            at,
            action,
            summary,
            detail if detail is not None else {"game": state},
            len(state["hands"]),
            expected_version if undo_to == -1 else undo_to,
        )
        if then is not None:
            then(db)
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
    detail: dict[str, Any],
    hands: int,
    undo_to: int | None,
) -> None:
    db.execute(
        "INSERT INTO changes (game_id, version, at, action, summary, detail, hands, undo_to) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [game_id, version, at, action, summary, _dumps(detail), hands, undo_to],
    )


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


def apply_detail(hands: list[Any], detail: dict[str, Any]) -> None:
    """Apply one logged hand change to the list of hands (an end changes none)."""
    if "number" in detail and "hand" in detail:
        hands[detail["number"] - 1] = detail["hand"]
    elif "number" in detail:
        del hands[detail["number"] - 1]
    else:
        hands.append(detail["hand"])


def undo_step(db: Database, game_id: str) -> tuple[Change, int] | None:
    """(the change Undo takes back, the version it goes back to), or None if nothing is left.

    Each undo cancels one earlier change, so tapping Undo again keeps stepping back;
    the target is kept with every change, so this reads two rows, never the whole log.
    """
    row = db.execute(
        "SELECT c.undo_to FROM games g JOIN changes c "
        "ON c.game_id = g.id AND c.version = g.version WHERE g.id = ?",
        [game_id],
    ).fetchone()
    if row is None or row[0] is None:
        return None
    target = row[0]
    undone = get_change(db, game_id, target + 1)
    assert undone is not None  # versions have no gaps
    return undone, target


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

    def edit_key_matches(self, key: str) -> bool:
        return hmac.compare_digest(self.edit_key.encode(), key.encode())


def game_link(db: Database, game_id: str) -> Link | None:
    """One indexed read per request, however long the game."""
    with reading(game_id):
        row = _link_row(db, game_id)
    if row is None:
        return None
    game, edit_key, player_key, version, entries, next_game = row
    return Link(game, edit_key, player_key, version, entries or 0, next_game)


def _link_row(db: Database, game_id: str) -> tuple[Any, ...] | None:
    found: tuple[Any, ...] | None = db.execute(
        "SELECT g.id, g.edit_key, g.player_key, g.version, "
        "(SELECT max(e.id) FROM hand_entries e WHERE e.game_id = g.id), "
        "(SELECT n.id FROM games n WHERE n.follows = g.id ORDER BY n.created, n.rowid LIMIT 1) "
        "FROM games g WHERE g.id = ?",
        [game_id],
    ).fetchone()
    return found


def game_by_code(db: Database, code: str) -> str | None:
    """The game whose short code this is."""
    row = db.execute("SELECT id FROM games WHERE code = ?", [code]).fetchone()
    return row[0] if row else None
