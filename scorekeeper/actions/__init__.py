"""Actions: the one write path. Every change to stored data is a function here, one module
per resource, answering with a result value (``results``).

Layer: imports ``reports``, ``backup``, ``store``, ``live``, ``rules``, ``i18n`` and the
shared ``clock`` and ``codes``; imported by ``web``, ``cli``, ``serve`` and the app factory.
"""

from . import (
    check_in,
    games,
    hands,
    links,
    moving,
    nights,
    points,
    results,
    saving,
    seasons,
    table_import,
    tables,
    trash,
    undo,
)

__all__ = [
    "check_in",
    "games",
    "hands",
    "links",
    "moving",
    "nights",
    "points",
    "results",
    "saving",
    "seasons",
    "table_import",
    "tables",
    "trash",
    "undo",
]
