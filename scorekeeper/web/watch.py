"""Watching: a game's read-only page, its table view, and a table's own screen.

Each page is also its live part (live.py): the same URL answers htmx's poll with
the scoreboard alone. Opening a watch page keeps the game on this device's start
page under Watching (without any way to change it) until Forget.
"""

from __future__ import annotations

from flask import Blueprint, g, redirect, render_template, url_for
from werkzeug.wrappers import Response

from .. import store, tables
from . import device, live
from .access import db, game
from .games import view_context

bp = Blueprint("watch", __name__)


def _watch(template: str, fragment: str, endpoint: str, **extra: object) -> Response:
    follow = lambda following: url_for(endpoint, game_id=following.game_id)  # noqa: E731
    if (early := live.game_answer(live.watch_live, follow)) is not None:
        return early
    link = g.link
    tag = live.watch_live(link)
    poll_url = url_for(endpoint, game_id=link.game_id)

    def render(name: str) -> str:
        current = game()
        following = live.next_game(link, follow) if current.standings.over else None
        context = {**view_context(current), "read_only": True, "poll_url": poll_url}
        return render_template(name, live_tag=tag, next_game=following, **extra, **context)

    if live.polled():
        html = live.shared((endpoint, link.game_id, tag), lambda: render(fragment))
        return live.fragment(html, 200, tag)
    device.remember_game(link.game_id, None)
    return live.page(render(template))


@bp.get("/v/<game_id>")
def view() -> Response:
    return _watch("view.html", "_scoreboard.html", "watch.view")


@bp.get("/v/<game_id>/table")
def table() -> Response:
    """For a tablet or TV in the middle of the table: the chart beside the standings."""
    return _watch("table.html", "_scoreboard.html", "watch.table", big=True)


@bp.post("/v/<game_id>/forget")
def forget() -> Response:
    """Take a watched game off this device's start page (the game itself is not touched)."""
    device.forget_watched(g.link.game_id)
    return redirect(url_for("home.home"), 303)


@bp.get("/tv/<view_id>")
def table_screen() -> Response:
    """A table's screen: whatever game it is playing now, set up once for the evening."""
    table: tables.Table = g.table

    def now_playing() -> str:
        game_id = tables.latest_game(db(), table.id)
        g.link = store.game_link(db(), game_id) if game_id else None
        return f'"{g.link.game_id}.{g.link.version}"' if g.link else '"none"'

    tag = now_playing()
    if (idle := live.answer(tag, now_playing)) is not None:
        return idle
    tag = f'"{g.link.game_id}.{g.link.version}"' if g.link else '"none"'
    poll_url = url_for("watch.table_screen", view_id=table.view_id)
    context: dict[str, object] = {
        "table": table,
        "read_only": True,
        "poll_url": poll_url,
        "live_tag": tag,
        "stored": None,
    }
    if g.link is not None:
        context.update(view_context(game()))
    if live.polled():
        return live.fragment(render_template("_table_screen.html", **context), 200, tag)
    return live.page(render_template("table_screen.html", **context))
