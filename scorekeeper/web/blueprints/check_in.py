"""Self check-in: a player adds themselves to tonight's list from the night's own page
(``/e/<night_view>/check-in``), until the organiser closes the list from the night's page
(``/t/<table>/nights/<night>/check-in``).

The night's read-only link can only add a name this way (``actions.check_in``): it cannot
take anyone out, bring back a player who left, or change anything else. Adding oneself is
rate-limited as players' own points are (``sending``).
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ... import actions
from ...i18n import N_, _
from ...reports import night_view
from ...store import check_in, nights
from ..access import db
from ..security import sending

bp = Blueprint("check_in", __name__)

BAD_FORM = N_("This form does not say what to change. Reload the page and try again.")


@bp.route("/e/<night_view>/check-in", methods=["GET", "POST"])
@sending
def check_in_page() -> Response | tuple[str, int]:
    """The form to add oneself (also on the night's page), and adding oneself: then on to
    the night's page for that name, which the phone remembers."""
    night: nights.Night = g.night
    if request.method in ("GET", "HEAD"):
        return _page(night, "")
    typed = request.form.get("name", "")
    if not typed.strip():
        return _page(night, typed, _("Type your name as the others know it."), 422)
    done = actions.check_in.check_in_player(db(), night, typed)
    if isinstance(done, actions.results.Refused):
        closed = check_in.tonights_list(db(), night.id).closed
        return _page(night, typed, done.message, 409 if closed else 422)
    if done.already:
        flash(_("%(player)s is on tonight's list already.", player=done.name))
    else:
        flash(_("Welcome, %(player)s: you are on tonight's list.", player=done.name))
    return redirect(url_for("nights.view", player=done.name), 303)


def _page(night: nights.Night, typed: str, error: str | None = None, status: int = 200):
    page = render_template(
        "check_in.html",
        night=night,
        typed=typed,
        error=error,
        tonight=check_in.tonights_list(db(), night.id),
        too_late=actions.check_in.too_late(night_view.night_now(db(), night)),
    )
    return page, status


@bp.post("/t/<table_id>/nights/<night_id>/check-in")
def close() -> Response:
    """The organiser closes tonight's list to players' phones, or opens it again."""
    action = request.form.get("action", "")
    if action not in ("close", "open"):
        abort(400, _(BAD_FORM))
    actions.check_in.close_list(db(), g.night, action == "close")
    if action == "close":
        flash(_("Tonight's list is closed: players can no longer add themselves."))
    else:
        flash(_("Tonight's list is open: players can add themselves from the night's page."))
    return redirect(url_for("nights.organiser"), 303)
