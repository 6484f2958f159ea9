"""Ending a game early: the leader by the game's own order wins, and it can be undone."""

from __future__ import annotations

import json

import pytest

from scorekeeper import actions, store
from scorekeeper.cli import main
from scorekeeper.printing.record import game_record
from scorekeeper.reports import current_game
from scorekeeper.reports.statistics import PlayedGame, table_stats
from scorekeeper.rules.game import GameError, HandRecord
from scorekeeper.rules.gamefile import game_to_json, load_game
from scorekeeper.rules.replay import hand_problems, replay, standings_by_hand
from scorekeeper.store import change_notes

PLAYERS = ["Ann", "Bob", "Cy"]


def hand(went_out, made=(), **points):
    return {"went_out": went_out, "made": list(made or [went_out]), "points": points}


def game(*hands, rules="official", ended_early=True, **extra):
    data = {"rules": rules, "players": PLAYERS, "dealer": "Ann", "hands": list(hands), **extra}
    if ended_early:
        data["ended_early"] = True
    return load_game(data)


LEVEL = (  # Ann and Bob: 2 phases made and 10 points each; Cy none, 100 points
    hand("Ann", ["Ann", "Bob"], Bob=10, Cy=50),
    hand("Bob", ["Bob", "Ann"], Ann=10, Cy=50),
)
TWO_HANDS = (
    hand("Ann", ["Ann", "Cy"], Bob=50, Cy=20),  # Ann 0 (1 made), Bob 50, Cy 20 (1 made)
    hand("Cy", ["Cy", "Bob"], Ann=60, Bob=5),  # Ann 60 (1), Bob 55 (1), Cy 20 (2)
)


# --- the engine -----------------------------------------------------------------------


def test_the_player_with_most_phases_made_wins_a_game_ended_early():
    result = replay(game(*TWO_HANDS))
    assert result.over and result.ended_early
    assert result.winner == "Cy" and result.tied == ()
    assert result.to_json()["ended_early"] is True


def test_among_equal_phases_the_lower_total_leads():
    result = replay(game(hand("Ann", ["Ann", "Cy"], Bob=50, Cy=20)))
    assert result.winner == "Ann"  # Ann and Cy made phase 1: Ann has 0 points, Cy 20


def test_players_the_order_cannot_tell_apart_share_the_win_as_a_tie():
    result = replay(game(*LEVEL))
    assert result.over and result.winner is None and result.tied == ("Ann", "Bob")


def test_in_ten_hands_the_lowest_total_leads_whatever_was_made():
    first = hand("Bob", ["Bob", "Ann"], Ann=40, Cy=55)
    second = hand("Cy", ["Cy", "Ann"], Ann=30, Bob=50)
    assert replay(game(first, second, rules="ten-hands")).winner == "Bob"  # 50; Cy 55, Ann 70
    assert replay(game(first, second)).winner == "Ann"  # phases first: Ann made 2, with 70


def test_a_game_that_is_not_ended_early_plays_on():
    result = replay(game(*TWO_HANDS, ended_early=False))
    assert not result.over and not result.ended_early and "ended_early" not in result.to_json()


def test_a_game_cannot_be_ended_before_its_first_hand():
    with pytest.raises(GameError, match="only after its first hand"):
        replay(game())


def test_no_hand_can_follow_the_end():
    ended = game(*TWO_HANDS)
    problems = hand_problems(ended, HandRecord("Ann", ("Ann",), {"Bob": 50, "Cy": 50}))
    assert "ended early after hand 2" in problems[0].message


def test_the_game_file_says_it_was_ended_early_and_reads_back():
    data = game_to_json(game(*TWO_HANDS))
    assert data["ended_early"] is True and list(data)[-1] == "hands"
    assert load_game(data) == game(*TWO_HANDS)
    assert "ended_early" not in game_to_json(game(*TWO_HANDS, ended_early=False))


def test_ended_early_must_be_true_or_false():
    with pytest.raises(GameError, match="ended_early must be true or false"):
        load_game({"players": PLAYERS, "hands": list(TWO_HANDS), "ended_early": "yes"})


def test_statistics_count_a_game_ended_early_as_finished_with_its_winner():
    played = game(*TWO_HANDS)
    assert standings_by_hand(played)[-1].winner == "Cy"
    found = table_stats([PlayedGame(played, "2026-01-01T20:00:00+00:00")])
    assert found.games == 1 and found.players["Cy"].wins == 1
    assert found.ended_early == 1


def test_the_printed_record_says_the_game_was_ended_early():
    record = game_record(game(*TWO_HANDS))
    assert record.over
    assert "ended early after hand 2" in record.summary
    assert "Cy" in record.summary


