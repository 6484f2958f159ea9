"""Is the games file whole? Found at start-up and on demand, before damage bites; and can
the app keep score right now (``/healthz``)?

``examine`` says what is true of the file, as facts (``Finding``); the command
line puts them into words. It never writes: the file is opened read-only, or,
on storage nobody can write, as immutable. ``probe`` is the cheap check
``/healthz`` makes on every call (below).

- A file of **0 bytes** holds no games. SQLite would take it for a new, empty
  database and the app would start afresh over what was lost, so it is its own
  finding (unless its write-ahead log holds the data).
- **Read-only storage** is not damage: the file is checked as it lies and, if
  whole, said to be whole.
- **SQLite's own check**: ``integrity_check`` (every page, every index entry
  against its table) when the file is at most ``FULL_CHECK_BYTES``, else
  ``quick_check`` (the pages, without comparing indexes), which keeps start-up
  quick on a very large file; ``scorekeeper check-db`` always runs the full one.
- **Each game's own text**: SQLite has no checksum of its own, so a flipped
  byte inside a game's JSON passes both checks. With the full check, every
  JSON text of every game and change must parse (asked of SQLite, a few
  hundredths of a second); ``check-db`` also makes sure every text is UTF-8 and
  loads every game as the app does, which finds JSON that parses but is no
  game. Whatever start-up misses, the game's own page names when it is opened.
- **The probe** (``/healthz``, asked by monitors every few seconds, by anyone): the
  file is there (never created), takes the write lock, and each table's root and
  last page read. No page-by-page check: that is start-up's and ``check-db``'s, and
  on every unauthenticated call it would cost anyone's request a read of the file.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from ..store.schema import JSON_COLUMNS, text_columns
from . import current_game

# A club's years of games fit (about 650 bytes a hand: 100,000 hands). integrity_check
# took 0.15 s for 37 MB here (SSD, file cached, busy machine), a few seconds from an SD
# card; docs/scaling.md says so.
FULL_CHECK_BYTES = 64 * 1024 * 1024
SHOWN_PROBLEMS = 5  # SQLite lists at most this many problems


@dataclass(frozen=True)
class Finding:
    """One thing true of the games file: ``empty``, ``read-only``, ``damaged`` (``detail``:
    what SQLite found) or ``unreadable`` (``game``: its id; ``detail``: why)."""

    kind: str
    detail: str = ""
    game: str | None = None


EMPTY, READ_ONLY, DAMAGED, UNREADABLE = "empty", "read-only", "damaged", "unreadable"
UNREACHABLE = "unreachable"  # missing, or cannot be opened (the probe's)


def examine(path: str | Path, *, full: bool | None = None, load: bool = False) -> list[Finding]:
    """What is wrong with the games file at ``path`` ([] when whole, or not created yet).

    ``full``: run integrity_check (None: when the file is at most FULL_CHECK_BYTES).
    ``load``: also load every game as the app does (``scorekeeper check-db``).
    """
    path = Path(path)
    if not path.exists():
        return []
    if path.stat().st_size == 0 and _log_size(path) == 0:
        return [Finding(EMPTY)]
    full = path.stat().st_size <= FULL_CHECK_BYTES if full is None else full
    findings = [] if _writable(path) else [Finding(READ_ONLY)]
    try:
        conn = _open(path, read_only=bool(findings))
    except sqlite3.DatabaseError as error:
        return [*findings, Finding(DAMAGED, str(error))]
    with closing(conn):
        try:
            pragma = "integrity_check" if full else "quick_check"
            rows = conn.execute(f"PRAGMA {pragma}({SHOWN_PROBLEMS})").fetchall()
        except sqlite3.DatabaseError as error:
            return [*findings, Finding(DAMAGED, str(error))]
        found = [str(row[0]) for row in rows]
        if found != ["ok"]:
            return [*findings, Finding(DAMAGED, "; ".join(found))]
        if full or load:
            findings += [Finding(UNREADABLE, why, game) for game, why in _unreadable(conn, load)]
    return findings


def damage(path: str | Path) -> str | None:
    """None when the file is whole by SQLite's quick check (or not created yet), else what
    SQLite found wrong."""
    found = [f for f in examine(path, full=False) if f.kind == DAMAGED]
    return found[0].detail if found else None


def probe(path: str | Path) -> Finding | None:
    """None when the app can keep score in the file now, else what stops it: ``read-only``,
    ``unreachable`` or ``damaged`` (``detail``: SQLite's words). Opens its own connection,
    so it sees the file as a restarted server would."""
    uri = f"{Path(path).resolve().as_uri()}?mode=rw"  # never creates a missing file
    try:
        with closing(sqlite3.connect(uri, uri=True, timeout=2, isolation_level=None)) as conn:
            try:
                conn.execute("BEGIN IMMEDIATE")  # refused on a read-only file or folder
                conn.execute("ROLLBACK")
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode != sqlite3.SQLITE_BUSY:  # busy is not broken
                    raise
            for table in _tables(conn):  # each table's root, down to its last page
                conn.execute(f'SELECT max(rowid) FROM "{table}"').fetchall()
    except sqlite3.Error as error:
        return refusal(error)
    return None


def refusal(error: sqlite3.Error) -> Finding:
    """What SQLite's refusal says about the file: read-only, unreachable or damaged."""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF  # the primary code
    if code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM):
        return Finding(READ_ONLY, str(error))
    if code in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_NOTFOUND):
        return Finding(UNREACHABLE, str(error))
    return Finding(DAMAGED, str(error))


