"""The one write path: each action's result values, idempotency, and bounded storage."""

from __future__ import annotations

import threading

import pytest

from scorekeeper import actions, store
from scorekeeper.reports import current_game
from scorekeeper.rules.game import HandRecord, Standings
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.replay import replay
from scorekeeper.store import sent_points, tables

PLAYERS = ["Ann", "Bob", "Cy"]
GAME = {"rules": "official", "options": {}, "players": PLAYERS, "dealer": "Ann", "hands": []}


def hand(went_out: str, **points: int) -> HandRecord:
    """``went_out`` made their phase, and so did anyone under 50 points."""
    made = (went_out, *(name for name, total in points.items() if total < 50))
    return HandRecord(went_out, tuple(n for n in PLAYERS if n in made), points)


@pytest.fixture
def db(tmp_path):
    yield store.connection.connect(tmp_path / "games.sqlite3")
    store.connection.close_all()


@pytest.fixture
def game_id(db) -> str:
    result = actions.games.start_game(db, GAME)
    assert isinstance(result, actions.results.Saved)
    return result.current.stored.id


def kept_standings_are_a_full_replay(db, game_id: str) -> Standings:
    stored = store.games.get_game(db, game_id)
    standings = Standings.from_json(stored.standings)
    assert standings == replay(load_game(stored.state))
    return standings


# --- create ------------------------------------------------------------------------------


def test_create_saves_a_game_with_its_standings(db):
    result = actions.games.start_game(db, GAME)
    assert isinstance(result, actions.results.Saved) and result.current.version == 1
    assert result.current.standings.hand_number == 1
    kept_standings_are_a_full_replay(db, result.current.stored.id)


def test_create_refuses_a_game_the_engine_rejects_and_saves_nothing(db):
    result = actions.games.start_game(db, {**GAME, "players": ["Ann"], "dealer": "Ann"})
    assert isinstance(result, actions.results.Refused) and "2-6 players" in result.message
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 0


# --- record ------------------------------------------------------------------------------


def test_record_saves_the_hand_and_its_standings(db, game_id):
    result = actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=20))
    assert isinstance(result, actions.results.Saved) and result.changed
    assert result.summary == "Hand 1: Ann went out; made: Ann, Cy"
    assert result.current.standings.player("Cy").phase == 2
    assert kept_standings_are_a_full_replay(db, game_id) == result.current.standings


def test_record_of_the_same_hand_twice_saves_it_once(db, game_id):
    first = actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=20))
    again = actions.hands.record(db, game_id, 1, hand("Ann", Cy=20, Bob=55))
    assert isinstance(again, actions.results.Saved) and not again.changed
    assert again.current.version == first.current.version == 2
    assert len(store.history.changes(db, game_id)) == 2


def test_record_refuses_a_bad_hand_with_the_engines_problems(db, game_id):
    result = actions.hands.record(db, game_id, 1, hand("Ann", Bob=47, Cy=20))
    assert isinstance(result, actions.results.Refused)
    assert [(p.player, p.field) for p in result.problems] == [("Bob", "points")]
    assert store.games.game_link(db, game_id).version == 1


@pytest.mark.parametrize(
    ("number", "message"),
    [(1, "Hand 1 was already recorded, differently"), (3, "next hand of this game is hand 2")],
)
def test_record_under_a_number_the_game_is_not_at_is_a_conflict(db, game_id, number, message):
    actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=20))
    result = actions.hands.record(db, game_id, number, hand("Bob", Ann=55, Cy=60))
    assert isinstance(result, actions.results.Conflict) and message in result.message
    assert result.current.version == 2 and result.next_hand == 2


def test_record_after_the_game_is_over_is_a_conflict(db):
    game_id = actions.games.start_game(db, {**GAME, "options": {"first": "1"}}).current.stored.id
    assert actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=60)).current.standings.over
    result = actions.hands.record(db, game_id, 2, hand("Bob", Ann=55, Cy=60))
    assert isinstance(result, actions.results.Conflict) and "game is over" in result.message
    assert result.next_hand is None


def test_hands_recorded_one_by_one_are_stored_as_the_whole_game_encoded_at_once(db, game_id):
    """Recording extends the stored text of the game and its kept states; nothing else changes."""
    hands = [hand("Ann", Bob=55, Cy=20), hand("Bob", Ann=5, Cy=65), hand("Cy", Ann=50, Bob=90)]
    for number, played in enumerate(hands, start=1):
        assert isinstance(actions.hands.record(db, game_id, number, played), actions.results.Saved)
        current_game._recent.clear()  # the next hand extends the row as read back from the file
    stored = store.games.get_game(db, game_id)
    assert stored.state_text == store.games.dumps(stored.state)
    assert stored.kept_text == store.games.dumps(stored.kept)
    whole = actions.games.start_game(db, stored.state)
    assert isinstance(whole, actions.results.Saved)
    assert whole.current.stored.state_text == stored.state_text
    assert whole.current.stored.kept_text == stored.kept_text
    kept_standings_are_a_full_replay(db, game_id)


