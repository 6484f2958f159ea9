"""What this phone or tablet remembers: the tables and games it created or opened.

Kept in the signed session cookie, so nothing is stored about a device on the
server and no device ever sees another's games. The newest come first; old
ones drop off so the cookie stays small.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, g, request, session

KEY = "device"
MAX_GAMES = 24
MAX_TABLES = 12


def _memory(data: Mapping[str, Any] | None = None) -> dict[str, list]:
    """What the session ``data`` (this request's session by default) remembers."""
    memory = (session if data is None else data).get(KEY)
    if not isinstance(memory, dict):
        memory = {}
    return {"g": list(memory.get("g", [])), "t": list(memory.get("t", []))}


def games() -> list[tuple[str, str | None]]:
    """(game id, edit key or None for a watched game), newest first."""
    return [(item[0], item[1] or None) for item in _memory()["g"] if len(item) == 2]


def table_ids() -> list[str]:
    return [item for item in _memory()["t"] if isinstance(item, str)]


def remember_game(game_id: str, edit_key: str | None) -> None:
    memory = _memory()
    if (games := _with_game(memory["g"], game_id, edit_key)) is not None:
        memory["g"] = games
        session[KEY] = memory


def remembers_first(data: Mapping[str, Any], game_id: str, edit_key: str) -> bool:
    """True when the session ``data`` already has this game first: opening it changes nothing."""
    return _with_game(_memory(data)["g"], game_id, edit_key) is None


def _with_game(games: list, game_id: str, edit_key: str | None) -> list | None:
    """The remembered games with this one first, or None if it already is."""
    known = dict((item[0], item[1]) for item in games if len(item) == 2)
    edit_key = edit_key or known.get(game_id) or ""  # watching later keeps the edit key
    entries = [[game_id, edit_key]] + [item for item in games if item[0] != game_id]
    if entries[: len(games)] != games or len(entries) != len(games):
        return entries[:MAX_GAMES]
    return None


def forget_watched(game_id: str) -> None:
    """Drop a watched game from this device; a game it keeps score of stays."""
    memory = _memory()
    entries = [item for item in memory["g"] if item[0] != game_id or item[1]]
    if entries != memory["g"]:
        memory["g"] = entries
        session[KEY] = memory


def remember_table(table_id: str) -> None:
    memory = _memory()
    entries = [table_id] + [item for item in memory["t"] if item != table_id]
    if entries != memory["t"]:
        memory["t"] = entries[:MAX_TABLES]
        session[KEY] = memory


def init_app(app: Flask) -> None:
    @app.after_request
    def remember_opened_game(response: Response) -> Response:
        if response.status_code >= 400 or request.method != "GET":
            return response
        # Only scorekeeper pages: watch pages set no cookie, so every watcher gets one cached
        # page; a watcher's device keeps the game through a request of its own (web/keep.py).
        stored = g.get("stored")
        if stored is not None:
            remember_game(stored.id, stored.edit_key)
        return response
