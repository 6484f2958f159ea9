"""What keeps the app safe: headers, CSRF tokens, rate limits, keys kept out of logs.

- Every answer carries the security headers below unless its view set its own;
  HTML and JSON (either may carry an edit link) are never stored by any cache.
- Forms carry the session's CSRF token (htmx sends it as a header, from <body>);
  a POST without it is refused. The JSON API is exempt: its only credential is
  the key in its URL, which a cross-site page cannot know.
- Rate limits (Flask-Limiter) on whatever creates something, on players' points,
  on short codes, on the checkers and on PDFs, one count per address (an IPv6 address's
  /64) shared by every server process (store/limit_counts.py); docs/scaling.md has the
  table.
- The secret parts of links are replaced by '…' in every log line.
- Cookies are ``Secure`` whenever the request came over HTTPS (directly, or
  through a reverse proxy the app trusts: web/proxy.py).
"""

from __future__ import annotations

import hmac
import logging
import re
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from flask import Flask, Response, abort, current_app, g, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_limiter import Limiter
from limits import parse_many
from werkzeug.exceptions import TooManyRequests

from ..i18n import _
from ..store import limit_counts
from . import connection_log

if TYPE_CHECKING:
    from flask.typing import RouteCallable

HEADERS = (
    (
        "Content-Security-Policy",
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
)
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
_NOT_KEPT = ("text/html", "application/json")
FIELD = "csrf_token"
HEADER = "X-CSRF-Token"
LIMITS = {  # per address (docs/scaling.md)
    "RATE_LIMIT_CREATE": "30 per minute; 300 per day",
    "RATE_LIMIT_SEND": "60 per minute",
    "RATE_LIMIT_CHECK": "300 per minute",
    "RATE_LIMIT_CODE": "60 per minute",  # docs/decisions.md: why guessing a code is hopeless
    "RATE_LIMIT_RATE": "10 per minute; 200 per day",
    "RATE_LIMIT_PRINT": "20 per minute; 300 per day",  # PDFs: up to a second's work each
    # every game a table backup brings, counted one by one (``count_imported_games``)
    "RATE_LIMIT_IMPORTED_GAMES": "2000 per day",
}
LIMITER = "scorekeeper.limiter"  # app.extensions key: the app's Limiter
RETRY_AFTER = 30  # seconds a phone refused for holding too much is told to wait (live.py too)

View = TypeVar("View", bound=Callable)
_exempt: set[str] = set()
_limited: dict[str, tuple[str, list[str] | None]] = {}  # view -> its LIMITS group, methods
_unlimited: set[str] = set()


def reading() -> bool:
    """True for a request that only reads (GET or HEAD): views must never write on one."""
    return request.method in SAFE_METHODS


# the reader's token, in a kept page part (web/keeper_fragments.py)
TOKEN_MARK = f"token-{secrets.token_hex(8)}"


def csrf_token() -> str:
    if g.get("marking"):  # a part rendered once for every reader: each answer fills its own
        return TOKEN_MARK
    if FIELD not in session:
        session[FIELD] = secrets.token_urlsafe(32)
    return session[FIELD]


def csrf_exempt(view: View) -> View:
    """For the JSON API, whose only credential is the key in its URL."""
    _exempt.add(_name(view))
    return view


def _name(view: Callable) -> str:
    return f"{view.__module__}.{view.__name__}"


def unlimited(view: View) -> View:
    """For a view probed every few seconds (the health check): no app-wide limit either."""
    _unlimited.add(_name(view))
    return view


def _limit_group(group: str, methods: list[str] | None) -> Callable[[View], View]:
    def mark(view: View) -> View:
        _limited[_name(view)] = (group, methods)
        return view

    return mark


# Each group shares one count per address; only POST is counted where POST creates.
creating = _limit_group("RATE_LIMIT_CREATE", ["POST"])  # games, tables, imports, rematches
sending = _limit_group("RATE_LIMIT_SEND", ["POST"])  # players' own points
checking = _limit_group("RATE_LIMIT_CHECK", None)  # the checkers' JSON API
looking_up = _limit_group("RATE_LIMIT_CODE", None)  # a game's short code, typed or opened
rating = _limit_group("RATE_LIMIT_RATE", None)  # rating phase lists: thousands of hands dealt each
printing = _limit_group("RATE_LIMIT_PRINT", None)  # PDFs, for anyone with a read-only link


def _configured(group: str) -> Callable[[], str]:
    return lambda: current_app.config[group]


class RedactKeys(logging.Filter):
    """Replace every key in a logged path (/g/, /api/games/, /p/, /t/, /tv/, ?table=) by '…'."""

    PATHS = re.compile(r"(/g/[\w-]+/|/api/games/[\w-]+/|/p/[\w-]+/|/tv?/|[?&]table=)[\w-]+")
    MARKS = ("/g/", "/api/games/", "/p/", "/t/", "/tv/", "table=")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(part in message for part in self.MARKS):
            record.msg, record.args = self.PATHS.sub(r"\1…", message), None
        return True


def client_address() -> str:
    """Whose count this request goes to: the phone's address (the proxy's word for it, where
    one is trusted: proxy.py), an IPv6 one by its /64 (limit_counts.counted_as)."""
    return limit_counts.counted_as(request.remote_addr or "127.0.0.1")


def limit_views(app: Flask) -> None:
    """After the blueprints are registered: each marked view gets its group's limit
    (Flask-Limiter, one limiter per app)."""
    for key, value in LIMITS.items():
        app.config.setdefault(key, value)
    # one count per address for every process serving the games file (store/limit_counts.py)
    app.config.setdefault("RATELIMIT_STORAGE_URI", limit_counts.uri_beside(app.config["DATABASE"]))
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    limiter = Limiter(client_address, app=app)
    app.extensions[LIMITER] = limiter
    for endpoint, view in list(app.view_functions.items()):
        marked = _limited.get(_name(view))
        if marked is not None:
            group, methods = marked
            limit = limiter.shared_limit(_configured(group), scope=group, methods=methods)
            # Flask-Limiter types its wrapper as maybe-async; it wraps a sync view synchronously
            app.view_functions[endpoint] = cast("RouteCallable", limit(view))
        if _name(view) in _unlimited:
            limiter.exempt(view)


def count_imported_games(count: int) -> int | None:
    """Count a backup's games against this address's allowance, before any is written:
    None when they fit (and are counted), else the seconds until they might."""
    limiter: Limiter = current_app.extensions[LIMITER]
    items = parse_many(current_app.config["RATE_LIMIT_IMPORTED_GAMES"])
    who = ("imported-games", client_address())
    for item in items:
        if not limiter.limiter.test(item, *who, cost=count):
            reset = limiter.limiter.get_window_stats(item, *who).reset_time
            return max(1, int(reset - time.time()) + 1)
    for item in items:
        limiter.limiter.hit(item, *who, cost=count)
    return None


class SettingError(ValueError):
    """An operator's setting the app cannot use; the message says which and why."""


def count_setting(app: Flask, key: str) -> int:
    """The whole number ``SCOREKEEPER_<key>`` holds (0 when unset)."""
    value: Any = app.config.get(key) or 0
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SettingError(
            _(
                "SCOREKEEPER_%(key)s must be a whole number (0, 1, 2, ...), not %(value)s",
                key=key,
                value=repr(value),
            )
        )
    return value


class Sessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, ``Secure`` whenever the request came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return super().get_cookie_secure(app) or request.is_secure


def init_app(app: Flask) -> None:
    app.session_interface = Sessions()
    app.jinja_env.globals["csrf_token"] = csrf_token
    redactor = RedactKeys()
    names = ("werkzeug", "gunicorn.error", "gunicorn.access")
    for logger in (app.logger, *map(logging.getLogger, names)):
        logger.addFilter(redactor)

    @app.before_request
    def refuse_a_crowded_phone() -> None:
        """The server saw this phone, behind the trusted proxy, holding its cap of
        connections already (serve/server.py): nothing is read, and it is told when to come back."""
        if request.environ.get(connection_log.CROWDED):
            raise TooManyRequests(retry_after=RETRY_AFTER)

    @app.before_request
    def check_csrf() -> None:
        if request.routing_exception is not None:
            return  # no view will run: let the 404 or 405 through as it is
        if request.method in SAFE_METHODS or app.config.get("CSRF_DISABLED"):
            return
        view = app.view_functions.get(request.endpoint or "")
        if view is not None and _name(view) in _exempt:
            return
        sent = request.headers.get(HEADER) or request.form.get(FIELD, "")
        expected = session.get(FIELD, "")
        if not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
            abort(400, _("This page has expired or came from elsewhere. Reload it and try again."))

    @app.after_request
    def headers(response: Response) -> Response:
        present = {name.lower() for name in response.headers.keys()}
        for name, value in HEADERS:
            if name.lower() not in present:
                response.headers.add(name, value)
        # pages and JSON answers may carry a key (an edit link): never kept by any cache
        if response.mimetype in _NOT_KEPT and "cache-control" not in present:
            response.headers.add("Cache-Control", "no-store")
        return response
