"""Watch pages answered before Flask, with the app's own answer kept per game version.

A watch page (`/v/<game>`, `/v/<game>/table`) and the watchers' scoreboard
(`/v/<game>/live`) are the same for every phone that asks for the same version
of a game. The app renders each once per version (web/versioned.py); what was
left per request was Flask's own work: the request context, the session, every
hook. So the first answer for a version goes through the app as usual, and the
view marks it as one every phone may share (``share``). This WSGI middleware
keeps that answer, status, headers and body exactly as the app sent them, and
gives it to the next phones asking for the same page while the game is still at
that version: one SQLite lookup of the version (as web/idle_polls.py does) and a
dictionary hit.

What keeps it correct:

- The version is looked up for every request; a kept answer for any other
  version is never sent, so every change shows as soon as it is saved.
- Only requests without a cookie are answered from a kept copy, and only an
  answer the app gave without setting a cookie or varying on one is kept: a
  phone carrying the app's cookie always goes through the app, which may
  remember the game on it or show it a note.
- Copies are kept per path and query, and per ``variant`` of the request:
  whether it takes gzip, and its language (``language``).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from flask import request

from .. import store

WATCH = re.compile(r"/v/([\w-]{1,64})(?:/table|/live)?")
MARK = "scorekeeper.shared_version"
KEEP = 256  # answers kept: a few per version of the games being watched
SHAREABLE_VARY = {"accept-encoding", "accept-language"}


def share(version: int) -> None:
    """Mark this request's answer as the same for every phone while the game is at ``version``."""
    request.environ[MARK] = version


def language(environ: dict[str, Any]) -> str:
    """The language part of a kept answer's key.

    The phone's Accept-Language as sent: whatever language the app picks from
    it, phones sending the same header get the same page. A language chosen
    from a cookie needs nothing here (requests with cookies go to the app); one
    chosen from anything else in the request must be added here.
    """
    return environ.get("HTTP_ACCEPT_LANGUAGE", "")


def variant(environ: dict[str, Any]) -> tuple[str, ...]:
    """What of a request, besides its path and query, the app's answer may depend on."""
    gzip = "gzip" in environ.get("HTTP_ACCEPT_ENCODING", "")
    return (environ.get("QUERY_STRING", ""), "gzip" if gzip else "", language(environ))


@dataclass(frozen=True)
class Answer:
    version: int
    status: str
    headers: list[tuple[str, str]]
    body: bytes


class SharedPages:
    def __init__(self, app: Callable[..., Iterable[bytes]], database: str) -> None:
        self.app = app
        self.database = database
        self.kept: OrderedDict[tuple, Answer] = OrderedDict()
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if (
            environ.get("REQUEST_METHOD") != "GET"
            or "HTTP_COOKIE" in environ
            or not (match := WATCH.fullmatch(path))
        ):
            return self.app(environ, start_response)
        key = (path, *variant(environ))
        with self.lock:
            kept = self.kept.get(key)
        if kept is not None and kept.version == self._version(match[1]):
            start_response(kept.status, kept.headers)
            return [kept.body]
        return self._through_the_app(key, environ, start_response)

    def _version(self, game_id: str) -> int | None:
        try:
            return store.game_version(store.connect(self.database), game_id)
        except sqlite3.Error:  # the app answers with its clear 503 page (web/storage.py)
            return None

    def _through_the_app(
        self, key: tuple, environ: dict[str, Any], start_response: Callable
    ) -> Iterable[bytes]:
        """Let the app answer, and keep its answer if the view shared it."""
        sent: list[Any] = []

        def capture(status: str, headers: list[tuple[str, str]], exc_info=None):
            sent[:] = [status, headers]
            return start_response(status, headers, exc_info)

        answer = self.app(environ, capture)
        version = environ.get(MARK)
        if version is None or not sent or not _shareable(sent[1]):
            return answer
        try:
            body = b"".join(answer)
        finally:
            if hasattr(answer, "close"):
                answer.close()
        with self.lock:
            self.kept[key] = Answer(version, sent[0], list(sent[1]), body)
            self.kept.move_to_end(key)
            while len(self.kept) > KEEP:
                self.kept.popitem(last=False)
        return [body]


def _shareable(headers: list[tuple[str, str]]) -> bool:
    """An answer that sets no cookie and depends on nothing but what ``variant`` keys on."""
    for name, value in headers:
        name = name.lower()
        if name == "set-cookie":
            return False
        if name == "vary" and not {v.strip().lower() for v in value.split(",")} <= SHAREABLE_VARY:
            return False
    return True
