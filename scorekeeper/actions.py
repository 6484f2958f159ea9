"""Every change to stored data: a game's (create, record, correct, delete, end early, undo,
restore), a table's (create, roster, games filed in, import), the points players send, and
new links.

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
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from babel.numbers import format_decimal
from sqlite_utils import Database

from . import nights, notes, purge, self_entry, store, tables
from .i18n import N_, _, language
from .purge import PURGE_AFTER_DAYS
from .rules.game import Game, GameError, HandRecord, Standings
from .rules.gamefile import game_to_json, hand_to_json, load_game
from .rules.names import MAX_NAME, MAX_TABLE_NAME, NameRefused, valid_name
from .rules.nights import (
    Mode,
    NightError,
    NightRow,
    Scheme,
    TableSeating,
    night_standings,
    seat_round,
    seating_problems,
)
from .rules.nights import results as night_results
from .rules.phases import PROFILES, Progression, RulesError, make_rules
from .rules.reasons import CARD_POINTS, Reason, Rule
from .rules.replay import Kept, Replayed, entry_problems, hand_problems, replay_from
from .rules.scoring import card_worths, laid_down_implied
from .server import let_others_run
from .table_archive import ArchivedGame, TableArchive

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
class NoRoom(Refused):
    """Refused because the game or its table would pass its storage budget."""


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


def played(stored: store.StoredGame) -> Game:
    """The stored version's game alone, for a table's statistics and backup: its kept states
    are not read, and it joins no recent games (a club's 2,000 would push out the games
    being played). store.UnreadableGame when it no longer loads."""
    found = _recent.get(stored.id)
    if found is not None and found.stored == stored:
        return found.game
    with store.reading(stored.id):
        try:
            return load_game(stored.state)
        except (GameError, RulesError) as error:
            raise store.UnreadableGame(stored.id, str(error)) from error


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
    judged = _judged(data, action=action, note=note, follows=follows, dates=dates)
    if isinstance(judged, Refused):
        return judged
    try:
        with store.transaction(db):  # refused for room: nothing of it is written
            store.room_for(db, table_id, [judged.new.size])
            stored = store.insert_game(db, judged.new)
            if table_id is not None:
                added = dates[0] if dates else None
                with store.charging(db, stored.id):
                    tables.file_game(db, table_id, stored.id, list(judged.game.players), added)
            store.check_room(db, [stored.id])
    except store.OverBudget as over:
        return _over_budget(over)
    current = Current(stored, judged.game, judged.replayed.standings, judged.replayed.kept)
    return Saved(_keep(current), judged.note)


@dataclass(frozen=True)
class _Judged:
    """A new game the engine has accepted, encoded for the store: nothing is left to do
    under the write lock but insert it."""

    game: Game
    replayed: Replayed
    new: store.NewGame
    note: str


def _judged(
    data: Mapping[str, Any],
    *,
    action: str = "create",
    note: str = "",
    follows: str | None = None,
    dates: tuple[str, str] | None = None,
) -> _Judged | Refused:
    try:
        game = load_game(_dealt_orders(data), new=True)  # its names enter now: the name rule
        replayed = replay_from(game)
    except (GameError, RulesError) as error:
        problems = tuple(getattr(error, "problems", ()))
        return Refused(str(error), problems, getattr(error, "rule", None))
    summary = note or notes.note("create")
    new = store.new_game(
        game_to_json(game),
        action=action,
        summary=summary,
        standings=replayed.standings.to_json(),
        kept=list(replayed.kept),
        follows=follows,
        dates=dates,
    )
    return _Judged(game, replayed, new, summary)


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
    """A table and all its games from a backup: all of it, or nothing.

    Every game is judged by the engine and encoded, and their sizes estimated against the
    budget, before anything is written; what each batch adds to the file is measured and
    checked again before it commits. The games then go in by transactions of at most
    IMPORT_BATCH_BYTES each, so other tables' writers wait for one batch at most; the
    table stays hidden (deleted, docs/storage.md) until its last game is in, and goes
    again, with every game written, if a batch fails.
    """
    note = notes.note("table-import", table=archive.name)
    judged: list[_Judged] = []
    for entry in archive.games:
        let_others_run()
        found = _archived(entry, note)
        if isinstance(found, Refused):
            return found
        judged.append(found)
    try:
        store.room_for(db, None, [found.new.size for found in judged], new_table=True)
    except store.OverBudget as over:
        return _over_budget(over, table=True)
    with store.transaction(db):
        table = tables.create_table(db, archive.name)
        tables.delete_table(db, table.id)  # hidden until every game is in
    game_ids: list[str] = []
    try:
        for batch in _batches(judged, archive):
            let_others_run()  # between batches: other tables' Saves go first
            with store.transaction(db):
                for found, entry in batch:
                    stored = store.insert_game(db, found.new)
                    added = entry.created if entry.created and entry.updated else None
                    with store.charging(db, stored.id):
                        tables.file_game(db, table.id, stored.id, list(found.game.players), added)
                    game_ids.append(stored.id)
                store.check_room(db, game_ids[-len(batch) :])  # measured: the table's budget
        with store.transaction(db):
            tables.restore_roster(db, table.id, archive.players, archive.aliases)
            for night in archive.nights:
                nights.restore_night(db, table.id, night, game_ids)
            tables.restore_table(db, table.id)
    except store.OverBudget as over:  # more than estimated: every game written goes again
        purge.remove_table(db, table.id)
        return _over_budget(over, table=True)
    except BaseException:
        purge.remove_table(db, table.id)
        raise
    return table


IMPORT_BATCH_BYTES = 512 * 1024  # one transaction of an import writes about this much


def _archived(entry: ArchivedGame, note: str) -> _Judged | Refused:
    """A backup's game as ``_judged`` makes it, reusing the replay done when it was read."""
    dates = (entry.created, entry.updated) if entry.created and entry.updated else None
    if entry.replayed is None:
        return _judged(game_to_json(entry.game), action="import", note=note, dates=dates)
    new = store.new_game(
        game_to_json(entry.game),
        action="import",
        summary=note,
        standings=entry.replayed.standings.to_json(),
        kept=list(entry.replayed.kept),
        dates=dates,
    )
    return _Judged(entry.game, entry.replayed, new, note)


