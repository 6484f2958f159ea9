"""A game's rules in words: each house rule says itself once, on the form and in the rules line."""

from __future__ import annotations

import pytest
from games import EVERY_HOUSE_RULE

from scorekeeper import i18n
from scorekeeper.rules.house_rules import house_rules, profile_title, rules_line
from scorekeeper.rules.options import OPTIONS
from scorekeeper.rules.ruleset import make_rules


def test_every_house_rule_has_a_name_and_a_help_line_and_words_for_each_choice():
    for option in OPTIONS.values():
        assert option.name and option.help
        for choice in option.menu or ():
            assert choice.label, (option.key, choice.value)
        if option.menu is not None:
            assert option.default in option.choices


def test_every_house_rule_for_the_printables_changes_every_option():
    """Issue 39: the list claimed every option and lacked super_skip_blue and
    blue_skip_natural; now it is made from OPTIONS."""
    changed = make_rules("official", EVERY_HOUSE_RULE).changed_options()
    assert set(changed) == set(OPTIONS) - {"custom_phases"}
    assert changed["super_skip_blue"] == changed["blue_skip_natural"] == "yes"


def test_a_house_rules_name_is_in_the_readers_language():
    with i18n.using("de"):
        assert OPTIONS["wild_points"].name != "Wild points"
        assert OPTIONS["super_wild"].choice("yes").label == "Ja"
    assert OPTIONS["wild_points"].name == "Wild points"


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"wild_points": "20"}, "A Wild left in hand scores 20"),
        ({"even": "yes"}, "Even phases only"),
        ({"going_out": "discard"}, "You must discard to go out (no discard: floater, 0 points)"),
        ({"phases": "plus10"}, "Phase 10 + 10: twenty phases"),
        ({"custom_phases": "run of 3; 2 sets of 3"}, "Our own list of 2 phases"),
        ({"first": "3"}, "First to make 3 phases ends the game"),
        (
            {"suits": "H=B,D=Y,C=G,S=R"},
            "Two regular decks: hearts = blue, diamonds = yellow, clubs = green, spades = red",
        ),
    ],
)
def test_a_changed_house_rule_is_said_in_the_rules_line(options, said):
    rules = make_rules("official", options)
    assert house_rules(rules) == [said]
    assert rules_line(rules) == f"Official rules. House rules: {said}."


def test_the_rules_as_the_box_says_are_just_their_title():
    assert rules_line(make_rules("masters")) == "Masters."
    assert profile_title(make_rules("plus10")) == "Phase 10 + 10"
