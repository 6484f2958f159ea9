"""A game's short code, read aloud and typed: it opens the watch page, however it is typed."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from webpage import read
from webutil import csrf, new_game, new_table, table_game, watch_path

from scorekeeper import codes, create_app, store
from scorekeeper.store import tables

LIVE = {"HX-Request": "true"}


def shown_code(client, game_url: str) -> str:
    """The code the share page gives to read aloud."""
    return read(client.get(f"{game_url}/share").get_data(as_text=True)).watch_code


def main_part(response) -> str:
    return read(response.get_data(as_text=True)).one("main").text


@pytest.fixture
def game(client) -> tuple[str, str]:
    url = new_game(client)
    return url, shown_code(client, url)


@pytest.mark.parametrize(
    "typing",
    [
        lambda code: code,  # as printed: ABCD-EFGH-JKMN-PQRS
        str.lower,
        lambda code: code.replace("-", ""),
        lambda code: code.replace("-", " ").lower(),
        lambda code: code.replace("-", "\u2013"),  # an en dash, as a phone may put it
        lambda code: f"  {code.replace('-', ' - ')}  ",
    ],
    ids=["printed", "lower case", "no dashes", "spaces", "en dash", "spaced dashes"],
)
def test_the_code_opens_the_watch_page_in_any_case_and_grouping(client, game, typing):
    url, code = game
    typed = typing(code)
    for path in (f"/{typed.strip()}", f"/code?code={typed}"):
        response = client.get(path)
        assert response.status_code == 303, path
        assert response.headers["Location"] == watch_path(url), path
    assert client.get(watch_path(url)).status_code == 200


def test_look_alikes_typed_for_digits_read_as_the_digits(client, game):
    url, code = game
    typed = code.replace("0", "o").replace("1", "l")
    assert client.get(f"/code?code={typed}").headers["Location"] == watch_path(url)


def test_a_wrong_code_is_a_404_exactly_like_any_wrong_link(client, game):
    url, code = game
    wrong = "ABCD-EFGH-JKMN-PQRS" if code != "ABCD-EFGH-JKMN-PQRS" else "ABCD-EFGH-JKMN-PQRT"
    by_code = client.get(f"/{wrong}")
    by_link = client.get("/v/" + "A" * 22)
    assert by_code.status_code == by_link.status_code == 404
    assert main_part(by_code) == main_part(by_link)
    assert "no game at this link" in main_part(by_code)


def test_a_wrong_code_in_the_box_says_so_beside_it_and_keeps_what_was_typed(client):
    response = client.get("/code?code=abcd efgh jkmn pqrs")
    assert response.status_code == 404
    page = response.get_data(as_text=True)
    assert "No game has this code" in page
    assert 'value="abcd efgh jkmn pqrs"' in page and 'aria-invalid="true"' in page


@pytest.mark.parametrize("typed", ["", "ABCD-EFGH", "ABCD-EFGH-JKMN-PQRS-TVWX", "Grandma"])
def test_something_that_cannot_be_a_code_is_a_clear_422(client, typed):
    response = client.get("/code", query_string={"code": typed})
    assert response.status_code == 422
    assert "16 letters and digits" in response.get_data(as_text=True)


def test_the_home_page_box_is_a_plain_form_that_works_without_javascript(client):
    form = read(client.get("/").get_data(as_text=True)).form('form[action="/code"]')
    assert form.method == "get" and "code" in form.fields and form.element.select("button")


@pytest.mark.parametrize(
    "path", ["/new", "/import", "/rules", "/printables", "/tables/new", "/healthz", "/"]
)
def test_the_code_route_takes_no_other_page_at_the_root(client, path):
    assert client.get(path).status_code == 200


def test_a_path_that_is_not_a_code_is_the_usual_not_found(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 404
    assert "There is nothing here" in main_part(response)


@pytest.mark.printing
def test_the_code_on_the_share_page_is_the_one_printed_on_the_games_sheets(client, game):
    url, code = game
    for kind in ("score-sheet", "two-deck-guide"):
        pdf = client.get(f"{watch_path(url)}/print/{kind}.pdf")
        assert pdf.status_code == 200
        text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.data)).pages)
        printed = set(re.findall(r"http://table\.test/([0-9A-Z]{4}(?:-[0-9A-Z]{4}){3})", text))
        assert printed == {code}, kind
    db = store.connection.connect(client.application.config["DATABASE"])
    assert codes.grouped(store.games.get_game(db, url.split("/")[-2]).code) == code


def test_the_table_view_shows_the_code_to_type(client, game):
    url, code = game
    shown = read(client.get(f"{watch_path(url)}/table").get_data(as_text=True)).one("#watch-code")
    assert "http://table.test" in shown.leading_text and shown.one("strong").text == code


def test_a_tables_screen_shows_the_code_and_the_next_games_comes_with_its_poll(app, client):
    table_url = new_table(client)
    db = store.connection.connect(app.config["DATABASE"])
    screen = "/tv/" + tables.get_table(db, table_url.rsplit("/", 1)[1]).screen
    first = table_game(client, table_url)
    shown = read(client.get(screen).get_data(as_text=True)).one("p#watch-code")
    assert shown.one("strong").text == shown_code(client, first)
    assert "hx-swap-oob" not in shown
    second = table_game(client, table_url, players=("Ann", "Bob"))
    oob = read(client.get(screen, headers=LIVE).get_data(as_text=True)).one("p#watch-code")
    assert oob.get("hx-swap-oob") == "true" and oob.one("strong").text == shown_code(client, second)


@pytest.fixture
def limited(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "g.sqlite3"),
            "SECRET_KEY": "x",
            "SERVER_NAME": "table.test",
            "RATE_LIMIT_CODE": "3 per minute",
        }
    )
    yield app
    store.connection.close_all()


def test_looking_codes_up_is_rate_limited_across_the_link_and_the_box(limited):
    client = limited.test_client()
    url = new_game(client)
    code = shown_code(client, url)
    answers = [
        client.get(f"/{code}").status_code,
        client.get("/ABCD-EFGH-JKMN-PQRS").status_code,
        client.get("/code?code=ABCD-EFGH-JKMN-PQRS").status_code,
        client.get(f"/{code}").status_code,
        client.get(f"/code?code={code}").status_code,
    ]
    assert answers[:3] == [303, 404, 404] and answers[3:] == [429, 429]
    refused = client.get(f"/{code}")
    assert "Wait a minute" in refused.get_data(as_text=True)
    assert client.get(watch_path(url)).status_code == 200  # the watch link itself is not
    assert client.post("/api/games", json={"players": ["Ann", "Bob"]}).status_code == 201
    assert csrf(client)  # nor is the start page
