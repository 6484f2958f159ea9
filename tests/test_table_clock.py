"""One clock per table (issue 41, finding 3): a table, and a game in no table, has a time zone,
defaulted from the phone that started it and set on its page. Its records are dated on it
whoever asks (a New York game read in Berlin, in Tokyo, or on a phone that never said its
zone); a live screen shows the phone's own clock, and the table's on a phone that never
said, never UTC.

The store's clock is the ``clock`` fixture; each phone's zone is its cookie, as app.js keeps
it; the server's zone is UTC unless a test sets another.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
import zipfile
from urllib.parse import urlsplit

import pytest
from printed import words
from webpage import Page, read
from webutil import csrf, new_game, new_table, record, table_game

from scorekeeper import create_app, store

NIGHT = "2026-12-07T01:36:18+00:00"  # Dec 6, 8:36 PM in New York; Dec 7 in Berlin and Tokyo
ZONES = ("America/New_York", "Europe/Berlin", "Asia/Tokyo")


def _phone(app, zone: str | None = None):
    """A phone of its own (its own cookies), in ``zone`` (None: it never said its zone)."""
    client = app.test_client()
    if zone:
        client.set_cookie("tz", zone, domain="table.test")
    return client


def _finished_game(phone, table_url: str | None = None) -> str:
    """A one-phase game (at the table, if given), played to its end: Ana makes the phase."""
    if table_url:
        url = table_game(phone, table_url, players=("Ana", "Bob"), first="1")
    else:
        url = new_game(phone, players=("Ana", "Bob"), first="1")
    assert record(phone, url, 1, went_out=0, points={1: 50}).status_code in (200, 303)
    return url


def _records(reader, table_url: str | None, game_url: str) -> dict[str, object]:
    """Every record of the game that ``reader`` can ask for, where it gives the date."""
    game_id = game_url.split("/")[2]
    history = read(reader.get(f"{game_url}/history").text)
    found: dict[str, object] = {
        "history": re.findall(r"\d+/\d+/\d+, \d+:\d+\W?[AP]M", history.text),
        "bgstats": reader.get(f"/v/{game_id}/bgstats.json").get_json()["playDate"],
        "sheet": re.search(
            r"Played on .*?\)", words(reader.get(f"/v/{game_id}/print/score-sheet.pdf").data)
        ).group(0),
    }
    if table_url:
        listed = read(reader.get(table_url).text)
        found["table page"] = _dates(listed, ".game-list span", "{date} · winner")
        stats = read(reader.get(f"{table_url}/stats").text)
        found["statistics"] = _dates(stats, "dd", "points on {date}")
        with zipfile.ZipFile(io.BytesIO(reader.get(f"{table_url}/export.zip").data)) as backup:
            rows = csv.DictReader(io.StringIO(backup.read("hands.csv").decode()))
            found["hands.csv"] = sorted({row["date"] for row in rows})
    return found


def _dates(page: Page, lines: str, words: str) -> list[str]:
    """The dates (<time>) that the page's ``lines`` show beside ``words`` ("{date} · winner"),
    in the page's order."""
    return [
        time.text
        for line in page.select(lines)
        for time in line.select("time")
        if words.format(date=time.text) in line.text
    ]


NEW_YORK_RECORDS = {
    "history": ["12/6/26, 8:36\u202fPM"] * 2,  # the hand, and the game's start
    "bgstats": "2026-12-06 20:36:18",
    "sheet": "Played on Sunday, December 6, 2026 at 8:36 PM (America/New_York)",
    "table page": ["Dec 6, 2026"],
    "statistics": ["Dec 6, 2026"] * 2,
    "hands.csv": ["2026-12-06"],
}