def _batches(
    judged: list[_Judged], archive: TableArchive
) -> Iterator[list[tuple[_Judged, ArchivedGame]]]:
    batch: list[tuple[_Judged, ArchivedGame]] = []
    size = 0
    for found, entry in zip(judged, archive.games, strict=True):
        batch.append((found, entry))
        size += found.new.size
        if size >= IMPORT_BATCH_BYTES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _over_budget(over: store.OverBudget, *, table: bool = False) -> NoRoom:
    """Why a write was refused for lack of room, in words for the family."""
    most = _megabytes(over.most)
    if over.what == "game":
        return NoRoom(
            _(
                "This game would take more than %(size)s, the most one game may take here. "
                "Nothing was saved.",
                size=most,
            )
        )
    if table:
        return NoRoom(
            _(
                "These games would take more than %(size)s, the most one table may take "
                "here. Nothing was saved.",
                size=most,
            )
        )
    return NoRoom(
        _(
            "This table's games take nearly %(size)s, the most one table may take here, so "
            "this was not saved. Delete games the table no longer needs (they are purged "
            "after %(days)s days), or start another table.",
            size=most,
            days=PURGE_AFTER_DAYS,
        )
    )


def _megabytes(size: int) -> str:
    return _("%(count)s MB", count=format_decimal(round(size / 1024**2, 1), locale=language()))


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
        except store.OverBudget as over:
            return _over_budget(over)
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
    moved = undone.action == "move"
    then = _moved_back(db, game_id, target + 1, now.game.players) if moved else None
    if isinstance(then, Refused):
        return then
    summary = notes.note("undo", undone=undone.note)
    return _go_back(db, now, seen, target, "undo", summary, undo_to, then)


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
    then: Callable[[Database], None] | None = None,
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
            then=then,
        )
    except store.Conflict:
        return Conflict(_(STALE), load(db, now.stored.id))
    except store.OverBudget as over:
        return _over_budget(over)
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


# --- tables -----------------------------------------------------------------------------
# A table's name, roster and games: no game changes, so no game's history is written.


def create_table(db: Database, name: str) -> tables.Table | Refused:
    """A new table, if its name passes the name rule (rules/names.py)."""
    try:
        return tables.create_table(db, name)
    except NameRefused as refused:
        return Refused(str(refused))


def rename_player(db: Database, table_id: str, old: str, new: str) -> tuple[str, ...] | Refused:
    """Rename a roster player (their games keep counting for them); the answer warns of each
    other player whose name looks the same on screen."""
    if not new:
        return Refused(_("Type the new name (up to %(count)s characters)", count=MAX_NAME))
    try:
        return tuple(tables.rename(db, table_id, old, new))
    except tables.RosterError as error:
        return Refused(str(error))


