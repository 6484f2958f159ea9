"""Reading what people type: whole numbers, JSON bodies, and the hand form.

The hand form's fields use the player's seat number, never their name: ``went_out``,
``points-2``, ``made-2``, ``low-2``, ``high-2``, ``skips-2``, ``wilds-2``,
``super_wilds-2``, ``super_skips-2``, ``floater-2``, ``attempt-2``. Card counts
that are typed count: they give the points (and must agree with a typed total).
The engine judges what was read; its problems are put back on the fields.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import abort, g, request

from .. import actions
from ..backup.json_reader import JsonError, parse_json
from ..i18n import _
from ..rules.end_of_hand import laid_down_implied
from ..rules.game import Game, HandRecord, Standings
from ..rules.options import Progression
from ..rules.reasons import CARDS_LEFT, Reason, Rule
from ..rules.replay import entry_problems
from ..rules.scoring import HAND_SIZE, MADE_BELOW, MOST_OF_A_KIND, MOST_TYPED, CardsLeft, card_kinds

__all__ = ["JsonError", "request_json", "whole_number", "number_in"]

# --- numbers and JSON -----------------------------------------------------------------

# str.isdigit accepts superscripts such as "²" that int refuses, and int accepts "٣",
# "+5" and "1_000": neither is what a score sheet means. Only ASCII digits are read.
_DIGITS = re.compile(r"[0-9]{1,9}")


def whole_number(text: str | None) -> int | None:
    """The number written in plain digits (spaces around are fine), else None."""
    if text is None:
        return None
    text = text.strip()
    return int(text) if _DIGITS.fullmatch(text) else None


def number_in(text: str | None, low: int, high: int) -> int | None:
    """A whole number from ``low`` to ``high``, else None."""
    number = whole_number(text)
    return number if number is not None and low <= number <= high else None


def request_json() -> Any:
    """The request body as JSON (its size is bounded by MAX_CONTENT_LENGTH: 413 beyond)."""
    try:
        text = request.get_data(cache=True).decode("utf-8")
    except UnicodeDecodeError:
        raise JsonError(_("the body is not UTF-8 text")) from None
    return parse_json(text)


def form_number(name: str, default: int, message: str) -> int:
    """A number the page itself put in its form (the game's version, a hand's number):
    ``default`` when absent, a 400 with ``message`` when it is not a number."""
    text = request.form.get(name, "").strip()
    number = whole_number(text) if text else default
    if number is None:
        abort(400, message)
    return number


def version_seen() -> int:
    """The game version the phone's page showed; saving against a stale one is a conflict."""
    message = _(
        "This form does not say which version of the game it changes. Reload the game and "
        "try again."
    )
    return form_number("version", g.link.version, message)


# --- the hand form --------------------------------------------------------------------


@dataclass
class HandForm:
    """What the user typed (kept on errors), and what it means."""

    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)  # field -> message
    general: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # warnings that do not block saving
    rules: dict[str, list[Rule]] = field(default_factory=dict)  # field or message -> its rules
    marked: list[int] = field(default_factory=list)  # seats whose total says they made their phase
    made_below: int = MADE_BELOW  # ...because it is under this (the engine's inference)
    hand_size: int = HAND_SIZE
    hand: HandRecord | None = None
    draft: HandRecord | None = None  # what was read, even with fields missing or wrong
    kept: bool = False  # what was typed, shown again: the page's poll must not replace it

    @property
    def will_mark(self) -> list[int]:
        """The seats to tell "will be marked as made": under 50, with nothing wrong typed."""
        wrong = {key.rsplit("-", 1)[-1] for key in self.errors}
        return [seat for seat in self.marked if str(seat) not in wrong]


def _int(values: Mapping[str, str], key: str, errors: dict[str, str], label: str) -> int | None:
    text = values.get(key, "").strip()
    if not text:
        return None
    number = whole_number(text)
    if number is None:
        errors[key] = _("%(field)s: '%(text)s' is not a whole number", field=label, text=text[:20])
        return None
    if not 0 <= number <= MOST_TYPED:
        message = _("%(field)s: enter a number from 0 to %(most)s", field=label, most=MOST_TYPED)
        errors[key] = message
        return None
    return number


