"""The replay machine's ways in: one replay behind every view of a game (rules 3, 8, 9)."""

from __future__ import annotations

import pytest

from scorekeeper.rules import reasons
from scorekeeper.rules.game import GameError
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.replay import played_hands, replay, replay_from, standings_by_hand


def game(*hands: dict, rules: str = "official", options: dict | None = None):
    return load_game(
        {
            "rules": rules,
            "options": options or {},
            "players": ["Ann", "Bob", "Cy"],
            "dealer": "Ann",
            "hands": list(hands),
        }
    )


def test_a_bad_hand_names_its_rule_however_the_game_is_read():
    bad = game({"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 52, "Cy": 50}})
    for read in (replay, replay_from, played_hands):
        with pytest.raises(GameError) as caught:
            read(bad)
        assert caught.value.rule is reasons.CARD_POINTS
        assert (
            str(caught.value)
            == "hand 1, Bob: 52 is not a multiple of 5: every card is worth 5, 10, 15 or 25"
        )


def test_a_hand_played_without_a_phase_to_play_names_its_rule():
    masters = game(
        {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50, "Cy": 50}}, rules="masters"
    )
    with pytest.raises(GameError) as caught:
        standings_by_hand(masters)  # unchecked: the missing attempt is found when it is played
    assert caught.value.rule is reasons.MASTERS and caught.value.player == "Ann"


def test_the_record_of_a_game_is_the_same_read_off_kept_states_or_replayed():
    hands = [
        {"went_out": "Ann", "made": ["Ann", "Cy"], "points": {"Bob": 50, "Cy": 20}},
        {"went_out": "Bob", "made": ["Bob"], "points": {"Ann": 55, "Cy": 60}},
    ]
    warned = game(
        *hands,
        {"went_out": "Cy", "made": ["Cy"], "points": {"Ann": 50, "Bob": 45}},
        options={"totals": "warn"},
    )
    kept = replay_from(warned).kept
    assert played_hands(warned, kept) == played_hands(warned)
    assert played_hands(warned)[1] == replay(warned)  # warnings included
    assert replay(warned).warnings


def test_the_standings_hand_by_hand_end_where_the_replay_ends():
    played = game({"went_out": "Ann", "made": ["Ann", "Cy"], "points": {"Bob": 50, "Cy": 20}})
    steps = standings_by_hand(played)
    assert [s.hand_number for s in steps] == [1, 2]
    assert steps[-1] == replay(played)