def merge_players(db: Database, table_id: str, extra: str, into: str) -> Refused | None:
    """Two spellings of one person become ``into``; None when done."""
    return _roster_change(lambda: tables.merge(db, table_id, extra, into))


def retire_player(db: Database, table_id: str, name: str, retired: bool) -> Refused | None:
    """Retire a roster player (or bring them back); None when done."""
    return _roster_change(lambda: tables.set_retired(db, table_id, name, retired))


def _roster_change(change: Callable[[], object]) -> Refused | None:
    try:
        change()
    except tables.RosterError as error:
        return Refused(str(error))
    return None


# --- players' own points ----------------------------------------------------------------


def sending_closed(now: Current, hand_number: int | None) -> Conflict | None:
    """Why a player cannot send points for hand ``hand_number`` now (the game is over, a
    tiebreak, the hand already saved), or None."""
    standings = now.standings
    if standings.over:
        return Conflict(_("The game is over: there is nothing more to send."), now)
    if standings.tiebreak:
        return Conflict(_("This is a tiebreak: the scorekeeper records who went out first."), now)
    if hand_number != standings.hand_number:
        message = _(
            "That hand was already saved by the scorekeeper. "
            "This is hand %(number)s: send your points for it.",
            number=standings.hand_number,
        )
        return Conflict(message, now)
    return None


def send_points(
    db: Database,
    game_id: str,
    seat: int,
    hand_number: int | None,
    points: int,
    *,
    made: bool,
    went_out: bool,
) -> self_entry.Entry | Refused | Conflict:
    """Keep one player's line for the current hand until the scorekeeper saves it.

    The points are judged as the scorekeeper's form judges each total on its own
    (``entry_problems``): a total under 50 says the player made their phase.
    """
    now = load(db, game_id)
    if now is None or not 0 <= seat < len(now.game.players):
        return Refused(_(NO_GAME))
    if closed := sending_closed(now, hand_number):
        return closed
    if refused := judge_points(now, seat, points, made=made, went_out=went_out):
        return refused
    if went_out:
        points, made = 0, True
    entry = self_entry.Entry(seat, points, made, went_out, store.now())
    self_entry.submit(db, game_id, now.standings.hand_number, entry)
    return entry


def judge_points(
    now: Current, seat: int, points: int, *, made: bool, went_out: bool
) -> Refused | None:
    """What is wrong with one player's points for the current hand, as the scorekeeper's
    form judges each total on its own (``entry_problems``), or None; saves nothing. A total
    under 50 says the player made their phase."""
    if went_out:
        return None
    name = now.game.players[seat]
    implied = made or laid_down_implied(points) is not None  # kept as the player ticked it
    hand = HandRecord(None, made=(name,) if implied else (), points={name: points})
    problems = entry_problems(now.game, hand, [name], now.kept)
    errors = [p for p in problems if not p.warning]
    if errors and errors[0].rule is CARD_POINTS:  # said as the player's page always said it
        message = _(
            "Points: %(points)s is not a multiple of 5. "
            "Every card is worth %(listed)s or %(most)s.",
            points=points,
            **card_worths(now.game.rules),
        )
        return Refused(message, tuple(problems), CARD_POINTS)
    if errors:
        return Refused(str(errors[0]), tuple(problems), errors[0].rule)
    return None


# --- new links --------------------------------------------------------------------------
# A new link changes who can reach a game or table, not the game: nothing is written to the
# game's change log (docs/decisions.md says why). Each answers None when the old link was
# renewed meanwhile (by another phone).


def renew_edit_link(db: Database, game_id: str, old_key: str) -> str | None:
    """A new scorekeeper key; ``old_key`` stops working at once."""
    return store.renew_edit_key(db, game_id, old_key)


def renew_player_links(db: Database, game_id: str, old_key: str | None) -> str | None:
    """A new key every player's link is derived from; every old one stops working."""
    return store.renew_player_key(db, game_id, old_key)


def renew_table_link(db: Database, table_id: str) -> str | None:
    """A new id for the table's link; the old one stops working at once."""
    return tables.renew_link(db, table_id)


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
    except store.OverBudget as over:
        return _over_budget(over)


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


# --- deleting games and tables, and bringing them back ----------------------------------
# Access, not play: a deletion hides the game or table (store.delete_game,
# tables.delete_table) until it is brought back or purged PURGE_AFTER_DAYS later
# (purge.py). A game at a table is let go only through the table's own link.

