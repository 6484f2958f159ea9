"""Games: start one, import one, its scorekeeper page (and that page's live part), share it,
start the rematch, end it early.

Ending early is a real form behind a confirmation page that names the winner it
will declare (read afresh when the page opens); the form carries the version the
page showed, so a hand saved on another phone in between is a conflict, never a
different winner than the one named. Every scoreboard says when its game started,
how long it took, that it ended early, and for a finished game offers BG Stats.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import Blueprint, Flask, abort, flash, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from .. import actions, bgstats, notes, playtime, self_entry, store, tables
from ..i18n import _, isolate, pgettext
from ..jsontext import JsonError, parse_json
from ..rules.game import Game, Standings, game_problems
from ..rules.house_rules import rules_line
from ..rules.names import clean_name, lookalike_warning, lookalikes
from ..rules.phases import OPTIONS, PROFILES, RulesError, make_rules
from ..rules.ranking import final_order
from ..rules.reasons import Reason, Rule
from ..rules.scoring import card_kinds
from . import device, live
from .access import RENEWED_MEANWHILE, db, game, opened, public_url, qr_svg, this_computer_only
from .charts import score_chart
from .forms import HandForm, version_seen, whole_number
from .language import zone
from .security import creating, reading

bp = Blueprint("games", __name__)


def view_context(current: actions.Current) -> dict:
    """What every scoreboard shows: the kept standings of the game's version."""
    game, stored = current.game, current.stored
    return {
        "stored": stored,
        "game": game,
        "standings": current.standings,
        "chart": score_chart(game) if len(game.hands) >= 2 else None,
        "phase_text": lambda n: str(game.rules.phase(n)),
        "rules_line": lambda: rules_line(game.rules),  # "Official rules. House rules: ..."
    }


# --- starting a game ----------------------------------------------------------------------


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
        table=_table_from(values.get("table", "")),
        **extra,
    )


@bp.route("/new", methods=["GET", "POST"])
@creating
def new_game() -> Response | str | tuple[str, int]:
    if reading():
        prefill = {k: v for k, v in request.args.items() if k == "table" or k.startswith("player-")}
        return new_game_form({"profile": "official", "dealer": "0", **prefill}, {})
    values = {k: v for k, v in request.form.items() if len(k) < 40}
    table = _table_from(request.form.get("table", ""))
    seated = sorted(
        (seat, clean_name(value))
        for key, value in values.items()
        if key.startswith("player-") and (seat := whole_number(key[7:])) is not None
        if value.strip()
    )
    players = [name for _, name in seated]
    dealer_seat = whole_number(request.form.get("dealer", "0"))
    dealer = dict(seated).get(dealer_seat) if dealer_seat is not None else None
    profile = request.form.get("profile", "official")
    options = {key: request.form[f"opt-{key}"] for key in OPTIONS if f"opt-{key}" in request.form}
    errors: dict[str, str] = {}
    if request.form.get("table") and table is None:
        errors["table"] = _("The table this game was for is not here any more: start it without")
    try:
        rules = make_rules(profile, _changed(profile, options))
    except RulesError as error:
        errors["rules"] = str(error)
        rules = make_rules("official")  # still check the players against the usual rules
    cited: dict[str, list[Rule]] = {}
    for problem in game_problems(rules, players, dealer, new=True):
        key = _new_game_field(problem, seated)
        if key:
            errors[key] = f"{errors[key]}; {problem.message}" if key in errors else problem.message
            if problem.rule and problem.rule not in cited.setdefault(key, []):
                cited[key].append(problem.rule)
    if errors:
        return new_game_form(values, errors, cited), 422
    state = {
        "rules": profile,
        "options": rules.changed_options(),
        "players": players,
        "dealer": dealer,
        "hands": [],
    }
    table_id = table.id if table else None
    follows = actions.next_at_table(db(), table_id) if table_id else None
    result = actions.start_game(db(), state, table_id=table_id, follows=follows)
    if isinstance(result, actions.Refused):  # the engine has the last word on what a game is
        return new_game_form(values, {"player-0": result.message}), 422
    for pair in lookalikes(players):
        flash(_("Note: %(warning)s.", warning=lookalike_warning(*pair)))
    return _to_game(result)


