"""The replay machine's ways in: one replay behind every view of a game (rules 3, 8, 9)."""

from __future__ import annotations

import pytest

from scorekeeper.rules import reasons
from scorekeeper.rules.game import GameError, HandRecord
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.replay import (
    entry_problems,
    played_hands,
    replay,
    replay_from,
    standings_by_hand,
)


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


# --- a hand still being typed: each player's entries on their own ---------------------------


def entries(before, hand, *names, kept=None):
    return [str(p) for p in entry_problems(before, hand, names, kept)]


def test_a_typed_total_is_judged_before_anyone_is_picked_as_gone_out():
    before = game()
    typed = HandRecord(None, points={"Bob": 47, "Cy": 60})
    assert entries(before, typed, "Bob", "Cy") == [
        "Bob: 47 is not a multiple of 5: every card is worth 5, 10, 15 or 25"
    ]
    assert entry_problems(before, typed, ["Bob"])[0].field == "points"
    assert entry_problems(before, typed, ["Bob"])[0].rule is reasons.CARD_POINTS


def test_a_total_under_50_is_judged_as_laid_down_in_the_players_phase():
    before = game({"went_out": "Ann", "made": ["Ann", "Bob"], "points": {"Bob": 20, "Cy": 50}})
    kept = replay_from(before).kept
    typed = HandRecord(None, made=("Bob",), points={"Bob": 150})
    assert entries(before, typed, "Bob", kept=kept) == [
        "Bob: 150 is too much for someone who laid down phase 2 "
        "(at most 3 cards left, worth at most 75)"
    ]


def test_one_players_mistake_does_not_hide_anothers():
    floaters = game(options={"going_out": "discard"})
    typed = HandRecord(None, points={"Bob": 0, "Cy": 7}, floaters=("Bob",))
    assert entries(floaters, typed, "Bob", "Cy") == [
        "Bob: a floater has laid down their phase: list them in made",
        "Cy: 7 is not a multiple of 5: every card is worth 5, 10, 15 or 25",
    ]


def test_the_player_who_went_out_and_a_finished_game_have_nothing_to_judge():
    typed = HandRecord("Bob", points={"Bob": 7})
    assert entries(game(), typed, "Bob") == []
    over = game(*[{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50, "Cy": 50}}] * 10)
    assert replay(over).over
    assert entries(over, HandRecord(None, points={"Bob": 7}), "Bob") == []


def test_in_masters_a_total_is_judged_in_the_phase_tried_or_in_any_when_not_said():
    before = game(rules="masters")
    assert entries(before, HandRecord(None, ("Bob",), {"Bob": 45}, {"Bob": 6}), "Bob") == [
        "Bob: 45 is too much for someone who laid down phase 6 "
        "(at most 1 card left, worth at most 25)"
    ]
    assert entries(before, HandRecord(None, ("Bob",), {"Bob": 45}), "Bob") == []
    assert entries(before, HandRecord(None, ("Bob",), {"Bob": 47}), "Bob") == [
        "Bob: 47 is not a multiple of 5: every card is worth 5, 10, 15 or 25"
    ]


# --- a player who leaves part way (issue 40: taken out of a club night's round) ------------


def four_left(left_after: dict, *hands: dict):
    return load_game(
        {
            "players": ["Ann", "Bob", "Cy", "Dee"],
            "dealer": "Cy",
            "left_after": left_after,
            "hands": list(hands),
        }
    )


HAND = {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50, "Cy": 60, "Dee": 55}}
WITHOUT_DEE = {"went_out": "Bob", "made": ["Bob"], "points": {"Ann": 50, "Cy": 60}}


def test_the_others_play_on_and_the_deal_passes_over_who_left():
    game = four_left({"Dee": 1}, HAND, WITHOUT_DEE, WITHOUT_DEE)
    hands, standings = played_hands(game)
    assert [hand.dealer for hand in hands] == ["Cy", "Ann", "Bob"]  # Dee would deal hand 2
    assert standings.dealer == "Cy" and standings.player("Dee").left_after == 1
    assert standings.player("Dee").score == 55 and "Dee" not in hands[1].points


def test_a_hand_naming_a_player_who_left_is_refused_with_the_rule():
    game = four_left({"Dee": 1}, HAND)
    hand = HandRecord("Bob", ("Bob",), {"Ann": 50, "Cy": 60, "Dee": 50})
    with pytest.raises(GameError) as caught:
        replay(game.with_hand(hand))
    assert caught.value.rule is reasons.NIGHT_CHANGES
    assert "Dee: left the game after hand 1" in str(caught.value)
    problems = entry_problems(game, hand, ["Dee"])
    assert [p.rule for p in problems] == [reasons.NIGHT_CHANGES]


def test_a_player_who_left_is_still_in_the_hands_before_and_the_file_keeps_it():
    game = four_left({"Dee": 1}, HAND)
    before = game.before(1)
    assert before.left_after == {} and replay(before).player("Dee").left_after is None
    assert four_left({}, HAND) != game
    with pytest.raises(GameError, match="at least 2 players stay"):
        four_left({"Dee": 0, "Cy": 0, "Bob": 0})
    with pytest.raises(GameError, match="not a player"):
        four_left({"Eve": 0})
    with pytest.raises(GameError, match="left_after must map"):
        four_left({"Dee": "two"})