IN_A_TABLE = N_("This game belongs to a table: delete it, or bring it back, from the table's page.")


def delete_game(db: Database, game_id: str, table_id: str | None = None) -> Refused | None:
    """Delete a game of the table ``table_id`` (None: a game in no table)."""
    with store.transaction(db):
        if store.get_game(db, game_id) is None:
            return Refused(_(NO_GAME))
        if tables.table_of_game(db, game_id) != table_id:
            return Refused(_(IN_A_TABLE))
        store.delete_game(db, game_id)
    return None


def restore_game(db: Database, game_id: str, table_id: str | None = None) -> Refused | None:
    """Bring back a game deleted on its own, from the table it is in (None: in no table)."""
    with store.transaction(db):
        if tables.table_of_game(db, game_id) != table_id:
            return Refused(_(IN_A_TABLE))
        if not store.restore_game(db, game_id):
            return Refused(_("This game is not deleted, or is deleted for good."))
    return None


def delete_table(db: Database, table_id: str) -> None:
    """Delete a table by its link, with its games."""
    tables.delete_table(db, table_id)


def restore_table(db: Database, table_id: str) -> Refused | None:
    """Bring back a deleted table with the games deleted with it."""
    if not tables.restore_table(db, table_id):
        return Refused(_("This table is not deleted, or is deleted for good."))
    return None


def purge_deleted(db: Database) -> purge.Purged:
    """Remove for good what was deleted more than PURGE_AFTER_DAYS ago (purge.py)."""
    return purge.purge(db)


# --- moving a game between tables ---------------------------------------------------------
# Only the table a game is in can let it go: moving it needs that table's link (the
# caller holds it) and the link of the table it goes to. A game in no table moves in by
# its scorekeeper link. The move is a change in the game's history ({"moved": ...},
# naming each table by its screen address, which a new table link leaves alone), and
# Undo moves it back.

OTHER_TABLE = N_(
    "This game belongs to another table. Only that table can let it go: open that "
    "table's page, and move the game from there with this table's link."
)


def move_game(db: Database, game_id: str, to_table: str, from_table: str | None) -> Result:
    """Move a game into ``to_table`` from ``from_table``: the table it is in (None: none)."""
    now = load(db, game_id)
    if now is None:
        return Refused(_(NO_GAME))
    target = tables.get_table(db, to_table)
    if target is None:
        return Refused(_("There is no table at that link. Copy it from the table's page."))
    found = tables.table_of_game(db, game_id)
    if found == to_table:
        return Refused(_("The game is in this table already."))
    if found != from_table:
        return Refused(_(OTHER_TABLE))
    if full := _history_full(now):
        return full
    source = tables.get_table(db, from_table) if from_table else None
    summary = notes.note("move", origin=source.name if source else None, to=target.name)
    detail = {"moved": {"from": source.view_id if source else None, "to": target.view_id}}
    players = list(now.game.players)

    def file_it(db: Database) -> None:
        store.room_for(db, to_table, [store.game_size(db, game_id)])
        tables.file_game(db, to_table, game_id, players)

    try:
        stored = store.save_change(
            db,
            game_id,
            now.version,
            now.stored.state,
            action="move",
            summary=summary,
            detail=detail,
            standings=now.standings.to_json(),
            kept=list(now.kept),
            then=file_it,
        )
    except store.Conflict:
        return Conflict(_(STALE), load(db, game_id))
    except store.OverBudget as over:
        return _over_budget(over)
    return Saved(_keep(replace(now, stored=stored)), summary)


def _moved_back(
    db: Database, game_id: str, version: int, players: Sequence[str]
) -> Callable[[Database], None] | Refused:
    """What undoing the move at ``version`` writes: the game back in the table it left."""
    detail = store.change_detail(db, game_id, version) or {}
    origin = detail.get("moved", {}).get("from")
    if origin is None:
        return lambda db: tables.unfile_game(db, game_id)
    table = tables.table_by_view(db, origin)
    if table is None:
        return Refused(_("The table this game came from is deleted: it cannot go back there."))
    return lambda db: tables.file_game(db, table.id, game_id, list(players))


# --- club nights ------------------------------------------------------------------------
# A night at a table (nights.py): the organiser's choices and each round's seating are
# the night's own changes (its log, nights.night_changes); each round's games are
# ordinary games of the table, started here as any new game is. The leaderboard is never
# stored: it is worked out from the games (``night_now``), so a corrected hand counts.

