"""Tonight's list as players' phones keep it: who checked themselves in, and whether the
organiser has closed the list.

Nothing here has a table of its own: a check-in and the list closed or opened again are
changes to the night, rows of ``night_changes`` like every other (so they wake the
night's live pages, and the organiser sees an arrival at once). The player joins the
night as any late arrival does (``store.nights.set_here``); the check-in row says they
came from their own phone, and whether the name was new to the table.

Writes are called only from ``actions/``, inside its transactions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlite_utils import Database

from . import records
from .nights import log

CHECKED_IN = "check-in"
CLOSED = "list-closed"
OPENED = "list-opened"


@dataclass(frozen=True)
class CheckIn:
    """A player who added themselves: when, as which name, and whether it was new."""

    at: str
    name: str
    newcomer: bool


@dataclass(frozen=True)
class TonightsList:
    """Whether players may still add themselves, and who did, the latest first."""

    closed: bool
    arrivals: tuple[CheckIn, ...]


def tonights_list(db: Database, night_id: str) -> TonightsList:
    closed = False
    arrivals = []
    for row in records.rows(
        db,
        "SELECT at, action, detail FROM night_changes WHERE night_id = ? AND action IN "
        "(?, ?, ?) ORDER BY id",
        [night_id, CHECKED_IN, CLOSED, OPENED],
    ):
        if row["action"] == CHECKED_IN:
            facts = json.loads(row["detail"])
            arrivals.append(CheckIn(row["at"], facts["player"], bool(facts.get("newcomer"))))
        else:
            closed = row["action"] == CLOSED
    return TonightsList(closed, tuple(reversed(arrivals)))


def checked_in(db: Database, night_id: str, name: str, newcomer: bool) -> None:
    """Note that ``name`` arrived from their own phone (after ``nights.set_here``)."""
    log(db, night_id, CHECKED_IN, player=name, newcomer=newcomer)


def close_list(db: Database, night_id: str, closed: bool) -> None:
    log(db, night_id, CLOSED if closed else OPENED)
