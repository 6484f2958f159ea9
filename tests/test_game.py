"""Replaying a game: phases, scores, dealer, end of game and ties (RULES.md 3, 8, 9)."""

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from games import played_games
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import reasons as rule
from scorekeeper.rules.game import Game, GameError, HandRecord
from scorekeeper.rules.gamefile import game_to_json, load_game
from scorekeeper.rules.replay import hand_problems, next_phases, played_hands, replay, replay_from
from scorekeeper.rules.ruleset import OFFICIAL

PLAYERS = ["Ann", "Bob", "Cy"]


def hand(went_out, made=(), **points):
    """A hand in the JSON form; made defaults to just the player who went out."""
    return {"went_out": went_out, "made": list(made or [went_out]), "points": points}


def game(*hands, players=PLAYERS, rules="official", options=None, dealer=None, **extra):
    data = {
        "rules": rules,
        "options": options or {},
        "players": list(players),
        "dealer": dealer or players[0],
        "hands": list(hands),
        **extra,
    }
    return load_game(data)


def standings(*hands, **kwargs):
    return replay(game(*hands, **kwargs))


def rejected(*hands, **kwargs) -> GameError:
    with pytest.raises(GameError) as caught:
        standings(*hands, **kwargs)
    return caught.value


# --- the example and the basics ----------------------------------------------------------


def test_the_documented_example_replays():
    result = standings(hand("Ann", ["Ann", "Cy"], Bob=50, Cy=20))
    assert result.to_json() == {
        "players": [
            {"name": "Ann", "phase": 2, "score": 0, "phases_done": [1], "finished": False},
            {"name": "Bob", "phase": 1, "score": 50, "phases_done": [], "finished": False},
            {"name": "Cy", "phase": 2, "score": 20, "phases_done": [1], "finished": False},
        ],
        "dealer": "Bob",
        "over": False,
        "winner": None,
        "tiebreak": [],
        "hand": 2,
        "tied": [],
        "warnings": [],
    }


def test_a_new_game_has_everyone_on_phase_1_and_the_chosen_dealer():
    result = standings(dealer="Cy")
    assert [p.phase for p in result.players] == [1, 1, 1]
    assert result.dealer == "Cy"
    assert result.hand_number == 1


def test_the_deal_passes_to_the_left_each_hand():
    hands = [hand("Ann", Bob=50, Cy=50)] * 4
    assert [standings(*hands[:n], dealer="Bob").dealer for n in range(5)] == [
        "Bob",
        "Cy",
        "Ann",
        "Bob",
        "Cy",
    ]


def test_a_player_who_misses_the_phase_tries_it_again():
    result = standings(hand("Ann", Bob=50, Cy=60), hand("Bob", ["Bob", "Ann"], Ann=5, Cy=55))
    assert [p.phase for p in result.players] == [3, 2, 1]
    assert [p.score for p in result.players] == [5, 50, 115]


def test_the_player_who_went_out_may_be_given_0_points():
    assert standings(hand("Ann", Ann=0, Bob=50, Cy=50)).player("Ann").score == 0


# --- a whole official game ----------------------------------------------------------------


def official_game():
    """Ann makes a phase every hand; Bob makes one only when he goes out; Cy never."""
    hands = []
    for number in range(1, 11):
        if number in (3, 7):
            hands.append(hand("Bob", ["Bob", "Ann"], Ann=5, Cy=50))
        else:
            hands.append(hand("Ann", ["Ann"], Bob=50, Cy=55))
    return hands


def test_an_official_game_is_won_by_the_first_to_complete_phase_10():
    result = standings(*official_game())
    ann, bob, cy = result.players
    assert result.over and result.winner == "Ann"
    assert ann.finished and ann.phases_done == tuple(range(1, 11)) and ann.phase == 10
    assert (ann.score, bob.score, cy.score) == (10, 8 * 50, 8 * 55 + 2 * 50)
    assert bob.phases_done == (1, 2) and bob.phase == 3 and not bob.finished
    assert cy.phase == 1 and cy.phases_done == ()
    assert result.hand_number == 11 and result.dealer == "Bob"


def test_no_hand_can_be_recorded_once_the_game_is_over():
    error = rejected(*official_game(), hand("Bob", Ann=50, Cy=50))
    assert str(error).startswith("hand 11: the game is over: Ann won in hand 10")


