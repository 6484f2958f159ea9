"""The app's secret key: made for its owner only, repaired at start-up when it is empty,
and a clear refusal at start-up when it cannot be read (issue 32: never a 500 later)."""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
import stat

import pytest
from webutil import csrf

from scorekeeper import cli, create_app, store
from scorekeeper.store import secret


@pytest.fixture
def data(tmp_path, monkeypatch):
    """An empty data folder the app makes on its first start, as `serve` uses it."""
    folder = tmp_path / "data"
    monkeypatch.setenv("SCOREKEEPER_DATA", str(folder))
    yield folder
    store.connection.close_all()


def start(**config):
    return create_app({"TESTING": True, "SERVER_NAME": "table.test", **config})


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def pages_answer(app) -> None:
    """The pages that answered 500 with an empty key: the start page, a new game, a table."""
    client = app.test_client()
    for page in ("/", "/new", "/tables/new"):
        assert client.get(page).status_code == 200, page
    form = {"csrf_token": csrf(client), "name": "The Smiths"}
    assert client.post("/tables/new", data=form).status_code == 303


def test_a_first_start_makes_a_key_only_its_owner_can_read(data):
    app = start()
    key = data / "secret_key"
    assert app.config["SECRET_KEY"] == key.read_text() and len(key.read_text()) == 64
    assert mode(key) == 0o600
    assert mode(data) == 0o700
    assert [path.name for path in data.iterdir() if path.name.startswith(".")] == []
    assert start().config["SECRET_KEY"] == app.config["SECRET_KEY"]  # kept across restarts


@pytest.mark.parametrize("found", [b"", b"\n  \n", b"\xff\xfe\x00garbage"])
def test_an_empty_key_is_replaced_at_start_up_with_a_warning(data, caplog, found):
    data.mkdir()
    (data / "secret_key").write_bytes(found)
    with caplog.at_level(logging.WARNING):
        app = start()
    assert len(app.config["SECRET_KEY"]) == 64
    assert (data / "secret_key").read_text() == app.config["SECRET_KEY"]
    assert "each phone's start page starts empty" in caplog.text
    pages_answer(app)


def test_a_key_the_operator_wrote_is_kept_as_it_is(data, caplog):
    data.mkdir()
    (data / "secret_key").write_text("our own long secret\n")
    with caplog.at_level(logging.WARNING):
        assert start().config["SECRET_KEY"] == "our own long secret"
    assert caplog.text == ""


def test_a_key_that_cannot_be_read_stops_serve_with_a_message(data, capsys):
    (data / "secret_key").mkdir(parents=True)  # unreadable as a key, even for root
    with pytest.raises(secret.SecretKeyError, match="cannot read the secret key"):
        start()
    assert cli.main(["serve", "--port", "5999"]) == 2
    assert "cannot read the secret key" in capsys.readouterr().err


def test_a_full_disk_leaves_no_key_behind_and_the_next_start_makes_one(data, monkeypatch):
    def full(handle, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as patched:
        patched.setattr(secret.os, "write", full)
        with pytest.raises(secret.SecretKeyError, match="No space left on device"):
            start()
    assert list(data.iterdir()) == []  # neither an empty key nor a draft of one
    pages_answer(start())  # once space is freed


def test_a_new_games_file_is_made_for_its_owner_only(data):
    """Issue 32: the database was created 0644 (and its write-ahead log with it)."""
    app = start()
    games = data / "scorekeeper.sqlite3"
    assert app.config["DATABASE"] == str(games)
    app.test_client().post("/api/games", json={"players": ["Ann", "Bob"]})
    for path in (games, data / "scorekeeper.sqlite3-wal"):
        assert mode(path) == 0o600, path


def test_an_existing_games_file_keeps_its_mode(data):
    data.mkdir()
    start().test_client()  # made once
    games = data / "scorekeeper.sqlite3"
    games.chmod(0o640)  # the operator's choice, e.g. for a backup group
    start()
    assert mode(games) == 0o640


def test_a_games_file_that_could_not_be_set_up_is_not_left_empty(data, monkeypatch):
    def full(path):
        raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as patched:
        patched.setattr(store.connection, "connect", full)
        with pytest.raises(sqlite3.OperationalError):
            start()
    assert not (data / "scorekeeper.sqlite3").exists()  # else the next start refuses it
    pages_answer(start())
