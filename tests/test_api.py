"""The games API: create a game from its file, read it, record hands exactly once."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import store
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.replay import replay

DOC = Path(__file__).resolve().parent.parent / "docs" / "game-format.md"
FIRST_HAND = {"went_out": "Ann", "made": ["Ann", "Cy"], "points": {"Bob": 50, "Cy": 20}}


def doc_games() -> list[dict]:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)
    return [game for game in map(json.loads, blocks) if "hands" in game]


def path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def create(client, game=None) -> dict:
    response = client.post("/api/games", json=game or {"players": ["Ann", "Bob", "Cy"]})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def send(client, created: dict, number: int, hand: dict):
    return client.post(path(created["hands_url"]), json={"hand_number": number, "hand": hand})


def hands_stored(app, game_id: str) -> list[dict]:
    with app.app_context():
        return store.games.get_game(
            store.connection.connect(app.config["DATABASE"]), game_id
        ).state["hands"]


def history(app, game_id: str) -> list[store.history.Change]:
    return store.history.changes(store.connection.connect(app.config["DATABASE"]), game_id)


# --- creating and reading ------------------------------------------------------------------


def test_creating_a_game_answers_201_with_its_links_and_standings(client):
    response = client.post("/api/games", json={"players": ["Ann", "Bob"], "dealer": "Bob"})
    assert response.status_code == 201
    created = response.get_json()
    assert created["view_url"] == f"http://table.test/v/{created['id']}"
    assert created["edit_url"].startswith(f"http://table.test/g/{created['id']}/")
    assert response.headers["Location"] == created["view_url"]
    assert created["standings"]["dealer"] == "Bob" and created["standings"]["hand"] == 1
    assert client.get(path(created["view_url"])).status_code == 200
    page = client.get(path(created["edit_url"])).get_data(as_text=True)
    assert "Hand <strong>1</strong> · <strong><bdi>Bob</bdi></strong> deals" in page


@pytest.mark.parametrize("number", range(len(doc_games())))
def test_every_documented_game_file_starts_a_game_with_the_same_standings(client, number):
    game = doc_games()[number]
    created = create(client, game)
    expected = replay(load_game(game)).to_json()
    assert created["standings"] == expected
    read = client.get(f"/api/games/{created['id']}").get_json()
    assert read["standings"] == expected
    assert load_game(read["game"]) == load_game(game)


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ({"players": ["Ann"]}, "Phase 10 is for 2-6 players, not 1"),
        ({"players": ["Ann", "ann"]}, "two players have this name"),
        ({"players": ["Ann", "Bob"], "rules": "chess"}, "unknown rules"),
        ({"players": ["Ann", "Bob"], "went-out": "Ann"}, "unknown key 'went-out'"),
        (
            {"players": ["Ann", "Bob"], "hands": [{"went_out": "Ann", "points": {"Bob": 45}}]},
            "hand 1",
        ),
    ],
)
def test_a_game_the_engine_refuses_is_a_422_with_its_reason(client, game, message):
    response = client.post("/api/games", json=game)
    assert response.status_code == 422
    assert message in response.get_json()["error"]


def test_a_refused_game_carries_the_rule_and_its_anchor_on_the_rules_page(client):
    over = {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50}}
    game = {"players": ["Ann", "Bob"], "options": {"first": 1}, "hands": [over, over]}
    body = client.post("/api/games", json=game).get_json()
    assert body["error"].startswith("hand 2: the game is over")
    assert (body["rule"], body["anchor"]) == ("Rule 9: end of the game", "end-of-game")
    alone = client.post("/api/games", json={"players": ["Ann"]}).get_json()
    assert (alone["rule"], alone["anchor"]) == ("Rule 3: players", "players")


def test_reading_a_game_shows_its_standings_and_file_but_never_the_edit_key(client):
    created = create(client)
    send(client, created, 1, FIRST_HAND)
    response = client.get(f"/api/games/{created['id']}")
    body = response.get_json()
    assert body["standings"]["players"][1] == {
        "name": "Bob",
        "phase": 1,
        "score": 50,
        "phases_done": [],
        "finished": False,
    }
    assert body["game"]["hands"] == [FIRST_HAND] and body["version"] == 2
    edit_key = created["edit_url"].rsplit("/", 1)[1]
    assert edit_key not in response.get_data(as_text=True)


def test_an_unknown_game_is_a_404_in_json(client):
    response = client.get("/api/games/no-such-game")
    assert response.status_code == 404
    assert response.get_json() == {"error": store_message()}


def store_message() -> str:
    return "There is no game at this link. It may have been mistyped."


# --- recording hands ---------------------------------------------------------------------


def test_recording_the_next_hand_answers_201_with_the_new_standings(app, client):
    created = create(client)
    response = send(client, created, 1, FIRST_HAND)
    assert response.status_code == 201
    body = response.get_json()
    assert body["recorded"] is True and body["hand_number"] == 1 and body["version"] == 2
    assert body["standings"]["hand"] == 2 and body["standings"]["dealer"] == "Bob"
    assert hands_stored(app, created["id"]) == [FIRST_HAND]
    last = history(app, created["id"])[0]
    assert (last.action, last.summary) == ("record", "Hand 1: Ann went out; made: Ann, Cy")


@pytest.mark.parametrize(
    "again",
    [
        FIRST_HAND,
        {"went_out": "ann", "made": ["Cy", " ANN"], "points": {"cy": 20, "Bob": 50}},
    ],
    ids=["identical", "same facts written differently"],
)
def test_the_same_hand_sent_again_is_recorded_once_and_answers_200(app, client, again):
    created = create(client)
    assert send(client, created, 1, FIRST_HAND).status_code == 201
    response = send(client, created, 1, again)
    assert response.status_code == 200
    assert response.get_json()["recorded"] is False
    assert response.get_json()["standings"]["hand"] == 2
    assert hands_stored(app, created["id"]) == [FIRST_HAND]
    assert len(history(app, created["id"])) == 2  # created, then one record


def test_a_different_hand_under_a_number_already_recorded_is_a_409(app, client):
    created = create(client)
    send(client, created, 1, FIRST_HAND)
    response = send(client, created, 1, {**FIRST_HAND, "points": {"Bob": 55, "Cy": 20}})
    assert response.status_code == 409
    body = response.get_json()
    assert "Hand 1 was already recorded" in body["error"] and body["hand"] == FIRST_HAND
    assert hands_stored(app, created["id"]) == [FIRST_HAND]


def test_a_hand_ahead_of_the_game_is_a_409_naming_the_next_hand(client):
    created = create(client)
    response = send(client, created, 3, FIRST_HAND)
    assert response.status_code == 409
    assert response.get_json()["next_hand"] == 1
    assert "hand 1, not 3" in response.get_json()["error"]


def test_a_hand_the_engine_refuses_is_a_422_with_each_problem_pinned_to_a_player(app, client):
    created = create(client)
    hand = {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 45, "Cy": 50}}
    response = send(client, created, 1, hand)
    assert response.status_code == 422
    problems = response.get_json()["problems"]
    bob = next(p for p in problems if p["player"] == "Bob")
    assert bob["field"] == "points" and bob["warning"] is False
    assert "45 is not possible" in bob["message"]
    assert (response.get_json()["rule"], bob["rule"]) == ("Rule 8: a hand never grows",) * 2
    missing = send(client, created, 1, {**hand, "points": {"Bob": 50}}).get_json()["problems"]
    assert [(p["player"], p["field"]) for p in missing] == [("Cy", "points")]
    assert hands_stored(app, created["id"]) == []


def test_a_hand_that_names_a_stranger_is_a_422(client):
    created = create(client)
    response = send(client, created, 1, {"went_out": "Zed", "made": ["Zed"], "points": {}})
    assert response.status_code == 422
    assert "Zed: is not a player in this game" in response.get_json()["error"]


def test_a_badly_shaped_hand_is_a_422_naming_the_key(client):
    created = create(client)
    response = send(client, created, 1, {**FIRST_HAND, "went-out": "Ann"})
    assert response.status_code == 422
    assert "hand 1: unknown key 'went-out'" in response.get_json()["error"]


def test_no_hand_is_recorded_after_the_game_is_over(client):
    won = next(
        g for g in doc_games() if g.get("options") == {"first": "2"} and g["rules"] == "official"
    )
    created = create(client, won)
    assert created["standings"]["over"] is True
    response = send(client, created, len(won["hands"]) + 1, FIRST_HAND)
    assert response.status_code == 409 and "The game is over" in response.get_json()["error"]


def test_a_total_the_rules_only_warn_about_is_recorded_with_the_warning(client):
    created = create(client, {"players": ["Ann", "Bob", "Cy"], "options": {"totals": "warn"}})
    response = send(client, created, 1, {**FIRST_HAND, "points": {"Bob": 45, "Cy": 20}})
    assert response.status_code == 201
    assert any("45 is not possible" in w for w in response.get_json()["warnings"])


def test_masters_hands_carry_the_phase_each_player_attempted(client):
    created = create(client, {"rules": "masters", "players": ["Ann", "Bob"]})
    hand = {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 65}, "attempts": {"Ann": 7}}
    response = send(client, created, 1, hand)
    assert response.status_code == 422
    assert "Bob: say which phase they attempted" in response.get_json()["error"]
    hand["attempts"]["Bob"] = 1
    assert send(client, created, 1, hand).status_code == 201


# --- who may record, and how -------------------------------------------------------------


def test_a_wrong_edit_key_or_the_view_id_cannot_record(app, client):
    created = create(client)
    game_id = created["id"]
    for key in ("wrong-key-wrong-key-12", game_id, ""):
        url = f"/api/games/{game_id}/{key}/hands" if key else f"/api/games/{game_id}/hands"
        response = client.post(url, json={"hand_number": 1, "hand": FIRST_HAND})
        assert response.status_code == 404  # no key: no such address, answered in JSON
        assert response.get_json()["error"]
    assert hands_stored(app, game_id) == []


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ([1, 2], 400, "one JSON object"),
        ({"hand_number": True, "hand": FIRST_HAND}, 400, "hand_number must be"),
        ({"hand_number": "1", "hand": FIRST_HAND}, 400, "hand_number must be"),
        ({"hand_number": 0, "hand": FIRST_HAND}, 400, "hand_number must be"),
        ({"hand_number": 1, "hand": [FIRST_HAND]}, 400, "hand must be one hand"),
        ({"hand_number": 1, "hand": FIRST_HAND, "key": "x"}, 400, "unknown key 'key'"),
    ],
)
def test_a_malformed_request_is_a_400_that_says_what_to_send(client, body, status, message):
    created = create(client)
    response = client.post(path(created["hands_url"]), json=body)
    assert response.status_code == status and message in response.get_json()["error"]


def test_a_form_post_is_refused_so_another_site_cannot_submit_one(client):
    """A cross-site HTML form can only send form encodings, never application/json."""
    created = create(client)
    response = client.post(path(created["hands_url"]), data={"hand_number": "1"})
    assert response.status_code == 415 and "application/json" in response.get_json()["error"]
    assert client.post("/api/games", data="{}", content_type="text/plain").status_code == 415


def test_the_api_never_reads_or_sets_a_cookie(client):
    """Only the key in the URL counts: no session is read, so no CSRF token is needed."""
    client.get("/")  # the browser now holds a session cookie
    responses = []
    created_response = client.post("/api/games", json={"players": ["Ann", "Bob", "Cy"]})
    created = created_response.get_json()
    responses += [created_response, send(client, created, 1, FIRST_HAND)]
    responses += [send(client, created, 1, FIRST_HAND), send(client, created, 5, FIRST_HAND)]
    responses.append(client.get(f"/api/games/{created['id']}"))
    responses.append(client.post("/api/games", json={"players": []}))
    for response in responses:
        assert "Set-Cookie" not in response.headers
        assert "Cookie" not in response.headers.get("Vary", "")


# --- anything sent to a real game ------------------------------------------------------------

NAMES = st.sampled_from(["Ann", "Bob", "Cy", "ann", "Zed", "", 7, None])
HANDS = st.fixed_dictionaries(
    {},
    optional={
        "went_out": NAMES,
        "made": st.lists(NAMES, max_size=4) | NAMES,
        "points": st.dictionaries(
            st.sampled_from(["Ann", "Bob", "Cy", "x"]),
            st.integers(-10, 400) | st.sampled_from([True, "50", 50.0, None]),
        ),
        "attempts": st.dictionaries(st.sampled_from(["Ann", "Bob"]), st.integers(0, 12)),
        "floaters": st.lists(NAMES, max_size=2),
        "cards": st.dictionaries(
            st.sampled_from(["Bob", "Cy"]),
            st.dictionaries(
                st.sampled_from(["low", "high", "wilds", "jokers"]), st.integers(-1, 30)
            )
            | st.integers(),
        ),
        "tiebreak": st.booleans() | st.just("yes"),
    },
)


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    from scorekeeper import create_app

    app = create_app(
        {"DATABASE": str(tmp_path_factory.mktemp("api") / "g.sqlite3"), "SECRET_KEY": "x"}
    )
    client = app.test_client()
    return client, create(client)


@settings(max_examples=80, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(number=st.integers(-1, 4) | st.just(None), hand=HANDS)
def test_whatever_hand_is_sent_the_answer_is_json_and_never_a_5xx(shared, number, hand):
    client, created = shared
    response = client.post(path(created["hands_url"]), json={"hand_number": number, "hand": hand})
    assert response.status_code in (200, 201, 400, 409, 422), response.get_data(as_text=True)
    assert response.get_json()["error" if response.status_code >= 400 else "standings"]