def test_when_several_complete_the_last_phase_the_fewest_points_win():
    hands = [hand("Ann", ["Ann", "Bob"], Bob=5, Cy=50) for _ in range(9)]
    hands.append(hand("Bob", ["Ann", "Bob"], Ann=50, Cy=50))
    result = standings(*hands)
    assert [p.score for p in result.players] == [50, 45, 500]
    assert result.over and result.winner == "Bob"  # Ann went out more, but Bob has fewer points


# --- ties ----------------------------------------------------------------------------------


def tied_game():
    """Ann and Bob both complete phase 10 in hand 10 with 50 points each."""
    hands = [hand("Ann", ["Ann", "Bob"], Bob=5, Cy=50) for _ in range(9)]
    hands.append(hand("Cy", ["Ann", "Bob", "Cy"], Ann=50, Bob=5))
    return hands


def test_a_tie_among_the_finishers_calls_for_a_tiebreak():
    result = standings(*tied_game())
    assert [p.score for p in result.players] == [50, 50, 450]
    assert result.tiebreak == ("Ann", "Bob")
    assert not result.over and result.winner is None
    assert result.player("Ann").tiebreak_phase == 10 and result.player("Cy").tiebreak_phase is None
    assert next_phases(game(*tied_game())) == {"Ann": (10,), "Bob": (10,), "Cy": ()}


def test_the_tiebreak_is_won_by_whoever_goes_out_first():
    tiebreak = {"went_out": "Bob", "made": ["Bob"], "points": {"Ann": 50}, "tiebreak": True}
    result = standings(*tied_game(), tiebreak)
    assert result.over and result.winner == "Bob" and result.tiebreak == ()
    assert result.player("Bob").score == 50  # the tiebreak hand decides; it adds no points
    assert result.dealer == "Cy"  # the deal passed on in the tiebreak hand too


def test_the_next_hand_after_a_tie_must_be_the_tiebreak():
    error = rejected(*tied_game(), hand("Bob", Ann=50, Cy=50))
    assert error.hand == 11
    assert "Ann and Bob are tied" in error.reason


def test_only_the_tied_players_play_the_tiebreak():
    tiebreak = {
        "went_out": "Bob",
        "made": ["Bob"],
        "points": {"Ann": 50, "Cy": 50},
        "tiebreak": True,
    }
    error = rejected(*tied_game(), tiebreak)
    assert str(error).startswith("hand 11, Cy: is not in the tiebreak: only Ann and Bob")


def test_a_tiebreak_hand_needs_a_tie():
    error = rejected(hand("Ann", Bob=50, Cy=50) | {"tiebreak": True})
    assert str(error).startswith("hand 1: no tiebreak is due")


def lowest_game(ann_last):
    """Ann finishes in hand 10 on 40 + ann_last; Cy is a phase behind on 50; Bob has 500."""
    hands = [hand("Ann", ["Ann"], Bob=50, Cy=50)]
    hands += [hand("Cy", ["Ann", "Cy"], Ann=5, Bob=50) for _ in range(8)]
    hands.append(hand("Cy", ["Ann", "Cy"], Ann=ann_last, Bob=50))
    return hands


def test_with_lowest_total_wins_everyone_counts_once_someone_finishes():
    assert standings(*lowest_game(20)).winner == "Ann"
    result = standings(*lowest_game(20), options={"winner": "lowest"})
    assert [p.score for p in result.players] == [60, 500, 50]
    assert result.winner == "Cy" and not result.player("Cy").finished


def test_with_lowest_total_wins_a_tie_with_someone_unfinished_is_replayed():
    result = standings(*lowest_game(10), options={"winner": "lowest"})
    assert result.tiebreak == ("Ann", "Cy")
    assert [p.tiebreak_phase for p in result.players] == [10, None, 10]


def test_a_tiebreak_on_own_phase_replays_the_phase_each_last_attempted():
    options = {"winner": "lowest", "tiebreak": "own-phase"}
    result = standings(*lowest_game(10), options=options)
    assert [p.tiebreak_phase for p in result.players] == [10, None, 9]
    tiebreak = {"went_out": "Cy", "made": ["Cy"], "attempts": {"Cy": 10}, "tiebreak": True}
    error = rejected(*lowest_game(10), tiebreak, options=options)
    assert str(error).startswith("hand 11, Cy: replays phase 9 in the tiebreak, not 10")


# --- other progressions ---------------------------------------------------------------------