def test_phones_recording_at_once_in_one_process_each_save_their_hands(tmp_path):
    """Writers in one process queue for the write lock; none fails or waits forever."""
    path = tmp_path / "games.sqlite3"
    ids = [
        actions.games.start_game(store.connection.connect(path), GAME).current.stored.id
        for _ in range(6)
    ]
    results: list[actions.results.Result] = []

    def keep_score(game_id: str) -> None:
        db = store.connection.connect(
            path
        )  # this thread's own connection, as each server thread has
        for number, out in enumerate(["Ann", "Bob", "Cy", "Ann"], start=1):
            others = {name: 50 for name in PLAYERS if name != out}
            results.append(actions.hands.record(db, game_id, number, hand(out, **others)))

    threads = [threading.Thread(target=keep_score, args=(game_id,)) for game_id in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(results) == 24 and all(isinstance(r, actions.results.Saved) for r in results)
    db = store.connection.connect(path)
    assert {store.games.get_game(db, game_id).version for game_id in ids} == {5}
    store.connection.close_all()


# --- correct -----------------------------------------------------------------------------


def test_correct_replaces_the_hand_and_says_what_changed(db, game_id):
    actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=15))
    actions.hands.record(db, game_id, 2, hand("Bob", Ann=60, Cy=70))
    result = actions.hands.correct(db, game_id, 3, 1, hand("Ann", Bob=55, Cy=65))
    assert isinstance(result, actions.results.Saved)
    assert result.summary == "Hand 1 corrected: Cy 15 ✓ → 65"
    assert store.history.changes(db, game_id)[0].summary == result.summary
    assert kept_standings_are_a_full_replay(db, game_id).player("Cy").score == 135


def test_correct_refuses_a_hand_the_engine_rejects(db, game_id):
    actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=15))
    result = actions.hands.correct(db, game_id, 2, 1, hand("Ann", Bob=52, Cy=15))
    assert isinstance(result, actions.results.Refused) and result.problems[0].player == "Bob"


def test_correct_refuses_when_a_later_hand_no_longer_fits(db):
    game_id = actions.games.start_game(db, {**GAME, "options": {"first": "2"}}).current.stored.id
    actions.hands.record(db, game_id, 1, hand("Bob", Ann=55, Cy=60))
    actions.hands.record(db, game_id, 2, hand("Ann", Bob=55, Cy=60))
    actions.hands.record(db, game_id, 3, hand("Ann", Bob=55, Cy=60))  # Ann wins
    result = actions.hands.correct(db, game_id, 4, 1, hand("Ann", Bob=55, Cy=60))
    assert isinstance(result, actions.results.Refused)
    assert result.message.startswith("With this change, hand 3 no longer fits: the game is over")
    assert result.rule is not None and result.rule.anchor == "end-of-game"
    assert result.problems == ()  # hand 3's problems are not the corrected hand's fields
    assert store.games.game_link(db, game_id).version == 4


def test_delete_refuses_when_a_later_hand_no_longer_fits_naming_it_as_the_page_does(db):
    game = {**GAME, "players": ["Ann", "Bob"], "options": {"first": "2"}}
    game_id = actions.games.start_game(db, game).current.stored.id
    actions.hands.record(db, game_id, 1, HandRecord("Ann", ("Ann", "Bob"), {"Bob": 20}))
    actions.hands.record(db, game_id, 2, HandRecord("Bob", ("Ann", "Bob"), {"Ann": 20}))  # a tie
    actions.hands.record(db, game_id, 3, HandRecord("Ann", ("Ann",), tiebreak=True))
    result = actions.hands.delete(db, game_id, 4, 1)  # without hand 1 there is no tie to break
    assert isinstance(result, actions.results.Refused)
    assert result.message == (
        "Hand 1 cannot be deleted: without it, hand 3 no longer fits: "
        "no tiebreak is due: this is a normal hand"
    )
    assert result.rule is not None and result.rule.anchor == "ties"
    assert store.games.game_link(db, game_id).version == 4


def test_correct_from_a_stale_page_is_a_conflict(db, game_id):
    actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=15))
    actions.hands.record(db, game_id, 2, hand("Bob", Ann=60, Cy=70))
    result = actions.hands.correct(db, game_id, 2, 1, hand("Ann", Bob=55, Cy=65))
    assert isinstance(result, actions.results.Conflict) and result.current.version == 3