def test_a_tables_records_are_on_its_own_clock_whoever_asks(app, clock):
    """The issue's evening: the game was played on Dec 6 at 8:36 PM in New York. Berlin's and
    Tokyo's phones, and a phone that never said its zone, read the same records: Tokyo's PDF
    said December 7, BG Stats logged Dec 7 from Tokyo or Berlin, hands.csv followed whoever
    downloaded it, a phone without the cookie read UTC."""
    clock.at = NIGHT
    new_york = _phone(app, "America/New_York")
    table = new_table(new_york)
    game = _finished_game(new_york, table)
    readers = (*ZONES, None)
    found = {zone: _records(_phone(app, zone), table, game) for zone in readers}
    assert found == dict.fromkeys(readers, NEW_YORK_RECORDS)


@pytest.mark.parametrize(
    ("zone", "started"),
    [
        ("America/New_York", "12/6/26, 8:36\u202fPM"),
        ("Europe/Berlin", "12/7/26, 2:36\u202fAM"),
        ("Asia/Tokyo", "12/7/26, 10:36\u202fAM"),
        (None, "12/7/26, 10:36\u202fAM"),  # a phone that never said: the table's, not UTC
    ],
)
def test_a_screen_shows_the_phones_own_clock_else_the_tables(app, clock, zone, started):
    clock.at = NIGHT
    tokyo = _phone(app, "Asia/Tokyo")
    table = new_table(tokyo)
    game = table_game(tokyo, table, players=("Ana", "Bob"))
    game_id = game.split("/")[2]
    reader = _phone(app, zone)
    screen = urlsplit(read(tokyo.get(table).text).link("Open the table screen")).path
    assert screen.startswith("/tv/"), screen
    for page in (f"/v/{game_id}", screen, game):
        assert f"Started {started}" in reader.get(page).text, page


def test_a_table_takes_the_clock_of_the_phone_that_starts_it_else_the_servers(tmp_path, clock):
    clock.at = NIGHT
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "g.sqlite3"),
            "SECRET_KEY": "x",
            "SERVER_NAME": "table.test",
            "POLL_HOLD": 0,
            "TIME_ZONE": "Europe/Berlin",  # SCOREKEEPER_TIME_ZONE, as a container passes it
        }
    )
    tokyo_table = new_table(_phone(app, "Asia/Tokyo"))
    plain_table = new_table(_phone(app))  # JavaScript off: no zone said
    database = store.connection.connect(app.config["DATABASE"])
    zones = {
        url: store.tables.get_table(database, url.split("/")[-1]).time_zone
        for url in (tokyo_table, plain_table)
    }
    assert zones == {tokyo_table: "Asia/Tokyo", plain_table: "Europe/Berlin"}
    page = _phone(app).get(plain_table).text
    assert "Berlin, Germany" in page


def test_a_tables_clock_is_set_on_its_page(app, clock):
    clock.at = NIGHT
    new_york = _phone(app, "America/New_York")
    table = new_table(new_york)
    game = _finished_game(new_york, table)
    tokyo = _phone(app, "Asia/Tokyo")
    page = tokyo.get(table).text
    assert "New York, United States" in page
    assert "Use this phone's: Tokyo, Japan" in html.unescape(page)
    choices = tokyo.get(f"{table}/clock").text
    assert '<option value="America/New_York" selected>' in choices
    assert '<option value="Asia/Tokyo">Tokyo, Japan</option>' in choices

    changed = tokyo.post(f"{table}/clock", data={"csrf_token": csrf(tokyo), "zone": "Asia/Tokyo"})
    assert changed.status_code == 303 and changed.headers["Location"].endswith(table)
    assert "This table’s time zone is now Tokyo, Japan." in tokyo.get(table).text.replace(
        "&#39;", "’"
    )
    found = _records(_phone(app, "America/New_York"), table, game)
    assert found["bgstats"] == "2026-12-07 10:36:18"
    assert found["hands.csv"] == ["2026-12-07"]
    assert found["table page"] == ["Dec 7, 2026"]


