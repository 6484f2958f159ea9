"""Long work that takes turns with the requests of its process: a table's import, its
statistics. Under gevent a yield lets the others run between two games.
"""

from __future__ import annotations

import time


def let_others_run() -> None:
    """Between the games of a long piece of work (a table's import, its statistics): under
    gevent, let the other requests of the process run before the next game; under threads,
    a moment's yield. Nothing here waits."""
    time.sleep(0)