# --- delete ------------------------------------------------------------------------------


def test_delete_removes_the_hand_and_keeps_it_in_the_history(db, game_id):
    actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=60))
    actions.hands.record(db, game_id, 2, hand("Bob", Ann=60, Cy=70))
    result = actions.hands.delete(db, game_id, 3, 1)
    assert (
        isinstance(result, actions.results.Saved)
        and result.summary == "Hand 1 deleted (Ann had gone out)"
    )
    assert [h.went_out for h in result.current.game.hands] == ["Bob"]
    assert store.history.state_at(db, game_id, 3)["hands"][0]["went_out"] == "Ann"
    kept_standings_are_a_full_replay(db, game_id)


def test_delete_refuses_when_a_later_hand_no_longer_fits(db):
    game_id = actions.games.start_game(db, {**GAME, "options": {"first": "1"}}).current.stored.id
    actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=60))  # Ann wins
    result = actions.hands.delete(db, game_id, 2, 1)
    assert isinstance(result, actions.results.Saved)  # nothing after it: the game reopens
    assert not result.current.standings.over


def test_delete_of_a_missing_hand_is_refused_and_a_stale_one_conflicts(db, game_id):
    assert isinstance(actions.hands.delete(db, game_id, 1, 1), actions.results.Refused)
    actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=60))
    assert isinstance(actions.hands.delete(db, game_id, 1, 1), actions.results.Conflict)


# --- undo and restore --------------------------------------------------------------------


def test_undo_takes_back_the_last_change_then_the_one_before(db, game_id):
    actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=60))
    actions.hands.record(db, game_id, 2, hand("Bob", Ann=60, Cy=70))
    first = actions.undo.undo(db, game_id, 3)
    assert isinstance(first, actions.results.Saved)
    assert first.summary == "Undone: Hand 2: Bob went out; made: Bob"
    assert len(first.current.game.hands) == 1
    second = actions.undo.undo(db, game_id, 4)
    assert second.summary == "Undone: Hand 1: Ann went out; made: Ann"
    assert second.current.game.hands == ()
    nothing = actions.undo.undo(db, game_id, 5)
    assert (
        isinstance(nothing, actions.results.Refused) and nothing.message == "Nothing to undo yet."
    )
    kept_standings_are_a_full_replay(db, game_id)


def test_undo_from_a_stale_page_is_a_conflict(db, game_id):
    actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=60))
    result = actions.undo.undo(db, game_id, 1)
    assert (
        isinstance(result, actions.results.Conflict)
        and store.games.game_link(db, game_id).version == 2
    )


def test_restore_brings_back_a_version_and_can_itself_be_undone(db, game_id):
    actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=60))
    actions.hands.record(db, game_id, 2, hand("Bob", Ann=60, Cy=70))
    result = actions.undo.restore(db, game_id, 3, 1)
    assert isinstance(result, actions.results.Saved) and result.current.game.hands == ()
    assert result.summary == "Restored the game as it was after change 1"
    undone = actions.undo.undo(db, game_id, 4)
    assert len(undone.current.game.hands) == 2
    kept_standings_are_a_full_replay(db, game_id)


def test_restore_of_an_unknown_version_is_refused_and_a_stale_one_conflicts(db, game_id):
    assert isinstance(actions.undo.restore(db, game_id, 1, 7), actions.results.Refused)
    actions.hands.record(db, game_id, 1, hand("Ann", Bob=55, Cy=60))
    assert isinstance(actions.undo.restore(db, game_id, 1, 1), actions.results.Conflict)


# --- what a game costs to keep -----------------------------------------------------------

SIX = ["Grandma", "Theo", "Aunt Ruth", "Sam", "Priya", "Uncle Bo"]


def _stored_bytes(db) -> int:
    db.execute("VACUUM")
    return (
        db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]
    )


def test_stored_bytes_per_recorded_hand_stay_under_a_kilobyte(db):
    """Six players, Phase 10 + 10 (long games): each hand adds its change, not a game copy."""
    game_id = actions.games.start_game(
        db, {"rules": "plus10", "players": SIX, "dealer": "Theo", "hands": []}
    ).current.stored.id
    sizes = {}
    for number in range(1, 111):
        out = SIX[(number - 1) % 6]
        points = {name: 50 + 5 * (number % 7) for name in SIX if name != out}
        result = actions.hands.record(db, game_id, number, HandRecord(out, (out,), points))
        assert isinstance(result, actions.results.Saved), result
        if number in (10, 60, 110):
            sizes[number] = _stored_bytes(db)
    assert (sizes[110] - sizes[10]) / 100 <= 1024
    assert (sizes[110] - sizes[60]) / 50 <= 1024  # and it does not grow with the game


