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

A page's live poll waits here for its own game to change (``listening``, live/in_process.py),
so an idle table asks the server a few times a minute and sees each change at once
(web/live.py). After each commit, this process works out once which games and tables
it changed (``changed``: new rows of the change log, players' sendings and tables'
games, read by position, never by scanning) and rings only their bells. Another
process's commits (``serve --workers``, the command line) are rung the same way: the
committer tells the others at once (live/across_processes.py), and each confirms through SQLite's
``data_version`` that the file changed. Where a process cannot hear (Windows), or for a
writer that does not tell (the sqlite3 shell), it looks at ``data_version`` every
``NOTICE`` (or ``NOTICE_HEARING``) seconds.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..live.across_processes import Neighbours
from ..live.in_process import Bells, Listener

CHECKPOINT_AFTER = 0.5  # seconds after a write, so a burst of writes is copied once
CHECKPOINT_ANYWAY = 30.0  # seconds: writes that did not say so are copied too
NOTICE = 1.0  # seconds: how soon another process's commit wakes the polls waiting here...
NOTICE_HEARING = 30.0  # ...or a commit nobody told of, where others tell (live/across_processes.py)


Feed = Callable[[sqlite3.Connection, Any], tuple[set[str], Any]]


class DatabaseFile:
    """One database file as this process uses it.

    ``changed(connection, mark)`` says which keys (live/in_process.py) the commits since ``mark``
    changed, and the mark to ask from next time (``mark`` None: nothing, and where now is).
    """

    def __init__(self, path: str, changed: Feed | None = None) -> None:
        self.path = path
        self.writers = threading.RLock()
        self.bells = Bells()
        self._changed = changed
        self._mark: Any = None
        self._feed_lock = threading.Lock()
        self._watch: sqlite3.Connection | None = None  # reads what changed, and data_version
        self._data_version: int | None = None
        self._noticer: threading.Thread | None = None
        self._neighbours = Neighbours(path)
        self._written = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def written(self) -> None:
        """A write was committed: ring the bells of what it changed, here and in the other
        processes serving the file; copy the log into the file soon."""
        self._ring_changed(own=True)
        self._neighbours.tell()
        self._written.set()
        if self._thread is None:
            with self._start_lock:
                if self._thread is None and not self._stop.is_set():
                    self._thread = threading.Thread(
                        target=self._checkpoints, name="scorekeeper-checkpoint", daemon=True
                    )
                    self._thread.start()

    @contextmanager
    def listening(self, key: str) -> Iterator[Listener]:
        """Wait for commits that change ``key`` (a game's id, ``table:<id>``)."""
        self._start_noticing()
        with self.bells.listening(key) as listener:
            yield listener

    def _ring_changed(self, own: bool) -> int:
        """Ring the bells of what changed since the last look; how many rang. ``own``: this
        process just committed (else: only if another process did, says data_version)."""
        if self._changed is None:
            return 0
        with self._feed_lock:
            try:
                if self._watch is None:
                    self._watch = sqlite3.connect(self.path, check_same_thread=False)
                    self._mark = self._changed(self._watch, None)[1]
                    self._data_version = self._data_version_now()
                    return 0
                version = self._data_version_now()
                if not own and version == self._data_version:
                    return 0
                self._data_version = version
                keys, self._mark = self._changed(self._watch, self._mark)
            except sqlite3.Error:
                return 0  # the pages' own reads say what is wrong
        return self.bells.ring(keys)

    def _data_version_now(self) -> int:
        assert self._watch is not None
        return int(self._watch.execute("PRAGMA data_version").fetchone()[0])

    def _start_noticing(self) -> None:
        """While pages wait, look for other processes' commits once every NOTICE seconds."""
        if self._noticer is not None or self._changed is None:
            return
        with self._feed_lock:
            if self._noticer is not None or self._stop.is_set():
                return
            self._noticer = threading.Thread(
                target=self._notice, name="scorekeeper-notice", daemon=True
            )
        self._ring_changed(own=True)  # where the log stands now: the mark to start from
        self._noticer.start()

    def _notice(self) -> None:
        hearing = self._neighbours.listen()
        while not self._stop.is_set():
            if hearing:
                self._neighbours.hear(NOTICE_HEARING)
            else:
                time.sleep(NOTICE)
            if len(self.bells) and not self._stop.is_set():
                self._ring_changed(own=False)

    def stop(self) -> None:
        """Stop the background checkpoints and the noticing (the app is stopping, or a test
        ended)."""
        self._stop.set()
        self._written.set()
        self._neighbours.wake()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._noticer is not None and self._noticer.is_alive():
            self._noticer.join(timeout=2)
        self._neighbours.close()
        with self._feed_lock:
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
                    off_loop(lambda: conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall())
                except sqlite3.Error:
                    pass  # busy or gone: the next round (or closing the last connection) does it
        finally:
            conn.close()


def off_loop(work: Callable[[], Any]) -> Any:
    """Do ``work`` (blocking, GIL-releasing: a checkpoint's copying and syncing) on a thread
    of the system's when gevent serves, so pages are served meanwhile; else right here."""
    try:
        from gevent import get_hub, monkey
    except ImportError:
        return work()
    if not monkey.is_module_patched("threading"):
        return work()
    return get_hub().threadpool.apply(work)
