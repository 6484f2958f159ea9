"""The dispute tools as pages and as a JSON API."""

from __future__ import annotations

import pytest
from webpage import read
from webutil import new_game, record


def verdict(response) -> str:
    """The page's words, as a person reads them."""
    return read(response.get_data(as_text=True)).text


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("phase=1&g0=R7+B7+W&g1=G3+G3+Y3", "Valid: phase 1 is made"),
        ("phase=2&g0=R7+B7+G7&g1=R3+R4+R6+R7", "the 5 is missing"),
        ("phase=4&g0=Y10+Y11+Y12+W+B2+B3+B4", "Not valid"),
        ("phase=1&g0=R7+B7+S&g1=G3+G3+Y3", "a Skip can never be part of a phase"),
        ("phase=1&g0=R7+B7+R7&g1=R7+G3+G3", "Not valid"),
        ("phase=8&g0=R1+R2+R3+R4+R5+R6+W", "Valid: phase 8 is made"),
        ("phase=8&deck=regular&g0=AH+2H+3H+4H+5H+6H+KS", "Valid: phase 8 is made"),
    ],
)
def test_the_phase_checker_gives_the_verdict_and_the_reason(client, query, expected):
    response = client.get(f"/check?{query}")
    assert response.status_code == 200
    assert expected in verdict(response)


def test_tapping_a_card_adds_it_to_the_chosen_group(client):
    response = client.get("/check?phase=1&g0=R7+B7&g1=G3+G3+Y3&active=g0&add=W")
    page = response.get_data(as_text=True)
    assert 'name="g0" value="R7 B7 W"' in page
    assert "Valid: phase 1 is made" in verdict(response)


def test_a_run_tapped_out_of_order_says_how_it_is_laid(client):
    response = client.get("/check?phase=2&g0=R7+B7+G7&g1=R3+R4+R6+W")
    assert "Valid: phase 2 is made" in verdict(response)
    assert "run of 4 laid low to high: R3 R4 W R6" in verdict(response)


def test_tapping_a_chip_removes_that_card(client):
    page = client.get("/check?phase=1&g0=R7+B7+W&remove=g0:1").get_data(as_text=True)
    assert 'name="g0" value="R7 W"' in page


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("phase=1&g0=R7+X9", "cannot read card"),
        ("phase=1&g0=R13", "1 to 12"),
        ("phase=11&g0=R7", "Pick a phase from 1 to 10"),
        ("rules=chess&g0=R7", "unknown rules"),
        ("phase=1&g0=R7+R7+R7&g1=W+W+W", "impossible"),
    ],
)
def test_bad_cards_and_choices_get_a_clear_message(client, query, message):
    response = client.get(f"/check?{query}")
    assert response.status_code in (200, 400)
    assert message in verdict(response)


@pytest.mark.parametrize(
    ("query", "name"),
    [("phase=1&g0=R7+X9", "g0"), ("phase=11&g0=R7", "phase"), ("rules=chess&g0=R7", "rules")],
)
def test_a_field_with_a_bad_entry_is_marked_and_described_by_its_message(client, query, name):
    page = client.get(f"/check?{query}").get_data(as_text=True)
    control = next(c for c in read(page).controls(name) if c.tag in ("input", "select"))
    assert control.get("aria-invalid") == "true"
    assert control.get("aria-describedby") == f"{name}-error"
    assert f'<p class="field-error" id="{name}-error">' in page


def test_a_game_player_picks_their_phase_and_the_games_rules(client):
    url = new_game(client, players=("Ann", "Bob"), wild_points="20")
    record(client, url, 1, went_out=0, points={1: 50})
    game_id = url.split("/")[2]
    page = client.get(f"/check?game={game_id}&player=0").get_data(as_text=True)
    assert "Ann, phase 2" in page
    assert '<option value="2" selected>' in page


def test_the_hit_checker_says_where_a_card_fits(client):
    response = client.get("/check/hit?kind=run&group=R3+R4+W+R6&card=B7")
    assert "It fits" in verdict(response)
    response = client.get("/check/hit?kind=set&group=R7+B7+G7&card=Y8")
    assert "It does not fit" in verdict(response)
    response = client.get("/check/hit?kind=run&group=R3+R4&card=S")
    assert "Skip" in verdict(response)


