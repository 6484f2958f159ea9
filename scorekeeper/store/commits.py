"""What each commit changed, as the keys live pages listen on: a game's id, ``table:<id>``
for a table's screen, ``night:<id>`` for a night's pages, ``season:<id>`` for a season's.
Read from new rows by their position, never by a scan (``games_file`` asks once per commit).
"""

from __future__ import annotations

import sqlite3
from typing import Any


def table_key(table_id: str) -> str:
    """What a table's screen listens on (a game's pages listen on the game's id)."""
    return f"table:{table_id}"


Mark = tuple[int, int, int, int, int]


def night_key(night_id: str) -> str:
    """What a night's pages listen on: its own changes and its games' (nights.py)."""
    return f"night:{night_id}"


def season_key(season_id: str) -> str:
    """What a season's pages listen on: its own changes, its nights' and their games'."""
    return f"season:{season_id}"


def changed(conn: sqlite3.Connection, mark: Mark | None) -> tuple[set[str], Mark]:
    """The keys the commits since ``mark`` changed, and the mark after them: new rows of the
    change log (a game's every version), of players' sendings, of tables' games and of
    nights' and seasons' changes, each read by its position (rowid), never by a scan. A
    changed game's pages, the game it follows (whose pages follow it), its table's screen,
    its night's pages and its season's listen."""
    now: Mark = conn.execute(
        "SELECT (SELECT coalesce(max(rowid), 0) FROM changes), "
        "(SELECT coalesce(max(id), 0) FROM hand_entries), "
        "(SELECT coalesce(max(rowid), 0) FROM table_games), "
        "(SELECT coalesce(max(id), 0) FROM night_changes), "
        "(SELECT coalesce(max(id), 0) FROM season_changes)"
    ).fetchone()
    if mark is None:
        return set(), now

    def column(sql: str, *args: Any) -> set[str]:
        return {row[0] for row in conn.execute(sql, args)}

    games = column("SELECT game_id FROM changes WHERE rowid > ?", mark[0])
    games |= column("SELECT game_id FROM hand_entries WHERE id > ?", mark[1])
    tables = column("SELECT table_id FROM table_games WHERE rowid > ?", mark[2])
    nights = column("SELECT night_id FROM night_changes WHERE id > ?", mark[3])
    seasons = column("SELECT season_id FROM season_changes WHERE id > ?", mark[4])
    if games:
        found = sorted(games)
        marks = ",".join("?" * len(found))
        games |= column(f"SELECT follows FROM games WHERE id IN ({marks})", *found) - {None}
        tables |= column(f"SELECT table_id FROM table_games WHERE game_id IN ({marks})", *found)
        nights |= column(f"SELECT night_id FROM night_games WHERE game_id IN ({marks})", *found)
    if nights:
        found = sorted(nights)
        marks = ",".join("?" * len(found))
        seasons |= column(
            f"SELECT season_id FROM season_nights WHERE night_id IN ({marks})", *found
        )
    return (
        games
        | {table_key(table) for table in tables}
        | {night_key(night) for night in nights}
        | {season_key(season) for season in seasons}
    ), now
