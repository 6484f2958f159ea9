"""Every change to a game: create, record, correct, delete, end early, undo, restore.

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

import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from babel.numbers import format_decimal
from sqlite_utils import Database

from . import notes, store, tables
from .i18n import N_, _, language
from .rules.game import Game, GameError, HandRecord, Standings
from .rules.gamefile import game_to_json, hand_to_json, load_game
from .rules.phases import Progression, RulesError, make_rules
from .rules.reasons import Reason, Rule
from .rules.replay import Kept, hand_problems, replay_from
from .table_archive import TableArchive

SAVE_ATTEMPTS = 5  # re-read and re-judge after losing a race, at most this often
STALE = N_("Another phone changed this game a moment ago. Check the game and try again.")
NO_GAME = N_("There is no game at this link. It may have been mistyped.")


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
    note: str  # what happened, as stored in the history (notes.py)
    changed: bool = True  # False: this very hand was recorded already (a re-sent form)
    warnings: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        """What happened, in words of the current language."""
        return notes.words(self.note)


@dataclass(frozen=True)
class Refused:
    message: str
    problems: tuple[Reason, ...] = ()
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

    A version never changes once written, so the latest version read of each game
    is kept (per process) and the next request for it skips reading it again. Only
    the latest: a long game's kept states are thousands of objects, and every
    object kept is one more for the garbage collector to walk (ready.py).
    """
    found = _recent.get(stored.id)
    if found is None or found.stored != stored:  # the same row, or read it afresh
        found = _keep(_read(stored))
    return found


def _keep(current: Current) -> Current:
    """Remember a version just read or written, for the requests that read it next."""
    with _recent_lock:
        _recent.pop(current.stored.id, None)
        _recent[current.stored.id] = current  # the most recent last
        while len(_recent) > RECENT_GAMES:
            del _recent[next(iter(_recent))]
    return current


RECENT_GAMES = 256
_recent: dict[str, Current] = {}  # game id -> the version of it read or written last
_recent_lock = threading.Lock()


def _read(stored: store.StoredGame) -> Current:
    """The stored version, loaded; store.UnreadableGame when its row no longer loads (a
    damaged byte can leave JSON that parses but is no game the engine can read)."""
    with store.reading(stored.id):
        try:
            game = load_game(stored.state)
            kept = stored.kept
            if stored.standings is not None and kept is not None and len(kept) == len(game.hands):
                return Current(stored, game, Standings.from_json(stored.standings), tuple(kept))
            replayed = replay_from(game)
        except (GameError, RulesError) as error:
            raise store.UnreadableGame(stored.id, str(error)) from error
    return Current(stored, game, replayed.standings, replayed.kept)


def load(db: Database, game_id: str) -> Current | None:
    stored = store.get_game(db, game_id)
    return None if stored is None else current(stored)


# --- starting games ---------------------------------------------------------------------


def start_game(
    db: Database,
    data: Mapping[str, Any],
    *,
    action: str = "create",
    note: str = "",
    table_id: str | None = None,
    follows: str | None = None,
    dates: tuple[str, str] | None = None,
) -> Saved | Refused:
    """Every new game: started on the form, imported, from the API, a rematch, a backup's.

    ``data`` is its game file (hands may already be in it, as for an import). A new
    Mixed-up Masters game deals each player a shuffled order of the phases. Filed
    under ``table_id`` (its players join the roster) in the same transaction.
    ``follows``: the game it was started after, whose screens follow it here;
    ``dates``: when a game from a backup was first and last played. ``note``: how
    the history tells it (``notes.note``); "Game created" by default.
    """
    try:
        game = load_game(_dealt_orders(data), new=True)  # its names enter now: the name rule
        replayed = replay_from(game)
    except (GameError, RulesError) as error:
        problems = tuple(getattr(error, "problems", ()))
        return Refused(str(error), problems, getattr(error, "rule", None))
    summary = note or notes.note("create")
    with store.transaction(db):
        stored = store.create_game(
            db,
            game_to_json(game),
            action=action,
            summary=summary,
            standings=replayed.standings.to_json(),
            kept=list(replayed.kept),
            follows=follows,
            dates=dates,
        )
        if table_id is not None:
            added = dates[0] if dates else None
            tables.file_game(db, table_id, stored.id, list(game.players), added)
    return Saved(_keep(Current(stored, game, replayed.standings, replayed.kept)), summary)


