"""A refused Save: every problem at once, and the page stays the game's page."""

from __future__ import annotations

from webutil import csrf, export, field_errors, new_game, record

HTMX = {"HX-Request": "true", "HX-Boosted": "true"}


def test_an_impossible_total_is_reported_when_another_field_is_missing(client):
    url = new_game(client)
    response = record(client, url, 1, went_out=0, points={1: 37, 2: ""})
    assert response.status_code == 422
    errors = " ".join(field_errors(response))
    assert "Enter Cy's points" in errors
    assert "37 is not a multiple of 5" in errors
    page = response.get_data(as_text=True)
    assert 'name="points-1" inputmode="numeric" pattern="[0-9]*" maxlength="4" value="37"' in page
    assert "Will be marked as having made their phase" not in page  # 37 is wrong, not "made"
    assert export(client, url)["hands"] == []


def test_an_impossible_total_is_reported_when_nobody_went_out_yet(client):
    url = new_game(client)
    data = {"csrf_token": csrf(client), "hand_number": "1", "points-1": "37", "points-2": "20"}
    refused = client.post(f"{url}/hands", data=data)
    assert refused.status_code == 422
    errors = " ".join(field_errors(refused))
    assert "Who went out?" in errors and "37 is not a multiple of 5" in errors
    assert "20" not in errors  # Cy's 20 is fine
    live = client.post(f"{url}/hands/check", data=data).get_data(as_text=True)
    assert "Bob: 37 is not a multiple of 5" in live
    assert "Cy:" not in live
    assert export(client, url)["hands"] == []


def test_the_live_check_reports_a_bad_total_beside_a_blank_one_without_going_out(client):
    url = new_game(client, players=("Ann", "Bob", "Cy", "Di"))
    data = {"csrf_token": csrf(client), "points-1": "37", "points-3": "12"}
    live = client.post(f"{url}/hands/check", data=data).get_data(as_text=True)
    assert "Bob: 37 is not a multiple of 5" in live
    assert "Di: 12 is not a multiple of 5" in live
    assert "Enter" not in live  # nobody is nagged about a field not typed yet


def test_a_correction_refused_for_a_blank_field_still_names_a_bad_total(client):
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50, 2: 20})
    data = {"csrf_token": csrf(client), "went_out": "0", "points-1": "", "points-2": "33"}
    response = client.post(f"{url}/hands/1", data=data)
    assert response.status_code == 422
    errors = " ".join(field_errors(response))
    assert "Enter Bob's points" in errors and "33 is not a multiple of 5" in errors
    assert export(client, url)["hands"][0]["points"]["Cy"] == 20


def test_a_refused_save_keeps_the_game_page_as_the_address(client):
    url = new_game(client)
    data = {"csrf_token": csrf(client), "hand_number": "1", "went_out": "0", "points-1": "50"}
    refused = client.post(f"{url}/hands", data=data, headers=HTMX)
    assert refused.status_code == 422
    assert refused.headers["HX-Replace-Url"] == url
    assert "#refused" in refused.headers["HX-Reswap"]  # the phone scrolls to the summary
    assert 'id="refused"' in refused.get_data(as_text=True)


def test_a_conflicting_save_keeps_the_game_page_as_the_address(client):
    url = new_game(client)
    assert record(client, url, 1, went_out=0, points={1: 50, 2: 20}).status_code == 303
    data = {
        "csrf_token": csrf(client),
        "hand_number": "1",
        "went_out": "1",
        "points-0": "50",
        "points-2": "20",
    }
    conflict = client.post(f"{url}/hands", data=data, headers=HTMX)
    assert conflict.status_code == 409
    assert conflict.headers["HX-Replace-Url"] == url


def test_without_javascript_the_refused_page_opens_at_the_summary(client):
    url = new_game(client)
    page = client.get(url).get_data(as_text=True)
    assert f'action="{url}/hands#refused"' in page
    refused = record(client, url, 1, went_out=0, points={1: 50})
    assert 'id="refused" tabindex="-1"' in refused.get_data(as_text=True)


def test_a_reload_of_the_hands_address_opens_the_game(client):
    url = new_game(client)
    reload = client.get(f"{url}/hands")
    assert reload.status_code in (302, 303)
    assert reload.headers["Location"].endswith(url)
    assert client.get(f"{url[:-3]}xyz/hands").status_code == 404  # only with the edit link
