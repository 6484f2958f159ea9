"""The one database accessor, and loading a game for a page."""

from __future__ import annotations

from flask import Flask, abort, current_app, g
from sqlite_utils import Database

from .. import actions, store
from ..i18n import _

NO_GAME = actions.NO_GAME  # marked for translation; say it with _(NO_GAME)


def db() -> Database:
    """This thread's connection to the app's database (reused across requests)."""
    if "db" not in g:
        g.db = store.connect(current_app.config["DATABASE"])
    return g.db


def game_or_404(game_id: str) -> actions.Current:
    """The game with its kept standings, or the friendly 404."""
    current = actions.load(db(), game_id)
    if current is None:
        abort(404, _(NO_GAME))
    return current


def init_app(app: Flask) -> None:
    @app.teardown_appcontext
    def end_request(_error: BaseException | None) -> None:
        """Never leave a transaction open on a connection the next request reuses."""
        database = g.pop("db", None)
        if database is not None and database.conn.in_transaction:
            database.conn.rollback()
