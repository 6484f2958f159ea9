"""The scorekeeper's hands table, each row rendered once and kept.

The page after each recorded hand is the first request for a new version, so
it is rendered there and then. Without this, that page rendered every row of
the game again: a 150-hand game took three times as long as a new one. Rows
are kept per game and compared with the hands they were rendered from, so
only a new or changed row is rendered: a recorded hand renders one row, a
correction to hand k renders row k, a deletion renders the rows after it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from flask import Flask, current_app
from markupsafe import Markup

from .. import i18n, store
from ..rules.game import Game, HandRecord
from ..rules.phases import Rules

GAMES = 128  # games whose rows are kept (a row is about 700 bytes)


@dataclass(frozen=True)
class _Rows:
    """Rows rendered for one game, with what they were rendered from."""

    players: tuple[str, ...]
    rules: Rules
    hands: tuple[HandRecord, ...]
    html: tuple[str, ...]


_kept: OrderedDict[tuple, _Rows] = OrderedDict()
_lock = threading.Lock()


def hand_rows(game: Game, stored: store.StoredGame) -> Markup:
    """The table's rows for ``game``, rendering only those not kept from an earlier version.

    Kept per database, game, edit link (the rows' Fix links carry it) and page
    language, as ``versioned.once`` keeps pages.
    """
    config = current_app.config
    language = (i18n.language(), config["PSEUDO_LOCALE"])
    key = (config["DATABASE"], *language, stored.id, stored.edit_key)
    with _lock:
        kept = _kept.get(key)
        if kept is not None:
            _kept.move_to_end(key)
    players = tuple(game.players)
    if kept is None or kept.players != players or kept.rules != game.rules:
        kept = _Rows(players, game.rules, (), ())
    html = list(kept.html[: len(game.hands)])
    for number, hand in enumerate(game.hands, start=1):
        if number <= len(html):
            was = kept.hands[number - 1]
            if was is not hand and was != hand:
                html[number - 1] = render_row(game, hand, number)
        else:
            html.append(render_row(game, hand, number))
    rows = _Rows(players, game.rules, tuple(game.hands), tuple(html))
    with _lock:
        _kept[key] = rows
        while len(_kept) > GAMES:
            _kept.popitem(last=False)
    return Markup("".join(html))


def render_row(game: Game, hand: HandRecord, number: int) -> str:
    """Row ``number`` of the table (templates/_hand_row.html)."""
    template = current_app.jinja_env.get_template("_hand_row.html")
    return str(template.module.hand_row(game, hand, number))  # type: ignore[attr-defined]


def init_app(app: Flask) -> None:
    app.add_template_global(hand_rows)
