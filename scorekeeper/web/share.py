"""Watching a game: the read-only view link, the table view, and live updates.

Every page showing a game keeps itself current by polling (see
templates/_live_attrs.html). The poll names the version the phone shows; while
nothing changed the answer is a 304 from the version number alone. Otherwise it
is the same partial the page was rendered with, carrying its own trigger, so it
goes on polling. Once the game is over the answer has status 286 (htmx stops
that element's timer) and the finished scoreboard it brings keeps only the cheap
version check, so a correction that reopens the game still shows within
seconds (docs/live-updates.md).
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request

from .. import store
from ..i18n import _
from ..rules.scoring import card_kinds
from . import edit, shared_pages, versioned
from .db import NO_GAME, db, game_or_404
from .games import view_context
from .hand_form import HandForm

bp = Blueprint("share", __name__)
GAME_OVER = 286  # htmx stops the polling element's timer on this status


@bp.get("/v/<game_id>")
def view(game_id: str):
    return _watch_page("view.html", game_id)


@bp.get("/v/<game_id>/table")
def table(game_id: str):
    return _watch_page("table.html", game_id)


def _watch_page(template: str, game_id: str) -> Response:
    """Read-only pages are the same for every watcher of a version: render once."""
    version = _version_or_404(game_id)
    page = versioned.once(
        (template, game_id, version),
        lambda: versioned.Page.of(*_render(template, game_id, read_only=True)),
    )
    shared_pages.share(version)
    return page.response(200)


def _version_or_404(game_id: str) -> int:
    version = store.game_version(db(), game_id)
    if version is None:
        game_or_404(game_id)  # the friendly 404
        abort(404, _(NO_GAME))  # the game came and went between the two reads
    return version


def _render(template: str, game_id: str, **extra) -> tuple[str, bool]:
    """A template over the game as stored now, and whether that game is over."""
    context = view_context(game_or_404(game_id))
    return render_template(template, **extra, **context), context["standings"].over


def _unchanged(version: int) -> Response | None:
    """The idle poll: the phone already shows this version."""
    if request.headers.get("If-None-Match") == f'"v{version}"':
        return Response(status=304, headers={"ETag": f'"v{version}"'})
    return None


def _fragment_headers(version: int) -> dict[str, str]:
    return {"ETag": f'"v{version}"', "Cache-Control": "no-cache"}


@bp.get("/v/<game_id>/live")
def live(game_id: str):
    """The watchers' scoreboard, rendered once per version and kept."""
    version = _version_or_404(game_id)
    if (idle := _unchanged(version)) is not None:
        return idle
    big = request.args.get("big") == "1"
    poll_url = request.path + ("?big=1" if big else "")
    page = versioned.once(
        ("_scoreboard.html", game_id, version, big),
        lambda: versioned.Page.of(
            *_render("_scoreboard.html", game_id, big=big, poll_url=poll_url)
        ),
    )
    shared_pages.share(version)
    return page.response(GAME_OVER if page.over else 200, **_fragment_headers(version))


@bp.get("/g/<game_id>/<key>/live")
def keeper_live(game_id: str, key: str):
    """The scorekeeper page's poll: the scoreboard, with the hand form and the hands
    out of band (app.js keeps a hand form someone is typing in)."""
    version = store.edit_version(db(), game_id, key)
    if version is None:
        abort(404, _(NO_GAME))
    if (idle := _unchanged(version)) is not None:
        return idle
    current = game_or_404(game_id)
    edit.remember(current)  # the edit links take the game's id and key from it
    context = view_context(current)
    response = versioned.page_with_token(
        ("_keeper_live.html", game_id, current.stored.version),
        lambda: render_template(
            "_keeper_live.html",
            form=HandForm({}),
            card_fields=card_kinds(current.game.rules),
            poll_url=request.path,
            **context,
        ),
    )
    response.status_code = GAME_OVER if context["standings"].over else 200
    response.headers.update(_fragment_headers(current.stored.version))
    return response
