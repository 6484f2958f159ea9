"""What an attack on the app found (issue 12): each case is refused clearly and changes nothing."""

from __future__ import annotations

import io
import json
import logging
import sqlite3

import hostile_backups as hostile
import pytest
from pypdf import PdfReader
from webutil import csrf, new_game, player_links, record

from scorekeeper import create_app, store
from scorekeeper.web.security import RedactKeys as RedactEditKeys

HAND = {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50, "Cy": 50}}


def snapshot(app) -> list[tuple]:
    """Every stored row: a refused request must leave this exactly as it was."""
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        games = conn.execute("SELECT * FROM games ORDER BY id").fetchall()
        changes = conn.execute("SELECT * FROM changes ORDER BY game_id, version").fetchall()
    return games + changes


def api_game(client) -> dict:
    response = client.post("/api/games", json={"players": ["Ann", "Bob", "Cy"]})
    assert response.status_code == 201
    return response.get_json()


def local(url: str) -> str:
    return "/" + url.split("/", 3)[3]


def one_hand_played(client) -> str:
    """A game's scorekeeper link, its first hand recorded."""
    url = new_game(client)
    assert record(client, url, 1, 0, {1: 50, 2: 50}).status_code == 303
    return url


# --- HEAD never writes ---------------------------------------------------------------------


def test_head_with_a_form_body_creates_no_game(app, client):
    before = snapshot(app)
    form = {"profile": "official", "dealer": "0", "player-0": "Ann", "player-1": "Bob"}
    assert client.head("/new", data=form).status_code == 200
    assert client.head("/import", data={"text": '{"players": ["Ann", "Bob"]}'}).status_code == 200
    assert snapshot(app) == before


def test_head_with_a_form_body_cannot_rewrite_a_hand(app, client):
    url = new_game(client)
    assert record(client, url, 1, 0, {1: 50, 2: 50}).status_code == 303
    before = snapshot(app)
    form = {"hand_number": "1", "went_out": "1", "points-0": "50", "points-2": "50"}
    assert client.head(f"{url}/hands/1", data=form).status_code == 200
    assert snapshot(app) == before


def test_undeclared_methods_get_405_not_the_expired_page_message(client):
    for path in ("/", "/new", "/check", "/api/check", "/api/games"):
        response = client.open(path, method="TRACE")
        assert response.status_code == 405, path
        assert "expired" not in response.get_data(as_text=True)
        assert response.headers["Allow"]
    assert client.open("/api/games", method="PUT", json={}).get_json()["error"]


# --- edit keys stay out of logs ---------------------------------------------------------------


def test_the_redactor_hides_keys_in_api_paths():
    record_ = logging.LogRecord(
        "x",
        logging.ERROR,
        __file__,
        1,
        "Exception on %s [POST]",
        ("/api/games/abc/SECRET/hands",),
        None,
    )
    RedactEditKeys().filter(record_)
    assert "SECRET" not in record_.getMessage()
    assert "/api/games/abc/…/hands" in record_.getMessage()


def test_a_crash_recording_through_the_api_logs_no_edit_key(tmp_path, caplog, monkeypatch):
    app = create_app({"DATABASE": str(tmp_path / "g.sqlite3"), "SECRET_KEY": "x"})
    client = app.test_client()
    created = api_game(client)
    key = created["hands_url"].split("/")[-2]

    def broken(*args, **kwargs):
        raise RuntimeError("the disk fell off")

    monkeypatch.setattr(store.games, "save_change", broken)
    with caplog.at_level("ERROR"):
        response = client.post(local(created["hands_url"]), json={"hand_number": 1, "hand": HAND})
    assert response.status_code == 500
    assert response.mimetype == "application/json"
    assert response.get_json()["error"]
    assert "/hands" in caplog.text
    assert key not in caplog.text


# --- numbers are read strictly ----------------------------------------------------------------


@pytest.mark.parametrize("digit", ["²", "٣", "%2B1", "1_0", "99999999999999999999", "-1", "１"])
def test_odd_digits_in_checker_parameters_are_a_clear_400(client, digit):
    for query in (
        f"phase={digit}&group=R1",
        f"rules=official&group=R1&phase=1&layout={digit}",
    ):
        response = client.get(f"/api/check?{query}")
        assert response.status_code in (200, 400), query
        assert response.mimetype == "application/json"
    response = client.get(f"/api/check?phase={digit}&group=R1")
    assert response.status_code == 400
    assert "Pick a phase" in response.get_json()["error"]
    page = client.get(f"/check?g0=R1&remove=g0:{digit}&layout={digit}")
    assert page.status_code == 200