def _table_from(table_id: str) -> tables.Table | None:
    return tables.get_table(db(), table_id) if table_id else None


def _new_game_field(problem: Reason, seated: list[tuple[int, str]]) -> str | None:
    """The new-game form's field for one of the engine's problems with the players."""
    if problem.field == "dealer":
        return "dealer" if seated else None  # no names yet: the players' problem says it
    seats = [
        i for i, name in seated if problem.player and name.casefold() == problem.player.casefold()
    ]
    return f"player-{seats[-1]}" if seats else "player-0"


def _changed(profile: str, options: dict[str, str]) -> dict[str, str]:
    """The house rules actually set: blank means "as the chosen rules say"."""
    base = make_rules(profile).options if profile in PROFILES else {}
    return {
        key: value.strip()
        for key, value in options.items()
        if value.strip() and value.strip().lower() != str(base.get(key, "")).lower()
    }


@bp.route("/import", methods=["GET", "POST"])
@creating
def import_game() -> Response | str | tuple[str, int]:
    if reading():
        return render_template("import.html", text="", error=None)
    upload = request.files.get("file")
    text = upload.read().decode("utf-8", "replace") if upload and upload.filename else ""
    text = text or request.form.get("text", "")
    try:
        data = parse_json(text)
    except JsonError as error:
        message = _("This file cannot be read: %(reason)s.", reason=error)
        return render_template("import.html", text=text, error=message), 422
    hands = data.get("hands") if isinstance(data, dict) else None
    note = notes.note("import", hands=len(hands) if isinstance(hands, list) else 0)
    result = actions.start_game(db(), data, action="import", note=note)
    if isinstance(result, actions.Refused):
        page = render_template("import.html", text=text, error=result.message, rule=result.rule)
        return page, 422
    return _to_game(result)


def _to_game(result: actions.Saved) -> Response:
    stored = result.current.stored
    return redirect(url_for("games.game_page", game_id=stored.id, key=stored.edit_key), 303)


# --- the scorekeeper's page -------------------------------------------------------------


def render_game(
    form: HandForm | None = None,
    status: int = 200,
    message: str | None = None,
    message_rule: Rule | None = None,
    template: str = "game.html",
) -> tuple[str, int]:
    """The scorekeeper's page (or its live part); ``message``: why a change was not made."""
    current = game()
    played = current.game
    sent = self_entry.entries(db(), current.stored.id, current.standings.hand_number)
    return render_template(
        template,
        form=form or HandForm(self_entry.form_values(sent)),
        message=message,
        message_rule=message_rule,
        card_fields=card_kinds(played.rules),
        phone_entries=sent,
        live_tag=live.keeper_live(g.link),
        last_hand=hand_in_words(played, len(played.hands)) if played.hands else "",
        next_game=live.next_game(g.link, _keeper_url) if current.standings.over else None,
        **view_context(current),
    ), status


def hand_in_words(played: Game, number: int) -> str:
    """Hand ``number`` in one line, as the hands table shows it: 'Ann out, Bob 45, Cy 20'."""
    hand = played.hands[number - 1]
    scores = hand.scores(played.rules)
    out = pgettext("went out, in one short word", "out")
    return ", ".join(
        f"{isolate(name)} {out if name == hand.went_out else scores[name]}"
        for name in played.players
        if name == hand.went_out or name in scores
    )


def after_change(result: actions.Result, *, say_what: bool = False):
    """Back to the game page after an undo, restore or deletion, or say why not (409)."""
    if isinstance(result, actions.Refused):
        return render_game(message=result.message, status=409, message_rule=result.rule)
    if isinstance(result, actions.Conflict):
        abort(409, _(actions.STALE))
    if say_what:
        flash(result.summary)
    return redirect(url_for("games.game_page"), 303)


@bp.get("/g/<game_id>/<key>")
def game_page():
    """The page; for its own poll (htmx), the scoreboard with the form and hands out of band."""
    if (early := live.game_answer(live.keeper_live, _keeper_url)) is not None:
        return early
    if live.polled():
        return live.fragment(*render_game(template="_keeper_live.html"), live.keeper_live(g.link))
    current = game()
    device.remember_game(current.stored.id, current.stored.edit_key)
    return live.page(*render_game())


