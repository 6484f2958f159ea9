"""Can this hand make the phase, and how; if not, what is missing (RULES.md 3-5)."""

import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import fewest_missing

from scorekeeper.rules.cards import (
    SUPER_WILD,
    WILD,
    Card,
    CardError,
    Colour,
    deck,
    impossible,
    number_card,
    parse_cards,
)
from scorekeeper.rules.check import check_phase
from scorekeeper.rules.phases import PLUS10_PHASES, RulesError, parse_phase_list
from scorekeeper.rules.ruleset import OFFICIAL, make_rules
from scorekeeper.rules.solve import (
    _best_plan,
    _Pool,
    closer_cards,
    describe_cards,
    held_phases,
    solve,
)

SUPER = make_rules("super-wild")
PLUS10 = make_rules("plus10")
PER_PHASE = make_rules(options={"natural": "phase"})
CUSTOM = make_rules(
    options={
        "custom_phases": "run of 3 + 3 of one colour + set of 2; 3 sets of 2; "
        "6 sets of 5; 3 runs of 4 + 3 x 6 of one colour; 6 runs of 2",
        "super_wild": "yes",
    }
)


def assert_lays_down(rules, phase, hand, solution):
    """The plan is a legal phase, made only of cards from the hand."""
    assert solution.can_make and solution.missing == 0 and solution.missing_cards == ()
    assert check_phase(rules, phase, solution.groups).valid
    used = Counter(card for group in solution.groups for card in group)
    assert not used - Counter(hand)
    assert solution.layout in rules.phase(phase).layouts


@pytest.mark.parametrize(
    ("rules", "phase", "hand"),
    [
        # the rule book's example: three 5s and two 7s, then another 7 is drawn
        (OFFICIAL, 1, "R5 B5 G5 R7 B7 Y7 R1 G2 Y3 B9 G11"),
        (OFFICIAL, 1, "R10 B10 G10 Y10 R10 B10 R1 G2 Y3 B9 G11"),  # two sets of the same number
        (OFFICIAL, 2, "R8 G8 Y8 R3 B4 Y6 W G1 G12 B11 R12"),  # the Wild becomes the 5
        (OFFICIAL, 4, "R1 R2 R3 R4 R5 R6 W Y12 Y11 G1 G2"),
        (OFFICIAL, 6, "W W R3 R4 R5 R6 R7 R8 R9 B1 B1"),
        (OFFICIAL, 8, "G1 G3 G4 G8 G9 G12 W R1 R2 R3 R4"),
        (OFFICIAL, 10, "R6 R6 B6 B6 W Y2 Y2 W R1 G3 B7"),
        (SUPER, 7, "B1 R1 G1 B2 R2 G2 B3 R3 Y3 W G9"),  # 3 sets of 3
        (SUPER, 7, "B1 R1 B2 R2 B3 R3 B4 G4 B5 G5 G9"),  # 5 sets of 2
        (SUPER, 8, "B1 B2 B3 B4 S S R6 B9 Y12 Y11 G1"),  # Skips as blue cards
        (SUPER, 2, "R7 B7 G7 R3 SW R6 Y11 G1"),  # the Super Wild as 4 and 5
        (PER_PHASE, 1, "W W W R10 B10 Y10 G1 G5 G9 B2 B3"),
        (PLUS10, 14, "R1 B2 G3 Y4 G7 G9 G11 W R12 R11 B5"),
        (PLUS10, 20, "R6 B6 G6 Y6 R6 W R2 B2 G2 Y9 G11"),
        (CUSTOM, 1, "R1 R2 R3 G5 G9 G7 B7 Y7 Y1 Y2 B12"),
    ],
)
def test_a_hand_that_can_make_its_phase_gets_a_way_to_lay_it_down(rules, phase, hand):
    cards = parse_cards(hand)
    assert_lays_down(rules, phase, cards, solve(rules, phase, cards))


