"""Players enter their own points: what a player link can and cannot do."""

from __future__ import annotations

import pytest
from webpage import read
from webutil import csrf, export, new_game, plain_names, player_links, record


def phone_lines(client, game_url) -> dict[str, str]:
    """What the scorekeeper's live poll brings of the points sent from phones:
    {seat: "points:made:went out"}, as its form marks each field filled from a phone."""
    form = read(client.get(game_url, headers={"HX-Request": "true"}).get_data(as_text=True))
    return {
        field["name"].removeprefix("points-"): field["data-phone"]
        for field in form.select("input[data-phone]")
        if field.get("name", "").startswith("points-")
    }


def send(client, link, hand_number=1, **fields):
    data = {"csrf_token": csrf(client), "hand_number": str(hand_number), **fields}
    return client.post(link, data=data)


@pytest.fixture
def game(client):
    url = new_game(client)
    pick, links = player_links(client, url)
    return url, pick, links


def test_each_player_has_a_link_and_one_code_lets_them_pick_their_name(client, game):
    url, pick, links = game
    assert set(links) == {"Ann", "Bob", "Cy"}
    assert len(set(links.values())) == 3
    page = client.get(pick).get_data(as_text=True)
    for name, link in links.items():
        assert f'href="{link.removeprefix("http://table.test")}">{name}</a>' in page


def test_a_player_link_shows_neither_the_edit_link_nor_other_players_forms(app, client, game):
    url, _, links = game
    edit_key = url.rsplit("/", 1)[1]
    phone = app.test_client()
    page = phone.get(links["Bob"]).get_data(as_text=True)
    assert "Bob: my points" in plain_names(page) and "Hand <strong>1</strong>" in plain_names(page)
    assert edit_key not in page
    assert "points-0" not in page and "/g/" not in page


def test_sent_points_wait_for_the_scorekeeper_and_fill_in_the_form(app, client, game):
    url, _, links = game
    phone = app.test_client()
    response = send(phone, links["Bob"], points="25", made="1")
    assert response.status_code == 303
    assert send(phone, links["Ann"], went_out="1").status_code == 303
    assert export(client, url)["hands"] == []  # nothing saved yet
    page = client.get(url).get_data(as_text=True)
    form = read(page)
    assert "25" in form.values("points-1")
    assert "1" in form.checked("made-1")
    assert "0" in form.checked("went_out")  # Ann's
    assert "Sent from phones (check, then save): Ann: went out; Bob: 25, made phase" in plain_names(
        page
    )
    assert phone_lines(client, url) == {"0": "0:1:1", "1": "25:1:0"}


def test_sending_again_replaces_the_players_line(app, client, game):
    url, _, links = game
    phone = app.test_client()
    send(phone, links["Cy"], points="60")
    send(phone, links["Cy"], points="55")
    assert phone_lines(client, url)["2"] == "55:0:0"


def test_a_player_link_sends_only_that_players_line(app, client, game):
    url, _, links = game
    phone = app.test_client()
    send(phone, links["Bob"], points="25", seat="2", **{"points-2": "90"})
    assert list(phone_lines(client, url)) == ["1"]


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({"points": ""}, 422, "Type your points, or tick that you went out"),
        ({"points": "lots"}, 422, "enter a whole number from 0 to 1000"),
        ({"points": "7"}, 422, "7 is not a multiple of 5"),
        ({"points": "5000"}, 422, "enter a whole number from 0 to 1000"),
    ],
)
def test_bad_points_are_refused_clearly_and_nothing_is_kept(
    app, client, game, fields, status, message
):
    url, _, links = game
    phone = app.test_client()
    response = send(phone, links["Bob"], **fields)
    assert response.status_code == status
    assert message in response.get_data(as_text=True)
    assert phone_lines(client, url) == {}


def test_points_for_a_hand_already_saved_are_refused(app, client, game):
    url, _, links = game
    record(client, url, 1, went_out=0, points={1: 50, 2: 60})
    phone = app.test_client()
    response = send(phone, links["Bob"], hand_number=1, points="25")
    assert response.status_code == 409
    assert "already saved" in response.get_data(as_text=True)
    assert phone_lines(client, url) == {}
    assert "Record hand 2" in client.get(url).get_data(as_text=True)


def test_a_made_up_player_link_or_edit_key_is_a_404(client, game):
    url, pick, _ = game
    game_id = url.rsplit("/", 2)[1]
    assert client.get(f"/p/{game_id}/madeup").status_code == 404
    assert client.get(f"/g/{game_id}/wrong", headers={"HX-Request": "true"}).status_code == 404
    assert client.get(f"/g/{game_id}/wrong/players").status_code == 404
    other = new_game(client)
    other_id = other.rsplit("/", 2)[1]
    token = pick.rsplit("/", 1)[1]
    assert client.get(f"/p/{other_id}/{token}").status_code == 404  # keys are per game


def test_names_are_escaped_on_the_player_pages(app, client):
    evil = "<b>x</b>"
    url = new_game(client, players=(evil, "Bob"))
    pick, links = player_links(client, url)
    assert "<b>x</b>" not in client.get(f"{url}/players").get_data(as_text=True)
    page = app.test_client().get(pick).get_data(as_text=True)
    assert "&lt;b&gt;x&lt;/b&gt;</a>" in page and "<b>x</b>" not in page


def test_nothing_can_be_sent_once_the_game_is_over(app, client):
    url = new_game(client, players=("Ann", "Bob"), first="1")
    _, links = player_links(client, url)
    record(client, url, 1, went_out=0, points={1: 60})
    phone = app.test_client()
    assert "The game is over" in phone.get(links["Bob"]).get_data(as_text=True)
    response = send(phone, links["Bob"], hand_number=2, points="25")
    assert response.status_code == 409
    assert "nothing more to send" in response.get_data(as_text=True)


def test_a_players_points_are_checked_as_they_are_typed_and_nothing_is_sent(client, game):
    game_url, _pick, links = game
    link = links["Bob"]
    data = {"csrf_token": csrf(client), "hand_number": "1"}
    page = client.post(f"{link}/check", data={**data, "points": "7"}).get_data(as_text=True)
    assert "Points: 7 is not a multiple of 5" in page
    assert 'hx-post="' + link.removeprefix("http://table.test") + '/check"' in page  # checks on
    for quiet in ({"points": ""}, {"points": "45"}, {"went_out": "1"}):
        page = client.post(f"{link}/check", data={**data, **quiet}).get_data(as_text=True)
        assert "field-error" in page and "Points" not in page
    assert phone_lines(client, game_url) == {}
