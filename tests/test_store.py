"""Storage: every change is a version; racing writers cannot both win."""

import json
import sqlite3
import threading

import pytest

from scorekeeper import codes, store

STATE = {
    "rules": "official",
    "options": {},
    "players": ["Ann", "Bob"],
    "dealer": "Ann",
    "hands": [],
}


@pytest.fixture
def db(tmp_path):
    yield store.connection.connect(tmp_path / "games.sqlite3")
    store.connection.close_all()


def test_a_new_game_has_unguessable_links(db):
    game = store.games.create_game(db, STATE)
    assert len(game.id) >= 22 and len(game.edit_key) >= 22 and game.id != game.edit_key
    assert store.games.get_game(db, game.id).state == STATE
    assert store.games.edit_key_matches(game, game.edit_key)
    assert not store.games.edit_key_matches(game, game.edit_key[:-1] + "x")


def test_every_change_is_kept_in_the_history(db):
    game = store.games.create_game(db, STATE)
    store.games.save_change(
        db, game.id, 1, {**STATE, "dealer": "Bob"}, action="edit", summary="one"
    )
    history = store.history.changes(db, game.id)
    assert [(c.version, c.action) for c in history] == [(2, "edit"), (1, "create")]
    assert store.history.state_at(db, game.id, 1) == STATE
    assert store.history.state_at(db, game.id, 2) == {**STATE, "dealer": "Bob"}
    assert store.history.get_change(db, game.id, 1).action == "create"
    assert store.history.get_change(db, game.id, 9) is None
    assert store.history.state_at(db, game.id, 9) is None


HAND = {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 55}}


def test_a_change_is_logged_as_itself_and_any_version_rebuilds(db):
    game = store.games.create_game(db, STATE)
    one = {**STATE, "hands": [HAND]}
    two = {**STATE, "hands": [HAND, {**HAND, "went_out": "Bob", "points": {"Ann": 60}}]}
    fixed = {**STATE, "hands": [{**HAND, "points": {"Bob": 65}}, two["hands"][1]]}
    store.games.save_change(
        db, game.id, 1, one, action="record", summary="1", detail={"hand": HAND}
    )
    store.games.save_change(
        db, game.id, 2, two, action="record", summary="2", detail={"hand": two["hands"][1]}
    )
    store.games.save_change(
        db,
        game.id,
        3,
        fixed,
        action="edit",
        summary="3",
        detail={"number": 1, "hand": fixed["hands"][0]},
    )
    store.games.save_change(
        db, game.id, 4, two, action="undo", summary="4", detail={"to": 3}, undo_to=2
    )
    store.games.save_change(
        db,
        game.id,
        5,
        {**two, "hands": two["hands"][1:]},
        action="delete",
        summary="5",
        detail={"number": 1},
    )
    logged = [
        json.loads(text)
        for (text,) in db.execute(
            "SELECT detail FROM changes WHERE game_id = ? ORDER BY version", [game.id]
        )
    ]
    assert logged[1:] == [
        {"hand": HAND},
        {"hand": two["hands"][1]},
        {"number": 1, "hand": fixed["hands"][0]},
        {"to": 3},
        {"number": 1},
    ]
    states = [STATE, one, two, fixed, two, {**two, "hands": two["hands"][1:]}]
    for version, state in enumerate(states, start=1):
        assert store.history.state_at(db, game.id, version) == state
    assert [c.hands for c in store.history.changes(db, game.id)] == [1, 2, 2, 2, 1, 0]


def test_undo_steps_back_through_changes_not_yet_undone(db):
    game = store.games.create_game(db, STATE)
    one = {**STATE, "hands": [HAND]}
    store.games.save_change(
        db, game.id, 1, one, action="record", summary="hand 1", detail={"hand": HAND}
    )
    undone, target = store.history.undo_step(db, game.id)
    assert (undone.summary, target) == ("hand 1", 1)
    store.games.save_change(
        db, game.id, 2, STATE, action="undo", summary="u", detail={"to": 1}, undo_to=None
    )
    assert store.history.undo_step(db, game.id) is None


def test_a_stale_writer_is_told_of_the_conflict_and_nothing_changes(db):
    game = store.games.create_game(db, STATE)
    store.games.save_change(db, game.id, 1, {**STATE, "dealer": "Bob"}, action="edit", summary="a")
    with pytest.raises(store.games.Conflict):
        store.games.save_change(db, game.id, 1, {**STATE, "hands": [1]}, action="edit", summary="b")
    assert store.games.get_game(db, game.id).state["dealer"] == "Bob"
    assert len(store.history.changes(db, game.id)) == 2


def test_threads_racing_on_one_version_record_exactly_once(tmp_path):
    path = tmp_path / "race.sqlite3"
    game = store.games.create_game(store.connection.connect(path), STATE)
    results: list[str] = []
    start = threading.Barrier(6)

    def writer(n: int) -> None:
        db = store.connection.connect(path)  # each thread has its own connection
        start.wait()
        try:
            store.games.save_change(
                db, game.id, 1, {**STATE, "dealer": f"w{n}"}, action="r", summary=str(n)
            )
            results.append("saved")
        except store.games.Conflict:
            results.append("conflict")

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict"] * 5 + ["saved"]
    assert len(store.history.changes(store.connection.connect(path), game.id)) == 2


def test_migrations_are_safe_to_run_again(tmp_path):
    path = tmp_path / "again.sqlite3"
    store.games.create_game(store.connection.connect(path), STATE)
    raw = sqlite3.connect(path)
    store.connection.migrate(store.connection.Database(raw))
    assert raw.execute("select count(*) from games").fetchone()[0] == 1
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_new_game_gets_a_short_code_no_other_game_has(db, monkeypatch):
    first = store.games.create_game(db, STATE)
    assert codes.normalise(codes.grouped(first.code)) == first.code
    made = iter([first.code, first.code, "ABCD0EFGH1JKMNPQ"])  # two collisions, then a free one
    monkeypatch.setattr(codes, "new_code", lambda shard="": next(made))
    second = store.games.create_game(db, STATE)
    assert second.code == "ABCD0EFGH1JKMNPQ"
    assert store.games.game_by_code(db, second.code) == second.id


def test_games_with_the_first_12_character_codes_get_codes_of_16(tmp_path):
    path = tmp_path / "old.sqlite3"
    game = store.games.create_game(store.connection.connect(path), STATE)
    raw = sqlite3.connect(path)
    with raw:  # as the first store/schema.py left it: a 60-bit code, the step not yet applied
        raw.execute("UPDATE games SET code = 'ABCDEFGHJKMN'")
        raw.execute("DELETE FROM _sqlite_migrations WHERE name = 'codes-of-16'")
    store.connection.migrate(store.connection.Database(raw))
    (code,) = raw.execute("SELECT code FROM games WHERE id = ?", [game.id]).fetchone()
    assert len(code) == codes.LENGTH and codes.normalise(code) == code
    assert store.games.game_by_code(store.connection.Database(raw), "ABCDEFGHJKMN") is None
