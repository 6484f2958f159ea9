"""Backup: every game exported and imported into an empty database stands exactly the same.

Games are generated the way tests/test_game.py does (dealt from a shuffled
deck, played to the end), recorded partly at creation and partly hand by hand
through the API, exported as game files, imported through the import form into
a second, empty database, and compared standing by standing.
"""

from __future__ import annotations

import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

import pytest
from games import played_games
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webutil import csrf

from scorekeeper import create_app, store


def make_app(folder: Path, name: str):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / f"{name}.sqlite3"),
            "SECRET_KEY": "backup",
            "SERVER_NAME": "table.test",
        }
    )


def local(url: str) -> str:
    return url.removeprefix("http://table.test")


def record_game(client, data: dict, upfront: int) -> dict:
    """Create the game with its first hands, then send the rest one by one."""
    created = client.post("/api/games", json={**data, "hands": data["hands"][:upfront]})
    assert created.status_code == 201, created.get_json()
    created = created.get_json()
    for number, hand in enumerate(data["hands"][upfront:], start=upfront + 1):
        response = client.post(
            local(created["hands_url"]), json={"hand_number": number, "hand": hand}
        )
        assert response.status_code == 201, response.get_json()
    return created


def standings(client, game_id: str) -> dict:
    body = client.get(f"/api/games/{game_id}").get_json()
    return {"standings": body["standings"], "game": body["game"]}


def export_all(app, client) -> list[tuple[str, dict]]:
    """(game id, game file) for every game in the database, via each game's export."""
    db = store.connection.connect(app.config["DATABASE"])
    rows = db.execute("SELECT id, edit_key FROM games ORDER BY created, id").fetchall()
    files = []
    for game_id, key in rows:
        response = client.get(f"/g/{game_id}/{key}/export.json")
        assert response.status_code == 200
        files.append((game_id, response.get_data(as_text=True)))
    return files


def import_all(client, files) -> dict[str, str]:
    """Old id -> new id."""
    token = csrf(client)
    moved = {}
    for old_id, text in files:
        response = client.post("/import", data={"csrf_token": token, "text": text})
        assert response.status_code == 303, response.get_data(as_text=True)
        moved[old_id] = response.headers["Location"].rstrip("/").split("/")[-2]
    return moved


@pytest.mark.exhaustive
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(games=st.lists(played_games(), min_size=1, max_size=3), data=st.data())
def test_every_game_exported_and_imported_into_an_empty_database_stands_the_same(games, data):
    with tempfile.TemporaryDirectory() as folder:
        source, target = make_app(Path(folder), "source"), make_app(Path(folder), "target")
        a, b = source.test_client(), target.test_client()
        for game in games:
            game_data = game[0]
            upfront = data.draw(st.integers(0, len(game_data["hands"])), label="upfront")
            record_game(a, game_data, upfront)
        files = export_all(source, a)
        assert len(files) == len(games)
        moved = import_all(b, files)
        for old_id, new_id in moved.items():
            assert standings(b, new_id) == standings(a, old_id)
        assert len(export_all(target, b)) == len(games)


def test_a_copy_taken_with_sqlites_backup_while_games_are_open_is_whole(tmp_path):
    """The WAL database copied live (sqlite3 backup API) opens with every game intact."""
    source = make_app(tmp_path, "live")
    client = source.test_client()
    created = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    hand = {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 60}}
    client.post(local(created["hands_url"]), json={"hand_number": 1, "hand": hand})
    before = standings(client, created["id"])
    copy = tmp_path / "copy.sqlite3"
    with closing(sqlite3.connect(source.config["DATABASE"])) as live:
        with closing(sqlite3.connect(copy)) as out:
            live.backup(out)
    with closing(sqlite3.connect(copy)) as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    restored = create_app(
        {"TESTING": True, "DATABASE": str(copy), "SECRET_KEY": "x", "SERVER_NAME": "table.test"}
    )
    assert standings(restored.test_client(), created["id"]) == before
