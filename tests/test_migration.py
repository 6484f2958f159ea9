"""A database written by an older version of the app opens with every game intact."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from scorekeeper import store
from scorekeeper.rules.game import Standings
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.replay import replay

FIXTURE = Path(__file__).parent / "fixtures" / "schema-v1.sqlite3"


def _as_written(path: Path) -> dict[str, dict]:
    """Every game and version exactly as the schema-1 app stored them."""
    raw = sqlite3.connect(path)
    raw.row_factory = sqlite3.Row
    try:
        games = {row["id"]: dict(row) for row in raw.execute("SELECT * FROM games")}
        for game in games.values():
            game["state"] = json.loads(game["state"])
            game["changes"] = [
                {**dict(row), "state": json.loads(row["state"])}
                for row in raw.execute(
                    "SELECT * FROM changes WHERE game_id = ? ORDER BY version", [game["id"]]
                )
            ]
    finally:
        raw.close()
    return games


@pytest.fixture
def old_db(tmp_path) -> Path:
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURE, path)
    yield path
    store.close_all()


def test_the_fixture_holds_several_variants_with_undo_restore_and_corrections():
    games = _as_written(FIXTURE)
    actions = {c["action"] for g in games.values() for c in g["changes"]}
    assert {"create", "import", "api-create", "record", "edit", "delete", "undo"} <= actions
    assert "restore" in actions
    assert len({g["state"]["rules"] for g in games.values()}) >= 3


def test_every_game_and_every_version_is_intact_after_opening(old_db):
    expected = _as_written(old_db)
    db = store.connect(old_db)
    for game_id, old in expected.items():
        stored = store.get_game(db, game_id)
        assert stored is not None
        assert (stored.edit_key, stored.version, stored.created, stored.updated) == (
            old["edit_key"],
            old["version"],
            old["created"],
            old["updated"],
        )
        assert stored.state == old["state"]
        history = store.changes(db, game_id)
        assert [(c.version, c.at, c.action, c.summary) for c in reversed(history)] == [
            (c["version"], c["at"], c["action"], c["summary"]) for c in old["changes"]
        ]
        for change in old["changes"]:
            assert store.state_at(db, game_id, change["version"]) == change["state"]


def test_opened_games_have_kept_standings_and_log_changes_not_copies(old_db):
    db = store.connect(old_db)
    for stored in map(lambda r: store.get_game(db, r[0]), db.execute("SELECT id FROM games")):
        assert Standings.from_json(stored.standings) == replay(load_game(stored.state))
        details = [
            json.loads(text)
            for (text,) in db.execute(
                "SELECT detail FROM changes WHERE game_id = ? AND version > 1", [stored.id]
            )
        ]
        assert all("game" not in detail for detail in details)
    assert "state" not in db["changes"].columns_dict


def test_undo_after_opening_steps_back_as_before(old_db):
    expected = _as_written(old_db)
    db = store.connect(old_db)
    # Dee and Eli's game: hand 2 deleted, then undone twice (the deletion, then hand 4)
    game_id = next(i for i, g in expected.items() if g["state"]["players"] == ["Dee", "Eli"])
    undone, target = store.undo_step(db, game_id)
    assert (undone.summary, target) == ("Hand 3: Eli went out; made: Eli", 3)
    assert store.state_at(db, game_id, target)["hands"] == expected[game_id]["state"]["hands"][:2]


def test_opening_again_changes_nothing(old_db):
    db = store.connect(old_db)
    before = db.execute("SELECT * FROM changes ORDER BY game_id, version").fetchall()
    store.close_all()
    again = store.connect(old_db)
    assert again.execute("SELECT * FROM changes ORDER BY game_id, version").fetchall() == before
