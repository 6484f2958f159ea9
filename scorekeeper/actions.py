"""Every change to a game: create, record, correct, delete, undo, restore.

The one write path for the form routes and the JSON API. Each action asks the
engine to judge the change, replays only from the hand it touches (the state
after each earlier hand is kept), writes the new version in one transaction
guarded by the version read, and returns a result value:

- ``Saved``: written (or, for a hand sent twice, already there: ``changed`` is False);
- ``Refused``: the rules or the input say no; ``problems`` are the engine's;
- ``Conflict``: the game is not where the caller thought (another phone wrote
  first, the hand is already recorded differently, the game is over).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlite_utils import Database

from . import store
from .rules.game import (
    Game,
    GameError,
    HandRecord,
    Kept,
    Problem,
    Standings,
    game_to_json,
    hand_problems,
    hand_to_json,
    load_game,
    replay_from,
)
from .rules.phases import RulesError
from .rules.reasons import Rule

SAVE_ATTEMPTS = 5  # re-read and re-judge after losing a race, at most this often
STALE = "Another phone changed this game a moment ago. Check the game and try again."


@dataclass(frozen=True)
class Current:
    """A stored game as the engine sees it, with its kept standings (nothing replayed)."""

    stored: store.StoredGame
    game: Game
    standings: Standings
    kept: tuple[Kept, ...]

    @property
    def version(self) -> int:
        return self.stored.version


@dataclass(frozen=True)
class Saved:
    current: Current
    summary: str
    changed: bool = True  # False: this very hand was recorded already (a re-sent form)
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Refused:
    message: str
    problems: tuple[Problem, ...] = ()
    rule: Rule | None = None  # the rule the message comes from, for its link on screen


@dataclass(frozen=True)
class Conflict:
    message: str
    current: Current | None = None  # the game as it stands now

    @property
    def next_hand(self) -> int | None:
        if self.current is None or self.current.standings.over:
            return None
        return self.current.standings.hand_number


Result = Saved | Refused | Conflict


def current(stored: store.StoredGame) -> Current:
    """The game with its kept standings; replays only a game stored without them.

    A version never changes once written, so the game read for it is kept (per
    process) and the next request for the same version skips reading it again.
    """
    key = (stored.id, stored.version)
    found = _recent.get(key)
    if found is None or found.stored != stored:  # the same row, or read it afresh
        found = _keep(_read(stored))
    return found


def _keep(current: Current) -> Current:
    """Remember a version just read or written, for the requests that read it next."""
    with _recent_lock:
        _recent[(current.stored.id, current.version)] = current
        while len(_recent) > RECENT_GAMES:
            del _recent[next(iter(_recent))]
    return current


RECENT_GAMES = 256
_recent: dict[tuple[str, int], Current] = {}
_recent_lock = threading.Lock()


def _read(stored: store.StoredGame) -> Current:
    game = load_game(stored.state)
    kept = stored.kept
    if stored.standings is not None and kept is not None and len(kept) == len(game.hands):
        return Current(stored, game, Standings.from_json(stored.standings), tuple(kept))
    replayed = replay_from(game)
    return Current(stored, game, replayed.standings, replayed.kept)


def load(db: Database, game_id: str) -> Current | None:
    stored = store.get_game(db, game_id)
    return None if stored is None else current(stored)


# --- create -----------------------------------------------------------------------------


def create(
    db: Database, data: Mapping[str, Any], *, action: str = "create", summary: str = ""
) -> Saved | Refused:
    """A new game from its game file (hands may already be in it, as for an import)."""
    try:
        game = load_game(data)
        replayed = replay_from(game)
    except (GameError, RulesError) as error:
        problems = tuple(getattr(error, "problems", ()))
        return Refused(str(error), problems, getattr(error, "rule", None))
    summary = summary or "Game created"
    stored = store.create_game(
        db,
        game_to_json(game),
        action=action,
        summary=summary,
        standings=replayed.standings.to_json(),
        kept=list(replayed.kept),
    )
    return Saved(_keep(Current(stored, game, replayed.standings, replayed.kept)), summary)


# --- hands ------------------------------------------------------------------------------


def record(db: Database, game_id: str, number: int, hand: HandRecord) -> Result:
    """Record hand ``number``; sending the same hand again records it once."""
    if number < 1:
        return Refused("Hand numbers start at 1.")
    for _ in range(SAVE_ATTEMPTS):
        now = load(db, game_id)
        if now is None:
            return Refused("There is no game at this link. It may have been mistyped.")
        next_hand = now.standings.hand_number
        if number < next_hand:
            if same_hand(hand, now.game.hands[number - 1]):
                summary = f"Hand {number} was already entered: it is recorded once."
                return Saved(now, summary, changed=False)
            return Conflict(
                f"Hand {number} was already recorded, differently. Correct it on the "
                "game's page if it is wrong.",
                now,
            )
        if number > next_hand:
            return Conflict(f"The next hand of this game is hand {next_hand}, not {number}.", now)
        if now.standings.over:
            return Conflict("The game is over: no more hands can be recorded.", now)
        if full := _history_full(now):
            return full
        problems = hand_problems(now.game, hand, now.kept)
        errors = [p for p in problems if not p.warning]
        if errors:
            return Refused(
                f"Hand {number} cannot be recorded: {errors[0]}", tuple(problems), errors[0].rule
            )
        game = now.game.with_hand(hand)
        data = hand_to_json(game, hand)
        state = {**now.stored.state, "hands": [*now.stored.state["hands"], data]}
        try:
            saved = _save(
                db,
                now,
                game,
                state,
                action="record",
                summary=hand_summary(game, hand),
                detail={"hand": data},
                kept=now.kept,
            )
        except store.Conflict:
            continue  # someone wrote first: judge again against their version
        return replace(saved, warnings=tuple(str(p) for p in problems if p.warning))
    return Conflict("The game is changing too fast to record this hand. Try again.")


def correct(db: Database, game_id: str, seen: int, number: int, hand: HandRecord) -> Result:
    """Replace hand ``number``; the hands after it are replayed and must still fit."""
    now = load(db, game_id)
    if now is None or not 1 <= number <= len(now.game.hands):
        return Refused(f"There is no hand {number} in this game.")
    old = now.game.hands[number - 1]
    if same_hand(hand, old):
        return Saved(now, f"Hand {number} is unchanged.", changed=False)
    before = replace(now.game, hands=now.game.hands[: number - 1])
    problems = hand_problems(before, hand, now.kept[: number - 1])
    errors = [p for p in problems if not p.warning]
    if errors:
        return Refused(
            f"Hand {number} cannot be saved like this: {errors[0]}", tuple(problems), errors[0].rule
        )
    hands = list(now.game.hands)
    hands[number - 1] = hand
    game = replace(now.game, hands=tuple(hands))
    detail = {"number": number, "hand": hand_to_json(game, hand)}
    state = _changed_state(now, detail)
    summary = f"Hand {number} corrected: {hand_changes(now.game, old, hand)}"
    return _save_or_conflict(
        db, now, seen, game, state, "edit", summary, detail, now.kept[: number - 1]
    )


def delete(db: Database, game_id: str, seen: int, number: int) -> Result:
    """Delete hand ``number`` (it stays in the history, and Undo brings it back)."""
    now = load(db, game_id)
    if now is None or not 1 <= number <= len(now.game.hands):
        return Refused(f"There is no hand {number} in this game.")
    hand = now.game.hands[number - 1]
    game = replace(now.game, hands=now.game.hands[: number - 1] + now.game.hands[number:])
    summary = f"Hand {number} deleted ({hand.went_out} had gone out)"
    if hand.tiebreak:
        summary = f"Hand {number} deleted (the tiebreak {hand.went_out} won)"
    return _save_or_conflict(
        db,
        now,
        seen,
        game,
        _changed_state(now, {"number": number}),
        "delete",
        summary,
        {"number": number},
        now.kept[: number - 1],
        refusal=f"Hand {number} cannot be deleted: without it, ",
        deleted=number,
    )


# --- undo and restore -------------------------------------------------------------------


def undo(db: Database, game_id: str, seen: int) -> Result:
    """Take back the latest change not undone yet; tapping again keeps stepping back."""
    now = load(db, game_id)
    if now is None:
        return Refused("There is no game at this link. It may have been mistyped.")
    step = store.undo_step(db, game_id)
    if step is None:
        return Refused("Nothing to undo yet.")
    undone, target = step
    after = store.get_change(db, game_id, target)
    undo_to = after.undo_to if after is not None else None
    return _go_back(db, now, seen, target, "undo", f"Undone: {undone.summary}", undo_to)


def restore(db: Database, game_id: str, seen: int, version: int) -> Result:
    """Bring back the game as it was after change ``version``, as one more change."""
    now = load(db, game_id)
    if now is None or store.get_change(db, game_id, version) is None:
        return Refused(f"There is no change {version} in this game's history.")
    summary = f"Restored the game as it was after change {version}"
    return _go_back(db, now, seen, version, "restore", summary, seen)


def _go_back(
    db: Database,
    now: Current,
    seen: int,
    version: int,
    action: str,
    summary: str,
    undo_to: int | None,
) -> Result:
    state = store.state_at(db, now.stored.id, version)
    assert state is not None
    try:
        game = load_game(state)
        # the engine judges every write, old versions too, from the first hand that differs
        replayed = replay_from(game, now.kept[: _same_start(now.stored.state, state)])
    except (GameError, RulesError) as error:
        rule = getattr(error, "rule", None)
        return Refused(f"That version of the game no longer replays: {error}", rule=rule)
    if seen != now.version:
        return Conflict(STALE, now)
    if full := _history_full(now):
        return full
    try:
        stored = store.save_change(
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
        )
    except store.Conflict:
        return Conflict(STALE, load(db, now.stored.id))
    return Saved(_keep(Current(stored, game, replayed.standings, replayed.kept)), summary)


def _changed_state(now: Current, detail: dict[str, Any]) -> dict[str, Any]:
    """The stored game file with one logged hand change applied (not re-encoded)."""
    hands = list(now.stored.state["hands"])
    store.apply_detail(hands, detail)
    return {**now.stored.state, "hands": hands}


def _same_start(a: Mapping[str, Any], b: Mapping[str, Any]) -> int:
    """How many first hands two versions of a game share (0 if their rules or players differ)."""
    if {k: v for k, v in a.items() if k != "hands"} != {k: v for k, v in b.items() if k != "hands"}:
        return 0
    same = 0
    for x, y in zip(a["hands"], b["hands"], strict=False):
        if x != y:
            break
        same += 1
    return same


# --- shared -----------------------------------------------------------------------------

MAX_CHANGES = 2000  # a long evening is a few hundred; beyond this, history stops growing


def _history_full(now: Current) -> Refused | None:
    """One game's history is bounded, so a script cannot grow it (and undo's work) forever."""
    if now.version < MAX_CHANGES:
        return None
    return Refused(
        f"This game has had {MAX_CHANGES:,} changes, the most one game keeps. Export it, "
        "or start a new game to carry on."
    )


def _save(
    db: Database,
    now: Current,
    game: Game,
    state: dict[str, Any],
    *,
    action: str,
    summary: str,
    detail: dict[str, Any],
    kept: Sequence[Kept],
    expected: int | None = None,
) -> Saved:
    """Replay from the kept prefix and write; raises GameError or store.Conflict."""
    replayed = replay_from(game, kept)
    stored = store.save_change(
        db,
        now.stored.id,
        now.version if expected is None else expected,
        state,
        action=action,
        summary=summary,
        detail=detail,
        standings=replayed.standings.to_json(),
        kept=list(replayed.kept),
    )
    return Saved(_keep(Current(stored, game, replayed.standings, replayed.kept)), summary)


def _save_or_conflict(
    db: Database,
    now: Current,
    seen: int,
    game: Game,
    state: dict[str, Any],
    action: str,
    summary: str,
    detail: dict[str, Any],
    kept: Sequence[Kept],
    refusal: str = "With this change, ",
    deleted: int | None = None,
) -> Result:
    """Write a change made against version ``seen``: a stale page is a conflict.

    ``deleted``: the hand this change deletes, so later hands are named as the
    game's page numbers them, not as they would be numbered without it.
    """
    if seen != now.version:
        return Conflict(STALE, now)
    if full := _history_full(now):
        return full
    try:
        return _save(db, now, game, state, action=action, summary=summary, detail=detail, kept=kept)
    except GameError as error:
        return _later_hand_refused(error, refusal, deleted)
    except store.Conflict:
        return Conflict(STALE, load(db, now.stored.id))


def _later_hand_refused(error: GameError, lead: str, deleted: int | None) -> Refused:
    """A change that breaks a later hand: which hand, its reason and its rule.

    That hand's problems are not pinned to the form being sent (they concern
    another hand), so they travel as the message and its rule only.
    """
    number = error.hand
    if number is not None and deleted is not None and number >= deleted:
        number += 1
    which = f"hand {number}" if number is not None else "a later hand"
    who = f"{error.player}: " if error.player else ""
    return Refused(f"{lead}{which} no longer fits: {who}{error.reason}", rule=error.rule)


def same_hand(a: HandRecord, b: HandRecord) -> bool:
    """The same facts, whatever order the names were listed in."""

    def facts(hand: HandRecord) -> HandRecord:
        return replace(hand, made=tuple(sorted(hand.made)), floaters=tuple(sorted(hand.floaters)))

    return facts(a) == facts(b)


def hand_summary(game: Game, hand: HandRecord) -> str:
    """The history line for a hand just recorded as the game's last."""
    if hand.tiebreak:
        return f"Tiebreak hand: {hand.went_out} went out"
    made = ", ".join(hand.made) or "nobody"
    return f"Hand {len(game.hands)}: {hand.went_out} went out; made: {made}"


def hand_changes(game: Game, old: HandRecord, new: HandRecord) -> str:
    """What a correction changed, e.g. "Cy 15 ✓ → 65" (✓: made their phase)."""
    parts = []
    if old.went_out != new.went_out:
        parts.append(f"went out {old.went_out} → {new.went_out}")
    before, after = old.scores(game.rules), new.scores(game.rules)
    for name in game.players:
        was = (before.get(name), name in old.made, old.attempts.get(name))
        now = (after.get(name), name in new.made, new.attempts.get(name))
        if was != now:
            parts.append(f"{name} {_player_text(*was)} → {_player_text(*now)}")
    return "; ".join(parts) or "details"


def _player_text(points: int | None, made: bool, attempt: int | None) -> str:
    text = "–" if points is None else str(points)
    if attempt is not None:
        text += f" (phase {attempt})"
    return text + (" ✓" if made else "")
