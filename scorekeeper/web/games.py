"""Games: start one, import one, its scorekeeper page and its share page."""

from __future__ import annotations

import secrets

from flask import Blueprint, abort, flash, g, redirect, render_template, request, session, url_for

from .. import actions, notes, self_entry, tables
from ..i18n import N_, _
from ..jsontext import JsonError, parse_json
from ..printing.text import rules_line
from ..rules.game import Problem, game_problems
from ..rules.names import clean_name, lookalike_warning, lookalikes
from ..rules.phases import OPTIONS, PROFILES, Progression, RulesError, make_rules
from ..rules.reasons import Rule
from . import keeper_pages, versioned
from .chart import score_chart
from .csrf import reading
from .db import db, game_or_404
from .hand_form import HandForm, card_fields
from .links import public_url, this_computer_only
from .listing import device_home, suggested_names
from .numbers import whole_number
from .qr import qr_svg

bp = Blueprint("games", __name__)

__all__ = ["bp", "db", "game_or_404", "render_game", "view_context"]


def view_context(current: actions.Current) -> dict:
    """What every scoreboard page shows: the kept standings of the game's version."""
    game, stored = current.game, current.stored
    # every page of a version shows the same chart: the scorekeeper's, the watchers', the table's
    chart = None
    if len(game.hands) >= 2:
        chart = versioned.once(("chart", stored.id, stored.version), lambda: score_chart(game))
    return {
        "stored": stored,
        "game": game,
        "standings": current.standings,
        "chart": chart,
        "phase_text": lambda n: str(game.rules.phase(n)),
        "rules_line": lambda: rules_line(game.rules),  # "Official rules. House rules: ..."
    }


@bp.get("/")
def home():
    return render_template("home.html", **device_home(db()))


# Words for the house-rule choices (the option values themselves are for files and the CLI).
CHOICE_LABELS = {
    "phases:official": N_("The official ten"),
    "phases:plus10": N_("Phase 10 + 10 (twenty phases)"),
    "phases:custom": N_("My own list (below)"),
    "progression:standard": N_("Make your phase to move on"),
    "progression:ten-hands": N_("Ten hands: everyone moves on each hand"),
    "progression:masters": N_("Masters: pick any phase not yet made"),
    "progression:mixed-up": N_("Mixed-up: a shuffled order each"),
    "phase10:official": N_("Set of 5 + set of 3"),
    "phase10:set4+set3": N_("Set of 4 + set of 3 (older boxes)"),
    "wild_points:25": N_("25 points"),
    "wild_points:20": N_("20 points"),
    "natural:group": N_("In every group"),
    "natural:phase": N_("Once per phase"),
    "going_out:hit": N_("Hitting your last card goes out"),
    "going_out:discard": N_("You must discard last (floaters)"),
    "skip_out:allowed": N_("Allowed"),
    "skip_out:draw": N_("Not allowed: draw another card"),
    "winner:last-phase": N_("Whoever completes the last phase"),
    "winner:lowest": N_("Lowest total once someone finishes"),
    "tiebreak:last-phase": N_("Replay the last phase"),
    "tiebreak:own-phase": N_("Each replays their own last phase"),
    "totals:strict": N_("Refuse impossible totals"),
    "totals:warn": N_("Only warn about them"),
    "even:no": N_("No"),
    "even:yes": N_("Yes"),
    "super_wild:no": N_("No"),
    "super_wild:yes": N_("Yes"),
}


def _new_game_form(
    values: dict[str, str], errors: dict[str, str], rules: dict[str, list[Rule]] | None = None
) -> str:
    """The form; every house rule starts blank, meaning "as the chosen rules say".

    ``rules``: for a field's error, the rules it comes from, linked beside it.
    """
    return render_template(
        "new_game.html",
        values=values,
        errors=errors,
        error_rules=rules or {},
        options=OPTIONS,
        profiles=PROFILES,
        names=suggested_names(db()),
        table=_table_from(values.get("table", "")),
        choice_labels={key: _(label) for key, label in CHOICE_LABELS.items()},
    )


