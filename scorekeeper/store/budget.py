"""The storage budget: what one game and one table may take of the games file, checked
before a change is written (docs/storage.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from weakref import WeakKeyDictionary

from sqlite_utils import Database

from . import records


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
    """The bytes these texts take stored (UTF-8), as schema.ROW_BYTES and LOG_BYTES count."""
    return sum(len(text.encode()) for text in texts if text is not None)


@dataclass(frozen=True)
class GameSize:
    """What one game takes in the file (``game_sizes``), kept as it is written."""

    game_id: str
    row_bytes: int = 0  # its ``games`` row's texts: its game file, standings and kept
    log_bytes: int = 0  # every row of its log in ``changes``


def sizes(db: Database, game_id: str) -> GameSize:
    """What the game takes now (nothing, before it is written)."""
    found = records.one(
        db,
        GameSize,
        "SELECT game_id, coalesce(row_bytes, 0) AS row_bytes, "
        "coalesce(log_bytes, 0) AS log_bytes FROM game_sizes WHERE game_id = ?",
        [game_id],
    )
    return found or GameSize(game_id)


def add_sizes(db: Database, written: GameSize) -> None:
    """A game written: its row now takes ``written.row_bytes``, and its log
    ``written.log_bytes`` more than it did (a new game: all of its log)."""
    records.insert(
        db,
        "game_sizes",
        records.row(written),
        on_conflict="(game_id) DO UPDATE SET row_bytes = excluded.row_bytes, "
        "log_bytes = log_bytes + excluded.log_bytes",
    )


def game_size(db: Database, game_id: str) -> int:
    """The bytes a game takes: its row and its whole log."""
    found = sizes(db, game_id)
    return found.row_bytes + found.log_bytes


def table_size(db: Database, table_id: str) -> int:
    """The bytes a table's games take (deleted ones too, until they are purged)."""
    row = db.execute(
        "SELECT coalesce(sum(s.row_bytes + s.log_bytes), 0) FROM table_games t "
        "JOIN game_sizes s ON s.game_id = t.game_id WHERE t.table_id = ?",
        [table_id],
    ).fetchone()
    return int(row[0])


def check_room(db: Database, game_id: str | None, after: int, grows_by: int) -> None:
    """Raise OverBudget before a write that grows a game past its budget, or its table past
    its own; a write that frees room is always let through."""
    if grows_by <= 0:
        return
    most = budget(db)
    if after > most.game:
        raise OverBudget("game", most.game)
    table_id = None
    if game_id is not None:
        found = db.execute(
            "SELECT table_id FROM table_games WHERE game_id = ?", [game_id]
        ).fetchone()
        table_id = found[0] if found else None
    if table_id is not None and table_size(db, table_id) + grows_by > most.table:
        raise OverBudget("table", most.table)


def room_for(
    db: Database, table_id: str | None, sizes: list[int], *, new_table: bool = False
) -> None:
    """Raise OverBudget unless games of these sizes fit: each in a game's budget, and all of
    them in the budget of the table ``table_id`` (or of a ``new_table`` they make)."""
    most = budget(db)
    if any(size > most.game for size in sizes):
        raise OverBudget("game", most.game)
    if table_id is None and not new_table:
        return
    if sum(sizes) + (table_size(db, table_id) if table_id else 0) > most.table:
        raise OverBudget("table", most.table)
