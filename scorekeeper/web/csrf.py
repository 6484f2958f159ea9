"""CSRF protection: one token per session, sent in forms and by htmx as a header."""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, abort, request, session

from ..i18n import _

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
_exempt: set[str] = set()
FIELD = "csrf_token"
HEADER = "X-CSRF-Token"


def reading() -> bool:
    """True for a request that only reads (GET or HEAD): views must never write on one."""
    return request.method in SAFE_METHODS


def token() -> str:
    if FIELD not in session:
        session[FIELD] = secrets.token_urlsafe(32)
    return session[FIELD]


def exempt(view):
    """For endpoints that change nothing (the JSON checks), so other clients can POST."""
    _exempt.add(f"{view.__module__}.{view.__name__}")
    return view


def init_app(app: Flask) -> None:
    app.jinja_env.globals["csrf_token"] = token

    @app.before_request
    def check_csrf():
        if request.routing_exception is not None:
            return None  # no view will run: let the 404 or 405 through as it is
        if request.method in SAFE_METHODS or app.config.get("CSRF_DISABLED"):
            return None
        view = app.view_functions.get(request.endpoint or "")
        if view is not None and f"{view.__module__}.{view.__name__}" in _exempt:
            return None
        sent = request.headers.get(HEADER) or request.form.get(FIELD, "")
        expected = session.get(FIELD, "")
        if not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
            abort(400, _("This page has expired or came from elsewhere. Reload it and try again."))
        return None
