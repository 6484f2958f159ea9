"""A club night through its pages: started from a table, run by the table's link, watched
by its own link and short code, refused clearly when the form is wrong."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from flask import template_rendered
from printed import words as pdf_words
from webpage import read
from webutil import csrf, new_table, plain_names, record, table_game

from scorekeeper import codes

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed"]


def start_night(client, table_url, players=PLAYERS, newcomers="", **choices) -> str:
    data = {
        "csrf_token": csrf(client),
        "name": "Thursday",
        "player": players,
        "newcomers": newcomers,
        "rounds": "2",
        "profile": "ten-hands",
        "mode": "new_opponents",
        "scheme": "placement",
        **choices,
    }
    response = client.post(f"{table_url}/nights/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


@pytest.fixture
def table_url(client) -> str:
    url = new_table(client, "Thursday club")
    for players in (PLAYERS[:3], PLAYERS[3:]):  # the roster: from games played before
        table_game(client, url, players=players)
    return url


def keeper_links(page: str) -> list[str]:
    return read(page).links("a.keep-score")


def seating(page: str) -> list[list[str]]:
    """Each table's names in seat order, as the page lists them."""
    return [table.texts("span.seat > bdi") for table in read(page).select("li.night-table")]


def read_only_link(page: str) -> str:
    """The night's read-only link (its path), as the organiser's page gives it to copy."""
    (link,) = read(page).copy_links
    assert link.startswith("http://table.test/e/"), link
    return link.removeprefix("http://table.test")


def leaderboard(page: str) -> dict[str, str]:
    return dict(read(page).leaderboard)


def test_the_table_page_offers_a_night_with_its_roster_ticked(client, table_url):
    page = client.get(table_url).get_data(as_text=True)
    assert "Start a night" in page
    form = client.get(f"{table_url}/nights/new").get_data(as_text=True)
    ticked = read(form).checked("player")
    for name in PLAYERS:
        assert name in ticked
    assert "#night" in form  # rule 11 on the rules page


def test_a_night_is_seated_started_and_each_table_gets_its_scorekeeper_link(client, table_url):
    url = start_night(client, table_url, newcomers="Flo\n")
    shown = client.get(url).get_data(as_text=True)
    page = plain_names(shown)
    assert "Round 1 of 2: seated" in page and "(deals)" in page
    tables = seating(shown)
    assert sorted(len(t) for t in tables) == [3, 3]
    assert sorted(n for t in tables for n in t) == sorted([*PLAYERS, "Flo"])
    started = client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    assert started.status_code == 303
    shown = client.get(url).get_data(as_text=True)
    page = plain_names(shown)
    links = keeper_links(shown)
    assert len(links) == 2 and "Round 1 of 2: playing" in page
    assert seating(shown) == tables  # as seated, seat 1 dealing
    game = client.get(links[0]).get_data(as_text=True)
    assert "Ten hands" in game
    listed = client.get(table_url).get_data(as_text=True)
    assert "Thursday" in listed and url.split("table.test")[-1] in listed


def test_the_read_only_link_and_the_code_say_where_a_player_sits(client, table_url):
    url = start_night(client, table_url)
    organiser = client.get(url).get_data(as_text=True)
    view = read_only_link(organiser)
    code = read(organiser).one("section.share p strong").text  # "... and type CODE"
    assert codes.normalise(code) is not None
    opened = client.get(f"/{code.lower()}")
    assert opened.status_code == 303 and opened.headers["Location"].endswith(view)
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    tables = seating(client.get(url).get_data(as_text=True))
    number, seat = next((i, t.index("Cy") + 1) for i, t in enumerate(tables, 1) if "Cy" in t)
    mine = plain_names(client.get(f"{view}?player=Cy").get_data(as_text=True))
    assert f"Round 1: go to table {number}, seat {seat}" in mine
    reopened = client.get(f"/{code.lower()}", follow_redirects=True)  # the code typed again
    again = plain_names(reopened.get_data(as_text=True))
    assert f"Round 1: go to table {number}, seat {seat}" in again  # the phone remembers Cy
    assert read(again).checked("player") == ["Cy"]
    assert "/g/" not in mine and "csrf_token" not in mine  # read only: no scorekeeper link
    tv = plain_names(client.get(f"{view}/tv").get_data(as_text=True))
    assert "Leaderboard" in tv and len(read(tv).select(".card.night-game")) == 2


