"""A deliberately simple, slow oracle for the property tests of check.py and solve.py.

It reads the rules straight from their definitions (RULES.md 4-5) and tries
everything: every start of a run, every way to share the hand's cards among
the groups. Keep hands small (about 7 cards) when asking it about a hand.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, product

from scorekeeper.rules.cards import Card, Colour, Kind, impossible
from scorekeeper.rules.phases import GroupKind, GroupSpec
from scorekeeper.rules.ruleset import Rules


def _blue_skip(rules: Rules, kind: GroupKind, card: Card) -> bool:
    """Super Wild: a Skip (and, by house rule, the Super Skip) may be blue."""
    kinds = (
        {Kind.SKIP, Kind.SUPER_SKIP} if rules.options["super_skip_blue"] == "yes" else {Kind.SKIP}
    )
    return rules.super_wild and kind is GroupKind.COLOUR and card.kind in kinds


def _natural(rules: Rules, kind: GroupKind, card: Card) -> bool:
    """A numbered card, or a blue Skip under house rule blue_skip_natural."""
    skip_natural = rules.super_wild and rules.options["blue_skip_natural"] == "yes"
    return card.is_natural or (skip_natural and _blue_skip(rules, kind, card))


# --- a laid-down phase: a run counts in whichever order its cards make one -----


def group_ok(
    rules: Rules, spec: GroupSpec, cards: tuple[Card, ...], *, as_laid: bool = False
) -> bool:
    """``as_laid``: a run already on the table (hits) keeps its order."""
    if any(c.is_skip and not _blue_skip(rules, spec.kind, c) for c in cards):
        return False
    places = sum(c.width for c in cards)
    if places < spec.size:
        return False
    naturals = [c for c in cards if c.is_natural]
    if not rules.natural_per_phase and not any(_natural(rules, spec.kind, c) for c in cards):
        return False
    if spec.kind is GroupKind.SET:
        return len({c.number for c in naturals}) <= 1
    if spec.kind is GroupKind.COLOUR:
        colours = {c.colour for c in naturals} | {Colour.BLUE for c in cards if c.is_skip}
        return len(colours) <= 1
    return run_in_order(cards) if as_laid else run_in_some_order(cards)


def run_in_order(cards: tuple[Card, ...]) -> bool:
    """The cards, exactly as laid (low to high or high to low), are a run within 1-12."""
    return bool(laid_run_numbers(cards))


def laid_run_numbers(cards: tuple[Card, ...]) -> list[list[int]]:
    """Every list of numbers the run's places may stand for, as laid, either way."""
    places = sum(c.width for c in cards)
    found = []
    for step in (1, -1):
        for first in range(1, 13):
            numbers = [first + step * i for i in range(places)]
            if any(not 1 <= n <= 12 for n in numbers):
                continue
            if _naturals_match(cards, numbers):
                found.append(numbers)
    return found


def _naturals_match(cards: tuple[Card, ...], numbers: list[int]) -> bool:
    place = 0
    for card in cards:
        if card.is_natural and card.number != numbers[place]:
            return False
        place += card.width
    return True


def run_hit(group: tuple[Card, ...], card: Card) -> bool | None:
    """Does ``card`` extend the run on the table? True or False whatever its Wilds stand
    for; None when that decides it. Tries the card in front and behind, in each reading."""
    answers = set()
    for numbers in laid_run_numbers(group):
        step = numbers[1] - numbers[0] if len(numbers) > 1 else 1
        fits = False
        for extended, cards in (
            ([numbers[0] - step * i for i in range(card.width, 0, -1)] + numbers, (card, *group)),
            (numbers + [numbers[-1] + step * i for i in range(1, card.width + 1)], (*group, card)),
        ):
            if all(1 <= n <= 12 for n in extended) and not card.is_skip:
                fits = fits or _naturals_match(cards, extended)
        answers.add(fits)
    return answers.pop() if len(answers) == 1 else None


