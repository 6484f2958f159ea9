"""Is the games file whole? A quick check before serving, so damage is found at once."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path


def damage(path: str | Path) -> str | None:
    """None when the database is whole (or not created yet), else what SQLite found wrong."""
    path = Path(path)
    if not path.exists() or path.stat().st_size == 0:
        return None
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
            rows = conn.execute("PRAGMA quick_check(5)").fetchall()
    except sqlite3.DatabaseError as error:
        return str(error)
    found = [row[0] for row in rows]
    return None if found == ["ok"] else "; ".join(found)
