"""The idle poll, answered before Flask.

Every phone showing a game asks every few seconds whether it changed, and
nearly always it has not: that 304 is the request the app answers most. It
needs only the game's version (and, for the scorekeeper's poll, the edit key),
so this WSGI middleware answers it from one SQLite lookup without building a
Flask request. Anything else, including a poll whose game did change, goes on
to the app (web/share.py), which answers exactly the same way.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any

from .. import store

WATCH = re.compile(r"/v/([\w-]{1,64})/live")
KEEPER = re.compile(r"/g/([\w-]{1,64})/([\w-]{1,64})/live")
HEADERS = [("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff")]


class IdlePolls:
    def __init__(self, app: Callable[..., Iterable[bytes]], database: str) -> None:
        self.app = app
        self.database = database

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        etag = environ.get("HTTP_IF_NONE_MATCH")
        if etag and environ.get("REQUEST_METHOD") == "GET":
            try:
                version = self._version(environ.get("PATH_INFO", ""))
            except sqlite3.Error:  # the app answers with its clear 503 page (web/storage.py)
                version = None
            if version is not None and etag == f'"v{version}"':
                start_response("304 Not Modified", [("ETag", etag), *HEADERS])
                return []
        return self.app(environ, start_response)

    def _version(self, path: str) -> int | None:
        if match := WATCH.fullmatch(path):
            return store.game_version(store.connect(self.database), match[1])
        if match := KEEPER.fullmatch(path):
            return store.edit_version(store.connect(self.database), match[1], match[2])
        return None