def _dealt_orders(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A new Mixed-up Masters game without phase orders: each player's, shuffled."""
    if not isinstance(data, Mapping) or data.get("orders") or data.get("hands"):
        return data  # an imported game keeps its own (or lacks them, and is refused)
    options = data.get("options") or {}
    players = data.get("players")
    if not isinstance(options, Mapping) or not isinstance(players, list):
        return data  # the engine says what is wrong
    try:
        rules = make_rules(
            str(data.get("rules", "official")), {str(k): str(v) for k, v in options.items()}
        )
    except RulesError:
        return data
    if rules.progression is not Progression.MIXED_UP:
        return data
    shuffle = secrets.SystemRandom().sample
    sequence = list(rules.sequence)
    return {**data, "orders": {str(name): shuffle(sequence, len(sequence)) for name in players}}


def rematch(db: Database, game_id: str) -> Saved | Refused:
    """The same players, rules and table; the player after the last game's first dealer deals.

    Tapped on two phones at once, it starts one game: the second finds the first.
    """
    with store.transaction(db):
        now = load(db, game_id)
        if now is None:
            return Refused(_(NO_GAME))
        link = store.game_link(db, game_id)
        if link is not None and link.next_game is not None:
            started = load(db, link.next_game)
            if started is not None:
                return Saved(started, notes.note("rematch"), changed=False)
        game = now.game
        data = game_to_json(game)
        players = list(game.players)
        data.update(hands=[], dealer=players[(players.index(game.dealer) + 1) % len(players)])
        data.pop("orders", None)
        data.pop("ended_early", None)
        table_id = tables.table_of_game(db, game_id)
        return start_game(db, data, note=notes.note("rematch"), table_id=table_id, follows=game_id)


def next_at_table(db: Database, table_id: str) -> str | None:
    """The game a new game at this table follows: the table's latest, if nothing followed it."""
    latest = tables.latest_game(db, table_id)
    link = store.game_link(db, latest) if latest else None
    return latest if link is not None and link.next_game is None else None


def import_table(db: Database, archive: TableArchive) -> tables.Table | Refused:
    """A table and all its games from a backup, in one transaction: all of it, or nothing."""
    try:
        with store.transaction(db):
            table = tables.create_table(db, archive.name)
            note = notes.note("table-import", table=archive.name)
            for entry in archive.games:
                dates = (entry.created, entry.updated) if entry.created and entry.updated else None
                result = start_game(
                    db,
                    game_to_json(entry.game),
                    action="import",
                    note=note,
                    table_id=table.id,
                    dates=dates,
                )
                if isinstance(result, Refused):
                    raise _Undone(result)
            tables.restore_roster(db, table.id, archive.players, archive.aliases)
    except _Undone as undone:
        return undone.refused
    return table


class _Undone(Exception):
    """Ends a transaction whose work must not stay (the refusal is what to say)."""

    def __init__(self, refused: Refused) -> None:
        self.refused = refused


# --- hands ------------------------------------------------------------------------------


def record(db: Database, game_id: str, number: int, hand: HandRecord) -> Result:
    """Record hand ``number``; sending the same hand again records it once."""
    if number < 1:
        return Refused(_("Hand numbers start at 1."))
    for _attempt in range(SAVE_ATTEMPTS):
        now = load(db, game_id)
        if now is None:
            return Refused(_(NO_GAME))
        next_hand = now.standings.hand_number
        if number < next_hand:
            if same_hand(hand, now.game.hands[number - 1]):
                return Saved(now, notes.note("already", number=number), changed=False)
            return Conflict(
                _(
                    "Hand %(number)s was already recorded, differently. Correct it on the "
                    "game's page if it is wrong.",
                    number=number,
                ),
                now,
            )
        if number > next_hand:
            return Conflict(
                _(
                    "The next hand of this game is hand %(next)s, not %(number)s.",
                    next=next_hand,
                    number=number,
                ),
                now,
            )
        if now.standings.over:
            return Conflict(_("The game is over: no more hands can be recorded."), now)
        if full := _history_full(now):
            return full
        problems = hand_problems(now.game, hand, now.kept)
        errors = [p for p in problems if not p.warning]
        if errors:
            message = _(
                "Hand %(number)s cannot be recorded: %(reason)s", number=number, reason=errors[0]
            )
            return Refused(message, tuple(problems), errors[0].rule)
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
                extends=True,
            )
        except store.Conflict:
            continue  # someone wrote first: judge again against their version
        return replace(saved, warnings=tuple(str(p) for p in problems if p.warning))
    return Conflict(_("The game is changing too fast to record this hand. Try again."))


