"""Printables as downloads: the standard set, and sheets made for one game."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request, url_for

from ..printing import PAGE_SIZES, STANDARD_SET, deck_guide, reference_cards, score_sheet
from .db import game_or_404

bp = Blueprint("printables", __name__)
STANDARD = dict(STANDARD_SET)
TITLES = {
    "score-sheet": "Score sheet",
    "score-sheet-ten-hands": "Score sheet for ten-hands games",
    "phase-cards-official": "Phase cards: official rules",
    "phase-cards-plus10": "Phase cards: Phase 10 + 10",
    "phase-cards-even": "Phase cards: even phases",
    "phase-cards-super-wild": "Phase cards: Super Wild",
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
    """A game's own score sheet (names, rules, QR to the view link), cards or guide."""
    current = game_or_404(game_id)
    stored, game = current.stored, current.game
    size = _size()
    if kind == "score-sheet":
        view_url = url_for("share.view", game_id=stored.id, _external=True)
        data = score_sheet(
            game.rules,
            players=game.players,
            view_url=view_url,
            pagesize=size,
            title=f"Phase 10: {', '.join(game.players)}",
        )
    elif kind == "phase-cards":
        data = reference_cards(game.rules, pagesize=size, copies=len(game.players))
    elif kind == "two-deck-guide":
        data = deck_guide(game.rules, pagesize=size)
    else:
        abort(404, "There is no printable with that name.")
    return _pdf(data, f"phase10-{kind}-{size}.pdf")