def test_in_ten_hands_everyone_moves_on_each_hand_and_the_lowest_total_wins():
    hands = [hand("Ann", Bob=50, Cy=55) for _ in range(10)]
    after_three = standings(*hands[:3], rules="ten-hands")
    assert [p.phase for p in after_three.players] == [4, 4, 4]
    assert after_three.player("Bob").phases_done == ()
    result = standings(*hands, rules="ten-hands")
    assert result.over and result.winner == "Ann" and all(p.finished for p in result.players)


def test_in_ten_hands_an_exact_tie_is_shown_not_settled():
    hands = [hand("Ann", Bob=50, Cy=55) if n % 2 else hand("Bob", Ann=50, Cy=55) for n in range(10)]
    result = standings(*hands, rules="ten-hands")
    assert result.over and result.winner is None and result.tied == ("Ann", "Bob")
    assert (
        "tied after hand 10"
        in rejected(*hands, hand("Ann", Bob=50, Cy=50), rules="ten-hands").reason
    )


def test_even_phases_go_2_4_6_8_10():
    hands = [hand("Ann", Bob=50, Cy=50) for _ in range(5)]
    assert standings(*hands[:1], rules="even").player("Ann").phase == 4
    result = standings(*hands, rules="even")
    assert result.player("Ann").phases_done == (2, 4, 6, 8, 10) and result.winner == "Ann"


def test_first_n_phases_ends_the_game_at_the_nth_phase():
    hands = [hand("Ann", Bob=50, Cy=50) for _ in range(3)]
    assert standings(*hands[:2], options={"first": 3}).over is False
    result = standings(*hands, options={"first": 3})
    assert result.winner == "Ann" and result.player("Ann").phase == 3


def masters_hand(went_out, made, attempts, **points):
    return hand(went_out, made, **points) | {"attempts": attempts}


def test_in_masters_each_player_picks_a_phase_not_yet_made():
    first = masters_hand("Ann", ["Ann", "Bob"], {"Ann": 4, "Bob": 1, "Cy": 9}, Bob=5, Cy=50)
    result = standings(first, rules="masters")
    assert result.player("Ann").phases_done == (4,) and result.player("Ann").phase == 1
    choices = next_phases(game(first, rules="masters"))
    assert choices["Ann"] == (1, 2, 3, 5, 6, 7, 8, 9, 10)
    again = masters_hand("Bob", ["Bob"], {"Ann": 4, "Bob": 2, "Cy": 1}, Ann=50, Cy=50)
    error = rejected(first, again, rules="masters")
    assert str(error).startswith("hand 2, Ann: already made phase 4")


def test_in_masters_every_player_says_what_they_attempted():
    error = rejected(
        masters_hand("Ann", ["Ann"], {"Ann": 1, "Bob": 1}, Bob=50, Cy=50), rules="masters"
    )
    assert (error.hand, error.player) == (1, "Cy")
    assert "say which phase they attempted" in error.reason


def test_masters_ends_when_a_player_has_made_every_phase_in_any_order():
    order = [10, 3, 1, 9, 2, 8, 4, 7, 5, 6]
    hands = [
        masters_hand("Ann", ["Ann"], {"Ann": n, "Bob": 1, "Cy": 1}, Bob=50, Cy=50) for n in order
    ]
    result = standings(*hands, rules="masters")
    assert result.winner == "Ann" and result.player("Ann").phases_done == tuple(order)


ORDERS = {"Ann": [3, 1, 2, 4, 5, 6, 7, 8, 9, 10], "Bob": [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]}


def test_in_mixed_up_masters_each_player_follows_their_own_order():
    hands = [hand("Ann", ["Ann", "Bob"], Bob=5)]
    result = standings(*hands, players=["Ann", "Bob"], rules="mixed-up", orders=ORDERS)
    assert [p.phase for p in result.players] == [1, 9]
    assert [p.phases_done for p in result.players] == [(3,), (10,)]


def test_in_mixed_up_masters_a_tie_replays_each_players_own_last_phase():
    """Each tied player replays the last phase of their own order (docs/rules.md, Ties)."""
    hands = [hand("Ann", ["Ann", "Bob"], Bob=10)]
    hands += [hand("Ann", ["Ann", "Bob"], Bob=5) for _ in range(8)]
    hands.append(hand("Bob", ["Ann", "Bob"], Ann=50))  # both finish on 50
    for options in ({}, {"tiebreak": "own-phase"}):  # for finishers the two readings agree
        result = standings(
            *hands, players=["Ann", "Bob"], rules="mixed-up", options=options, orders=ORDERS
        )
        assert result.tiebreak == ("Ann", "Bob")
        assert [p.tiebreak_phase for p in result.players] == [10, 1]


