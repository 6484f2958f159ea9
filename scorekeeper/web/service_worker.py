"""``/sw.js``: the service worker that makes the app installable and keeps its static files.

Served from the site's root, not ``/static/``, so that its scope is every page;
``static/app.js`` registers it only in a secure context. Browsers look for a new
one at least daily, and ``no-cache`` makes them ask each time.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app

bp = Blueprint("service_worker", __name__)


@bp.get("/sw.js")
def script() -> Response:
    response = current_app.send_static_file("sw.js")
    response.headers["Cache-Control"] = "no-cache"
    return response
