"""Turn a schema-1 database (a full copy of the game per change) into the change log.

Each old version is compared with the one before it to find the change itself:
a hand added, one hand replaced, one hand removed, or, for undo and restore, the
earlier version it went back to. Anything else is logged as the whole game file,
so every version rebuilds exactly as it was stored.
"""

from __future__ import annotations

import json
import re
from typing import Any

from sqlite_utils import Database

from .rules.game import GameError
from .rules.gamefile import load_game
from .rules.phases import RulesError
from .rules.replay import replay_from

_RESTORED = re.compile(r"after change (\d+)")


def to_change_log(db: Database) -> None:
    games, changes = db.table("games"), db.table("changes")
    games.add_column("standings", str)
    games.add_column("kept", str)
    changes.add_column("detail", str)
    changes.add_column("hands", int)
    changes.add_column("undo_to", int)
    for (game_id,) in db.execute("SELECT id FROM games").fetchall():
        _convert_game(db, game_id)
    changes.transform(drop={"state"})


def _convert_game(db: Database, game_id: str) -> None:
    rows = db.execute(
        "SELECT version, action, summary, state FROM changes WHERE game_id = ? ORDER BY version",
        [game_id],
    ).fetchall()
    states: dict[int, dict[str, Any]] = {}
    undo_to: dict[int, int | None] = {}
    for version, action, summary, text in rows:
        state = states[version] = json.loads(text)
        previous = states.get(version - 1)
        detail, undo_to[version] = _change(
            version, action, summary, state, previous, states, undo_to
        )
        db.execute(
            "UPDATE changes SET detail = ?, hands = ?, undo_to = ? "
            "WHERE game_id = ? AND version = ?",
            [_dumps(detail), len(state["hands"]), undo_to[version], game_id, version],
        )
    state = json.loads(db.execute("SELECT state FROM games WHERE id = ?", [game_id]).fetchone()[0])
    try:
        replayed = replay_from(load_game(state))
    except (GameError, RulesError, ValueError):
        return  # left without kept standings: the app replays it when it is next read
    db.execute(
        "UPDATE games SET standings = ?, kept = ? WHERE id = ?",
        [_dumps(replayed.standings.to_json()), _dumps(list(replayed.kept)), game_id],
    )


def _change(
    version: int,
    action: str,
    summary: str,
    state: dict[str, Any],
    previous: dict[str, Any] | None,
    states: dict[int, dict[str, Any]],
    undo_to: dict[int, int | None],
) -> tuple[dict[str, Any], int | None]:
    """(the change as the log stores it, the version Undo goes back to after it)."""
    if previous is None:
        return {"game": state}, None
    if action == "undo":
        target = undo_to.get(version - 1)
        if target is not None and states[target] == state:
            return {"to": target}, undo_to[target]
    if action == "restore" and (match := _RESTORED.search(summary)):
        target = int(match.group(1))
        if states.get(target) == state:
            return {"to": target}, version - 1
    header = {k: v for k, v in state.items() if k != "hands"}
    if header == {k: v for k, v in previous.items() if k != "hands"}:
        hand_change = _hand_change(previous["hands"], state["hands"])
        if hand_change is not None:
            return hand_change, version - 1
    return {"game": state}, version - 1


def _hand_change(before: list[Any], after: list[Any]) -> dict[str, Any] | None:
    if len(after) == len(before) + 1 and after[:-1] == before:
        return {"hand": after[-1]}
    if len(after) == len(before):
        differ = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        if len(differ) == 1:
            return {"number": differ[0] + 1, "hand": after[differ[0]]}
    if len(after) == len(before) - 1:
        for i in range(len(before)):
            if before[:i] + before[i + 1 :] == after:
                return {"number": i + 1}
    return None


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