def test_mixed_up_orders_must_be_a_shuffle_of_the_phases():
    with pytest.raises(GameError, match="Bob: the order 1, 1, 2"):
        game(
            players=["Ann", "Bob"],
            rules="mixed-up",
            orders=ORDERS | {"Bob": [1, 1, 2, 3, 4, 5, 6, 7, 8, 9]},
        )
    with pytest.raises(GameError, match="Cy: needs their own order"):
        game(players=PLAYERS, rules="mixed-up", orders=ORDERS)
    with pytest.raises(GameError, match="only for Mixed-up"):
        game(players=["Ann", "Bob"], orders=ORDERS)


def test_mixed_up_masters_is_for_two_to_four_players():
    with pytest.raises(GameError, match="Mixed-up Masters is for 2-4 players, not 5"):
        game(players=["A", "B", "C", "D", "E"], rules="mixed-up")


# --- floaters and exact cards -----------------------------------------------------------------


def test_a_floater_scores_0_but_did_not_win_the_hand():
    floater = hand("Ann", ["Ann", "Bob"], Cy=50) | {"floaters": ["Bob"]}
    result = standings(floater, options={"going_out": "discard"})
    assert [p.score for p in result.players] == [0, 0, 50]
    error = rejected(floater)
    assert str(error).startswith("hand 1, Bob: cannot be a floater with these rules")


def test_a_floater_must_have_laid_down():
    floater = hand("Ann", ["Ann"], Cy=50) | {"floaters": ["Bob"]}
    error = rejected(floater, options={"going_out": "discard"})
    assert str(error).startswith("hand 1, Bob: a floater has laid down their phase")


def test_exact_cards_left_give_the_points():
    cards = {
        "Bob": {"low": 2, "high": 1, "skips": 0, "wilds": 0},
        "Cy": {"low": 6, "high": 2, "skips": 1, "wilds": 1},
    }
    loaded = game(hand("Ann", ["Ann", "Bob"]) | {"cards": cards})
    assert [p.score for p in replay(loaded).players] == [0, 20, 30 + 20 + 15 + 25]
    assert loaded.hands[0].scores(OFFICIAL) == {"Ann": 0, "Bob": 20, "Cy": 90}


def test_exact_cards_must_agree_with_the_points_given():
    cards = {"Bob": {"low": 2, "high": 1, "skips": 0, "wilds": 0}}
    error = rejected(hand("Ann", ["Ann", "Bob"], Bob=25, Cy=50) | {"cards": cards})
    assert str(error).startswith("hand 1, Bob: 2 cards 1-9, 1 card 10-12 are worth 20, not 25")


def test_exact_cards_must_be_a_possible_hand():
    cards = {"Bob": {"low": 5, "high": 0, "skips": 0, "wilds": 0}}
    error = rejected(hand("Ann", ["Ann", "Bob"], Cy=50) | {"cards": cards})
    assert "at most 4 cards left, not 5" in str(error)


