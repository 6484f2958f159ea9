"""Points sent from players' own phones, waiting for the scorekeeper.

A submission is only a suggestion for one player's line of the current hand:
nothing reaches the game until the scorekeeper saves the hand. A player can
send again to change it; the latest one counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from . import store


@dataclass(frozen=True)
class Entry:
    seat: int
    points: int
    made: bool
    went_out: bool
    at: str


def migrate(db: Database) -> None:
    """Create the table of pending submissions; safe to run at every start."""
    if db["hand_entries"].exists():
        return
    with store.transaction(db):
        db.table("hand_entries").create(
            {
                "game_id": str,
                "hand_number": int,
                "seat": int,
                "points": int,
                "made": int,
                "went_out": int,
                "at": str,
            },
            pk=("game_id", "hand_number", "seat"),
            foreign_keys=[("game_id", "games", "id")],
            if_not_exists=True,
        )


def submit(db: Database, game_id: str, hand_number: int, entry: Entry) -> None:
    with store.transaction(db):
        db.table("hand_entries").upsert(
            {
                "game_id": game_id,
                "hand_number": hand_number,
                "seat": entry.seat,
                "points": entry.points,
                "made": int(entry.made),
                "went_out": int(entry.went_out),
                "at": entry.at,
            },
            pk=("game_id", "hand_number", "seat"),
        )


def entries(db: Database, game_id: str, hand_number: int) -> dict[int, Entry]:
    """This hand's submissions by seat."""
    rows = db.execute(  # not db.query, which wraps a read in a savepoint
        "SELECT seat, points, made, went_out, at FROM hand_entries "
        "WHERE game_id = ? AND hand_number = ? ORDER BY seat",
        [game_id, hand_number],
    ).fetchall()
    return {
        seat: Entry(seat, points, bool(made), bool(went_out), at)
        for seat, points, made, went_out, at in rows
    }


def waiting(db: Database, game_id: str, hand_number: int) -> bool:
    """Whether any player has sent points for this hand."""
    return (
        db.execute(
            "SELECT 1 FROM hand_entries WHERE game_id = ? AND hand_number = ? LIMIT 1",
            [game_id, hand_number],
        ).fetchone()
        is not None
    )


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
