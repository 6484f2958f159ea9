"""How hard a phase is, counted exactly: the chance that the 10 cards dealt hold it.

``rating.rate`` estimates a phase's chance by dealing hands; for the cards as dealt
(no drawing) many phases can be counted exactly instead, over every one of the
C(108, 10) hands. The hands are not listed one by one: they fall into classes the
phase cannot tell apart, and the engine's own ``solve.held_phases`` judges one hand
of each class, with each number of Wilds, so the count uses the same rules (natural
cards, Wilds) as every other answer of the app. ``standing_for`` gives the hand that
stands for any hand's class, for the test that the engine judges both alike.

- a phase of sets only sees how many cards of each number the hand holds, not which
  numbers they are: a class is the counts, largest first (five 7s and two 3s is
  like five 12s and two 1s);
- a phase of one run (or of one run or another) sees which numbers the hand holds;
- a phase of colour groups only sees how many cards of each colour it holds, in
  any order of the colours;
- any other phase of sets and runs sees how many cards of each number, counted up
  to the most one number can give it (its sets' cards and one for each run), and
  reads the same from 12 down to 1.

A class's weight is how many hands of 10 fall into it: for each number (or colour)
the ways to pick its cards from the deck's 8 (or 24), times the ways to pick the
Wilds from 8 and the Skips from 4. Skips play no part here. The Super Wild variant,
where a Skip may stand as a blue card and one Wild counts twice, and a phase that
mixes colour groups with sets or runs are not counted: ``dealt_chance`` answers
None for them, and the estimate stands alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache
from math import comb, factorial, prod

from .cards import DECK_SIZE, DECK_SKIPS, DECK_WILDS, WILD, Card, Colour, number_card
from .phases import GroupKind, Phase
from .ruleset import Rules
from .solve import held_phases

DEALT = 10
NUMBERS = 12
COLOURS = tuple(Colour)
PER_NUMBER = 8  # two of each colour
PER_COLOUR = 24  # two of each number

# A class of hands: its weight for each count of numbered cards in it (index 0-10), and
# one hand of numbered cards (no Wilds) standing for the class.
Classes = Iterator[tuple[list[int], tuple[Card, ...]]]


def dealt_chance(phase: Phase, rules: Rules) -> Fraction | None:
    """The exact chance that 10 cards dealt from ``rules``' deck hold ``phase``, or None
    when it is not counted (a Super Wild deck, or colour groups beside sets or runs)."""
    classes = _classes(phase)
    if classes is None or rules.super_wild:
        return None
    held = 0
    for weights, naturals in classes:
        if not any(weights):
            continue
        fewest = min(n for n in range(DEALT + 1) if weights[n])
        wilds = _fewest_wilds(phase, rules, naturals, DEALT - fewest)
        if wilds is None:
            continue
        for n, weight in enumerate(weights):
            held += weight * sum(_others(n, w) for w in range(wilds, DEALT - n + 1))
    return Fraction(held, comb(DECK_SIZE, DEALT))


def _others(naturals: int, wilds: int) -> int:
    """The ways to fill the rest of a hand with ``naturals`` numbered cards: that many
    Wilds and Skips for the other places."""
    skips = DEALT - naturals - wilds
    return comb(DECK_WILDS, wilds) * comb(DECK_SKIPS, skips) if skips >= 0 else 0


def _fewest_wilds(phase: Phase, rules: Rules, naturals: tuple[Card, ...], most: int) -> int | None:
    """The fewest Wilds (up to ``most``) with which these cards hold the phase, by the
    engine's own judgement; None if no number of them does."""
    for wilds in range(most + 1):
        if held_phases(rules, [phase], (*naturals, *[WILD] * wilds))[0]:
            return wilds
    return None


def _reading(phase: Phase) -> tuple[str, int] | None:
    """What of a hand the phase sees: its colour counts, its number counts, the numbers it
    holds, or its number counts up to a most (with that most); None: not counted here."""
    kinds = {spec.kind for layout in phase.layouts for spec in layout}
    if kinds == {GroupKind.COLOUR}:
        return "colours", 0
    if GroupKind.COLOUR in kinds:
        return None
    if kinds == {GroupKind.SET}:
        return "counts", 0
    if kinds == {GroupKind.RUN} and all(len(layout) == 1 for layout in phase.layouts):
        return "numbers", 0
    most = max(
        sum(spec.size if spec.kind is GroupKind.SET else 1 for spec in layout)
        for layout in phase.layouts
    )
    return "capped", most


def _classes(phase: Phase) -> Classes | None:
    reading = _reading(phase)
    if reading is None:
        return None
    what, most = reading
    if what == "colours":
        return _by_colour()
    if what == "counts":
        return _by_counts()
    if what == "numbers":
        return _by_presence()
    return _by_capped_counts(most)


def standing_for(phase: Phase, cards: Sequence[Card]) -> tuple[Card, ...] | None:
    """The numbered cards that stand for this hand's class when ``phase`` is counted (its
    Wilds and Skips left out), or None when the phase is not counted here. With the hand's
    Wilds added, the engine must judge them as it judges the hand (tests/test_exact.py)."""
    reading = _reading(phase)
    if reading is None:
        return None
    what, most = reading
    naturals = [card for card in cards if card.is_natural]
    if what == "colours":
        per_colour = [sum(1 for card in naturals if card.hue is c) for c in COLOURS]
        return _colour_hand(tuple(sorted((c for c in per_colour if c), reverse=True)))
    per_number = [sum(1 for card in naturals if card.face == n) for n in range(1, NUMBERS + 1)]
    if what == "counts":
        return _counts_hand(tuple(sorted((c for c in per_number if c), reverse=True)))
    if what == "numbers":
        return _numbers_hand(tuple(n + 1 for n, c in enumerate(per_number) if c))
    capped = tuple(min(c, most) for c in per_number)
    return _counts_hand(min(capped, capped[::-1]))


