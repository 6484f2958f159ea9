"""Phase 10 Scorekeeper: a Flask app over a pure-Python rules engine."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from flask import Flask
from flask_htmx import HTMX

ROOT = Path(__file__).resolve().parent.parent


def _secret_key(instance: Path) -> str:
    """A random key kept in the instance folder, so sessions survive restarts."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(
        DATABASE=str(Path(app.instance_path) / "scorekeeper.sqlite3"),
        MAX_CONTENT_LENGTH=64 * 1024,
        MAX_FORM_MEMORY_SIZE=64 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        POLL_SECONDS=2,
    )
    if test_config:
        app.config.from_mapping(test_config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))

    from . import store
    from .web import register

    store.connect(app.config["DATABASE"])  # create or migrate the schema at start-up
    HTMX(app)
    register(app)
    return app
