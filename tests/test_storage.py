"""A full disk, a read-only or damaged games file: clear answers, nothing lost or half-saved."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from games import damaged_file
from webpage import read
from webutil import new_game, record

from scorekeeper import cli, create_app, store
from scorekeeper.reports.file_health import damage


def rows(path) -> list[tuple]:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute("SELECT * FROM games ORDER BY id").fetchall() + (
            conn.execute("SELECT * FROM changes ORDER BY game_id, version").fetchall()
        )


def page_count(app) -> int:
    return (
        store.connection.connect(app.config["DATABASE"]).execute("PRAGMA page_count").fetchone()[0]
    )


def resend(page: str):
    """The refusal's form that sends what was typed again, in one tap (the first it has)."""
    return read(page).forms("form[method=post]")[0]


def test_acknowledged_writes_are_flushed_to_disk_before_the_answer(app):
    db = store.connection.connect(app.config["DATABASE"])
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_full_disk_keeps_what_was_typed_and_saves_nothing_half(app, client):
    url = new_game(client)
    app.config["MAX_DATABASE_BYTES"] = page_count(app) * 4096  # no room for one more page
    path = app.config["DATABASE"]
    app.config["RATE_LIMIT_CREATE"] = "10000 per minute"
    for _ in range(500):  # fill the file to the brim with other games
        if client.post("/api/games", json={"players": ["Ann", "Bob"]}).status_code != 201:
            break
    for number in range(1, 10):
        before = rows(path)
        response = record(client, url, number, 0, {1: 50, 2: 50})
        if response.status_code != 303:
            break
    assert response.status_code == 507
    page = response.get_data(as_text=True)
    assert "storage is full" in page and "Traceback" not in page
    fields = resend(page).hidden
    assert fields["points-1"] == "50" and fields["went_out"] == "0"
    assert rows(path) == before
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    app.config["MAX_DATABASE_BYTES"] = 2 * 1024**3  # room again: one tap sends it again
    again = client.post(resend(page).action, data=fields)
    assert again.status_code == 303
    assert len(rows(path)) > len(before)


def test_the_storage_cap_refuses_new_games_in_json_on_the_api(app, client):
    app.config["RATE_LIMIT_CREATE"] = "10000 per minute"
    client.post("/api/games", json={"players": ["Ann", "Bob"]})
    app.config["MAX_DATABASE_BYTES"] = page_count(app) * 4096
    before = rows(app.config["DATABASE"])
    for _ in range(200):
        response = client.post("/api/games", json={"players": ["Ann" * 10, "Bob" * 10]})
        if response.status_code != 201:
            break
        before = rows(app.config["DATABASE"])
    assert response.status_code == 507
    assert "storage is full" in response.get_json()["error"]
    assert rows(app.config["DATABASE"]) == before


def test_a_read_only_games_file_gives_a_clear_503_and_keeps_the_form(app, client):
    url = new_game(client)
    store.connection.connect(app.config["DATABASE"]).execute("PRAGMA query_only = 1")
    try:
        response = record(client, url, 1, 0, {1: 50, 2: 50})
        assert response.status_code == 503
        page = response.get_data(as_text=True)
        assert "can only show games" in page
        assert resend(page).hidden["points-2"] == "50"
        assert client.get(url).status_code == 200  # reading still works
    finally:
        store.connection.connect(app.config["DATABASE"]).execute("PRAGMA query_only = 0")


def test_a_damaged_file_is_found_by_the_quick_check(tmp_path):
    path = tmp_path / "games.sqlite3"
    assert damage(path) is None  # not created yet
    damaged_file(path)
    assert damage(path)


def test_serve_refuses_a_damaged_file_with_exit_2_and_a_message(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    damaged_file(path)
    before = path.read_bytes()
    assert cli.main(["serve", "--db", str(path), "--port", "0", "--no-qr"]) == 2
    err = capsys.readouterr().err
    assert "is damaged" in err and "restore" in err
    assert path.read_bytes() == before


@pytest.mark.parametrize("code", [sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_BUSY])
def test_a_damaged_or_busy_file_while_serving_is_a_503_not_a_500(tmp_path, code, monkeypatch):
    app = create_app({"DATABASE": str(tmp_path / "g.sqlite3"), "SECRET_KEY": "x"})
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()["id"]

    def broken(*args, **kwargs):
        error = sqlite3.DatabaseError("simulated")
        error.sqlite_errorcode = code
        raise error

    monkeypatch.setattr(store.games, "get_game", broken)
    assert client.get(f"/v/{game_id}").status_code == 503
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 503
    assert response.get_json()["error"]


def test_a_poll_on_a_damaged_file_gets_the_clear_503_too(tmp_path, monkeypatch):
    app = create_app({"DATABASE": str(tmp_path / "g.sqlite3"), "SECRET_KEY": "x"})
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()["id"]

    def broken(*args, **kwargs):
        error = sqlite3.DatabaseError("simulated")
        error.sqlite_errorcode = sqlite3.SQLITE_CORRUPT
        raise error

    monkeypatch.setattr(store.games, "game_link", broken)
    monkeypatch.setattr(store.games, "get_game", broken)
    response = client.get(f"/v/{game_id}", headers={"HX-Request": "true"})
    assert response.status_code == 503
    assert "damaged" in response.get_data(as_text=True)
