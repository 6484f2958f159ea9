"""Printables as downloads: the standard set, and sheets made for one game.

The standard set is the one in ``printables/``, except that what links to the
app (the two-deck guide's QR code and printed link) carries the address
``serve`` announced, which the committed files cannot know.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request

from ..i18n import N_, _
from ..printing import (
    PAGE_SIZES,
    STANDARD_SET,
    deck_guide,
    game_sheet,
    reference_cards,
    standard_set,
)
from ..printing.layout import LayoutError
from ..printing.sheets import MAX_LARGE_PLAYERS
from . import versioned
from .db import game_or_404
from .links import public_url

bp = Blueprint("printables", __name__)
STANDARD = dict(STANDARD_SET)
TITLES = {
    "score-sheet": N_("Score sheet"),
    "score-sheet-ten-hands": N_("Score sheet for ten-hands games"),
    "score-sheet-large": N_("Large-print score sheet (2 to 4 players)"),
    "phase-cards-official": N_("Phase cards: official rules"),
    "phase-cards-plus10": N_("Phase cards: Phase 10 + 10"),
    "phase-cards-even": N_("Phase cards: even phases"),
    "phase-cards-super-wild": N_("Phase cards: Super Wild"),
    "phase-cards-masters": N_("Phase cards: Masters"),
    "phase-cards-mixed-up": N_("Phase cards: Mixed-up Masters"),
    "two-deck-guide": N_("Playing with two regular decks"),
}


def _pdf(data: bytes, filename: str) -> Response:
    return Response(
        data,
        mimetype="application/pdf",
        headers={
            "Content-Disposition": f'inline; filename="{filename}"',
            "Cache-Control": "no-cache",
        },
    )


def _size() -> str:
    size = request.args.get("size", "letter")
    if size not in PAGE_SIZES:
        abort(400, _("Paper size must be one of %(sizes)s.", sizes=", ".join(PAGE_SIZES)))
    return size


@bp.get("/printables")
def index():
    titles = {name: _(title) for name, title in TITLES.items()}
    return render_template("printables.html", titles=titles, sizes=PAGE_SIZES)


@bp.get("/printables/<name>.pdf")
def standard(name: str):
    """A standard printable; one that links to the app links to it at its address."""
    filename = f"{name}.pdf"
    if filename not in STANDARD:
        abort(404, _("There is no printable with that name."))
    app_url = public_url("games.home")
    data = versioned.once(
        ("printable", filename, app_url), lambda: dict(standard_set(app_url))[filename]()
    )
    return _pdf(data, filename)


@bp.get("/v/<game_id>/print/<kind>.pdf")
def for_game(game_id: str, kind: str):
    """A game's own score sheet (its record so far, QR to the view link), cards or guide.

    Built from the kept standings (nothing replayed), once per version of the game:
    printing the same sheet again, or from another phone, sends the kept PDF.
    """
    current = game_or_404(game_id)
    stored, game = current.stored, current.game
    size = _size()
    view_url = public_url("share.view", game_id=stored.id)
    if kind in ("score-sheet", "score-sheet-large"):
        large = kind == "score-sheet-large"
        if large and len(game.players) > MAX_LARGE_PLAYERS:
            abort(
                400,
                _("Large print has room for %(count)s players at most.", count=MAX_LARGE_PLAYERS),
            )

        def build() -> bytes:
            return game_sheet(
                game, view_url=view_url, pagesize=size, large=large, kept=current.kept
            )
    elif kind == "phase-cards":

        def build() -> bytes:
            return reference_cards(game.rules, pagesize=size, copies=len(game.players))
    elif kind == "two-deck-guide":

        def build() -> bytes:
            return deck_guide(game.rules, pagesize=size, view_url=view_url)
    else:
        abort(404, _("There is no printable with that name."))
    data = versioned.once(("print", stored.id, current.version, kind, size, view_url), build)
    return _pdf(data, f"phase10-{kind}-{size}.pdf")


@bp.errorhandler(LayoutError)
def does_not_fit(error: LayoutError):
    message = _("This game's phases are too long to print on cards: %(reason)s.", reason=error)
    page = render_template("error.html", code=422, title=_("Cannot print"), message=message)
    return page, 422
