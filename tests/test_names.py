"""Player names: composed and trimmed, no invisible characters, look-alikes pointed out."""

from __future__ import annotations

import csv
import io
import re
import sqlite3

import pytest
from games import tied
from webutil import csrf, new_game, record

from scorekeeper.reports import current_game
from scorekeeper.rules.gamefile import game_to_json
from scorekeeper.rules.names import (
    NameRefused,
    clean_name,
    lookalikes,
    name_problem,
    shown,
    skeleton,
    valid_name,
)

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


# --- one name rule for every name that enters ------------------------------------------

DRAWS_NOTHING = {
    "Hangul filler": "Ann\u3164",
    "halfwidth Hangul filler": "Ann\uffa0",
    "Hangul choseong filler": "\u115fAnn",
    "blank Braille pattern": "Ann\u2800",
    "only a Hangul filler": "\u3164",
    "a stray variation selector": "Ann \ufe0f",
    "a musical null notehead": "Ann\U0001d159",  # issue 32
    "an object replacement character": "Ann\ufffc",
    "only a null notehead": "\U0001d159",
}


@pytest.mark.parametrize("name", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_the_name_rule_refuses_invisible_and_control_characters(name):
    with pytest.raises(NameRefused, match="invisible or control characters .* \\(found U\\+"):
        valid_name(name)


@pytest.mark.parametrize("name", DRAWS_NOTHING.values(), ids=DRAWS_NOTHING.keys())
def test_the_name_rule_refuses_characters_that_draw_nothing(name):
    with pytest.raises(NameRefused, match="characters that draw nothing.* \\(found U\\+"):
        valid_name(name)


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("  Zoe\u0308  ", "Zoë"),
        ("José\t Luis", "José Luis"),
        ("Ann\u00a0\u3000Lee", "Ann Lee"),
        ("❤\ufe0f Ann", "❤\ufe0f Ann"),
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),
        ("שרה", "שרה"),
    ],
)
def test_the_name_rule_keeps_a_name_composed_trimmed_and_single_spaced(typed, kept):
    assert valid_name(typed) == kept


def test_the_name_rule_caps_the_length_before_doing_anything_else():
    assert valid_name("x" * 40) == "x" * 40
    with pytest.raises(NameRefused, match="at most 40 characters"):
        valid_name("x" * 41)
    with pytest.raises(NameRefused, match="at most 60 characters"):
        valid_name("x" * 10_000, most=60)
    with pytest.raises(NameRefused, match="at least one letter"):
        valid_name("\u0301\u0301")
    with pytest.raises(NameRefused, match="must be text"):
        valid_name(7)


def test_a_refused_name_is_quoted_safely_in_messages():
    assert shown("Ann\u202egnp.exe") == "Ann<U+202E>gnp.exe"
    assert shown("x" * 10_000) == "x" * 40 + "…"


def test_a_name_that_only_adds_something_invisible_is_a_look_alike():
    """Games stored before the rule may hold such names: they are pointed out."""
    assert lookalikes(["Ann", "Ann\u3164", "Bob"]) == [("Ann", "Ann\u3164")]
    assert lookalikes(["Zed", "Z\u200bed"]) == [("Zed", "Z\u200bed")]


@pytest.mark.parametrize("selector", ["\ufe0f", "\U000e0100"])
def test_a_variation_selector_after_a_letter_makes_a_look_alike(client, selector):
    """Issue 32: a variation selector draws nothing after a letter, so "Ann" and "Ann" with one
    are two players nobody at the table could tell apart. They are pointed out."""
    assert lookalikes(["Ann", "Ann" + selector]) == [("Ann", "Ann" + selector)]
    response = client.post("/api/games", json={"players": ["Ann", "Ann" + selector, "Bob"]})
    assert response.status_code == 201
    assert any("look alike" in warning for warning in response.get_json()["warnings"])


def test_a_hidden_filler_beside_the_same_name_is_refused_by_the_api(app, client):
    response = client.post("/api/games", json={"players": ["Ann", "Ann\u3164"]})
    assert response.status_code == 422
    assert "draw nothing" in response.get_json()["error"]
    assert stored_players(app) == []