def test_a_superscript_player_seat_in_a_game_check_is_a_clear_400(client):
    game_id = api_game(client)["id"]
    response = client.get(f"/api/check?game={game_id}&player=%C2%B2&group=R1")
    assert response.status_code == 400
    assert response.get_json()["field"] == "player"


def test_a_superscript_dealer_on_the_new_game_form_is_a_clear_422(app, client):
    form = {"csrf_token": csrf(client), "profile": "official", "dealer": "²"}
    form.update({"player-0": "Ann", "player-1": "Bob"})
    response = client.post("/new", data=form)
    assert response.status_code == 422
    assert "the dealer must be one of the players" in response.get_data(as_text=True)
    assert snapshot(app) == []


@pytest.mark.parametrize(
    ("field", "action"),
    [
        ("went_out", "hands"),
        ("points-1", "hands"),
        ("hand_number", "hands"),
        ("went_out", "hands/1"),
        ("version", "hands/1"),
        ("version", "hands/1/delete"),
        ("version", "undo"),
    ],
)
def test_odd_digits_in_the_hand_forms_are_a_clear_4xx_and_change_nothing(
    app, client, field, action
):
    url = one_hand_played(client)
    before = snapshot(app)
    form = {"csrf_token": csrf(client), "hand_number": "2", "went_out": "0"}
    form.update({"points-1": "50", "points-2": "5", "version": "2", field: "²"})
    response = client.post(f"{url}/{action}", data=form)
    assert response.status_code in (400, 422)
    page = response.get_data(as_text=True)
    assert "Traceback" not in page and (
        "not a whole number" in page or "Reload" in page or "Pick who went out" in page
    )
    assert snapshot(app) == before


# --- what issue 24 found still answering 500 ---------------------------------------------------


@pytest.mark.parametrize("points", ["²", "¹⁰", "9" * 5000, "٣٠", "１０"])
def test_odd_digits_sent_from_a_players_link_are_a_clear_422(app, client, points):
    url = new_game(client)
    ann = "/" + player_links(client, url)[1]["Ann"].split("/", 3)[3]
    before = snapshot(app)
    form = {"csrf_token": csrf(client), "points": points, "hand_number": "1"}
    response = client.post(ann, data=form)
    assert response.status_code == 422
    assert "enter a whole number from 0 to" in response.get_data(as_text=True)
    assert snapshot(app) == before
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        assert conn.execute("SELECT count(*) FROM hand_entries").fetchone() == (0,)


SURROGATE = '{"players": ["A\\ud800", "B"]}'  # JSON's escape for a lone surrogate


def test_a_lone_surrogate_in_an_imported_name_is_a_clear_4xx(app, client):
    response = client.post("/import", data={"csrf_token": csrf(client), "text": SURROGATE})
    assert response.status_code == 422
    assert "U+D800" in response.get_data(as_text=True)
    refused = client.post("/api/games", data=SURROGATE, content_type="application/json")
    assert refused.status_code == 400 and "U+D800" in refused.get_json()["error"]
    assert snapshot(app) == []


# Issue 32: a surrogate anywhere else in a game file gave a 500 while the refusal was shown.
GAME_FILE = {
    "players": ["Ann", "Bob"],
    "dealer": "Ann",
    "hands": [{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50}}],
}
SURROGATE_PLACES = {
    "dealer": lambda game: game.update(dealer="@"),
    "went_out": lambda game: game["hands"][0].update(went_out="@"),
    "made": lambda game: game["hands"][0].update(made=["@"]),
    "a points key": lambda game: game["hands"][0].update(points={"@": 50}),
    "a card kind": lambda game: game["hands"][0].update(cards={"Bob": {"@": 1}}),
    "floaters": lambda game: game["hands"][0].update(floaters=["@"]),
}


def with_surrogate(place: str) -> str:
    """The game file with ``@`` put at ``place``, then written as JSON's ``\\ud800``."""
    game = json.loads(json.dumps(GAME_FILE))
    SURROGATE_PLACES[place](game)
    return json.dumps(game).replace("@", "\\ud800")


@pytest.mark.parametrize("place", list(SURROGATE_PLACES))
def test_a_lone_surrogate_anywhere_in_an_imported_game_is_a_clear_4xx(app, client, place):
    text = with_surrogate(place)
    response = client.post("/import", data={"csrf_token": csrf(client), "text": text})
    assert response.status_code == 422
    assert "U+D800 is half of a character" in response.get_data(as_text=True)
    refused = client.post("/api/games", data=text, content_type="application/json")
    assert refused.status_code == 400 and "U+D800" in refused.get_json()["error"]
    assert snapshot(app) == []


