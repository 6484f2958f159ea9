"""A game's watch page by its short code: the printed link, and the start page's box.

The code (scorekeeper/codes.py) is printed under a game's QR code as the app's
address and the code in groups, ``http://192.168.1.20:5010/ABCD-EFGH-JKMN-PQRS``,
and shown on the share page and the table's screens to read aloud. Whatever
case, spaces or dashes it is typed with, ``/<code>`` and the start page's
"Type a code" box open the game's watch page; a code no game has is the same
404 as any wrong link. Both count against one limit per address
(``RATE_LIMIT_CODE``): with 80 bits, guessing within it is hopeless
(docs/decisions.md). Watching needs nothing more; keeping score still needs
the edit link.
"""

from __future__ import annotations

from typing import NamedTuple

from flask import Blueprint, Flask, abort, redirect, render_template, request, url_for
from werkzeug.routing import BaseConverter, ValidationError
from werkzeug.wrappers import Response

from .. import codes, store
from ..i18n import _
from ..printing.link import printed_link, site
from . import device
from .access import NO_GAME, db, public_url
from .security import looking_up

bp = Blueprint("by_code", __name__)


class CodeConverter(BaseConverter):
    """A path part that reads as a short code; anything else is not this route's, so no
    other page at the root (``/new``, ``/rules``, ...) is ever taken for a code."""

    def to_python(self, value: str) -> str:
        code = codes.normalise(value)
        if code is None:
            raise ValidationError()
        return code

    def to_url(self, value: str) -> str:
        return codes.grouped(value)


def init_app(app: Flask) -> None:
    """Before the blueprint is registered: its route uses the converter."""
    app.url_map.converters["watch_code"] = CodeConverter


def _watch(code: str) -> Response:
    game_id = store.game_by_code(db(), code)
    if game_id is None:
        abort(404, _(NO_GAME))
    return redirect(url_for("watch.view", game_id=game_id), 303)


@bp.get("/<watch_code:code>")
@looking_up
def opened(code: str) -> Response:
    """The printed link: the app's address and the code, typed in any case and grouping."""
    return _watch(code)


@bp.get("/code")
@looking_up
def typed() -> Response | tuple[str, int]:
    """The start page's box (a GET form: it works without JavaScript)."""
    text = request.args.get("code", "")[:100]
    code = codes.normalise(text)
    if code is None:
        message = _(
            "A game's code has 16 letters and digits, like %(example)s. Check it and type "
            "it again.",
            example="ABCD-EFGH-JKMN-PQRS",
        )
        return render_template("home.html", code=text, code_error=message, **device.home(db())), 422
    if store.game_by_code(db(), code) is None:
        message = _("No game has this code. Check it and type it again.")
        return render_template("home.html", code=text, code_error=message, **device.home(db())), 404
    return _watch(code)


class WatchCode(NamedTuple):
    """A game's code as pages show it: grouped to read aloud, where to type it, and the
    link with it that the game's printed sheet carries."""

    grouped: str
    site: str
    link: str


@bp.app_template_global()
def watch_code(stored: store.StoredGame | None) -> WatchCode | None:
    """``stored``'s code for a page, as printing/link.py prints it on the game's sheets."""
    if stored is None or not stored.code:
        return None
    view_url = public_url("watch.view", game_id=stored.id)
    code = stored.code
    return WatchCode(codes.grouped(code), site(view_url), printed_link(view_url, code))
