"""Ready to serve: load what requests need, then take it out of the garbage collector's way.

Python's cyclic garbage collector now and then walks every container object
the process holds. With the app's templates, catalogues and the languages'
locale data loaded that is tens of thousands of objects, and a full walk took
45-60 ms during which no request moved: under load, the slowest recorded hands
were the ones that met one (docs/benchmarks.md). What is loaded at start stays
for the life of the process, so the server loads it first and then freezes it
(``gc.freeze``): later collections walk only what requests made since.

Each line the app logs is written once: Flask gives the app's logger a handler
of its own, and a server that calls ``logging.basicConfig`` gives the root logger
one, to which every record also goes, so every error appeared twice.
"""

from __future__ import annotations

import gc
import logging

from babel import localedata
from flask import Flask
from flask.logging import default_handler

from .. import i18n

LOG_FORMAT = "[%(asctime)s] %(levelname)s in %(module)s: %(message)s"  # Flask's own


def log_once(app: Flask) -> None:
    """One handler for the app's lines: the root logger's, in Flask's format (a later
    ``basicConfig`` then finds it set up and adds none; gunicorn's loggers keep theirs)."""
    logging.basicConfig(format=LOG_FORMAT)
    app.logger.removeHandler(default_handler)


def ready(app: Flask) -> Flask:
    """Log each line once, compile every template, load every language, and freeze what is
    loaded so far."""
    log_once(app)
    for name in app.jinja_env.list_templates(extensions=["html"]):
        app.jinja_env.get_template(name)
    for language in i18n.LANGUAGES:
        i18n.catalogue(language)
        localedata.load(language)
    gc.collect()
    gc.freeze()
    return app
