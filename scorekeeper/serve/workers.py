"""`serve --workers N`: several processes through gunicorn (Linux), each with its own app,
each serving with gevent as `serve` does alone (serve/server.py, with the same guards).

Unless told, `serve` starts one process per core it may use, up to ``MOST``, where
gunicorn runs: a live page costs little, but every Save wakes and renders for every
phone of its table, and one Python process uses one core (docs/benchmarks.md,
"Capacity"). Elsewhere (macOS, Windows) one process serves.

Each worker builds its own app after the fork, so no SQLite connection crosses
a fork; writers queue on SQLite's lock and the version check keeps every hand
exactly once (tests/test_durability.py runs against two workers).
"""

from __future__ import annotations

import dataclasses
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import Guards

MOST = 4  # processes `serve` starts by itself: a small server's cores, not a big one's


def available() -> bool:
    """gunicorn runs on Linux (and other Unix) only; elsewhere one gevent process serves."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import gunicorn  # noqa: F401
    except ImportError:
        return False
    return True


def default_count() -> int:
    """Processes `serve` starts when not told: one per core this process may use, up to
    ``MOST``, where gunicorn runs; one elsewhere."""
    if not available():
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every Unix
        cores = os.cpu_count() or 1
    return max(1, min(cores, MOST))


def share(cap: int, workers: int) -> int:
    """Each worker's part of a cap on the whole server (0: none), so that an address never
    holds more than the cap in all, whichever workers its connections reach."""
    return max(1, cap // workers) if cap else 0


def serve(
    config: dict[str, Any] | None, host: str, port: int, workers: int, guards: Guards
) -> None:
    """``guards``: what `serve` was told about connections (serve/server.py); like the live
    pages' caps, each worker keeps its share of the cap per address."""
    from gunicorn.app.base import BaseApplication
    from gunicorn.workers.ggevent import GeventPyWSGIWorker

    from .. import create_app
    from ..backup import purge
    from . import server
    from .warm_up import ready

    # raised here, before the workers are forked: each inherits the limit
    connections = max(server.open_files_limit() - server.RESERVED_FILES, 16)

    class Worker(GeventPyWSGIWorker):
        server_class = server.server_class(
            dataclasses.replace(guards, per_address=share(guards.per_address, workers))
        )

    class Scorekeeper(BaseApplication):
        def load_config(self) -> None:
            settings = {
                "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
                "workers": workers,
                # each worker serves as `serve` does alone: a greenlet per connection, gevent's
                # patches applied in the worker before the app is built (serve/server.py)
                "worker_class": Worker,
                "worker_connections": connections,
                "preload_app": False,  # one app, and one set of connections, per worker
                "graceful_timeout": 10,
                "accesslog": None,  # edit links are keys: keep them out of logs
                "errorlog": "-",
                "loglevel": "warning",
                "proc_name": "scorekeeper",
                # no runtime control socket: nothing here uses it, and its thread and file
                # would be one more thing awake and left behind
                "control_socket_disable": True,
            }
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self):
            app = create_app(config)
            for key in ("LIVE_PER_ADDRESS", "LIVE_MAX"):  # the server's caps, shared out
                app.config[key] = share(app.config[key], workers)
            server.capacity(app)  # live pages refused (503) before connections run out
            purge.every(app.config["DATABASE"])  # each worker; a purge finds what is left
            return ready(app)

    Scorekeeper().run()
