"""Player names: composed and trimmed, no invisible characters, look-alikes pointed out."""

from __future__ import annotations

import csv
import io
import re
import sqlite3

import pytest
from test_printing import tied
from webutil import csrf, new_game, record

from scorekeeper.rules.game import replay
from scorekeeper.rules.names import clean_name, lookalikes, name_problem, skeleton
from scorekeeper.web.export import export_csv

INVISIBLE = {
    "zero-width space": "An\u200bn",
    "zero-width only": "\u200b\u200b",
    "right-to-left override": "\u202eAnn",
    "NUL": "An\x00n",
    "bell": "Ann\x07",
    "line separator": "Ann\u2028Bob",
}


def stored_players(app) -> list[list[str]]:
    import json

    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return [
            json.loads(state)["players"] for (state,) in conn.execute("SELECT state FROM games")
        ]


def form(client, *names: str) -> dict:
    data = {"csrf_token": csrf(client), "profile": "official", "dealer": "0"}
    data.update({f"player-{i}": name for i, name in enumerate(names)})
    return data


@pytest.mark.parametrize("name", [n for n in INVISIBLE.values() if "\u2028" not in n])
def test_names_with_invisible_characters_are_refused_on_the_form(app, client, name):
    response = client.post("/new", data=form(client, name, "Bob"))
    assert response.status_code == 422
    assert "invisible or control characters" in response.get_data(as_text=True)
    assert stored_players(app) == []


@pytest.mark.parametrize("name", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_names_with_invisible_characters_are_refused_by_the_api(app, client, name):
    response = client.post("/api/games", json={"players": [name, "Bob"]})
    assert response.status_code == 422
    assert "invisible or control characters" in response.get_json()["error"]
    assert stored_players(app) == []


def test_an_emoji_family_is_a_fine_name():
    assert name_problem("👨\u200d👩\u200d👧") is None
    assert name_problem("Ann\u200d") is not None


def test_names_are_stored_composed_and_trimmed(app, client):
    new_game(client, players=("  Zoe\u0308  ", "José\t Luis", "Cy"))
    assert stored_players(app) == [["Zoë", "José Luis", "Cy"]]
    assert clean_name(" Zoe\u0308 ") == "Zoë"


def test_the_api_stores_names_composed_so_one_person_is_one_name(app, client):
    game = {"players": ["Zoe\u0308", "Bob"], "dealer": "Zoë"}
    response = client.post("/api/games", json=game)
    assert response.status_code == 201, response.get_json()
    assert stored_players(app) == [["Zoë", "Bob"]]


def test_look_alike_names_are_pointed_out_on_the_form(client):
    url = new_game(client, players=("Ann", "\u0410nn", "Bob"))
    page = client.get(url).get_data(as_text=True)
    assert "Ann and \u0410nn look alike on screen" in page


def test_look_alike_names_are_pointed_out_by_the_api(client):
    response = client.post("/api/games", json={"players": ["Ann", "\u0410nn"]})
    assert response.status_code == 201
    assert response.get_json()["warnings"] == [
        "Ann and \u0410nn look alike on screen: if they are different people, add an initial"
    ]
    plain = client.post("/api/games", json={"players": ["Ann", "Bob"]})
    assert plain.get_json()["warnings"] == []


def test_the_skeleton_sees_latin_cyrillic_and_greek_alike():
    assert skeleton("Ann") == skeleton("\u0410nn") == skeleton("\u0391\u039d\u039d")
    assert lookalikes(["Zoë", "Zoe", "Bob", "Rob"]) == []


def assert_isolated(page: str, names: tuple[str, ...]) -> None:
    """Every name laid out in the page's body is a unit: <bdi>, an element with dir="auto",
    or (an SVG label, where markup cannot go) Unicode's isolate marks."""
    body = page.split("<main", 1)[1]
    text = re.sub(r'"[^"]*"', '""', body)  # names in attribute values are not laid out
    for name in names:
        assert text.count(name) >= 1, name
        isolated = (
            text.count(f"<bdi>{name}</bdi>")
            + text.count(f'dir="">{name}<')
            + text.count(f"\u2068{name}\u2069")
        )
        assert text.count(name) == isolated, name


def test_names_are_isolated_so_right_to_left_names_cannot_reorder_the_page(client):
    url = new_game(client, players=("שרה", "Bob", "علي"))
    game_id = url.split("/")[2]
    for page in (client.get(url), client.get(f"/v/{game_id}")):
        assert_isolated(page.get_data(as_text=True), ("שרה", "علي"))


def test_right_to_left_names_stay_units_in_lists_charts_and_the_home_page(client):
    """ "محمد 300" in a chart label read "300 محمد"; "שרה, محمد" in a list swapped places."""
    names = ("שרה", "محمد", "李雷")
    url = new_game(client, players=names)
    game_id = url.split("/")[2]
    assert record(client, url, 1, 1, {0: 50, 2: 60}, made_0="1").status_code == 303
    assert record(client, url, 2, 0, {1: 20, 2: 65}, made_1="1").status_code == 303
    for address in (url, f"/v/{game_id}", "/"):
        page = client.get(address).get_data(as_text=True)
        assert_isolated(page, names)
    chart = client.get(url).get_data(as_text=True).split("<svg", 1)[1]
    assert "\u2068محمد\u2069 20</text>" in chart  # the line's end label: name, then total
    checked = client.post(
        f"{url}/hands/check",
        data={"csrf_token": csrf(client), "went_out": "2", "points-0": "20", "points-1": "25"},
    )
    assert "<bdi>שרה</bdi>, <bdi>محمد</bdi>" in checked.get_data(as_text=True)  # seat order


def test_the_csv_keeps_a_list_of_names_in_seat_order_and_a_tiebreak_sitter_blank(client):
    url = new_game(client, players=("שרה", "محمد", "Mary Ann"))
    record(client, url, 1, 2, {0: 20, 1: 25}, made_0="1", made_1="1")
    rows = list(csv.reader(io.StringIO(client.get(f"{url}/export.csv").get_data(as_text=True))))
    assert rows[1][-1] == "\u2068שרה\u2069, \u2068محمد\u2069, \u2068Mary Ann\u2069"
    game = tied(55)
    response = export_csv(game, replay(game))
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[-2][:4] == ["tiebreak", "55", "0", ""]  # Cy sat it out: no points, not 0