def test_the_leaderboard_follows_a_game_finished_through_the_form(client, table_url):
    url = start_night(client, table_url)  # 5 players: tables of 3 and 2
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    page = client.get(url).get_data(as_text=True)
    first_table = seating(page)[0]
    link = keeper_links(page)[0].replace("http://table.test", "")
    for hand in range(1, 11):
        response = record(client, link, hand, went_out=0, points={1: 50, 2: 60})
        assert response.status_code == 303, response.get_data(as_text=True)
    points = leaderboard(client.get(url).get_data(as_text=True))
    assert [points[name] for name in first_table] == ["120", "60", "0"]
    game_id = link.split("/")[2]
    play = client.get(f"/v/{game_id}/bgstats.json")  # each game still logs to BG Stats
    assert play.status_code == 200 and len(json.loads(play.data)["players"]) == 3
    figures = read(client.get(f"{table_url}/stats").get_data(as_text=True))
    winner = figures.one(f'tr[data-player="{first_table[0]}"]')
    assert winner.texts("td") == ["1", "1", "120.0"]
    assert client.post(f"{url}/seat", data={"csrf_token": csrf(client)}).status_code == 303
    page = plain_names(client.get(url).get_data(as_text=True))
    assert "Round 1 of 2: playing" in page  # the other table plays on: no round 2 yet
    assert "not all finished" in page


def test_a_player_leaves_and_a_late_one_arrives_between_rounds(client, table_url):
    url = start_night(client, table_url)
    token = csrf(client)
    client.post(f"{url}/players", data={"csrf_token": token, "action": "leave", "name": "Ed"})
    client.post(f"{url}/players", data={"csrf_token": token, "action": "arrive", "name": "Gus"})
    shown = client.get(url).get_data(as_text=True)
    page = plain_names(shown)
    names = sorted(n for t in seating(shown) for n in t)
    assert names == sorted(["Ann", "Bob", "Cy", "Di", "Gus"])
    assert "(left)" in page
    history = page.split('id="night-history"')[1]
    for words in ("The night began with 5 players", "Ed left", "Gus arrived"):
        assert words in history
    assert history.count("Round 1 seated: At random") == 3  # seated, then again twice


