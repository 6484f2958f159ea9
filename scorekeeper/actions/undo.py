"""Undo the latest change, or go back to any version in the history: one more change,
replayed only from the first hand that differs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from .. import store
from ..i18n import N_, _
from ..reports import current_game
from ..rules.game import GameError
from ..rules.gamefile import game_to_json, load_game
from ..rules.phases import RulesError
from ..rules.replay import replay_from
from ..store import change_notes, tables
from . import moving, results, saving


def undo(db: Database, game_id: str, seen: int) -> results.Result:
    """Take back the latest change not undone yet; tapping again keeps stepping back.

    The game's own link changes its play, never the table it is in: Undo stops at a move
    into a table (``undo_move`` takes that back, by the table's link).
    """
    step = _undo_step(db, game_id)
    if isinstance(step, results.Refused):
        return step
    if step.undone.action == "move":
        return results.Refused(_(TABLES_TO_UNDO))
    return _go_back(db, step.now, seen, step.target, "undo", step.summary, step.undo_to)


def undo_move(db: Database, game_id: str, seen: int, table_id: str) -> results.Result:
    """Take back the move that put the game in the table ``table_id`` (by that table's
    link), when it is what Undo would take back next: the game goes back to the table it
    came from, or to none."""
    step = _undo_step(db, game_id)
    if isinstance(step, results.Refused):
        return step
    if step.undone.action != "move":
        return results.Refused(_(NO_MOVE_TO_UNDO))
    back = moving.moved_back(db, game_id, step.target + 1, step.now.game.players)
    if isinstance(back, results.Refused):
        return back

    def then(db: Database) -> None:
        if tables.table_of_game(db, game_id) != table_id:
            raise store.games.Conflict(game_id)  # moved on meanwhile: not this table's to undo
        back(db)

    return _go_back(db, step.now, seen, step.target, "undo", step.summary, step.undo_to, then)


TABLES_TO_UNDO = N_(
    "Undo stops here: the change before this one put the game in its table, and only the "
    "table can take that back. Open the table's page and tap “Undo the move” beside the game."
)
NO_MOVE_TO_UNDO = N_(
    "Undo here takes back only a move into this table, and the game has changed since. "
    "Undo its later changes on the game's page first."
)


@dataclass(frozen=True)
class _Step:
    """What Undo would do next: the change ``undone``, going back to version ``target``."""

    now: current_game.Current
    undone: store.history.Change
    target: int
    undo_to: int | None  # what Undo goes back to after this one
    summary: str


def _undo_step(db: Database, game_id: str) -> _Step | results.Refused:
    now = current_game.load(db, game_id)
    if now is None:
        return results.Refused(_(results.NO_GAME))
    step = store.history.undo_step(db, game_id)
    if step is None:
        return results.Refused(_("Nothing to undo yet."))
    undone, target = step
    if undone is None:
        return results.Refused(
            _(
                "This game's history is damaged at its latest change, so Undo cannot step "
                "back. An earlier version can still be brought back from the history."
            )
        )
    after = store.history.get_change(db, game_id, target)
    undo_to = after.undo_to if after is not None else None
    return _Step(now, undone, target, undo_to, change_notes.note("undo", undone=undone.note))


def restore(db: Database, game_id: str, seen: int, version: int) -> results.Result:
    """Bring back the game as it was after change ``version``, as one more change."""
    now = current_game.load(db, game_id)
    if now is None or store.history.get_change(db, game_id, version) is None:
        return results.Refused(
            _("There is no change %(version)s in this game's history.", version=version)
        )
    summary = change_notes.note("restore", version=version)
    return _go_back(db, now, seen, version, "restore", summary, seen)


def _go_back(
    db: Database,
    now: current_game.Current,
    seen: int,
    version: int,
    action: str,
    summary: str,
    undo_to: int | None,
    then: Callable[[Database], None] | None = None,
) -> results.Result:
    state = store.history.state_at(db, now.stored.id, version)
    assert state is not None
    try:
        game = load_game(state)
        # the engine judges every write, old versions too, from the first hand that differs
        replayed = replay_from(game, now.kept[: _same_start(now.stored.state, state)])
    except (GameError, RulesError) as error:
        rule = getattr(error, "rule", None)
        message = _("That version of the game no longer replays: %(reason)s", reason=error)
        return results.Refused(message, rule=rule)
    if seen != now.version:
        return results.Conflict(_(results.STALE), now)
    if full := saving.history_full(now):
        return full
    try:
        stored = store.games.save_change(
            db,
            now.stored.id,
            seen,
            game_to_json(game),
            action=action,
            summary=summary,
            detail={"to": version},
            standings=replayed.standings.to_json(),
            kept=list(replayed.kept),
            undo_to=undo_to,
            then=then,
        )
    except store.games.Conflict:
        return results.Conflict(_(results.STALE), current_game.load(db, now.stored.id))
    except store.budget.OverBudget as over:
        return saving.over_budget(over)
    return results.Saved(
        current_game.keep(current_game.Current(stored, game, replayed.standings, replayed.kept)),
        summary,
    )


def _changed_state(now: current_game.Current, detail: dict[str, Any]) -> dict[str, Any]:
    """The stored game file with one logged hand change applied (not re-encoded)."""
    hands = list(now.stored.state["hands"])
    store.history.apply_detail(hands, detail)
    return {**now.stored.state, "hands": hands}


def _same_start(a: Mapping[str, Any], b: Mapping[str, Any]) -> int:
    """How many first hands two versions of a game share (0 if their rules or players differ).

    Ending early changes no hand: the state kept after each hand stays good.
    """
    apart = ("hands", "ended_early")
    if {k: v for k, v in a.items() if k not in apart} != {
        k: v for k, v in b.items() if k not in apart
    }:
        return 0
    same = 0
    for x, y in zip(a["hands"], b["hands"], strict=False):
        if x != y:
            break
        same += 1
    return same
