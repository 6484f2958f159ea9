"""Connections and transactions: one connection per thread and file, migrated and in WAL
mode; one write transaction at a time, queued in this process, with word of each commit
for the pages waiting on it; and the store's clock (``now``).
"""

from __future__ import annotations

import atexit
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from ..live.in_process import Listener
from . import commits, schema
from .games_file import DatabaseFile


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


def now() -> str:
    """The store's clock: every time it writes comes from here (tests set it)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


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
                _file_of[conn] = _files.setdefault(key, DatabaseFile(key, commits.changed))
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


def migrate(db: Database) -> None:
    """Create or upgrade the schema (schema.py); safe at every start and from many threads."""
    if not schema.migrations.pending(db):
        return
    with transaction(db):  # one writer migrates; the others wait, then find nothing to do
        schema.migrations.apply(db)
