"""A game's history: every change as the change itself, any version rebuilt from it, and
the step Undo takes back.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlite_utils import Database

from . import change_notes, games, records


@dataclass(frozen=True)
class Change:
    """One entry of a game's history (a row of ``changes``, without the change itself)."""

    version: int
    at: str
    action: str
    # what happened: its facts (change_notes.py), or words for changes saved before notes
    note: str = field(metadata=records.column("summary"))
    hands: int  # how many hands the game had after it
    undo_to: int | None  # the version Undo goes back to when this is the latest change

    @property
    def summary(self) -> str:
        """What happened, in words of the current language."""
        return change_notes.words(self.note)

    @property
    def when(self) -> datetime:
        """When it happened (UTC), for the page's ``day`` and time filters."""
        return datetime.fromisoformat(self.at)


_COLUMNS = records.columns(Change)


@dataclass(frozen=True)
class Logged(Change):
    """A change with the change itself (``changes.detail``): what a live page says of it."""

    detail: dict[str, Any] = field(metadata=records.column(load=json.loads))


def latest(db: Database, game_id: str, after: int, most: int) -> list[Logged]:
    """The latest ``most`` changes after version ``after``, oldest first."""
    with games.reading(game_id):
        found = records.many(
            db,
            Logged,
            f"SELECT {records.columns(Logged)} FROM changes "
            "WHERE game_id = ? AND version > ? ORDER BY version DESC LIMIT ?",
            [game_id, after, most],
        )
    return found[::-1]


def changes(db: Database, game_id: str) -> list[Change]:
    """The game's history, newest first (without the game at each version)."""
    with games.reading(game_id):
        return records.many(
            db,
            Change,
            f"SELECT {_COLUMNS} FROM changes WHERE game_id = ? ORDER BY version DESC",
            [game_id],
        )


def get_change(db: Database, game_id: str, version: int) -> Change | None:
    with games.reading(game_id):
        return records.one(
            db,
            Change,
            f"SELECT {_COLUMNS} FROM changes WHERE game_id = ? AND version = ?",
            [game_id, version],
        )


def played_until(db: Database, game: games.StoredGame) -> str:
    """When the game's playing time ends: the moment it first had as many hands as it has
    now, that is when the hand that ended it (or the latest so far) was recorded. Later
    corrections, an undo and its restore leave it where it was. Without a hand: when it was
    created. A game that came whole (imported with its hands): its latest change, as the
    file it came from said."""
    with games.reading(game.id):
        first = records.one(
            db,
            Change,
            f"SELECT {_COLUMNS} FROM changes WHERE game_id = ?1 AND hands >= "
            "(SELECT hands FROM changes WHERE game_id = ?1 AND version = ?2) "
            "ORDER BY version LIMIT 1",
            [game.id, game.version],
        )
    if first is None:
        return game.updated
    if first.version == 1:  # no hand yet: the start; all of them at once: as the file said
        return game.updated if first.hands else game.created
    return str(first.at)


def state_at(db: Database, game_id: str, version: int) -> dict[str, Any] | None:
    """The game file as it was at ``version``, rebuilt from the log.

    Follows the log back from ``version`` to the game file it grew from (jumping
    over undo and restore to the version they went back to), parsing only the
    changes on that path, then applies them in order. UnreadableGame if one is damaged.
    """
    with games.reading(game_id):
        return _state_at(db, game_id, version)


def _state_at(db: Database, game_id: str, version: int) -> dict[str, Any] | None:
    rows = dict(
        db.execute(
            "SELECT version, detail FROM changes WHERE game_id = ? AND version <= ?",
            [game_id, version],
        ).fetchall()
    )
    if version not in rows:
        return None
    path: list[dict[str, Any]] = []
    step = version
    while True:
        detail = json.loads(rows[step])
        if "moved" in detail:  # the game went to another table: its play is as before
            step -= 1
            continue
        if "game" in detail:
            state = detail["game"]
            break
        if "to" in detail:
            if not detail["to"] < step:  # a damaged log could point forward, round and round
                raise KeyError(f"version {step} goes back to {detail['to']}")
            step = detail["to"]
        else:
            path.append(detail)
            step -= 1
    hands = list(state["hands"])
    ended = {}
    left = dict(state.get("left_after", {}))
    for detail in reversed(path):
        if "end" in detail:
            ended = {"ended_early": True}
        elif "leave" in detail:
            left[detail["leave"]] = detail["after"]
        else:
            apply_detail(hands, detail)
    state = {key: value for key, value in state.items() if key not in ("hands", "left_after")}
    return {**state, **ended, **({"left_after": left} if left else {}), "hands": hands}


def change_detail(db: Database, game_id: str, version: int) -> dict[str, Any] | None:
    """The change itself (``changes.detail``) of one version."""
    with games.reading(game_id):
        row = db.execute(
            "SELECT detail FROM changes WHERE game_id = ? AND version = ?", [game_id, version]
        ).fetchone()
        return json.loads(row[0]) if row else None


def apply_detail(hands: list[Any], detail: dict[str, Any]) -> None:
    """Apply one logged hand change to the list of hands (an end or a leave changes none)."""
    if "number" in detail and "hand" in detail:
        hands[detail["number"] - 1] = detail["hand"]
    elif "number" in detail:
        del hands[detail["number"] - 1]
    else:
        hands.append(detail["hand"])


def undo_step(db: Database, game_id: str) -> tuple[Change | None, int] | None:
    """(the change Undo takes back, the version it goes back to), or None if nothing is left.

    Each undo cancels one earlier change, so tapping Undo again keeps stepping back;
    the target is kept with every change, so this reads two rows, never the whole log.
    The change is None when the target kept is no earlier version (a damaged row).
    """
    row = db.execute(
        "SELECT c.undo_to, g.version FROM games g JOIN changes c "
        "ON c.game_id = g.id AND c.version = g.version WHERE g.id = ?",
        [game_id],
    ).fetchone()
    if row is None or row[0] is None:
        return None
    target, version = row
    return (get_change(db, game_id, target + 1) if 0 < target < version else None), target


def moved_last(db: Database, game_ids: Sequence[str]) -> set[str]:
    """The games among ``game_ids`` whose next Undo would take back a move into a table
    (``undo_step``'s change is a move): one query for a page of games."""
    if not game_ids:
        return set()
    marks = ", ".join("?" * len(game_ids))
    rows = db.execute(
        "SELECT g.id FROM games g "
        "JOIN changes c ON c.game_id = g.id AND c.version = g.version "
        "JOIN changes m ON m.game_id = g.id AND m.version = c.undo_to + 1 "
        f"WHERE g.id IN ({marks}) AND c.undo_to > 0 AND m.action = 'move'",
        list(game_ids),
    )
    return {row[0] for row in rows}
