"""``/sw.js``: the service worker that makes the app installable and keeps its static files.

Served from the site's root, not ``/static/``, so that its scope is every page;
``static/app.js`` registers it only in a secure context. Browsers look for a new
one at least daily; ``no-cache`` with an ETag makes that a 304 while it is unchanged.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app, request

bp = Blueprint("service_worker", __name__)


@bp.get("/sw.js")
def script() -> Response:
    body = (Path(current_app.static_folder or "static") / "sw.js").read_bytes()
    response = Response(body, mimetype="text/javascript", headers={"Cache-Control": "no-cache"})
    response.add_etag()
    response.make_conditional(request)  # a 304 when the phone has this one
    return response