@bp.route("/new", methods=["GET", "POST"])
def new_game():
    if reading():
        prefill = {k: v for k, v in request.args.items() if k == "table" or k.startswith("player-")}
        return _new_game_form({"profile": "official", "dealer": "0", **prefill}, {})
    values = {k: v for k, v in request.form.items() if len(k) < 40}
    table = _table_from(request.form.get("table", ""))
    seated = sorted(
        (seat, clean_name(value))
        for key, value in values.items()
        if key.startswith("player-") and (seat := whole_number(key[7:])) is not None
        if value.strip()
    )
    players = [name for _, name in seated]
    dealer_seat = request.form.get("dealer", "0")
    dealer = dict(seated).get(whole_number(dealer_seat))
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
        return _new_game_form(values, errors, cited), 422
    state = {
        "rules": profile,
        "options": rules.changed_options(),
        "players": players,
        "dealer": dealer,
        "hands": [],
    }
    if rules.progression is Progression.MIXED_UP:
        shuffle = secrets.SystemRandom().sample
        state["orders"] = {
            name: shuffle(list(rules.sequence), len(rules.sequence)) for name in players
        }
    result = actions.create(db(), state)  # the engine has the last word on what a game is
    if isinstance(result, actions.Refused):
        return _new_game_form(values, {"player-0": result.message}), 422
    if table is not None:
        tables.add_game(db(), table.id, result.current.stored.id, players)
    for pair in lookalikes(players):
        flash(_("Note: %(warning)s.", warning=lookalike_warning(*pair)))
    return _to_game(result)


def _table_from(table_id: str) -> tables.Table | None:
    return tables.get_table(db(), table_id) if table_id else None


def _new_game_field(problem: Problem, seated: list[tuple[int, str]]) -> str | None:
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
def import_game():
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
    count = len(hands) if isinstance(hands, list) else 0
    note = notes.note("import", hands=count)
    result = actions.create(db(), data, action="import", note=note)
    if isinstance(result, actions.Refused):
        page = render_template("import.html", text=text, error=result.message, rule=result.rule)
        return page, 422
    return _to_game(result)


def _to_game(result: actions.Saved):
    stored = result.current.stored
    return redirect(url_for("games.game_page", game_id=stored.id, key=stored.edit_key), 303)


# --- the scorekeeper's page -------------------------------------------------------------


def render_game(
    form: HandForm | None = None,
    status: int = 200,
    message: str | None = None,
    message_rule: Rule | None = None,
):
    """The scorekeeper's page; ``message``: why a change was not made, and its rule."""
    sent = _phone_entries()
    return render_template(
        "game.html",
        form=form or HandForm(self_entry.form_values(sent)),
        message=message,
        message_rule=message_rule,
        card_fields=card_fields(g.game.rules),
        phone_entries=sent,
        **view_context(g.current),
    ), status


def after_change(result: actions.Result, *, say_what: bool = False):
    """Back to the game page after an undo, restore or deletion, or say why not (409)."""
    if isinstance(result, actions.Refused):
        return render_game(message=result.message, status=409, message_rule=result.rule)
    if isinstance(result, actions.Conflict):
        abort(409, _(actions.STALE))
    if say_what:
        flash(result.summary)
    return redirect(url_for("games.game_page"), 303)


def _phone_entries() -> dict[int, self_entry.Entry]:
    """Points players sent from their phones for the hand being recorded."""
    return self_entry.entries(db(), g.stored.id, g.current.standings.hand_number)


@bp.get("/g/<game_id>/<key>")
def game_page():
    if "_flashes" in session or _phone_entries():  # a note, or points waiting to be saved
        return render_game()
    stored = g.stored
    page = versioned.token_page(("game.html", stored.id, stored.version), lambda: render_game()[0])
    keeper_pages.offer(page, g.current)
    return versioned.token_response(page)


@bp.get("/g/<game_id>/<key>/share")
def game_share():
    stored = g.stored
    links = {
        "edit": public_url("games.game_page", game_id=stored.id, key=stored.edit_key),
        "view": public_url("share.view", game_id=stored.id),
    }
    return render_template(
        "share.html",
        stored=stored,
        game=g.game,
        links=links,
        local_address=this_computer_only(links["view"]),
        edit_qr=qr_svg(links["edit"]),
        view_qr=qr_svg(links["view"]),
    )
