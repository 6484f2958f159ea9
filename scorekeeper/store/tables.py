"""Tables: a family or club, its roster of players and the games it has played.

Kept in tables of their own beside the games (a link table says which game
belongs to which table), so the game store is untouched. A table is reached
only through its own unguessable link. The roster remembers how names were
merged and renamed, so old games still count for the right person; each roster
player has an id of their own that a rename or a merge into them keeps.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from .. import store
from ..i18n import _
from ..rules.names import MAX_TABLE_NAME, NameRefused, lookalikes_of, valid_name
from . import records
from .schema import new_key


@dataclass(frozen=True)
class Table:
    """A table in use (``tables``; its ``deleted`` column says it is not)."""

    id: str
    name: str
    created: str
    view_id: str  # the table's lasting name in its games' histories (a move); never shown
    screen: str  # the read-only address of the table's screen (/tv/<screen>), renewed with it
    time_zone: str | None = None  # the table's clock (IANA name): its games' records are
    # dated on it; None: the server's (a table from before tables had one)


@dataclass(frozen=True)
class RosterPlayer:
    """A name on the table's roster (``table_players``)."""

    name: str
    retired: bool


def create_table(db: Database, name: str, time_zone: str | None = None) -> Table:
    """A new table; its name goes through the name rule (NameRefused says why not).
    ``time_zone``: its clock (an IANA name the caller has checked)."""
    table = Table(
        new_key(),
        valid_name(name, MAX_TABLE_NAME),
        store.connection.now(),
        new_key(),
        new_key(),
        time_zone,
    )
    with store.connection.transaction(db):
        records.insert(db, "tables", records.row(table))
    return table


_COLUMNS = records.columns(Table)


def _table_by(db: Database, column: str, value: str) -> Table | None:
    """The table in use whose ``column`` (id, view_id or screen) is ``value``."""
    return records.one(
        db,
        Table,
        f"SELECT {_COLUMNS} FROM tables WHERE {column} = ? AND deleted IS NULL",
        [value],
    )


def get_table(db: Database, table_id: str) -> Table | None:
    """The table at this link; None when there is none, or it is deleted."""
    return _table_by(db, "id", table_id)


def table_by_view(db: Database, view_id: str) -> Table | None:
    """The table a game's history names (a move records the tables by their view_id)."""
    return _table_by(db, "view_id", view_id)


def table_by_screen(db: Database, screen: str) -> Table | None:
    """The table whose screen is at /tv/<screen>."""
    return _table_by(db, "screen", screen)


def deleted_table(db: Database, table_id: str) -> tuple[Table, str] | None:
    """(the table, when it was deleted) for a deleted table at this link, else None."""
    found = records.rows(
        db,
        f"SELECT {_COLUMNS}, deleted FROM tables WHERE id = ? AND deleted IS NOT NULL",
        [table_id],
    )
    return (records.read(Table, found[0]), found[0]["deleted"]) if found else None


def delete_table(db: Database, table_id: str) -> None:
    """Hide a table and, with it, each of its games still shown (store.delete_game)."""
    at = store.connection.now()
    with store.connection.transaction(db):
        db.execute("UPDATE tables SET deleted = ? WHERE id = ?", [at, table_id])
        db.execute(
            "INSERT OR IGNORE INTO deleted_games (game_id, at, with_table) "
            "SELECT game_id, ?, 1 FROM table_games WHERE table_id = ?",
            [at, table_id],
        )


def restore_table(db: Database, table_id: str) -> bool:
    """Bring back a deleted table with the games deleted with it (not those deleted before)."""
    with store.connection.transaction(db):
        cursor = db.execute(
            "UPDATE tables SET deleted = NULL WHERE id = ? AND deleted IS NOT NULL", [table_id]
        )
        db.execute(
            "DELETE FROM deleted_games WHERE with_table = 1 AND game_id IN "
            "(SELECT game_id FROM table_games WHERE table_id = ?)",
            [table_id],
        )
    return cursor.rowcount == 1


def renew_link(db: Database, table_id: str) -> str | None:
    """A new link for the table (its id, which every table row is keyed by) and for its
    screen (``/tv/``): the old ones stop working at once. Its ``view_id``, by which its games'
    histories name it, stays. None when there is no table at ``table_id`` any more."""
    new = new_key()
    with store.connection.transaction(db):
        renewed = db.execute(
            "UPDATE tables SET id = ?, screen = ? WHERE id = ?", [new, new_key(), table_id]
        )
        if renewed.rowcount != 1:
            return None
        for name in ("table_players", "table_aliases", "table_games", "nights", "seasons"):
            db.execute(f"UPDATE {name} SET table_id = ? WHERE table_id = ?", [new, table_id])
    return new


