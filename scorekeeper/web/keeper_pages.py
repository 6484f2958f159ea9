"""The scorekeeper's page answered before Flask, from the pieces kept for its version.

The scorekeeper's page (`/g/<game>/<key>`) is rendered once per version of a
game and language and kept around the CSRF token (web/versioned.py). What was
left per request was Flask's own work: the request context, the session, every
hook, several times the work of joining the page. So the first answer for a
version goes through the app, whose view offers its kept page here
(``offer``); this WSGI middleware then answers the next requests for it,
joining the page around each phone's own token, as long as the app would have
given exactly that answer:

- the edit key in the link is the game's, and the game is still at that
  version, looked up for every request (one SQLite read, as web/idle_polls.py);
- no player has sent points for the hand being recorded (the page would show
  them in its form);
- the phone's session cookie is one the app signed and has not expired, holds a
  CSRF token, no note to show (a flashed message) and already has this game
  first among the games it remembers, so the app would not set any cookie;
- the phone's language (its cookie, else Accept-Language) is the kept page's.

Anything else, including a phone without a cookie, goes through the app, which
answers as it always did. Headers are the app's own, as it sent them for the
kept version.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.http import parse_cookie

from .. import i18n, self_entry, store
from ..actions import Current
from . import csrf, device, language
from .shared_pages import answered
from .versioned import TokenPage

KEEPER_PAGE = re.compile(r"/g/([\w-]{1,64})/([\w-]{1,64})")
MARK = "scorekeeper.keeper_page"
KEEP = 256  # pages kept in all: one per game being played and language (pieces of 5-100 KB)
SKIPPED = {"content-length", "content-encoding"}  # set per answer


@dataclass(frozen=True)
class Offer:
    """What the view says of its answer: the kept page and what it shows."""

    page: TokenPage
    game_id: str
    version: int
    hand_number: int  # the hand being recorded: points sent from phones for it change the page
    language: str


def offer(page: TokenPage, current: Current) -> None:
    """Offer this request's page to be answered before Flask while the game stays as it is."""
    request.environ[MARK] = Offer(
        page,
        current.stored.id,
        current.stored.version,
        current.standings.hand_number,
        i18n.language(),
    )


@dataclass(frozen=True)
class Kept:
    offer: Offer
    headers: tuple[tuple[str, str], ...]  # the app's, without those set per answer


class KeeperPages:
    def __init__(self, app: Callable[..., Iterable[bytes]], flask_app: Flask) -> None:
        self.app = app
        self.flask_app = flask_app
        self.kept: OrderedDict[tuple[str, str], Kept] = OrderedDict()
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        if (
            environ.get("REQUEST_METHOD") != "GET"
            or environ.get("QUERY_STRING")
            or not (match := KEEPER_PAGE.fullmatch(environ.get("PATH_INFO", "")))
            or self.flask_app.config["PSEUDO_LOCALE"]
        ):
            return self.app(environ, start_response)
        game_id, key = match[1], match[2]
        cookies = parse_cookie(environ)
        speaks = language.choice(cookies.get(language.COOKIE), environ.get("HTTP_ACCEPT_LANGUAGE"))
        with self.lock:
            kept = self.kept.get((game_id, speaks))
        token = self._token(cookies, game_id, key) if kept is not None else None
        if kept is None or token is None or not self._unchanged(kept.offer, key):
            return self._through_the_app(environ, start_response)
        page, headers = kept.offer.page, list(kept.headers)
        if "gzip" in environ.get("HTTP_ACCEPT_ENCODING", ""):
            body = page.gzipped(token)
            headers.append(("Content-Encoding", "gzip"))
        else:
            body = page.body(token)
        headers.append(("Content-Length", str(len(body))))
        start_response("200 OK", headers)
        return [body]

    def _token(self, cookies: Any, game_id: str, key: str) -> str | None:
        """The session's CSRF token, if the app would answer this phone without a cookie."""
        app = self.flask_app
        cookie = cookies.get(app.config["SESSION_COOKIE_NAME"])
        if not cookie or not isinstance(app.session_interface, SecureCookieSessionInterface):
            return None  # another kind of session: only the app knows how to open it
        serializer = app.session_interface.get_signing_serializer(app)
        if serializer is None:
            return None
        max_age = int(app.permanent_session_lifetime.total_seconds())
        try:  # as Flask opens the session: signed by this app, not expired
            data = serializer.loads(cookie, max_age=max_age)
        except Exception:  # a bad or old cookie: the app decides what to do with it
            return None
        token = data.get(csrf.FIELD) if isinstance(data, dict) else None
        if (
            not isinstance(token, str)
            or "_flashes" in data
            or "_permanent" in data
            or not device.remembers_first(data, game_id, key)
        ):
            return None
        return token

    def _unchanged(self, offer: Offer, key: str) -> bool:
        """The game is at the kept version (and the key is its own), with no points waiting."""
        try:
            db = store.connect(self.flask_app.config["DATABASE"])
            return store.edit_version(db, offer.game_id, key) == offer.version and not (
                self_entry.waiting(db, offer.game_id, offer.hand_number)
            )
        except sqlite3.Error:  # the app answers with its clear 503 page (web/storage.py)
            return False

    def _through_the_app(
        self, environ: dict[str, Any], start_response: Callable
    ) -> Iterable[bytes]:
        """Let the app answer, and keep the page its view offered, if it set no cookie."""
        answer, sent = answered(self.app, environ, start_response)
        offered: Offer | None = environ.get(MARK)
        if offered is None or not sent or not sent[0].startswith("200 "):
            return answer
        names = {name.lower() for name, _ in sent[1]}
        if "set-cookie" in names:
            return answer
        headers = tuple((n, v) for n, v in sent[1] if n.lower() not in SKIPPED)
        with self.lock:
            self.kept[offered.game_id, offered.language] = Kept(offered, headers)
            self.kept.move_to_end((offered.game_id, offered.language))
            while len(self.kept) > KEEP:
                self.kept.popitem(last=False)
        return answer