@pytest.mark.parametrize("name", [*DRAWS_NOTHING.values(), "x" * 41])
def test_names_that_draw_nothing_are_refused_on_the_form(app, client, name):
    response = client.post("/new", data=form(client, name, "Bob"))
    assert response.status_code == 422
    assert stored_players(app) == []


def test_a_stored_game_with_a_name_refused_since_still_opens(app):
    """The name rule guards what enters; what was saved under the older rule stays open."""
    from scorekeeper import store

    db = store.connection.connect(app.config["DATABASE"])
    state = {"rules": "official", "options": {}, "players": ["Ann\u3164", "Bob"], "hands": []}
    state["dealer"] = "Bob"
    stored = store.games.create_game(db, state, action="create", summary="")
    assert current_game.load(db, stored.id).game.players == ("Ann\u3164", "Bob")


HOSTILE_TABLE_NAMES = {
    "right-to-left override": "Ann\u202egnp.exe",
    "zero-width space": "Z\u200bed",
    "NUL": "The\x00Smiths",
    "Hangul filler": "\u3164",
    "10,000 characters": "x" * 10_000,
}


@pytest.mark.parametrize("name", HOSTILE_TABLE_NAMES.values(), ids=HOSTILE_TABLE_NAMES.keys())
def test_a_table_name_meets_the_name_rule(app, client, name):
    from scorekeeper import store
    from scorekeeper.store import tables

    with pytest.raises(NameRefused):
        tables.create_table(store.connection.connect(app.config["DATABASE"]), name)
    response = client.post("/tables/new", data={"csrf_token": csrf(client), "name": name})
    assert response.status_code == 422
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        assert conn.execute("SELECT count(*) FROM tables").fetchone() == (0,)


@pytest.mark.parametrize("name", HOSTILE_TABLE_NAMES.values(), ids=HOSTILE_TABLE_NAMES.keys())
def test_a_roster_rename_meets_the_name_rule(app, name):
    from scorekeeper import store
    from scorekeeper.store import tables

    db = store.connection.connect(app.config["DATABASE"])
    table = tables.create_table(db, "The Smiths")
    tables.restore_roster(db, table.id, [("Ann", False), ("Bob", False)], {})
    with pytest.raises(tables.RosterError):
        tables.rename(db, table.id, "Ann", name)
    assert [p.name for p in tables.roster(db, table.id)] == ["Ann", "Bob"]


def test_a_roster_rename_to_a_look_alike_is_pointed_out(app):
    from scorekeeper import store
    from scorekeeper.store import tables

    db = store.connection.connect(app.config["DATABASE"])
    table = tables.create_table(db, "  The   Smiths ")
    assert table.name == "The Smiths"
    tables.restore_roster(db, table.id, [("Ann", False), ("Bob", False)], {})
    warnings = tables.rename(db, table.id, "Bob", "\u0410nn")
    assert warnings == [
        "\u0410nn and Ann look alike on screen: if they are different people, add an initial"
    ]


def test_right_to_left_names_stay_units_in_lists_charts_and_the_home_page(client):
    """ "محمد 300" in a chart label read "300 محمد"; "שרה, محمد" in a list swapped places."""
    names = ("שרה", "محمد", "李雷")
    url = new_game(client, players=names)
    game_id = url.split("/")[2]
    assert record(client, url, 1, 1, {0: 50, 2: 60}, made_0="1").status_code == 303
    assert record(client, url, 2, 0, {1: 20, 2: 65}, made_1="1").status_code == 303
    for address in (url, f"/v/{game_id}", "/"):
        page = client.get(address).get_data(as_text=True)
        assert_isolated(page, names[:2])  # 李雷 is written left to right: it cannot move
        assert "李雷" in page
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
    assert rows[1][-1] == "\u2068שרה\u2069, \u2068محمد\u2069, Mary Ann"
    created = client.post("/api/games", json=game_to_json(tied(55))).get_json()
    tied_csv = client.get(created["edit_url"].removeprefix("http://table.test") + "/export.csv")
    rows = list(csv.reader(io.StringIO(tied_csv.get_data(as_text=True))))
    assert rows[-2][:4] == ["tiebreak", "55", "0", ""]  # Cy sat it out: no points, not 0
