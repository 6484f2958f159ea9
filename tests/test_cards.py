"""Cards: notation, the deck, and what a real table cannot hold (RULES.md 1-2)."""

import pytest

from scorekeeper.rules.cards import (
    DECK_SIZE,
    SKIP,
    WILD,
    CardError,
    Colour,
    Kind,
    deck,
    format_cards,
    impossible,
    number_card,
    parse_card,
    parse_cards,
    parse_suit_colours,
)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("R7", "R7"),
        ("b12", "B12"),
        ("G1", "G1"),
        ("y5", "Y5"),
        ("W", "W"),
        ("s", "S"),
        ("wild", "W"),
        ("Skip", "S"),
    ],
)
def test_phase10_notation_is_read_in_any_case(text, code):
    assert parse_card(text).code == code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("AH", "R1"),
        ("7H", "R7"),
        ("10S", "B10"),
        ("JD", "Y11"),
        ("QC", "G12"),
        ("KS", "W"),
        ("kh", "W"),
        ("JOKER", "S"),
        ("joker", "S"),
        ("7\u2665", "R7"),
    ],
)
def test_regular_deck_cards_map_through_the_default_suits(text, code):
    assert parse_card(text).code == code


def test_a_game_can_change_the_suit_to_colour_mapping():
    mapping = parse_suit_colours("H=B,D=G,C=Y,S=R")
    assert parse_card("7H", mapping) == number_card("B", 7)
    assert parse_card("QS", mapping) == number_card(Colour.RED, 12)


@pytest.mark.parametrize("text", ["H=R,D=R,C=G,S=B", "H=R,D=Y", "H=X,D=Y,C=G,S=B", "nonsense"])
def test_a_suit_mapping_must_give_each_suit_its_own_colour(text):
    with pytest.raises(CardError):
        parse_suit_colours(text)


@pytest.mark.parametrize("text", ["R13", "R0", "X7", "KK", "11H", "", "7", "R"])
def test_unreadable_cards_say_how_to_write_them(text):
    with pytest.raises(CardError, match="R7|1 to 12"):
        parse_card(text)


def test_a_list_of_cards_may_use_spaces_or_commas():
    assert format_cards(parse_cards("R3, r4  W,S")) == "R3 R4 W S"


def test_the_deck_has_108_cards_two_of_each_number_in_each_colour():
    cards = deck()
    assert len(cards) == DECK_SIZE == 108
    assert cards.count(number_card("R", 7)) == 2
    assert cards.count(WILD) == 8 and cards.count(SKIP) == 4
    assert sum(card.kind is Kind.NUMBER for card in cards) == 96


def test_super_wild_deck_swaps_one_wild_and_one_skip():
    cards = deck(super_wild=True)
    assert len(cards) == 108
    assert cards.count(WILD) == 7 and cards.count(parse_card("SW")) == 1
    assert cards.count(SKIP) == 3 and cards.count(parse_card("SS")) == 1


@pytest.mark.parametrize(
    ("cards", "needle"),
    [("R7 R7 R7", "3 x R7"), ("W " * 9, "9 x W"), ("S S S S S", "5 x S"), ("SW", "no Super Wild")],
)
def test_cards_a_real_table_cannot_hold_are_impossible(cards, needle):
    problems = impossible(parse_cards(cards))
    assert len(problems) == 1 and needle in problems[0]


def test_cards_a_table_can_hold_are_possible():
    assert impossible(parse_cards("R7 R7 B7 " + "W " * 8 + "S S S S")) == []
    assert impossible(parse_cards("SW SS W"), super_wild=True) == []


def test_every_colour_has_a_letter_and_a_symbol_so_colour_is_never_the_only_signal():
    assert {c.value for c in Colour} == {"R", "B", "G", "Y"}
    assert len({c.symbol for c in Colour}) == 4
