"""Hands: record one, check it while it is typed, fix or delete one, undo, the history, export.

Thin adapters over ``actions``: read the form, let the engine judge, and map its
problems back onto the form's fields (forms.py).
"""

from __future__ import annotations

import csv
import io
import json

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

from ... import actions, store
from ...backup.table_archive import csv_cell
from ...i18n import _, isolate
from ...rules.game import Game, HandRecord, Standings
from ...rules.gamefile import game_to_json
from ...rules.replay import Kept, hand_problems, replay_from
from ...rules.scoring import card_kinds
from .. import zones
from ..access import db, game, opened
from ..forms import (
    HandForm,
    form_number,
    form_values,
    parse_hand,
    problems_into,
    refusal_into,
    typed_into,
    version_seen,
    whole_number,
)
from ..game_pages import after_change, hand_in_words, render_game
from ..security import reading

bp = Blueprint("hands", __name__)


@bp.post("/g/<game_id>/<key>/hands")
def record():
    current = game()
    message = _("This form does not say which hand it records. Reload the game and try again.")
    number = form_number("hand_number", current.standings.hand_number, message)
    form = parse_hand(request.form, current.game, current.standings)
    if form.hand is None:
        if number != current.standings.hand_number:  # which hand it was for comes first
            return _not_next(number, form, _(actions.results.STALE))
        typed_into(form, current.game, current.game, current.kept)
        return _refused(render_game(form, 422))
    result = actions.hands.record(db(), current.stored.id, number, form.hand)
    if isinstance(result, actions.results.Saved):
        if not result.changed:
            flash(
                _(
                    "Hand %(number)s was already entered on another phone: it is recorded once.",
                    number=number,
                )
            )
        elif form.hand.tiebreak:
            flash(_("The tiebreak is saved."), "saved")
        else:
            flash(_("Hand %(number)s saved.", number=number), "saved")
        # the next hand starts where the thumb is: at its "Who went out?"
        return redirect(url_for("games.game_page", _anchor="record"), 303)
    if isinstance(result, actions.results.Refused):
        refusal_into(form, current.game, result)
        return _refused(render_game(form, 422))
    if result.current is not None:
        opened(result.current)
    return _not_next(number, form, result.message)


def _not_next(number: int, form: HandForm, message: str) -> Response:
    """A form for a hand that is not the next one (409). Saved on another phone while this
    one typed it: what was typed is kept, as the next hand; otherwise ``message`` says why."""
    now = game()
    if not 1 <= number < now.standings.hand_number or now.standings.over:
        return _refused(render_game(message=message, status=409))
    message = _(
        "Hand %(number)s was saved on another phone while you typed it: %(saved)s. What "
        "you typed is kept below as hand %(next)s: save it if that is the next hand, or "
        "change it.",
        number=number,
        saved=hand_in_words(now.game, number),
        next=now.standings.hand_number,
    )
    kept = HandForm(form.values, kept=True)
    return _refused(render_game(kept, message=message, status=409))


def _refused(rendered: tuple[str, int], address: str | None = None) -> Response:
    """A refused or conflicting save (htmx): the address bar keeps the page the form was on
    (never the form's action, a dead end on reload), and the phone shows the summary."""
    page, status = rendered
    response = make_response(page, status)
    if request.headers.get("HX-Request"):
        response.headers["HX-Replace-Url"] = address or url_for("games.game_page")
        if status == 422:
            response.headers["HX-Reswap"] = "innerHTML show:#refused:top"
        else:  # a conflict: its message is at the top of the page
            response.headers["HX-Reswap"] = "innerHTML show:top"
    return response


@bp.get("/g/<game_id>/<key>/hands")
def reopened():
    """The form's address reloaded or reopened: the game page, not a dead end."""
    return redirect(url_for("games.game_page"), 303)


@bp.post("/g/<game_id>/<key>/hands/check")
def check():
    """The live verdict while the next hand is typed (htmx): nothing is saved. A form for a
    hand another phone saved since is judged as it is shown: against the game before that
    hand, the phases its labels name, until it is moved on to the next hand."""
    current = game()
    number = whole_number(request.form.get("hand_number"))
    if number is not None and 1 <= number <= len(current.game.hands):
        return _live_check(*_before(number))
    return _live_check(current.game, current.standings, current.kept)


@bp.post("/g/<game_id>/<key>/hands/<int:number>/check")
def check_edit(number: int):
    """The live verdict while a hand is corrected (htmx): nothing is saved."""
    before, standings, kept = _before(number)
    return _live_check(before, standings, kept)


def _before(number: int) -> tuple[Game, Standings, tuple[Kept, ...]]:
    """The game up to hand ``number`` (404 if there is no such hand), as it stood then."""
    current = game()
    if not 1 <= number <= len(current.game.hands):
        abort(404, _("There is no hand %(number)s in this game.", number=number))
    before = current.game.before(number)
    kept = current.kept[: number - 1]
    return before, replay_from(before, kept).standings, kept


