"""The live part of every page that shows a game: one URL for the page and its fragment.

A page that keeps itself current (templates/_live_attrs.html) asks its own URL
with htmx, naming what it shows in ``If-None-Match``. The view answers that
request (``polled()``: htmx, not a boosted link, not a history restore) with its
fragment and the full page otherwise, and says so with ``Vary: HX-Request``.
What a page shows is tagged from the one row the link's check read (access.py):
the game's version, the newest points sent from players' phones (on the
scorekeeper's page), and the game started after it.

While the page is current, its poll is held (``POLL_HOLD`` seconds) until the
games file changes (store/games_file.py), and then answered at once: the fragment if its
game changed, else it waits on. A poll that saw nothing change gets a 304 and
the page asks again within ``POLL_SECONDS``. So an idle table costs the server a
few requests a minute per phone, each one indexed read, however long the game,
and a change shows on every phone as soon as it is saved (docs/live-updates.md).

When a game is over and the table starts the next one (a rematch, or a new game
at the same table), a screen that was showing it when it ended follows: its
poll is answered with ``HX-Redirect`` to the same kind of page of the next game.
A page opened after the next game began already names it in its tag, so it stays
where it was opened.

An answer with something new says what changed since the page's tag, in words
(reports/news.py), in an ``HX-Trigger`` header's ``news`` event: the fragment is the
same for every watcher of a version, what changed since is each page's own.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from flask import Flask, Response, abort, current_app, g, make_response, request
from flask_htmx import HTMX

from .. import i18n, store
from ..i18n import _
from ..reports import current_game, news
from . import access, connection_log, security
from .access import db
from .forms import whole_number
from .render_cache import Kept
from .zones import zone

htmx = HTMX()  # init_app in web/__init__.py: `request.htmx`-style checks, `htmx` in templates


def init_app(app: Flask) -> None:
    htmx.init_app(app)
    for key in ("LIVE_PER_ADDRESS", "LIVE_MAX"):  # refused at start, not at the first poll
        app.config[key] = security.count_setting(app, key)


def shown(what: str) -> str:
    """A page's tag: ``what`` it shows, on whose clock. A page first rendered on the
    server's clock, before the phone said its zone, is answered anew at its next poll."""
    return f'"{what}@{zone()}"'


def keeper_live(link: store.games.Link) -> str:
    """What a scorekeeper's page shows: the version, the points sent, the next game."""
    return shown(f"{link.version}.{link.entries}.{link.next_game or ''}")


def watch_live(link: store.games.Link) -> str:
    """What a watch, table or player page shows: the version and the next game."""
    return shown(f"{link.version}..{link.next_game or ''}")


def shown_parts() -> list[str]:
    """The parts of the tag the polling page sent (see ``shown``): ``["12", "40", ""]``
    from a scorekeeper's page at version 12 that saw sending 40; [] from a page load."""
    what = request.headers.get("If-None-Match", "").strip('"').rpartition("@")[0]
    return what.split(".") if what else []


def heard(current: current_game.Current, *, sendings: bool = False) -> str:
    """What changed in the game since the polling page's tag, in words; ``sendings``: and
    the points players sent since (a scorekeeper's page shows them)."""
    parts = shown_parts()
    said = news.since(db(), current, whole_number(parts[0])) if parts else ""
    if sendings and len(parts) > 1:
        sent = news.sendings(db(), current, whole_number(parts[1]))
        said = f"{said} {sent}".strip()
    return said


def polled() -> bool:
    """The page's own poll (or another htmx request for its fragment), not a page load."""
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def answer(tag: str, again: Callable[[], str], key: str) -> Response | None:
    """For a poll whose page shows ``tag`` already: wait for a change of ``key`` (the game,
    or ``table:<id>``), then None (there is more to say: ``again()`` re-read what the page
    would show, and returned its tag), or 304 when nothing changed while it waited."""
    if not polled() or request.headers.get("If-None-Match") != tag:
        return None
    hold = current_app.config["POLL_HOLD"]
    deadline = time.monotonic() + hold
    with holding(), store.connection.listening(db(), key) as listener:
        if again() != tag:  # changed before this page listened
            return None
        while (left := deadline - time.monotonic()) > 0:
            if listener is None:  # an in-memory database: nothing else writes to it
                time.sleep(left)
                break
            if listener.wait(left) and again() != tag:
                return None
    return Response(status=304, headers={"ETag": tag, "Vary": "HX-Request"})


