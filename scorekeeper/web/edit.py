"""The edit link: every /g/<game_id>/<key>/... page loads its game once, for the request.

The pages of the games, hands, history and export blueprints take the game's
id and edit key in their URL; the game is loaded into ``g.current`` (with
``g.stored`` and ``g.game``), and ``url_for`` fills in the same id and key for
links between these pages.
"""

from __future__ import annotations

from flask import Flask, abort, current_app, g

from .. import store
from ..i18n import _
from .db import NO_GAME, game_or_404

EDIT_BLUEPRINTS = {"games", "hands", "history", "export"}


def _is_edit_page(endpoint: str | None) -> bool:
    return endpoint is not None and endpoint.partition(".")[0] in EDIT_BLUEPRINTS


def init_app(app: Flask) -> None:
    @app.url_value_preprocessor
    def load_edit_game(endpoint, values):
        if _is_edit_page(endpoint) and values and "key" in values and "game_id" in values:
            current = game_or_404(values.pop("game_id"))
            if not store.edit_key_matches(current.stored, values.pop("key")):
                abort(404, _(NO_GAME))
            remember(current)

    @app.url_defaults
    def add_edit_key(endpoint, values):
        current = g.get("current")
        if (
            current is not None
            and "game_id" not in values
            and _is_edit_page(endpoint)
            and current_app.url_map.is_endpoint_expecting(endpoint, "game_id", "key")
        ):
            values.setdefault("game_id", current.stored.id)
            values.setdefault("key", current.stored.edit_key)


def remember(current) -> None:
    """Make ``current`` the request's game (after loading it, or after saving a change)."""
    g.current, g.stored, g.game = current, current.stored, current.game