def set_time_zone(db: Database, table_id: str, time_zone: str) -> None:
    """The table's clock (an IANA name the caller has checked): every record of its games
    is dated on it from now on. Its games keep their times, stored in UTC."""
    with store.connection.transaction(db):
        db.execute("UPDATE tables SET time_zone = ? WHERE id = ?", [time_zone, table_id])


def time_zone_of_game(db: Database, game_id: str) -> str | None:
    """The clock a game is dated on: its table's while it is in one, else its own (None:
    neither was said, the server's). The game's own is read only for a game in no table:
    its column sits after the game's long texts."""
    row = db.execute(
        "SELECT CASE WHEN t.game_id IS NULL THEN g.time_zone ELSE "
        "(SELECT time_zone FROM tables WHERE id = t.table_id) END "
        "FROM games g LEFT JOIN table_games t ON t.game_id = g.id WHERE g.id = ?",
        [game_id],
    ).fetchone()
    return row[0] if row else None


def latest_game(db: Database, table_id: str) -> str | None:
    """The game the table started last: what its screen shows."""
    row = db.execute(
        "SELECT game_id FROM table_games t WHERE table_id = ? AND "
        f"{_SHOWN} ORDER BY added DESC, rowid DESC LIMIT 1",
        [table_id],
    ).fetchone()
    return row[0] if row else None


def table_of_game(db: Database, game_id: str) -> str | None:
    row = db.execute("SELECT table_id FROM table_games WHERE game_id = ?", [game_id]).fetchone()
    return row[0] if row else None


def game_ids(db: Database, table_id: str) -> list[str]:
    """The table's games, oldest first (not the deleted ones)."""
    rows = db.execute(
        f"SELECT game_id FROM table_games t WHERE table_id = ? AND {_SHOWN} ORDER BY added, rowid",
        [table_id],
    )
    return [row[0] for row in rows]


def game_versions(db: Database, table_id: str) -> list[tuple[str, int]]:
    """The table's games with their versions, oldest first (not the deleted ones)."""
    rows = db.execute(
        "SELECT t.game_id, g.version FROM table_games t JOIN games g ON g.id = t.game_id "
        f"WHERE t.table_id = ? AND {_SHOWN} ORDER BY t.added, t.rowid",
        [table_id],
    )
    return [(row[0], row[1]) for row in rows]


def games_page(db: Database, table_id: str, page: int, size: int) -> tuple[list[str], int]:
    """One page of the table's games, the latest played first (``page`` counts from 1), and
    how many games it has in all: a page reads ``size`` games, however many there are."""
    total = db.execute(
        f"SELECT count(*) FROM table_games t WHERE table_id = ? AND {_SHOWN}", [table_id]
    ).fetchone()[0]
    rows = db.execute(
        "SELECT t.game_id FROM table_games t JOIN games g ON g.id = t.game_id "
        f"WHERE t.table_id = ? AND {_SHOWN} ORDER BY g.updated DESC, g.rowid DESC "
        "LIMIT ? OFFSET ?",
        [table_id, size, (page - 1) * size],
    )
    return [row[0] for row in rows], total


def deleted_games(db: Database, table_id: str) -> list[tuple[str, str]]:
    """(game id, when deleted) of the table's games deleted one by one, newest first."""
    rows = db.execute(
        "SELECT d.game_id, d.at FROM table_games t JOIN deleted_games d ON d.game_id = t.game_id "
        "WHERE t.table_id = ? AND d.with_table = 0 ORDER BY d.at DESC, d.rowid DESC",
        [table_id],
    )
    return [(row[0], row[1]) for row in rows]


# SQL: the game of table_games row ``t`` is not deleted
_SHOWN = "NOT EXISTS (SELECT 1 FROM deleted_games d WHERE d.game_id = t.game_id)"


def roster(db: Database, table_id: str) -> list[RosterPlayer]:
    return records.many(
        db,
        RosterPlayer,
        f"SELECT {records.columns(RosterPlayer)} FROM table_players WHERE table_id = ? "
        "ORDER BY added, rowid",
        [table_id],
    )


def player_ids(db: Database, table_id: str) -> dict[str, str]:
    """Each name a game of the table may use (roster names and old spellings) -> the roster
    player's id, which stays the same through renames and merges."""
    rows = db.execute(
        "SELECT name, player_id FROM table_players WHERE table_id = ?", [table_id]
    ).fetchall()
    ids = {name: player_id for name, player_id in rows}
    for alias, name in aliases(db, table_id).items():
        if name in ids:
            ids.setdefault(alias, ids[name])
    return ids


