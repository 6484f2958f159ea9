"""Every change heard: a live page's poll answer says, in a sentence a change, what changed
since what the page showed (the ``news`` event of its ``HX-Trigger``), in the reader's
language. Changes that land between two polls are said together in one answer."""

from __future__ import annotations

import json

import pytest
from webpage import read
from webutil import csrf, new_game, plain_names, player_links, record


def poll_headers(client, path: str) -> dict[str, str]:
    """What the page at ``path`` sends with its poll: what it shows, as htmx asks."""
    tag = read(client.get(path).get_data(as_text=True)).live()
    return {"HX-Request": "true", **tag}


def heard(client, path: str, headers: dict[str, str]) -> str:
    """What a page that showed ``headers``' tag hears at its next poll ("" for nothing)."""
    answer = client.get(path, headers=headers)
    trigger = answer.headers.get("HX-Trigger")
    return plain_names(json.loads(trigger)["news"]) if trigger else ""


def post(client, url: str, **fields) -> None:
    response = client.post(url, data={"csrf_token": csrf(client), **fields})
    assert response.status_code == 303, response.get_data(as_text=True)


def version(client, game_url) -> str:
    (shown,) = set(read(client.get(game_url).get_data(as_text=True)).values("version"))
    return shown


@pytest.fixture
def two(client):
    """A game of Ann and Bob, its scorekeeper's address and its watch page's."""
    url = new_game(client, players=("Ann", "Bob"))
    return url, f"/v/{url.split('/')[2]}"


def test_a_new_hand_is_said_with_its_points(client, two):
    url, watch = two
    shown = poll_headers(client, watch)
    assert heard(client, watch, shown) == ""  # nothing new: nothing said
    record(client, url, 1, 0, {1: 45})
    assert heard(client, watch, shown) == "Hand 1 saved: Ann out, Bob 45."


def test_a_correction_says_what_it_changed_even_on_a_finished_game(client):
    url = new_game(client, players=("Ann", "Bob"), first="1")  # the first hand ends it
    watch = f"/v/{url.split('/')[2]}"
    record(client, url, 1, 0, {1: 55})
    shown = poll_headers(client, watch)
    post(client, f"{url}/hands/1", went_out="0", **{"points-1": "60"}, version=version(client, url))
    assert heard(client, watch, shown) == "Hand 1 corrected: Bob 55 → 60. Ann wins the game."


def test_a_deletion_an_undo_and_an_early_end_are_each_said(client, two):
    url, watch = two
    record(client, url, 1, 0, {1: 45})
    record(client, url, 2, 1, {0: 20})
    shown = poll_headers(client, watch)
    post(client, f"{url}/hands/2/delete", version=version(client, url))
    assert heard(client, watch, shown) == "Hand 2 deleted (Bob had gone out)."
    shown = poll_headers(client, watch)
    post(client, f"{url}/undo", version=version(client, url))
    said = heard(client, watch, shown)
    assert said.startswith("Undone: Hand 2 deleted")
    shown = poll_headers(client, watch)
    post(client, f"{url}/end", version=version(client, url))
    assert heard(client, watch, shown) == "Game ended early after hand 2: Ann wins."


def test_changes_between_two_polls_are_said_together(client, two):
    url, watch = two
    shown = poll_headers(client, watch)
    record(client, url, 1, 0, {1: 45})
    record(client, url, 2, 1, {0: 20})
    assert heard(client, watch, shown) == (
        "Hand 1 saved: Ann out, Bob 45. Hand 2 saved: Ann 20, Bob out."
    )
    shown = poll_headers(client, watch)
    for number in range(3, 8):
        record(client, url, number, number % 2, {1 - number % 2: 5})
    said = heard(client, watch, shown)
    assert said.startswith("5 changes; the latest: Hand 5 saved")
    assert said.endswith("Hand 7 saved: Ann 5, Bob out.")


def test_a_scorekeeper_hears_the_points_a_player_sends(app, client, two):
    url, _ = two
    links = player_links(client, url)[1]
    shown = poll_headers(client, url)
    phone = app.test_client()
    post(phone, links["Bob"], hand_number="1", points="30", made="1")
    assert heard(client, url, shown) == "Bob sent 30 points, phase made."


def test_a_players_own_page_hears_each_hand_and_their_total(app, client, two):
    url, _ = two
    link = player_links(client, url)[1]["Bob"].removeprefix("http://table.test")
    phone = app.test_client()
    shown = poll_headers(phone, link)
    record(client, url, 1, 0, {1: 45})
    assert heard(phone, link, shown) == (
        "Hand 1 saved: Ann out, Bob 45. Your total so far: 45 points."
    )


def test_a_send_is_confirmed_on_the_senders_phone_for_its_own_hand(app, client, two):
    url, _ = two
    link = player_links(client, url)[1]["Bob"]
    phone = app.test_client()
    record(client, url, 1, 0, {1: 45})
    sent = phone.post(
        link, data={"csrf_token": csrf(phone), "hand_number": "2", "points": "35", "made": "1"}
    )
    page = plain_names(phone.get(sent.headers["Location"]).get_data(as_text=True))
    assert '<template class="news">Sent for hand 2: 35 points, phase made.</template>' in page
    assert 'value="35"' in page  # the form holds what was sent: send again to change it
    again = plain_names(phone.get(link).get_data(as_text=True))
    assert "Sent for hand 2" not in again  # said once


def test_a_page_that_follows_the_table_to_the_rematch_hears_it(client):
    url = new_game(client, players=("Ann", "Bob"), first="1")
    watch = f"/v/{url.split('/')[2]}"
    record(client, url, 1, 0, {1: 45})
    shown = poll_headers(client, watch)
    post(client, f"{url}/rematch")
    answer = client.get(watch, headers=shown)
    assert answer.status_code == 204 and answer.headers["HX-Redirect"].startswith("/v/")
    said = plain_names(json.loads(answer.headers["HX-Trigger"])["news"])
    assert said == "Rematch: Ann, Bob."


def test_news_is_said_in_the_readers_language(client, two):
    url, watch = two
    reader = {"Accept-Language": "de"}
    tag = read(client.get(watch, headers=reader).get_data(as_text=True)).live()
    record(client, url, 1, 0, {1: 45})
    answer = client.get(watch, headers={"HX-Request": "true", **reader, **tag})
    said = plain_names(json.loads(answer.headers["HX-Trigger"])["news"])
    assert said.startswith("Runde 1 ") and "Bob 45" in said
    assert "Hand" not in said


def test_the_announcer_is_empty_when_a_page_is_shown(client, two):
    url, watch = two
    record(client, url, 1, 0, {1: 45})
    for path in (url, watch, f"{watch}/table"):
        page = client.get(path).get_data(as_text=True)
        announcer = read(page).one("p#announcer")
        assert announcer.children == [], path  # not even a space
        assert announcer.get("aria-live") == "polite" and "hx-preserve" in announcer
        assert "data-announce" not in page
    hands = read(client.get(url).get_data(as_text=True))
    assert hands.one("section[class=card][role=log][aria-labelledby=hands-heading]")
