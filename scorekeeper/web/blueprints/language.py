"""The language switcher: a link at the foot of every page that remembers a language on
this device (a cookie for a year) and goes back to the page it was on."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, redirect, request

from ... import i18n
from ..language import COOKIE

bp = Blueprint("language", __name__)
YEAR = 365 * 24 * 3600


@bp.get("/language/<code>")
def switch(code: str):
    """Remember `code` on this device and go back to the page the switcher was on."""
    language = i18n.supported(code)
    if language is None or language != code:
        abort(404)
    response = redirect(_same_site(request.args.get("next", "")), 303)
    response.set_cookie(
        COOKIE, language, max_age=YEAR, httponly=True, samesite="Lax", secure=request.is_secure
    )
    return response


def _same_site(target: str) -> str:
    """Only a path on this site, never another host (an open redirect)."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target