@pytest.mark.parametrize("place", ["dealer", "a points key"])
def test_a_lone_surrogate_in_a_backups_game_is_a_clear_422(app, client, place):
    backup = hostile.backup(hostile.index(), {"games/001.json": with_surrogate(place).encode()})
    upload = {"csrf_token": csrf(client), "file": (io.BytesIO(backup), "table.zip")}
    response = client.post("/tables/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "U+D800 is half of a character" in response.get_data(as_text=True)
    assert snapshot(app) == []


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/history/9223372036854775808/restore"),
        ("POST", "/history/99999999999999999999999/restore"),
        ("GET", "/hands/9223372036854775808"),
        ("POST", "/hands/9223372036854775808"),
        ("POST", "/hands/9223372036854775808/delete"),
        ("POST", "/hands/9223372036854775808/check"),
    ],
)
def test_a_number_in_a_link_too_large_for_sqlite_is_a_404_like_any_wrong_link(
    app, client, method, path
):
    url = one_hand_played(client)
    before = snapshot(app)
    response = client.open(url + path, method=method, data={"csrf_token": csrf(client)})
    assert response.status_code == 404
    assert "There is nothing here" in response.get_data(as_text=True)
    assert snapshot(app) == before


# --- JSON bodies are bounded ------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/games", "/api/check", "/api/hit", "/api/solve"])
def test_deeply_nested_json_is_a_clear_400(app, client, path):
    body = "[" * 30_000 + "]" * 30_000
    response = client.post(path, data=body, content_type="application/json")
    assert response.status_code == 400
    assert "nests more than" in response.get_json()["error"]
    assert snapshot(app) == []


def test_a_huge_integer_in_an_api_body_is_a_clear_400(client):
    body = '{"players": ["Ann", "Bob"], "dealer": ' + "9" * 5000 + "}"
    response = client.post("/api/games", data=body, content_type="application/json")
    assert response.status_code == 400
    assert "digits" in response.get_json()["error"]


def test_a_huge_integer_in_an_imported_file_is_refused_clearly(app, client):
    text = '{"players": ["Ann", "Bob"], "hands": [{"went_out": "Ann", "points": {"Bob": %s}}]}'
    response = client.post(
        "/import", data={"csrf_token": csrf(client), "text": text % ("9" * 4400)}
    )
    assert response.status_code == 422
    assert "at most 30 digits" in response.get_data(as_text=True)
    assert snapshot(app) == []


