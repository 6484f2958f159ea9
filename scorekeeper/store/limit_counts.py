"""Rate-limit counts every server process sees: a small SQLite file beside the games file.

Flask-Limiter keeps its counts in memory by default, one set per process, so
``serve --workers 2`` allowed each address twice its limits. The ``limits``
package offers Redis, Memcached and MongoDB, each a server to run; a family's
server has none, so the counts go in a file of their own beside the games file, named
after it (``games.ratelimits.sqlite3`` for ``games.sqlite3``: two games files in
one folder are two servers, with counts of their own), through a storage
registered with ``limits`` under the scheme ``sqlite://`` (its documented way
to add one). A file of its own keeps
the counters' writes out of the games file's lock, its backups and its replica.

Each hit is one statement (an upsert that starts a new window once the old one
has expired), so processes and threads never lose a count between them. The
counts are worth little after a power cut, so the file is written without
waiting for the disk. Expired counts are dropped now and then. It serves the
fixed-window strategy, Flask-Limiter's default; an operator who wants another
sets ``SCOREKEEPER_RATELIMIT_STORAGE_URI`` to a Redis server.

Whose count a request goes to is ``counted_as`` its address: an IPv6 address by its
/64 network, since a home or a phone on IPv6 is given a /64 and may take any address
in it (so counting exact addresses gave one visitor as many counts as it liked). The
same key counts live pages (web/live.py) and connections (server.py).
"""

from __future__ import annotations

import ipaddress
import os
import sqlite3
import threading
import time
from pathlib import Path

from limits.storage import Storage

SCHEME = "sqlite"
SUFFIX = ".ratelimits.sqlite3"
PRUNE_EVERY = 1000  # hits between sweeps of expired counts (per process)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS counts (
    key TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    expires REAL NOT NULL
) WITHOUT ROWID
"""
_HIT = """
INSERT INTO counts (key, count, expires) VALUES (:key, :amount, :now + :expiry)
ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN expires <= :now THEN :amount ELSE count + :amount END,
    expires = CASE WHEN expires <= :now THEN :now + :expiry ELSE expires END
RETURNING count
"""


def counted_as(address: str) -> str:
    """The address a limit counts ``address`` as: an IPv4 address as it is (so is an
    IPv4-mapped IPv6 one, ``::ffff:a.b.c.d``), an IPv6 address as its /64 network
    (``2001:db8:1:2::/64``), anything else (a Unix socket's name) as it is."""
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def counts_file(database: str) -> Path:
    """The counts file of the games file ``database``: beside it, named after it."""
    path = Path(database).resolve()
    return path.with_name(path.stem + SUFFIX)


def uri_beside(database: str) -> str:
    """The storage URI for ``database``'s counts file (in memory for a database in memory,
    which no other process sees either)."""
    if database == ":memory:":
        return "memory://"
    return f"{SCHEME}://{counts_file(database)}"


class SQLiteCounts(Storage):
    """A ``limits`` storage in one SQLite file (``sqlite:///path/to/file``)."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **_: object):
        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        self.path = (uri or "").removeprefix(f"{SCHEME}://")
        if not self.path:
            raise ValueError("sqlite:// needs a file: sqlite:///path/to/games.ratelimits.sqlite3")
        self.local = threading.local()
        self.hits = 0
        # made for its owner only, before SQLite writes anything in it
        os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        self._db().execute(_SCHEMA)

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def _db(self) -> sqlite3.Connection:
        """This thread's connection (SQLite's are not shared between threads)."""
        db = getattr(self.local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=OFF")
            self.local.db = db
        return db

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        self.hits += 1
        if self.hits % PRUNE_EVERY == 0:
            self._db().execute("DELETE FROM counts WHERE expires <= ?", (now,))
        row = (
            self._db()
            .execute(_HIT, {"key": key, "amount": amount, "now": now, "expiry": expiry})
            .fetchall()
        )
        return int(row[0][0])

    def get(self, key: str) -> int:
        row = (
            self._db()
            .execute("SELECT count FROM counts WHERE key = ? AND expires > ?", (key, time.time()))
            .fetchone()
        )
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        row = (
            self._db()
            .execute("SELECT expires FROM counts WHERE key = ? AND expires > ?", (key, time.time()))
            .fetchone()
        )
        return float(row[0]) if row else time.time()

    def check(self) -> bool:
        try:
            self._db().execute("SELECT 1 FROM counts LIMIT 1").fetchall()
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        return self._db().execute("DELETE FROM counts").rowcount

    def clear(self, key: str) -> None:
        self._db().execute("DELETE FROM counts WHERE key = ?", (key,))
