"""Deleting games and tables, bringing them back within their week, and purging what is
due. A game in a table is deleted and brought back only by its table.
"""

from __future__ import annotations

from sqlite_utils import Database

from .. import store
from ..backup import purge
from ..i18n import N_, _
from ..store import tables
from . import results

IN_A_TABLE = N_("This game belongs to a table: delete it, or bring it back, from the table's page.")


def delete_game(db: Database, game_id: str, table_id: str | None = None) -> results.Refused | None:
    """Delete a game of the table ``table_id`` (None: a game in no table)."""
    with store.connection.transaction(db):
        if store.games.get_game(db, game_id) is None:
            return results.Refused(_(results.NO_GAME))
        if tables.table_of_game(db, game_id) != table_id:
            return results.Refused(_(IN_A_TABLE))
        store.games.delete_game(db, game_id)
    return None


def restore_game(db: Database, game_id: str, table_id: str | None = None) -> results.Refused | None:
    """Bring back a game deleted on its own, from the table it is in (None: in no table)."""
    with store.connection.transaction(db):
        if tables.table_of_game(db, game_id) != table_id:
            return results.Refused(_(IN_A_TABLE))
        if not store.games.restore_game(db, game_id):
            return results.Refused(_("This game is not deleted, or is deleted for good."))
    return None


def delete_table(db: Database, table_id: str) -> None:
    """Delete a table by its link, with its games."""
    tables.delete_table(db, table_id)


def restore_table(db: Database, table_id: str) -> results.Refused | None:
    """Bring back a deleted table with the games deleted with it."""
    if not tables.restore_table(db, table_id):
        return results.Refused(_("This table is not deleted, or is deleted for good."))
    return None


def purge_deleted(db: Database) -> purge.Purged:
    """Remove for good what was deleted more than PURGE_AFTER_DAYS ago (purge.py)."""
    return purge.purge(db)
