"""Writing a game's next version: judged by the engine, replayed only from the hand it
touches (the state after each earlier hand is kept), written in one transaction guarded
by the version read, and retried after losing a race to another phone.

Every action that changes a game ends here; so do the history's cap and the storage
budget's refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from babel.numbers import format_decimal
from sqlite_utils import Database

from .. import store
from ..backup.purge import PURGE_AFTER_DAYS
from ..i18n import _, language
from ..reports import current_game
from ..rules.game import Game, GameError
from ..rules.replay import Kept, replay_from
from . import hands, results

SAVE_ATTEMPTS = 5  # re-read and re-judge after losing a race, at most this often


def over_budget(over: store.budget.OverBudget, *, table: bool = False) -> results.NoRoom:
    """Why a write was refused for lack of room, in words for the family."""
    most = megabytes(over.most)
    if over.what == "game":
        return results.NoRoom(
            _(
                "This game would take more than %(size)s, the most one game may take here. "
                "Nothing was saved.",
                size=most,
            )
        )
    if table:
        return results.NoRoom(
            _(
                "These games would take more than %(size)s, the most one table may take "
                "here. Nothing was saved.",
                size=most,
            )
        )
    return results.NoRoom(
        _(
            "This table's games take nearly %(size)s, the most one table may take here, so "
            "this was not saved. Delete games the table no longer needs (they are purged "
            "after %(days)s days), or start another table.",
            size=most,
            days=PURGE_AFTER_DAYS,
        )
    )


def megabytes(size: int) -> str:
    return _("%(count)s MB", count=format_decimal(round(size / 1024**2, 1), locale=language()))


MAX_CHANGES = 2000  # a long evening is a few hundred; beyond this, history stops growing


def history_full(now: current_game.Current) -> results.Refused | None:
    """One game's history is bounded, so a script cannot grow it (and undo's work) forever."""
    if now.version < MAX_CHANGES:
        return None
    return results.Refused(
        _(
            "This game has had %(count)s changes, the most one game keeps. Export it, "
            "or start a new game to carry on.",
            count=format_decimal(MAX_CHANGES, locale=language()),
        )
    )


def save(
    db: Database,
    now: current_game.Current,
    game: Game,
    state: dict[str, Any],
    *,
    action: str,
    summary: str,
    detail: dict[str, Any],
    kept: Sequence[Kept],
    expected: int | None = None,
    extends: bool = False,
) -> results.Saved:
    """Replay from the kept prefix and write; raises GameError or store.Conflict.

    ``extends``: the change adds one hand to ``now`` (whose kept states are all of ``kept``).
    """
    replayed = replay_from(game, kept)
    stored = store.games.save_change(
        db,
        now.stored.id,
        now.version if expected is None else expected,
        state,
        action=action,
        summary=summary,
        detail=detail,
        standings=replayed.standings.to_json(),
        kept=list(replayed.kept),
        extends=now.stored if extends else None,
    )
    return results.Saved(
        current_game.keep(current_game.Current(stored, game, replayed.standings, replayed.kept)),
        summary,
    )


def save_or_conflict(
    db: Database,
    now: current_game.Current,
    seen: int,
    game: Game,
    state: dict[str, Any],
    action: str,
    summary: str,
    detail: dict[str, Any],
    kept: Sequence[Kept],
    refusal: Callable[[str], str] | None = None,
    deleted: int | None = None,
) -> results.Result:
    """Write a change made against version ``seen``: a stale page is a conflict.

    ``deleted``: the hand this change deletes, so later hands are named as the
    game's page numbers them, not as they would be numbered without it.
    """
    if seen != now.version:
        return results.Conflict(_(results.STALE), now)
    if full := history_full(now):
        return full
    try:
        return save(db, now, game, state, action=action, summary=summary, detail=detail, kept=kept)
    except GameError as error:
        return hands.later_hand_refused(error, refusal, deleted)
    except store.games.Conflict:
        return results.Conflict(_(results.STALE), current_game.load(db, now.stored.id))
    except store.budget.OverBudget as over:
        return over_budget(over)