def aliases(db: Database, table_id: str) -> dict[str, str]:
    """Old spelling -> roster name."""
    rows = db.query("SELECT alias, name FROM table_aliases WHERE table_id = ?", [table_id])
    return {r["alias"]: r["name"] for r in rows}


def _add_players(db: Database, table_id: str, names: list[str]) -> None:
    known = aliases(db, table_id)
    at = store.connection.now()
    for name in names:
        if name in known:
            continue
        db.execute(
            "INSERT OR IGNORE INTO table_players (table_id, name, retired, added, player_id) "
            "VALUES (?, ?, 0, ?, ?)",
            [table_id, name, at, new_key()],
        )


def file_game(
    db: Database, table_id: str, game_id: str, players: list[str], added: str | None = None
) -> None:
    """File a game under the table (moving it from any other) and add its players.

    Inside a transaction (a game being started) it is part of it. ``added``: when the
    game was started, for one brought back from a backup (else now).
    """
    with store.connection.transaction(db):
        db.table("table_games").upsert(
            {"game_id": game_id, "table_id": table_id, "added": added or store.connection.now()},
            pk="game_id",
        )
        _add_players(db, table_id, players)


def unfile_game(db: Database, game_id: str) -> None:
    """The game belongs to no table any more (a move into a table, undone)."""
    with store.connection.transaction(db):
        db.execute("DELETE FROM table_games WHERE game_id = ?", [game_id])


class RosterError(ValueError):
    """A roster change that cannot be made, in words for the table."""


def rename(db: Database, table_id: str, old: str, new: str) -> list[str]:
    """Rename a roster player; games under the old name keep counting for them.

    The new name goes through the name rule (RosterError says why not); the answer
    is a warning for each other player whose name looks the same on screen.
    """
    try:
        new = valid_name(new)
    except NameRefused as refused:
        raise RosterError(str(refused)) from None
    names = {p.name.casefold(): p.name for p in roster(db, table_id)}
    if old not in names.values():
        raise RosterError(_("%(player)s is not on this table's list of players", player=old))
    if new.casefold() in names and names[new.casefold()] != old:
        raise RosterError(_("%(player)s is already on the list: merge the two instead", player=new))
    with store.connection.transaction(db):
        db.execute(
            "UPDATE table_players SET name = ? WHERE table_id = ? AND name = ?",
            [new, table_id, old],
        )
        _point_aliases(db, table_id, old, new)
    return lookalikes_of(new, [name for name in names.values() if name != old])


def merge(db: Database, table_id: str, extra: str, into: str) -> None:
    """Two spellings of one person: ``extra`` leaves the roster, its games count for ``into``."""
    names = {p.name for p in roster(db, table_id)}
    for name in (extra, into):
        if name not in names:
            raise RosterError(_("%(player)s is not on this table's list of players", player=name))
    if extra == into:
        raise RosterError(_("Pick two different names to merge"))
    with store.connection.transaction(db):
        db.execute("DELETE FROM table_players WHERE table_id = ? AND name = ?", [table_id, extra])
        _point_aliases(db, table_id, extra, into)


def _point_aliases(db: Database, table_id: str, old: str, new: str) -> None:
    db.execute(
        "UPDATE table_aliases SET name = ? WHERE table_id = ? AND name = ?", [new, table_id, old]
    )
    db.execute("DELETE FROM table_aliases WHERE table_id = ? AND alias = ?", [table_id, new])
    if old != new:
        db.table("table_aliases").upsert(
            {"table_id": table_id, "alias": old, "name": new}, pk=("table_id", "alias")
        )


def set_retired(db: Database, table_id: str, name: str, retired: bool) -> None:
    """A retired player stays in the history but is not ticked for new games."""
    with store.connection.transaction(db):
        cursor = db.execute(
            "UPDATE table_players SET retired = ? WHERE table_id = ? AND name = ?",
            [int(retired), table_id, name],
        )
        if cursor.rowcount != 1:
            raise RosterError(_("%(player)s is not on this table's list of players", player=name))


def restore_roster(
    db: Database, table_id: str, players: list[tuple[str, bool]], old_names: dict[str, str]
) -> None:
    """The roster and merged spellings of an imported table, as they were."""
    with store.connection.transaction(db):
        db.execute("DELETE FROM table_players WHERE table_id = ?", [table_id])
        at = store.connection.now()
        for name, retired in players:
            db.execute(
                "INSERT OR IGNORE INTO table_players (table_id, name, retired, added, player_id) "
                "VALUES (?, ?, ?, ?, ?)",
                [table_id, name, int(retired), at, new_key()],
            )
        for alias, name in old_names.items():
            db.table("table_aliases").upsert(
                {"table_id": table_id, "alias": alias, "name": name}, pk=("table_id", "alias")
            )
