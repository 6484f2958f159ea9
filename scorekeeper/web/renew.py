"""New links for a leaked one: a game's scorekeeper link, its players' links, a table's link.

Each is a POST form (CSRF-checked like every form) on the page that shows the
link: the share page, the players' links page, the table's page. The old link
stops working at once, with the same 404 as any wrong link; this device's
memory (device.py) takes the new one, and the page it lands on shows the new
link and says what happened. Other devices that kept score with the old
scorekeeper link keep the game on their start page as one they watch.

A new link changes who can reach a game or table, not the game: nothing is
written to the game's change log (docs/decisions.md says why).
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, url_for
from werkzeug.wrappers import Response

from .. import store, tables
from ..i18n import N_, _
from . import device
from .access import db

bp = Blueprint("renew", __name__)
RENEWED_MEANWHILE = N_(
    "This link was renewed from another phone a moment ago, so it no longer works. Ask for "
    "the new one."
)


@bp.post("/g/<game_id>/<key>/renew")
def edit_link() -> Response:
    """A new scorekeeper link; the one this request came with stops working."""
    link = g.link
    key = store.renew_edit_key(db(), link.game_id, link.edit_key)
    if key is None:
        abort(404, _(RENEWED_MEANWHILE))
    device.remember_game(link.game_id, key)
    flash(
        _(
            "This game has a new scorekeeper link, below. The old one no longer opens it: "
            "send the new one to every scorekeeper. Watch links and players' links are "
            "unchanged."
        )
    )
    return redirect(url_for("games.share", game_id=link.game_id, key=key), 303)


@bp.post("/g/<game_id>/<key>/players/renew")
def player_links() -> Response:
    """New links for every player; each old one stops working (points sent stay)."""
    link = g.link
    if store.renew_player_key(db(), link.game_id, link.player_key) is None:
        abort(409, _("The players' links were renewed a moment ago. Reload the page."))
    flash(
        _(
            "The players have new links and codes, below: the old ones no longer work. "
            "Points already sent are kept."
        )
    )
    return redirect(url_for("players.links"), 303)


@bp.post("/t/<table_id>/renew")
def table_link() -> Response:
    """A new link for the table; the old one stops working."""
    old = g.table.id
    new = tables.renew_link(db(), old)
    if new is None:
        abort(404, _(RENEWED_MEANWHILE))
    device.remember_table(new, instead_of=old)
    flash(
        _(
            "This table has a new link, below. The old one no longer opens it: open the new "
            "one on each phone that should remember the table. The games' own links are "
            "unchanged."
        )
    )
    return redirect(url_for("tables.table_page", table_id=new), 303)
