"""The pages of a game that more than one blueprint answers with: what every scoreboard
shows (with the facts under it: started, how long, BG Stats), the scorekeeper's page, and
the new-game form.

Built here, not in a blueprint, so that games.py, hands.py, watch.py and phase_lists.py
each answer their own URLs and import no other blueprint.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import Flask, abort, flash, g, redirect, render_template, request, url_for

from .. import actions, clock, store
from ..i18n import _
from ..reports import bgstats, current_game, news
from ..rules.game import Game, Standings
from ..rules.house_rules import rules_line
from ..rules.options import OPTIONS
from ..rules.reasons import Rule
from ..rules.ruleset import PROFILES
from ..rules.scoring import card_kinds
from ..store import sent_points, tables
from . import device, keeper_fragments, live, zones
from .access import db, game
from .charts import score_chart
from .forms import HandForm


def view_context(current: current_game.Current) -> dict:
    """What every scoreboard shows: the kept standings of the game's version."""
    game, stored = current.game, current.stored
    return {
        "stored": stored,
        "game": game,
        "standings": current.standings,
        # drawn only when the scoreboard is rendered, not when its kept part is reused
        "chart": lambda: score_chart(game) if len(game.hands) >= 2 else None,
        "phase_text": lambda n: str(game.rules.phase(n)),
        "rules_line": lambda: rules_line(game.rules),  # "Official rules. House rules: ..."
        "last_hand": hand_in_words(game, len(game.hands)) if game.hands else "",
    }


@dataclass(frozen=True)
class GameFacts:
    started: datetime  # for the ``moment`` filter (the family's own clock)
    minutes: int
    took: str  # '1 h 25 min'
    bgstats_link: str | None  # the push link, once the game is over


def game_facts(stored: store.games.StoredGame, game: Game, standings: Standings) -> GameFacts:
    """When the game started, its playing time (to now while it is played), its BG Stats
    link."""
    minutes = so_far(stored, standings)
    link = None
    if minutes is None:
        minutes = clock.minutes(stored.created, store.history.played_until(db(), stored))
        play = bgstats.stored_play(db(), stored, game, standings, zones.record_zone())
        link = bgstats.push_link(play)
    return GameFacts(clock.moment(stored.created), minutes, clock.duration(minutes), link)


def so_far(stored: store.games.StoredGame, standings: Standings) -> int | None:
    """The minutes a game being played has taken so far, to now (a page kept for every phone
    is kept per minute too); None once it is over: it took until the hand that ended it."""
    return None if standings.over else clock.minutes(stored.created, store.connection.now())


def new_game_form(
    values: dict[str, str],
    errors: dict[str, str],
    rules: dict[str, list[Rule]] | None = None,
    **extra: object,
) -> str:
    """The form; every house rule starts blank, meaning "as the chosen rules say".

    ``rules``: for a field's error, the rules it comes from, linked beside it.
    ``extra``: a phase list's rating and the like (phase_lists.py).
    """
    return render_template(
        "new_game.html",
        values=values,
        errors=errors,
        error_rules=rules or {},
        options=OPTIONS,
        profiles=PROFILES,
        names=device.suggested_names(db()),
        table=table_from(values.get("table", "")),
        **extra,
    )


def table_from(table_id: str) -> tables.Table | None:
    return tables.get_table(db(), table_id) if table_id else None


def render_game(
    form: HandForm | None = None,
    status: int = 200,
    message: str | None = None,
    message_rule: Rule | None = None,
    *,
    polled: bool = False,
) -> tuple[str, int]:
    """The scorekeeper's page (or, ``polled``, its live part); ``message``: why a change was
    not made. Its parts are kept for every phone unless it shows a refused form
    (web/keeper_fragments.py).
    """
    current = game()
    played = current.game
    sent = sent_points.entries(db(), current.stored.id, current.standings.hand_number)
    link, tag = g.link, live.keeper_live(g.link)
    plain = form is None and message is None
    so_far_now = so_far(current.stored, current.standings)
    html = render_template(
        "_keeper_live.html" if polled else "game.html",
        form=form or HandForm(sent_points.form_values(sent)),
        message=message,
        message_rule=message_rule,
        card_fields=card_kinds(played.rules),
        phone_entries=sent,
        live_tag=tag,
        next_game=live.next_game(link, keeper_url) if current.standings.over else None,
        its_table=None if polled else device.known_table(db(), link.game_id),
        clock=None if polled else _clock_line(current.stored),
        part_key=(link.game_id, link.edit_key, tag, request.script_root, so_far_now)
        if plain
        else None,
        **view_context(current),
    )
    return keeper_fragments.fill(html, oob=polled), status


def _clock_line(stored: store.games.StoredGame) -> zones.ClockLine | None:
    """A game in no table shows its time zone (one at a table is dated on the table's)."""
    if tables.table_of_game(db(), stored.id) is not None:
        return None
    return zones.clock_line(stored.time_zone)


def keeper_url(link: store.games.Link) -> str:
    return url_for("games.game_page", game_id=link.game_id, key=link.edit_key)


def hand_in_words(played: Game, number: int) -> str:
    """Hand ``number`` in one line, as the hands table shows it: 'Ann out, Bob 45, Cy 20'."""
    return news.hand_in_words(played, played.hands[number - 1])


def after_change(result: actions.results.Result, *, say_what: bool = False):
    """Back to the game page after an undo, restore or deletion, or say why not (409)."""
    if isinstance(result, actions.results.Refused):
        return render_game(message=result.message, status=409, message_rule=result.rule)
    if isinstance(result, actions.results.Conflict):
        abort(409, _(actions.results.STALE))
    if say_what:
        flash(result.summary)
    return redirect(url_for("games.game_page"), 303)


def init_app(app: Flask) -> None:
    app.add_template_global(game_facts)
    app.add_template_global(clock.duration, "game_duration")
