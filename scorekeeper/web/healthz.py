"""``/healthz``: can the app keep score right now? For a container's HEALTHCHECK and monitors.

200 ``{"status": "ok", "live_pages": N, "version": ...}`` when the games file opens, takes a write
lock and reads back whole; 503 ``{"status": "unavailable", "problem": ..., "reason":
..., "version": ...}`` when it is unreachable (missing, cannot be opened), read-only,
or damaged. The probe opens its own connection each time, so it sees the file as a
restarted server would. It carries no secret and no game, is exempt from rate
limits (security.py), and is not logged: the servers keep no access log.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from importlib import metadata
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify

from . import live
from .security import unlimited

bp = Blueprint("healthz", __name__)

# A full quick_check reads every page; up to this size (a family's games for decades)
# it takes milliseconds, beyond it only the tables' roots and schema are read.
DEEP_CHECK_BYTES = 64 * 1024 * 1024

try:
    VERSION = metadata.version("phase10-scorekeeper")
except metadata.PackageNotFoundError:  # a checkout that was never installed
    VERSION = "unknown"


def problem(path: str | Path) -> tuple[str, str] | None:
    """None when the games file is healthy, else (problem, SQLite's reason)."""
    path = Path(path)
    uri = f"{path.resolve().as_uri()}?mode=rw"  # never creates a missing file
    try:
        with closing(sqlite3.connect(uri, uri=True, timeout=2, isolation_level=None)) as conn:
            try:
                conn.execute("BEGIN IMMEDIATE")  # refused on a read-only file or folder
                conn.execute("ROLLBACK")
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode != sqlite3.SQLITE_BUSY:  # busy is not broken
                    raise
            return _damage(conn, path)
    except sqlite3.Error as error:
        return verdict(error)


def verdict(error: sqlite3.Error) -> tuple[str, str]:
    """What SQLite's refusal says about the file: read-only, unreachable or damaged."""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF  # the primary code
    if code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM):
        return "read-only", str(error)
    if code in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_NOTFOUND):
        return "unreachable", str(error)
    return "damaged", str(error)


def _damage(conn: sqlite3.Connection, path: Path) -> tuple[str, str] | None:
    if path.stat().st_size <= DEEP_CHECK_BYTES:
        found = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
        return None if found == ["ok"] else ("damaged", "; ".join(found))
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        conn.execute(f'SELECT max(rowid) FROM "{table}"').fetchall()
    return None


def _unavailable(found: tuple[str, str]) -> tuple[Response, int]:
    return _answer(status="unavailable", problem=found[0], reason=found[1]), 503


def _answer(**fields: object) -> Response:
    answer = jsonify(**fields, version=VERSION)
    answer.headers["Cache-Control"] = "no-store"
    return answer


@bp.get("/healthz")
@unlimited
def healthz() -> Response | tuple[Response, int]:
    found = problem(current_app.config["DATABASE"])
    if found is not None:
        return _unavailable(found)
    return _answer(status="ok", live_pages=live.holds.total)  # polls held now (web/live.py)


@bp.errorhandler(sqlite3.Error)
def storage_error(error: sqlite3.Error) -> tuple[Response, int]:
    """The app's own hooks met the file first (a missing folder): the same answer in JSON."""
    return _unavailable(verdict(error))
