"""Club nights: start one, seat a round, start it, players arriving or leaving, the room
controlled (swaps and moves, a table kept, a player taken out), the night ended early or
its rounds and round clock changed.

The organiser's choices and each round's seating are the night's own changes (its log,
``store.nights``); each round's games are ordinary games of the table, started here as
any new game is. The leaderboard is never stored: ``reports.night_view`` works it out
from the games, so a corrected hand counts.

A change that depends on what the organiser's page showed (seating, starting, a swap, the
night's end or plan) names the night's latest change it saw (``seen``): when another
organiser's phone changed the night since, it is a ``Conflict`` and nothing is written.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from sqlite_utils import Database

from .. import store
from ..i18n import N_, _
from ..reports import night_view
from ..rules.names import MAX_TABLE_NAME, NameRefused, valid_name
from ..rules.nights import (
    Mode,
    NightError,
    Scheme,
    TableSeating,
    moved,
    seat_round,
    seating_problems,
    swapped,
)
from ..rules.ruleset import PROFILES
from ..store import change_notes, nights, tables
from . import games, results, saving

MOST_ROUNDS = 20
MOST_MINUTES = 600  # a round clock: ten hours is no clock
MOST_AT_A_NIGHT = 180  # 30 tables of 6, or 45 of 4: the seating search stays under a second
TOO_MANY = N_("A night seats at most %(most)s players.")
ROUND_IN_PLAY = N_("This round's games are not all finished yet.")
NIGHT_OVER = N_("The night is over: its standings are final.")
MOVED_ON = N_(
    "Another phone changed the night a moment ago (%(change)s), so nothing was changed "
    "here. Look at the night as it is now and try again."
)
ROUNDS_WORDS = N_("A night has 1 to %(most)s rounds.")
MINUTES_WORDS = N_("A round clock has 1 to %(most)s minutes, or none.")


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
    minutes: int | None = None,
) -> nights.Night | results.Refused:
    """A new night at the table, its first round seated at random (not started yet), at
    ``tables_asked`` tables (None: as many as rule 11 suggests); ``minutes``: its round
    clock (None: none).

    The players join the table's roster when their first game starts, as any game's do.
    """
    try:
        here = [valid_name(player) for player in players]
        title = valid_name(name, MAX_TABLE_NAME)
    except NameRefused as refused:
        return results.Refused(str(refused))
    if not 1 <= rounds <= MOST_ROUNDS:
        return results.Refused(_(ROUNDS_WORDS, most=MOST_ROUNDS))
    if minutes is not None and not 1 <= minutes <= MOST_MINUTES:
        return results.Refused(_(MINUTES_WORDS, most=MOST_MINUTES))
    if profile not in PROFILES:
        return results.Refused(_("Choose how a round is played from the list."))
    if len(here) > MOST_AT_A_NIGHT:
        return results.Refused(_(TOO_MANY, most=MOST_AT_A_NIGHT))
    if problems := seating_problems(here):
        return results.Refused(problems[0].message, tuple(problems), problems[0].rule)
    try:
        with store.connection.transaction(db):
            if tables.get_table(db, table_id) is None:
                return results.Refused(
                    _("There is no table at that link. Copy it from the table's page.")
                )
            night = nights.create_night(
                db,
                table_id,
                name=title,
                players=here,
                rounds=rounds,
                profile=profile,
                mode=mode,
                scheme=scheme,
                minutes=minutes,
            )
            _seat(db, night_view.night_now(db, night), 1, _new_seed(), tables=tables_asked)
    except _Abandoned as abandoned:
        return abandoned.refused
    return night


class _Abandoned(Exception):
    """Raised inside a night's transaction to write none of it, with the reason why."""

    def __init__(self, refused: results.Refused) -> None:
        self.refused = refused
        super().__init__(refused.message)


def _new_seed() -> str:
    return secrets.token_hex(8)


def _seat(
    db: Database,
    now: night_view.NightNow,
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
            keep={a.name: a.keeps for a in now.attendees if a.here and a.keeps},
        )
    except NightError as error:
        first = error.problems[0]
        raise _Abandoned(results.Refused(first.message, error.problems, first.rule)) from None
    nights.seat(db, now.night.id, number, seed, mode, seating.tables, tables)


