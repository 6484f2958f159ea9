"""A dispute tool's question, read once from a page's URL or an API call, and the engine's
answer to it: the phase checker, the hit checker and the solver (tools.py shows them as
pages, api.py as JSON)."""

from __future__ import annotations

from dataclasses import dataclass, field

from werkzeug.datastructures import MultiDict

from ..i18n import _
from ..reports import current_game
from ..rules.cards import Card, CardError, format_cards, parse_cards
from ..rules.check import arrange_run, check_phase
from ..rules.hit import check_hit
from ..rules.phases import GroupKind, RulesError
from ..rules.ruleset import Rules, make_rules
from ..rules.solve import solve
from .access import db
from .forms import number_in

MAX_CARDS_TEXT = 400


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
        current = current_game.load(db(), game_id)
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


def make_tool(args: MultiDict) -> Tool:
    rules, profile, phase, label = _rules_from(args)
    return Tool(args, rules, profile, phase, label)


def layout_groups(tool: Tool):
    phase = tool.rules.phase(tool.phase)
    index = number_in(tool.args.get("layout", "0"), 0, len(phase.layouts) - 1)
    return phase.groups if index is None else phase.layouts[index]


def run_phase_check(tool: Tool):
    layout = layout_groups(tool)
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


def run_solve(tool: Tool):
    hand = tool.cards("hand", required=False)
    if tool.errors or not hand:
        return None
    try:
        return solve(tool.rules, tool.phase, hand)
    except CardError as error:  # cards no deck holds, e.g. five Skips
        tool.errors["hand"] = str(error)
        return None
