"""Laying down a phase (RULES.md 3-5): what stands, and the reasons when it does not."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import phase_ok

from scorekeeper.rules import reasons
from scorekeeper.rules.cards import Card, Colour, deck, format_cards, number_card, parse_cards
from scorekeeper.rules.check import Verdict, arrange_run, check_group, check_phase
from scorekeeper.rules.phases import GroupKind, GroupSpec, RulesError
from scorekeeper.rules.reasons import ALL_RULES, Reason
from scorekeeper.rules.ruleset import OFFICIAL, make_rules

SUPER = make_rules("super-wild")
PLUS10 = make_rules("plus10")
PER_PHASE = make_rules(options={"natural": "phase"})
CUSTOM = make_rules(options={"custom_phases": "run of 3 + 3 of one colour + set of 2; 3 sets of 2"})


def groups(*texts: str) -> list[list[Card]]:
    return [parse_cards(text) for text in texts]


@pytest.mark.parametrize(
    ("rules", "phase", "laid"),
    [
        # the rule books' own examples
        (OFFICIAL, 1, ("R7 B7 G7", "R10 B10 Y10")),  # three 7s and three 10s
        (OFFICIAL, 1, ("R10 B10 G10", "Y10 R10 B10")),  # the two sets may be the same number
        (OFFICIAL, 1, ("R5 B5 G5", "R7 Y7 B7")),  # three 5s and three 7s
        (OFFICIAL, 2, ("R8 G8 Y8", "R3 B4 G5 Y6")),  # a run of four: 3, 4, 5, 6
        (OFFICIAL, 2, ("R8 G8 Y8", "R3 B4 W Y6")),  # a Wild as the 5
        (OFFICIAL, 8, ("G1 G3 G4 G8 G9 G12 W",)),  # six greens and a Wild as green
        (OFFICIAL, 8, ("R12 R1 R5 R3 R9 R2 R7",)),  # one colour need not be in order
        (OFFICIAL, 4, ("R2 B3 G4 Y5 R6 B7 G8 Y9 R10",)),  # a run of 9 still makes phase 4
        (OFFICIAL, 1, ("R5 B5 G5 Y5 R5", "R7 Y7 B7")),  # five 5s extend a set of 3
        (OFFICIAL, 7, ("R4 B4 G4 Y4", "R4 B4 G4 Y4")),  # a set of 8 split into two sets of 4
        (OFFICIAL, 1, ("R9 B9 G9", "Y9 R9 B9")),  # a set of 6 split into two sets of 3
        (OFFICIAL, 3, ("W W W R2", "W R2 R3 R4")),  # many Wilds, one natural per group
        (OFFICIAL, 6, ("W W R3 R4 R5 R6 R7 R8 R9",)),  # Wilds as 1 and 2
        (OFFICIAL, 6, ("R4 R5 R6 R7 R8 R9 R10 W W",)),  # Wilds as 11 and 12
        (OFFICIAL, 9, ("R12 B12 G12 Y12 W", "R1 W")),
        (OFFICIAL, 10, ("R6 R6 B6 B6 G6", "Y2 Y2 W")),
        (OFFICIAL, 4, ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12",)),  # the longest run
        (make_rules(options={"phase10": "set4+set3"}), 10, ("R1 B1 G1 Y1", "R2 B2 G2")),
        # Super Wild: phase 7's three forms, a Skip as a blue card, the Super Wild as two
        (SUPER, 7, ("R3 B3 G3", "R5 B5 G5", "R8 W W")),
        (SUPER, 7, ("R1 B1", "R2 B2", "R3 B3", "R4 B4", "R5 W")),
        (SUPER, 7, ("R1 B1 G1 Y1", "R2 B2 SW")),
        (SUPER, 8, ("B1 B3 B4 B8 B9 S S",)),
        (SUPER, 8, ("B1 B3 B4 B8 B9 SW",)),
        (SUPER, 2, ("R8 G8 Y8", "R3 SW Y6")),  # the Super Wild stands for 4 and 5
        # house rules and other phase lists
        (PER_PHASE, 1, ("W W W", "R10 B10 Y10")),
        (PLUS10, 11, ("R1 B1", "R2 B2", "R3 W", "Y4 Y4")),
        (PLUS10, 14, ("R1 B2 G3 Y4", "G1 G7 G9 W")),
        (PLUS10, 18, ("Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 W",)),
        (CUSTOM, 1, ("R1 W R3", "G5 G9 G2", "B7 B7")),
        (CUSTOM, 2, ("R1 B1", "R2 B2", "W R3")),
    ],
)
def test_a_legal_phase_stands(rules, phase, laid):
    verdict = check_phase(rules, phase, groups(*laid))
    assert verdict == Verdict(True)


@pytest.mark.parametrize(
    ("rules", "phase", "laid", "reason", "rule"),
    [
        (
            OFFICIAL,
            1,
            ("R7 B7 G8", "R10 B10 Y10"),
            "set of 3 (R7 B7 G8): G8 is not a 7",
            reasons.SETS,
        ),
        (
            OFFICIAL,
            2,
            ("R8 G8 Y8", "R3 R4 R6 R7"),
            "run of 4 (R3 R4 R6 R7): the 5 is missing and no Wild fills it",
            reasons.RUNS,
        ),
        (
            OFFICIAL,
            2,
            ("R8 G8 Y8", "R11 R12 R1 R2"),
            "run of 4 (R11 R12 R1 R2): R12 then R1 wraps from 12 to 1",
            reasons.RUNS,
        ),
        (
            OFFICIAL,
            2,
            ("R8 G8 Y8", "R3 W R7 R8"),
            "run of 4 (R3 W R7 R8): between R3 and R7 the 4, 5 and 6 are needed, but only "
            "1 Wild stands there",
            reasons.RUNS,
        ),
        (
            OFFICIAL,
            2,
            ("R8 G8 Y8", "R5 B5 G6 Y7"),
            "run of 4 (R5 B5 G6 Y7): two 5s (R5 and B5); a run has each number once",
            reasons.RUNS,
        ),
        (
            OFFICIAL,
            4,
            ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 W",),
            "run of 7 (R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 W): a run holds at most 12 "
            "cards (1 to 12)",
            reasons.RUNS,
        ),
        (
            OFFICIAL,
            8,
            ("R1 R2 R3 R5 R7 R9 G5",),
            "7 of one colour (R1 R2 R3 R5 R7 R9 G5): G5 is not red",
            reasons.COLOUR_GROUPS,
        ),
        (
            OFFICIAL,
            1,
            ("R7 B7 G7", "R10 B10 Y10", "R9 B9 G9"),
            "phase 1 has exactly 2 groups (2 sets of 3): the 3rd group (R9 B9 G9) is not allowed",
            reasons.NO_EXTRA_GROUPS,
        ),
        (
            OFFICIAL,
            2,
            ("R7 B7 G7",),
            "phase 2 is 1 set of 3 + 1 run of 4: the 2nd group, a run of 4, is missing",
            reasons.LAYING_DOWN,
        ),
        (
            OFFICIAL,
            1,
            ("R7 B7", "R10 B10 Y10"),
            "set of 3 (R7 B7): 2 cards, but a set of 3 needs at least 3",
            reasons.PHASES,
        ),
        (
            OFFICIAL,
            8,
            ("B1 B3 B4 B8 B9 B10 S",),
            "7 of one colour (B1 B3 B4 B8 B9 B10 S): a Skip can never be part of a phase",
            reasons.SKIPS_NOT_LAID,
        ),
        (
            OFFICIAL,
            1,
            ("W W W", "R10 B10 Y10"),
            "set of 3 (W W W): no natural card; every group needs at least one numbered "
            "card, not only Wilds",
            reasons.NATURAL,
        ),
        (
            PER_PHASE,
            1,
            ("W W W", "W W W"),
            "phase 1 has only Wilds: it needs at least one natural (numbered) card",
            reasons.NATURAL,
        ),
        (
            OFFICIAL,
            1,
            ("R7 R7 R7", "R10 B10 Y10"),
            "3 x R7 is impossible: the deck has only 2 of each number in each colour",
            reasons.DECK,
        ),
        (
            OFFICIAL,
            1,
            ("W W W W W R1", "W W W W R2"),
            "9 x W is impossible: the deck has only 8 wilds",
            reasons.DECK,
        ),
        (
            OFFICIAL,
            2,
            ("R3 B4 G5 Y6", "R8 G8 Y8"),
            "phase 2 lists the set of 3, then the run of 4: give the groups in that order",
            reasons.PHASES,
        ),
        (
            OFFICIAL,
            7,
            ("R3 B3 G3", "R5 B5 G5", "R8 W W"),
            "phase 7 has exactly 2 groups (2 sets of 4): the 3rd group (R8 W W) is not allowed",
            reasons.NO_EXTRA_GROUPS,
        ),
        (
            SUPER,
            7,
            ("R3 B3", "R5 B5", "R8 W", "R9 W"),
            "phase 7 is 2 sets of 4 OR 3 sets of 3 OR 5 sets of 2: that is 2 or 3 or 5 groups, "
            "not 4",
            reasons.NO_EXTRA_GROUPS,
        ),
        (
            SUPER,
            8,
            ("R1 R3 R4 R8 R9 R10 S",),
            "7 of one colour (R1 R3 R4 R8 R9 R10 S): a Skip counts as blue, and this group is red",
            reasons.SUPER_WILD,
        ),
        (
            SUPER,
            1,
            ("R7 B7 S", "R10 B10 Y10"),
            "set of 3 (R7 B7 S): a Skip counts only as a blue card in a group of one colour",
            reasons.SKIPS_NOT_LAID,
        ),
        (
            SUPER,
            8,
            ("B1 B3 B4 B8 B9 B10 SS",),
            "7 of one colour (B1 B3 B4 B8 B9 B10 SS): a Super Skip can never be part of a phase",
            reasons.SKIPS_NOT_LAID,
        ),
        (
            SUPER,
            2,
            ("R8 G8 Y8", "R3 SW R5"),
            "run of 4 (R3 SW R5): between R3 and R5 only the 4 fits, but 2 places of Wilds "
            "stand there",
            reasons.RUNS,
        ),
        (
            OFFICIAL,
            8,
            ("B1 B3 B4 B8 B9 SW",),
            "there is no Super Wild in this game's deck",
            reasons.DECK,
        ),
        (
            OFFICIAL,
            1,
            (),
            "nothing was laid down: phase 1 is 2 sets of 3",
            reasons.LAYING_DOWN,
        ),
    ],
)
def test_a_broken_phase_says_why_and_cites_the_rule(rules, phase, laid, reason, rule):
    verdict = check_phase(rules, phase, groups(*laid))
    assert not verdict.valid
    assert Reason(reason, rule) in verdict.problems


def test_a_phase_does_not_count_for_a_later_one():
    """A run of 9 made for phase 4 is not phase 5 (RULES.md 5): each check names its phase."""
    run_of_7 = groups("R1 R2 R3 R4 R5 R6 R7")
    assert check_phase(OFFICIAL, 4, run_of_7).valid
    assert not check_phase(OFFICIAL, 5, run_of_7).valid


def test_a_phase_the_game_does_not_play_is_a_rules_error():
    with pytest.raises(RulesError, match="there is no phase 1 in this game"):
        check_phase(make_rules("even"), 1, [parse_cards("R7 B7 W"), parse_cards("G3 G3 Y3")])
    with pytest.raises(RulesError, match="it plays phases 1, 2, 3, 4 and 5"):
        check_phase(make_rules(options={"first": "5"}), 7, [parse_cards("R7 B7 W R7")])


def test_an_unknown_phase_is_a_rules_error():
    with pytest.raises(RulesError, match="there is no phase 11"):
        check_phase(OFFICIAL, 11, groups("R1 R1 R1"))


def test_every_reason_has_its_rule_and_the_verdict_reads_as_json():
    verdict = check_phase(OFFICIAL, 2, groups("R7 B7 G8", "R3 R4 R6 S"))
    assert len(verdict.reasons) == len(verdict.rules) >= 3
    assert all(rule in ALL_RULES for rule in verdict.rules)
    data = verdict.to_json()
    assert data["valid"] is False
    assert data["reasons"] == list(verdict.reasons)
    assert data["rules"][0] == "Rule 4: sets"
    assert data["problems"][0] == {
        "message": "set of 3 (R7 B7 G8): G8 is not a 7",
        "rule": "Rule 4: sets",
        "anchor": "sets",
        "player": None,
        "field": None,
        "warning": False,
    }


def test_check_group_names_the_group_by_its_label():
    spec = GroupSpec(GroupKind.SET, 3)
    problems = check_group(OFFICIAL, spec, parse_cards("R7 B8 W"), label="your set")
    assert problems == [Reason("your set: B8 is not a 7", reasons.SETS)]


# --- property: the verdict agrees with the brute-force oracle --------------------

SKIPS_BLUE = make_rules("super-wild", {"super_skip_blue": "yes", "blue_skip_natural": "yes"})
PROFILES = [OFFICIAL, SUPER, PER_PHASE, PLUS10, CUSTOM, SKIPS_BLUE]


@pytest.mark.parametrize(
    ("rules", "laid", "reason"),
    [
        (SUPER, "B1 B2 B5 S SS W W", "a Super Skip can never be part of a phase"),
        (SUPER, "S S W W W W W", "no natural card; every group needs at least one numbered card"),
        (SKIPS_BLUE, "B1 B2 B5 S SS W W", None),
        (SKIPS_BLUE, "S S W W W W W", None),
        (SKIPS_BLUE, "S SS W W W W W", None),
        (SKIPS_BLUE, "R1 S W W W W W", "a Skip counts as blue, and this group is red"),
    ],
)
def test_super_wild_skips_in_phase_8_follow_the_chosen_reading(rules, laid, reason):
    verdict = check_phase(rules, 8, [parse_cards(laid)])
    if reason is None:
        assert verdict.valid, verdict.reasons
    else:
        assert any(reason in r for r in verdict.reasons), verdict.reasons


DECK = deck(super_wild=True)


@st.composite
def near_valid_group(draw, spec: GroupSpec, super_wild: bool) -> list[Card]:
    """A group built to fit ``spec``, then sometimes spoiled a little."""
    size = spec.size + draw(st.integers(0, 2))
    colours = st.sampled_from(list(Colour))
    if spec.kind is GroupKind.SET:
        n = draw(st.integers(1, 12))
        cards = [number_card(draw(colours), n) for _ in range(size)]
    elif spec.kind is GroupKind.RUN:
        start = draw(st.integers(1, 12))
        cards = [number_card(draw(colours), min(n, 12)) for n in range(start, start + size)]
    else:
        colour = draw(colours)
        cards = [number_card(colour, draw(st.integers(1, 12))) for _ in range(size)]
    for i in draw(st.lists(st.integers(0, len(cards) - 1), max_size=3)):
        cards[i] = parse_cards("W")[0]
    mutation = draw(st.sampled_from(["none", "none", "swap", "replace", "drop", "reverse"]))
    if mutation == "swap" and len(cards) > 1:
        i, j = draw(st.integers(0, len(cards) - 1)), draw(st.integers(0, len(cards) - 1))
        cards[i], cards[j] = cards[j], cards[i]
    elif mutation == "replace":
        pool = DECK if super_wild else deck()
        cards[draw(st.integers(0, len(cards) - 1))] = draw(st.sampled_from(pool))
    elif mutation == "drop":
        cards.pop()
    elif mutation == "reverse":
        cards.reverse()
    return cards


@st.composite
def laid_phase(draw):
    rules = draw(st.sampled_from(PROFILES))
    number = draw(st.sampled_from(rules.sequence))
    layout = draw(st.sampled_from(rules.phase(number).layouts))
    laid = [draw(near_valid_group(spec, rules.super_wild)) for spec in layout]
    if draw(st.integers(0, 9)) == 0:
        laid = laid[:-1] if len(laid) > 1 else laid + laid
    return rules, number, laid


@pytest.mark.exhaustive
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(laid_phase())
def test_the_verdict_agrees_with_the_oracle(case):
    rules, number, laid = case
    verdict = check_phase(rules, number, laid)
    assert verdict.valid == phase_ok(rules, number, [tuple(g) for g in laid])
    assert verdict.valid == (not verdict.reasons)
    assert len(verdict.reasons) == len(verdict.rules)


@pytest.mark.parametrize(
    ("run", "laid"),
    [
        ("R6 R5 R4 R3", "R3 R4 R5 R6"),
        ("R3 R5 R4 R6", "R3 R4 R5 R6"),
        ("R3 W W R5", "R3 W R5 W"),
        ("R11 R12 W W", "W W R11 R12"),
        ("W R1 R2 R3", "R1 R2 R3 W"),
    ],
)
def test_a_run_is_judged_in_the_order_that_makes_it_one(run, laid):
    """A player arranges a run as they lay it down (RULES.md 4): order does not matter."""
    assert check_phase(OFFICIAL, 2, [parse_cards("R8 G8 Y8"), parse_cards(run)]).valid
    assert format_cards(arrange_run(parse_cards(run))) == laid


@pytest.mark.parametrize("run", ["R3 W R7 R8", "R5 B5 G6 Y7", "R1 R2 R3 S", "R1 R12 W"])
def test_no_order_makes_a_run_of_these(run):
    assert arrange_run(parse_cards(run)) is None
    assert not check_phase(OFFICIAL, 2, [parse_cards("R8 G8 Y8"), parse_cards(run)]).valid


def test_a_super_wild_fills_two_neighbouring_gaps_in_a_run():
    rules = make_rules("super-wild")
    assert format_cards(arrange_run(parse_cards("R6 SW R3"))) == "R3 SW R6"
    assert check_phase(rules, 2, [parse_cards("R8 G8 Y8"), parse_cards("R6 SW R3")]).valid
