"""A watched game kept on this device: opened through its read-only link, listed at home.

The watch page is the same for every watcher and sets no cookie, so each
version of it is rendered once (web/share.py). Keeping the game on this
device's start page is a request of its own: the watch page asks for it as it
loads (htmx), and without JavaScript its "Keep this game on this device" link
leads to the same form. Only the game's id is kept, never an edit key:
watching gives no way to change a game.
"""

from __future__ import annotations

from flask import Blueprint, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from . import device
from .csrf import reading
from .db import game_or_404

bp = Blueprint("keep", __name__)


def _fragment_asked() -> bool:
    """An htmx request for the keep box alone (not a boosted page or a history restore)."""
    headers = request.headers
    return (
        headers.get("HX-Request") == "true"
        and headers.get("HX-Boosted") != "true"
        and headers.get("HX-History-Restore-Request") != "true"
    )


@bp.route("/v/<game_id>/keep", methods=["GET", "POST"])
def keep(game_id: str) -> Response:
    """GET: is this game kept here, and the form to keep it. POST: keep it."""
    current = game_or_404(game_id)
    if not reading():
        device.remember_game(game_id, None)  # a scorekeeper's own edit key stays as it was
        if not _fragment_asked():
            return redirect(url_for("keep.keep", game_id=game_id), 303)
    kept = game_id in dict(device.games())
    if _fragment_asked():
        page = render_template("_keep.html", game_id=game_id, kept=kept, auto=True)
    else:
        page = render_template("keep.html", game_id=game_id, kept=kept, game=current.game)
    response = make_response(page)
    response.headers["Cache-Control"] = "no-store"  # this device's own answer, with its token
    response.vary.add("HX-Request")
    return response


@bp.post("/v/<game_id>/forget")
def forget(game_id: str) -> Response:
    """Take a watched game off this device's start page (the game itself is not touched)."""
    device.forget_watched(game_id)
    return redirect(url_for("games.home"), 303)