@pytest.mark.parametrize(
    ("rules", "phase", "hand", "missing"),
    [
        (
            OFFICIAL,
            2,
            "R7 B7 G7 R3 R4 R6 Y12 Y12 B9 B9 Y9",
            ("a 5 (any colour) for the run of 4",),
        ),
        (
            OFFICIAL,
            1,
            "R7 B7 R10 B10 Y10 R1 R3 G5 B9 G11 Y12",
            ("a 7 for the 2nd set of 3",),
        ),
        (
            OFFICIAL,
            8,
            "R1 R2 R3 R4 R5 R6 B9 Y12 Y11 G1 G2",
            ("a red card (any number) for the 7 of one colour",),
        ),
        (OFFICIAL, 6, "W W W W W W W W", ("a 1 (any colour) for the run of 9",)),
        (
            OFFICIAL,
            1,
            "W W W W W W W W",
            (
                "a card of any number for the 1st set of 3",
                "a card of any number for the 2nd set of 3",
            ),
        ),
        (
            OFFICIAL,
            9,
            "W W W W W W W",
            ("a card of any number for the set of 5", "a card of any number for the set of 2"),
        ),
        (SUPER, 2, "R7 B7 SW R3 R6 Y11 G1 G2", ("a 7 for the set of 3",)),
    ],
)
def test_a_hand_that_cannot_says_which_cards_are_missing(rules, phase, hand, missing):
    solution = solve(rules, phase, parse_cards(hand))
    assert not solution.can_make and solution.groups is None
    assert solution.missing_cards == missing
    assert solution.missing == len(missing)


def test_an_empty_hand_needs_the_whole_phase():
    solution = solve(OFFICIAL, 3, [])
    assert solution.missing == 8
    assert solution.to_json()["missing"] == 8


def test_naturals_are_used_before_wilds():
    """A Wild is worth 25 points in hand and hits anywhere: don't spend it for nothing."""
    hand = parse_cards("R7 B7 G7 Y7 W W R1 R2 R3 R4 B12")
    solution = solve(OFFICIAL, 2, hand)
    assert WILD not in [card for group in solution.groups for card in group]


def test_wilds_fill_what_is_missing_and_each_group_keeps_a_natural():
    hand = parse_cards("R7 W W W R9 W")
    solution = solve(OFFICIAL, 1, hand)
    assert_lays_down(OFFICIAL, 1, hand, solution)
    assert [sum(c.is_natural for c in g) for g in solution.groups] == [1, 1]


def test_the_super_wild_counts_as_two_wilds():
    hand = parse_cards("R7 SW R9 W W")
    solution = solve(SUPER, 1, hand)
    assert_lays_down(SUPER, 1, hand, solution)


def test_impossible_cards_are_refused():
    with pytest.raises(CardError, match="3 x R7 is impossible"):
        solve(OFFICIAL, 1, parse_cards("R7 R7 R7"))


def test_a_hand_of_more_than_eleven_cards_is_refused():
    with pytest.raises(CardError, match="at most 11 cards"):
        solve(OFFICIAL, 1, parse_cards("R7 B7 G7 R9 B9 G9 Y1 Y2 Y3 Y4 Y5 Y6"))
    assert solve(OFFICIAL, 1, parse_cards("R7 B7 G7 R9 B9 G9 Y1 Y2 Y3 Y4 Y5")).can_make


def test_a_phase_the_game_does_not_play_is_a_rules_error():
    with pytest.raises(RulesError, match="no phase 1 in this game"):
        solve(make_rules("even"), 1, parse_cards("R7 B7 G7 R9 B9 G9"))


def test_an_unknown_phase_is_a_rules_error():
    with pytest.raises(RulesError):
        solve(OFFICIAL, 11, parse_cards("R7"))


def test_a_solution_reads_as_json():
    solution = solve(OFFICIAL, 1, parse_cards("R7 B7 G7 R9 B9 G9"))
    assert solution.to_json() == {
        "can_make": True,
        "groups": [["R7", "B7", "G7"], ["R9", "B9", "G9"]],
        "layout": ["set of 3", "set of 3"],
        "missing": 0,
        "missing_cards": [],
    }


def extras(solution, hand) -> list[Card]:
    """Cards matching the descriptions of what is missing (the concrete ones)."""
    cards, held = [], Counter(hand)
    for words in solution.missing_cards:
        number = re.match(r"an? (\d+)", words)
        colour = re.match(r"a (red|blue|green|yellow) card", words)
        if number:
            n = int(number.group(1))
            options = [number_card(c, n) for c in Colour]
        elif colour:
            options = [number_card(Colour[colour.group(1).upper()], n) for n in range(1, 13)]
        else:
            return []
        card = next(c for c in options if held[c] < 2)
        held[card] += 1
        cards.append(card)
    return cards


@pytest.mark.parametrize("seed", range(40))
def test_adding_the_missing_cards_makes_the_phase(seed):
    rng = random.Random(seed)
    rules = rng.choice([OFFICIAL, PLUS10, SUPER])
    phase = rng.choice(rules.sequence)
    cards = deck(rules.super_wild)
    rng.shuffle(cards)
    hand = cards[: rng.randint(6, 9)]
    solution = solve(rules, phase, hand)
    added = extras(solution, hand)
    if solution.can_make or len(added) != solution.missing or impossible(hand + added):
        return
    if len(hand + added) > 11:  # more than a hand holds
        return
    assert_lays_down(rules, phase, hand + added, solve(rules, phase, hand + added))


