"""Watching: a game's read-only page, its table view, a table's own screen, and a game's
watch page opened by its short code.

Each page is also its live part (live.py): the same URL answers htmx's poll with
the scoreboard alone. Opening a watch page keeps the game on this device's start
page under Watching (without any way to change it) until Forget.

A game's short code (scorekeeper/codes.py) is printed under its QR code as the
app's address and the code in groups, ``http://192.168.1.20:5010/ABCD-EFGH-JKMN-PQRS``,
and shown on the share page and the table's screens to read aloud. Whatever case,
spaces or dashes it is typed with, ``/<code>`` and the start page's "Type a code"
box open the game's watch page; a code no game has is the same 404 as any wrong
link. Both count against one limit per address (``RATE_LIMIT_CODE``): with 80 bits,
guessing within it is hopeless (docs/decisions.md).
"""

from __future__ import annotations

import json
from typing import NamedTuple

from flask import Blueprint, Flask, abort, g, redirect, render_template, request, url_for
from werkzeug.routing import BaseConverter, ValidationError
from werkzeug.wrappers import Response

from ... import codes, store
from ...i18n import _
from ...printing.link import printed_link, site
from ...reports import bgstats, news
from ...store import nights, tables
from .. import device, live, zones
from ..access import NO_GAME, db, game, public_url
from ..forms import whole_number
from ..game_pages import so_far, view_context
from ..security import looking_up

bp = Blueprint("watch", __name__)


def _watch(template: str, fragment: str, endpoint: str, **extra: object) -> Response:
    follow = lambda following: url_for(endpoint, game_id=following.game_id)  # noqa: E731
    if (early := live.game_answer(live.watch_live, follow)) is not None:
        return early
    link = g.link
    tag = live.watch_live(link)
    poll_url = url_for(endpoint, game_id=link.game_id)

    def render(name: str, **more: object) -> str:
        current = game()
        following = live.next_game(link, follow) if current.standings.over else None
        context = {**view_context(current), "read_only": True, "poll_url": poll_url}
        return render_template(name, live_tag=tag, next_game=following, **extra, **more, **context)

    if live.polled():
        minutes = so_far(game().stored, game().standings)  # "12 min so far" is kept a minute
        html = live.shared((endpoint, link.game_id, tag, minutes), lambda: render(fragment))
        return live.fragment(html, 200, tag, live.heard(game()))
    device.remember_game(link.game_id, None)
    return live.page(render(template, its_table=device.known_table(db(), link.game_id)))


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


@bp.get("/tv/<screen>")
def table_screen() -> Response:
    """A table's screen: whatever game it is playing now, set up once for the evening."""
    table: tables.Table = g.table

    def now_playing() -> str:
        game_id = tables.latest_game(db(), table.id)
        g.link = store.games.game_link(db(), game_id) if game_id else None
        return live.shown(f"{g.link.game_id}.{g.link.version}" if g.link else "none")

    tag = now_playing()
    if (idle := live.answer(tag, now_playing, store.commits.table_key(table.id))) is not None:
        return idle
    tag = live.shown(f"{g.link.game_id}.{g.link.version}" if g.link else "none")
    poll_url = url_for("watch.table_screen", screen=table.screen)
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
        html = render_template("_table_screen.html", **context)
        return live.fragment(html, 200, tag, _screen_news())
    return live.page(render_template("table_screen.html", **context))


def _screen_news() -> str:
    """What a table's screen says: the changes to the game it showed, or the new game."""
    if g.link is None:
        return ""
    shown = live.shown_parts()  # its game's id and version, or "none"
    if len(shown) == 2 and shown[0] == g.link.game_id:
        return news.since(db(), game(), whole_number(shown[1]))
    return news.latest(db(), game())


# --- a watch page by its short code -------------------------------------------------


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


def _by_code(code: str) -> Response:
    """A game's watch page, or a club night's page (its codes share the space)."""
    game_id = store.games.game_by_code(db(), code)
    if game_id is not None:
        return redirect(url_for("watch.view", game_id=game_id), 303)
    night = nights.night_by_code(db(), code)
    if night is None:
        abort(404, _(NO_GAME))
    return redirect(url_for("nights.view", night_view=night.view_id), 303)


@bp.get("/<watch_code:code>")
@looking_up
def opened(code: str) -> Response:
    """The printed link: the app's address and the code, typed in any case and grouping."""
    return _by_code(code)


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
    if store.games.game_by_code(db(), code) is None and nights.night_by_code(db(), code) is None:
        message = _("No game has this code. Check it and type it again.")
        return render_template("home.html", code=text, code_error=message, **device.home(db())), 404
    return _by_code(code)


class WatchCode(NamedTuple):
    """A game's code as pages show it: grouped to read aloud, where to type it, and the
    link with it that the game's printed sheet carries."""

    grouped: str
    site: str
    link: str


@bp.app_template_global()
def watch_code(stored: store.games.StoredGame | None) -> WatchCode | None:
    """``stored``'s code for a page, as printing/link.py prints it on the game's sheets."""
    if stored is None or not stored.code:
        return None
    view_url = public_url("watch.view", game_id=stored.id)
    code = stored.code
    return WatchCode(codes.grouped(code), site(view_url), printed_link(view_url, code))


# --- a finished game for BG Stats (the push link, and the play as JSON) -----------------
# Both show only what the watch page shows; a list of games links to the push link rather
# than building a play for every game it lists.


def _play() -> dict:
    current = game()
    try:
        return bgstats.stored_play(
            db(), current.stored, current.game, current.standings, zones.record_zone()
        )
    except bgstats.NotFinished as error:
        abort(409, str(error))


@bp.get("/v/<game_id>/bgstats")
def bgstats_push() -> Response:
    """Straight on to BG Stats' import dialog."""
    return redirect(bgstats.push_link(_play()), 303)


@bp.get("/v/<game_id>/bgstats.json")
def bgstats_download() -> Response:
    """The play as a file, for BG Stats' import or to keep."""
    return Response(
        json.dumps(_play(), ensure_ascii=False, indent=2),
        mimetype="application/json",
        headers={
            "Content-Disposition": 'attachment; filename="phase10-play.bgsplay.json"',
            "Cache-Control": "no-store",
        },
    )