def _moved_on(db: Database, night: nights.Night, seen: int | None) -> results.Conflict | None:
    """A Conflict when the night changed since the organiser's page saw change ``seen``
    (None: the caller names no change, and acts on the night as it is)."""
    if seen is None or seen == nights.latest_change(db, night.id):
        return None
    _at, action, facts = nights.history(db, night.id)[0]
    return results.Conflict(_(MOVED_ON, change=night_view.change_words(action, facts)))


def seat_next(
    db: Database,
    night: nights.Night,
    mode: Mode | None = None,
    tables: int | None = None,
    seen: int | None = None,
) -> nights.Round | results.Refused | results.Conflict:
    """Seat the round not started yet anew (a new draw), or the next round once the
    current one is over; ``mode``: how, for this round (else the night's); ``tables``: at
    how many tables (else as rule 11 suggests)."""
    try:
        with store.connection.transaction(db):
            if stale := _moved_on(db, night, seen):
                return stale
            now = night_view.night_now(db, night)
            seated = now.seated
            if now.over:
                return results.Refused(_(NIGHT_OVER))
            if seated is not None:
                number = seated.number
            elif now.playing is not None:
                return results.Refused(_(ROUND_IN_PLAY))
            else:
                number = (now.latest.number if now.latest else 0) + 1
            _seat(db, now, number, _new_seed(), mode, tables)
            return nights.rounds(db, night.id)[number - 1]
    except _Abandoned as abandoned:
        return abandoned.refused


def start_round(
    db: Database, night: nights.Night, seen: int | None = None
) -> nights.Round | results.Refused | results.Conflict:
    """Start the seated round: a game at each table, seat 1 dealing first."""
    try:
        return _start_round(db, night, seen)
    except store.budget.OverBudget as over:  # the transaction wrote nothing
        return saving.over_budget(over)


def _start_round(
    db: Database, night: nights.Night, seen: int | None
) -> nights.Round | results.Refused | results.Conflict:
    with store.connection.transaction(db):
        if stale := _moved_on(db, night, seen):
            return stale
        now = night_view.night_now(db, night)
        seated = now.seated
        if seated is None:
            return results.Refused(_("No round is waiting to start: seat the next round first."))
        title = change_notes.note("night", night=night.name, round=seated.number)
        its_table = tables.get_table(db, night.table_id)
        time_zone = its_table.time_zone if its_table is not None else None
        judged: list[games.NewGameJudged] = []
        for table in seated.tables:
            data = {
                "rules": night.profile,
                "options": {},
                "players": list(table.seats),
                "dealer": table.dealer,
                "hands": [],
            }
            one = games.judge_new_game(data, note=title, time_zone=time_zone)
            if isinstance(one, results.Refused):
                return one
            judged.append(one)
        store.budget.room_for(db, night.table_id, [one.new.size for one in judged])
        started = []
        for one in judged:
            stored = store.games.insert_game(db, one.new)
            with store.budget.charging(db, stored.id):
                tables.file_game(db, night.table_id, stored.id, list(one.game.players))
            started.append(stored.id)
        store.budget.check_room(db, started)
        nights.start_round(db, night.id, seated.number, started)
    return replace(seated, started=store.connection.now())


class Here(Enum):
    """What became of a player the organiser said arrived or left."""

    ARRIVED = "arrived"  # new tonight, or back after leaving
    LEFT = "left"
    ALREADY_HERE = "already here"  # nothing to do: the night had them already
    ALREADY_LEFT = "already left"


@dataclass(frozen=True)
class HereChange:
    """A player's arrival or departure: ``name`` as the night spells it, and what it did;
    ``seated``: the round waiting to start that was seated again from who is here."""

    name: str
    what: Here
    seated: int | None = None


