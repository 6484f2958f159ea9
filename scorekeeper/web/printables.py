"""Printables as downloads: the standard set, and sheets made for one game."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request

from ..printing import PAGE_SIZES, STANDARD_SET, deck_guide, game_sheet, reference_cards
from ..printing.layout import LayoutError
from ..printing.sheets import MAX_LARGE_PLAYERS
from .db import game_or_404
from .links import public_url

bp = Blueprint("printables", __name__)
STANDARD = dict(STANDARD_SET)
TITLES = {
    "score-sheet": "Score sheet",
    "score-sheet-ten-hands": "Score sheet for ten-hands games",
    "score-sheet-large": "Large-print score sheet (2 to 4 players)",
    "phase-cards-official": "Phase cards: official rules",
    "phase-cards-plus10": "Phase cards: Phase 10 + 10",
    "phase-cards-even": "Phase cards: even phases",
    "phase-cards-super-wild": "Phase cards: Super Wild",
    "phase-cards-masters": "Phase cards: Masters",
    "phase-cards-mixed-up": "Phase cards: Mixed-up Masters",
    "two-deck-guide": "Playing with two regular decks",
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
        abort(400, f"Paper size must be one of {', '.join(PAGE_SIZES)}.")
    return size


@bp.get("/printables")
def index():
    return render_template("printables.html", titles=TITLES, sizes=PAGE_SIZES)


@bp.get("/printables/<name>.pdf")
def standard(name: str):
    build = STANDARD.get(f"{name}.pdf")
    if build is None:
        abort(404, "There is no printable with that name.")
    return _pdf(build(), f"{name}.pdf")


@bp.get("/v/<game_id>/print/<kind>.pdf")
def for_game(game_id: str, kind: str):
    """A game's own score sheet (its record so far, QR to the view link), cards or guide."""
    current = game_or_404(game_id)
    stored, game = current.stored, current.game
    size = _size()
    if kind in ("score-sheet", "score-sheet-large"):
        large = kind == "score-sheet-large"
        if large and len(game.players) > MAX_LARGE_PLAYERS:
            abort(400, f"Large print has room for {MAX_LARGE_PLAYERS} players at most.")
        data = game_sheet(
            game,
            view_url=public_url("share.view", game_id=stored.id),
            pagesize=size,
            large=large,
        )
    elif kind == "phase-cards":
        data = reference_cards(game.rules, pagesize=size, copies=len(game.players))
    elif kind == "two-deck-guide":
        view_url = public_url("share.view", game_id=stored.id)
        data = deck_guide(game.rules, pagesize=size, view_url=view_url)
    else:
        abort(404, "There is no printable with that name.")
    return _pdf(data, f"phase10-{kind}-{size}.pdf")


@bp.errorhandler(LayoutError)
def does_not_fit(error: LayoutError):
    message = f"This game's phases are too long to print on cards: {error}."
    return render_template("error.html", code=422, title="Cannot print", message=message), 422
