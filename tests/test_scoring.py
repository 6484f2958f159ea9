"""Scoring: card points and which hand totals a table can really produce (rule 8)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import end_of_hand, one_deck, scoring
from scorekeeper.rules import reasons as rule
from scorekeeper.rules.cards import SUPER_SKIP, SUPER_WILD, deck, parse_card, parse_cards
from scorekeeper.rules.end_of_hand import (
    PlayerHand,
    fewest_cards,
    laid_down_implied,
    possible_totals,
)
from scorekeeper.rules.reasons import Reason
from scorekeeper.rules.ruleset import OFFICIAL, make_rules
from scorekeeper.rules.scoring import CardsLeft, card_points, deck_counts, hand_points

WILD20 = make_rules("official", {"wild_points": "20"})
SUPER = make_rules("super-wild")
FLOATERS = make_rules("official", {"going_out": "discard"})


def _cited(find):
    """The reasons as plain text with their rule: 'Bob: ... [Rule 8: card points]'."""
    return lambda *args, **kwargs: [reason.cited() for reason in find(*args, **kwargs)]


total_problems = _cited(end_of_hand.total_problems)
counts_problems = _cited(end_of_hand.counts_problems)
player_problems = _cited(end_of_hand.player_problems)
table_problems = _cited(one_deck.table_problems)


def test_a_reason_carries_its_message_rule_and_player():
    assert end_of_hand.total_problems(OFFICIAL, 12, player="Cy") == [
        Reason(
            "12 is not a multiple of 5: every card is worth 5, 10, 15 or 25",
            rule.CARD_POINTS,
            player="Cy",
        )
    ]


# --- card points ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "official", "wild20"),
    [("R1", 5, 5), ("B9", 5, 5), ("G10", 10, 10), ("Y12", 10, 10), ("S", 15, 15), ("W", 25, 20)],
)
def test_each_card_left_in_hand_costs_its_printed_points(card, official, wild20):
    assert card_points(OFFICIAL, parse_card(card)) == official
    assert card_points(WILD20, parse_card(card)) == wild20


def test_a_super_wild_costs_50_and_a_super_skip_25():
    assert card_points(SUPER, SUPER_WILD) == 50
    assert card_points(SUPER, SUPER_SKIP) == 25


def test_a_hand_costs_the_sum_of_its_cards():
    assert hand_points(OFFICIAL, parse_cards("R3 B11 W S")) == 5 + 10 + 25 + 15
    assert hand_points(WILD20, parse_cards("R3 B11 W S")) == 5 + 10 + 20 + 15
    assert hand_points(OFFICIAL, []) == 0


def test_cards_left_can_be_counted_from_real_cards():
    left = CardsLeft.from_cards(parse_cards("R3 Y9 B11 W W S") + [SUPER_WILD])
    assert left == CardsLeft(low=2, high=1, skips=1, wilds=2, super_wilds=1)
    assert left.count == 7
    assert left.points(SUPER) == 10 + 10 + 15 + 50 + 50
    assert left.describe() == "2 cards 1-9, 1 card 10-12, 1 Skip, 2 Wilds, 1 Super Wild"


def test_cards_left_read_back_what_they_write():
    left = CardsLeft(low=2, high=1, super_skips=1)
    assert left.to_json() == {"low": 2, "high": 1, "skips": 0, "wilds": 0, "super_skips": 1}
    assert CardsLeft.from_mapping(left.to_json()) == left


@pytest.mark.parametrize("bad", [{"low": -1}, {"wilds": 1.5}, {"skips": True}, {"jokers": 1}])
def test_card_counts_are_whole_numbers_of_known_kinds(bad):
    with pytest.raises(ValueError, match="whole number|unknown kind"):
        CardsLeft.from_mapping(bad)


def test_the_deck_counted_by_kind_has_108_cards():
    assert deck_counts(OFFICIAL) == CardsLeft(low=72, high=24, skips=4, wilds=8)
    assert deck_counts(SUPER).count == 108 == len(deck(super_wild=True))
    assert deck_counts(SUPER).super_wilds == 1


# --- one player's total ---------------------------------------------------------------


def test_the_messages_say_who_and_why():
    assert total_problems(OFFICIAL, 45, player="Bob") == [
        "Bob: 45 is not possible: a player who did not make the phase holds exactly 10 "
        "cards, worth at least 50 [Rule 8: a hand never grows]"
    ]
    assert total_problems(OFFICIAL, 12, player="Cy") == [
        "Cy: 12 is not a multiple of 5: every card is worth 5, 10, 15 or 25 [Rule 8: card points]"
    ]
    assert total_problems(OFFICIAL, 30, laid_down=True, phase=6, player="Ann") == [
        "Ann: 30 is too much for someone who laid down phase 6 (at most 1 card left, worth "
        "at most 25) [Rule 8: laying down uses cards]"
    ]


def test_the_rules_are_the_key_of_what_they_allow():
    """Issue 39: the caches of every hand a deck gives were keyed on loose values (the Wild's
    points, Super Wild), each threaded through three functions. Now on the rules: the same
    profile and options make equal rules with one hash; any option changed, another key."""
    assert hash(make_rules("official", {"wild_points": "20"})) == hash(WILD20)
    assert make_rules("official", {"wild_points": "20"}) == WILD20
    assert len({OFFICIAL, WILD20, SUPER, make_rules(), make_rules("super-wild")}) == 3
    house = make_rules("super-wild", {"super_skip_blue": "yes"})
    assert house != SUPER and hash(house) != hash(SUPER)


@pytest.mark.parametrize(("rules", "most"), [(OFFICIAL, 230), (WILD20, 190), (SUPER, 265)])
def test_a_player_who_did_not_make_the_phase_holds_ten_cards(rules, most):
    totals = possible_totals(rules, laid_down=False)
    assert min(totals) == 50
    assert max(totals) == most
    assert totals == frozenset(range(50, most + 1, 5))
    assert total_problems(rules, 45)
    assert "at most" in total_problems(rules, most + 5)[0]


def test_ten_cards_can_be_worth_230_only_as_eight_wilds_and_two_skips():
    assert counts_problems(OFFICIAL, CardsLeft(wilds=8, skips=2)) == []
    assert CardsLeft(wilds=8, skips=2).points(OFFICIAL) == 230


@pytest.mark.parametrize(
    ("phase", "most_cards", "most_points"),
    [(1, 4, 100), (2, 3, 75), (4, 3, 75), (6, 1, 25), (7, 2, 50), (8, 3, 75), (10, 2, 50)],
)
def test_laying_down_a_phase_leaves_at_most_ten_minus_its_cards(phase, most_cards, most_points):
    assert counts_problems(OFFICIAL, CardsLeft(low=most_cards), laid_down=True, phase=phase) == []
    too_many = counts_problems(OFFICIAL, CardsLeft(low=most_cards + 1), laid_down=True, phase=phase)
    assert f"at most {most_cards} card" in too_many[0]
    assert max(possible_totals(OFFICIAL, laid_down=True, phase=phase)) == most_points
    assert total_problems(OFFICIAL, most_points + 5, laid_down=True, phase=phase)


def test_one_card_left_after_phase_6_cannot_be_worth_20():
    # a single card is worth 5, 10, 15 or 25: never 20 (unless Wilds are worth 20)
    assert "no single card is worth 20" in total_problems(OFFICIAL, 20, laid_down=True, phase=6)[0]
    assert total_problems(WILD20, 20, laid_down=True, phase=6) == []


def test_a_player_who_laid_down_but_did_not_go_out_keeps_a_card():
    assert "at least 1 card" in total_problems(OFFICIAL, 0, laid_down=True, phase=1)[0]
    assert "floater" in total_problems(FLOATERS, 0, laid_down=True, phase=1)[0]
    assert counts_problems(OFFICIAL, CardsLeft(), laid_down=True, phase=1)


def test_the_player_who_went_out_scores_0():
    assert total_problems(OFFICIAL, 0, went_out=True, laid_down=True, phase=3) == []
    assert "scores 0, not 10" in total_problems(OFFICIAL, 10, went_out=True, laid_down=True)[0]
    assert "without making their phase" in total_problems(OFFICIAL, 0, went_out=True)[0]
    assert counts_problems(OFFICIAL, CardsLeft(low=1), went_out=True, laid_down=True, phase=1)


def test_a_floater_exists_only_when_going_out_needs_a_discard():
    assert "cannot be a floater" in total_problems(OFFICIAL, 0, floater=True, laid_down=True)[0]
    assert total_problems(FLOATERS, 0, floater=True, laid_down=True, phase=2) == []
    assert "scores 0" in total_problems(FLOATERS, 5, floater=True, laid_down=True, phase=2)[0]
    assert "without making" in total_problems(FLOATERS, 0, floater=True)[0]


def test_points_are_never_negative():
    assert "never negative" in total_problems(OFFICIAL, -5)[0]


def test_a_phase_too_big_to_keep_a_card_means_the_player_went_out():
    rules = make_rules("plus10")  # phase 16 is a run of 10
    assert possible_totals(rules, laid_down=True, phase=16) == frozenset()
    assert "went out" in total_problems(rules, 5, laid_down=True, phase=16)[0]
    assert possible_totals(rules, laid_down=True, phase=16, went_out=True) == {0}


# --- Super Wild -------------------------------------------------------------------------


@pytest.mark.parametrize(("phase", "fewest"), [(1, 5), (4, 6), (6, 8), (7, 7), (9, 6), (10, 7)])
def test_a_super_wild_fills_two_places_so_a_phase_takes_one_card_fewer(phase, fewest):
    assert fewest_cards(SUPER, phase) == fewest
    assert fewest_cards(OFFICIAL, phase) == fewest + 1


def test_a_super_wild_needs_a_natural_card_beside_it_in_a_group_of_two():
    rules = make_rules("super-wild", {"phases": "custom", "custom_phases": "set of 2"})
    assert fewest_cards(rules, 1) == 2
    rules = make_rules(
        "super-wild", {"phases": "custom", "custom_phases": "2 sets of 2", "natural": "phase"}
    )
    assert fewest_cards(rules, 1) == 3


def test_with_a_super_wild_down_a_player_keeps_one_more_card_but_not_the_super_wild():
    assert counts_problems(SUPER, CardsLeft(wilds=2), laid_down=True, phase=6) == []
    assert counts_problems(SUPER, CardsLeft(super_wilds=1), laid_down=True, phase=6) == []
    both = counts_problems(SUPER, CardsLeft(wilds=1, super_wilds=1), laid_down=True, phase=6)
    assert "at most 1 card" in both[0]
    assert max(possible_totals(SUPER, laid_down=True, phase=6)) == 50


def test_super_cards_exist_only_with_the_super_wild_option():
    assert "no Super Wild" in counts_problems(OFFICIAL, CardsLeft(low=9, super_wilds=1))[0]


def test_a_hand_cannot_hold_more_of_a_card_than_the_deck_has():
    assert "the deck has only 4" in counts_problems(OFFICIAL, CardsLeft(low=5, skips=5))[0]


def test_exact_cards_must_add_up_to_the_points_given():
    hand = PlayerHand(points=55, cards=CardsLeft(low=9, high=1))
    assert player_problems(OFFICIAL, hand) == []
    wrong = PlayerHand(points=60, cards=CardsLeft(low=9, high=1))
    assert player_problems(OFFICIAL, wrong, "Bob") == [
        "Bob: 9 cards 1-9, 1 card 10-12 are worth 55, not 60 [Rule 8: card points]"
    ]


# --- the whole table ----------------------------------------------------------------------


def test_two_players_cannot_both_hold_eight_wilds():
    problems = table_problems(
        OFFICIAL, {"Ann": PlayerHand(points=230), "Bob": PlayerHand(points=230)}
    )
    assert problems == [
        "together Ann and Bob need at least 16 Wilds, but the deck has only 8 [Rule 1: the deck]"
    ]


def test_exact_counts_are_added_up_across_the_table():
    hands = {
        "Ann": PlayerHand(cards=CardsLeft(low=5, wilds=5)),
        "Bob": PlayerHand(cards=CardsLeft(low=6, wilds=4)),
    }
    assert "together Ann and Bob hold 9 Wilds" in table_problems(OFFICIAL, hands)[0]


def test_totals_that_fit_one_by_one_can_still_be_too_much_together():
    # 230 takes all eight Wilds and two Skips; 115 from ten cards then needs a third
    # Skip or a Wild beside the two Skips left (2 Skips + 8 cards 10-12 is only 110)
    hands = {"Ann": PlayerHand(points=115), "Bob": PlayerHand(points=230)}
    assert "cannot all come from one deck" in table_problems(OFFICIAL, hands)[0]
    hands["Ann"] = PlayerHand(points=110)
    assert table_problems(OFFICIAL, hands) == []


def test_a_super_wild_down_in_a_phase_is_not_in_anyone_s_hand():
    hands = {
        # two cards left after phase 6: only possible with the Super Wild in the phase
        "Ann": PlayerHand(cards=CardsLeft(low=2), laid_down=True, phase=6),
        "Bob": PlayerHand(cards=CardsLeft(low=9, super_wilds=1)),
    }
    assert "Super Wild" in table_problems(SUPER, hands)[0]


# --- real cards always pass ---------------------------------------------------------------


def _position(draw, rules):
    kind = draw(st.sampled_from(["out", "laid", "not"]))
    phase = draw(st.sampled_from(rules.sequence))
    if kind == "out":
        return PlayerHand(went_out=True, laid_down=True, phase=phase), 0
    if kind == "not":
        return PlayerHand(phase=phase), 10
    most = 10 - rules.phase(phase).min_cards
    return PlayerHand(laid_down=True, phase=phase), draw(st.integers(1, most))


@st.composite
def tables(draw, rules):
    seed = draw(st.integers(0, 2**32))
    cards = deck(super_wild=rules.super_wild)
    random.Random(seed).shuffle(cards)
    hands = {}
    for name in ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][: draw(st.integers(2, 6))]:
        position, count = _position(draw, rules)
        held, cards = cards[:count], cards[count:]
        hands[name] = (position, held)
    return hands


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([OFFICIAL, WILD20, SUPER]).flatmap(lambda r: st.tuples(st.just(r), tables(r)))
)
def test_hands_dealt_from_one_real_deck_always_pass(case):
    rules, hands = case
    totals = {}
    exact = {}
    for name, (position, held) in hands.items():
        points = hand_points(rules, held)
        assert points in possible_totals(
            rules, laid_down=position.laid_down, phase=position.phase, went_out=position.went_out
        )
        assert (
            total_problems(
                rules,
                points,
                went_out=position.went_out,
                laid_down=position.laid_down,
                phase=position.phase,
            )
            == []
        )
        left = CardsLeft.from_cards(held)
        assert (
            counts_problems(
                rules,
                left,
                went_out=position.went_out,
                laid_down=position.laid_down,
                phase=position.phase,
            )
            == []
        )
        totals[name] = PlayerHand(
            points=points,
            went_out=position.went_out,
            laid_down=position.laid_down,
            phase=position.phase,
        )
        exact[name] = PlayerHand(
            points=points,
            cards=left,
            went_out=position.went_out,
            laid_down=position.laid_down,
            phase=position.phase,
        )
    assert table_problems(rules, totals) == []
    assert table_problems(rules, exact) == []


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([OFFICIAL, WILD20, SUPER]),
    st.booleans(),
    st.integers(1, 10),
    st.integers(-10, 300),
)
def test_a_total_is_refused_exactly_when_it_is_not_possible(rules, laid_down, phase, points):
    possible = possible_totals(rules, laid_down=laid_down, phase=phase)
    problems = total_problems(rules, points, laid_down=laid_down, phase=phase)
    assert (problems == []) == (points in possible)


@pytest.mark.parametrize(("points", "implied"), [(0, True), (45, True), (50, False), (85, False)])
def test_under_50_points_means_the_player_laid_down(points, implied):
    """Ten cards left are worth at least 50: a lower total means they laid down."""
    assert (laid_down_implied(points) is not None) == implied


# --- what a form needs to know: the kinds of card, their worth, the limits -----------------


def test_a_form_counts_cards_1_9_10_12_skips_and_wilds_each_at_its_worth():
    assert [tuple(kind) for kind in scoring.card_kinds(OFFICIAL)] == [
        ("low", "1-9", 5),
        ("high", "10-12", 10),
        ("skips", "Skip", 15),
        ("wilds", "Wild", 25),
    ]
    assert [kind.points for kind in scoring.card_kinds(WILD20)][3] == 20


def test_with_super_wild_a_form_counts_the_super_wild_and_super_skip_too():
    supers = [tuple(kind) for kind in scoring.card_kinds(SUPER)][4:]
    assert supers == [("super_wilds", "Super Wild", 50), ("super_skips", "Super Skip", 25)]


def test_the_cards_a_form_counts_add_up_as_the_cards_left_do():
    for rules in (OFFICIAL, WILD20, SUPER):
        counts = {kind.key: 1 for kind in scoring.card_kinds(rules)}
        assert CardsLeft(**counts).points(rules) == sum(k.points for k in scoring.card_kinds(rules))


def test_a_card_is_worth_5_10_15_or_25_or_with_super_wild_also_50():
    assert scoring.card_worths(OFFICIAL) == {"listed": "5, 10, 15", "most": 25}
    assert scoring.card_worths(WILD20) == {"listed": "5, 10, 15", "most": 20}
    assert scoring.card_worths(SUPER) == {"listed": "5, 10, 15, 25", "most": 50}


def test_ten_cards_are_worth_at_least_50_so_less_means_laid_down():
    assert scoring.MADE_BELOW == scoring.HAND_SIZE * scoring.LOW_POINTS == 50
    assert laid_down_implied(scoring.MADE_BELOW - 5) and not laid_down_implied(scoring.MADE_BELOW)


def test_a_laid_down_total_with_no_phase_given_is_judged_on_what_holds_in_every_phase():
    assert total_problems(OFFICIAL, 7, laid_down=True) == [
        "7 is not a multiple of 5: every card is worth 5, 10, 15 or 25 [Rule 8: card points]"
    ]
    assert total_problems(OFFICIAL, 45, laid_down=True) == []  # fine in phase 1, not in phase 6
    assert counts_problems(OFFICIAL, CardsLeft(wilds=9), laid_down=True)
    assert counts_problems(OFFICIAL, CardsLeft(low=4), laid_down=True) == []
