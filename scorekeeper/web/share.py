"""Watching a game: the read-only view link, live updates, table view, QR codes."""

from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, Response, current_app, render_template, request

from .. import store
from .db import db, game_or_404
from .games import view_context

bp = Blueprint("share", __name__)
STOP_POLLING = 286  # htmx stops an `every` trigger on this status


@bp.get("/v/<game_id>")
def view(game_id: str):
    return _watch_page("view.html", game_id)


@bp.get("/v/<game_id>/table")
def table(game_id: str):
    return _watch_page("table.html", game_id)


def _watch_page(template: str, game_id: str):
    """Read-only pages are the same for every watcher of a version: render once."""
    version = store.game_version(db(), game_id)
    if version is None:
        return game_or_404(game_id)  # the friendly 404
    return _render_watch_page(current_app.config["DATABASE"], template, game_id, version)


@lru_cache(maxsize=256)
def _render_watch_page(database: str, template: str, game_id: str, version: int) -> str:
    context = view_context(game_or_404(game_id))
    return render_template(template, read_only=True, **context)


@bp.get("/v/<game_id>/live")
def live(game_id: str):
    """The scoreboard fragment for polling: 304 while nothing changed.

    The version number alone answers the idle poll, and a version's scoreboard
    never changes once written, so it is rendered once and kept.
    """
    version = store.game_version(db(), game_id)
    if version is None:
        return game_or_404(game_id)  # the friendly 404
    etag = f'"v{version}"'
    if request.headers.get("If-None-Match") == etag:
        return Response(status=304, headers={"ETag": etag})
    big = request.args.get("big") == "1"
    html, over = _scoreboard(current_app.config["DATABASE"], game_id, version, big)
    return Response(
        html,
        status=STOP_POLLING if over else 200,
        headers={"ETag": etag, "Cache-Control": "no-cache"},
    )


@lru_cache(maxsize=512)
def _scoreboard(database: str, game_id: str, version: int, big: bool) -> tuple[str, bool]:
    # A write landing just now makes this newer than its ETag; the next poll sets it right.
    context = view_context(game_or_404(game_id))
    standings = context["standings"]
    html = render_template("_scoreboard.html", big=big, **context)
    return html, standings.over
