"""New links: a game's scorekeeper link, its players' links, a table's link. The old one
stops working at once.
"""

from __future__ import annotations

from sqlite_utils import Database

from .. import store
from ..store import tables


def renew_edit_link(db: Database, game_id: str, old_key: str) -> str | None:
    """A new scorekeeper key; ``old_key`` stops working at once."""
    return store.games.renew_edit_key(db, game_id, old_key)


def renew_player_links(db: Database, game_id: str, old_key: str | None) -> str | None:
    """A new key every player's link is derived from; every old one stops working."""
    return store.games.renew_player_key(db, game_id, old_key)


def renew_table_link(db: Database, table_id: str) -> str | None:
    """A new id for the table's link; the old one stops working at once."""
    return tables.renew_link(db, table_id)
