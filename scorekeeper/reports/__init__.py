"""Reports: read models, what the pages, printables and the command line show. A game as
last written (``current_game``), a table's statistics and figures, a night's standings, a
change's words in the history, a finished game for BG Stats, the games file's health.
They read; they never write.

Layer: imports ``backup`` (a table's backup is one of its figures), ``store``, ``live``,
``rules``, ``i18n`` and the shared ``clock`` and ``codes``.
"""
