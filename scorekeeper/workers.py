"""`serve --workers N`: several processes through gunicorn (Linux), each with its own app,
each serving with gevent as `serve` does alone.

Each worker builds its own app after the fork, so no SQLite connection crosses
a fork; writers queue on SQLite's lock and the version check keeps every hand
exactly once (tests/test_durability.py runs against two workers).
"""

from __future__ import annotations

import sys
from typing import Any


def available() -> bool:
    """gunicorn runs on Linux (and other Unix) only; elsewhere one gevent process serves."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import gunicorn  # noqa: F401
    except ImportError:
        return False
    return True


def serve(config: dict[str, Any] | None, host: str, port: int, workers: int) -> None:
    from gunicorn.app.base import BaseApplication

    from . import create_app, purge
    from .ready import ready

    class Scorekeeper(BaseApplication):
        def load_config(self) -> None:
            settings = {
                "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
                "workers": workers,
                # each worker serves as `serve` does alone: a greenlet per connection, gevent's
                # patches applied in the worker before the app is built (server.py)
                "worker_class": "gevent",
                "worker_connections": 10_000,
                "preload_app": False,  # one app, and one set of connections, per worker
                "graceful_timeout": 10,
                "accesslog": None,  # edit links are keys: keep them out of logs
                "errorlog": "-",
                "loglevel": "warning",
                "proc_name": "scorekeeper",
            }
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self):
            app = create_app(config)
            purge.every(app.config["DATABASE"])  # each worker; a purge finds what is left
            return ready(app)

    Scorekeeper().run()
