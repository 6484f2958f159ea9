"""Results out of the app: a night's games and a season's board as CSV files, for anyone
with the night's or the season's read-only link (they show the same on screen).

Each is made from what the pages show (``reports.results_csv``), every typed cell made
safe for a spreadsheet; a phone asking again for the same version gets a 304.
"""

from __future__ import annotations

import hashlib

from flask import Blueprint, Response, g, request

from ...reports import night_view, results_csv, season_view
from ...store import nights, seasons
from ..access import db
from ..zones import local_day

bp = Blueprint("results", __name__)


def _csv(body_of, filename: str, version: str) -> Response:
    tag = '"' + hashlib.sha256(f"{filename}|{version}".encode()).hexdigest()[:16] + '"'
    headers = {
        "Content-Disposition": f'attachment; filename="{filename}"',
        "Cache-Control": "no-cache",
        "ETag": tag,
    }
    if request.headers.get("If-None-Match") == tag:
        return Response(status=304, headers=headers)
    return Response(body_of(), mimetype="text/csv", headers=headers)


@bp.get("/e/<night_view>/results.csv")
def night_results() -> Response:
    """A row per player per finished game of the night."""
    night: nights.Night = g.night
    played_on = local_day(night.when)

    def body() -> str:
        return results_csv.night_csv(night_view.night_now(db(), night), played_on)

    version = f"{nights.version(db(), night.id)}|{played_on}"
    return _csv(body, f"phase10-night-{played_on.isoformat()}.csv", version)


@bp.get("/s/<season_view>/results.csv")
def season_results() -> Response:
    """The season's board, a row per player, with their rating."""
    season: seasons.Season = g.season

    def body() -> str:
        return results_csv.season_csv(season_view.season_now(db(), season))

    version = f"{seasons.version(db(), season.id)}|{season}"
    return _csv(body, f"phase10-season-{season.starts}.csv", version)
