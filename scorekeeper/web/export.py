"""Export: a game as its game file (JSON) or as a spreadsheet (CSV)."""

from __future__ import annotations

import csv
import io
import json

from flask import Blueprint, Response, g

from ..i18n import isolate
from ..rules.game import Game, Standings, game_to_json

bp = Blueprint("export", __name__)


def _download(body: str, mimetype: str, filename: str) -> Response:
    return Response(
        body,
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def export_json(game: Game) -> Response:
    return _download(
        json.dumps(game_to_json(game), indent=2), "application/json", "phase10-game.json"
    )


def _csv_cell(value: object) -> str:
    """Spreadsheets run cells starting with = + - @ as formulas: make them text."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def export_csv(game: Game, standings: Standings) -> Response:
    """A row per hand; a player who sat out a tiebreak has no points in it, not 0.

    Who made their phase is a list in one cell: each name is isolated, so two
    right-to-left names keep their order, and a name with a space stays one name.
    """
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["hand", *map(_csv_cell, game.players), "went out", "made phase"])
    for number, hand in enumerate(game.hands, start=1):
        scores = hand.scores(game.rules)
        label = "tiebreak" if hand.tiebreak else number
        writer.writerow(
            [
                label,
                *(scores.get(n, "") for n in game.players),
                _csv_cell(hand.went_out or ""),
                ", ".join(isolate(_csv_cell(name)) for name in hand.made),
            ]
        )
    writer.writerow(["total", *(p.score for p in standings.players), "", ""])
    return _download(out.getvalue(), "text/csv", "phase10-game.csv")


@bp.get("/g/<game_id>/<key>/export.json")
def game_json():
    return export_json(g.game)


@bp.get("/g/<game_id>/<key>/export.csv")
def game_csv():
    return export_csv(g.game, g.current.standings)
