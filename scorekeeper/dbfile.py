"""What one process shares about one SQLite file: its writers' queue, its checkpoints, and
word of each commit for the pages waiting for one.

Two things used to make the slowest recorded hands slow, and neither was the write:

- **Waiting for the write lock.** SQLite's busy wait polls with growing sleeps
  (1, 2, 5, 10 ... 100 ms), so a writer arriving during another's commit slept
  longer than the write took. Writers in one process now queue on a lock first
  (``writers``) and wake as soon as it is free; other processes (``serve
  --workers``) still queue on SQLite's own lock.
- **Checkpoints.** In WAL mode the commit that makes the log pass 1000 pages
  also copies the log into the database file and syncs it, so every few dozen
  hands one phone waited for that. Connections here do not checkpoint when they
  commit; a thread does it in the background a moment after writes.

Neither touches durability: every commit still syncs its log (synchronous=FULL)
before the phone is told the hand is saved, and SQLite recovers committed
transactions from the log after a crash whether or not they were checkpointed.

A page's live poll waits here for the next commit (``wait_for_commit``), so an
idle table asks the server a few times a minute, not every two seconds, and
sees each change at once (web/live.py). This process's own commits wake the
waiting polls at once; another process's (``serve --workers``, the command
line) are noticed within ``NOTICE`` seconds through SQLite's ``data_version``.
"""

from __future__ import annotations

import sqlite3
import threading
import time

CHECKPOINT_AFTER = 0.5  # seconds after a write, so a burst of writes is copied once
CHECKPOINT_ANYWAY = 30.0  # seconds: writes that did not say so are copied too
NOTICE = 1.0  # seconds: how soon another process's commit wakes the polls waiting here


class DatabaseFile:
    """One database file as this process uses it."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.writers = threading.RLock()
        self._written = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.commits = 0  # commits seen by this process, its own and (noticed) others'
        self._committed = threading.Condition()
        self._watch: sqlite3.Connection | None = None  # reads data_version for other processes
        self._data_version: int | None = None
        self._noticed = 0.0
        self._noticer: int | None = None  # the thread of the waiter that looks, if any

    def written(self) -> None:
        """A write was committed: wake the waiting polls; copy the log into the file soon."""
        with self._committed:
            if self._watch is not None:  # this commit is not another process's news
                self._data_version = self._read_data_version()
            self.commits += 1
            self._committed.notify_all()
        self._written.set()
        if self._thread is None:
            with self._start_lock:
                if self._thread is None and not self._stop.is_set():
                    self._thread = threading.Thread(
                        target=self._checkpoints, name="scorekeeper-checkpoint", daemon=True
                    )
                    self._thread.start()

    def wait_for_commit(self, seen: int, timeout: float) -> int:
        """Wait until there has been a commit since ``commits`` was ``seen``, for at most
        ``timeout`` seconds; the count of commits then."""
        deadline = time.monotonic() + timeout
        me = threading.get_ident()
        with self._committed:
            while self.commits == seen and (left := deadline - time.monotonic()) > 0:
                if self._noticer in (None, me):  # one waiter looks for other processes' commits
                    self._noticer = me
                    self._committed.wait(min(left, NOTICE))
                    self._notice_others()
                else:
                    self._committed.wait(left)
            if self._noticer == me:  # another waiter takes over
                self._noticer = None
                self._committed.notify_all()
            return self.commits

    def _notice_others(self) -> None:
        """Another process's commit counts too: SQLite's data_version tells (once a second)."""
        now = time.monotonic()
        if now - self._noticed < NOTICE:
            return
        self._noticed = now
        version = self._read_data_version()
        if version is None:
            return  # the pages' own reads say what is wrong
        if self._data_version is not None and version != self._data_version:
            self.commits += 1
            self._committed.notify_all()
        self._data_version = version

    def _read_data_version(self) -> int | None:
        """SQLite's count of other connections' commits, as this process's watcher sees it
        (called with ``_committed`` held)."""
        try:
            if self._watch is None:
                self._watch = sqlite3.connect(self.path, check_same_thread=False)
            return self._watch.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            return None

    def stop(self) -> None:
        """Stop the background checkpoints (the app is stopping, or a test ended)."""
        self._stop.set()
        self._written.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        with self._committed:
            if self._watch is not None:
                self._watch.close()
                self._watch = None

    def _checkpoints(self) -> None:
        conn = sqlite3.connect(self.path, check_same_thread=False, timeout=10, isolation_level=None)
        try:
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA busy_timeout=10000")
            while not self._stop.is_set():
                self._written.wait(CHECKPOINT_ANYWAY)
                if self._stop.wait(CHECKPOINT_AFTER):
                    break
                self._written.clear()
                try:  # PASSIVE: copies what it can without waiting for readers or writers
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    pass  # busy or gone: the next round (or closing the last connection) does it
        finally:
            conn.close()
