"""Phase 10 Scorekeeper: a Flask app over a pure-Python rules engine."""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import platformdirs
from flask import Flask

SOURCE = Path(__file__).resolve().parent.parent  # the repository, when running from a checkout


def instance_folder() -> Path:
    """Where the app keeps its games (the data folder): SCOREKEEPER_DATA (or its older name
    SCOREKEEPER_INSTANCE), else a checkout's instance/, else (installed from a wheel, e.g.
    with pipx) the user's data folder, which outlives reinstalling the app."""
    for name in ("SCOREKEEPER_DATA", "SCOREKEEPER_INSTANCE"):
        if path := os.environ.get(name):
            return Path(path)
    if (SOURCE / "pyproject.toml").exists():
        return SOURCE / "instance"
    earlier = Path(sys.prefix) / "var" / "scorekeeper-instance"  # older releases: in the venv
    if (earlier / "scorekeeper.sqlite3").exists():
        return earlier
    return platformdirs.user_data_path("phase10-scorekeeper", appauthor=False)


def _new_private_file(path: str) -> str | None:
    """A games file that does not exist yet, made empty and for its owner only (0600)
    before SQLite writes anything in it; None when it exists (or lives in memory)."""
    if path == ":memory:":
        return None
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return None
    except OSError:
        return None  # SQLite will say what is wrong with the place, in its own words
    return path


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    from .web.assets import shipped

    app = Flask(
        __name__,
        instance_path=str(instance_folder()),
        template_folder=str(shipped("templates")),
        static_folder=str(shipped("static")),
    )
    app.config.from_mapping(
        DATABASE=str(Path(app.instance_path) / "scorekeeper.sqlite3"),
        MAX_CONTENT_LENGTH=64 * 1024,
        MAX_FORM_MEMORY_SIZE=64 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        POLL_SECONDS=2,  # a page asks again this soon after its last answer...
        POLL_HOLD=30,  # ...which waits up to this long for the game to change (web/live.py)
        # Live pages held at once: per address (a club night of 30 tables behind one router
        # is 180 phones) and in all (each is a parked greenlet and a socket: docs/scaling.md)
        LIVE_PER_ADDRESS=300,
        LIVE_MAX=20_000,
        # The device's memory (web/device.py) lasts a year, signed afresh whenever it is
        # used to open a game or table, not on every request.
        PERMANENT_SESSION_LIFETIME=timedelta(days=365),
        SESSION_REFRESH_EACH_REQUEST=False,
    )
    # operators' settings, e.g. SCOREKEEPER_RATE_LIMIT_CREATE="60 per minute" (docs/scaling.md)
    app.config.from_prefixed_env("SCOREKEEPER")
    if test_config:
        app.config.from_mapping(test_config)
    Path(app.instance_path).mkdir(mode=0o700, parents=True, exist_ok=True)  # for its owner only
    from . import actions, store
    from .store import secret
    from .web import register

    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret.kept_key(Path(app.instance_path), app.logger)
    made = _new_private_file(app.config["DATABASE"])  # SQLite gives its -wal the same mode
    try:
        database = store.connection.connect(app.config["DATABASE"])  # create or migrate the schema
    except BaseException:
        if made and os.path.getsize(made) == 0:
            os.unlink(made)  # never leave an empty games file behind: the next start refuses it
        raise
    actions.trash.purge_deleted(database)  # what was deleted long enough ago (backup/purge.py)
    register(app)
    return app