def test_the_hand_helper_lays_the_phase_out_or_says_what_is_missing(client):
    response = client.get("/check/hand?phase=1&hand=R7+B7+G7+Y3+B3+W+S+G12+R1+B9")
    assert "Yes: phase 1 can be laid down" in verdict(response)
    response = client.get("/check/hand?phase=4&hand=R1+B2+G3+Y9+S+S+G12+R11+B10+Y8")
    assert "missing" in verdict(response)


def test_the_hand_helper_lists_every_way_to_finish_an_eleven_card_hand(client):
    """Right after drawing: the hand discards one card, then any 4 or a Wild finishes it."""
    hand = "R1+B2+G3+Y9+Y5+R6+B7+S+S+G12+G11"
    response = client.get(f"/check/hand?rules=official&phase=4&hand={hand}")
    said = "1 card missing Any one of these finishes it: any 4 a Wild Your hand"
    assert said in verdict(response)


@pytest.mark.parametrize(
    ("path", "query", "status", "key", "value"),
    [
        ("/api/check", "phase=1&group=R7+B7+W&group=G3+G3+Y3", 200, "valid", True),
        ("/api/check", "phase=2&group=R7+B7&group=R3+R4+R5+R6", 200, "valid", False),
        ("/api/hit", "kind=run&group=R3+R4+R5&card=W", 200, "valid", True),
        ("/api/solve", "phase=1&hand=R7+B7+W+G3+G3+Y3", 200, "can_make", True),
        ("/api/check", "phase=1&group=R99", 400, "field", "g0"),
        ("/api/check", "phase=0&group=R7", 400, "field", "phase"),
        ("/api/solve", "phase=1", 400, "field", "hand"),
        ("/api/hit", "kind=pair&group=R3&card=W", 400, "field", "kind"),
    ],
)
def test_the_json_api_answers_like_the_command_line(client, path, query, status, key, value):
    response = client.get(f"{path}?{query}")
    assert response.status_code == status
    assert response.get_json()[key] == value


def test_the_json_api_takes_a_json_body_too(client):
    body = {"phase": 2, "group": ["R7 B7 G7", "Y3 Y4 W Y6"], "options": {"wild_points": "20"}}
    response = client.post("/api/check", json=body, headers={"X-CSRF-Token": "unused"})
    assert response.status_code == 200 and response.get_json()["valid"] is True


def test_tapping_cards_builds_the_group_and_replaces_the_card_on_the_hit_checker(client):
    page = client.get("/check/hit?kind=run&active=group&group=R3+R4&add=W").get_data(as_text=True)
    assert 'name="group" value="R3 R4 W"' in page
    page = client.get("/check/hit?kind=run&active=card&group=R3+R4+W&card=B7&add=R2")
    assert 'name="card" value="R2"' in page.get_data(as_text=True)
    assert "It fits" in verdict(page)


def test_taps_aimed_at_unknown_fields_change_nothing(client):
    page = client.get("/check?phase=1&g0=R7&active=rules&add=W").get_data(as_text=True)
    assert 'name="g0" value="R7"' in page


def test_a_phase_the_game_does_not_play_is_refused_with_a_clear_message(client):
    response = client.get("/check?rules=even&phase=1&g0=R7+B7+W")
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "There is no phase 1 in this game: it plays phases 2, 4, 6, 8 and 10." in page


def test_a_hand_of_more_than_eleven_cards_is_refused(client):
    hand = "+".join(f"R{n}" for n in range(1, 13))
    response = client.get(f"/check/hand?phase=1&hand={hand}")
    assert response.status_code == 400
    assert "a hand holds at most 11 cards (10 dealt and 1 drawn), not 12" in response.get_data(
        as_text=True
    )


def test_the_phase_list_offers_only_the_phases_the_game_plays(client):
    page = read(client.get("/check?rules=even").get_data(as_text=True))
    offered = [option.value for option in page.select("select[name=phase] option")]
    assert offered == ["2", "4", "6", "8", "10"]