def set_here(
    db: Database, night: nights.Night, name: str, here: bool
) -> HereChange | results.Refused:
    """A player leaves the night, comes back, or arrives late; a round seated and not
    started yet is seated again from who is here now (with its own seed and mode, at the
    number of tables the organiser asked for, else as many as rule 11 suggests).

    Nobody new is seated once the last round has started, nor after the night is over;
    a name the night has already (in any case: "zoë" for Zoë) is that player.
    """
    try:
        name = valid_name(name)
    except NameRefused as refused:
        return results.Refused(str(refused))
    try:
        with store.connection.transaction(db):
            now = night_view.night_now(db, night)
            known = {a.name.casefold(): a for a in now.attendees}
            found = known.get(name.casefold())
            if found is None and not here:
                return results.Refused(_("%(player)s is not at this night", player=name))
            if found is not None:
                name = found.name
                if found.here == here:
                    return HereChange(name, Here.ALREADY_HERE if here else Here.ALREADY_LEFT)
            if here and now.over:
                return results.Refused(_(NIGHT_OVER))
            if here and now.last_started:
                return results.Refused(
                    _("The night's last round has started: nobody new can be seated tonight.")
                )
            if here and len(now.here) >= MOST_AT_A_NIGHT:
                return results.Refused(_(TOO_MANY, most=MOST_AT_A_NIGHT))
            nights.set_here(db, night.id, name, here)
            if (seated := now.seated) is not None:
                _seat(
                    db,
                    night_view.night_now(db, night),
                    seated.number,
                    seated.seed,
                    seated.mode,
                    seated.asked,
                )
    except _Abandoned as abandoned:  # the round cannot be seated so: nothing changes
        return abandoned.refused
    what = Here.ARRIVED if here else Here.LEFT
    return HereChange(name, what, seated.number if seated is not None else None)


# --- the room: swaps and moves before a round starts, a table kept, a player taken out ---


def _waiting(now: night_view.NightNow) -> nights.Round | results.Refused:
    """The round seated and not started: the only one whose seats may change."""
    if now.seated is None:
        return results.Refused(_("Players can be swapped or moved only before their round starts."))
    return now.seated


def _refused(error: NightError) -> results.Refused:
    first = error.problems[0]
    return results.Refused(first.message, error.problems, first.rule)


def swap(
    db: Database, night: nights.Night, first: str, second: str, seen: int | None = None
) -> nights.Round | results.Refused | results.Conflict:
    """Two players of the round waiting to start change places (table and seat); the
    seating cards printed from now on follow. A player who keeps a table keeps the one
    they move to."""
    return _rearranged(
        db,
        night,
        seen,
        lambda tables: swapped(tables, first, second),
        (first, second),
        action="swap",
        players=[first, second],
    )


def move(
    db: Database, night: nights.Night, name: str, table: int, seen: int | None = None
) -> nights.Round | results.Refused | results.Conflict:
    """A player of the round waiting to start moves to the last seat of another table."""
    return _rearranged(
        db,
        night,
        seen,
        lambda tables: moved(tables, name, table),
        (name,),
        action="move",
        player=name,
        table=table,
    )


def _rearranged(
    db: Database,
    night: nights.Night,
    seen: int | None,
    change: Callable[[tuple[TableSeating, ...]], tuple[TableSeating, ...]],
    movers: tuple[str, ...],
    action: str,
    **facts: object,
) -> nights.Round | results.Refused | results.Conflict:
    """The round waiting to start, seated as ``change`` rearranges it and logged as
    ``action``; ``movers`` who keep a table keep the one they move to."""
    with store.connection.transaction(db):
        if stale := _moved_on(db, night, seen):
            return stale
        now = night_view.night_now(db, night)
        waiting = _waiting(now)
        if isinstance(waiting, results.Refused):
            return waiting
        try:
            tables = change(waiting.tables)
        except NightError as error:
            return _refused(error)
        nights.rearrange(db, night.id, waiting.number, tables, action, **facts)
        _follow_kept(db, now, tables, *movers)
        return replace(waiting, tables=tables)


def _follow_kept(
    db: Database, now: night_view.NightNow, tables: Sequence[TableSeating], *names: str
) -> None:
    """A player who keeps a table and was moved keeps the table they were moved to."""
    for name in names:
        attendee = now.attendee(name)
        number = next(t.number for t in tables if name in t.seats)
        if attendee is not None and attendee.keeps not in (None, number):
            nights.keep_table(db, now.night.id, name, number)