def correct(db: Database, game_id: str, seen: int, number: int, hand: HandRecord) -> Result:
    """Replace hand ``number``; the hands after it are replayed and must still fit."""
    now = load(db, game_id)
    if now is None or not 1 <= number <= len(now.game.hands):
        return Refused(_("There is no hand %(number)s in this game.", number=number))
    old = now.game.hands[number - 1]
    if same_hand(hand, old):
        return Saved(now, notes.note("unchanged", number=number), changed=False)
    before = now.game.before(number)
    problems = hand_problems(before, hand, now.kept[: number - 1])
    errors = [p for p in problems if not p.warning]
    if errors:
        message = _(
            "Hand %(number)s cannot be saved like this: %(reason)s", number=number, reason=errors[0]
        )
        return Refused(message, tuple(problems), errors[0].rule)
    hands = list(now.game.hands)
    hands[number - 1] = hand
    game = replace(now.game, hands=tuple(hands))
    detail = {"number": number, "hand": hand_to_json(game, hand)}
    state = _changed_state(now, detail)
    summary = notes.note("correct", number=number, changes=hand_changes(now.game, old, hand))
    return _save_or_conflict(
        db, now, seen, game, state, "edit", summary, detail, now.kept[: number - 1]
    )


def delete(db: Database, game_id: str, seen: int, number: int) -> Result:
    """Delete hand ``number`` (it stays in the history, and Undo brings it back)."""
    now = load(db, game_id)
    if now is None or not 1 <= number <= len(now.game.hands):
        return Refused(_("There is no hand %(number)s in this game.", number=number))
    hand = now.game.hands[number - 1]
    game = replace(now.game, hands=now.game.hands[: number - 1] + now.game.hands[number:])
    summary = notes.note(
        "delete", number=number, went_out=hand.went_out, tiebreak=bool(hand.tiebreak)
    )
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
        refusal=lambda later: _(
            "Hand %(number)s cannot be deleted: without it, %(later)s", number=number, later=later
        ),
        deleted=number,
    )


# --- ending early -----------------------------------------------------------------------


def end_early(db: Database, game_id: str, seen: int) -> Result:
    """End the game after the hands played: the leader by the game's own order wins.

    One more change in the log ({"end": "early"}), so Undo takes it back like any other.
    ``seen``: the version the phone showed when it named the winner it would declare.
    """
    now = load(db, game_id)
    if now is None:
        return Refused(_(NO_GAME))
    if now.standings.over:
        return Conflict(_("The game is over already."), now)
    standings = ending_now(now)
    if isinstance(standings, Refused):
        return standings
    game = replace(now.game, ended_early=True)
    state = game_to_json(game)
    summary = notes.note(
        "end-early",
        after=len(game.hands),
        winner=standings.winner,
        tied=list(standings.tied),
    )
    detail = {"end": "early"}
    return _save_or_conflict(db, now, seen, game, state, "end", summary, detail, now.kept)


def ending_now(now: Current) -> Standings | Refused:
    """The standings ending the game now would give (who it declares the winner), or why
    it cannot end yet."""
    if not now.game.hands:
        return Refused(_("A game can be ended early only after its first hand."))
    try:
        return replay_from(replace(now.game, ended_early=True), now.kept).standings
    except GameError as error:
        return Refused(str(error), rule=error.rule)


