"""History: every change to a game, undo, and going back to any version."""

from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, url_for

from .. import actions, store
from .db import db
from .games import render_game
from .hands import version_seen

bp = Blueprint("history", __name__)


@bp.post("/g/<game_id>/<key>/undo")
def undo():
    result = actions.undo(db(), g.stored.id, version_seen())
    if isinstance(result, actions.Refused):
        return render_game(message=result.message, status=409)
    if isinstance(result, actions.Conflict):
        abort(409, actions.STALE)
    flash(result.summary)
    return redirect(url_for("games.game_page"), 303)


@bp.get("/g/<game_id>/<key>/history")
def page():
    return render_template(
        "history.html", stored=g.stored, game=g.game, history=store.changes(db(), g.stored.id)
    )


@bp.post("/g/<game_id>/<key>/history/<int:version>/restore")
def restore(version: int):
    if store.get_change(db(), g.stored.id, version) is None:
        abort(404, f"There is no change {version} in this game's history.")
    result = actions.restore(db(), g.stored.id, version_seen(), version)
    if isinstance(result, actions.Refused):
        return render_game(message=result.message, status=409)
    if isinstance(result, actions.Conflict):
        abort(409, actions.STALE)
    return redirect(url_for("games.game_page"), 303)