def _live_check(before: Game, standings: Standings, kept) -> str:
    """Judge the form against the game up to this hand, messages at each field."""
    whole = game().game
    form = parse_hand(request.form, whole, standings, partial=True)
    if form.hand is not None and form.hand.went_out is not None and not _untyped(whole, form.hand):
        problems_into(form, whole, hand_problems(before, form.hand, kept))
    else:
        typed_into(form, whole, before, kept)
        form.hand = None  # not the whole hand yet: no "fits the rules"
    seats = [] if standings.tiebreak else range(len(whole.players))
    return render_template("_hand_check.html", form=form, game=whole, oob_seats=seats, live=True)


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


@bp.route("/g/<game_id>/<key>/hands/<int:number>", methods=["GET", "POST"])
def edit(number: int):
    current = game()
    before, standings, kept = _before(number)
    if reading():  # the hand as recorded, read as the form reads it: inferred ticks shown so
        values = form_values(current.game, current.game.hands[number - 1])
        return _edit_form(parse_hand(values, current.game, standings), number, standings)
    form = parse_hand(request.form, current.game, standings)
    if form.hand is None:
        typed_into(form, current.game, before, kept)
        return _refused((_edit_form(form, number, standings), 422), request.path)
    result = actions.hands.correct(db(), current.stored.id, version_seen(), number, form.hand)
    if isinstance(result, actions.results.Refused):
        refusal_into(form, current.game, result)
        return _refused((_edit_form(form, number, standings), 422), request.path)
    if isinstance(result, actions.results.Conflict):
        abort(409, _(actions.results.STALE))
    flash(_("Hand %(number)s corrected.", number=number), "saved")
    return redirect(url_for("games.game_page"), 303)


def _edit_form(form: HandForm, number: int, standings: Standings) -> str:
    current = game()
    return render_template(
        "edit_hand.html",
        form=form,
        number=number,
        game=current.game,
        stored=current.stored,
        standings=standings,
        card_fields=card_kinds(current.game.rules),
        phase_text=lambda n: str(current.game.rules.phase(n)),
    )


@bp.post("/g/<game_id>/<key>/hands/<int:number>/delete")
def delete(number: int):
    _before(number)
    return after_change(actions.hands.delete(db(), g.link.game_id, version_seen(), number))


# --- undo and the history -------------------------------------------------------------


@bp.post("/g/<game_id>/<key>/undo")
def undo():
    return after_change(actions.undo.undo(db(), g.link.game_id, version_seen()), say_what=True)


@bp.get("/g/<game_id>/<key>/history")
def history():
    current = game()
    zones.on_record_clock()  # each change's time on the game's clock, whoever reads it
    changes = store.history.changes(db(), current.stored.id)
    return render_template(
        "history.html", stored=current.stored, game=current.game, history=changes
    )


@bp.post("/g/<game_id>/<key>/history/<int:version>/restore")
def restore(version: int):
    if store.history.get_change(db(), g.link.game_id, version) is None:
        abort(404, _("There is no change %(version)s in this game's history.", version=version))
    restored = actions.undo.restore(db(), g.link.game_id, version_seen(), version)
    return after_change(restored, say_what=True)  # as Undo: the page says what was done


# --- export ---------------------------------------------------------------------------


def _download(body: str, mimetype: str, filename: str) -> Response:
    return Response(
        body,
        mimetype=mimetype,
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store",  # the scorekeeper's own: never kept by a cache
        },
    )


@bp.get("/g/<game_id>/<key>/export.json")
def export_json():
    data = json.dumps(game_to_json(game().game), indent=2)
    return _download(data, "application/json", "phase10-game.json")


@bp.get("/g/<game_id>/<key>/export.csv")
def export_csv():
    """A row per hand; a player who sat out a tiebreak has no points in it, not 0.

    Who made their phase is a list in one cell: each name is isolated, so two
    right-to-left names keep their order, and a name with a space stays one name.
    """
    current = game()
    played, standings = current.game, current.standings
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["hand", *map(csv_cell, played.players), "went out", "made phase"])
    for number, hand in enumerate(played.hands, start=1):
        scores = hand.scores(played.rules)
        writer.writerow(
            [
                "tiebreak" if hand.tiebreak else number,
                *(scores.get(n, "") for n in played.players),
                csv_cell(hand.went_out or ""),
                ", ".join(isolate(csv_cell(name)) for name in hand.made),
            ]
        )
    writer.writerow(["total", *(p.score for p in standings.players), "", ""])
    return _download(out.getvalue(), "text/csv", "phase10-game.csv")