@pytest.mark.parametrize("zone", ["Mars/Olympus", "", "../../etc/passwd", "x" * 300])
def test_a_zone_that_is_no_zone_is_refused_with_the_reason(app, clock, zone):
    phone = _phone(app, "Europe/Berlin")
    table = new_table(phone)
    refused = phone.post(f"{table}/clock", data={"csrf_token": csrf(phone), "zone": zone})
    assert refused.status_code == 422
    assert "is not a time zone this app knows. Pick one from the list." in refused.text
    database = store.connection.connect(phone.application.config["DATABASE"])
    assert store.tables.get_table(database, table.split("/")[-1]).time_zone == "Europe/Berlin"


def test_a_game_in_no_table_has_its_own_clock_until_it_joins_a_table(app, clock):
    clock.at = NIGHT
    tokyo = _phone(app, "Asia/Tokyo")
    game = _finished_game(tokyo)
    new_york = _phone(app, "America/New_York")
    assert _records(new_york, None, game)["bgstats"] == "2026-12-07 10:36:18"
    assert "Tokyo, Japan" in new_york.get(game).text  # its page says its clock...
    form = {"csrf_token": csrf(new_york), "zone": "America/New_York"}
    assert new_york.post(f"{game}/clock", data=form).status_code == 303  # ...and sets it
    assert _records(tokyo, None, game) == {
        "history": ["12/6/26, 8:36\u202fPM"] * 2,
        "bgstats": "2026-12-06 20:36:18",
        "sheet": "Played on Sunday, December 6, 2026 at 8:36 PM (America/New_York)",
    }

    berlin = _phone(app, "Europe/Berlin")
    table = new_table(berlin)
    moved = berlin.post(f"{table}/games", data={"csrf_token": csrf(berlin), "link": game})
    assert moved.status_code == 303
    assert _records(tokyo, table, game)["bgstats"] == "2026-12-07 02:36:18"  # the table's
    assert "Time zone" not in berlin.get(game).text.split('id="rules-line"')[1]
    assert berlin.get(f"{game}/clock").status_code == 404  # set on the table's page


def test_a_rematch_and_a_nights_games_keep_the_clock_they_were_started_on(app, clock):
    clock.at = NIGHT
    tokyo = _phone(app, "Asia/Tokyo")
    game = _finished_game(tokyo)
    berlin = _phone(app, "Europe/Berlin")
    rematch = berlin.post(f"{game}/rematch", data={"csrf_token": csrf(berlin)})
    database = store.connection.connect(app.config["DATABASE"])
    started = rematch.headers["Location"].split("/")[2]
    assert store.games.get_game(database, started).time_zone == "Asia/Tokyo"


def test_a_tables_backup_keeps_its_clock(app, clock):
    clock.at = NIGHT
    new_york = _phone(app, "America/New_York")
    table = new_table(new_york)
    _finished_game(new_york, table)
    backup = new_york.get(f"{table}/export.zip").data
    with zipfile.ZipFile(io.BytesIO(backup)) as opened:
        assert json.loads(opened.read("table.json"))["time_zone"] == "America/New_York"
    berlin = _phone(app, "Europe/Berlin")
    imported = berlin.post(
        "/tables/import",
        data={"csrf_token": csrf(berlin), "file": (io.BytesIO(backup), "backup.zip")},
    )
    assert imported.status_code == 303
    assert "New York, United States" in berlin.get(imported.headers["Location"]).text


def test_a_table_from_before_tables_had_a_clock_is_on_the_servers(app, clock):
    clock.at = NIGHT
    phone = _phone(app, "Asia/Tokyo")
    table = new_table(phone)
    game = _finished_game(phone, table)
    database = store.connection.connect(app.config["DATABASE"])
    with store.connection.transaction(database):
        database.execute("UPDATE tables SET time_zone = NULL")  # as the migration leaves it
    assert _records(_phone(app, "Asia/Tokyo"), table, game)["bgstats"] == "2026-12-07 01:36:18"