# --- the action: a change in the log, undone like any other ------------------------------


@pytest.fixture
def db(tmp_path):
    yield store.connection.connect(tmp_path / "games.sqlite3")
    store.connection.close_all()


def started(db, *hands) -> current_game.Current:
    data = {"players": PLAYERS, "dealer": "Ann", "hands": list(hands)}
    result = actions.games.start_game(db, data)
    assert isinstance(result, actions.results.Saved)
    return result.current


def test_ending_early_is_a_change_with_its_winner_in_the_history(db):
    now = started(db, *TWO_HANDS)
    result = actions.games.end_early(db, now.stored.id, now.version)
    assert isinstance(result, actions.results.Saved)
    assert result.current.standings.winner == "Cy" and result.current.standings.ended_early
    assert result.current.stored.state["ended_early"] is True
    assert result.summary == "Game ended early after hand 2: Cy wins"
    latest = store.history.changes(db, now.stored.id)[0]
    assert latest.action == "end" and latest.summary == result.summary
    kept = store.games.get_game(db, now.stored.id)
    assert load_game(kept.state).ended_early
    assert store.history.state_at(db, now.stored.id, latest.version) == kept.state


def test_undo_takes_the_end_back_and_the_game_goes_on(db):
    now = started(db, *TWO_HANDS)
    ended = actions.games.end_early(db, now.stored.id, now.version)
    undone = actions.undo.undo(db, now.stored.id, ended.current.version)
    assert isinstance(undone, actions.results.Saved)
    assert not undone.current.standings.over and "ended_early" not in undone.current.stored.state
    assert undone.summary == "Undone: Game ended early after hand 2: Cy wins"
    third = HandRecord("Bob", ("Bob",), {"Ann": 50, "Cy": 50})
    assert isinstance(actions.hands.record(db, now.stored.id, 3, third), actions.results.Saved)


def test_a_tie_is_named_in_the_history(db):
    now = started(db, *LEVEL)
    result = actions.games.end_early(db, now.stored.id, now.version)
    assert result.current.standings.tied == ("Ann", "Bob")
    assert (
        change_notes.words(result.note)
        == "Game ended early after hand 2: a tie between Ann and Bob"
    )


def test_a_game_without_hands_cannot_be_ended(db):
    now = started(db)
    result = actions.games.end_early(db, now.stored.id, now.version)
    assert isinstance(result, actions.results.Refused)
    assert "after its first hand" in result.message
    assert store.games.get_game(db, now.stored.id).version == now.version


def test_a_game_over_already_is_a_conflict(db):
    now = started(db, *TWO_HANDS)
    ended = actions.games.end_early(db, now.stored.id, now.version)
    again = actions.games.end_early(db, now.stored.id, ended.current.version)
    assert isinstance(again, actions.results.Conflict) and "over" in again.message


def test_a_page_that_missed_a_hand_cannot_end_the_game(db):
    now = started(db, TWO_HANDS[0])
    actions.hands.record(
        db, now.stored.id, 2, HandRecord("Cy", ("Cy", "Bob"), {"Ann": 60, "Bob": 5})
    )
    result = actions.games.end_early(db, now.stored.id, now.version)
    assert isinstance(result, actions.results.Conflict)


def test_a_correction_after_the_end_keeps_the_game_ended(db):
    now = started(db, *TWO_HANDS)
    ended = actions.games.end_early(db, now.stored.id, now.version).current
    fixed = HandRecord("Ann", ("Ann", "Cy"), {"Bob": 50, "Cy": 25})
    result = actions.hands.correct(db, now.stored.id, ended.version, 1, fixed)
    assert isinstance(result, actions.results.Saved)
    assert result.current.standings.ended_early and result.current.standings.winner == "Cy"
    assert result.current.standings.player("Cy").score == 25


def test_a_rematch_of_a_game_ended_early_starts_afresh(db):
    now = started(db, *TWO_HANDS)
    actions.games.end_early(db, now.stored.id, now.version)
    rematch = actions.games.rematch(db, now.stored.id)
    assert isinstance(rematch, actions.results.Saved)
    assert not rematch.current.standings.over and not rematch.current.game.ended_early


def test_standings_say_a_game_was_ended_early(capsys, tmp_path):
    game = {
        "players": ["Ann", "Bob"],
        "ended_early": True,
        "hands": [{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50}}],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    status = main(["standings", str(path)])
    out = capsys.readouterr().out
    assert status == 0 and "Ended early after hand 1.\nWinner: Ann" in out