# --- the classes ---------------------------------------------------------------------


def _counts_hand(counts: tuple[int, ...]) -> tuple[Card, ...]:
    """``counts[0]`` 1s, ``counts[1]`` 2s, and so on, two of each colour."""
    return tuple(
        number_card(COLOURS[i // 2], number + 1)
        for number, count in enumerate(counts)
        for i in range(count)
    )


def _colour_hand(counts: tuple[int, ...]) -> tuple[Card, ...]:
    """``counts[0]`` red cards, ``counts[1]`` blue ones, and so on, of different numbers."""
    return tuple(
        number_card(COLOURS[colour], i % NUMBERS + 1)
        for colour, count in enumerate(counts)
        for i in range(count)
    )


def _numbers_hand(numbers: tuple[int, ...]) -> tuple[Card, ...]:
    """One red card of each of ``numbers``."""
    return tuple(number_card(COLOURS[0], number) for number in numbers)


def _partitions(total: int, most: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as at most ``parts`` counts of 1 to ``most``, largest first."""
    if total == 0:
        yield ()
        return
    if parts == 0:
        return
    for first in range(min(total, most), 0, -1):
        for rest in _partitions(total - first, first, parts - 1):
            yield (first, *rest)


def _arrangements(counts: tuple[int, ...], places: int) -> int:
    """In how many ways ``counts`` go to different ones of ``places`` (numbers or colours)."""
    repeats = prod(factorial(len(list(same))) for _, same in itertools.groupby(counts))
    return factorial(places) // factorial(places - len(counts)) // repeats


def _by_counts() -> Classes:
    for n in range(DEALT + 1):
        for counts in _partitions(n, PER_NUMBER, NUMBERS):
            weights = [0] * (DEALT + 1)
            weights[n] = _arrangements(counts, NUMBERS) * prod(comb(PER_NUMBER, c) for c in counts)
            yield weights, _counts_hand(counts)


def _by_colour() -> Classes:
    for n in range(DEALT + 1):
        for counts in _partitions(n, PER_COLOUR, len(COLOURS)):
            weights = [0] * (DEALT + 1)
            weights[n] = _arrangements(counts, len(COLOURS)) * prod(
                comb(PER_COLOUR, c) for c in counts
            )
            yield weights, _colour_hand(counts)


@cache
def _at_least_one(numbers: int) -> tuple[int, ...]:
    """For each count n of cards, the ways to pick n cards from ``numbers`` numbers, at
    least one of each (8 copies each)."""
    one = [comb(PER_NUMBER, k) for k in range(1, PER_NUMBER + 1)]  # k + 1 cards: one[k]
    ways = [1] + [0] * DEALT
    for _ in range(numbers):
        ways = [
            sum(ways[n - k - 1] * one[k] for k in range(min(n, PER_NUMBER)))
            for n in range(DEALT + 1)
        ]
    return tuple(ways)


def _by_presence() -> Classes:
    for size in range(min(NUMBERS, DEALT) + 1):
        weights = list(_at_least_one(size))
        for present in itertools.combinations(range(1, NUMBERS + 1), size):
            yield weights, _numbers_hand(present)


def _by_capped_counts(most: int) -> Classes:
    """Counts of each number, ``most`` standing for ``most`` or more; a count and its mirror
    (12 down to 1) are one class."""
    # cards of one number, taken `most` or more at once: the ways for each count
    plenty = [comb(PER_NUMBER, k) if most <= k <= PER_NUMBER else 0 for k in range(DEALT + 1)]
    spread = [[1] + [0] * DEALT]  # spread[j][n]: n cards over j numbers, each `most` or more
    for _ in range(DEALT // most):
        last = spread[-1]
        spread.append(
            [sum(last[n - k] * plenty[k] for k in range(n + 1)) for n in range(DEALT + 1)]
        )
    found: dict[tuple[int, ...], list[int]] = {}

    def walk(counts: tuple[int, ...], left: int, fewer: int, ways: int, full: int) -> None:
        if len(counts) == NUMBERS:
            key = min(counts, counts[::-1])
            weights = found.setdefault(key, [0] * (DEALT + 1))
            for n in range(fewer + most * full, DEALT + 1):
                weights[n] += ways * spread[full][n - fewer]
            return
        for count in range(min(left, most) + 1):
            if count == most:
                walk((*counts, count), left - count, fewer, ways, full + 1)
            else:
                walk(
                    (*counts, count),
                    left - count,
                    fewer + count,
                    ways * comb(PER_NUMBER, count),
                    full,
                )

    walk((), DEALT, 0, 1, 0)
    for counts, weights in found.items():
        yield weights, _counts_hand(counts)


# --- the official list, as the rules page gives it -------------------------------------

# How many of the 38,722,819,230,810 hands of 10 hold each official phase: dealt_chance,
# counted once (about three minutes, nearly all of it phases 2 and 3, a set beside a run) and
# kept here for the rules page; tests/test_exact.py counts them again.
HANDS = comb(DECK_SIZE, DEALT)
OFFICIAL_DEALT: dict[int, Fraction] = {
    number: Fraction(held, HANDS)
    for number, held in {
        1: 7_076_688_286_712,
        2: 11_542_982_404_112,
        3: 2_068_500_398_704,
        4: 6_028_742_383_664,
        5: 2_512_414_175_824,
        6: 771_580_074_832,
        7: 128_608_480_744,
        8: 1_071_555_721_624,
        9: 1_205_167_517_304,
        10: 136_415_907_448,
    }.items()
}