# --- what a hand is checked for -------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad_hand", "message"),
    [
        (hand("Dee", Bob=50, Cy=50), "hand 2, Dee: is not a player in this game"),
        (hand("Ann", Bob=50, Cy=50, Dee=5), "hand 2, Dee: is not a player in this game"),
        (
            {"went_out": None, "made": [], "points": {"Ann": 50, "Bob": 50, "Cy": 50}},
            "hand 2: nobody went out",
        ),
        (hand("Ann", ["Bob"], Bob=5, Cy=50), "hand 2, Ann: went out, so they made their phase"),
        (hand("Ann", ["Ann", "Bob", "Bob"], Bob=5, Cy=50), "hand 2, Bob: is listed twice"),
        (hand("Ann", Bob=50), "hand 2, Cy: has no points for this hand"),
        (hand("Ann", Bob=45, Cy=50), "hand 2, Bob: 45 is not possible: a player who did not"),
        (hand("Ann", Bob=50, Cy=52), "hand 2, Cy: 52 is not a multiple of 5"),
        (hand("Ann", Bob=50, Cy=235), "hand 2, Cy: 235 is not possible"),
        (hand("Ann", ["Ann", "Bob"], Bob=0, Cy=50), "hand 2, Bob: 0 is not possible"),
        (
            hand("Ann", ["Ann", "Bob"], Bob=105, Cy=50),
            "hand 2, Bob: 105 is too much for someone "
            "who laid down phase 1 (at most 4 cards left, worth at most 100)",
        ),
        (hand("Ann", Ann=10, Bob=50, Cy=50), "hand 2, Ann: went out, so scores 0, not 10"),
        (hand("Ann", Bob=230, Cy=230), "hand 2: together Bob and Cy need at least 16 Wilds"),
        (hand("Ann", Bob=50, Cy=50) | {"attempts": {"Ann": 3}}, "hand 2, Ann: is on phase 2"),
    ],
)
def test_a_bad_hand_is_refused_naming_the_hand_and_the_player(bad_hand, message):
    first = hand("Ann", Bob=50, Cy=50)
    assert str(rejected(first, bad_hand)).startswith(message)


def test_with_totals_warn_impossible_totals_are_kept_with_a_warning():
    result = standings(hand("Ann", Bob=45, Cy=230), options={"totals": "warn"})
    assert [p.score for p in result.players] == [0, 45, 230]
    assert result.warnings == (
        "hand 1, Bob: 45 is not possible: a player who did not make the phase holds exactly "
        "10 cards, worth at least 50",
    )


def test_with_totals_warn_a_missing_total_is_still_an_error():
    assert "has no points" in rejected(hand("Ann", Bob=45), options={"totals": "warn"}).reason


def test_the_web_form_gets_every_problem_of_a_hand_with_its_field():
    before = game(hand("Ann", Bob=50, Cy=50))
    new = HandRecord(went_out="Bob", made=("Bob",), points={"Ann": 45, "Cy": 12})
    problems = hand_problems(before, new)
    assert [(p.player, p.field, p.warning) for p in problems] == [
        ("Ann", "points", False),
        ("Cy", "points", False),
    ]
    assert hand_problems(before, HandRecord("Bob", ("Bob",), {"Ann": 50, "Cy": 50})) == []
    warn = game(rules="official", options={"totals": "warn"})
    assert hand_problems(warn, new) == [replace(p, warning=True) for p in problems]
    assert [p.rule for p in problems] == [rule.HAND_SIZE, rule.CARD_POINTS]


def test_a_game_error_lists_every_problem_of_the_bad_hand():
    error = rejected(hand("Ann", Bob=45, Cy=12))
    assert [p.player for p in error.problems] == ["Bob", "Cy"]


# --- the JSON form ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": ["Ann"]}, "Phase 10 is for 2-6 players, not 1"),
        ({"players": list("ABCDEFG")}, "not 7"),
        ({"players": ["Ann", "ann"]}, "two players have this name"),
        ({"players": ["Ann", "  "]}, "every player needs a name"),
        ({"players": ["Ann", "B" * 41]}, "at most 40 characters"),
        ({"players": "Ann, Bob"}, "players must be a list of names"),
        ({"dealer": "Dee"}, "the dealer must be one of the players"),
        ({"rules": "poker"}, "unknown rules 'poker'"),
        ({"options": {"wild_points": 30}}, "option wild_points must be one of 25, 20"),
        ({"colour": "red"}, "unknown key 'colour'"),
        ({"hands": [{"went_out": "Ann", "winner": "Ann"}]}, "hand 1: unknown key 'winner'"),
        (
            {"hands": [{"went_out": "Ann", "points": {"Bob": "50"}}]},
            "hand 1, Bob: points: must be a whole number",
        ),
        (
            {"hands": [{"went_out": "Ann", "points": {"Bob": 50, "bob": 50}}]},
            "hand 1, Bob: points names this player twice",
        ),
        (
            {"hands": [{"went_out": "Ann", "cards": {"Bob": {"jokers": 2}}}]},
            "hand 1, Bob: cards: unknown kind of card jokers",
        ),
        ({"hands": [{"went_out": "Ann", "tiebreak": "yes"}]}, "tiebreak must be true or false"),
    ],
)
def test_a_badly_shaped_game_is_refused_saying_what_is_wrong(change, message):
    data = {"rules": "official", "players": PLAYERS, "dealer": "Ann", "hands": []} | change
    with pytest.raises(GameError) as caught:
        load_game(data)
    assert str(caught.value).startswith(message) or message in str(caught.value)


