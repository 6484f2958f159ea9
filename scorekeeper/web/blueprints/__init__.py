"""The blueprints: one module per resource, each a thin adapter that checks the link,
reads the request, calls an action or a report and renders a page or its fragment.

Layer: imports the web layer's shared support (``scorekeeper.web``'s other modules),
``printing``, ``actions``, ``reports``, ``backup``, ``store`` (reads), ``live``, ``rules``,
``i18n``, ``clock`` and ``codes``; never another blueprint, and it writes only through
``actions``.
"""