def test_full_hands_and_long_custom_phases_are_solved():
    rng = random.Random(7)
    for phase in CUSTOM.sequence:
        cards = deck(super_wild=True)
        rng.shuffle(cards)
        hand = cards[:11]
        solution = solve(CUSTOM, phase, hand)
        if solution.can_make:
            assert_lays_down(CUSTOM, phase, hand, solution)
        else:
            assert solution.missing == len(solution.missing_cards) > 0


def test_many_wilds_in_a_big_hand():
    hand = [WILD] * 7 + [SUPER_WILD] + parse_cards("R1 B5 G9")
    for phase in SUPER.sequence:
        assert_lays_down(SUPER, phase, hand, solve(SUPER, phase, hand))


# --- property: the solver agrees with the brute-force oracle ---------------------

SMALL_NUMBERS = [c for c in deck(super_wild=True) if not c.is_natural or c.number <= 5]
ALL_CARDS = deck(super_wild=True)
PROFILES = [OFFICIAL, SUPER, PER_PHASE, PLUS10, make_rules("super-wild", {"natural": "phase"})]
SMALL_CUSTOM = make_rules(
    options={
        "custom_phases": "set of 2 + run of 3 + 3 of one colour; run of 2 + run of 2; "
        "2 of one colour + 2 of one colour + set of 2; run of 3 + set of 2",
        "super_wild": "yes",
    }
)


SMALL_CUSTOM_PER_PHASE = make_rules(options={**SMALL_CUSTOM.options, "natural": "phase"})
OTHER_READING = {"super_skip_blue": "yes", "blue_skip_natural": "yes"}
SKIPS_BLUE = make_rules("super-wild", OTHER_READING)
SMALL_CUSTOM_SKIPS = make_rules(options={**SMALL_CUSTOM.options, **OTHER_READING})


@pytest.mark.parametrize(
    ("rules", "can_make"), [(SUPER, False), (SKIPS_BLUE, True)], ids=["default", "other reading"]
)
def test_skips_as_blue_natural_cards_follow_the_chosen_reading(rules, can_make):
    """Super Wild, phase 8: by default a blue Skip is no natural card and the Super Skip
    is no blue card; house rules super_skip_blue and blue_skip_natural say otherwise."""
    hand = parse_cards("S SS W W W W W R3")
    solution = solve(rules, 8, hand)
    assert solution.can_make is can_make
    if can_make:
        assert_lays_down(rules, 8, hand, solution)
    else:
        assert solution.missing == 1


def test_with_one_natural_per_phase_skips_and_the_super_wild_make_whole_groups():
    solution = solve(SMALL_CUSTOM_PER_PHASE, 3, parse_cards("SW S S B1"))
    assert solution.missing_cards == ("a 1 for the set of 2",)
    hand = parse_cards("SW S S B1 G1")
    assert_lays_down(SMALL_CUSTOM_PER_PHASE, 3, hand, solve(SMALL_CUSTOM_PER_PHASE, 3, hand))


@st.composite
def hands(draw):
    rules = draw(
        st.sampled_from(
            [*PROFILES, SKIPS_BLUE, SMALL_CUSTOM, SMALL_CUSTOM_PER_PHASE, SMALL_CUSTOM_SKIPS]
        )
    )
    phase = draw(st.sampled_from(rules.sequence))
    most_groups = max(len(layout) for layout in rules.phase(phase).layouts)
    size = draw(st.integers(0, 7 if most_groups <= 2 else 5))
    pool = draw(st.sampled_from([SMALL_NUMBERS, ALL_CARDS]))
    if not rules.super_wild:
        pool = [c for c in pool if c.kind.value in ("number", "wild", "skip")]
    hand: list[Card] = []
    for card in draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size)):
        if not impossible([*hand, card], super_wild=rules.super_wild):
            hand.append(card)
    return rules, phase, hand


@pytest.mark.exhaustive
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_the_solver_agrees_with_the_oracle(case):
    rules, phase, hand = case
    solution = solve(rules, phase, hand)
    assert solution.missing == fewest_missing(rules, phase, hand)
    assert len(solution.missing_cards) == solution.missing
    if solution.missing == 0:
        assert_lays_down(rules, phase, hand, solution)
    else:
        assert not solution.can_make and solution.groups is None


# --- every card that brings the phase closer --------------------------------------


