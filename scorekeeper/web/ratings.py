"""A phase list's rating, asked for by the new-game form's buttons (phase_lists.py) or
``/api/rate`` (api.py): what is asked is read once (``read_ask``) for both, and the engine
deals the hands."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from flask import current_app

from ..i18n import _
from ..rules import rating
from ..rules.draw import draw_phases
from ..rules.phases import Phase, RulesError, parse_phase_list
from ..rules.ruleset import Rules, make_rules
from .checking import BadRequest
from .forms import number_in

DRAW_SEEDS = 10**6


PHASE_OPTIONS = ("phases", "custom_phases")


@dataclass(frozen=True)
class Ask:
    """A rating asked for: which phases, by which rules, and how."""

    rules: Rules
    phases: tuple[Phase, ...]
    turns: int
    trials: int
    seed: int
    ordered: bool
    drawn: int | None = None  # the seed the list was drawn with


def most_trials() -> int:
    """The most trials one rating may run here (``RATING_TRIALS``, default 1000)."""
    return int(current_app.config.get("RATING_TRIALS", rating.DEFAULT_TRIALS))


def _number(args: Mapping[str, str], name: str, low: int, high: int, default: int) -> int:
    text = str(args.get(name, "")).strip()
    if not text:
        return default
    number = number_in(text, low, high)
    if number is None:
        message = _(
            "%(field)s must be a whole number from %(low)s to %(high)s",
            field=name,
            low=low,
            high=high,
        )
        raise BadRequest(name, message)
    return number


def read_ask(
    args: Mapping[str, str], options: Mapping[str, str], *, text: str | None, draw: bool
) -> Ask:
    """Read a rating request; BadRequest names the field at fault.

    ``text``: the phases as typed (None or blank: the rules' own list); ``draw``: draw
    ten phases instead, with ``seed`` if given. ``options``: the house rules (their
    deck and natural-card rule apply); a list typed here replaces their phases.
    """
    most = most_trials()
    turns = _number(args, "turns", 0, rating.MAX_TURNS, rating.DEFAULT_TURNS)
    trials = _number(args, "trials", 1, most, min(rating.DEFAULT_TRIALS, most))
    seed_given = str(args.get("seed", "")).strip() != ""
    seed = _number(args, "seed", 0, 2**31 - 1, rating.DEFAULT_SEED)
    order = str(args.get("order", "easiest")).strip() or "easiest"
    if order not in ("easiest", "given"):
        raise BadRequest("order", _("order must be easiest or given, not %(value)r", value=order))
    own_list = draw or text is not None  # else the rules' own list: their phase options count
    given = {k: v for k, v in options.items() if not (own_list and k in PHASE_OPTIONS)}
    try:
        rules = make_rules(str(args.get("rules", "official")), given)
    except RulesError as error:
        raise BadRequest("rules", str(error)) from None
    drawn = None
    if draw:
        drawn = seed if seed_given else secrets.randbelow(DRAW_SEEDS)
        phases = draw_phases(random.Random(drawn))
    elif text and text.strip():
        try:
            phases = parse_phase_list(text)
        except RulesError as error:
            raise BadRequest("phases", str(error)) from None
    else:
        phases = tuple(rules.phase(n) for n in rules.sequence)
    return Ask(rules, phases, turns, trials, seed, order == "easiest", drawn)


def rate(ask: Ask) -> rating.ListRating:
    return rating.rate(
        ask.phases,
        ask.rules,
        turns=ask.turns,
        trials=ask.trials,
        seed=ask.seed,
        ordered=ask.ordered,
    )


def rate_answer(args: Mapping[str, object], options: Mapping[str, str]) -> tuple[int, dict]:
    """The JSON API's answer: (status, body); 400 names the field at fault."""
    unknown = sorted(set(args) - set(API_FIELDS))
    if unknown:
        keys = ", ".join(map(repr, unknown))
        fields = ", ".join(API_FIELDS)
        return 400, {
            "error": _("unknown key %(keys)s: the keys are %(known)s", keys=keys, known=fields)
        }
    text = args.get("phases")
    if text is not None and not isinstance(text, str):
        return 400, {
            "error": _("phases must be text, e.g. '2 sets of 3; run of 7'"),
            "field": "phases",
        }
    draw_text = str(args.get("draw", "")).strip()
    draw_text = draw_text.lower() if draw_text in ("True", "False") else draw_text  # JSON
    if draw_text not in ("", *YES, *NO):
        return 400, {"error": _("draw must be true or false"), "field": "draw"}
    draw = draw_text in YES
    try:
        # Every house rule sent is judged, those a list of its own replaces too: the API
        # refuses what its description does not allow (phases=custom with no list, say).
        make_rules(str(args.get("rules", "official")), options)
    except RulesError as error:
        return 400, {"error": str(error), "field": "rules"}
    try:
        ask = read_ask({k: str(v) for k, v in args.items()}, options, text=text, draw=draw)
    except BadRequest as error:
        return 400, {"error": error.message, "field": error.field}
    answer: dict[str, object] = {"rules": ask.rules.profile, **rate(ask).to_json()}
    if ask.drawn is not None:
        answer["drawn"] = ask.drawn
    return 200, answer


YES, NO = ("1", "true", "yes"), ("0", "false", "no")


API_FIELDS = ("phases", "draw", "rules", "option", "turns", "trials", "seed", "order")