# --- the JSON API always answers JSON ---------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/games", "/api/check", "/api/hit", "/api/solve"])
def test_an_oversized_body_is_answered_in_json(client, path):
    body = '{"hand": "' + "R1 " * 30_000 + '"}'
    response = client.post(path, data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.mimetype == "application/json"
    assert "64 KB" in response.get_json()["error"]


def test_unknown_api_addresses_and_methods_are_answered_in_json(client):
    for response in (
        client.get("/api/nothing-here"),
        client.get("/api/games/no-such-game"),
        client.delete("/api/check"),
        client.open("/api/hit", method="TRACE"),
    ):
        assert response.status_code in (404, 405)
        assert response.mimetype == "application/json"
        assert response.get_json()["error"]


def test_a_crash_in_a_check_api_is_answered_in_json(tmp_path, monkeypatch):
    from scorekeeper.web.blueprints import api as check

    app = create_app({"DATABASE": str(tmp_path / "g.sqlite3"), "SECRET_KEY": "x"})

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(check, "check_phase", broken)
    response = app.test_client().get("/api/check?group=R1 R1 R1&group=B2 B2 B2")
    assert response.status_code == 500
    assert response.mimetype == "application/json"
    assert "nothing was saved" in response.get_json()["error"]


# --- limits on custom phase lists -------------------------------------------------------------

WORDY = "set of 2 + run of 2 + 2 of one colour + set of 2 + run of 2 + 2 of one colour"


def test_a_phase_offers_at_most_four_choices(app, client):
    phase = " or ".join(["set of 3"] * 5)
    response = client.post(
        "/api/games", json={"players": ["Ann", "Bob"], "options": {"custom_phases": phase}}
    )
    assert response.status_code == 422
    assert "at most 4 choices joined by 'or', not 5" in response.get_json()["error"]
    assert snapshot(app) == []


def test_a_huge_custom_phase_list_is_refused_clearly(client):
    text = "; ".join(["set of 3"] * 3000)
    response = client.post(
        "/api/games", json={"players": ["Ann", "Bob"], "options": {"custom_phases": text}}
    )
    assert response.status_code == 422
    assert "at most 10000 characters" in response.get_json()["error"]


@pytest.mark.parametrize("size", ["letter", "a4"])
@pytest.mark.printing
def test_the_longest_allowed_custom_list_still_prints(client, size):
    phases = "; ".join([" or ".join([WORDY] * 4)] * 30)
    response = client.post(
        "/api/games", json={"players": ["Ann", "Bob"], "options": {"custom_phases": phases}}
    )
    assert response.status_code == 201
    game_id = response.get_json()["id"]
    for kind in ("phase-cards", "score-sheet"):
        pdf = client.get(f"/v/{game_id}/print/{kind}.pdf?size={size}")
        assert pdf.status_code == 200
        pages = PdfReader(io.BytesIO(pdf.data)).pages
        assert "Ann" in "".join(page.extract_text() for page in pages) or kind == "phase-cards"


# --- rate limits ------------------------------------------------------------------------------


@pytest.fixture
def limited(tmp_path):
    return create_app(
        {
            "DATABASE": str(tmp_path / "g.sqlite3"),
            "SECRET_KEY": "x",
            "SERVER_NAME": "table.test",
            "RATE_LIMIT_CREATE": "3 per minute",
            "RATE_LIMIT_CHECK": "5 per minute",
        }
    )


def test_one_address_cannot_create_games_without_end(limited):
    client = limited.test_client()
    for _ in range(2):
        assert client.post("/api/games", json={"players": ["Ann", "Bob"]}).status_code == 201
    new_game(client)  # the form counts too
    refused = client.post("/api/games", json={"players": ["Ann", "Bob"]})
    assert refused.status_code == 429
    assert refused.mimetype == "application/json"
    assert "Too many requests" in refused.get_json()["error"]
    assert refused.headers["Retry-After"]
    form = {"csrf_token": csrf(client), "player-0": "Ann", "player-1": "Bob", "dealer": "0"}
    page = client.post("/new", data=form)
    assert page.status_code == 429
    assert "Wait a minute" in page.get_data(as_text=True)
    assert len(snapshot(limited)) == 6  # three games, one change each
    assert client.get("/new").status_code == 200  # looking at the form is not creating


def test_the_check_apis_are_rate_limited_in_json(limited):
    client = limited.test_client()
    answers = [client.get("/api/check?group=R1 R2").status_code for _ in range(6)]
    assert answers[:5] == [200] * 5 and answers[5] == 429
    assert client.post("/api/solve", json={"hand": "R1"}).get_json()["error"]


# --- a game's history is bounded -------------------------------------------------------------


def test_a_games_history_stops_growing_at_its_cap_with_a_clear_message(app, client, monkeypatch):
    from scorekeeper import actions

    monkeypatch.setattr(actions.saving, "MAX_CHANGES", 4)
    created = api_game(client)
    hands = local(created["hands_url"])
    for number in (1, 2, 3):
        response = client.post(hands, json={"hand_number": number, "hand": HAND})
        assert response.status_code == 201
    before = snapshot(app)
    refused = client.post(hands, json={"hand_number": 4, "hand": HAND})
    assert refused.status_code == 422
    assert "the most one game keeps" in refused.get_json()["error"]
    url = local(created["edit_url"])
    page = client.post(f"{url}/undo", data={"csrf_token": csrf(client), "version": "4"})
    assert page.status_code in (409, 422)
    assert "the most one game keeps" in page.get_data(as_text=True)
    assert snapshot(app) == before


# --- a damaged undo_to (issue 32) --------------------------------------------------------------


@pytest.mark.parametrize("flipped", [999, 2, 0, -7])
def test_a_damaged_undo_target_is_a_clear_refusal_not_a_500_forever(app, client, flipped):
    """The latest change says which version Undo goes back to; a flipped bit there (999, the
    version itself, one that never existed) made every Undo answer 500."""
    url = one_hand_played(client)  # version 2: the game, then its first hand
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        conn.execute("UPDATE changes SET undo_to = ? WHERE version = 2", (flipped,))
    before = snapshot(app)
    response = client.post(f"{url}/undo", data={"csrf_token": csrf(client), "version": "2"})
    assert response.status_code == 409
    assert "Undo cannot step back" in response.get_data(as_text=True)
    assert snapshot(app) == before
    restored = f"{url}/history/1/restore"
    again = client.post(restored, data={"csrf_token": csrf(client), "version": "2"})
    assert again.status_code == 303  # the history's own restore still works
