"""The 10 cards as dealt, counted exactly (rules/exact.py): the rules page's figures."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import pytest

from scorekeeper import i18n
from scorekeeper.rules import exact
from scorekeeper.rules.cards import deck
from scorekeeper.rules.phases import parse_phase
from scorekeeper.rules.ruleset import OFFICIAL, make_rules
from scorekeeper.rules.solve import held_phases

pytestmark = pytest.mark.exhaustive  # counts every deal of every phase

# Issue 29: an independent exact enumeration of every 10-card hand (a published Monte Carlo
# agrees), in %, for the official phases 1-10.
ISSUE_29 = {
    1: 18.275,
    2: 29.809,
    3: 5.342,
    4: 15.569,
    5: 6.488,
    6: 1.993,
    7: 0.332,
    8: 2.767,
    9: 3.112,
    10: 0.352,
}
# Sets, runs or colour groups alone: a few thousand classes of hands, counted in a moment.
# Phases 2 and 3 mix a set with a run and have far more (test_the_kept_figures_are_...).
ALONE = [1, 4, 5, 6, 7, 8, 9, 10]


def in_percent(chance: Fraction | None) -> float:
    assert chance is not None
    return round(float(chance) * 100, 3)


@pytest.mark.parametrize("number", ALONE)
def test_the_official_phases_of_one_kind_of_group_as_the_issue_counted_them(number):
    assert in_percent(exact.dealt_chance(OFFICIAL.phase(number), OFFICIAL)) == ISSUE_29[number]


@pytest.mark.parametrize(
    "number",
    # a set beside a run (phases 2, 3) sees every number's count: 1-2 minutes each, on
    # cores of their own when the suite runs on several
    [pytest.param(n, marks=pytest.mark.slow) if n in (2, 3) else n for n in range(1, 11)],
)
def test_the_kept_figures_are_the_ones_counted_now(number):
    """The rules page's figures, kept in exact.OFFICIAL_DEALT, are what the engine counts."""
    assert exact.dealt_chance(OFFICIAL.phase(number), OFFICIAL) == exact.OFFICIAL_DEALT[number]


def test_the_kept_figures_are_the_issues():
    assert {n: in_percent(chance) for n, chance in exact.OFFICIAL_DEALT.items()} == ISSUE_29


@pytest.mark.parametrize(
    "classes",
    [
        exact._by_counts,
        exact._by_colour,
        exact._by_presence,
        pytest.param(lambda: exact._by_capped_counts(4), marks=pytest.mark.slow),  # 15 s
    ],
    ids=["counts", "colours", "numbers held", "counts up to 4"],
)
def test_every_hand_of_ten_is_in_exactly_one_class(classes):
    """The classes' weights, with every way to fill the rest with Wilds and Skips, add up
    to every hand of 10 from the 108 cards."""
    hands = sum(
        weight * sum(exact._others(n, wilds) for wilds in range(11 - n))
        for weights, _ in classes()
        for n, weight in enumerate(weights)
    )
    assert hands == comb(108, 10)


# Phases that see each thing a class keeps: colours, counts, the numbers held (one run, or
# alternatives of one run), capped counts (a set beside a run, two runs, a set or a run).
READINGS = [
    "7 of one colour",
    "2 x 4 of one colour",
    "2 sets of 3",
    "set of 5 + set of 2",
    "run of 7",
    "run of 4 or run of 6",
    "set of 3 + run of 4",
    "set of 4 + run of 4",
    "2 runs of 3",
    "2 sets of 2 or run of 5",
]


@pytest.mark.parametrize("text", READINGS)
@pytest.mark.parametrize("natural", ["group", "phase"])
def test_a_hand_is_judged_as_the_hand_that_stands_for_its_class(text, natural):
    """The classes are sound: for 300 hands dealt, the engine judges each hand as it judges
    the cards standing for its class with the hand's Wilds."""
    rules = make_rules(options={"natural": natural})
    phase = parse_phase(text)
    deal = random.Random(29)
    cards = deck()
    for _ in range(300):
        hand = deal.sample(cards, 10)
        standing = exact.standing_for(phase, hand)
        assert standing is not None
        wilds = [card for card in hand if card.is_wild]
        judged = held_phases(rules, [phase], [*standing, *wilds])
        assert judged == held_phases(rules, [phase], hand), hand


def test_a_pair_as_dealt_is_every_hand_but_those_with_no_two_alike():
    """Counted another way: a hand holds no set of 2 when its numbered cards all differ and
    it has no Wild beside them, or when it has no numbered card at all."""
    apart = sum(comb(12, n) * 8**n * comb(4, 10 - n) for n in range(6, 11))
    no_number = comb(8 + 4, 10)
    expected = 1 - Fraction(apart + no_number, comb(108, 10))
    assert exact.dealt_chance(parse_phase("set of 2"), OFFICIAL) == expected


def test_a_phase_it_cannot_count_cheaply_is_left_to_the_estimate():
    assert exact.dealt_chance(parse_phase("run of 4 + 4 of one colour"), OFFICIAL) is None
    super_wild = make_rules("super-wild")
    assert exact.dealt_chance(super_wild.phase(1), super_wild) is None


def test_an_exact_share_is_written_to_two_places_in_each_language():
    written = {}
    for lang in ("en", "de", "fr", "pl"):
        with i18n.using(lang):
            written[lang] = i18n.exact_percent(Fraction(3112, 100000))
    assert written == {"en": "3.11%", "de": "3,11\xa0%", "fr": "3,11\xa0%", "pl": "3,11%"}
    with i18n.using("en"):
        assert i18n.exact_percent(Fraction(84, 1000)) == "8.40%"
