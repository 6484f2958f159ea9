"""The storage budget: what one game and one table may take of the games file (docs/storage.md).

What a game takes is what its writes added to the file's pages in use, measured in the
transaction that writes it (``used_bytes``) and kept in ``game_sizes``, so checking a
budget, or listing the biggest tables (``backup.sizes``), reads no game. Before a game is
written (a table's backup, checked whole before its first write) it is estimated from its
texts the way SQLite lays a row out in pages (``stored_bytes``); tests/test_budget.py holds
the estimate to the measure.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from sqlite_utils import Database

PAGE = 4096  # SQLite's page size, which the app never changes
# Beside its texts, a game's row holds its id, keys, dates and code, and its log's row its
# id, version, time and action; each game also has entries in six indexes and a row in
# game_sizes and table_games (measured: about 400 bytes in all).
ROW_EXTRA, LOG_EXTRA, GAME_EXTRA = 150, 60, 400


@dataclass(frozen=True)
class Budget:
    """The most one game, and one table with all its games, may take in the file: one family
    cannot crowd out the others (docs/storage.md). Set per connection by the web layer from
    ``MAX_GAME_BYTES`` and ``MAX_TABLE_BYTES``."""

    game: int = 8 * 1024**2
    table: int = 64 * 1024**2


class OverBudget(Exception):
    """A write that would take the game (``what`` = "game") or its table past its budget."""

    def __init__(self, what: str, most: int) -> None:
        self.what, self.most = what, most
        super().__init__(f"the {what} would take more than {most} bytes")


_budgets: WeakKeyDictionary[Database, Budget] = WeakKeyDictionary()


def set_budget(db: Database, budget: Budget) -> None:
    _budgets[db] = budget


def budget(db: Database) -> Budget:
    return _budgets.get(db) or Budget()


def size_of(*texts: str | None) -> int:
    """The bytes these texts take encoded (UTF-8): what a row holds, before SQLite lays it
    out in pages (``stored_bytes``)."""
    return sum(len(text.encode()) for text in texts if text is not None)


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
class GameSize:
    """What one game takes in the file (``game_sizes``), measured as it is written."""

    game_id: str
    row_bytes: int = 0  # what its ``games`` row takes
    log_bytes: int = 0  # what every row of its log in ``changes`` takes


def charge(db: Database, written: GameSize) -> None:
    """Add what a write measured to the game's row and log (a row may shrink: an undo to a
    shorter version gives room back)."""
    db.execute(
        "INSERT INTO game_sizes (game_id, row_bytes, log_bytes) VALUES (?, max(0, ?), max(0, ?)) "
        "ON CONFLICT (game_id) DO UPDATE SET row_bytes = max(0, row_bytes + excluded.row_bytes), "
        "log_bytes = max(0, log_bytes + ?)",
        [written.game_id, written.row_bytes, written.log_bytes, written.log_bytes],
    )


@contextmanager
def charging(db: Database, game_id: str) -> Iterator[None]:
    """Inside a transaction: what the writes inside add to the file (a new game filed in
    its table, its players on the roster) is charged to the game, as its own rows are."""
    before = used_bytes(db)
    yield
    charge(db, GameSize(game_id, used_bytes(db) - before, 0))


def game_size(db: Database, game_id: str) -> int:
    """The bytes a game takes in the file: its row and its whole log."""
    row = db.execute(
        "SELECT row_bytes + log_bytes FROM game_sizes WHERE game_id = ?", [game_id]
    ).fetchone()
    return int(row[0] or 0) if row else 0


def table_size(db: Database, table_id: str) -> int:
    """The bytes a table's games take in the file (deleted ones too, until purged)."""
    row = db.execute(
        "SELECT coalesce(sum(s.row_bytes + s.log_bytes), 0) FROM table_games t "
        "JOIN game_sizes s ON s.game_id = t.game_id WHERE t.table_id = ?",
        [table_id],
    ).fetchone()
    return int(row[0])


def _table_of(db: Database, game_id: str) -> str | None:
    found = db.execute("SELECT table_id FROM table_games WHERE game_id = ?", [game_id]).fetchone()
    return found[0] if found else None


def check_room(db: Database, game_ids: list[str]) -> None:
    """After writing these games (and filing them in their table), before the commit:
    OverBudget if what they measured takes one of them or its table past its budget, so
    the transaction writes nothing."""
    most = budget(db)
    if any(game_size(db, game_id) > most.game for game_id in game_ids):
        raise OverBudget("game", most.game)
    found = {_table_of(db, game_id) for game_id in game_ids} - {None}
    if any(table_size(db, table_id) > most.table for table_id in found if table_id):
        raise OverBudget("table", most.table)


def room_for(
    db: Database, table_id: str | None, estimates: list[int], *, new_table: bool = False
) -> None:
    """Raise OverBudget unless games of these sizes (``NewGame.size``: estimated) fit: each
    in a game's budget, and all of them in the budget of the table ``table_id`` (or of a
    ``new_table`` they make)."""
    most = budget(db)
    if any(size > most.game for size in estimates):
        raise OverBudget("game", most.game)
    if table_id is None and not new_table:
        return
    if sum(estimates) + (table_size(db, table_id) if table_id else 0) > most.table:
        raise OverBudget("table", most.table)
