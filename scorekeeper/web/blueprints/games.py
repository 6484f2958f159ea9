"""Games: start one, import one, its scorekeeper page (and that page's live part), share it,
start the rematch, end it early.

Ending early is a real form behind a confirmation page that names the winner it
will declare (read afresh when the page opens); the form carries the version the
page showed, so a hand saved on another phone in between is a conflict, never a
different winner than the one named. The pages other blueprints answer with too (the
scorekeeper's page, every scoreboard, the new-game form) are built in game_pages.py.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ... import actions
from ...backup.json_reader import JsonError, parse_json
from ...i18n import _
from ...reports import current_game
from ...rules.game import Standings, game_problems
from ...rules.names import clean_name, lookalike_warning, lookalikes
from ...rules.options import OPTIONS
from ...rules.phases import RulesError
from ...rules.ranking import final_order
from ...rules.reasons import Reason, Rule
from ...rules.ruleset import PROFILES, make_rules
from ...store import change_notes, tables
from .. import device, live, zones
from ..access import RENEWED_MEANWHILE, db, game, opened, public_url, qr_svg, this_computer_only
from ..forms import version_seen, whole_number
from ..game_pages import keeper_url, new_game_form, render_game, table_from
from ..security import creating, reading

bp = Blueprint("games", __name__)


# --- starting a game ----------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
@creating
def new_game() -> Response | str | tuple[str, int]:
    if reading():
        prefill = {k: v for k, v in request.args.items() if k == "table" or k.startswith("player-")}
        return new_game_form({"profile": "official", "dealer": "0", **prefill}, {})
    values = {k: v for k, v in request.form.items() if len(k) < 40}
    table = table_from(request.form.get("table", ""))
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
    follows = actions.games.next_at_table(db(), table_id) if table_id else None
    result = actions.games.start_game(
        db(), state, table_id=table_id, follows=follows, time_zone=zones.new_zone()
    )
    if isinstance(
        result, actions.results.Refused
    ):  # the engine has the last word on what a game is
        return new_game_form(values, {"player-0": result.message}), 422
    for pair in lookalikes(players):
        flash(_("Note: %(warning)s.", warning=lookalike_warning(*pair)))
    return _to_game(result)


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
    note = change_notes.note("import", hands=len(hands) if isinstance(hands, list) else 0)
    result = actions.games.start_game(
        db(), data, action="import", note=note, time_zone=zones.new_zone()
    )
    if isinstance(result, actions.results.Refused):
        page = render_template("import.html", text=text, error=result.message, rule=result.rule)
        return page, 422
    return _to_game(result)


def _to_game(result: actions.results.Saved) -> Response:
    stored = result.current.stored
    return redirect(url_for("games.game_page", game_id=stored.id, key=stored.edit_key), 303)


# --- the scorekeeper's page -------------------------------------------------------------


@bp.get("/g/<game_id>/<key>")
def game_page():
    """The page; for its own poll (htmx), the scoreboard with the form and hands out of band."""
    if (early := live.game_answer(live.keeper_live, keeper_url)) is not None:
        return early
    if live.polled():
        tag, heard = live.keeper_live(g.link), live.heard(game(), sendings=True)
        return live.fragment(*render_game(polled=True), tag, heard)
    current = game()
    device.remember_game(current.stored.id, current.stored.edit_key)
    return live.page(*render_game())


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
    result = actions.games.rematch(db(), g.link.game_id)
    if isinstance(result, actions.results.Refused):
        abort(422, _("The rematch could not be started: %(reason)s", reason=result.message))
    return _to_game(result)


@bp.route("/g/<game_id>/<key>/clock", methods=["GET", "POST"])
def game_clock():
    """The time zone of a game in no table (a game at a table is dated on the table's)."""
    current = game()
    if tables.table_of_game(db(), current.stored.id) is not None:
        abort(404, _(actions.results.TABLES_ZONE))
    back = url_for("games.game_page")
    if reading():
        return zones.clock_page(current.stored.time_zone, back)
    chosen = request.form.get("zone", "").strip()
    refused = actions.games.set_time_zone(db(), current.stored.id, chosen)
    if refused is not None:
        return zones.clock_page(current.stored.time_zone, back, refused.message)
    flash(_("This game's time zone is now %(zone)s.", zone=zones.zone_label(chosen)))
    return redirect(back, 303)


# --- a new scorekeeper link for a leaked one -----------------------------------------
# A new link changes who can reach a game or table, not the game: nothing is written to the
# game's change log (docs/decisions.md says why). The old link stops working at once with
# the same 404 as any wrong link; this device's memory takes the new one.


@bp.post("/g/<game_id>/<key>/renew")
def renew() -> Response:
    """A new scorekeeper link; the one this request came with stops working."""
    link = g.link
    key = actions.links.renew_edit_link(db(), link.game_id, link.edit_key)
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
    if tables.table_of_game(db(), link.game_id) is not None:  # nobody at the table is locked out
        flash(_("The game's table lists it with its new link: its page opens it."))
    return redirect(url_for("games.share", game_id=link.game_id, key=key), 303)


# --- ending a game early ---------------------------------------------------------------


@bp.route("/g/<game_id>/<key>/end", methods=["GET", "POST"])
def end_game() -> Response | tuple[str, int]:
    """The confirmation (GET), or the game ended (POST): back to its page, saying who won."""
    current = game()
    if reading():
        return _confirm(current)
    result = actions.games.end_early(db(), current.stored.id, version_seen())
    if isinstance(result, actions.results.Saved):
        flash(result.summary)
        return redirect(url_for("games.game_page"), 303)
    if isinstance(result, actions.results.Refused):
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
    current: current_game.Current, message: str | None = None, status: int = 200
) -> tuple[str, int]:
    ending = None if current.standings.over else actions.games.ending_now(current)
    refused = ending.message if isinstance(ending, actions.results.Refused) else None
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
