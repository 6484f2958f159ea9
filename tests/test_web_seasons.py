"""A season through its pages: started from a table's link, chosen when a night starts,
nights moved between seasons, the board, ratings and a player's nights on the players'
read-only link, the standings printed and the results as CSV (formula-safe)."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest
from printed import words as pdf_words
from test_web_nights import keeper_links, read_only_link, seating
from webpage import read
from webutil import csrf, new_table, plain_names, record

from scorekeeper import i18n

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


@pytest.fixture
def table_url(client, clock) -> str:
    return new_table(client, "Thursday club")


def new_season(client, table_url, **choices) -> str:
    data = {
        "csrf_token": csrf(client),
        "name": "Spring",
        "starts": "2026-11-01",
        "ends": "2027-01-31",
        "scheme": "placement",
        "best": "",
        **choices,
    }
    response = client.post(f"{table_url}/seasons", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].replace("http://table.test", "")


def start_night(client, table_url, players=PLAYERS, **choices) -> str:
    data = {
        "csrf_token": csrf(client),
        "name": "Thursday",
        "newcomers": "\n".join(players),
        "rounds": "1",
        "tables": "2",  # two tables of two
        "profile": "ten-hands",
        "mode": "random",
        "scheme": "placement",
        **choices,
    }
    response = client.post(f"{table_url}/nights/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].replace("http://table.test", "")


def play_round(client, night_url, order=sorted) -> dict[str, int]:
    """Start the seated round and finish every table's ten hands, ``order`` placing them;
    each player's points for their place (two players a table: 120 or 0)."""
    assert client.post(f"{night_url}/start", data={"csrf_token": csrf(client)}).status_code == 303
    page = plain_names(client.get(night_url).get_data(as_text=True))
    tables = seating(page)
    assert all(len(table) == 2 for table in tables)
    for table, link in zip(tables, keeper_links(page), strict=True):
        ranked = order(table)
        points = {table.index(n): 50 + 10 * i for i, n in enumerate(ranked) if i}
        for hand in range(1, 11):
            response = record(client, link, hand, table.index(ranked[0]), points)
            assert response.status_code == 303, response.get_data(as_text=True)
    return {name: 120 if i == 0 else 0 for t in tables for i, name in enumerate(order(t))}


def view_link(page: str) -> str:
    """The season's read-only link (its path), as the organiser's page gives it to copy."""
    (link,) = read(page).copy_links
    assert link.startswith("http://table.test/s/"), link
    return link.removeprefix("http://table.test")


def board(page: str) -> dict[str, tuple[str, ...]]:
    """The season's board: each player's cells (place, points, nights, games, score)."""
    rows = read(page).select("#season-board tr[data-player]")
    return {row["data-player"]: tuple(row.texts("td")) for row in rows}


def test_a_season_is_started_chosen_for_a_night_and_adds_it_up(client, table_url):
    assert "/seasons" in client.get(table_url).get_data(as_text=True)
    season_url = new_season(client, table_url, best="1")
    form = client.get(f"{table_url}/nights/new").get_data(as_text=True)
    season_id = season_url.rsplit("/", 1)[1]
    assert f'<option value="{season_id}" selected>Spring</option>' in form  # today is in it
    first = start_night(client, table_url, season=season_id)
    one = play_round(client, first)
    second = start_night(client, table_url, season=season_id)
    two = play_round(client, second, order=lambda t: sorted(t, reverse=True))
    night_page = plain_names(client.get(second).get_data(as_text=True))
    assert "This night counts for Spring" in night_page
    page = plain_names(client.get(season_url).get_data(as_text=True))
    rows = board(page)
    assert set(rows) == set(PLAYERS)
    for name, (_place, points, nights, games, score) in rows.items():  # best 1: the better
        best = max(one[name], two[name])  # night, and its total score: what decides a tie
        total = "0" if best else "600"  # a winner 0, a loser ten hands of 60
        assert (points, nights, games, score) == (str(best), "1 of 2", "1", total)
    public = view_link(page)
    shown = plain_names(client.get(public).get_data(as_text=True))
    assert board(shown) == rows
    assert "about 25" not in shown or "give or take" in shown
    assert "csrf_token" not in shown and "/t/" not in shown  # read only: no table link
    player = plain_names(client.get(f"{public}/player?name=Ann").get_data(as_text=True))
    assert player.count("Thursday") == 2 and "(not counted)" in player
    assert "Rating: about" in player
    assert client.get(f"{public}/player?name=Zed").status_code == 404


