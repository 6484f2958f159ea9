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
  answer the app gave a phone without one, setting none, is kept: a phone
  carrying the app's cookie always goes through the app, which may remember
  the game on it, speak the language it picked or show it a note. If the
  app ever sets a cookie on a first visit to a watch page, nothing is kept
  and every phone goes through the app again: slower, never wrong.
- Copies are kept per path and query and, as an HTTP cache keeps them, per
  value of each request header the answer says it varies on (``Vary``):
  Accept-Encoding, and Accept-Language, which chooses the page's language for
  a phone without the language cookie.
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
KEEP = 256  # answers kept in all: a few per page of the games being watched (a few KB each)


def share(version: int) -> None:
    """Mark this request's answer as the same for every phone while the game is at ``version``."""
    request.environ[MARK] = version


@dataclass(frozen=True)
class Answer:
    """The app's answer, and the request headers it was made for (those it says it varies on)."""

    version: int
    vary: tuple[tuple[str, str], ...]  # (environ key, value) of each header in its Vary
    status: str
    headers: list[tuple[str, str]]
    body: bytes

    def fits(self, environ: dict[str, Any], version: int | None) -> bool:
        return version == self.version and all(environ.get(k, "") == v for k, v in self.vary)


class SharedPages:
    def __init__(self, app: Callable[..., Iterable[bytes]], database: str) -> None:
        self.app = app
        self.database = database
        self.kept: OrderedDict[tuple[str, str], tuple[Answer, ...]] = OrderedDict()
        self.count = 0  # answers in self.kept
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if (
            environ.get("REQUEST_METHOD") != "GET"
            or "HTTP_COOKIE" in environ
            or not (match := WATCH.fullmatch(path))
        ):
            return self.app(environ, start_response)
        key = (path, environ.get("QUERY_STRING", ""))
        with self.lock:
            answers = self.kept.get(key, ())
            if answers:
                self.kept.move_to_end(key)
        if answers:
            version = self._version(match[1])
            for answer in answers:
                if answer.fits(environ, version):
                    start_response(answer.status, answer.headers)
                    return [answer.body]
        return self._through_the_app(key, environ, start_response)

    def _version(self, game_id: str) -> int | None:
        try:
            return store.game_version(store.connect(self.database), game_id)
        except sqlite3.Error:  # the app answers with its clear 503 page (web/storage.py)
            return None

    def _through_the_app(
        self, key: tuple[str, str], environ: dict[str, Any], start_response: Callable
    ) -> Iterable[bytes]:
        """Let the app answer, and keep its answer if the view shared it."""
        answer, sent = answered(self.app, environ, start_response)
        version: int | None = environ.get(MARK)
        vary = _vary(sent[1]) if version is not None and sent else None
        if version is None or vary is None:
            return answer
        try:
            body = b"".join(answer)
        finally:
            if hasattr(answer, "close"):
                answer.close()
        made_for = tuple((name, environ.get(name, "")) for name in vary)
        kept = Answer(version, made_for, sent[0], list(sent[1]), body)
        with self.lock:
            others = [a for a in self.kept.get(key, ()) if a.vary != made_for]
            self.count -= len(self.kept.get(key, ()))
            self.kept[key] = (kept, *others[: VARIANTS - 1])
            self.count += len(self.kept[key])
            self.kept.move_to_end(key)
            while self.count > KEEP:
                self.count -= len(self.kept.popitem(last=False)[1])
        return [body]


def answered(
    app: Callable[..., Iterable[bytes]], environ: dict[str, Any], start_response: Callable
) -> tuple[Iterable[bytes], list[Any]]:
    """The app's answer, and the status and headers it started it with (empty if none yet)."""
    sent: list[Any] = []

    def capture(status: str, headers: list[tuple[str, str]], exc_info=None):
        sent[:] = [status, headers]
        return start_response(status, headers, exc_info)

    return app(environ, capture), sent


VARIANTS = 8  # per page: gzip or not, times the languages phones ask in


def _vary(headers: list[tuple[str, str]]) -> tuple[str, ...] | None:
    """The environ keys of the request headers an answer varies on; None if it may not be kept.

    An answer that sets a cookie is never kept. One that varies on Cookie is
    kept for phones without one, the only ones answered from a copy.
    """
    names: list[str] = []
    for name, value in headers:
        if name.lower() == "set-cookie":
            return None
        if name.lower() == "vary":
            if "*" in value:
                return None
            names += ["HTTP_" + v.strip().upper().replace("-", "_") for v in value.split(",")]
    return tuple(dict.fromkeys(name for name in names if name != "HTTP_"))
