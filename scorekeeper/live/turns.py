"""Long work that takes turns with the requests of its process: a table's import, its
statistics. Under gevent a yield lets the others run between two games.
"""

from __future__ import annotations

import time

YIELD_SECONDS = 0.005  # long work lets the others run at least this often


def let_others_run() -> None:
    """Between the games of a long piece of work (a table's import, its statistics, its
    backup): under gevent, let the other requests of the process run before the next game,
    if the work has run YIELD_SECONDS since it last did; under threads, a moment's yield
    (each gives the processor up to other programs too, so not after every game). Nothing
    here waits."""
    global _yielded
    now = time.monotonic()
    if now - _yielded >= YIELD_SECONDS:
        _yielded = now
        time.sleep(0)


_yielded = 0.0
