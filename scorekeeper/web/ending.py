"""How a game ends and how long it took: "End the game now", and the facts under a scoreboard.

Ending early is a real form behind a confirmation page that names the winner it
will declare (read afresh when the page opens); the form carries the version the
page showed, so a hand saved on another phone in between is a conflict, never a
different winner than the one named. Every scoreboard says when its game started,
how long it took, that it ended early, and for a finished game offers BG Stats.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import Blueprint, Flask, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from .. import actions, bgstats, playtime, store
from ..i18n import _
from ..rules.game import Game, Standings
from ..rules.ranking import final_order
from .access import db, game, opened
from .hands import version_seen
from .security import reading

bp = Blueprint("ending", __name__)


@bp.route("/g/<game_id>/<key>/end", methods=["GET", "POST"])
def end_game() -> Response | tuple[str, int]:
    """The confirmation (GET), or the game ended (POST): back to its page, saying who won."""
    current = game()
    if reading():
        return _confirm(current)
    result = actions.end_early(db(), current.stored.id, version_seen())
    if isinstance(result, actions.Saved):
        flash(result.summary)
        return redirect(url_for("games.game_page"), 303)
    if isinstance(result, actions.Refused):
        return _confirm(current, result.message, 422)
    if result.current is not None:
        opened(result.current)
    message = result.message
    if not game().standings.over:
        message = _(
            "The game changed on another phone since this page was opened. "
            "Here is who ending it now would declare the winner."
        )
    return _confirm(game(), message, 409)


def _confirm(
    current: actions.Current, message: str | None = None, status: int = 200
) -> tuple[str, int]:
    ending = None if current.standings.over else actions.ending_now(current)
    refused = ending.message if isinstance(ending, actions.Refused) else None
    standings = ending if isinstance(ending, Standings) else None
    return render_template(
        "end_game.html",
        stored=current.stored,
        game=current.game,
        standings=current.standings,
        ending=standings,
        order=final_order(standings, current.game.rules) if standings else [],
        refused=refused,
        message=message,
    ), status


# --- the facts under every scoreboard ---------------------------------------------------


@dataclass(frozen=True)
class GameFacts:
    started: datetime  # in UTC, for the ``moment`` filter
    minutes: int
    took: str  # '1 h 25 min'
    bgstats_link: str | None  # the push link, once the game is over


def game_facts(stored: store.StoredGame, game: Game, standings: Standings) -> GameFacts:
    """When the game started, how long it took (first to last change), its BG Stats link."""
    minutes = playtime.minutes(stored.created, stored.updated)
    link = None
    if standings.over:
        play = bgstats.play(game, standings, bgstats.facts(db(), stored))
        link = bgstats.push_link(play)
    return GameFacts(playtime.moment(stored.created), minutes, playtime.duration(minutes), link)


def init_app(app: Flask) -> None:
    app.add_template_global(game_facts)
    app.add_template_global(playtime.duration, "game_duration")
