"""A page's live part: held until its game changes, answered at once when it does."""

from __future__ import annotations

import threading

import pytest
from webpage import read
from webutil import csrf, new_game, player_links, record, watch_path

HX = {"HX-Request": "true"}


def shown(client, path: str) -> dict[str, str]:
    """What the page at ``path`` sends with its poll: htmx's header and what it shows."""
    return {**HX, **read(client.get(path).get_data(as_text=True)).live()}


def polling(app, path: str, headers: dict[str, str]):
    """Start a poll on its own phone (a thread); ``join()`` gives its answer."""
    answers = []
    phone = app.test_client()
    thread = threading.Thread(target=lambda: answers.append(phone.get(path, headers=headers)))
    thread.start()

    def join():
        thread.join(timeout=30)
        assert not thread.is_alive(), "the held poll did not answer"
        return answers[0]

    return join


@pytest.fixture
def holding(app):
    app.config["POLL_HOLD"] = 60  # far longer than any test waits: only a change answers
    return app


def test_a_held_poll_answers_as_soon_as_another_phone_records_a_hand(holding, client):
    url = new_game(client)
    game_id = url.split("/")[2]
    for path in (f"/v/{game_id}", url):
        join = polling(holding, path, shown(client, path))
        number = 1 if path != url else 2
        record(client, url, number, went_out=0, points={1: 50, 2: 20})
        answer = join()
        assert answer.status_code == 200
        assert f"Hand <strong>{number + 1}</strong>" in answer.get_data(as_text=True)


def test_points_sent_from_a_players_phone_wake_the_scorekeepers_poll(holding, client):
    url = new_game(client)
    links = player_links(client, url)[1]
    join = polling(holding, url, shown(client, url))
    phone = holding.test_client()
    sent = phone.post(
        links["Bob"], data={"csrf_token": csrf(phone), "hand_number": "1", "points": "25"}
    )
    assert sent.status_code == 303
    answer = join().get_data(as_text=True)
    assert "25:0:0" in [c.get("data-phone") for c in read(answer).controls("points-1")]


def test_a_poll_with_nothing_new_is_a_304_once_its_hold_is_over(app, client):
    app.config["POLL_HOLD"] = 0.2
    url = new_game(client)
    for path in (url, watch_path(url)):
        headers = shown(client, path)
        idle = client.get(path, headers=headers)
        assert idle.status_code == 304 and idle.headers["ETag"] == headers["If-None-Match"]


def test_a_screen_that_showed_the_game_when_it_ended_follows_into_the_rematch(client):
    """The tag a page shows names its clock too: following must still read what it shows."""
    url = new_game(client, players=("Ann", "Bob"), first="1")
    game_id = url.split("/")[2]
    record(client, url, 1, went_out=0, points={1: 50})  # Ann makes the one phase: over
    ended = shown(client, f"/v/{game_id}")  # the watcher's page, with no next game yet
    rematch = client.post(f"{url}/rematch", data={"csrf_token": csrf(client)})
    assert rematch.status_code == 303
    answer = client.get(f"/v/{game_id}", headers=ended)
    assert answer.status_code == 204
    assert (
        answer.headers["HX-Redirect"].startswith("/v/")
        and game_id not in answer.headers["HX-Redirect"]
    )
