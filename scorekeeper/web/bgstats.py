"""A finished game for BG Stats: the push link (one tap from a list) and the play as JSON.

Both answer the watch link: they show only what its page shows (names, totals,
places, the table's name). The scoreboard carries the push link itself
(ending.game_facts); a list of games links here instead, so the list does not
build a play for every game it shows.
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, redirect
from werkzeug.wrappers import Response as Redirect

from .. import bgstats
from .access import db, game

bp = Blueprint("bgstats", __name__)


def _play() -> dict:
    current = game()
    try:
        return bgstats.play(current.game, current.standings, bgstats.facts(db(), current.stored))
    except bgstats.NotFinished as error:
        abort(409, str(error))


@bp.get("/v/<game_id>/bgstats")
def push() -> Redirect:
    """Straight on to BG Stats' import dialog."""
    return redirect(bgstats.push_link(_play()), 303)


@bp.get("/v/<game_id>/bgstats.json")
def download() -> Response:
    """The play as a file, for BG Stats' import or to keep."""
    return Response(
        json.dumps(_play(), ensure_ascii=False, indent=2),
        mimetype="application/json",
        headers={
            "Content-Disposition": 'attachment; filename="phase10-play.bgsplay.json"',
            "Cache-Control": "no-store",
        },
    )