def test_names_are_trimmed_and_matched_whatever_their_case():
    loaded = load_game(
        {
            "players": [" Ann ", "Bob"],
            "dealer": "bob",
            "hands": [{"went_out": "ann", "made": ["ANN"], "points": {"bob ": 50}}],
        }
    )
    assert loaded.players == ("Ann", "Bob") and loaded.dealer == "Bob"
    assert loaded.hands[0] == HandRecord("Ann", ("Ann",), {"Bob": 50})


def test_a_game_without_a_dealer_starts_with_the_first_player():
    assert load_game({"players": PLAYERS}).dealer == "Ann"


EXAMPLES = {
    "official": {
        "rules": "official",
        "options": {},
        "players": PLAYERS,
        "dealer": "Bob",
        "hands": [hand("Ann", ["Ann", "Cy"], Bob=50, Cy=20)],
    },
    "house rules": {
        "rules": "official",
        "options": {"wild_points": "20", "first": "5"},
        "players": PLAYERS,
        "dealer": "Ann",
        "hands": [],
    },
    "masters": {
        "rules": "masters",
        "options": {},
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "hands": [masters_hand("Bob", ["Bob"], {"Ann": 3, "Bob": 7}, Ann=50)],
    },
    "mixed-up": {
        "rules": "mixed-up",
        "options": {},
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "orders": ORDERS,
        "hands": [hand("Ann", Bob=50)],
    },
    "floaters and cards": {
        "rules": "official",
        "options": {"going_out": "discard"},
        "players": PLAYERS,
        "dealer": "Cy",
        "hands": [
            hand("Ann", ["Ann", "Bob"], Cy=50)
            | {"floaters": ["Bob"], "cards": {"Cy": {"low": 10, "high": 0, "skips": 0, "wilds": 0}}}
        ],
    },
    "tiebreak": {
        "rules": "official",
        "options": {},
        "players": PLAYERS,
        "dealer": "Ann",
        "hands": [*tied_game(), hand("Ann", Bob=50) | {"tiebreak": True}],
    },
}


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_game_written_out_reads_back_the_same(name):
    data = EXAMPLES[name]
    loaded = load_game(data)
    replay(loaded)
    assert game_to_json(loaded) == data
    assert load_game(json.loads(json.dumps(game_to_json(loaded)))) == loaded


def test_a_game_can_grow_one_hand_at_a_time():
    start = load_game({"players": PLAYERS})
    grown = start.with_hand(HandRecord("Ann", ("Ann",), {"Bob": 50, "Cy": 50}))
    assert replay(grown).player("Ann").phase == 2 and replay(start).hand_number == 1


def test_a_game_made_in_code_is_checked_too():
    with pytest.raises(GameError, match="dealer must be one of the players"):
        Game(OFFICIAL, ("Ann", "Bob"), "Cy")


# --- generated games ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(played_games())
def test_generated_games_replay_to_the_sum_of_their_points(case):
    data, scores, done, winner, _ = case
    loaded = load_game(data)
    result = replay(loaded)
    assert {p.name: p.score for p in result.players} == scores
    assert {p.name: len(p.phases_done) for p in result.players} == done
    assert result.winner == winner and result.over == (winner is not None)
    assert result.hand_number == len(data["hands"]) + 1
    assert load_game(game_to_json(loaded)) == loaded


@settings(max_examples=30, deadline=None)
@given(played_games(), st.data())
def test_every_prefix_of_a_game_replays_and_the_next_hand_checks_clean(case, data):
    game_data = case[0]
    hands = game_data["hands"]
    cut = data.draw(st.integers(0, len(hands) - 1))
    before = load_game(game_data | {"hands": hands[:cut]})
    nxt = load_game(game_data | {"hands": hands[cut : cut + 1]}).hands[0]
    assert hand_problems(before, nxt) == []


# --- the format documentation --------------------------------------------------------------

DOC = Path(__file__).resolve().parent.parent / "docs" / "game-format.md"


def doc_blocks():
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)]


@pytest.mark.parametrize("number", range(8))
def test_every_game_in_the_format_documentation_replays(number):
    games = [block for block in doc_blocks() if "hands" in block]
    assert len(games) == 8
    result = replay(load_game(games[number]))
    assert result.warnings == ()


