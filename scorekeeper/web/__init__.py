"""The web layer: one blueprint per resource, and the hooks every page shares.

docs/architecture.md has the table of which module answers which URL.

Layer: imports ``printing``, ``actions``, ``reports``, ``backup`` and ``store`` (to read:
every write goes through ``actions``), and what every layer may use (``rules``, ``i18n``,
``live``, ``clock``, ``codes``). Its blueprints (``web.blueprints``) import no other
blueprint, and its shared support imports none.
"""

from __future__ import annotations

from flask import Flask

from ..i18n import _
from ..rules.ranking import final_order
from ..store import schema, shards
from . import (
    access,
    assets,
    errors,
    forms,
    game_pages,
    keeper_fragments,
    language,
    live,
    proxy,
    security,
)
from .blueprints import (
    api,
    check_in,
    games,
    hands,
    healthz,
    home,
    moving,
    nights,
    phase_lists,
    players,
    printables,
    results,
    seasons,
    tables,
    tools,
    trash,
    watch,
)
from .blueprints import language as language_switch


def register(app: Flask) -> None:
    _shard(app)
    language.init_app(app)  # first: every later hook and page speaks the request's language
    access.init_app(app)
    tables.init_app(app)  # before CSRF, which reads the form
    security.init_app(app)
    errors.init_app(app)
    assets.init_app(app)
    game_pages.init_app(app)
    phase_lists.init_app(app)
    live.init_app(app)
    keeper_fragments.init_app(app)
    watch.init_app(app)  # the short code's converter, before the blueprint's route
    app.add_template_global(final_order)
    app.add_template_filter(forms.whole_number, "whole_number")  # the one reader, in templates
    for module in (
        language_switch,
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
        trash,
        moving,
        nights,
        seasons,
        check_in,
        results,
    ):
        app.register_blueprint(module.bp)
    security.limit_views(app)  # after the blueprints: it limits the views they marked
    proxy.behind_proxy(app)  # last: it reads each request before anything else


def _shard(app: Flask) -> None:
    """Every id and code this process makes names its shard (store/shards.py), if it is one."""
    shard = str(app.config.get("SHARD") or "")
    if shard and not shards.valid_name(shard):
        raise security.SettingError(
            _(
                "SCOREKEEPER_SHARD must be one letter or digit of the short codes' alphabet "
                "(2-9, A-Z without I, L, O and U), not %(value)s",
                value=repr(shard),
            )
        )
    schema.SHARD = shard
