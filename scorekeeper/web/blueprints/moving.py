"""Moving a game out of a table into another: only the table a game is in lets it go.

The page is reached by the table's own link, and asks for the link of the table the
game goes to; ``actions.moving.move_game`` writes the move into the game's history. Taking a
move back is the table's too: the table the game is in now offers "Undo the move"
beside it (``actions.undo.undo_move``), where the game's own Undo stops. (A game in no table
moves in from the table's page, by its scorekeeper link: web/blueprints/tables.py.)
"""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for

from ... import actions
from ...i18n import _
from ...store import tables
from ..access import db, game
from ..forms import version_seen
from ..security import reading

bp = Blueprint("moving", __name__)
TABLE_LINK = re.compile(r"/t/([A-Za-z0-9_-]{10,40})")


@bp.route("/t/<table_id>/games/<game_id>/move", methods=["GET", "POST"])
def move_game():
    current = game()
    if tables.table_of_game(db(), current.stored.id) != g.table.id:
        abort(404, _(actions.results.NO_GAME))
    if reading():
        return render_template("move_game.html", current=current, link="", error=None)
    link = request.form.get("to", "").strip()
    found = TABLE_LINK.search(link)
    target = tables.get_table(db(), found.group(1)) if found else None
    if target is None:
        error = _("That is not the link of a table here. Copy it from the other table's page.")
        return render_template("move_game.html", current=current, link=link, error=error), 422
    moved = actions.moving.move_game(db(), current.stored.id, target.id, g.table.id)
    if not isinstance(moved, actions.results.Saved):
        page = render_template("move_game.html", current=current, link=link, error=moved.message)
        return page, 422
    flash(
        _(
            "The game is now in the table %(table)s. “Undo the move” beside it on that "
            "table's page brings it back.",
            table=target.name,
        )
    )
    return redirect(url_for("tables.table_page"), 303)


@bp.post("/t/<table_id>/games/<game_id>/undo")
def undo_move():
    """Take back the move that put one of the table's games in it: back to the table it
    came from, or to none. A change of the table, so made by the table's link."""
    current = game()
    if tables.table_of_game(db(), current.stored.id) != g.table.id:
        abort(404, _(actions.results.NO_GAME))
    result = actions.undo.undo_move(db(), current.stored.id, version_seen(), g.table.id)
    if isinstance(result, actions.results.Refused):
        abort(409, result.message)
    if isinstance(result, actions.results.Conflict):
        abort(409, _(actions.results.STALE))
    flash(result.summary)
    return redirect(url_for("tables.table_page"), 303)
