"""Ready to serve: load what requests need, then take it out of the garbage collector's way.

Python's cyclic garbage collector now and then walks every container object
the process holds. With the app's templates, catalogues and the languages'
locale data loaded that is tens of thousands of objects, and a full walk took
45-60 ms during which no request moved: under load, the slowest recorded hands
were the ones that met one (docs/benchmarks.md). What is loaded at start stays
for the life of the process, so the server loads it first and then freezes it
(``gc.freeze``): later collections walk only what requests made since.
"""

from __future__ import annotations

import gc

from babel import localedata
from flask import Flask

from .. import i18n


def ready(app: Flask) -> Flask:
    """Compile every template, load every language, and freeze what is loaded so far."""
    for name in app.jinja_env.list_templates(extensions=["html"]):
        app.jinja_env.get_template(name)
    for language in i18n.LANGUAGES:
        i18n.catalogue(language)
        localedata.load(language)
    gc.collect()
    gc.freeze()
    return app
