"""Replaying from a kept state gives exactly what replaying every hand gives."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.game import Game, HandRecord, Standings
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.replay import hand_problems, next_phases, replay, replay_from

PROFILES = ["official", "ten-hands", "masters", "plus10"]


@st.composite
def games(draw) -> Game:
    """A game of valid hands, built hand by hand as a table would enter them."""
    players = ["Ann", "Bob", "Cy", "Dee"][: draw(st.integers(2, 4))]
    options = draw(st.sampled_from([{}, {"totals": "warn"}, {"first": "2"}]))
    game = load_game(
        {
            "rules": draw(st.sampled_from(PROFILES)),
            "options": options,
            "players": players,
            "dealer": draw(st.sampled_from(players)),
        }
    )
    for _ in range(draw(st.integers(4, 16))):
        standings = replay(game)
        if standings.over:
            break
        playing = list(standings.tiebreak or players)
        went_out = draw(st.sampled_from(playing))
        made = [went_out] + [p for p in playing if p != went_out and draw(st.booleans())]
        points = {p: draw(st.integers(0, 30)) * 5 for p in playing if p != went_out}
        choices = next_phases(game)
        attempts = {p: draw(st.sampled_from(choices[p])) for p in playing if choices[p]}
        hand = HandRecord(
            went_out,
            tuple(made),
            {} if standings.tiebreak else points,
            attempts if game.rules.progression.value == "masters" else {},
            tiebreak=bool(standings.tiebreak),
        )
        if not any(not p.warning for p in hand_problems(game, hand)):
            game = game.with_hand(hand)
    return game


def _round_trip(standings: Standings) -> Standings:
    return Standings.from_json(json.loads(json.dumps(standings.to_json())))


@pytest.mark.exhaustive
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.data())
def test_replaying_from_any_kept_hand_equals_replaying_them_all(game, data):
    full = replay_from(game)
    assert full.standings == replay(game)
    assert len(full.kept) == len(game.hands)
    kept = json.loads(json.dumps(full.kept))  # as the store keeps it
    k = data.draw(st.integers(0, len(game.hands)))
    again = replay_from(game, kept[:k])
    assert again.standings == full.standings
    assert list(again.kept) == kept
    assert _round_trip(full.standings) == full.standings


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.data())
def test_a_correction_replays_from_its_hand_and_agrees_with_a_full_replay(game, data):
    if not game.hands:
        return
    k = data.draw(st.integers(0, len(game.hands) - 1))
    kept = replay_from(game).kept
    corrected = game.hands[:k] + game.hands[k + 1 :]  # a deletion is a correction too
    shorter = Game(game.rules, game.players, game.dealer, corrected, game.orders)
    try:
        expected = replay(shorter)
    except ValueError:
        return  # later hands no longer fit: the store refuses such a change
    assert replay_from(shorter, kept[:k]).standings == expected


def test_problems_judged_from_the_kept_state_match_a_full_replay():
    game = load_game(
        {
            "players": ["Ann", "Bob"],
            "dealer": "Ann",
            "hands": [{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 55}}],
        }
    )
    kept = replay_from(game).kept
    wrong = HandRecord("Bob", ("Bob",), {"Ann": 3})
    assert hand_problems(game, wrong, kept) == hand_problems(game, wrong)
    assert hand_problems(game, wrong, kept)
    assert next_phases(game, kept) == next_phases(game) == {"Ann": (2,), "Bob": (1,)}
