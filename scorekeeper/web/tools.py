"""Dispute tools: phase checker, hit checker, hand helper (their JSON API is in api.py).

Every tool is a GET form whose whole state is in the URL, so a tap on a card
in the palette is a plain submit that works without JavaScript; with htmx the
page is swapped in place. The same parsing feeds the JSON endpoints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, render_template, request
from werkzeug.datastructures import MultiDict

from .. import actions
from ..i18n import _
from ..rules.cards import Card, CardError, Colour, Kind, format_cards, parse_card, parse_cards
from ..rules.check import arrange_run, check_phase
from ..rules.hit import check_hit
from ..rules.phases import PROFILES, GroupKind, Rules, RulesError, make_rules
from ..rules.solve import closer_cards, describe_cards, solve
from .access import db
from .forms import number_in, whole_number

bp = Blueprint("tools", __name__)
MAX_CARDS_TEXT = 400
REGULAR_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")


class BadRequest(Exception):
    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field, self.message = field, message


@dataclass
class Tool:
    """What a checker page needs: rules, phase, the typed text, and errors."""

    args: MultiDict
    rules: Rules
    profile: str
    phase: int
    game_label: str | None = None
    errors: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    closer: tuple[str, ...] = ()  # the hand helper: every card that brings the phase closer

    @property
    def regular(self) -> bool:
        return self.args.get("deck") == "regular"

    def cards(self, name: str, *, required: bool = True) -> list[Card]:
        text = self.args.get(name, "")[:MAX_CARDS_TEXT]
        try:
            cards = parse_cards(text, self.rules.suit_colours)
        except CardError as error:
            self.errors[name] = str(error)
            return []
        if required and not cards:
            self.errors[name] = _("Tap or type at least one card")
        return cards


def _rules_from(args: MultiDict) -> tuple[Rules, str, int, str | None]:
    """Rules and phase from a game's player (game=<view id>&player=N) or from the form."""
    game_id = args.get("game", "")
    if game_id:
        current = actions.load(db(), game_id)
        if current is None:
            raise BadRequest("game", _("There is no game with that link."))
        game, standings = current.game, current.standings
        seat = number_in(args.get("player", "0"), 0, len(game.players) - 1)
        if seat is None:
            raise BadRequest("player", _("Pick a player of this game."))
        player = standings.players[seat]
        phase = _phase_number(args, game.rules, default=player.phase)
        label = _("%(player)s, phase %(phase)s", player=player.name, phase=player.phase)
        return game.rules, game.rules.profile, phase, label
    profile = args.get("rules", "official")
    try:
        rules = make_rules(profile, house_rules(args))
    except RulesError as error:
        raise BadRequest("rules", str(error)) from None
    return rules, profile, _phase_number(args, rules, default=rules.sequence[0]), None


def house_rules(args: MultiDict) -> dict[str, str]:
    """The house rules asked for, each as option=key=value."""
    options = {}
    for pair in args.getlist("option"):
        key, sep, value = pair.partition("=")
        if not sep:
            raise BadRequest("option", _("option %(option)r must look like key=value", option=pair))
        options[key] = value
    return options


def _phase_number(args: MultiDict, rules: Rules, default: int) -> int:
    text = args.get("phase", "")
    if not text:
        return default
    number = number_in(text, 1, len(rules.phase_list))
    if number is None:
        raise BadRequest("phase", _("Pick a phase from 1 to %(last)s.", last=len(rules.phase_list)))
    try:
        rules.playable(number)
    except RulesError as error:
        raise BadRequest("phase", f"{str(error).capitalize()}.") from None
    return number


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


def make_tool(args: MultiDict) -> Tool:
    rules, profile, phase, label = _rules_from(args)
    return Tool(args, rules, profile, phase, label)


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


def _layout_groups(tool: Tool):
    phase = tool.rules.phase(tool.phase)
    index = number_in(tool.args.get("layout", "0"), 0, len(phase.layouts) - 1)
    return phase.groups if index is None else phase.layouts[index]


def run_phase_check(tool: Tool):
    layout = _layout_groups(tool)
    groups = [tool.cards(f"g{i}", required=False) for i in range(len(layout))]
    extra = [tool.cards(f"g{i}", required=False) for i in range(len(layout), 6)]
    if tool.errors:
        return None
    if not any(groups):
        return None
    verdict = check_phase(tool.rules, tool.phase, groups + [group for group in extra if group])
    if verdict.valid:  # say how a run tapped out of order is laid, Wilds and all
        for spec, cards in zip(layout, groups, strict=True):
            laid = arrange_run(cards) if spec.kind is GroupKind.RUN else None
            if laid and list(laid) != cards:
                tool.notes.append(
                    _("%(group)s laid low to high: %(cards)s", group=spec, cards=format_cards(laid))
                )
    return verdict


def _move_on_when_full(tool: Tool) -> None:
    """After a tap fills a group, the next taps go to the next group still short of cards."""
    if not request.args.get("add"):
        return
    names = [f"g{i}" for i in range(len(_layout_groups(tool)))]
    active = tool.args.get("active", "g0")
    if active not in names:
        return

    def full(i: int) -> bool:
        cards = tool.cards(names[i], required=False)
        return sum(card.width for card in cards) >= _layout_groups(tool)[i].size

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


def run_hit(tool: Tool):
    kind_text = tool.args.get("kind", "run")
    kind = (
        GroupKind("colour" if kind_text == "color" else kind_text)
        if kind_text in ("set", "run", "colour", "color")
        else None
    )
    if kind is None:
        tool.errors["kind"] = _("Pick set, run or colour")
        return None
    group = tool.cards("group", required=False)
    cards = tool.cards("card", required=False)
    if tool.errors or not group or not cards:
        return None
    if len(cards) != 1:
        tool.errors["card"] = _("Check one card at a time")
        return None
    return check_hit(tool.rules, kind, group, cards[0])


@bp.get("/check/hit")
def hit_page():
    return _page("check_hit.html", run_hit)


def run_solve(tool: Tool):
    hand = tool.cards("hand", required=False)
    if tool.errors or not hand:
        return None
    try:
        return solve(tool.rules, tool.phase, hand)
    except CardError as error:  # cards no deck holds, e.g. five Skips
        tool.errors["hand"] = str(error)
        return None


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
