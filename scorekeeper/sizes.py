"""What takes room in the games file: measured, estimated, and listed for whoever runs the
app (``scorekeeper biggest``).

What a game takes is what its writes added to the file's pages in use, measured in
the transaction that writes it (``used_bytes``, store.py) and kept in ``game_sizes``,
so listing the biggest tables reads no game. Before a game is written (a table's
backup, checked whole before its first write) it is estimated from its texts the way
SQLite lays a row out in pages (``stored_bytes``); tests/test_budget.py holds the
estimate to the measure.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

PAGE = 4096  # SQLite's page size, which the app never changes
# Beside its texts, a game's row holds its id, keys, dates and code, and its log's row its
# id, version, time and action; each game also has entries in six indexes and a row in
# game_sizes and table_games (measured: about 400 bytes in all).
ROW_EXTRA, LOG_EXTRA, GAME_EXTRA = 150, 60, 400


def used_bytes(db: Database) -> int:
    """The bytes of the file's pages in use (its pages less the free ones), as this
    connection's transaction sees them: what a write adds is the difference."""
    pages, free, size = db.execute(
        "SELECT * FROM pragma_page_count, pragma_freelist_count, pragma_page_size"
    ).fetchone()
    return int((pages - free) * size)


def stored_bytes(payload: int) -> int:
    """What a table row of ``payload`` bytes takes in the file, estimated as SQLite lays it
    out (its file format, "B-tree pages"): a row too long for one page keeps a part in its
    page and the rest in overflow pages of its own; rows that fit share a page, as many as
    fit, so a row just over half a page takes a whole one."""
    most, least = PAGE - 35, (PAGE - 12) * 32 // 255 - 23  # in its page, when it overflows
    local, overflow = payload, 0
    if payload > most:
        kept = least + (payload - least) % (PAGE - 4)
        local = kept if kept <= most else least
        overflow = -(-(payload - local) // (PAGE - 4))
    cell = local + 6 + (4 if overflow else 0)  # its length, its rowid, its place in the page
    return PAGE // max(1, (PAGE - 8) // cell) + overflow * PAGE


def game_bytes(row: int, log: int) -> int:
    """A new game's estimate: its row's texts (``row`` bytes), its first change's (``log``)."""
    return stored_bytes(row + ROW_EXTRA) + stored_bytes(log + LOG_EXTRA) + GAME_EXTRA


@dataclass(frozen=True)
class Holder:
    """A table (or, with ``table_id`` None, every game in no table) and what it takes."""

    table_id: str | None
    name: str
    games: int
    size: int  # bytes, deleted games included until they are purged
    last_played: str | None
    deleted: str | None  # when the table was deleted (it is purged a week later)


def biggest(db: Database, count: int = 10) -> list[Holder]:
    """The ``count`` tables that take the most room, biggest first, then the games in no
    table together."""
    rows = db.execute(
        "SELECT t.id, t.name, count(s.game_id), coalesce(sum(s.row_bytes + s.log_bytes), 0), "
        "max(g.updated), t.deleted FROM tables t "
        "LEFT JOIN table_games tg ON tg.table_id = t.id "
        "LEFT JOIN game_sizes s ON s.game_id = tg.game_id "
        "LEFT JOIN games g ON g.id = tg.game_id "
        "GROUP BY t.id ORDER BY 4 DESC, t.created LIMIT ?",
        [count],
    ).fetchall()
    found = [Holder(*row) for row in rows]
    alone = db.execute(
        "SELECT count(*), coalesce(sum(s.row_bytes + s.log_bytes), 0), max(g.updated) "
        "FROM games g JOIN game_sizes s ON s.game_id = g.id "
        "WHERE NOT EXISTS (SELECT 1 FROM table_games tg WHERE tg.game_id = g.id)"
    ).fetchone()
    if alone[0]:
        found.append(Holder(None, "", alone[0], alone[1], alone[2], None))
    return found
