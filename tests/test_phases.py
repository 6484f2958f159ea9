"""Phase lists, profiles and house-rule options (RULES.md 3)."""

import pytest

from scorekeeper.rules.options import OPTIONS, Progression
from scorekeeper.rules.phases import GroupKind, GroupSpec, RulesError, parse_phase
from scorekeeper.rules.ruleset import OFFICIAL, PROFILES, make_rules, parse_option_args

OFFICIAL_TEXT = [
    "2 sets of 3",
    "1 set of 3 + 1 run of 4",
    "1 set of 4 + 1 run of 4",
    "1 run of 7",
    "1 run of 8",
    "1 run of 9",
    "2 sets of 4",
    "7 cards of one colour",
    "1 set of 5 + 1 set of 2",
    "1 set of 5 + 1 set of 3",
]


@pytest.mark.parametrize(("number", "text"), list(enumerate(OFFICIAL_TEXT, start=1)))
def test_the_official_ten_phases(number, text):
    assert str(OFFICIAL.phase(number)) == text


def test_phase_10_plus_10_adds_ten_harder_phases():
    rules = make_rules("plus10")
    assert len(rules.sequence) == 20
    assert str(rules.phase(11)) == "4 sets of 2"
    assert str(rules.phase(14)) == "1 run of 4 + 4 cards of one colour"
    assert str(rules.phase(18)) == "9 cards of one colour"
    assert str(rules.phase(20)) == "1 set of 6 + 1 set of 3"


def test_older_printings_phase_10_is_an_option():
    assert str(make_rules(options={"phase10": "set4+set3"}).phase(10)) == "1 set of 4 + 1 set of 3"


def test_super_wild_phase_7_has_three_forms():
    phase = make_rules("super-wild").phase(7)
    assert str(phase) == "2 sets of 4 OR 3 sets of 3 OR 5 sets of 2"
    assert phase.min_cards == 8


@pytest.mark.parametrize(
    ("profile", "options", "sequence"),
    [
        ("official", {}, tuple(range(1, 11))),
        ("even", {}, (2, 4, 6, 8, 10)),
        ("official", {"first": "5"}, (1, 2, 3, 4, 5)),
        ("even", {"first": "3"}, (2, 4, 6)),
        ("plus10", {"first": "12"}, tuple(range(1, 13))),
    ],
)
def test_which_phases_a_game_plays(profile, options, sequence):
    assert make_rules(profile, options).sequence == sequence


def test_every_profile_resolves_and_explains_itself():
    for name, profile in PROFILES.items():
        rules = make_rules(name)
        assert rules.profile == name and profile.summary
    assert make_rules("ten-hands").progression is Progression.TEN_HANDS
    assert make_rules("masters").progression is Progression.MASTERS
    assert make_rules("mixed-up").progression is Progression.MIXED_UP
    assert all(option.help for option in OPTIONS.values())


def test_house_rules_change_the_defaults():
    rules = make_rules(
        options={
            "wild_points": "20",
            "natural": "phase",
            "going_out": "discard",
            "winner": "lowest",
            "totals": "warn",
        }
    )
    assert rules.wild_points == 20 and rules.natural_per_phase
    assert rules.going_out_needs_discard and rules.lowest_total_wins and not rules.strict_totals
    assert rules.changed_options() == {
        "wild_points": "20",
        "natural": "phase",
        "going_out": "discard",
        "winner": "lowest",
        "totals": "warn",
    }


def test_a_custom_phase_list():
    rules = make_rules(options={"custom_phases": "1. 2 sets of 3\n2) run of 7; 7 of one colour"})
    assert rules.sequence == (1, 2, 3)
    assert rules.phase(3).groups == (GroupSpec(GroupKind.COLOUR, 7),)


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("set of 3 + run of 4", [("set", 3), ("run", 4)]),
        ("2 sets of 3", [("set", 3), ("set", 3)]),
        ("run of 4, 4 cards of one color", [("run", 4), ("colour", 4)]),
        ("colour of 9", [("colour", 9)]),
        ("3 x 6 of one colour", [("colour", 6)] * 3),
        ("2x set of 3", [("set", 3)] * 2),
        ("1 2 of one colour", [("colour", 2)]),
    ],
)
def test_phases_are_written_the_way_people_say_them(text, groups):
    assert [(g.kind.value, g.size) for g in parse_phase(text).groups] == groups


@pytest.mark.parametrize("size", [10, 11, 12, 22])
def test_a_two_digit_colour_group_is_one_group_of_that_size(size):
    """The count in front never runs into the size: '12 of one colour' is not '1 x 2'."""
    rules = make_rules(options={"custom_phases": f"set of 3; {size} of one colour"})
    assert rules.phase(2).groups == (GroupSpec(GroupKind.COLOUR, size),)


@pytest.mark.parametrize("text", ["9" * 5000 + " of one colour", "set of 1234", "1000 sets of 2"])
def test_a_number_too_long_to_be_a_size_is_unreadable_not_a_crash(text):
    with pytest.raises(RulesError, match="cannot read group"):
        make_rules(options={"custom_phases": text})


@pytest.mark.parametrize(
    ("profile", "options", "message"),
    [
        ("nope", {}, "unknown rules"),
        ("official", {"colour": "x"}, "unknown option"),
        ("official", {"wild_points": "30"}, "must be one of 25, 20"),
        ("official", {"first": "11"}, "from 1 to 10"),
        ("official", {"first": "five"}, "whole number"),
        ("official", {"phases": "custom"}, "none given"),
        ("official", {"custom_phases": "set of 13"}, "2 to 12"),
        ("official", {"custom_phases": "pair of kings"}, "cannot read group"),
        ("official", {"custom_phases": "7 sets of 2"}, "1 to 6 groups"),
    ],
)
def test_bad_rules_say_what_is_wrong(profile, options, message):
    with pytest.raises(RulesError, match=message):
        make_rules(profile, options)


def test_unknown_phase_number_is_an_error():
    with pytest.raises(RulesError, match="no phase 11"):
        OFFICIAL.phase(11)


def test_command_line_options_are_key_value_pairs():
    assert parse_option_args(["wild_points=20", "first=5"]) == {"wild_points": "20", "first": "5"}
    with pytest.raises(RulesError, match="KEY=VALUE"):
        parse_option_args(["wild_points"])
