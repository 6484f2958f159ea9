"""What a device remembers lasts while it is used: a year from the last time it opened a game.

The cookies here are signed with the app's own serializer at a chosen moment, as a
phone would have kept them since then; the server reads them with its own clock.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

import pytest
from flask import session
from webutil import plain_names

from scorekeeper import actions, store
from scorekeeper.web import device

DAY = 24 * 60 * 60
GAME = {"players": ["Ann", "Bob", "Cy"], "dealer": "Ann", "hands": []}


def _signer(app):
    serializer = app.session_interface.get_signing_serializer(app)
    return serializer, serializer.make_signer(app.session_interface.salt)


def signed_cookie(app, data: dict, days_ago: float) -> str:
    """The session cookie the app would have set ``days_ago`` days ago, holding ``data``."""
    serializer, signer = _signer(app)
    signer.get_timestamp = lambda: int(time.time() - days_ago * DAY)
    return signer.sign(serializer.dump_payload(data)).decode()


def signed_days_ago(app, cookie: str) -> float:
    _, signer = _signer(app)
    _, when = signer.unsign(cookie, return_timestamp=True)
    return (datetime.now(UTC) - when).total_seconds() / DAY


def started(app) -> store.games.StoredGame:
    return actions.games.start_game(
        store.connection.connect(app.config["DATABASE"]), dict(GAME)
    ).current.stored


def phone_with(app, client, stored: store.games.StoredGame, days_ago: float):
    """A phone that kept score of ``stored``, its cookie last signed ``days_ago`` days ago."""
    memory = {device.KEY: {"g": f"{stored.id}.{stored.edit_key}", "t": ""}, "csrf_token": "t"}
    client.set_cookie("session", signed_cookie(app, memory, days_ago), domain="table.test")
    return client


def session_cookie(response) -> str | None:
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith("session="):
            return header
    return None


@pytest.mark.parametrize("days_ago", [30, 32, 200, 364])
def test_a_device_keeps_its_games_while_it_is_used_within_a_year(app, client, days_ago):
    """Issue 24: signed 32 days ago, the device had forgotten its games (31 days)."""
    stored = started(app)
    phone = phone_with(app, client, stored, days_ago)
    home = phone.get("/")
    assert "Continue: Ann, Bob, Cy, hand 1" in plain_names(home.get_data(as_text=True))
    assert session_cookie(home) is None  # looking at the list re-signs nothing


def test_a_cookie_signed_32_days_ago_and_used_last_week_is_signed_afresh_when_a_game_opens(
    app, client
):
    stored = started(app)
    phone = phone_with(app, client, stored, days_ago=32)
    assert session_cookie(phone.get("/")) is None  # last week: the list, nothing re-signed
    opened = phone.get(f"/g/{stored.id}/{stored.edit_key}")
    assert opened.status_code == 200
    cookie = session_cookie(opened)
    assert cookie is not None, "opening a remembered game signs the memory afresh"
    value = cookie.split(";", 1)[0].split("=", 1)[1]
    assert signed_days_ago(app, value) < 1
    expires = parsedate_to_datetime(cookie.split("Expires=", 1)[1].split(";", 1)[0])
    assert expires - datetime.now(UTC) > timedelta(days=364)  # a year from now, not a session
    assert "Continue: Ann, Bob, Cy" in plain_names(phone.get("/").get_data(as_text=True))


def test_a_memory_not_used_for_more_than_a_year_is_forgotten(app, client):
    stored = started(app)
    phone = phone_with(app, client, stored, days_ago=366)
    assert "Continue:" not in phone.get("/").get_data(as_text=True)


def _memory_in(app, response) -> str:
    """The games word of the session cookie a response set, as anyone holding it reads it."""
    cookie = session_cookie(response)
    assert cookie is not None
    value = cookie.split(";", 1)[0].split("=", 1)[1]
    serializer, signer = _signer(app)
    return serializer.load_payload(signer.unsign(value))[device.KEY]["g"]


def test_the_cookie_keeps_no_edit_key_anyone_can_read(app, client):
    """Issue 32: the signed cookie carried each game's edit key in readable base64."""
    stored = started(app)
    opened = client.get(f"/g/{stored.id}/{stored.edit_key}")
    assert opened.status_code == 200
    words = _memory_in(app, opened)
    assert stored.id in words and stored.edit_key not in words
    assert "Continue: Ann, Bob, Cy, hand 1" in plain_names(client.get("/").get_data(as_text=True))


def test_a_cookie_from_before_sealing_still_opens_its_games_and_is_sealed_when_written(app, client):
    stored, other = started(app), started(app)
    phone = phone_with(app, client, stored, days_ago=3)  # "id.key", as cookies were
    assert "Continue: Ann, Bob, Cy, hand 1" in plain_names(phone.get("/").get_data(as_text=True))
    opened = phone.get(f"/g/{other.id}/{other.edit_key}")
    words = _memory_in(app, opened)
    assert stored.edit_key not in words and other.edit_key not in words
    assert dict(_games_of(app, phone)) == {other.id: other.edit_key, stored.id: stored.edit_key}


def test_a_seal_made_with_another_secret_opens_nothing(app, client):
    stored = started(app)
    secret, app.secret_key = app.secret_key, "replaced"
    with app.test_request_context():
        word = f"{stored.id}~{device._seal(stored.id, stored.edit_key)}"
    app.secret_key = secret
    memory = {device.KEY: {"g": word, "t": ""}, "csrf_token": "t"}
    client.set_cookie("session", signed_cookie(app, memory, 0), domain="table.test")
    assert _games_of(app, client) == [(stored.id, None)]  # shown as watched, never a key


def _games_of(app, client) -> list[tuple[str, str | None]]:
    """What the device's cookie gives the server: (game id, edit key or None)."""
    with app.test_request_context():
        cookie = client.get_cookie("session", domain="table.test")
        session.update(app.session_interface.get_signing_serializer(app).loads(cookie.value))
        return device.games()
