"""Phase lists: draw a random one on the new-game form, and rate any list there or at /api/rate.

The form's "Draw a random list" and "How hard is this list?" buttons send the
whole new-game form here (a real form: it works without JavaScript); the form
comes back as it was typed, with the drawn list in its own-phases field and the
rating below, and "Start the game" starts it as usual. What a request asks for
is read once (``ratings.read_ask``) for the form and the API alike. Rating deals
thousands of hands, so these routes have a rate limit of their own (``rating``).
"""

from __future__ import annotations

from flask import Blueprint, Flask, make_response, redirect, request, url_for
from werkzeug.wrappers import Response

from ...i18n import percent
from ...rules.options import OPTIONS
from ..checking import BadRequest
from ..game_pages import new_game_form
from ..ratings import rate, read_ask
from ..security import rating as rated_limit

bp = Blueprint("phase_lists", __name__)


# --- the new-game form's buttons ---------------------------------------------------------


@bp.post("/new/phases")
@rated_limit
def new_game_list():
    """Draw a list or rate the one typed, and show the new-game form again with the answer."""
    values = {k: v for k, v in request.form.items() if len(k) < 40}
    draw = request.form.get("phase_list") == "draw"
    options = {key: values[f"opt-{key}"].strip() for key in OPTIONS if values.get(f"opt-{key}")}
    own_list = values.get("opt-phases", "") in ("", "custom")  # blank: the text decides
    text = values.get("opt-custom_phases", "") if own_list else None
    args = {
        "rules": values.get("profile", "official"),
        "turns": values.get("turns", ""),
        "seed": values.get("seed", ""),
        "order": "given" if values.get("keep_order") else "easiest",
    }
    try:
        ask = read_ask(args, options, text=text or None, draw=draw)
    except BadRequest as error:
        return _stay(new_game_form(values, {}, rating_error=error.message), 422)
    found = rate(ask)
    rewritten = ask.drawn is not None or bool(text and ask.ordered)
    if rewritten:  # the list in the form becomes the one rated, in the order shown
        values["opt-phases"] = "custom"
        values["opt-custom_phases"] = "; ".join(r.phase.notation for r in found.phases)
    page = new_game_form(values, {}, rating=found, drawn=ask.drawn, renumbered=rewritten)
    return _stay(page, 200)


def _stay(page: str, status: int) -> Response:
    """The form again: the address bar keeps /new, and htmx shows the rating."""
    response = make_response(page, status)
    if request.headers.get("HX-Request"):
        response.headers["HX-Replace-Url"] = url_for("games.new_game")
        response.headers["HX-Reswap"] = "innerHTML show:#phase-list:top"
    return response


@bp.get("/new/phases")
def reopened() -> Response:
    """The buttons' address reloaded: the new-game form."""
    return redirect(url_for("games.new_game"), 303)


def init_app(app: Flask) -> None:
    app.add_template_filter(percent, "percent")