MOST_ROUNDS = 20
MOST_AT_A_NIGHT = 180  # 30 tables of 6, or 45 of 4: the seating search stays under a second
TOO_MANY = N_("A night seats at most %(most)s players.")
ROUND_IN_PLAY = N_("This round's games are not all finished yet.")


@dataclass(frozen=True)
class NightNow:
    """A night as its pages show it: who came, each round, its games, the leaderboard."""

    night: nights.Night
    attendees: tuple[nights.Attendee, ...]
    rounds: tuple[nights.Round, ...]
    games: Mapping[tuple[int, int], Current]  # (round, table) -> the game
    board: tuple[NightRow, ...]

    @property
    def latest(self) -> nights.Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def here(self) -> list[str]:
        return [a.name for a in self.attendees if a.here]

    def round_over(self, number: int) -> bool:
        """Every game of the started round is finished (a game deleted from the table no
        longer holds the night up)."""
        found = [game for (at, _table), game in self.games.items() if at == number]
        return all(game.standings.over for game in found)

    @property
    def playing(self) -> nights.Round | None:
        """The round being played now: started, not every game finished."""
        latest = self.latest
        if latest is None or latest.started is None or self.round_over(latest.number):
            return None
        return latest

    @property
    def seated(self) -> nights.Round | None:
        """A round seated whose games have not started: it may be seated again."""
        latest = self.latest
        return latest if latest is not None and latest.started is None else None

    @property
    def over(self) -> bool:
        latest = self.latest
        return (
            latest is not None
            and latest.started is not None
            and latest.number >= self.night.rounds
            and self.round_over(latest.number)
        )

    def where(self, name: str) -> tuple[nights.Round, TableSeating, int] | None:
        """The latest round seating ``name``: (round, table, seat from 1)."""
        for seated in reversed(self.rounds):
            table = next((t for t in seated.tables if name in t.seats), None)
            if table is not None:
                return seated, table, table.seats.index(name) + 1
        return None


def night_now(db: Database, night: nights.Night) -> NightNow:
    """The night with its games' kept standings and the leaderboard, as of now."""
    played: dict[tuple[int, int], Current] = {}
    for entry in nights.games(db, night.id):
        found = load(db, entry.game_id)
        if found is not None:
            played[entry.round, entry.table] = found
    attendees = tuple(nights.attendees(db, night.id))
    finished = [
        night_results(game.standings, game.game.rules)
        for game in played.values()
        if game.standings.over
    ]
    board = night_standings(finished, night.scheme, [a.name for a in attendees])
    return NightNow(night, attendees, tuple(nights.rounds(db, night.id)), played, tuple(board))


def create_night(
    db: Database,
    table_id: str,
    *,
    name: str,
    players: Sequence[str],
    rounds: int,
    profile: str,
    mode: Mode,
    scheme: Scheme,
    tables_asked: int | None = None,
) -> nights.Night | Refused:
    """A new night at the table, its first round seated at random (not started yet), at
    ``tables_asked`` tables (None: as many as rule 11 suggests).

    The players join the table's roster when their first game starts, as any game's do.
    """
    try:
        here = [valid_name(player) for player in players]
        title = valid_name(name, MAX_TABLE_NAME)
    except NameRefused as refused:
        return Refused(str(refused))
    if not 1 <= rounds <= MOST_ROUNDS:
        return Refused(_("A night has 1 to %(most)s rounds.", most=MOST_ROUNDS))
    if profile not in PROFILES:
        return Refused(_("Choose how a round is played from the list."))
    if len(here) > MOST_AT_A_NIGHT:
        return Refused(_(TOO_MANY, most=MOST_AT_A_NIGHT))
    if problems := seating_problems(here):
        return Refused(problems[0].message, tuple(problems), problems[0].rule)
    try:
        with store.transaction(db):
            if tables.get_table(db, table_id) is None:
                return Refused(_("There is no table at that link. Copy it from the table's page."))
            night = nights.create_night(
                db,
                table_id,
                name=title,
                players=here,
                rounds=rounds,
                profile=profile,
                mode=mode,
                scheme=scheme,
            )
            _seat(db, night_now(db, night), 1, _new_seed(), tables=tables_asked)
    except _Abandoned as abandoned:
        return abandoned.refused
    return night


class _Abandoned(Exception):
    """Raised inside a night's transaction to write none of it, with the reason why."""

    def __init__(self, refused: Refused) -> None:
        self.refused = refused
        super().__init__(refused.message)


