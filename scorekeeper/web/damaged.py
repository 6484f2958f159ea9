"""A game whose stored data cannot be read: a clear page naming it, never a bare 500.

``store.UnreadableGame`` is raised where a damaged row is read (``store.get_game``,
``StoredGame.state``, ``actions.load``); the rest of the file is served as usual.
"""

from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template

from .. import store
from ..i18n import _
from .errors import wants_json

STATUS = 503  # like a damaged file (web/storage.py): the server cannot serve it until restored


def init_app(app: Flask) -> None:
    @app.errorhandler(store.UnreadableGame)
    def unreadable_game(error: store.UnreadableGame):
        current_app.logger.error("%s", error)
        message = _(
            "Game %(game)s cannot be read: part of its stored data is damaged. Nothing was "
            "saved, and the other games are not affected. Whoever runs the scorekeeper can "
            "find every damaged game with scorekeeper check-db, and restore this one from a "
            "backup of the games file or a replica (scorekeeper restore), or import its game "
            "file again.",
            game=error.game_id,
        )
        if wants_json():
            return jsonify(error=message, game=error.game_id), STATUS
        title = _("This game cannot be opened")
        return render_template("error.html", code=STATUS, title=title, message=message), STATUS
