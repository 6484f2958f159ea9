"""Hands: record the next one, correct one, delete one. Recording is idempotent by hand
number, so a re-sent form or a double tap records once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlite_utils import Database

from .. import store
from ..i18n import _
from ..reports import current_game
from ..rules.game import Game, GameError, HandRecord
from ..rules.gamefile import hand_to_json
from ..rules.replay import hand_problems
from ..store import change_notes
from . import results, saving, undo


def record(db: Database, game_id: str, number: int, hand: HandRecord) -> results.Result:
    """Record hand ``number``; sending the same hand again records it once."""
    if number < 1:
        return results.Refused(_("Hand numbers start at 1."))
    for _attempt in range(saving.SAVE_ATTEMPTS):
        now = current_game.load(db, game_id)
        if now is None:
            return results.Refused(_(results.NO_GAME))
        next_hand = now.standings.hand_number
        if number < next_hand:
            if same_hand(hand, now.game.hands[number - 1]):
                return results.Saved(
                    now, change_notes.note("already", number=number), changed=False
                )
            return results.Conflict(
                _(
                    "Hand %(number)s was already recorded, differently. Correct it on the "
                    "game's page if it is wrong.",
                    number=number,
                ),
                now,
            )
        if number > next_hand:
            return results.Conflict(
                _(
                    "The next hand of this game is hand %(next)s, not %(number)s.",
                    next=next_hand,
                    number=number,
                ),
                now,
            )
        if now.standings.over:
            return results.Conflict(_("The game is over: no more hands can be recorded."), now)
        if full := saving.history_full(now):
            return full
        problems = hand_problems(now.game, hand, now.kept)
        errors = [p for p in problems if not p.warning]
        if errors:
            message = _(
                "Hand %(number)s cannot be recorded: %(reason)s", number=number, reason=errors[0]
            )
            return results.Refused(message, tuple(problems), errors[0].rule)
        game = now.game.with_hand(hand)
        data = hand_to_json(game, hand)
        state = {**now.stored.state, "hands": [*now.stored.state["hands"], data]}
        try:
            saved = saving.save(
                db,
                now,
                game,
                state,
                action="record",
                summary=hand_summary(game, hand),
                detail={"hand": data},
                kept=now.kept,
                extends=True,
            )
        except store.games.Conflict:
            continue  # someone wrote first: judge again against their version
        except store.budget.OverBudget as over:
            return saving.over_budget(over)
        return replace(saved, warnings=tuple(str(p) for p in problems if p.warning))
    return results.Conflict(_("The game is changing too fast to record this hand. Try again."))


def correct(db: Database, game_id: str, seen: int, number: int, hand: HandRecord) -> results.Result:
    """Replace hand ``number``; the hands after it are replayed and must still fit."""
    now = current_game.load(db, game_id)
    if now is None or not 1 <= number <= len(now.game.hands):
        return results.Refused(_("There is no hand %(number)s in this game.", number=number))
    old = now.game.hands[number - 1]
    if same_hand(hand, old):
        return results.Saved(now, change_notes.note("unchanged", number=number), changed=False)
    before = now.game.before(number)
    problems = hand_problems(before, hand, now.kept[: number - 1])
    errors = [p for p in problems if not p.warning]
    if errors:
        message = _(
            "Hand %(number)s cannot be saved like this: %(reason)s", number=number, reason=errors[0]
        )
        return results.Refused(message, tuple(problems), errors[0].rule)
    hands = list(now.game.hands)
    hands[number - 1] = hand
    game = replace(now.game, hands=tuple(hands))
    detail = {"number": number, "hand": hand_to_json(game, hand)}
    state = undo._changed_state(now, detail)
    summary = change_notes.note("correct", number=number, changes=hand_changes(now.game, old, hand))
    return saving.save_or_conflict(
        db, now, seen, game, state, "edit", summary, detail, now.kept[: number - 1]
    )


def delete(db: Database, game_id: str, seen: int, number: int) -> results.Result:
    """Delete hand ``number`` (it stays in the history, and Undo brings it back)."""
    now = current_game.load(db, game_id)
    if now is None or not 1 <= number <= len(now.game.hands):
        return results.Refused(_("There is no hand %(number)s in this game.", number=number))
    hand = now.game.hands[number - 1]
    game = replace(now.game, hands=now.game.hands[: number - 1] + now.game.hands[number:])
    summary = change_notes.note(
        "delete", number=number, went_out=hand.went_out, tiebreak=bool(hand.tiebreak)
    )
    return saving.save_or_conflict(
        db,
        now,
        seen,
        game,
        undo._changed_state(now, {"number": number}),
        "delete",
        summary,
        {"number": number},
        now.kept[: number - 1],
        refusal=lambda later: _(
            "Hand %(number)s cannot be deleted: without it, %(later)s", number=number, later=later
        ),
        deleted=number,
    )


def later_hand_refused(
    error: GameError, refusal: Callable[[str], str] | None, deleted: int | None
) -> results.Refused:
    """A change that breaks a later hand: which hand, its reason and its rule.

    That hand's problems are not pinned to the form being sent (they concern
    another hand), so they travel as the message and its rule only. ``refusal``
    puts the sentence about the later hand into the change's own sentence.
    """
    number = error.hand
    if number is not None and deleted is not None and number >= deleted:
        number += 1
    reason = f"{error.player}: {error.reason}" if error.player else str(error.reason)
    if number is not None:
        later = _("hand %(number)s no longer fits: %(reason)s", number=number, reason=reason)
    else:
        later = _("a later hand no longer fits: %(reason)s", reason=reason)
    if refusal is not None:
        return results.Refused(refusal(later), rule=error.rule)
    return results.Refused(_("With this change, %(later)s", later=later), rule=error.rule)


def same_hand(a: HandRecord, b: HandRecord) -> bool:
    """The same facts, whatever order the names were listed in."""

    def facts(hand: HandRecord) -> HandRecord:
        return replace(hand, made=tuple(sorted(hand.made)), floaters=tuple(sorted(hand.floaters)))

    return facts(a) == facts(b)


def hand_summary(game: Game, hand: HandRecord) -> str:
    """The history note for a hand just recorded as the game's last."""
    if hand.tiebreak:
        return change_notes.note("tiebreak", went_out=hand.went_out)
    return change_notes.note(
        "record", number=len(game.hands), went_out=hand.went_out, made=hand.made
    )


def hand_changes(game: Game, old: HandRecord, new: HandRecord) -> list[dict[str, Any]]:
    """What a correction changed: who went out, and each player's (points, made, phase tried)."""
    parts: list[dict[str, Any]] = []
    if old.went_out != new.went_out:
        parts.append({"went_out": [old.went_out, new.went_out]})
    before, after = old.scores(game.rules), new.scores(game.rules)
    for name in game.players:
        was = [before.get(name), name in old.made, old.attempts.get(name)]
        now = [after.get(name), name in new.made, new.attempts.get(name)]
        if was != now:
            parts.append({"player": name, "was": was, "now": now})
    return parts
