"""Hitting: which card fits a group already down, and where (RULES.md 6)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import group_ok, run_hit

from scorekeeper.rules import check, reasons
from scorekeeper.rules.cards import deck, parse_card, parse_cards
from scorekeeper.rules.hit import check_hit
from scorekeeper.rules.phases import GroupKind, GroupSpec
from scorekeeper.rules.reasons import Reason
from scorekeeper.rules.ruleset import OFFICIAL, make_rules

SUPER = make_rules("super-wild")
PER_PHASE = make_rules(options={"natural": "phase"})
SKIPS_BLUE = make_rules("super-wild", {"super_skip_blue": "yes", "blue_skip_natural": "yes"})
SET, RUN, COLOUR = GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR


@pytest.mark.parametrize(
    ("rules", "kind", "group", "card", "where", "stands_for"),
    [
        # the rule books' own examples
        (OFFICIAL, SET, "R4 B4 G4", "Y4", "joins the set of 4s", 4),
        (OFFICIAL, RUN, "R3 B4 G5 Y6", "R2", "low end", 2),
        (OFFICIAL, RUN, "R3 B4 G5 Y6", "R7", "high end", 7),
        (OFFICIAL, RUN, "R3 B4 G5 Y6 R7", "G8", "high end", 8),  # then an 8 after the 7
        (OFFICIAL, RUN, "R2 R3 R4 R5", "B1", "low end", 1),
        (OFFICIAL, RUN, "R2 R3 R4 R5", "B6", "high end", 6),
        (OFFICIAL, COLOUR, "G1 G2 G5 G6 G8 G9 G11", "G3", "joins the green cards", None),
        (OFFICIAL, SET, "R4 B4 G4", "W", "joins the set of 4s (as a 4)", 4),
        (OFFICIAL, COLOUR, "G1 G2 G5 G6 G8 G9 G11", "W", "joins the green cards (as green)", None),
        # a Wild extends the high end, or the low end when the run already reaches 12
        (OFFICIAL, RUN, "R3 B4 G5 Y6", "W", "high end (as 7)", 7),
        (OFFICIAL, RUN, "R9 R10 R11 R12", "W", "low end (as 8)", 8),
        (OFFICIAL, RUN, "W R10 R11", "W", "high end (as 12)", 12),
        # Super Wild: it adds two places; a Skip may join the blue cards
        (SUPER, RUN, "R3 B4 G5 Y6", "SW", "high end (as 7 and 8)", 7),
        (SUPER, RUN, "R3 R4 R5 R6 R7 R8 R9 R10 R11", "SW", "low end (as 1 and 2)", 1),
        (SUPER, SET, "R4 B4 G4", "SW", "joins the set of 4s (as two 4s)", 4),
        # a run may lie high to low, and extends at either end
        (OFFICIAL, RUN, "R12 R11 R10 R9", "R8", "low end", 8),
        (OFFICIAL, RUN, "R12 R11 R10 R9", "W", "low end (as 8)", 8),
        (OFFICIAL, RUN, "R5 R4 W R2", "B6", "high end", 6),
        (OFFICIAL, RUN, "R5 R4 W R2", "B1", "low end", 1),
        (OFFICIAL, RUN, "W W W R3", "G7", "high end", 7),  # only 6, 5, 4, 3 stands
        # where one natural leaves the Wilds' numbers open, any end that is free in both
        (
            OFFICIAL,
            RUN,
            "W R5",
            "W",
            "an end of the run (4-5 or 5-6, as its Wilds were laid down)",
            None,
        ),
        (OFFICIAL, RUN, "W R5 W", "R7", "high end", 7),  # 4-6 either way
        # a run of 2 (own phase lists) is a run like any other: it extends at either end
        (OFFICIAL, RUN, "R5 R6", "B7", "high end", 7),
        (OFFICIAL, RUN, "R5 R6", "B4", "low end", 4),
        (OFFICIAL, RUN, "R6 R5", "B4", "low end", 4),
        (
            SUPER,
            COLOUR,
            "B1 B2 B5 B6 B8 B9 S",
            "S",
            "joins the blue cards (the Skip counts as blue)",
            None,
        ),
    ],
)
def test_a_card_that_fits_goes_where_it_fits(rules, kind, group, card, where, stands_for):
    verdict = check_hit(rules, kind, parse_cards(group), parse_card(card))
    assert verdict.valid and not verdict.reasons
    assert (verdict.where, verdict.stands_for) == (where, stands_for)


@pytest.mark.parametrize(
    ("rules", "kind", "group", "card", "reason", "rule"),
    [
        (OFFICIAL, SET, "R4 B4 G4", "Y5", "Y5 is not a 4: the set is 4s", reasons.HITTING),
        (
            OFFICIAL,
            RUN,
            "R3 B4 G5 Y6",
            "R9",
            "R9 does not extend the run 3-6: only a 2 or a 7 fits",
            reasons.HITTING,
        ),
        (
            OFFICIAL,
            RUN,
            "R3 B4 G5 Y6",
            "R5",
            "the run 3-6 already has its 5; a hit must extend an end",
            reasons.HITTING,
        ),
        (
            OFFICIAL,
            RUN,
            "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12",
            "W",
            "the run already goes from 1 to 12: nothing more fits",
            reasons.HITTING,
        ),
        (
            OFFICIAL,
            RUN,
            "R9 R10 R11 R12",
            "R1",
            "R1 does not extend the run 9-12: only an 8 fits",
            reasons.HITTING,
        ),
        (
            OFFICIAL,
            COLOUR,
            "G1 G2 G5 G6 G8 G9 G11",
            "R3",
            "R3 is not green: the group is green cards",
            reasons.HITTING,
        ),
        (
            OFFICIAL,
            SET,
            "R4 B4 G4",
            "S",
            "a Skip can never be hit onto a group",
            reasons.SKIPS_NOT_LAID,
        ),
        (
            OFFICIAL,
            COLOUR,
            "B1 B2 B5 B6 B8 B9 B10",
            "S",
            "a Skip can never be hit onto a group",
            reasons.SKIPS_NOT_LAID,
        ),
        (
            SUPER,
            COLOUR,
            "R1 R2 R5 R6 R8 R9 R10",
            "S",
            "a Skip counts as blue, and the group is red",
            reasons.SUPER_WILD,
        ),
        (
            SUPER,
            RUN,
            "R2 R3 R4 R5 R6 R7 R8 R9 R10 R11",
            "SW",
            "a Super Wild fills 2 places, and the run 2-11 has room for only 1 more below and "
            "1 more above",
            reasons.HITTING,
        ),
        # a run's Wilds stand within 1-12, whichever way it lies
        (
            OFFICIAL,
            RUN,
            "W W W R3",
            "R4",
            "the run 3-6 already has its 4; a hit must extend an end (read low to high, its "
            "Wilds would stand for numbers outside 1-12, so it is laid high to low: 6, 5, 4, 3)",
            reasons.HITTING,
        ),
        (
            OFFICIAL,
            RUN,
            "W W R1 W W",
            "R4",
            "the run (W W R1 W W): read low to high, its Wilds would stand for -1 and 0; read "
            "high to low, its Wilds would stand for 0 and -1; a Wild in a run stands for a "
            "number from 1 to 12",
            reasons.WILDS,
        ),
        (
            OFFICIAL,
            RUN,
            "W W R1 R2",
            "R3",
            "the run (W W R1 R2): read low to high, its Wilds would stand for -1 and 0; a Wild "
            "in a run stands for a number from 1 to 12",
            reasons.WILDS,
        ),
        # where the answer turns on what a Wild was laid down as, say so
        (
            OFFICIAL,
            RUN,
            "W R5",
            "R6",
            "it depends on what the Wilds were laid down as: R6 fits if the run is 4-5, not if "
            "it is 5-6",
            reasons.HITTING,
        ),
        # the group itself must stand
        (OFFICIAL, SET, "R4 B5 G4", "Y4", "the set (R4 B5 G4): B5 is not a 4", reasons.SETS),
        (
            OFFICIAL,
            RUN,
            "R3 R5 R6",
            "R7",
            "the run (R3 R5 R6): the 4 is missing and no Wild fills it",
            reasons.RUNS,
        ),
        (
            OFFICIAL,
            SET,
            "R4 R4 R4",
            "Y4",
            "3 x R4 is impossible: the deck has only 2 of each number in each colour",
            reasons.DECK,
        ),
        (
            OFFICIAL,
            SET,
            "R4 R4 W",
            "R4",
            "3 x R4 is impossible: the deck has only 2 of each number in each colour",
            reasons.DECK,
        ),
        (
            PER_PHASE,
            SET,
            "W W W",
            "R4",
            "the set has only Wilds, so its number is not on the table; R4 fits only if the "
            "Wilds were laid down as 4s",
            reasons.HITTING,
        ),
    ],
)
def test_a_card_that_does_not_fit_says_why(rules, kind, group, card, reason, rule):
    verdict = check_hit(rules, kind, parse_cards(group), parse_card(card))
    assert not verdict.valid
    assert Reason(reason, rule) in verdict.problems
    assert verdict.where is None and verdict.stands_for is None


def test_the_super_skip_joins_blue_cards_only_under_its_house_rule():
    group, card = parse_cards("B1 B2 B5 B6 B8 B9 S"), parse_card("SS")
    assert not check_hit(SUPER, COLOUR, group, card).valid
    other = make_rules("super-wild", {"super_skip_blue": "yes"})
    verdict = check_hit(other, COLOUR, group, card)
    assert verdict.valid and verdict.where == "joins the blue cards (the Super Skip counts as blue)"


def test_a_hit_verdict_reads_as_json():
    data = check_hit(OFFICIAL, RUN, parse_cards("R3 B4 G5 Y6"), parse_card("W")).to_json()
    assert data == {
        "valid": True,
        "reasons": [],
        "rules": [],
        "problems": [],
        "where": "high end (as 7)",
        "stands_for": 7,
    }


# --- property: a hit fits exactly when the group with the card still stands ----

CARDS = deck(super_wild=True)


@st.composite
def hits(draw):
    rules = draw(st.sampled_from([OFFICIAL, SUPER, SKIPS_BLUE]))
    kind = draw(st.sampled_from(list(GroupKind)))
    start = draw(st.integers(1, 11))
    size = draw(st.integers(2, 5))
    colour = draw(st.sampled_from("RBGY"))
    group = []
    for i in range(size):
        if draw(st.integers(0, 3)) == 0:
            group.append(parse_card(draw(st.sampled_from(["W", "W", "SW"]))))
        elif kind is GroupKind.SET:
            group.append(parse_card(f"{draw(st.sampled_from('RBGY'))}{start}"))
        elif kind is GroupKind.RUN:
            group.append(parse_card(f"{draw(st.sampled_from('RBGY'))}{min(12, start + i)}"))
        else:
            group.append(parse_card(f"{colour}{draw(st.integers(1, 12))}"))
    if draw(st.booleans()):  # runs lie high to low as often as low to high
        group.reverse()
    if not rules.super_wild:
        group = [parse_card("W") if c.width == 2 else c for c in group]
    card = draw(st.sampled_from(CARDS))
    return rules, kind, group, card


@pytest.mark.exhaustive
@settings(max_examples=600, deadline=None)
@given(hits())
def test_a_hit_agrees_with_the_oracle(case):
    rules, kind, group, card = case
    verdict = check_hit(rules, kind, group, card)
    spec = GroupSpec(kind, 2)
    group_stands = group_ok(rules, spec, tuple(group), as_laid=True) and not check.impossible(
        [*group, card], super_wild=rules.super_wild
    )
    if not group_stands:
        assert not verdict.valid
        return
    if kind is GroupKind.RUN:
        fits = run_hit(tuple(group), card)
        if fits is None:  # which numbers the Wilds stand for decides it
            assert not verdict.valid and verdict.reasons[0].startswith("it depends")
            return
    else:
        fits = group_ok(rules, spec, (*group, card), as_laid=True)
    assert verdict.valid == fits, verdict
    if verdict.valid and kind is GroupKind.SET:
        assert verdict.stands_for is not None
    if verdict.valid and kind is GroupKind.RUN and card.is_natural:
        assert verdict.stands_for == card.number