def _keeper_url(link: store.Link) -> str:
    return url_for("games.game_page", game_id=link.game_id, key=link.edit_key)


@bp.get("/g/<game_id>/<key>/share")
def share():
    current = game()
    stored = current.stored
    links = {
        "edit": public_url("games.game_page", game_id=stored.id, key=stored.edit_key),
        "view": public_url("watch.view", game_id=stored.id),
    }
    return render_template(
        "share.html",
        stored=stored,
        game=current.game,
        links=links,
        local_address=this_computer_only(links["view"]),
        edit_qr=qr_svg(links["edit"]),
        view_qr=qr_svg(links["view"]),
    )


@bp.post("/g/<game_id>/<key>/rematch")
@creating
def rematch():
    """Same players, rules and table; the player after the last game's first dealer deals."""
    result = actions.rematch(db(), g.link.game_id)
    if isinstance(result, actions.Refused):
        abort(422, _("The rematch could not be started: %(reason)s", reason=result.message))
    return _to_game(result)


# --- a new scorekeeper link for a leaked one -----------------------------------------
# A new link changes who can reach a game or table, not the game: nothing is written to the
# game's change log (docs/decisions.md says why). The old link stops working at once with
# the same 404 as any wrong link; this device's memory takes the new one.


@bp.post("/g/<game_id>/<key>/renew")
def renew() -> Response:
    """A new scorekeeper link; the one this request came with stops working."""
    link = g.link
    key = store.renew_edit_key(db(), link.game_id, link.edit_key)
    if key is None:
        abort(404, _(RENEWED_MEANWHILE))
    device.remember_game(link.game_id, key)
    flash(
        _(
            "This game has a new scorekeeper link, below. The old one no longer opens it: "
            "send the new one to every scorekeeper. Watch links and players' links are "
            "unchanged."
        )
    )
    return redirect(url_for("games.share", game_id=link.game_id, key=key), 303)


# --- ending a game early ---------------------------------------------------------------


@bp.route("/g/<game_id>/<key>/end", methods=["GET", "POST"])
def end_game() -> Response | tuple[str, int]:
    """The confirmation (GET), or the game ended (POST): back to its page, saying who won."""
    current = game()
    if reading():
        return _confirm(current)
    result = actions.end_early(db(), current.stored.id, version_seen())
    if isinstance(result, actions.Saved):
        flash(result.summary)
        return redirect(url_for("games.game_page"), 303)
    if isinstance(result, actions.Refused):
        return _confirm(current, result.message, 422)
    if result.current is not None:
        opened(result.current)
    message = result.message
    if not game().standings.over:
        message = _(
            "The game changed on another phone since this page was opened. "
            "Here is who ending it now would declare the winner."
        )
    return _confirm(game(), message, 409)


def _confirm(
    current: actions.Current, message: str | None = None, status: int = 200
) -> tuple[str, int]:
    ending = None if current.standings.over else actions.ending_now(current)
    refused = ending.message if isinstance(ending, actions.Refused) else None
    standings = ending if isinstance(ending, Standings) else None
    return render_template(
        "end_game.html",
        stored=current.stored,
        game=current.game,
        standings=current.standings,
        ending=standings,
        order=final_order(standings, current.game.rules) if standings else [],
        refused=refused,
        message=message,
    ), status


# --- the facts under every scoreboard ---------------------------------------------------


@dataclass(frozen=True)
class GameFacts:
    started: datetime  # for the ``moment`` filter (the family's own clock)
    minutes: int
    took: str  # '1 h 25 min'
    bgstats_link: str | None  # the push link, once the game is over


def game_facts(stored: store.StoredGame, game: Game, standings: Standings) -> GameFacts:
    """When the game started, its playing time (so far), its BG Stats link."""
    minutes = playtime.minutes(stored.created, store.played_until(db(), stored))
    link = None
    if standings.over:
        play = bgstats.stored_play(db(), stored, game, standings, zone())
        link = bgstats.push_link(play)
    return GameFacts(playtime.moment(stored.created), minutes, playtime.duration(minutes), link)


def init_app(app: Flask) -> None:
    app.add_template_global(game_facts)
    app.add_template_global(playtime.duration, "game_duration")
