"""What takes room in the games file, for whoever runs the app (``scorekeeper biggest``).

Read from ``game_sizes`` (kept as each game is written, store/), so listing the
biggest tables reads no game.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from ..store import records


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
    found = records.many(
        db,
        Holder,
        "SELECT t.id AS table_id, t.name, count(s.game_id) AS games, "
        "coalesce(sum(s.row_bytes + s.log_bytes), 0) AS size, max(g.updated) AS last_played, "
        "t.deleted FROM tables t "
        "LEFT JOIN table_games tg ON tg.table_id = t.id "
        "LEFT JOIN game_sizes s ON s.game_id = tg.game_id "
        "LEFT JOIN games g ON g.id = tg.game_id "
        "GROUP BY t.id ORDER BY size DESC, t.created LIMIT ?",
        [count],
    )
    alone = records.one(
        db,
        Holder,
        "SELECT NULL AS table_id, '' AS name, count(*) AS games, "
        "coalesce(sum(s.row_bytes + s.log_bytes), 0) AS size, max(g.updated) AS last_played, "
        "NULL AS deleted FROM games g JOIN game_sizes s ON s.game_id = g.id "
        "WHERE NOT EXISTS (SELECT 1 FROM table_games tg WHERE tg.game_id = g.id)",
    )
    if alone is not None and alone.games:
        found.append(alone)
    return found
