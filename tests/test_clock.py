"""The family's own clock (clock.py, web/language.py) and a game's playing time
(store.history.played_until): the zone is always set by the test, the time by the ``clock``
fixture."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from datetime import date

import pytest
from webutil import csrf, export, new_game, new_table, record, table_game

from scorekeeper import clock as clocks
from scorekeeper import create_app, store
from scorekeeper.web.security import SettingError

NIGHT = "2026-11-26T23:45:00+00:00"  # Thursday 23:45 UTC: Friday in Berlin, evening in New York


@pytest.mark.parametrize("name", ["Europe/Berlin", "America/New_York", "UTC", "Etc/GMT+5"])
def test_a_zone_is_read_from_its_name(name):
    found = clocks.zone(name)
    assert found is not None and str(found) == name


@pytest.mark.parametrize(
    "name", [None, "", "Mars/Olympus", "../../etc/passwd", "/etc/localtime", "Europe/Berlin\n"]
)
def test_anything_else_is_no_zone(name):
    assert clocks.zone(name) is None


def test_a_stored_time_is_shown_on_the_wall_clock_of_its_zone():
    berlin, new_york = clocks.zone("Europe/Berlin"), clocks.zone("America/New_York")
    assert berlin is not None and new_york is not None
    assert clocks.local(NIGHT, berlin).strftime("%d %H:%M") == "27 00:45"
    assert clocks.day(NIGHT, new_york) == date(2026, 11, 26)
    assert clocks.day("2026-11-26T23:45:00", berlin) == date(2026, 11, 27)  # no zone: UTC
    assert clocks.day("not a time", berlin) is None


def test_the_machines_zone_comes_from_tz_else_from_etc_localtime(monkeypatch, tmp_path):
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    assert str(clocks.machine_zone()) == "Asia/Tokyo"
    monkeypatch.delenv("TZ")
    link = tmp_path / "localtime"
    link.symlink_to("/usr/share/zoneinfo/Europe/Warsaw")
    assert str(clocks.machine_zone(link)) == "Europe/Warsaw"
    assert str(clocks.machine_zone(tmp_path / "none")) == "UTC"


def _zoned_app(tmp_path, setting: str | None):
    config = {"DATABASE": str(tmp_path / "g.sqlite3"), "SECRET_KEY": "x", "SERVER_NAME": "t.test"}
    return create_app({**config, "TESTING": True, "POLL_HOLD": 0, "TIME_ZONE": setting})


@pytest.mark.parametrize(
    ("cookie", "started"),
    [
        (None, "11/26/26, 6:45\u202fPM"),  # the server's setting
        ("Europe/Berlin", "11/27/26, 12:45\u202fAM"),  # the phone's own
        ("Nowhere/Atall", "11/26/26, 6:45\u202fPM"),  # not a zone: the server's
    ],
)
def test_a_page_shows_the_phones_zone_else_the_servers_setting(
    tmp_path, monkeypatch, cookie, started
):
    monkeypatch.setattr(store.connection, "now", lambda: NIGHT)
    client = _zoned_app(tmp_path, "America/New_York").test_client()
    if cookie:
        client.set_cookie("tz", cookie, domain="t.test")
    url = new_game(client)
    record(client, url, 1, went_out=0, points={1: 50})
    for page in (client.get(url), client.get(f"{url}/history")):
        text = page.get_data(as_text=True)
        assert started in text and "UTC" not in text


def test_a_time_zone_setting_that_names_no_zone_stops_the_app_with_the_reason(tmp_path):
    with pytest.raises(SettingError, match="SCOREKEEPER_TIME_ZONE must name a time zone"):
        _zoned_app(tmp_path, "Europe/Atlantis")


def test_a_games_playing_time_ends_with_the_hand_that_ended_it(client, clock):
    """Corrections, an undo and its restore the next morning leave it where it was."""
    url = new_game(client, players=("Ann", "Bob"), first="2")
    game_id = url.split("/")[-2]
    database = store.connection.connect(client.application.config["DATABASE"])

    def until() -> str:
        return store.history.played_until(database, store.games.get_game(database, game_id))

    assert until() == "2026-11-23T19:00:00+00:00"  # no hand yet: its start
    clock.at = "2026-11-23T19:20:00+00:00"
    record(client, url, 1, went_out=0, points={1: 50})
    clock.at = "2026-11-23T19:41:00+00:00"
    record(client, url, 2, went_out=0, points={1: 50})  # Ann makes phase 2: the game is over
    assert until() == "2026-11-23T19:41:00+00:00"
    clock.at = "2026-11-24T08:00:00+00:00"  # the next morning
    fixed = {"csrf_token": csrf(client), "went_out": "0", "points-1": "55"}
    assert client.post(f"{url}/hands/1", data=fixed).status_code == 303
    assert (
        client.post(f"{url}/undo", data={"csrf_token": csrf(client), "version": "4"}).status_code
        == 303
    )
    restore = {"csrf_token": csrf(client), "version": "5"}
    assert client.post(f"{url}/history/4/restore", data=restore).status_code == 303
    assert until() == "2026-11-23T19:41:00+00:00"
    assert export(client, url)["hands"][0]["points"] == {"Bob": 55}
    page = client.get(url).get_data(as_text=True)
    assert "took 41 min" in page


def test_a_game_imported_whole_keeps_the_times_its_file_gave(app):
    database = store.connection.connect(app.config["DATABASE"])
    hand = {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 60}}
    state = {"rules": "official", "players": ["Ann", "Bob"], "dealer": "Ann", "hands": [hand]}
    dates = ("2026-11-23T19:00:00+00:00", "2026-11-23T20:10:00+00:00")
    stored = store.games.create_game(database, state, dates=dates)
    assert store.history.played_until(database, stored) == "2026-11-23T20:10:00+00:00"


def test_a_tables_backup_dates_its_hands_on_the_tables_clock(tmp_path, monkeypatch):
    """hands.csv gave the stored UTC date, then the date on the clock of whoever downloaded
    it: a game played at 8 pm at a New York table is dated that day from Berlin too."""
    monkeypatch.setattr(store.connection, "now", lambda: "2026-11-27T01:00:00+00:00")
    client = _zoned_app(tmp_path, "UTC").test_client()
    client.set_cookie("tz", "America/New_York", domain="t.test")  # the table's phone
    url = new_table(client)
    game = table_game(client, url, players=("Ann", "Bob"))
    record(client, game, 1, went_out=0, points={1: 50})
    dates = {}
    for zone in ("America/New_York", "Europe/Berlin"):
        client.set_cookie("tz", zone, domain="t.test")
        with zipfile.ZipFile(io.BytesIO(client.get(f"{url}/export.zip").data)) as backup:
            rows = list(csv.DictReader(io.StringIO(backup.read("hands.csv").decode())))
            games = json.loads(backup.read("table.json"))["games"]
        dates[zone] = {row["date"] for row in rows}
        assert games[0]["created"].startswith("2026-11-27T01:00")  # the files keep UTC
    assert dates == {"America/New_York": {"2026-11-26"}, "Europe/Berlin": {"2026-11-26"}}


def test_a_deleted_games_last_day_is_on_the_phones_clock_and_reads_as_a_date(tmp_path, monkeypatch):
    """Deleted at 8 pm in New York, a game can be brought back until 8 pm a week later: the
    page gave the UTC day, and showed its <time> markup as text."""
    monkeypatch.setattr(store.connection, "now", lambda: "2026-11-27T01:00:00+00:00")
    client = _zoned_app(tmp_path, "UTC").test_client()
    client.set_cookie("tz", "America/New_York", domain="t.test")
    url = new_game(client)
    deleted = client.post(f"{url}/delete", data={"csrf_token": csrf(client)})
    assert deleted.status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert "&lt;time" not in page  # markup shown as text
    assert 'until <time datetime="2026-12-03">Dec 3, 2026</time>;' in page
