"""Friendly error pages: a clear message, never a traceback; JSON under /api/.

When the games file cannot take a write, the page says so and keeps what was
typed: a full disk (or the storage cap, MAX_DATABASE_BYTES, enforced by
SQLite's max_page_count) answers 507; a read-only, busy or damaged file 503.
Each writing request's connection also gets the budget of one game and one table
(MAX_GAME_BYTES, MAX_TABLE_BYTES: store.Budget), which actions answer as refusals.
The write was one transaction, so nothing half-saved is left behind; the page
carries the form's fields so one tap sends them again once there is room. A
game whose own stored data is damaged (store.UnreadableGame) gets a page naming
it; the rest of the file is served as usual.
"""

from __future__ import annotations

import sqlite3
from weakref import WeakKeyDictionary

from flask import Flask, Response, current_app, jsonify, render_template, request
from sqlite_utils import Database
from werkzeug.exceptions import HTTPException

from .. import store
from ..i18n import N_, _
from .access import db
from .security import FIELD, count_setting

MESSAGES = {
    404: N_("There is nothing here. Check the link, or start a new game."),
    405: N_("That action cannot be done from this address."),
    413: N_("That was far more than this form accepts. Shorten it and try again."),
    429: N_("That was a lot in a short time. Wait a minute, then try again."),
    500: N_("Something went wrong on our side. What you entered was not saved: try again."),
}
API_MESSAGES = {
    404: N_("There is nothing at this address."),
    405: N_("This address does not accept that method."),
    413: N_("The request is larger than this API accepts (64 KB)."),
    415: N_("Send the body as JSON with Content-Type: application/json."),
    429: N_("Too many requests from this address. Wait, then try again (see Retry-After)."),
    500: N_("Something went wrong on the server; nothing was saved. Try again."),
}
# The page's heading for each status (werkzeug's names are English only)
TITLES = {
    400: N_("Bad request"),
    403: N_("Not allowed"),
    404: N_("Not found"),
    405: N_("Not possible here"),
    409: N_("Changed meanwhile"),
    413: N_("Too much at once"),
    415: N_("Unsupported format"),
    422: N_("Cannot be done"),
    429: N_("Too many requests"),
    500: N_("Something went wrong"),
    503: N_("Not available right now"),
}

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


def wants_json() -> bool:
    """Everything under /api/ answers in JSON, whatever went wrong."""
    return request.path.startswith("/api/")


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
    app.config.setdefault("MAX_TABLE_BYTES", store.budget.Budget.table)  # docs/storage.md
    app.config.setdefault("MAX_GAME_BYTES", store.budget.Budget.game)
    for key in ("MAX_TABLE_BYTES", "MAX_GAME_BYTES"):
        app.config[key] = count_setting(app, key)  # a wrong setting stops the start, not a save

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        # Flask-Limiter's description is the limit itself ("30 per 1 minute"): say it in words
        custom = error.description != type(error).description and error.code != 429
        code = error.code or 500
        table = API_MESSAGES if wants_json() else MESSAGES
        message = error.description if custom or code not in table else _(table[code])
        allowed = getattr(error, "valid_methods", None)  # a 405 must say what is allowed
        headers = {"Allow": ", ".join(allowed)} if allowed else {}
        retry = dict(error.get_headers()).get("Retry-After")  # a 429 or 503 saying when
        if retry:
            headers["Retry-After"] = retry
        if wants_json():
            return jsonify(error=message), code, headers
        title = _(TITLES[code]) if code in TITLES else error.name
        return render_template("error.html", code=code, title=title, message=message), code, headers

    @app.before_request
    def cap_the_database() -> None:
        if request.method in ("GET", "HEAD"):
            return  # reading needs no room
        pages = max(1, current_app.config["MAX_DATABASE_BYTES"] // PAGE_SIZE)
        database = db()
        if _capped.get(database) != pages:  # a connection keeps its cap: set it once
            database.execute(f"PRAGMA max_page_count = {pages}")
            _capped[database] = pages
        config = current_app.config
        store.budget.set_budget(
            database, store.budget.Budget(config["MAX_GAME_BYTES"], config["MAX_TABLE_BYTES"])
        )

    @app.errorhandler(store.games.UnreadableGame)
    def unreadable_game(error: store.games.UnreadableGame) -> tuple[Response | str, int]:
        """One game whose stored data is damaged: a page naming it, the others served."""
        current_app.logger.error("%s", error)
        message = _(
            "Game %(game)s cannot be read: part of its stored data is damaged. Nothing was "
            "saved, and the other games are not affected. Whoever runs the scorekeeper can "
            "find every damaged game with scorekeeper check-db, and restore this one from a "
            "backup of the games file or a replica (scorekeeper restore), or import its game "
            "file again.",
            game=error.game_id,
        )
        if wants_json():
            return jsonify(error=message, game=error.game_id), 503
        title = _("This game cannot be opened")
        return render_template("error.html", code=503, title=title, message=message), 503

    @app.errorhandler(sqlite3.Error)
    def storage_error(error: sqlite3.Error) -> tuple[Response | str, int, dict[str, str]]:
        found = outcome(error)
        if found is None:
            raise error
        code, title, message = found[0], _(found[1]), _(found[2])
        current_app.logger.warning("storage refused a request: %s", error)
        if wants_json():
            return jsonify(error=message), code, {"Retry-After": "30"}
        page = render_template(
            "error.html",
            code=code,
            title=title,
            message=message,
            retry_url=request.path if request.method == "POST" else None,
            retry_fields=typed_fields(),
        )
        return page, code, {"Retry-After": "30"}