def keep_table(
    db: Database, night: nights.Night, name: str, table: int | None
) -> results.Refused | None:
    """``name`` keeps table ``table`` in every round from the next seating on (an
    accessible seat; None: seated anywhere again)."""
    with store.connection.transaction(db):
        now = night_view.night_now(db, night)
        attendee = now.attendee(name)
        if attendee is None or not attendee.here:
            return results.Refused(_("%(player)s is not at this night", player=name))
        if table is not None and not 1 <= table <= MOST_AT_A_NIGHT // 2:
            return results.Refused(_("Choose one of the night's tables."))
        if attendee.keeps != table:
            nights.keep_table(db, night.id, attendee.name, table)
    return None


def take_out(
    db: Database, night: nights.Night, name: str, number: int
) -> results.Result | results.Refused:
    """``name`` is taken out of round ``number``, being played: their game goes on without
    them (rule 11, "Changes during the night"). The round named is the one the organiser's
    page showed: once another has started, it is a Conflict."""
    with store.connection.transaction(db):
        now = night_view.night_now(db, night)
        playing = now.playing
        if playing is None or playing.number != number:
            return results.Conflict(_("Round %(round)s is no longer being played.", round=number))
        current = now.game_of(number, name)
        if current is None:
            return results.Refused(_("%(player)s is not playing in this round.", player=name))
        done = games.leave(db, current.stored.id, name)
        if isinstance(done, results.Saved):
            nights.take_out(db, night.id, number, name, current.stored.id)
        return done


# --- the night as a whole: ended early, taken up again, its rounds and round clock -------


def end_night(
    db: Database, night: nights.Night, seen: int | None = None
) -> results.Refused | results.Conflict | None:
    """End the night after its last finished round: the standings are final. A round
    seated and not started is dropped; a round being played must finish first."""
    with store.connection.transaction(db):
        if stale := _moved_on(db, night, seen):
            return stale
        now = night_view.night_now(db, night)
        if now.over:
            return results.Refused(_(NIGHT_OVER))
        if now.playing is not None:
            return results.Refused(_("End the night once this round's games are finished."))
        if not now.finished_rounds:
            return results.Refused(_("A night can end once its first round has been played."))
        nights.end_night(db, night.id, now.finished_rounds)
    return None


def reopen(
    db: Database, night: nights.Night, seen: int | None = None
) -> results.Refused | results.Conflict | None:
    """A night ended early goes on: its next round may be seated (within its rounds)."""
    with store.connection.transaction(db):
        if stale := _moved_on(db, night, seen):
            return stale
        now = night_view.night_now(db, night)
        if not now.ended_early:
            return results.Refused(_("This night was not ended early."))
        nights.reopen(db, night.id)
    return None


def change_plan(
    db: Database, night: nights.Night, rounds: int, minutes: int | None, seen: int | None = None
) -> results.Refused | results.Conflict | None:
    """The night's number of rounds (until its last round starts, and never fewer than the
    rounds seated so far) and its round clock (minutes a round; None: none)."""
    with store.connection.transaction(db):
        if stale := _moved_on(db, night, seen):
            return stale
        now = night_view.night_now(db, night)
        if now.over:
            return results.Refused(_(NIGHT_OVER))
        if minutes is not None and not 1 <= minutes <= MOST_MINUTES:
            return results.Refused(_(MINUTES_WORDS, most=MOST_MINUTES))
        if rounds != now.night.rounds:
            if not 1 <= rounds <= MOST_ROUNDS:
                return results.Refused(_(ROUNDS_WORDS, most=MOST_ROUNDS))
            if now.last_started:
                return results.Refused(
                    _("The last round has started: the number of rounds cannot change now.")
                )
            seated = now.latest.number if now.latest else 0
            if rounds < seated:
                return results.Refused(
                    _(
                        "Round %(round)s is seated already: the night has at least "
                        "%(round)s rounds.",
                        round=seated,
                    )
                )
        if (rounds, minutes) != (now.night.rounds, now.night.minutes):
            nights.set_plan(db, night.id, rounds=rounds, minutes=minutes)
    return None