def _log_size(path: Path) -> int:
    log = path.with_name(path.name + "-wal")
    return log.stat().st_size if log.exists() else 0


def _writable(path: Path) -> bool:
    """Whether this process can write the file and make its -wal and -shm beside it."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _open(path: Path, read_only: bool) -> sqlite3.Connection:
    """The file opened read-only. On storage nobody can write, SQLite cannot make the
    shared-memory file a WAL database needs even to read it: open it as immutable (no
    one can be writing it there)."""
    uri = path.resolve().as_uri()
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as error:
        if not read_only or getattr(error, "sqlite_errorcode", None) != sqlite3.SQLITE_CANTOPEN:
            raise
    return sqlite3.connect(f"{uri}?immutable=1", uri=True)


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


GAME_KEY = {"games": "id", "changes": "game_id"}  # the column naming the game a row is of


def _game_text(
    conn: sqlite3.Connection,
) -> Iterator[tuple[str, str, tuple[str, ...], tuple[str, ...]]]:
    """(table, key, other text columns, JSON columns) of a game's rows, as the schema has
    them (store/schema.py) and as far as this file has them (an older one may lack some)."""
    for table, key in GAME_KEY.items():
        present = {row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')}
        documents = tuple(c for c in JSON_COLUMNS[table] if c in present)
        texts = tuple(
            c for c in text_columns(table) if c in present and c != key and c not in documents
        )
        yield table, key, texts, documents


def _unreadable(conn: sqlite3.Connection, deep: bool) -> Iterator[tuple[str, str]]:
    """(game id, why) for each game whose stored text cannot be read, once per game.

    Always: every JSON text parses, asked of SQLite (``json_valid``), which reads a 64 MB
    file in a few hundredths of a second. ``deep`` (check-db): every text is UTF-8, and
    every game loads as the app loads it; Python's share makes that ten times slower.
    """
    if not {"games", "changes"} <= _tables(conn):
        return  # not a games file, or one from before the change log: nothing to read
    seen: set[str] = set()
    for table, key, texts, documents in _game_text(conn):
        invalid = " OR ".join(f"NOT ({c} IS NULL OR json_valid({c}))" for c in documents)
        verdicts = ", ".join(f"{c} IS NULL OR json_valid({c})" for c in documents)
        query = f"SELECT CAST({key} AS BLOB), {verdicts} FROM {table}"
        rows = conn.execute(f"{query} WHERE {invalid}")
        if deep:
            blobs = ", ".join(f"CAST({c} AS BLOB)" for c in (*texts, *documents))
            rows = conn.execute(f"SELECT CAST({key} AS BLOB), {verdicts}, {blobs} FROM {table}")
        for raw, *found in rows:
            game = bytes(raw).decode("utf-8", "replace")
            parsed, values = found[: len(documents)], found[len(documents) :]
            why = _not_utf8(dict(zip((*texts, *documents), values, strict=False)))
            why = why or next(
                (f"{c}: not JSON" for c, ok in zip(documents, parsed, strict=True) if not ok), None
            )
            if why and game not in seen:
                seen.add(game)
                yield game, why
    if deep:
        yield from _unloadable(conn, seen)


def _not_utf8(values: dict[str, bytes | None]) -> str | None:
    for column, value in values.items():
        try:
            if value is not None:
                bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            return f"{column}: not UTF-8 text"
    return None


def _unloadable(conn: sqlite3.Connection, skip: set[str]) -> Iterator[tuple[str, str]]:
    """Games whose text reads but does not load as the app loads it."""
    from sqlite_utils import Database

    from .. import store

    db = Database(conn)
    ids = [row[0] for row in conn.execute("SELECT CAST(id AS BLOB) FROM games")]
    for raw in ids:
        game = bytes(raw).decode("utf-8", "replace")
        if game in skip:
            continue
        try:
            stored = store.games.get_game(db, game, deleted=True)  # restorable: checked too
            if stored is not None:
                current_game.current(stored)
                store.history.state_at(db, game, stored.version)  # its history rebuilds too
        except store.games.UnreadableGame as error:
            yield game, error.reason
