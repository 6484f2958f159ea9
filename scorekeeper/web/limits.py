"""Rate limits (Flask-Limiter): one address cannot fill the disk with games or hog the checkers.

Counts are kept in memory by default, per server process; set RATELIMIT_STORAGE_URI
(e.g. redis://...) to share them between processes. Behind a reverse proxy, the
proxy's address is the one counted unless the app is told to trust it
(werkzeug's ProxyFix).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from flask import Flask, current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

if TYPE_CHECKING:
    from flask.typing import RouteCallable

# Each group shares one count per address; only POST creates, so only POST is counted there.
CREATING = ("games.new_game", "games.import_game", "api.create_game")
CHECKING = ("check.api_check", "check.api_hit", "check.api_solve")
DEFAULTS = {
    "RATE_LIMIT_CREATE": "30 per minute; 300 per day",
    "RATE_LIMIT_CHECK": "300 per minute",
}


def _limit(name: str):
    return lambda: current_app.config[name]


def init_app(app: Flask) -> None:
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    limiter = Limiter(get_remote_address, app=app)
    create = limiter.shared_limit(_limit("RATE_LIMIT_CREATE"), scope="create", methods=["POST"])
    check = limiter.shared_limit(_limit("RATE_LIMIT_CHECK"), scope="check")
    # a renamed endpoint raises KeyError here, at start-up, rather than going unlimited
    for endpoints, limit in ((CREATING, create), (CHECKING, check)):
        for endpoint in endpoints:
            # flask-limiter types its wrapper as maybe-async; it wraps a sync view synchronously
            app.view_functions[endpoint] = cast(
                "RouteCallable", limit(app.view_functions[endpoint])
            )
    limiter.exempt(app.view_functions["healthz.healthz"])  # probed every few seconds
    _check_only_limited_views(app, limiter)


def _check_only_limited_views(app: Flask, limiter: Limiter) -> None:
    """Skip Flask-Limiter's check before every request when it has nothing to check there.

    Each view limited above checks its own limits when it is called. The check
    before every request is for app-wide limits (RATELIMIT_APPLICATION,
    RATELIMIT_DEFAULT, RATELIMIT_META), which this app sets none of; it cost
    about a sixth of the scorekeeper page's time. An operator who sets one
    keeps it.
    """
    manager = limiter.limit_manager
    if manager.application_limits or manager.default_limits or limiter._meta_limits:
        return
    hooks = app.before_request_funcs.get(None, [])
    if limiter._check_request_limit in hooks:
        hooks.remove(limiter._check_request_limit)
