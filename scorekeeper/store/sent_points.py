"""Points sent from players' own phones, waiting for the scorekeeper.

A submission is only a suggestion for one player's line of the current hand:
nothing reaches the game until the scorekeeper saves the hand. A player can
send again to change it; the latest one counts. Entries stay with their hand's
number: if that hand is undone, what the players sent fills the form again.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from .. import store
from . import records


@dataclass(frozen=True)
class Entry:
    """One player's line of a hand as they sent it (``hand_entries``)."""

    seat: int
    points: int
    made: bool
    went_out: bool
    at: str


def submit(db: Database, game_id: str, hand_number: int, entry: Entry) -> None:
    """Keep a player's line for this hand; a new sending replaces theirs (with a new id,
    so the scorekeeper's live poll sees that something arrived)."""
    with store.connection.transaction(db):
        db.execute(
            "DELETE FROM hand_entries WHERE game_id = ? AND hand_number = ? AND seat = ?",
            [game_id, hand_number, entry.seat],
        )
        row = {"game_id": game_id, "hand_number": hand_number, **records.row(entry)}
        records.insert(db, "hand_entries", row)


def entries(db: Database, game_id: str, hand_number: int) -> dict[int, Entry]:
    """This hand's submissions by seat."""
    found = records.many(
        db,
        Entry,
        f"SELECT {records.columns(Entry)} FROM hand_entries "
        "WHERE game_id = ? AND hand_number = ? ORDER BY seat",
        [game_id, hand_number],
    )
    return {entry.seat: entry for entry in found}


def sent_after(db: Database, game_id: str, hand_number: int, newest: int) -> dict[int, Entry]:
    """This hand's submissions sent after the one numbered ``newest`` (``hand_entries.id``:
    what a scorekeeper's page last showed), by seat."""
    found = records.many(
        db,
        Entry,
        f"SELECT {records.columns(Entry)} FROM hand_entries "
        "WHERE game_id = ? AND hand_number = ? AND id > ? ORDER BY id",
        [game_id, hand_number, newest],
    )
    return {entry.seat: entry for entry in found}


def form_values(found: dict[int, Entry]) -> dict[str, str]:
    """The scorekeeper's hand form filled in from the submissions (they can change it)."""
    values: dict[str, str] = {}
    for seat, entry in found.items():
        if entry.went_out and "went_out" not in values:
            values["went_out"] = str(seat)
        if not entry.went_out:
            values[f"points-{seat}"] = str(entry.points)
        if entry.made:
            values[f"made-{seat}"] = "1"
    return values
