"""Dispute tools: phase checker, hit checker, hand helper (their JSON API is in api.py).

Every tool is a GET form whose whole state is in the URL, so a tap on a card
in the palette is a plain submit that works without JavaScript; with htmx the
page is swapped in place. The same parsing feeds the JSON endpoints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, render_template, request
from werkzeug.datastructures import MultiDict

from ...i18n import _
from ...rules.cards import CardError, Colour, Kind, parse_card
from ...rules.ruleset import PROFILES, make_rules
from ...rules.solve import closer_cards, describe_cards
from ..checking import (
    BadRequest,
    Tool,
    layout_groups,
    make_tool,
    run_hit,
    run_phase_check,
    run_solve,
)
from ..forms import whole_number

bp = Blueprint("tools", __name__)
bp.add_app_template_global(layout_groups)  # the phase page shows the groups it judges
REGULAR_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")


CARD_FIELDS = frozenset({*(f"g{i}" for i in range(6)), "group", "card", "hand"})
SINGLE_CARD = frozenset({"card"})  # a tap here replaces the card rather than adding one


def _edit_groups(args: MultiDict) -> MultiDict:
    """Apply a palette tap (add=R7 to the active field), a removal (remove=g1:2) or a clear."""
    args = MultiDict(args)
    target = args.get("active", "g0")
    if (card := args.get("add")) and target in CARD_FIELDS:
        kept = "" if target in SINGLE_CARD else args.get(target, "")
        args[target] = f"{kept} {card}".strip()
    name, _, index = args.get("remove", "").partition(":")
    position = whole_number(index)
    if name in CARD_FIELDS and position is not None:
        tokens = args.get(name, "").split()
        if position < len(tokens):
            del tokens[position]
            args[name] = " ".join(tokens)
    if (clear := args.get("clear")) in CARD_FIELDS:
        args[clear] = ""
    for key in ("add", "remove", "clear"):
        args.pop(key, None)
    return args


def palette(tool: Tool) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Rows of (value, label, css class) for the tap palette."""
    rows = []
    for colour in Colour:
        if tool.regular:
            suit = next(s for s, c in tool.rules.suit_colours.items() if c is colour)
            cards = [
                (f"{rank}{suit}", f"{rank}{colour.symbol}", f"c-{colour.value}")
                for rank in REGULAR_RANKS
            ]
        else:
            cards = [
                (f"{colour.value}{n}", f"{colour.value}{n}", f"c-{colour.value}")
                for n in range(1, 13)
            ]
        # cards are still typed R, B, G, Y in every language; the row says the colour
        rows.append((f"{colour.word.capitalize()} {colour.symbol}", cards))
    specials = (
        [("K" + "H", _("King = Wild"), "c-W"), ("JOKER", _("Joker = Skip"), "c-S")]
        if tool.regular
        else [("W", Kind.WILD.word, "c-W"), ("S", Kind.SKIP.word, "c-S")]
    )
    if tool.rules.super_wild and not tool.regular:
        specials += [("SW", Kind.SUPER_WILD.word, "c-SW"), ("SS", Kind.SUPER_SKIP.word, "c-SS")]
    rows.append((_("Wild and Skip"), specials))
    return rows


def chips(tool: Tool, name: str) -> list[tuple[int, str, str]]:
    """The cards typed into one field as (index, label, css class), unreadable ones kept."""
    result = []
    for i, token in enumerate(tool.args.get(name, "").split()):
        try:
            card = parse_card(token, tool.rules.suit_colours)
            css = f"c-{card.colour.value}" if card.colour else f"c-{card.code}"
            label = f"{card.code}{card.colour.symbol}" if card.colour else card.code
        except CardError:
            css, label = "c-bad", token
        result.append((i, label, css))
    return result


def _page(template: str, run: Callable[[Tool], Any]):
    """Render a tool page; unreadable input is a 400 that keeps what was typed."""
    args = _edit_groups(request.args)
    try:
        tool = make_tool(args)
        result = run(tool)
    except BadRequest as error:
        tool = Tool(args, make_rules(), "official", 1)
        tool.errors[error.field] = error.message
        result = None
    page = render_template(
        template, tool=tool, result=result, profiles=PROFILES, palette=palette(tool), chips=chips
    )
    return page, 400 if tool.errors else 200


# --- the three tools ------------------------------------------------------------


def _move_on_when_full(tool: Tool) -> None:
    """After a tap fills a group, the next taps go to the next group still short of cards."""
    if not request.args.get("add"):
        return
    names = [f"g{i}" for i in range(len(layout_groups(tool)))]
    active = tool.args.get("active", "g0")
    if active not in names:
        return

    def full(i: int) -> bool:
        cards = tool.cards(names[i], required=False)
        return sum(card.width for card in cards) >= layout_groups(tool)[i].size

    start = names.index(active)
    if full(start):
        later = [i for i in range(start + 1, len(names)) if not full(i)]
        if later:
            tool.args["active"] = names[later[0]]


def run_phase_page(tool: Tool):
    verdict = run_phase_check(tool)
    _move_on_when_full(tool)
    return verdict


@bp.get("/check")
def phase_page():
    return _page("check_phase.html", run_phase_page)


@bp.get("/check/hit")
def hit_page():
    return _page("check_hit.html", run_hit)


def run_hand_helper(tool: Tool):
    """The solver's answer, and every card that would bring the phase closer."""
    result = run_solve(tool)
    if result is not None and not result.can_make:
        hand = tool.cards("hand")
        tool.closer = describe_cards(closer_cards(tool.rules, tool.phase, hand))
    return result


@bp.get("/check/hand")
def hand_page():
    return _page("check_hand.html", run_hand_helper)
