"""Self check-in: a player adds themselves to tonight's list from the night's own page,
until the organiser closes the list.

The name is matched to the table's roster forgivingly (``rules.check_in.match``: case,
accents, spaces), so "zoe" checks Zoë in under the roster's spelling; a name the table
has never seen comes as a newcomer. Only an arrival can be made this way: a phone with
the night's read-only link cannot take anyone out, bring back a player who left, or
change anything else of the night.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from .. import store
from ..i18n import N_, _
from ..reports import night_view
from ..rules.check_in import match
from ..rules.names import NameRefused, valid_name
from ..store import check_in, nights, tables
from . import nights as night_actions
from . import results

LIST_CLOSED = N_("The organiser has closed tonight's list: ask them to add you.")
TOO_LATE = N_("The night's last round has started: there is no round left to seat you in.")
LEFT = N_("%(player)s left tonight: ask the organiser to bring you back.")


@dataclass(frozen=True)
class CheckedIn:
    """On tonight's list: ``name`` as the night spells it; ``newcomer``: new to the table;
    ``already``: they were here before this check-in."""

    name: str
    newcomer: bool = False
    already: bool = False


class _Undone(Exception):
    def __init__(self, refused: results.Refused) -> None:
        self.refused = refused
        super().__init__(refused.message)


def check_in_player(db: Database, night: nights.Night, typed: str) -> CheckedIn | results.Refused:
    """Add the player who typed ``typed`` to tonight's list (seated from the next round,
    as any late arrival), or say why not."""
    try:
        name = valid_name(typed)
    except NameRefused as refused:
        return results.Refused(str(refused))
    try:
        with store.connection.transaction(db):
            if check_in.tonights_list(db, night.id).closed:
                return results.Refused(_(LIST_CLOSED))
            now = night_view.night_now(db, night)
            if (late := too_late(now)) is not None:
                return results.Refused(late)
            found = match(name, [a.name for a in now.attendees])
            if found is not None:
                attendee = next(a for a in now.attendees if a.name == found)
                if not attendee.here:
                    return results.Refused(_(LEFT, player=found))
                return CheckedIn(found, already=True)
            known = match(name, [p.name for p in tables.roster(db, night.table_id)])
            arriving = known or name
            arrived = night_actions.set_here(db, night, arriving, True)
            if isinstance(arrived, results.Refused):
                raise _Undone(arrived)  # set_here wrote inside this transaction: undo it
            check_in.checked_in(db, night.id, arriving, known is None)
    except _Undone as undone:
        return undone.refused
    return CheckedIn(arriving, newcomer=known is None)


def too_late(now: night_view.NightNow) -> str | None:
    """Why nobody can check in any more (the night is over, ended early included, or its
    last round has started: no round is left to seat an arrival in), said on the night's
    page instead of the offer; else None."""
    if now.over:
        return _(night_actions.NIGHT_OVER)
    latest = now.latest
    if latest is not None and latest.started and latest.number >= now.night.rounds:
        return _(TOO_LATE)
    return None


def close_list(db: Database, night: nights.Night, closed: bool) -> None:
    """The organiser closes tonight's list to players' phones (or opens it again)."""
    with store.connection.transaction(db):
        if check_in.tonights_list(db, night.id).closed != closed:
            check_in.close_list(db, night.id, closed)
