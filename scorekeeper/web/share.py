"""Watching a game: the read-only view link, live updates, table view, QR codes."""

from __future__ import annotations

from flask import Blueprint, Response, render_template, request

from ..rules.game import load_game
from .games import game_or_404, view_context

bp = Blueprint("share", __name__)
STOP_POLLING = 286  # htmx stops an `every` trigger on this status


def _etag(stored) -> str:
    return f'"v{stored.version}"'


@bp.get("/v/<game_id>")
def view(game_id: str):
    stored = game_or_404(game_id)
    context = view_context(stored, load_game(stored.state), editable=False)
    return render_template("view.html", **context)


@bp.get("/v/<game_id>/table")
def table(game_id: str):
    stored = game_or_404(game_id)
    context = view_context(stored, load_game(stored.state), editable=False)
    return render_template("table.html", **context)


@bp.get("/v/<game_id>/live")
def live(game_id: str):
    """The scoreboard fragment for polling: 304 while nothing changed."""
    stored = game_or_404(game_id)
    etag = _etag(stored)
    if request.headers.get("If-None-Match") == etag:
        return Response(status=304, headers={"ETag": etag})
    context = view_context(stored, load_game(stored.state), editable=False)
    big = request.args.get("big") == "1"
    html = render_template("_scoreboard.html", big=big, **context)
    status = (
        STOP_POLLING if context["standings"].over and not context["standings"].tiebreak else 200
    )
    return Response(html, status=status, headers={"ETag": etag, "Cache-Control": "no-cache"})
