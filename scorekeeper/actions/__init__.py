"""Actions: the one write path. Every change to stored data is a function here, one module
per resource, answering with a result value (``results``).

Layer: imports ``reports``, ``backup``, ``store``, ``live``, ``rules``, ``i18n`` and the
shared ``clock`` and ``codes``; imported by ``web``, ``cli``, ``serve`` and the app factory.
"""

from . import (
    games,
    hands,
    links,
    moving,
    nights,
    points,
    results,
    saving,
    table_import,
    tables,
    trash,
    undo,
)

__all__ = [
    "games",
    "hands",
    "links",
    "moving",
    "nights",
    "points",
    "results",
    "saving",
    "table_import",
    "tables",
    "trash",
    "undo",
]
