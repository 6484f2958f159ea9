"""Club nights: start one, seat a round, start it, and players arriving or leaving.

The organiser's choices and each round's seating are the night's own changes (its log,
``store.nights``); each round's games are ordinary games of the table, started here as
any new game is. The leaderboard is never stored: ``reports.night_view`` works it out
from the games, so a corrected hand counts.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import replace

from sqlite_utils import Database

from .. import store
from ..i18n import N_, _
from ..reports import night_view
from ..rules.names import MAX_TABLE_NAME, NameRefused, valid_name
from ..rules.nights import (
    Mode,
    NightError,
    Scheme,
    seat_round,
    seating_problems,
)
from ..rules.phases import PROFILES
from ..store import change_notes, nights, tables
from . import games, results, saving

MOST_ROUNDS = 20
MOST_AT_A_NIGHT = 180  # 30 tables of 6, or 45 of 4: the seating search stays under a second
TOO_MANY = N_("A night seats at most %(most)s players.")
ROUND_IN_PLAY = N_("This round's games are not all finished yet.")


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
) -> nights.Night | results.Refused:
    """A new night at the table, its first round seated at random (not started yet), at
    ``tables_asked`` tables (None: as many as rule 11 suggests).

    The players join the table's roster when their first game starts, as any game's do.
    """
    try:
        here = [valid_name(player) for player in players]
        title = valid_name(name, MAX_TABLE_NAME)
    except NameRefused as refused:
        return results.Refused(str(refused))
    if not 1 <= rounds <= MOST_ROUNDS:
        return results.Refused(_("A night has 1 to %(most)s rounds.", most=MOST_ROUNDS))
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
        )
    except NightError as error:
        first = error.problems[0]
        raise _Abandoned(results.Refused(first.message, error.problems, first.rule)) from None
    nights.seat(db, now.night.id, number, seed, mode, seating.tables, tables)


def seat_next(
    db: Database, night: nights.Night, mode: Mode | None = None, tables: int | None = None
) -> nights.Round | results.Refused:
    """Seat the round not started yet anew (a new draw), or the next round once the
    current one is over; ``mode``: how, for this round (else the night's); ``tables``: at
    how many tables (else as rule 11 suggests)."""
    try:
        with store.connection.transaction(db):
            now = night_view.night_now(db, night)
            seated = now.seated
            if seated is not None:
                number = seated.number
            elif now.playing is not None:
                return results.Refused(_(ROUND_IN_PLAY))
            elif now.over:
                return results.Refused(_("The night's last round is over."))
            else:
                number = (now.latest.number if now.latest else 0) + 1
            _seat(db, now, number, _new_seed(), mode, tables)
            return nights.rounds(db, night.id)[number - 1]
    except _Abandoned as abandoned:
        return abandoned.refused


def start_round(db: Database, night: nights.Night) -> nights.Round | results.Refused:
    """Start the seated round: a game at each table, seat 1 dealing first."""
    with store.connection.transaction(db):
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
        try:
            store.budget.room_for(db, night.table_id, [one.new.size for one in judged])
        except store.budget.OverBudget as over:
            return saving.over_budget(over)
        started = []
        for one in judged:
            stored = store.games.insert_game(db, one.new)
            tables.file_game(db, night.table_id, stored.id, list(one.game.players))
            started.append(stored.id)
        nights.start_round(db, night.id, seated.number, started)
    return replace(seated, started=store.connection.now())


def set_here(db: Database, night: nights.Night, name: str, here: bool) -> results.Refused | None:
    """A player leaves the night, comes back, or arrives late; a round seated and not
    started yet is seated again from who is here now (with its own seed and mode, at the
    number of tables the organiser asked for, else as many as rule 11 suggests)."""
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
                if found.here == here:
                    return None
                name = found.name
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
    return None
