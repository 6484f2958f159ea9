"""When the games file cannot take a write: a clear page that keeps what was typed.

A full disk (or the storage cap, MAX_DATABASE_BYTES, enforced by SQLite's
max_page_count) answers 507; a read-only, busy or damaged file answers 503.
The write was one transaction, so nothing half-saved is left behind; the page
carries the form's fields so one tap sends them again once there is room.
"""

from __future__ import annotations

import sqlite3
from weakref import WeakKeyDictionary

from flask import Flask, current_app, jsonify, render_template, request
from sqlite_utils import Database

from ..i18n import N_, _
from .csrf import FIELD
from .db import db
from .errors import wants_json

PAGE_SIZE = 4096  # SQLite's default page size
FULL = (
    507,
    N_("Out of room"),
    N_(
        "The scorekeeper's storage is full, so this was not saved. Games already saved are "
        "safe. Ask whoever runs the scorekeeper to free some space, then tap Try again."
    ),
)
READ_ONLY = (
    503,
    N_("Cannot save right now"),
    N_(
        "The scorekeeper can only show games at the moment, so this was not saved. Games "
        "already saved are safe. Try again in a little while."
    ),
)
DAMAGED = (
    503,
    N_("Cannot open the games"),
    N_(
        "The file that holds the games is damaged. Whoever runs the scorekeeper must restore "
        "it from a backup. Nothing was saved."
    ),
)
BUSY = (503, N_("Busy"), N_("The scorekeeper is very busy and did not save this. Tap Try again."))
OUTCOMES = {
    sqlite3.SQLITE_FULL: FULL,
    sqlite3.SQLITE_READONLY: READ_ONLY,
    sqlite3.SQLITE_CANTOPEN: READ_ONLY,
    sqlite3.SQLITE_IOERR: READ_ONLY,
    sqlite3.SQLITE_PERM: READ_ONLY,
    sqlite3.SQLITE_CORRUPT: DAMAGED,
    sqlite3.SQLITE_NOTADB: DAMAGED,
    sqlite3.SQLITE_BUSY: BUSY,
    sqlite3.SQLITE_LOCKED: BUSY,
}
_capped: WeakKeyDictionary[Database, int] = WeakKeyDictionary()  # connection -> its cap


def outcome(error: sqlite3.Error) -> tuple[int, str, str] | None:
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else OUTCOMES.get(code & 0xFF)


def typed_fields() -> list[tuple[str, str]]:
    """What the form sent (its CSRF token is added afresh by the page)."""
    if request.method != "POST" or wants_json():
        return []
    return [(k, v) for k, v in request.form.items(multi=True) if k != FIELD]


def init_app(app: Flask) -> None:
    app.config.setdefault("MAX_DATABASE_BYTES", 2 * 1024**3)

    @app.before_request
    def cap_the_database():
        pages = max(1, current_app.config["MAX_DATABASE_BYTES"] // PAGE_SIZE)
        database = db()
        if _capped.get(database) != pages:  # a connection keeps its cap: set it once
            database.execute(f"PRAGMA max_page_count = {pages}")
            _capped[database] = pages

    @app.errorhandler(sqlite3.Error)
    def storage_error(error: sqlite3.Error):
        found = outcome(error)
        if found is None:
            raise error
        code, title, message = found[0], _(found[1]), _(found[2])
        current_app.logger.warning("storage refused a request: %s", error)
        if wants_json():
            return jsonify(error=message), code
        page = render_template(
            "error.html",
            code=code,
            title=title,
            message=message,
            retry_url=request.path if request.method == "POST" else None,
            retry_fields=typed_fields(),
        )
        return page, code, {"Retry-After": "30"}