@pytest.mark.parametrize(
    ("change", "status", "words"),
    [
        ({"rounds": "many"}, 422, "how many rounds"),
        ({"rounds": "99"}, 422, "1 to 20 rounds"),
        ({"mode": "chaos"}, 400, "does not say"),
        ({"player": [], "newcomers": "Solo"}, 422, "at least 2 players"),
        ({"newcomers": "<b>Ann</b>\n" + "x" * 50}, 422, ""),
    ],
)
def test_a_wrong_form_is_refused_with_words_and_keeps_what_was_typed(
    client, table_url, change, status, words
):
    data = {
        "csrf_token": csrf(client),
        "name": "Thursday",
        "player": PLAYERS,
        "rounds": "2",
        "profile": "official",
        "mode": "random",
        "scheme": "cumulative",
        **change,
    }
    response = client.post(f"{table_url}/nights/new", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == status and words in page
    assert "<b>Ann" not in page


def test_a_night_needs_the_tables_link_and_a_form_its_csrf_token(client, table_url):
    url = start_night(client, table_url)
    night_id = url.rsplit("/", 1)[1]
    assert client.get(f"/t/not-a-table/nights/{night_id}").status_code == 404
    other = new_table(client, "Another club")
    assert client.get(f"{other}/nights/{night_id}").status_code == 404
    assert client.get("/e/not-a-night").status_code == 404
    assert client.post(f"{url}/start", data={}).status_code == 400
    wrong = client.post(f"{url}/seat", data={"csrf_token": csrf(client), "mode": "chaos"})
    assert wrong.status_code == 400 and "does not say" in wrong.get_data(as_text=True)


def live_tag(page: str) -> str:
    return read(page).live("#night-live")["If-None-Match"]


def test_the_room_screen_waits_on_the_night_and_wakes_for_its_games(client, table_url):
    url = start_night(client, table_url)
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    organiser = client.get(url).get_data(as_text=True)
    view = read_only_link(organiser)
    page = client.get(f"{view}/tv").get_data(as_text=True)
    tag = live_tag(page)
    poll = {"HX-Request": "true", "If-None-Match": tag}
    assert client.get(f"{view}/tv", headers=poll).status_code == 304
    link = keeper_links(organiser)[0].replace("http://table.test", "")
    assert record(client, link, 1, went_out=0, points={1: 50, 2: 60}).status_code == 303
    woken = client.get(f"{view}/tv", headers=poll)
    assert woken.status_code == 200 and "HX-Request" in woken.headers["Vary"]
    fragment = woken.get_data(as_text=True)
    assert fragment.lstrip().startswith('<div id="night-live"') and "hand 2" in fragment
    assert live_tag(fragment) != tag


def test_a_hand_is_rendered_once_for_every_players_phone_of_the_night(app, client, table_url):
    """Each phone follows its own name, but the round and the leaderboard are the same for
    all: after a hand they are rendered once, and each phone adds only where it sits."""
    url = start_night(client, table_url)
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    organiser = client.get(url).get_data(as_text=True)
    view = read_only_link(organiser)
    link = keeper_links(organiser)[0].replace("http://table.test", "")
    assert record(client, link, 1, went_out=0, points={1: 50, 2: 60}).status_code == 303
    rendered: list[str] = []

    def count(sender, template, context, **extra):
        rendered.append(template.name)

    with template_rendered.connected_to(count, app):
        phones = {
            name: client.get(f"{view}?player={name}", headers={"HX-Request": "true"})
            for name in PLAYERS
        }
    assert rendered.count("_night_view_shared.html") == 1
    assert rendered.count("_night_view.html") == len(PLAYERS)
    tables = seating(organiser)
    places = {
        name: (t, seat) for t, seats in enumerate(tables, 1) for seat, name in enumerate(seats, 1)
    }
    for name, phone in phones.items():  # each phone still says where its player sits
        said = read(phone.get_data(as_text=True)).one("p.lead strong").text
        assert said == "Round 1: go to table {}, seat {}".format(*places[name])


def test_a_tables_backup_keeps_its_nights_and_an_import_brings_them_back(app, client, table_url):
    url = start_night(client, table_url)
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    page = client.get(url).get_data(as_text=True)
    link = keeper_links(page)[0].replace("http://table.test", "")
    for hand in range(1, 11):
        record(client, link, hand, went_out=0, points={1: 50, 2: 60})
    client.post(
        f"{url}/players", data={"csrf_token": csrf(client), "action": "leave", "name": "Di"}
    )
    board = read(page).leaderboard
    before = client.get(url).get_data(as_text=True)
    backup = client.get(f"{table_url}/export.zip").data
    with zipfile.ZipFile(io.BytesIO(backup)) as zf:
        (night,) = json.loads(zf.read("table.json"))["nights"]
    assert night["played"][0]["games"] and night["players"][3] == {"name": "Di", "here": False}
    other = app.test_client()
    response = other.post(
        "/tables/import",
        data={"csrf_token": csrf(other), "file": (io.BytesIO(backup), "phase10-table.zip")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303, response.get_data(as_text=True)
    imported = other.get(response.headers["Location"]).get_data(as_text=True)
    (night_url,) = read(imported).links("#nights a.game-link")
    assert night_url.rsplit("/", 1)[1] != url.rsplit("/", 1)[1]  # a new link
    after = other.get(night_url).get_data(as_text=True)
    assert seating(after) == seating(before) and board  # seated the same
    assert read(after).leaderboard == read(before).leaderboard
    assert "(left)" in plain_names(after)


def test_the_number_of_tables_may_be_asked_and_a_wrong_one_is_explained(client, table_url):
    url = start_night(client, table_url, tables="2")
    assert sorted(len(t) for t in seating(client.get(url).get_data(as_text=True))) == [2, 3]
    token = csrf(client)
    client.post(f"{url}/seat", data={"csrf_token": token, "tables": "1"})
    shown = client.get(url).get_data(as_text=True)
    assert "5 players sit at 1 to 2 tables" not in plain_names(shown)  # 5 at one: within the rule
    assert [len(t) for t in seating(shown)] == [5]
    client.post(f"{url}/seat", data={"csrf_token": token, "tables": "3"})
    shown = client.get(url).get_data(as_text=True)
    assert "5 players sit at 1 to 2 tables, not 3" in plain_names(shown)
    assert [len(t) for t in seating(shown)] == [5]
    client.post(f"{url}/seat", data={"csrf_token": token, "tables": "many"})
    assert "Type how many tables" in client.get(url).get_data(as_text=True)
    refused = client.post(
        f"{table_url}/nights/new",
        data={
            "csrf_token": token,
            "player": PLAYERS,
            "rounds": "2",
            "tables": "x",
            "mode": "random",
        }
        | {"scheme": "placement", "profile": "official", "name": "N"},
    )
    assert refused.status_code == 422 and "Type how many tables" in refused.get_data(as_text=True)


def test_the_nights_printables_are_its_seating_and_standings_read_back(client, table_url):
    """From the night's read-only link: each seated round's cards (every table's seats, its
    watch code once started) and the standings, as the pages show them."""
    url = start_night(client, table_url)
    organiser = client.get(url).get_data(as_text=True)
    view = read_only_link(organiser)
    assert f"{view}/print/seating-1.pdf?size=a4" in read(organiser).links()
    assert client.get(f"{view}/print/standings.pdf").status_code == 404  # nothing played yet
    seated = client.get(f"{view}/print/seating-1.pdf")
    assert seated.status_code == 200 and seated.mimetype == "application/pdf"
    before = pdf_words(seated.data)
    tables = seating(organiser)
    for number, seats in enumerate(tables, 1):
        assert f"Table {number}" in before or f"Table{number}" in before.replace(" ", "")
        assert all(name in before for name in seats)
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    page = client.get(url).get_data(as_text=True)
    link = keeper_links(page)[0].replace("http://table.test", "")
    started = pdf_words(client.get(f"{view}/print/seating-1.pdf").data).replace(" ", "")
    watch = read(page).watch_codes
    assert len(watch) == len(tables)
    for code in watch:  # grouped as on the page, or as the sheets group it
        assert codes.normalise(code) is not None
        assert code.replace("-", "") in started.replace("-", "")
    for hand in range(1, 11):
        record(client, link, hand, went_out=0, points={1: 50, 2: 60})
    sheet = client.get(f"{view}/print/standings.pdf?size=a4")
    assert sheet.status_code == 200
    text = pdf_words(sheet.data)
    first = seating(page)[0]
    assert "after 1 round" in text and in_order(text, first[0], first[1], first[2])
    assert client.get(f"{view}/print/seating-3.pdf").status_code == 404
    assert client.get(f"{view}/print/seating-1.pdf?size=poster").status_code == 400


def in_order(text: str, *parts: str) -> bool:
    at = 0
    for part in parts:
        at = text.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True
