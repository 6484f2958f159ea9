"""The web layer: one blueprint per resource, and the hooks every page shares.

docs/architecture.md has the table of which module answers which URL.
"""

from __future__ import annotations

from flask import Flask

from ..rules.ranking import final_order
from . import (
    access,
    api,
    assets,
    errors,
    games,
    hands,
    healthz,
    home,
    language,
    live,
    phase_lists,
    players,
    printables,
    proxy,
    security,
    tables,
    tools,
    watch,
)


def register(app: Flask) -> None:
    language.init_app(app)  # first: every later hook and page speaks the request's language
    access.init_app(app)
    tables.init_app(app)  # before CSRF, which reads the form
    security.init_app(app)
    errors.init_app(app)
    assets.init_app(app)
    games.init_app(app)
    phase_lists.init_app(app)
    live.htmx.init_app(app)
    watch.init_app(app)  # the short code's converter, before the blueprint's route
    app.add_template_global(final_order)
    for module in (
        home,
        games,
        hands,
        watch,
        players,
        tables,
        tools,
        phase_lists,
        api,
        printables,
        healthz,
    ):
        app.register_blueprint(module.bp)
    security.limit_views(app)  # after the blueprints: it limits the views they marked
    proxy.behind_proxy(app)  # last: it reads each request before anything else