def test_changes_replay_only_from_the_hand_they_touch(db, game_id, monkeypatch):
    """Recording plays one hand; a correction to hand k, and its undo, replay from k."""

    def nth(number: int, others: int = 55) -> HandRecord:
        out = PLAYERS[(number - 1) % 3]
        return hand(out, **{name: others for name in PLAYERS if name != out})

    for number in range(1, 7):
        actions.hands.record(db, game_id, number, nth(number))
    replayed: list[int] = []
    real = actions.saving.replay_from

    def spy(game, kept=()):
        replayed.append(len(game.hands) - len(kept))
        return real(game, kept)

    for module in (actions.saving, actions.undo):
        monkeypatch.setattr(module, "replay_from", spy)
    assert isinstance(
        actions.hands.correct(db, game_id, 7, 5, nth(5, others=65)), actions.results.Saved
    )
    assert isinstance(actions.undo.undo(db, game_id, 8), actions.results.Saved)
    assert isinstance(actions.hands.record(db, game_id, 7, nth(7)), actions.results.Saved)
    assert replayed == [2, 2, 1]
    kept_standings_are_a_full_replay(db, game_id)


def test_only_the_latest_version_of_each_game_stays_read(db, game_id):
    """Old versions' kept states would only weigh on memory and the garbage collector."""
    for number in range(1, 6):
        result = actions.hands.record(db, game_id, number, hand("Ann", Bob=55, Cy=60))
        assert isinstance(result, actions.results.Saved)
    other = actions.games.start_game(db, GAME).current.stored.id
    assert [key for key in current_game._recent if key in (game_id, other)] == [game_id, other]
    assert current_game._recent[game_id].version == 6
    older = actions.undo.undo(db, game_id, 6)
    assert isinstance(older, actions.results.Saved)
    assert current_game.load(db, game_id).standings.hand_number == 5
    assert current_game._recent[game_id].version == 7


# --- players' own points -------------------------------------------------------------


def test_a_players_points_wait_for_the_scorekeeper_and_the_latest_counts(db, game_id):
    actions.points.send_points(db, game_id, 1, 1, 60, made=False, went_out=False)
    sent = actions.points.send_points(db, game_id, 1, 1, 25, made=False, went_out=False)
    assert isinstance(sent, sent_points.Entry) and not sent.made  # as the player ticked it
    assert sent_points.entries(db, game_id, 1)[1].points == 25
    assert current_game.load(db, game_id).version == 1  # the game itself is untouched


def test_points_are_refused_for_a_hand_already_saved_or_no_card_can_leave(db, game_id):
    actions.hands.record(db, game_id, 1, hand("Ann", Bob=50, Cy=60))
    stale = actions.points.send_points(db, game_id, 1, 1, 25, made=False, went_out=False)
    assert isinstance(stale, actions.results.Conflict) and "already saved" in stale.message
    odd = actions.points.send_points(db, game_id, 1, 2, 7, made=False, went_out=False)
    assert isinstance(odd, actions.results.Refused) and "not a multiple of 5" in odd.message
    assert sent_points.entries(db, game_id, 2) == {}


# --- tables and links ------------------------------------------------------------------


def test_table_changes_answer_with_values_and_change_nothing_when_refused(db, game_id):
    assert isinstance(actions.tables.create_table(db, "\u0007"), actions.results.Refused)
    table = actions.tables.create_table(db, "The Smiths")
    assert isinstance(table, tables.Table)
    assert isinstance(actions.moving.move_game(db, game_id, table.id, None), actions.results.Saved)
    assert [p.name for p in tables.roster(db, table.id)] == PLAYERS
    assert actions.tables.rename_player(db, table.id, "Cy", "Cyril") == ()
    assert isinstance(
        actions.tables.rename_player(db, table.id, "Ann", "Bob"), actions.results.Refused
    )
    assert isinstance(
        actions.tables.merge_players(db, table.id, "Ann", "Ann"), actions.results.Refused
    )
    assert actions.tables.retire_player(db, table.id, "Bob", True) is None
    assert isinstance(
        actions.tables.retire_player(db, table.id, "Nobody", True), actions.results.Refused
    )
    assert [(p.name, p.retired) for p in tables.roster(db, table.id)] == [
        ("Ann", False),
        ("Bob", True),
        ("Cyril", False),
    ]
    assert isinstance(
        actions.moving.move_game(db, "no-such-game", table.id, None), actions.results.Refused
    )


def test_a_link_renewed_twice_from_the_same_old_one_is_renewed_once(db, game_id):
    old = store.games.get_game(db, game_id).edit_key
    assert actions.links.renew_edit_link(db, game_id, old) is not None
    assert actions.links.renew_edit_link(db, game_id, old) is None