def test_a_night_moves_between_seasons_by_the_tables_link(client, table_url):
    spring = new_season(client, table_url)
    autumn = new_season(client, table_url, name="Autumn")
    night = start_night(client, table_url, season=spring.rsplit("/", 1)[1])
    moved = client.post(
        f"{night}/season",
        data={"csrf_token": csrf(client), "season": autumn.rsplit("/", 1)[1], "back": "night"},
    )
    assert moved.status_code == 303 and moved.headers["Location"].endswith(night)
    assert "counts for Autumn" in plain_names(client.get(night).get_data(as_text=True))
    listed = plain_names(client.get(spring).get_data(as_text=True)).split('id="season-nights"')[1]
    assert "No night yet" in listed and "in Autumn" in listed
    other = new_table(client, "Another club")
    elsewhere = new_season(client, other)
    night_id = night.rsplit("/", 1)[1]
    assert client.get(f"{other}/seasons/{spring.rsplit('/', 1)[1]}").status_code == 404
    refused = client.post(
        f"{table_url}/nights/{night_id}/season",
        data={"csrf_token": csrf(client), "season": elsewhere.rsplit("/", 1)[1]},
        follow_redirects=True,
    )
    assert "There is no such season at this table" in refused.get_data(as_text=True)
    assert client.post(f"{other}/nights/{night_id}/season", data={}).status_code == 404


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"ends": "2026-10-01"}, "ends on or after the day it starts"),
        ({"starts": "next week"}, "year-month-day"),
        ({"best": "several"}, "how many nights count"),
        ({"scheme": "chaos"}, "does not say what to change"),
        ({"name": "<b>Spring</b>\u202e"}, "invisible or control"),
    ],
)
def test_a_wrong_season_form_is_refused_and_keeps_what_was_typed(client, table_url, change, words):
    data = {
        "csrf_token": csrf(client),
        "name": "Spring",
        "starts": "2026-11-01",
        "ends": "2027-01-31",
        "scheme": "placement",
        **change,
    }
    response = client.post(f"{table_url}/seasons", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and words in html.unescape(page)
    assert "<b>Spring" not in page
    if "starts" in change:
        assert 'value="next week"' in page


def test_the_season_settings_change_by_its_page(client, table_url):
    url = new_season(client, table_url)
    data = {
        "csrf_token": csrf(client),
        "name": "Winter",
        "starts": "2026-12-01",
        "ends": "2027-02-28",
        "scheme": "cumulative",
        "best": "4",
    }
    assert client.post(url, data=data).status_code == 303
    page = plain_names(client.get(url).get_data(as_text=True))
    assert "<h1>Winter</h1>" in page and "Total score" in page and "best 4 nights" in page
    bad = client.post(url, data={**data, "best": "0"})
    assert bad.status_code == 422 and "from 1 to 99" in bad.get_data(as_text=True)


def test_the_results_come_out_as_csv_safe_for_a_spreadsheet(client, table_url):
    season = new_season(client, table_url)
    night = start_night(
        client, table_url, players=["=1+1", "@Bob", "Cy", "-Di"], season=season.rsplit("/", 1)[1]
    )
    play_round(client, night)
    page = client.get(night).get_data(as_text=True)
    view = read_only_link(page)
    night_csv = client.get(f"{view}/results.csv")
    assert night_csv.status_code == 200 and night_csv.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(night_csv.get_data(as_text=True))))
    assert rows[0][:6] == ["night", "date", "round", "table", "player", "place"]
    names = {row[4] for row in rows[1:]}
    assert names == {"'=1+1", "'@Bob", "Cy", "'-Di"}
    assert all(row[1] == "2026-11-23" for row in rows[1:])
    winners = [row for row in rows[1:] if row[5] == "1"]
    assert len(winners) == 2 and all(row[7] == "120" for row in winners)
    again = client.get(f"{view}/results.csv", headers={"If-None-Match": night_csv.headers["ETag"]})
    assert again.status_code == 304
    public = view_link(client.get(season).get_data(as_text=True))
    season_csv = list(csv.reader(io.StringIO(client.get(f"{public}/results.csv").text)))
    assert season_csv[0][:4] == ["season", "place", "player", "points"]
    assert sorted(row[2] for row in season_csv[1:]) == sorted(names)
    assert all(row[9] and row[10] for row in season_csv[1:])  # a rating, give or take


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_season_standings_print_in_every_language(client, table_url, language):
    season = new_season(client, table_url, best="2")
    night = start_night(client, table_url, season=season.rsplit("/", 1)[1])
    play_round(client, night)
    public = view_link(client.get(season).get_data(as_text=True))
    client.get(f"/language/{language}")
    pdf = client.get(f"{public}/print/standings.pdf?size=a4")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    text = pdf_words(pdf.data)
    assert "Spring" in text and all(name in text for name in PLAYERS)
    with i18n.using(language):
        assert (
            i18n.ngettext(
                "Season standings after %(num)s night", "Season standings after %(num)s nights", 1
            )
            .replace("%(num)s", "1")
            .split()[0]
            in text
        )
    assert client.get(f"{public}/print/standings.pdf?size=huge").status_code == 400