def _new_seed() -> str:
    return secrets.token_hex(8)


def _seat(
    db: Database,
    now: NightNow,
    number: int,
    seed: str,
    mode: Mode | None = None,
    tables: int | None = None,
) -> None:
    """Seat round ``number`` from the players here, the night's history and standing, in
    ``mode`` (else the night's; the first round at random), at ``tables`` tables (else as
    many as rule 11 suggests); _Abandoned when they cannot be seated so."""
    earlier = [
        table.seats for seated in now.rounds if seated.number < number for table in seated.tables
    ]
    mode = Mode.RANDOM if number == 1 else mode or now.night.mode
    try:
        seating = seat_round(
            now.here,
            mode,
            seed=seed,
            tables=tables,
            earlier=earlier,
            standing=[row.name for row in now.board],
        )
    except NightError as error:
        first = error.problems[0]
        raise _Abandoned(Refused(first.message, error.problems, first.rule)) from None
    nights.seat(db, now.night.id, number, seed, mode, seating.tables, tables)


def seat_next(
    db: Database, night: nights.Night, mode: Mode | None = None, tables: int | None = None
) -> nights.Round | Refused:
    """Seat the round not started yet anew (a new draw), or the next round once the
    current one is over; ``mode``: how, for this round (else the night's); ``tables``: at
    how many tables (else as rule 11 suggests)."""
    try:
        with store.transaction(db):
            now = night_now(db, night)
            seated = now.seated
            if seated is not None:
                number = seated.number
            elif now.playing is not None:
                return Refused(_(ROUND_IN_PLAY))
            elif now.over:
                return Refused(_("The night's last round is over."))
            else:
                number = (now.latest.number if now.latest else 0) + 1
            _seat(db, now, number, _new_seed(), mode, tables)
            return nights.rounds(db, night.id)[number - 1]
    except _Abandoned as abandoned:
        return abandoned.refused


def start_round(db: Database, night: nights.Night) -> nights.Round | Refused:
    """Start the seated round: a game at each table, seat 1 dealing first."""
    try:
        return _start_round(db, night)
    except store.OverBudget as over:  # the transaction wrote nothing
        return _over_budget(over)


def _start_round(db: Database, night: nights.Night) -> nights.Round | Refused:
    with store.transaction(db):
        now = night_now(db, night)
        seated = now.seated
        if seated is None:
            return Refused(_("No round is waiting to start: seat the next round first."))
        title = notes.note("night", night=night.name, round=seated.number)
        judged: list[_Judged] = []
        for table in seated.tables:
            data = {
                "rules": night.profile,
                "options": {},
                "players": list(table.seats),
                "dealer": table.dealer,
                "hands": [],
            }
            one = _judged(data, note=title)
            if isinstance(one, Refused):
                return one
            judged.append(one)
        store.room_for(db, night.table_id, [one.new.size for one in judged])
        started = []
        for one in judged:
            stored = store.insert_game(db, one.new)
            with store.charging(db, stored.id):
                tables.file_game(db, night.table_id, stored.id, list(one.game.players))
            started.append(stored.id)
        store.check_room(db, started)
        nights.start_round(db, night.id, seated.number, started)
    return replace(seated, started=store.now())


def set_here(db: Database, night: nights.Night, name: str, here: bool) -> Refused | None:
    """A player leaves the night, comes back, or arrives late; a round seated and not
    started yet is seated again from who is here now (with its own seed and mode, at the
    number of tables the organiser asked for, else as many as rule 11 suggests)."""
    try:
        name = valid_name(name)
    except NameRefused as refused:
        return Refused(str(refused))
    try:
        with store.transaction(db):
            now = night_now(db, night)
            known = {a.name.casefold(): a for a in now.attendees}
            found = known.get(name.casefold())
            if found is None and not here:
                return Refused(_("%(player)s is not at this night", player=name))
            if found is not None:
                if found.here == here:
                    return None
                name = found.name
            if here and len(now.here) >= MOST_AT_A_NIGHT:
                return Refused(_(TOO_MANY, most=MOST_AT_A_NIGHT))
            nights.set_here(db, night.id, name, here)
            if (seated := now.seated) is not None:
                _seat(
                    db, night_now(db, night), seated.number, seated.seed, seated.mode, seated.asked
                )
    except _Abandoned as abandoned:  # the round cannot be seated so: nothing changes
        return abandoned.refused
    return None
