"""A season kept: its name, dates and how it counts, which nights are in it, and a log.

A season belongs to a table and is run by the table's link
(``/t/<table>/seasons/<id>``); players read it by its own link (``/s/<view_id>``). A night
is in one season at most (``season_nights``), chosen when it starts and moved by the
table's link. Nothing of the board is stored: ``reports.season_view`` works it out from
the nights' games, so a corrected hand counts at once. Every change adds a row to
``season_changes``, which wakes the season's live pages (``store.commits.changed``).

Writes are called only from ``actions/``, inside its transactions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlite_utils import Database

from .. import store
from ..rules.nights import Scheme
from . import records
from .nights import Night
from .schema import new_key


@dataclass(frozen=True)
class SeasonPlan:
    """A season as the organiser set it up (each field a column of ``seasons``)."""

    name: str
    starts: str  # its first day, ISO 8601
    ends: str  # its last day
    scheme: Scheme  # how its nights add up
    best: int | None = None  # count each player's best N nights; None: every night

    @property
    def first_day(self) -> date:
        return date.fromisoformat(self.starts)

    @property
    def last_day(self) -> date:
        return date.fromisoformat(self.ends)


@dataclass(frozen=True, kw_only=True)
class Season(SeasonPlan):
    """A season as stored: its plan and its links."""

    id: str  # the organiser's part of the link: /t/<table>/seasons/<id>
    table_id: str
    view_id: str  # the read-only link: /s/<view_id>
    created: str


@dataclass(frozen=True)
class SeasonGame:
    """A game of one of the season's nights, with its version (what its pages show)."""

    night_id: str
    round: int
    table: int = field(metadata=records.column("table_number"))
    game_id: str
    version: int


# --- reading ------------------------------------------------------------------------


def _season_where(db: Database, where: str, value: str) -> Season | None:
    return records.one(
        db, Season, f"SELECT {records.columns(Season)} FROM seasons WHERE {where}", [value]
    )


def get_season(db: Database, season_id: str) -> Season | None:
    return _season_where(db, "id = ?", season_id)


def season_by_view(db: Database, view_id: str) -> Season | None:
    return _season_where(db, "view_id = ?", view_id)


def seasons_of_table(db: Database, table_id: str) -> list[Season]:
    """The table's seasons, the latest first."""
    return records.many(
        db,
        Season,
        f"SELECT {records.columns(Season)} FROM seasons WHERE table_id = ? "
        "ORDER BY starts DESC, created DESC, rowid DESC",
        [table_id],
    )


def season_of_night(db: Database, night_id: str) -> Season | None:
    return records.one(
        db,
        Season,
        f"SELECT {records.columns(Season)} FROM seasons WHERE id = "
        "(SELECT season_id FROM season_nights WHERE night_id = ?)",
        [night_id],
    )


def nights_of_season(db: Database, season_id: str) -> list[Night]:
    """The season's nights, the first played first."""
    return records.many(
        db,
        Night,
        f"SELECT {records.columns(Night)} FROM nights WHERE id IN "
        "(SELECT night_id FROM season_nights WHERE season_id = ?) "
        "ORDER BY created, rowid",
        [season_id],
    )


def came(db: Database, season_id: str) -> dict[str, list[str]]:
    """Night id -> everyone who came to it, in the order they were added."""
    found: dict[str, list[str]] = {}
    for row in records.rows(
        db,
        "SELECT p.night_id, p.name FROM night_players p JOIN season_nights s "
        "ON s.night_id = p.night_id WHERE s.season_id = ? ORDER BY p.rowid",
        [season_id],
    ):
        found.setdefault(row["night_id"], []).append(row["name"])
    return found


def games(db: Database, season_id: str) -> list[SeasonGame]:
    """Every game of the season's nights with its version, by night (as
    ``nights_of_season`` orders them), round and table; deleted games left out."""
    return records.many(
        db,
        SeasonGame,
        "SELECT n.night_id, n.round, n.table_number, n.game_id, g.version "
        "FROM night_games n JOIN season_nights s ON s.night_id = n.night_id "
        "JOIN nights t ON t.id = n.night_id JOIN games g ON g.id = n.game_id "
        "WHERE s.season_id = ? AND NOT EXISTS "
        "(SELECT 1 FROM deleted_games d WHERE d.game_id = n.game_id) "
        "ORDER BY t.created, t.rowid, n.round, n.table_number",
        [season_id],
    )


def version(db: Database, season_id: str) -> str:
    """What the season's pages show, in one read: its latest change, its nights' latest
    changes, the version of each of their games, and the table's merged spellings."""
    row = db.execute(
        "SELECT (SELECT coalesce(max(id), 0) FROM season_changes WHERE season_id = :s), "
        "(SELECT coalesce(max(c.id), 0) FROM night_changes c JOIN season_nights n "
        "ON n.night_id = c.night_id WHERE n.season_id = :s), "
        "(SELECT group_concat(version, '.') FROM (SELECT g.version FROM night_games n "
        "JOIN season_nights s ON s.night_id = n.night_id JOIN games g ON g.id = n.game_id "
        "WHERE s.season_id = :s ORDER BY n.game_id)), "
        "(SELECT count(*) FROM deleted_games d JOIN night_games n ON n.game_id = d.game_id "
        "JOIN season_nights s ON s.night_id = n.night_id WHERE s.season_id = :s), "
        "(SELECT group_concat(alias || '>' || name, ',') FROM (SELECT a.alias, a.name "
        "FROM table_aliases a JOIN seasons t ON t.table_id = a.table_id WHERE t.id = :s "
        "ORDER BY a.alias))",
        {"s": season_id},
    ).fetchone()
    return "-".join(str(part or "") for part in row)


# --- writing (from actions/, inside its transaction) -------------------------------


def create_season(db: Database, table_id: str, plan: SeasonPlan) -> Season:
    with store.connection.transaction(db):
        season = Season(
            **records.values(plan, SeasonPlan),
            id=new_key(),
            table_id=table_id,
            view_id=new_key(),
            created=store.connection.now(),
        )
        records.insert(db, "seasons", records.row(season))
        log(db, season.id, "create", **records.plain(plan, SeasonPlan))
    return season


def edit_season(db: Database, season_id: str, plan: SeasonPlan) -> None:
    """A season's name, dates or counting changed."""
    stored = records.row(plan, SeasonPlan)
    with store.connection.transaction(db):
        settings = ", ".join(f"{column} = ?" for column in stored)
        db.execute(f"UPDATE seasons SET {settings} WHERE id = ?", [*stored.values(), season_id])
        log(db, season_id, "edit", **records.plain(plan, SeasonPlan))


def put_night(db: Database, night_id: str, season_id: str | None) -> None:
    """The night into a season (out of the one it was in), or into none."""
    with store.connection.transaction(db):
        before = db.execute(
            "SELECT season_id FROM season_nights WHERE night_id = ?", [night_id]
        ).fetchone()
        if before is not None and before[0] == season_id:
            return
        db.execute("DELETE FROM season_nights WHERE night_id = ?", [night_id])
        if before is not None:
            log(db, before[0], "night-out", night=night_id)
        if season_id is not None:
            records.insert(db, "season_nights", {"night_id": night_id, "season_id": season_id})
            log(db, season_id, "night-in", night=night_id)


def log(db: Database, season_id: str, action: str, **detail: Any) -> None:
    with store.connection.transaction(db):
        records.insert(
            db,
            "season_changes",
            {
                "season_id": season_id,
                "at": store.connection.now(),
                "action": action,
                "detail": json.dumps(detail, ensure_ascii=False),
            },
        )
