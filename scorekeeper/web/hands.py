"""Hands: record one, check it while it is typed, correct or delete one.

Thin adapters over ``actions``: read the form, let the engine judge, and map
its problems back onto the form's fields.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)

from .. import actions
from ..i18n import _
from ..rules.game import Game, HandRecord, Standings
from ..rules.reasons import Reason
from ..rules.replay import entry_problems, hand_problems, replay_from
from ..rules.scoring import card_kinds
from .csrf import reading
from .db import db
from .edit import remember
from .games import after_change, render_game
from .hand_form import HandForm, form_values, parse_hand
from .numbers import whole_number

bp = Blueprint("hands", __name__)

# the engine's Reason.field -> this form's field prefix
FORM_FIELDS = {
    "points": "points",
    "made": "made",
    "attempts": "attempt",
    "floaters": "floater",
    "cards": "low",
}


def problems_into(form: HandForm, game: Game, problems: Iterable[Reason]) -> bool:
    """Put the engine's verdict on the form's fields; True when nothing blocks saving."""
    seat = {name: i for i, name in enumerate(game.players)}
    ok = True
    for problem in problems:
        if problem.warning:
            form.notes.append(_("Warning: %(problem)s", problem=problem))
            continue
        ok = False
        if problem.field == "went_out":
            key = "went_out"
        elif problem.field in FORM_FIELDS and problem.player in seat:
            key = f"{FORM_FIELDS[problem.field]}-{seat[problem.player]}"
        else:
            form.general.append(str(problem))
            _cite(form, str(problem), problem)
            continue
        text = str(problem)
        form.errors[key] = f"{form.errors[key]}; {text}" if key in form.errors else text
        _cite(form, key, problem)
    return ok


def refusal_into(form: HandForm, game: Game, refused: actions.Refused) -> None:
    """A refused save on the form: the engine's problems at their fields, or else
    the refusal above them (a later hand that no longer fits), with its rule."""
    if not refused.problems:
        form.general.append(refused.message)
        if refused.rule:
            form.rules[refused.message] = [refused.rule]
    problems_into(form, game, refused.problems)


def _cite(form: HandForm, key: str, problem: Reason) -> None:
    """Remember the rule behind a message, for its link on screen."""
    if problem.rule and problem.rule not in form.rules.get(key, []):
        form.rules.setdefault(key, []).append(problem.rule)


@bp.post("/g/<game_id>/<key>/hands")
def record():
    current = g.current
    text = request.form.get("hand_number", "").strip()
    number = whole_number(text) if text else current.standings.hand_number
    if number is None:
        abort(
            400,
            _("This form does not say which hand it records. Reload the game and try again."),
        )
    form = parse_hand(request.form, current.game, current.standings)
    if form.hand is None:
        typed_into(form, current.game, current.game, current.kept)
        return _refused(render_game(form, 422))
    result = actions.record(db(), current.stored.id, number, form.hand)
    if isinstance(result, actions.Saved):
        if not result.changed:
            flash(
                _(
                    "Hand %(number)s was already entered on another phone: it is recorded once.",
                    number=number,
                )
            )
        return redirect(url_for("games.game_page"), 303)
    if isinstance(result, actions.Refused):
        refusal_into(form, current.game, result)
        return _refused(render_game(form, 422))
    if result.current is not None:
        remember(result.current)
    message = result.message
    if number < g.current.standings.hand_number:
        message = _(
            "Hand %(number)s was already entered on another phone, differently. "
            "Here is the game as it stands now: fix that hand if it is wrong.",
            number=number,
        )
    return _refused(render_game(message=message, status=409))


def _refused(rendered: tuple[str, int], address: str | None = None) -> Response:
    """A refused or conflicting save (htmx): the address bar keeps the page the form was on
    (never the form's action, a dead end on reload), and the phone shows the summary."""
    page, status = rendered
    response = make_response(page, status)
    if request.headers.get("HX-Request"):
        response.headers["HX-Replace-Url"] = address or url_for("games.game_page")
        if status == 422:
            response.headers["HX-Reswap"] = "innerHTML show:#refused:top"
    return response


@bp.get("/g/<game_id>/<key>/hands")
def reopened():
    """The form's address reloaded or reopened: the game page, not a dead end."""
    return redirect(url_for("games.game_page"), 303)


@bp.post("/g/<game_id>/<key>/hands/check")
def check():
    """The live verdict while the next hand is typed (htmx): nothing is saved."""
    current = g.current
    return _live_check(current.game, current.standings, current.kept)


@bp.post("/g/<game_id>/<key>/hands/<int:number>/check")
def check_edit(number: int):
    """The live verdict while a hand is corrected (htmx): nothing is saved."""
    _hand(number)
    current = g.current
    before = replace(current.game, hands=current.game.hands[: number - 1])
    kept = current.kept[: number - 1]
    return _live_check(before, replay_from(before, kept).standings, kept)


def _live_check(before: Game, standings: Standings, kept) -> str:
    """Judge the form against the game up to this hand, messages at each field."""
    game = g.game
    form = parse_hand(request.form, game, standings, partial=True)
    if form.hand is not None and form.hand.went_out is not None and not _untyped(game, form.hand):
        problems_into(form, game, hand_problems(before, form.hand, kept))
    else:
        typed_into(form, game, before, kept)
        form.hand = None  # not the whole hand yet: no "fits the rules"
    seats = [] if standings.tiebreak else range(len(game.players))
    return render_template("_hand_check.html", form=form, game=game, oob_seats=seats, live=True)


def typed_into(form: HandForm, game: Game, before: Game, kept) -> None:
    """The engine's verdict on each player's entries typed so far, each on its own,
    while other fields are missing: only players typed in correctly are judged."""
    draft = form.draft
    if draft is None:
        return
    wrong = {key.rsplit("-", 1)[-1] for key in form.errors}
    typed = [
        name
        for i, name in enumerate(game.players)
        if (name in draft.points or name in draft.cards) and str(i) not in wrong
    ]
    problems_into(form, game, entry_problems(before, draft, typed, kept))


def _untyped(game: Game, hand: HandRecord) -> list[str]:
    """The players (not the one out) with no points and no cards in this hand."""
    return [
        n
        for n in game.players
        if n not in hand.points
        and n not in hand.cards
        and n != hand.went_out
        and n not in hand.floaters
    ]


def _hand(number: int) -> HandRecord:
    if not 1 <= number <= len(g.game.hands):
        abort(404, _("There is no hand %(number)s in this game.", number=number))
    return g.game.hands[number - 1]


@bp.route("/g/<game_id>/<key>/hands/<int:number>", methods=["GET", "POST"])
def edit(number: int):
    current = g.current
    hand = _hand(number)
    before = replace(current.game, hands=current.game.hands[: number - 1])
    standings = replay_from(before, current.kept[: number - 1]).standings
    if reading():
        return _edit_form(HandForm(form_values(current.game, hand)), number, standings)
    form = parse_hand(request.form, current.game, standings)
    if form.hand is None:
        typed_into(form, current.game, before, current.kept[: number - 1])
        return _refused((_edit_form(form, number, standings), 422), request.path)
    result = actions.correct(db(), current.stored.id, version_seen(), number, form.hand)
    if isinstance(result, actions.Refused):
        refusal_into(form, current.game, result)
        return _refused((_edit_form(form, number, standings), 422), request.path)
    if isinstance(result, actions.Conflict):
        abort(409, _(actions.STALE))
    return redirect(url_for("games.game_page"), 303)


def _edit_form(form: HandForm, number: int, standings: Standings) -> str:
    game = g.game
    return render_template(
        "edit_hand.html",
        form=form,
        number=number,
        game=game,
        standings=standings,
        card_fields=card_kinds(game.rules),
        phase_text=lambda n: str(game.rules.phase(n)),
    )


@bp.post("/g/<game_id>/<key>/hands/<int:number>/delete")
def delete(number: int):
    _hand(number)
    return after_change(actions.delete(db(), g.stored.id, version_seen(), number))


def version_seen() -> int:
    """The game version the phone's page showed; saving against a stale one is a conflict."""
    text = request.form.get("version", "").strip()
    if not text:
        return g.stored.version
    version = whole_number(text)
    if version is None:
        abort(
            400,
            _(
                "This form does not say which version of the game it changes. Reload the "
                "game and try again."
            ),
        )
    return version
