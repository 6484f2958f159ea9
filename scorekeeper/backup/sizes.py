"""What takes room in the games file, for whoever runs the app (``scorekeeper biggest``).

Read from ``game_sizes`` (kept as each game is written, store/), so listing the
biggest tables reads no game.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database


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