def test_the_documented_standings_are_what_the_first_example_gives():
    first, *_, shown = doc_blocks()
    assert replay(load_game(first)).to_json() == shown


def test_the_documented_game_ended_early_is_won_by_the_leader():
    ended = next(block for block in doc_blocks() if block.get("ended_early"))
    result = replay(load_game(ended))
    assert result.ended_early and result.winner == "Cy" and result.hands_played == 2


def test_the_documented_tiebreak_example_is_won_by_the_tiebreak():
    tiebreak = next(block for block in doc_blocks() if "first" in block.get("options", {}))
    before = load_game(tiebreak | {"hands": tiebreak["hands"][:2]})
    assert replay(before).tiebreak == ("Ann", "Bob")
    assert replay(load_game(tiebreak)).winner == "Bob"


def test_the_documented_ten_hands_example_ends_in_a_tie():
    ten_hands = next(block for block in doc_blocks() if block.get("rules") == "ten-hands")
    result = replay(load_game(ten_hands))
    assert result.over and result.tied == ("Ann", "Bob") and result.winner is None


def test_played_hands_gives_each_hands_dealer_phases_points_and_standings():
    game = load_game(
        {
            "players": ["Ann", "Bob", "Cy"],
            "dealer": "Bob",
            "hands": [
                {"went_out": "Ann", "made": ["Ann", "Cy"], "points": {"Bob": 50, "Cy": 20}},
                {"went_out": "Cy", "made": ["Cy"], "points": {"Ann": 55, "Bob": 60}},
            ],
        }
    )
    (first, second), standings = played_hands(game)
    assert (first.number, first.dealer, second.dealer) == (1, "Bob", "Cy")
    assert first.phases == {"Ann": 1, "Bob": 1, "Cy": 1}
    assert second.phases == {"Ann": 2, "Bob": 1, "Cy": 2}
    assert second.points == {"Ann": 55, "Bob": 60, "Cy": 0}
    assert second.totals == {"Ann": 55, "Bob": 110, "Cy": 20}
    assert standings == replay(game)


def test_a_tiebreak_hands_points_are_the_hands_own_though_no_total_counts_them():
    """Tiebreak points are not added to the totals (RULES.md 9), yet the hand had them."""
    tiebreak = {"went_out": "Bob", "made": ["Bob"], "points": {"Ann": 55}, "tiebreak": True}
    played = game(*tied_game(), tiebreak)
    kept = replay_from(played).kept
    for record in (played_hands(played)[0], played_hands(played, kept)[0]):
        last, before = record[-1], record[-2]
        assert last.points == {"Ann": 55, "Bob": 0}
        assert last.totals == before.totals


@pytest.mark.parametrize(
    "played",
    [
        pytest.param(game(*official_game(), dealer="Cy"), id="a won game"),
        pytest.param(
            game(
                *tied_game(),
                {"went_out": "Bob", "made": ["Bob"], "points": {"Ann": 50}, "tiebreak": True},
            ),
            id="a tiebreak",
        ),
        pytest.param(game(*tied_game()), id="a tiebreak due"),
        pytest.param(
            game(
                masters_hand("Ann", ["Ann", "Bob"], {"Ann": 4, "Bob": 1, "Cy": 9}, Bob=5, Cy=50),
                masters_hand("Cy", ["Cy"], {"Ann": 1, "Bob": 2, "Cy": 9}, Ann=55, Bob=60),
                rules="masters",
            ),
            id="masters",
        ),
        pytest.param(game(), id="no hands"),
    ],
)
def test_the_kept_state_after_each_hand_gives_the_same_record_as_a_replay(played):
    """A sheet printed from the store's kept states must match one replayed from the hands."""
    kept = replay_from(played).kept
    assert played_hands(played, kept) == played_hands(played)
    assert played_hands(played, kept[:-1]) == played_hands(played)  # too few: replays


@pytest.mark.parametrize("key", ["options", "orders", "hands"])
def test_an_empty_string_is_not_an_absent_part_of_a_game_file(key):
    """Found by the API fuzzer: {"orders": ""} was read as no orders and a game was created."""
    data = {"rules": "official", "players": ["Ann", "Bob"], key: ""}
    with pytest.raises(GameError, match=key):
        load_game(data)
    del data[key]
    assert load_game({**data, key: None}) == load_game(data)  # null is the same as leaving it out
