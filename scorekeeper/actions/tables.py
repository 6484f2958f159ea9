"""Tables: start one, and its roster (rename, merge two spellings, retire a player)."""

from __future__ import annotations

from collections.abc import Callable

from sqlite_utils import Database

from .. import clock
from ..i18n import _
from ..rules.names import MAX_NAME, NameRefused
from ..store import tables
from . import results


def create_table(
    db: Database, name: str, time_zone: str | None = None
) -> tables.Table | results.Refused:
    """A new table, if its name passes the name rule (rules/names.py), on the clock of
    ``time_zone`` (the phone's that starts it, else the server's, by its IANA name; None:
    not said, the server's whatever it is when asked)."""
    if time_zone is not None and clock.zone(time_zone) is None:
        return results.Refused(_(results.UNKNOWN_ZONE, zone=time_zone))
    try:
        return tables.create_table(db, name, time_zone)
    except NameRefused as refused:
        return results.Refused(str(refused))


def set_time_zone(db: Database, table_id: str, time_zone: str) -> results.Refused | None:
    """Date the table's games on another clock (an IANA name); None when done."""
    if clock.zone(time_zone) is None:
        return results.Refused(_(results.UNKNOWN_ZONE, zone=time_zone))
    tables.set_time_zone(db, table_id, time_zone)
    return None


def rename_player(
    db: Database, table_id: str, old: str, new: str
) -> tuple[str, ...] | results.Refused:
    """Rename a roster player (their games keep counting for them); the answer warns of each
    other player whose name looks the same on screen."""
    if not new:
        return results.Refused(_("Type the new name (up to %(count)s characters)", count=MAX_NAME))
    try:
        return tuple(tables.rename(db, table_id, old, new))
    except tables.RosterError as error:
        return results.Refused(str(error))


def merge_players(db: Database, table_id: str, extra: str, into: str) -> results.Refused | None:
    """Two spellings of one person become ``into``; None when done."""
    return _roster_change(lambda: tables.merge(db, table_id, extra, into))


def retire_player(db: Database, table_id: str, name: str, retired: bool) -> results.Refused | None:
    """Retire a roster player (or bring them back); None when done."""
    return _roster_change(lambda: tables.set_retired(db, table_id, name, retired))


def _roster_change(change: Callable[[], object]) -> results.Refused | None:
    try:
        change()
    except tables.RosterError as error:
        return results.Refused(str(error))
    return None
