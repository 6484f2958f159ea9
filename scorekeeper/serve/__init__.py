"""Serve: running the app for phones. gevent's server with its caps (``server``), several
processes through gunicorn (``workers``), what a process loads before its first request
(``warm_up``), and HAProxy in front of several shards (``haproxy``).

Layer: the top, beside the command line: imports the app factory, ``web``, ``actions``,
``backup`` and ``store``, and what every layer may use (``rules``, ``i18n``, ``live``,
``clock``, ``codes``).
"""