def run_in_some_order(cards: tuple[Card, ...]) -> bool:
    """Some order of the cards is a run within 1-12: try every start, and every
    choice of neighbouring gaps for the Super Wilds (the rest take Wilds)."""
    numbers = [c.number for c in cards if c.is_natural]
    if len(set(numbers)) != len(numbers):
        return False
    supers = sum(c.kind is Kind.SUPER_WILD for c in cards)
    places = sum(c.width for c in cards)
    for start in range(1, 13 - places + 1):
        span = set(range(start, start + places))
        if not set(numbers) <= span:
            continue
        gaps = span - set(numbers)
        pairs = [(n, n + 1) for n in gaps if n + 1 in gaps]
        for chosen in combinations(pairs, supers):
            used = [n for pair in chosen for n in pair]
            if len(set(used)) == len(used):
                return True
    return False


def phase_ok(rules: Rules, number: int, groups: list[tuple[Card, ...]]) -> bool:
    if impossible([c for g in groups for c in g], super_wild=rules.super_wild):
        return False
    if rules.natural_per_phase and not any(
        _natural(rules, GroupKind.COLOUR, c) for g in groups for c in g
    ):
        return False
    return any(
        len(layout) == len(groups)
        and all(group_ok(rules, spec, g) for spec, g in zip(layout, groups, strict=True))
        for layout in rules.phase(number).layouts
    )


# --- a hand: the fewest cards to add so it can make the phase ------------------


@cache
def group_extras(
    spec: GroupSpec,
    cards: tuple[Card, ...],
    per_group: bool,
    blue_kinds: frozenset[Kind],
    skip_natural: bool,
) -> int | None:
    """Fewest cards to add to exactly these cards to make the group (None: never).

    ``blue_kinds``: the Skips that may be blue (Super Wild); ``skip_natural``:
    a blue Skip may be the group's natural card."""
    naturals = [c for c in cards if c.is_natural]
    skips = [c for c in cards if c.is_skip]
    wild_places = sum(c.width for c in cards if c.is_wild)
    supers = sum(1 for c in cards if c.kind is Kind.SUPER_WILD)
    if skips and not (spec.kind is GroupKind.COLOUR and all(c.kind in blue_kinds for c in skips)):
        return None
    needs_natural = per_group and not naturals and not (skip_natural and skips)
    if spec.kind in (GroupKind.SET, GroupKind.COLOUR):
        if spec.kind is GroupKind.SET:
            kinds = {c.number for c in naturals}
        else:
            kinds = {c.colour for c in naturals} | ({Colour.BLUE} if skips else set())
        if len(kinds) > 1:
            return None
        short = max(0, spec.size - len(naturals) - len(skips) - wild_places)
        return max(short, 1) if needs_natural else short
    numbers = [c.number for c in naturals]
    if len(set(numbers)) < len(numbers):
        return None
    best = None
    for low in range(1, 13):
        for high in range(low, 13):
            length = high - low + 1
            if length < spec.size or any(not low <= n <= high for n in numbers):
                continue
            free = length - len(numbers)  # places for Wilds and added cards
            extras = free - wild_places
            if extras < 0 or (needs_natural and extras < 1):
                continue
            if supers and not any(
                a not in numbers and a + 1 not in numbers for a in range(low, high)
            ):
                continue
            best = extras if best is None else min(best, extras)
    return best


def fewest_missing(rules: Rules, number: int, hand: list[Card]) -> int:
    """Try every way to share the hand among the groups (or leave cards in hand)."""
    per_group = not rules.natural_per_phase
    blue_kinds = frozenset(
        k for k in (Kind.SKIP, Kind.SUPER_SKIP) if _blue_skip(rules, GroupKind.COLOUR, Card(k))
    )
    skip_natural = rules.super_wild and rules.options["blue_skip_natural"] == "yes"
    hand = sorted(hand, key=Card.sort_key)
    best = None
    for layout in rules.phase(number).layouts:
        for choice in product(range(len(layout) + 1), repeat=len(hand)):
            total, any_natural = 0, False
            for g, spec in enumerate(layout):
                cards = tuple(c for c, to in zip(hand, choice, strict=True) if to == g)
                extras = group_extras(spec, cards, per_group, blue_kinds, skip_natural)
                if extras is None:
                    break
                total += extras
                any_natural = any_natural or any(
                    c.is_natural or (skip_natural and c.is_skip) for c in cards
                )
            else:
                if not per_group and not any_natural:
                    total = max(total, 1)
                best = total if best is None else min(best, total)
    assert best is not None
    return best
