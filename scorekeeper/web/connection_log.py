"""Connections that end badly, in the log at a rate no visitor can raise.

A phone that loses its Wi-Fi mid-request, a scanner that sends half a request and
waits, thousands of connections from one address: gevent logged each as an ERROR with
its traceback, about 2.5 KB (43,308 connections wrote 108 MB), and a request line it
could not read as it came, edit keys and all. Here the first after a quiet spell is one
short line, and from then on they are counted: one line every ``EVERY`` seconds says how
many of each kind there were and which address sent most, until a quiet spell comes
again. So however many there are, the log grows by about a line a minute per process.
Nothing a visitor sent is written, only its address.

What counts (serve/server.py notes them):
- a request that stopped coming (``TIMED_OUT``): part of it sent, then nothing until the
  idle timeout. A connection quiet between requests, or that never sent a byte, is not
  counted: browsers open and leave such connections all the time;
- a connection that broke off (``BROKEN_OFF``) mid-request or while it was answered;
- a request that is not HTTP (``MALFORMED``), answered 400;
- a connection refused at once (``REFUSED``): its address held its cap of them already.

The live pages answered 503 when the server holds all it can are said the same way
(web/live.py): each is a request a visitor can repeat as fast as it likes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter

CROWDED = "scorekeeper.crowded"  # environ: this request's phone holds its cap of connections
EVERY = 60.0  # seconds between two lines of counts, at most
MOST_ADDRESSES = 1000  # addresses counted apart between two lines: enough to name the busiest

TIMED_OUT = "timed out mid-request"
BROKEN_OFF = "broke off"
MALFORMED = "sent no valid request"
REFUSED = "refused at the address's cap"


def kind_of(error: BaseException) -> str:
    """Which kind of bad ending an exception from reading or answering a connection is."""
    if isinstance(error, TimeoutError):
        return TIMED_OUT
    if isinstance(error, ConnectionError):
        return BROKEN_OFF
    return MALFORMED  # a request gevent could not parse, or a broken chunked body


class Tally:
    """Happenings of one process that a visitor can repeat without end (``subjects``: what
    they are, "connections"), said at a bounded rate."""

    def __init__(self, log: logging.Logger, subjects: str) -> None:
        self.log, self.subjects = log, subjects
        self.lock = threading.Lock()  # gevent's, once the server has patched the library
        self.kinds: Counter[str] = Counter()
        self.addresses: Counter[str] = Counter()
        self.since: float | None = None  # when counting began; None: quiet, say the next
        self.said_alone = 0  # what a line of its own said already, of what is counted

    def note(self, kind: str, who: str) -> None:
        """One of ``kind`` from ``who`` (an address as limits count it)."""
        with self.lock:
            self.kinds[kind] += 1
            if who in self.addresses or len(self.addresses) < MOST_ADDRESSES:
                self.addresses[who] += 1
            if self.since is not None:
                return
            self.since, self.said_alone = time.monotonic(), 1
        self.log.warning(
            "%s: one from %s %s (more such are counted, and said once a minute)",
            self.subjects,
            who,
            kind,
        )
        self._later()

    def _later(self) -> None:
        timer = threading.Timer(EVERY, self._say_or_rest)  # a greenlet, under gevent
        timer.daemon = True
        timer.start()

    def _say_or_rest(self) -> None:
        """Say what was counted; with nothing to say, rest until the next one comes."""
        if self.say():
            self._later()
            return
        with self.lock:
            self.kinds.clear()
            self.addresses.clear()
            self.since = None

    def say(self) -> bool:
        """One line of what was counted since the last (the server's stop asks too);
        False when there was nothing a line had not said already."""
        with self.lock:
            counted = sum(self.kinds.values())
            if self.since is None or counted <= self.said_alone:
                return False
            kinds = ", ".join(f"{count:,} {kind}" for kind, count in self.kinds.most_common())
            busiest, most = self.addresses.most_common(1)[0]
            seconds = time.monotonic() - self.since
            self.kinds.clear()
            self.addresses.clear()
            self.since, self.said_alone = time.monotonic(), 0
        self.log.warning(
            "%s in the last %.0f s: %s; most from %s (%s)",
            self.subjects,
            seconds,
            kinds,
            busiest,
            f"{most:,}",
        )
        return True