def test_one_card_short_lists_every_card_that_finishes():
    hand = parse_cards("R7 B7 W R3 B3")  # phase 1: a third 7, a third 3, or a Wild
    closer = closer_cards(OFFICIAL, 1, hand)
    assert describe_cards(closer) == ("any 3", "any 7", "a Wild")
    assert all(solve(OFFICIAL, 1, [*hand, card]).can_make for card in closer)
    assert not solve(OFFICIAL, 1, [*hand, number_card("R", 5)]).can_make


def test_a_card_with_no_copy_left_is_not_offered():
    hand = parse_cards("R7 R7 R3 B3")  # both red 7s are in the hand already
    assert describe_cards(closer_cards(OFFICIAL, 1, hand)) == (
        "any 3",
        "a blue 7",
        "a green 7",
        "a yellow 7",
        "a Wild",
    )


def test_a_colour_needed_whatever_the_number_is_said_once():
    hand = parse_cards("R1 R2 R3 R5 R6 W")  # phase 8: 7 of one colour
    assert describe_cards(closer_cards(OFFICIAL, 8, hand)) == ("any red card", "a Wild")


def test_a_hand_that_makes_it_needs_nothing_closer():
    assert closer_cards(OFFICIAL, 2, parse_cards("R7 R7 B7 G3 G4 Y5 W")) == ()


def test_an_eleven_card_hand_lists_every_card_that_finishes():
    """Right after drawing a hand holds 11 cards: it discards one, then draws again."""
    hand = parse_cards("R1 B2 G3 Y9 Y5 R6 B7 S S G12 G11")
    assert solve(OFFICIAL, 4, hand).missing == 1
    assert describe_cards(closer_cards(OFFICIAL, 4, hand)) == ("any 4", "a Wild")


def test_an_eleven_card_hand_for_a_phase_longer_than_a_hand_tries_each_discard():
    rules = make_rules(options={"custom_phases": "12 of one colour"})
    hand = parse_cards("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 B1")  # B1 goes, a red card comes
    assert describe_cards(closer_cards(rules, 1, hand)) == ("any red card", "a Wild")


def closer_by_discarding(rules, phase, hand) -> set[Card]:
    """The rule itself, slowly: discard each card in turn, then draw each card there is."""
    missing = solve(rules, phase, hand).missing
    found = set()
    for card in set(deck(super_wild=rules.super_wild)):
        if impossible([*hand, card], super_wild=rules.super_wild):
            continue
        for i in range(len(hand)):
            if solve(rules, phase, [*hand[:i], *hand[i + 1 :], card]).missing < missing:
                found.add(card)
                break
    return found


@st.composite
def full_hands(draw):
    """Eleven cards dealt from a shuffled deck (Hypothesis picks the shuffle)."""
    rules = draw(st.sampled_from([OFFICIAL, SUPER, PLUS10]))
    phase = draw(st.sampled_from(rules.sequence))
    shuffle = random.Random(draw(st.integers(0, 2**32)))
    return rules, phase, shuffle.sample(deck(super_wild=rules.super_wild), 11)


@pytest.mark.exhaustive
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(full_hands())
def test_the_cards_closer_to_an_eleven_card_hand_are_those_of_each_discard(case):
    rules, phase, hand = case
    assert set(closer_cards(rules, phase, hand)) == closer_by_discarding(rules, phase, hand)


def test_with_super_wild_missing_counts_places_and_the_super_wild_fills_two():
    """'2 cards missing' means two places, each for one ordinary card; drawing the
    Super Wild fills both (docs/rules.md, Super Wild)."""
    hand = parse_cards("R1 R2 R3 R4 R5")
    assert solve(SUPER, 4, hand).missing == 2
    assert SUPER_WILD in closer_cards(SUPER, 4, hand)
    assert solve(SUPER, 4, [*hand, SUPER_WILD]).can_make


@pytest.mark.exhaustive
def test_held_phases_agrees_with_the_solver_on_random_deals():
    """The rating's quick reading of one-group phases gives the solver's own answer."""
    singles = parse_phase_list(
        "run of 4; run of 9; run of 12; set of 2; set of 6; 4 of one colour; 10 of one colour"
    )
    rng = random.Random(23)
    for rules in (make_rules(), make_rules("super-wild"), make_rules(options={"natural": "phase"})):
        phases = (*PLUS10_PHASES, *singles)
        cards = deck(rules.super_wild)
        for size in (8, 12, 16) * 15:
            hand = tuple(rng.sample(cards, size))
            expected = [_best_plan(_Pool.of(hand, rules), p, rules).key[0] == 0 for p in phases]
            assert held_phases(rules, phases, hand) == expected, hand
