"""Deleting a game or a table by its link, and bringing it back while it is kept.

A deleted game or table is hidden at once from every page, list and phone, and kept
for ``purge.PURGE_AFTER_DAYS`` days: its link then shows when it was deleted and,
to whoever may, a button that brings it back (``Deleted``, raised by the link check
in access.py). A game at a table is deleted and brought back from the table's page
only; a game in no table by its scorekeeper link; a table by its own link.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    url_for,
)
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from ... import actions, store
from ...backup.purge import PURGE_AFTER_DAYS
from ...i18n import _
from ...reports import current_game
from ...store import tables
from .. import zones
from ..access import Deleted, db, game
from ..device import GameSummary, summarise
from ..errors import wants_json
from ..security import reading

bp = Blueprint("trash", __name__)


@bp.route("/g/<game_id>/<key>/delete", methods=["GET", "POST"])
def delete_game():
    """A game in no table, by its scorekeeper link: the confirmation, then deleted."""
    current = game()
    in_table = tables.table_of_game(db(), current.stored.id) is not None
    if reading():
        return _confirm("game", current, refused=_(actions.trash.IN_A_TABLE) if in_table else None)
    refused = actions.trash.delete_game(db(), current.stored.id)
    if refused is not None:
        return _confirm("game", current, refused=refused.message, status=422)
    return redirect(url_for("games.game_page"), 303)  # its link now says how to bring it back


@bp.post("/g/<game_id>/<key>/bring-back")
def restore_game() -> Response:
    refused = actions.trash.restore_game(db(), g.link.game_id)
    if refused is not None:
        abort(422, refused.message)
    flash(_("The game is back."), "message")
    return redirect(url_for("games.game_page"), 303)


@bp.route("/t/<table_id>/games/<game_id>/delete", methods=["GET", "POST"])
def delete_table_game():
    """A game of this table, by the table's link."""
    current = game()
    if tables.table_of_game(db(), current.stored.id) != g.table.id:
        abort(404, _(actions.results.NO_GAME))
    if reading():
        return _confirm("table-game", current)
    refused = actions.trash.delete_game(db(), current.stored.id, g.table.id)
    if refused is not None:
        return _confirm("table-game", current, refused=refused.message, status=422)
    flash(_("The game is deleted. Until it is removed for good, it can be brought back below."))
    return redirect(url_for("tables.table_page"), 303)


@bp.post("/t/<table_id>/games/<game_id>/bring-back")
def restore_table_game() -> Response:
    refused = actions.trash.restore_game(db(), g.link.game_id, g.table.id)
    if refused is not None:
        abort(422, refused.message)
    flash(_("The game is back."))
    return redirect(url_for("tables.table_page"), 303)


@bp.route("/t/<table_id>/delete", methods=["GET", "POST"])
def delete_table():
    """The table and all its games, by the table's link."""
    if reading():
        return _confirm("table", None)
    actions.trash.delete_table(db(), g.table.id)
    return redirect(url_for("tables.table_page"), 303)  # its link now offers to bring it back


@bp.post("/t/<table_id>/bring-back")
def restore_table() -> Response:
    refused = actions.trash.restore_table(db(), g.table.id)
    if refused is not None:
        abort(422, refused.message)
    flash(_("The table is back, with its games."))
    return redirect(url_for("tables.table_page"), 303)


def _confirm(
    what: str, current: current_game.Current | None, refused: str | None = None, status: int = 200
) -> tuple[str, int]:
    count = len(tables.game_ids(db(), g.table.id)) if what == "table" else 0
    return render_template(
        "delete.html",
        what=what,
        current=current,
        refused=refused,
        games=count,
        days=PURGE_AFTER_DAYS,
    ), status


def until(at: str) -> datetime | None:
    """The moment something deleted at ``at`` is removed for good."""
    try:
        return datetime.fromisoformat(at) + timedelta(days=PURGE_AFTER_DAYS)
    except ValueError:
        return None


def _with_day(sentence: str, end: datetime | None) -> Markup:
    """A translated sentence, escaped, with its %(day)s as a <time> on the family's clock."""
    return escape(sentence) % {"day": zones.day_of(end)}


@bp.app_errorhandler(Deleted)
def deleted(error: Deleted):
    """The page of a deleted game's or table's link (410): when, until when, bring it back."""
    end = until(error.at)
    message: str  # markup with a <time>, or plain text that the page escapes
    if error.what == "table":
        message = _with_day(
            _(
                "This table was deleted, with its games. It can be brought back until %(day)s; "
                "after that it is removed for good.",
            ),
            end,
        )
    elif not error.keeper:
        message = _("This game was deleted.")
    elif error.what == "table-game":
        message = _with_day(
            _(
                "This game was deleted with its table. The table's link can bring both back "
                "until %(day)s; after that they are removed for good.",
            ),
            end,
        )
    elif error.restore is None:
        message = _with_day(
            _(
                "This game was deleted. Its table's page can bring it back until %(day)s; after "
                "that it is removed for good.",
            ),
            end,
        )
    else:
        message = _with_day(
            _(
                "This game was deleted. It can be brought back until %(day)s; after that it is "
                "removed for good.",
            ),
            end,
        )
    if wants_json():
        return jsonify(error=Markup(message).striptags()), 410
    page = render_template("deleted.html", what=error.what, message=message, restore=error.restore)
    return page, 410


@bp.app_template_global()
def deleted_of_table(table_id: str) -> list[tuple[GameSummary, datetime | None]]:
    """The table's games deleted one by one and kept: (the game, when it is removed for
    good), for the table page's list with a way back."""
    found = []
    for game_id, at in tables.deleted_games(db(), table_id):
        stored = store.games.get_game(db(), game_id, deleted=True)
        summary = summarise(db(), stored) if stored is not None else None
        if summary is not None:
            found.append((summary, until(at)))
    return found


@bp.app_context_processor
def grace() -> dict[str, int]:
    return {"purge_after_days": PURGE_AFTER_DAYS}