# --- undo and restore -------------------------------------------------------------------


def undo(db: Database, game_id: str, seen: int) -> Result:
    """Take back the latest change not undone yet; tapping again keeps stepping back."""
    now = load(db, game_id)
    if now is None:
        return Refused(_(NO_GAME))
    step = store.undo_step(db, game_id)
    if step is None:
        return Refused(_("Nothing to undo yet."))
    undone, target = step
    if undone is None:
        return Refused(
            _(
                "This game's history is damaged at its latest change, so Undo cannot step "
                "back. An earlier version can still be brought back from the history."
            )
        )
    after = store.get_change(db, game_id, target)
    undo_to = after.undo_to if after is not None else None
    return _go_back(db, now, seen, target, "undo", notes.note("undo", undone=undone.note), undo_to)


def restore(db: Database, game_id: str, seen: int, version: int) -> Result:
    """Bring back the game as it was after change ``version``, as one more change."""
    now = load(db, game_id)
    if now is None or store.get_change(db, game_id, version) is None:
        return Refused(_("There is no change %(version)s in this game's history.", version=version))
    summary = notes.note("restore", version=version)
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
        message = _("That version of the game no longer replays: %(reason)s", reason=error)
        return Refused(message, rule=rule)
    if seen != now.version:
        return Conflict(_(STALE), now)
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
        return Conflict(_(STALE), load(db, now.stored.id))
    return Saved(_keep(Current(stored, game, replayed.standings, replayed.kept)), summary)


def _changed_state(now: Current, detail: dict[str, Any]) -> dict[str, Any]:
    """The stored game file with one logged hand change applied (not re-encoded)."""
    hands = list(now.stored.state["hands"])
    store.apply_detail(hands, detail)
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


# --- shared -----------------------------------------------------------------------------

MAX_CHANGES = 2000  # a long evening is a few hundred; beyond this, history stops growing


def _history_full(now: Current) -> Refused | None:
    """One game's history is bounded, so a script cannot grow it (and undo's work) forever."""
    if now.version < MAX_CHANGES:
        return None
    return Refused(
        _(
            "This game has had %(count)s changes, the most one game keeps. Export it, "
            "or start a new game to carry on.",
            count=format_decimal(MAX_CHANGES, locale=language()),
        )
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
    extends: bool = False,
) -> Saved:
    """Replay from the kept prefix and write; raises GameError or store.Conflict.

    ``extends``: the change adds one hand to ``now`` (whose kept states are all of ``kept``).
    """
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
        extends=now.stored if extends else None,
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
    refusal: Callable[[str], str] | None = None,
    deleted: int | None = None,
) -> Result:
    """Write a change made against version ``seen``: a stale page is a conflict.

    ``deleted``: the hand this change deletes, so later hands are named as the
    game's page numbers them, not as they would be numbered without it.
    """
    if seen != now.version:
        return Conflict(_(STALE), now)
    if full := _history_full(now):
        return full
    try:
        return _save(db, now, game, state, action=action, summary=summary, detail=detail, kept=kept)
    except GameError as error:
        return _later_hand_refused(error, refusal, deleted)
    except store.Conflict:
        return Conflict(_(STALE), load(db, now.stored.id))


def _later_hand_refused(
    error: GameError, refusal: Callable[[str], str] | None, deleted: int | None
) -> Refused:
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
        return Refused(refusal(later), rule=error.rule)
    return Refused(_("With this change, %(later)s", later=later), rule=error.rule)


def same_hand(a: HandRecord, b: HandRecord) -> bool:
    """The same facts, whatever order the names were listed in."""

    def facts(hand: HandRecord) -> HandRecord:
        return replace(hand, made=tuple(sorted(hand.made)), floaters=tuple(sorted(hand.floaters)))

    return facts(a) == facts(b)


def hand_summary(game: Game, hand: HandRecord) -> str:
    """The history note for a hand just recorded as the game's last."""
    if hand.tiebreak:
        return notes.note("tiebreak", went_out=hand.went_out)
    return notes.note("record", number=len(game.hands), went_out=hand.went_out, made=hand.made)


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
