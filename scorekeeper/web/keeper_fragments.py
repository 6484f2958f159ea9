"""The scorekeeper's page in parts, each rendered once per version of its game.

The page (game.html) and its poll's answer (_keeper_live.html) show the same parts:
the scoreboard, the form for the next hand, the rematch, the hands and the way to end
the game. A part is the same for every phone that shows the same version, but for what
is each answer's own: the CSRF token in its forms, whether it is swapped in out of band
(the poll's answer) and the "saved" note after this phone's Save. So a part is rendered
with marks in those places, kept (``live.shared``) and filled in per answer. When a
Save is followed by the page and a second phone's poll, the form, the hands and the
scoreboard are rendered once, not twice (docs/decisions.md has the figures). A page
that shows what someone typed (a refused form) is rendered for that answer only.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Hashable

from flask import Flask, current_app, g, get_flashed_messages
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from .. import i18n
from ..rules.game import HandRecord
from . import live, security
from .render_cache import Kept

_MARK = secrets.token_hex(8)  # made anew by each process: no text anyone types holds it
OOB = Markup(f"oob-{_MARK}")  # where a part says it is swapped in out of band
SAVED = Markup(f"saved-{_MARK}")  # where the form's "Hand 5 saved." note goes
SAVED_NOTE = Markup('<p class="notice saved" role="status" data-saved>✓ {}</p>')


# Rows of the hands' lists: a game at hand 150 lists 150 hands, of which one is new.
rows: Kept[str] = Kept(2**20)  # a worker's: a long game's rows are about 75 KB


def init_app(app: Flask) -> None:
    app.add_template_global(part)
    app.add_template_global(kept_row)


@pass_context
def part(context: Context, name: str, **values: object) -> Markup:
    """Part ``name`` (a template) of the scorekeeper's page, with its marks; kept for every
    reader of this version when the page has a ``part_key`` (see ``render_game``)."""

    def render() -> str:
        g.marking = True  # csrf_token() gives its mark
        try:
            template = context.environment.get_template(name)
            return template.render({**context.get_all(), **values, "oob": OOB, "saved": SAVED})
        finally:
            g.marking = False

    key = context.get("part_key")
    return Markup(live.shared((name, *key), render) if key else render())


def kept_row(render: Callable[..., str], hand: HandRecord, number: int, scope: Hashable) -> Markup:
    """Hand ``number``'s row in a hands' list (``render(hand, number)``), rendered once while
    the hand stays as it is; ``scope``: what else the row shows (its game's Fix address and
    players)."""
    config = current_app.config
    key = (config["DATABASE"], i18n.language(), config["PSEUDO_LOCALE"], scope, number, repr(hand))
    return Markup(rows.get(key, lambda: str(render(hand, number))))


def fill(html: str, *, oob: bool) -> str:
    """The answer's own text in place of the marks: its token, whether its parts are swapped
    out of band, and (on the page) the notes of what this phone just saved."""
    if security.TOKEN_MARK in html:
        html = html.replace(security.TOKEN_MARK, security.csrf_token())
    notes = (
        ""
        if oob
        else "".join(
            SAVED_NOTE.format(note) for note in get_flashed_messages(category_filter=["saved"])
        )
    )
    return html.replace(OOB, ' hx-swap-oob="true"' if oob else "").replace(SAVED, notes)
