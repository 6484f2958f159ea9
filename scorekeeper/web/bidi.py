"""Names in pages are isolated with <bdi>, so a right-to-left name cannot reorder the text.

Where markup cannot go (a page's <title>, an SVG label, an attribute), ``isolate``
wraps the name in Unicode's isolate marks instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Flask
from markupsafe import Markup, escape

from ..i18n import isolate


def bdi(name: object) -> Markup:
    return Markup("<bdi>%s</bdi>") % name


def bdi_join(names: Iterable[object], separator: str = ", ") -> Markup:
    return escape(separator).join(bdi(name) for name in names)


def init_app(app: Flask) -> None:
    app.jinja_env.filters["bdi"] = bdi
    app.jinja_env.filters["bdi_join"] = bdi_join
    app.jinja_env.filters["isolate"] = isolate
