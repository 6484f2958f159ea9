"""Store: the SQLite files in the data folder. A game is a log of changes with its current
standings kept; tables, nights and the points players send sit beside it. One module per
stored record (each declared once, a dataclass read and written by its columns' names:
``records.py``), the connection and its transactions, the schema and its migrations.

Layer: imports ``live`` (word of each commit), ``rules``, ``i18n`` and the shared ``clock``
and ``codes``; never a layer above. Only ``actions`` (and the command line's maintenance)
write through it.
"""

from . import budget, commits, connection, games, history

__all__ = ["budget", "commits", "connection", "games", "history"]
