"""Live pages wait for their own game: one bell per thing a page shows, rung by the commits
that change it.

A held poll listens on one key (a game's id, or ``table:<id>`` for a table's screen). A
commit rings only the keys it changed (store/games_file.py works them out once per commit, for every
waiting page at once), so a hand saved at one table wakes that table's phones and nobody
else's. A key nobody listens to costs nothing: its bell exists only while someone waits.

Under ``serve`` (gevent, monkey-patched) the locks and conditions here are gevent's, so a
waiting page is a parked greenlet, not a thread; under a threaded server they are threads'.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager


class _Bell:
    """A key's bell: rung so many times; ``event`` is set at the next ring (a new one waits
    for the ring after), so no lock is held while anyone waits."""

    __slots__ = ("rung", "event", "listeners")

    def __init__(self) -> None:
        self.rung = 0
        self.event = threading.Event()
        self.listeners = 0


class Listener:
    """One page's ear on one key: ``wait`` returns True once the key rang since the listener
    last heard it (registered, or ``wait`` returned True)."""

    def __init__(self, bells: Bells, key: str, bell: _Bell) -> None:
        self._bells, self.key, self._bell = bells, key, bell
        self._heard = bell.rung

    def wait(self, timeout: float) -> bool:
        with self._bells._lock:
            event = self._bell.event if self._bell.rung == self._heard else None
        if event is not None:
            event.wait(timeout)
        with self._bells._lock:
            rang = self._bell.rung != self._heard
            self._heard = self._bell.rung
            return rang


class Bells:
    """The bells of one database file, in one process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bells: dict[str, _Bell] = {}
        self.rung = 0  # bells rung so far (a count for tests and benchmarks)

    @contextmanager
    def listening(self, key: str) -> Iterator[Listener]:
        """Listen on ``key`` until the block ends. Register first, then read what the page
        shows: a commit in between is heard, never lost."""
        with self._lock:
            bell = self._bells.get(key)
            if bell is None:
                bell = self._bells[key] = _Bell()
            bell.listeners += 1
        try:
            yield Listener(self, key, bell)
        finally:
            with self._lock:
                bell.listeners -= 1
                if bell.listeners == 0 and self._bells.get(key) is bell:
                    del self._bells[key]

    def ring(self, keys: Iterable[str]) -> int:
        """Wake the pages listening on these keys; how many bells rang."""
        rang = 0
        with self._lock:
            for key in keys:
                bell = self._bells.get(key)
                if bell is not None:
                    bell.rung += 1
                    bell.event, ringing = threading.Event(), bell.event
                    ringing.set()
                    rang += 1
            self.rung += rang
        return rang

    def __len__(self) -> int:
        """Keys someone listens on now."""
        with self._lock:
            return len(self._bells)
