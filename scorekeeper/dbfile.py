"""What one process shares about one SQLite file: its writers' queue and its checkpoints.

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
"""

from __future__ import annotations

import sqlite3
import threading

CHECKPOINT_AFTER = 0.5  # seconds after a write, so a burst of writes is copied once
CHECKPOINT_ANYWAY = 30.0  # seconds: writes that did not say so are copied too


class DatabaseFile:
    """One database file as this process uses it."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.writers = threading.RLock()
        self._written = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def written(self) -> None:
        """A write was committed: copy the log into the file soon, off the writer's path."""
        self._written.set()
        if self._thread is None:
            with self._start_lock:
                if self._thread is None and not self._stop.is_set():
                    self._thread = threading.Thread(
                        target=self._checkpoints, name="scorekeeper-checkpoint", daemon=True
                    )
                    self._thread.start()

    def stop(self) -> None:
        """Stop the background checkpoints (the app is stopping, or a test ended)."""
        self._stop.set()
        self._written.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

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
