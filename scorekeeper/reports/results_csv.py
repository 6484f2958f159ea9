"""Results out of the app: a night's games and a season's board as CSV for a spreadsheet.

Every cell a player typed goes through ``csv_cell`` (as a table's hands.csv does), so a
name such as ``=1+1`` stays text in a spreadsheet instead of running as a formula. The
headings are plain English words, the same whatever language the phone speaks, so a
sheet built on one night's file reads the next (docs/decisions.md).
"""

from __future__ import annotations

import csv
import io
from datetime import date

from ..backup.table_archive import csv_cell
from ..rules.nights import placement_points
from ..rules.nights import results as night_results
from .night_view import NightNow
from .season_view import SeasonNow

NIGHT_HEADINGS = (
    "night",
    "date",
    "round",
    "table",
    "player",
    "place",
    "players at the table",
    "points for the place",
    "score",
    "phases made",
)
SEASON_HEADINGS = (
    "season",
    "place",
    "player",
    "points",
    "nights",
    "nights counted",
    "games",
    "total score",
    "phases made",
    "rating",
    "give or take",
)


def night_csv(now: NightNow, played_on: date) -> str:
    """A row per player per finished game of the night, by round and table; a shared place
    is the place the players share ("2" for both of two tied for 2nd)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(NIGHT_HEADINGS)
    for (number, table), game in sorted(now.games.items()):
        if not game.standings.over:
            continue
        for result in night_results(game.standings, game.game.rules):
            writer.writerow(
                [
                    csv_cell(now.night.name),
                    played_on.isoformat(),
                    number,
                    table,
                    csv_cell(result.name),
                    result.place,
                    result.players,
                    placement_points(result.place, result.sharing, result.players),
                    result.score,
                    result.phases,
                ]
            )
    return out.getvalue()


def season_csv(now: SeasonNow) -> str:
    """The season's board, a row per player, with their rating. Under "Total score" a
    player's points are their total score, as the board shows them."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(SEASON_HEADINGS)
    for row in now.board:
        rating = now.rating(row.name)
        writer.writerow(
            [
                csv_cell(now.season.name),
                row.place,
                csv_cell(row.name),
                row.points,
                row.nights,
                row.counted,
                row.games,
                row.score,
                row.phases,
                rating.about if rating else "",
                rating.give_or_take if rating else "",
            ]
        )
    return out.getvalue()
