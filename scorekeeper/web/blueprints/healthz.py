"""``/healthz``: can the app keep score right now? For a container's HEALTHCHECK and monitors.

200 ``{"status": "ok", "live_pages": N, "version": ...}`` when the games file opens,
takes a write lock and its tables read (``live_pages``: polls held now, what a monitor
watches on a club night); 503 ``{"status": "unavailable", "problem": ..., "reason":
..., "version": ...}`` when it is unreachable (missing, cannot be opened), read-only,
or damaged. The check is ``health.probe``: cheap, as a call anyone can make must be;
the page-by-page check is made at start-up and by ``scorekeeper check-db``. It
carries no secret and no game, is exempt from rate limits (security.py), and is
not logged: the servers keep no access log.
"""

from __future__ import annotations

import sqlite3
from importlib import metadata

from flask import Blueprint, Response, current_app, jsonify

from ...reports import file_health
from .. import live
from ..security import unlimited

bp = Blueprint("healthz", __name__)

try:
    VERSION = metadata.version("phase10-scorekeeper")
except metadata.PackageNotFoundError:  # a checkout that was never installed
    VERSION = "unknown"


def _unavailable(found: file_health.Finding) -> tuple[Response, int]:
    return _answer(status="unavailable", problem=found.kind, reason=found.detail), 503


def _answer(**fields: object) -> Response:
    answer = jsonify(**fields, version=VERSION)
    answer.headers["Cache-Control"] = "no-store"
    return answer


@bp.get("/healthz")
@unlimited
def healthz() -> Response | tuple[Response, int]:
    found = file_health.probe(current_app.config["DATABASE"])
    if found is not None:
        return _unavailable(found)
    return _answer(status="ok", live_pages=live.holds.total)


@bp.errorhandler(sqlite3.Error)
def storage_error(error: sqlite3.Error) -> tuple[Response, int]:
    """The app's own hooks met the file first (a missing folder): the same answer in JSON."""
    return _unavailable(file_health.refusal(error))
