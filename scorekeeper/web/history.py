"""History: every change to a game, undo, and going back to any version."""

from __future__ import annotations

from flask import Blueprint, abort, g, render_template

from .. import actions, store
from ..i18n import _
from .db import db
from .games import after_change
from .hands import version_seen

bp = Blueprint("history", __name__)


@bp.post("/g/<game_id>/<key>/undo")
def undo():
    return after_change(actions.undo(db(), g.stored.id, version_seen()), say_what=True)


@bp.get("/g/<game_id>/<key>/history")
def page():
    return render_template(
        "history.html", stored=g.stored, game=g.game, history=store.changes(db(), g.stored.id)
    )


@bp.post("/g/<game_id>/<key>/history/<int:version>/restore")
def restore(version: int):
    if store.get_change(db(), g.stored.id, version) is None:
        abort(404, _("There is no change %(version)s in this game's history.", version=version))
    return after_change(actions.restore(db(), g.stored.id, version_seen(), version))