class Holds:
    """Live pages held now, in all and per address (an IPv6 one's /64), within the operator's
    caps: a phone past its address's cap gets 429, any past the server's 503, and a Save or
    a page load never waits behind either (docs/scaling.md)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.total = 0
        self.per_address: dict[str, int] = {}

    @contextmanager
    def hold(self, address: str, per_address: int, most: int) -> Iterator[None]:
        with self._lock:
            if per_address and self.per_address.get(address, 0) >= per_address:
                raise Refused(429)
            if most and self.total >= most:
                raise Refused(503)
            self.total += 1
            self.per_address[address] = self.per_address.get(address, 0) + 1
        try:
            yield
        finally:
            with self._lock:
                self.total -= 1
                left = self.per_address[address] - 1
                if left:
                    self.per_address[address] = left
                else:
                    del self.per_address[address]


class Refused(Exception):
    def __init__(self, status: int) -> None:
        self.status = status


holds = Holds()
refusals = connection_log.Tally(logging.getLogger(__name__), "live pages")
AT_CAPACITY = "answered 503: the server held all the live pages it may"


@contextmanager
def holding() -> Iterator[None]:
    """Hold this poll within the caps, or answer it 429 / 503 at once (with Retry-After, so
    the page backs off, static/app.js) and say so in the log."""
    config = current_app.config
    address = security.client_address()
    try:
        with holds.hold(address, int(config["LIVE_PER_ADDRESS"]), int(config["LIVE_MAX"])):
            yield
    except Refused as refused:
        if refused.status == 429:
            message = _("Too many live pages are open from your address. Close some, then reload.")
        else:
            message = _("The server is following as many live pages as it can. Try again soon.")
            refusals.note(AT_CAPACITY, address)  # a line a minute at most, however many
        response = make_response(message, refused.status)
        response.headers["Retry-After"] = str(security.RETRY_AFTER)
        abort(response)


def follow(link: store.games.Link, next_url: Callable[[store.games.Link], str]) -> Response | None:
    """Send a screen that showed this game when it ended to the next game's page
    (``next_url``: its address, from the next game's link)."""
    parts = shown_parts()
    if not polled() or link.next_game is None or not parts or parts[-1]:
        return None  # not a poll, nothing to follow, or the page already knew the next game
    current = current_game.load(db(), link.game_id)
    following = store.games.game_link(db(), link.next_game)
    if current is None or not current.standings.over or following is None:
        return None
    next_game = current_game.load(db(), following.game_id)
    if next_game is None:
        return None
    response = Response(status=204)
    response.headers["HX-Redirect"] = next_url(following)
    said(response, news.latest(db(), next_game))  # heard on the page it goes to (app.js)
    return response


def game_answer(
    kind: Callable[[store.games.Link], str], next_url: Callable[[store.games.Link], str]
) -> Response | None:
    """What a poll of a game's page gets before any fragment is rendered: held until the
    game changes (``kind``: the tag of what the page shows), sent to the next game, or None.
    """

    def again() -> str:
        link = store.games.game_link(db(), g.link.game_id)
        if link is None:
            abort(404, _(access.NO_GAME))
        g.link = link
        return kind(link)

    return answer(kind(g.link), again, g.link.game_id) or follow(g.link, next_url)


def next_game(
    link: store.games.Link, url_of: Callable[[store.games.Link], str]
) -> tuple[str, str] | None:
    """(address, players) of the game started after this one, on the same kind of page."""
    following = store.games.game_link(db(), link.next_game) if link.next_game else None
    found = current_game.load(db(), following.game_id) if following else None
    if following is None or found is None:
        return None
    return url_of(following), ", ".join(i18n.isolate(name) for name in found.game.players)


# Fragments kept: the latest of each game being watched, per language and page. One
# version of a table's pages takes about 60 KB in memory; at a thousand tables a hand is
# saved every 20 ms or so, and 4 MB keeps each version for the second or two its phones
# ask for it (8 MB gave no faster Saves and 8 MB more RSS a worker).
fragments: Kept[str] = Kept(4 * 2**20)


def shared(key: tuple[object, ...], render: Callable[[], str]) -> str:
    """A watcher's fragment, rendered once for every watcher of this version of the game.

    ``key`` names everything the fragment shows (the game's version, what follows it, its
    size); the database, the reader's language and time zone are added here. When one
    hand is saved, five watchers' polls wake together: one renders, the others take its
    copy (docs/decisions.md has the figures).
    """
    config = current_app.config
    key = (config["DATABASE"], i18n.language(), str(zone()), config["PSEUDO_LOCALE"], *key)
    return fragments.get(key, render)


def fragment(html: str, status: int, tag: str, changes: str = "") -> Response:
    """A poll's answer; ``changes``: what changed since the page's tag, in words."""
    response = make_response(html, status)
    response.headers.update({"ETag": tag, "Cache-Control": "no-cache"})
    response.vary.add("HX-Request")
    said(response, changes)
    return response


def said(response: Response, changes: str) -> None:
    """Tell the page what changed: htmx fires ``news`` on it with these words (app.js puts
    them in the page's one announcer). JSON escapes every letter past ASCII for the header."""
    if changes:
        response.headers["HX-Trigger"] = json.dumps({"news": changes})


def page(html: str, status: int = 200) -> Response:
    response = make_response(html, status)
    response.vary.add("HX-Request")
    return response
