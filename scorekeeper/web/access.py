"""Every link checked in one place, before its view runs.

| link | opens | in the URL |
|---|---|---|
| `/g/<game_id>/<key>` | a game, to keep score | `game_id`, `key` |
| `/v/<game_id>` | a game, to watch | `game_id` |
| `/p/<game_id>/<token>` | one player's line (or the names to pick from) | `game_id`, `token` |
| `/t/<table_id>` | a table: its games and roster | `table_id` |
| `/tv/<screen>` | a table's screen, to watch | `screen` |
| `/t/<table_id>/nights/<night_id>` | a club night, to run it (the table's link) | `night_id` |
| `/e/<night_view>` | a club night, to watch | `night_view` |
| `/t/<table_id>/seasons/<season_id>` | a season, to run it (the table's link) | `season_id` |
| `/s/<season_view>` | a season, to watch | `season_view` |

The check reads one indexed row (the game's keys and version, not the game itself:
an idle poll needs no more), refuses a wrong id or key with the same friendly 404
for every kind, and gives the view what the link opens: ``g.link`` (and ``game()``
when the page shows the game), ``g.keeper`` for a scorekeeper link, ``g.seat`` for
a player's, ``g.table`` for a table's. ``url_for`` fills in the same link's values
for links between its pages, the edit key only on a scorekeeper's page.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, g, request, url_for
from markupsafe import Markup
from sqlite_utils import Database
from werkzeug.routing import IntegerConverter

from .. import actions, store
from ..i18n import N_, _
from ..printing.qr import qr_svg as printed_qr_svg
from ..reports import current_game
from ..rules.game import MAX_PLAYERS
from ..store import nights, seasons, tables

NO_GAME = actions.results.NO_GAME  # marked for translation; say it with _(NO_GAME)
NO_TABLE = N_("There is no table at this link. It may have been mistyped.")
NO_NIGHT = N_("There is no night at this link. It may have been mistyped.")
NO_SEASON = N_("There is no season at this link. It may have been mistyped.")
PICK = "pick"  # the player link where each player picks their name
RENEWED_MEANWHILE = N_(
    "This link was renewed from another phone a moment ago, so it no longer works. Ask for "
    "the new one."
)


class Deleted(Exception):
    """The link of a deleted game or table, kept until purged: web/trash.py answers it with
    when, and (``restore``: the form's address) a way back for whoever may bring it back."""

    def __init__(self, what: str, at: str, restore: str | None, keeper: bool = False) -> None:
        self.what, self.at, self.restore, self.keeper = what, at, restore, keeper
        super().__init__(f"{what} deleted at {at}")


# The views a deleted game's or table's link still opens: the ones that bring it back
BRING_BACK_GAME = {"trash.restore_game", "trash.restore_table_game"}
BRING_BACK_TABLE = "trash.restore_table"


def _table(table_id: str) -> tables.Table:
    """The table at this link; Deleted when it is deleted (but kept), else 404."""
    found = tables.get_table(db(), table_id)
    if found is not None:
        return found
    deleted = tables.deleted_table(db(), table_id)
    if deleted is None:
        abort(404, _(NO_TABLE))
    table, at = deleted
    if request.endpoint == BRING_BACK_TABLE:
        return table
    raise Deleted("table", at, url_for(BRING_BACK_TABLE, table_id=table.id))


def _deleted_game(link: store.games.Link, keeper: bool) -> None:
    """Deleted, unless the view brings the game back."""
    if request.endpoint in BRING_BACK_GAME:
        return
    found = store.games.deleted_game(db(), link.game_id)
    at, with_table = found if found else (link.deleted or "", False)
    if with_table:
        raise Deleted("table-game", at, None, keeper)
    in_table = tables.table_of_game(db(), link.game_id) is not None
    restore = None
    if keeper and not in_table:
        restore = url_for("trash.restore_game", game_id=link.game_id, key=link.edit_key)
    raise Deleted("game", at, restore, keeper)


def db() -> Database:
    """This thread's connection to the app's database (reused across requests)."""
    if "db" not in g:
        g.db = store.connection.connect(current_app.config["DATABASE"])
    return g.db


def game() -> current_game.Current:
    """The game the request's link opens, with its kept standings (read once per request)."""
    if "current" not in g:
        current = current_game.load(db(), g.link.game_id)
        if current is None:  # deleted between the check and now
            abort(404, _(NO_GAME))
        g.current = current
    return g.current


def opened(current: current_game.Current) -> None:
    """Make ``current`` the request's game (after a change was saved)."""
    g.current = current
    g.link = store.games.game_link(db(), current.stored.id)


def player_token(link: store.games.Link, seat: int | str) -> str:
    """The key in a player's link: it can send only that seat's line (``PICK``: choose one).

    Derived from the app's secret and the game's player key, so renewing that key
    makes every old player link stop working.
    """
    secret = current_app.config["SECRET_KEY"].encode()
    what = f"seat-{seat}" if isinstance(seat, int) else seat
    salt = f"{link.player_key}:" if link.player_key else ""
    message = f"self-entry:{link.game_id}:{salt}{what}".encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def _seat(link: store.games.Link, token: str) -> int | None:
    """The seat a player link is for; None for the pick-your-name link; 404 otherwise."""
    sent = token.encode()
    if hmac.compare_digest(sent, player_token(link, PICK).encode()):
        return None
    for seat in range(MAX_PLAYERS):
        if hmac.compare_digest(sent, player_token(link, seat).encode()):
            return seat
    abort(404, _(NO_GAME))


# --- links for other phones ---------------------------------------------------------------


def public_url(endpoint: str, **values: Any) -> str:
    """The absolute URL of ``endpoint`` as a phone on the network should open it.

    A sheet printed from the laptop at ``localhost`` must still carry a link that a
    phone on the same Wi-Fi can open, so ``serve`` keeps the address it printed in
    ``PUBLIC_URL``. Without one (tests, a server behind a proxy) the request's own
    host is the best guess.
    """
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return base.rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


def this_computer_only(url: str) -> str | None:
    """The host and port of ``url`` when it names this computer's own loopback, which no
    other phone can open (``localhost:5010``); None when phones may reach it."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return parts.netloc
    try:
        return parts.netloc if ipaddress.ip_address(host).is_loopback else None
    except ValueError:  # a name: phones on the network may well resolve it
        return None


def qr_svg(text: str) -> Markup:
    """A QR code for a page; the link only sets module positions and the label is escaped."""
    return Markup(printed_qr_svg(text, _("QR code")))


class WholeNumber(IntegerConverter):
    """``<int:...>`` in every route (a hand's number, a version): plain digits, at most nine,
    as ``forms.whole_number`` reads a typed number. Anything longer is a wrong link (404),
    never a number SQLite cannot hold (a 500: /history/9223372036854775808/restore)."""

    regex = r"[0-9]{1,9}"


def init_app(app: Flask) -> None:
    """Before the blueprints are registered: their routes use the number converter."""
    app.url_map.converters["int"] = WholeNumber

    @app.url_value_preprocessor
    def check_link(_endpoint: str | None, values: dict | None) -> None:
        if not values:
            return
        if "table_id" in values:
            g.table = _table(values.pop("table_id"))
        if "screen" in values:
            g.table = tables.table_by_screen(db(), values.pop("screen")) or abort(404, _(NO_TABLE))
        if "night_id" in values:  # the organiser's link: the night under its table's link
            night = nights.get_night(db(), values.pop("night_id"))
            if night is None or night.table_id != g.table.id:
                abort(404, _(NO_NIGHT))
            g.night = night
        if "night_view" in values:  # the watchers' link: gone with its table
            night = nights.night_by_view(db(), values.pop("night_view"))
            if night is None or tables.get_table(db(), night.table_id) is None:
                abort(404, _(NO_NIGHT))
            g.night = night
        if "season_id" in values:  # the organiser's link: the season under its table's link
            season = seasons.get_season(db(), values.pop("season_id"))
            if season is None or season.table_id != g.table.id:
                abort(404, _(NO_SEASON))
            g.season = season
        if "season_view" in values:  # the players' link: gone with its table
            season = seasons.season_by_view(db(), values.pop("season_view"))
            if season is None or tables.get_table(db(), season.table_id) is None:
                abort(404, _(NO_SEASON))
            g.season = season
        if "game_id" not in values:
            return
        link = store.games.game_link(db(), values.pop("game_id"))
        if link is None:
            abort(404, _(NO_GAME))
        g.keeper = "key" in values
        if g.keeper and not link.edit_key_matches(values.pop("key")):
            abort(404, _(NO_GAME))
        if "token" in values:
            g.token = values.pop("token")
            g.seat = _seat(link, g.token)
        g.link = link
        if link.deleted:
            _deleted_game(link, g.keeper)

    @app.url_defaults
    def same_link(endpoint: str, values: dict) -> None:
        """Links between the pages of one link carry that link: `url_for("hands.history")`."""
        link, table = g.get("link"), g.get("table")
        expects = current_app.url_map.is_endpoint_expecting
        if link is not None and "game_id" not in values and expects(endpoint, "game_id"):
            values["game_id"] = link.game_id
            if g.get("keeper") and expects(endpoint, "key"):
                values["key"] = link.edit_key
            if "token" in g and expects(endpoint, "token"):
                values.setdefault("token", g.token)
        if table is not None and "table_id" not in values and expects(endpoint, "table_id"):
            values["table_id"] = table.id
        night = g.get("night")
        if night is not None:
            if "night_id" not in values and expects(endpoint, "night_id"):
                values["night_id"] = night.id
            if "night_view" not in values and expects(endpoint, "night_view"):
                values["night_view"] = night.view_id
        season = g.get("season")
        if season is not None:
            if "season_id" not in values and expects(endpoint, "season_id"):
                values["season_id"] = season.id
            if "season_view" not in values and expects(endpoint, "season_view"):
                values["season_view"] = season.view_id

    @app.teardown_appcontext
    def end_request(_error: BaseException | None) -> None:
        """Never leave a transaction open on a connection the next request reuses."""
        database = g.pop("db", None)
        if database is not None and database.conn.in_transaction:
            database.conn.rollback()