def test_a_tables_backup_keeps_its_seasons_and_an_import_brings_them_back(app, client, table_url):
    spring = new_season(client, table_url, best="3")
    new_season(client, table_url, name="Empty", scheme="cumulative")
    night = start_night(client, table_url, season=spring.rsplit("/", 1)[1])
    play_round(client, night)
    start_night(client, table_url)  # in no season
    before = board(plain_names(client.get(spring).get_data(as_text=True)))
    backup = client.get(f"{table_url}/export.zip").data
    other = app.test_client()
    response = other.post(
        "/tables/import",
        data={"csrf_token": csrf(other), "file": (io.BytesIO(backup), "phase10-table.zip")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303, response.get_data(as_text=True)
    listed = other.get(response.headers["Location"] + "/seasons").get_data(as_text=True)
    found = read(listed).select("a.game-link")
    links = {a.one("strong").text: a["href"] for a in found}
    assert all(re.fullmatch(r"/t/[^/]+/seasons/[^/]+", link) for link in links.values()), links
    assert set(links) == {"Spring", "Empty"}
    page = plain_names(other.get(links["Spring"]).get_data(as_text=True))
    assert board(page) == before and "best 3 nights" in page
    assert "No night yet" in other.get(links["Empty"]).get_data(as_text=True)


def test_a_backup_with_a_damaged_season_is_refused_whole(app, client, table_url):
    import json
    import zipfile

    new_season(client, table_url)
    backup = client.get(f"{table_url}/export.zip").data
    with zipfile.ZipFile(io.BytesIO(backup)) as zf:
        files = {name: zf.read(name) for name in zf.namelist()}
    index = json.loads(files["table.json"])
    index["seasons"][0]["nights"] = [7]  # no such night
    files["table.json"] = json.dumps(index).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    response = client.post(
        "/tables/import",
        data={"csrf_token": csrf(client), "file": (io.BytesIO(out.getvalue()), "t.zip")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert "Season 1 in this backup is damaged" in response.get_data(as_text=True)


def test_the_seasons_page_keeps_itself_current_as_a_game_of_its_night_ends(client, table_url):
    season = new_season(client, table_url)
    night = start_night(client, table_url, season=season.rsplit("/", 1)[1])
    public = view_link(client.get(season).get_data(as_text=True))
    shown = read(client.get(public).get_data(as_text=True)).live("#season-live")
    poll = {"HX-Request": "true", "If-None-Match": shown["If-None-Match"]}
    assert client.get(public, headers=poll).status_code == 304  # nothing new
    play_round(client, night)
    woken = client.get(public, headers=poll)
    assert woken.status_code == 200 and "HX-Request" in woken.headers["Vary"]
    fragment = woken.get_data(as_text=True)
    assert fragment.lstrip().startswith('<div id="season-live"') and ">120<" in fragment
