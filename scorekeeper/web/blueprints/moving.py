"""Moving a game out of a table into another: only the table a game is in lets it go.

The page is reached by the table's own link, and asks for the link of the table the
game goes to; ``actions.moving.move_game`` writes the move into the game's history, where
Undo takes it back. (A game in no table moves in from the table's page, by its
scorekeeper link: web/tables.py.)
"""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for

from ... import actions
from ...i18n import _
from ...store import tables
from ..access import db, game
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
            "The game is now in the table %(table)s. Undo on its page brings it back.",
            table=target.name,
        )
    )
    return redirect(url_for("tables.table_page"), 303)