def parse_hand(
    form: Mapping[str, str], game: Game, standings: Standings, *, partial: bool = False
) -> HandForm:
    """Read the form; on success ``hand`` is set (the engine checks it further).

    ``draft`` is always set: the fields read correctly, for the engine to judge
    what was typed even when something else is missing.

    ``partial`` (the live check while typing): players with nothing typed yet are
    left out instead of being an error.
    """
    values = {k: v for k, v in form.items() if isinstance(v, str) and len(k) < 40}
    result = HandForm(values, kept=True)
    errors = result.errors
    tiebreak = bool(standings.tiebreak)
    seats = [
        i
        for i, name in enumerate(game.players)
        if (not tiebreak or name in standings.tiebreak) and standings.players[i].left_after is None
    ]
    out_text = values.get("went_out", "")
    went_out = None
    if (seat := whole_number(out_text)) is not None and seat in seats:
        went_out = game.players[seat]
    elif out_text:
        errors["went_out"] = _("Pick who went out from the list")
    elif not partial:
        errors["went_out"] = _("Who went out? Tap their name.")

    made, floaters, points, cards, attempts = [], [], {}, {}, {}
    for i in seats:
        name = game.players[i]
        if attempts_are_chosen(game):
            chosen = _int(values, f"attempt-{i}", errors, _("%(player)s's phase", player=name))
            if chosen is None and f"attempt-{i}" not in errors:
                errors[f"attempt-{i}"] = _("Which phase did %(player)s try this hand?", player=name)
            elif chosen is not None:
                attempts[name] = chosen
        if values.get(f"made-{i}"):
            made.append(name)
        if values.get(f"floater-{i}"):
            floaters.append(name)
        if name == went_out or tiebreak:
            continue
        kinds = card_kinds(game.rules)
        if any(values.get(f"{key}-{i}", "").strip() for key, _label, _worth in kinds):
            counts = {
                key: _int(
                    values,
                    f"{key}-{i}",
                    errors,
                    _("%(player)s's %(kind)s cards", player=name, kind=label),
                )
                or 0
                for key, label, _worth in kinds
            }
            if any(count > MOST_OF_A_KIND for count in counts.values()):
                errors[f"low-{i}"] = _(
                    "%(player)s: no one holds more than %(count)s cards of a kind",
                    player=name,
                    count=MOST_OF_A_KIND,
                )
                continue
            left = CardsLeft(**counts)
            cards[name] = left
            points[name] = left.points(game.rules)
            typed = _int(values, f"points-{i}", errors, _("%(player)s's points", player=name))
            if typed is not None and typed != points[name]:
                errors[f"points-{i}"] = _(
                    "%(player)s's cards add up to %(points)s points, not %(typed)s: "
                    "change the points or the card counts",
                    player=name,
                    points=points[name],
                    typed=typed,
                )
                continue
        else:
            total = _int(values, f"points-{i}", errors, _("%(player)s's points", player=name))
            if total is None:
                if name in floaters:
                    points[name] = 0
                elif f"points-{i}" not in errors and not partial:
                    errors[f"points-{i}"] = _(
                        "Enter %(player)s's points (or count their cards)", player=name
                    )
                continue
            points[name] = total
        reason = laid_down_implied(points[name])
        if name not in made and name not in floaters and reason:
            made.append(name)
            result.marked.append(i)
    if went_out and went_out not in made:  # going out is laying down, in a tiebreak too
        made.append(went_out)
    result.draft = HandRecord(
        went_out=went_out,
        made=tuple(n for n in game.players if n in made),
        points=points,
        attempts=attempts,
        floaters=tuple(floaters),
        cards=cards,
        tiebreak=tiebreak,
    )
    if not errors:
        result.hand = result.draft
    return result


def attempts_are_chosen(game: Game) -> bool:
    """Masters: each player says which phase they tried this hand."""
    return game.rules.progression is Progression.MASTERS


def form_values(game: Game, hand: HandRecord) -> dict[str, str]:
    """The form fields that show a recorded hand (for fixing it).

    A tick the rules inferred (going out; a total under 50) is left for the form to
    infer again, so changing the points changes it too; only a tick that says more than
    the points do is shown as ticked.
    """
    values: dict[str, str] = {}
    scores = hand.scores(game.rules)
    for i, name in enumerate(game.players):
        if name == hand.went_out:
            values["went_out"] = str(i)
        inferred = name not in hand.floaters and laid_down_implied(scores.get(name, 0))
        if name in hand.made and name != hand.went_out and not inferred:
            values[f"made-{i}"] = "1"
        if name in hand.floaters:
            values[f"floater-{i}"] = "1"
        if name in hand.attempts:
            values[f"attempt-{i}"] = str(hand.attempts[name])
        if name in hand.cards:
            for key, _label, _worth in card_kinds(game.rules):
                values[f"{key}-{i}"] = str(getattr(hand.cards[name], key))
        if name in hand.points and name != hand.went_out:
            values[f"points-{i}"] = str(hand.points[name])
    return values


# --- the engine's verdict on the form ---------------------------------------------------

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
        if problem.rule == CARDS_LEFT and seat.get(problem.player or "", -1) in form.marked:
            text = _(  # the engine judged them as having laid down: say why
                "%(problem)s (the box is not ticked, but under %(least)s points means they "
                "made their phase)",
                problem=text,
                least=form.made_below,
            )
        form.errors[key] = f"{form.errors[key]}; {text}" if key in form.errors else text
        _cite(form, key, problem)
    return ok


def refusal_into(form: HandForm, game: Game, refused: actions.results.Refused) -> None:
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
