"""Each finished game's part of its table's statistics, kept in the file by the game's
version (``game_figures``), so a process that has just started adds up a club's 2,000
games from these rows instead of replaying every game (reports/table_figures.py).

Derived, never a record of play: a row is used only while its game is at the version it
was worked out at, in the format the app reads now; otherwise it is worked out again and
replaced. It is charged to its game's storage budget like the game's own rows, and goes
when the game is purged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlite_utils import Database

from . import budget, connection, records


@dataclass(frozen=True)
class KeptFigures:
    """One game's figures as JSON (``reports.statistics.GameFigures``), at one version."""

    game_id: str
    version: int  # the game's version they were worked out at
    format: int  # what the JSON holds (``statistics.FIGURES_FORMAT``)
    figures: str


# Beside its JSON, a row holds its game's id, version and format, and the id again in the
# index of the table's key (measured: about 80 bytes in all).
ROW_EXTRA = 80


def size(figures: str) -> int:
    """What a row of ``figures`` takes in the file, estimated (``budget.stored_bytes``)."""
    return budget.stored_bytes(budget.size_of(figures) + ROW_EXTRA)


def of_table(db: Database, table_id: str) -> dict[str, KeptFigures]:
    """The figures kept for the table's games (at whatever version), by game."""
    found = records.many(
        db,
        KeptFigures,
        f"SELECT {records.columns(KeptFigures)} FROM game_figures "
        "WHERE game_id IN (SELECT game_id FROM table_games WHERE table_id = ?)",
        [table_id],
    )
    return {kept.game_id: kept for kept in found}


def keep(db: Database, found: Sequence[KeptFigures]) -> None:
    """Keep these figures, in one transaction, each in place of its game's older ones and
    charged to the game; a game gone meanwhile (purged) keeps none."""
    if not found:
        return
    with connection.transaction(db):
        for kept in found:
            if db.execute("SELECT 1 FROM games WHERE id = ?", [kept.game_id]).fetchone() is None:
                continue
            with budget.charging(db, kept.game_id):
                records.insert(
                    db,
                    "game_figures",
                    records.row(kept),
                    on_conflict="(game_id) DO UPDATE SET version = excluded.version, "
                    "format = excluded.format, figures = excluded.figures",
                )
