"""A game's sheet is its record (issue 30, item 9): when, how long and where it was played,
a tiebreak explained, no rows that cannot be used, no phase guessed for a Masters player,
and the game's own date as the PDF's creation date."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from games import tied
from printed import words
from pypdf import PdfReader
from webutil import new_table, record, table_game

from scorekeeper import cli, i18n
from scorekeeper.printing import STANDARD_SET, game_sheet
from scorekeeper.printing.record import Played, time_zone
from scorekeeper.rules.gamefile import load_game

pytestmark = pytest.mark.printing  # prints and reads back the game record

STARTED = datetime(2026, 11, 27, 18, 5, tzinfo=UTC)  # 19:05 in Berlin


def created(data: bytes) -> str:
    return PdfReader(io.BytesIO(data)).metadata["/CreationDate"]


def test_the_record_says_when_in_the_zone_given_how_long_and_at_which_table():
    played = Played(STARTED.astimezone(ZoneInfo("Europe/Berlin")), 85, "The Smiths")
    text = words(game_sheet(tied(50), played=played))
    assert (
        "Played on Friday, November 27, 2026 at 7:05 PM (Europe/Berlin), 1 h 25 min · "
        "Table: The Smiths"
    ) in text
    with i18n.using("de"):
        german = words(game_sheet(tied(50), played=played))
    assert "Gespielt am Freitag, 27. November 2026 um 19:05 (Europe/Berlin), 1 Std. 25 Min." in (
        german
    )


def test_the_day_a_game_was_played_on_reads_as_each_language_says_it():
    """Issue 42: Polish read "Rozegrana niedziela, 6 grudnia" (the weekday's name alone);
    a day is said "w niedzielę" there, so each weekday is a word to translate."""
    sunday = Played(datetime(2026, 12, 6, 19, 5, tzinfo=ZoneInfo("Europe/Warsaw")), 85)
    said = {}
    for language in ("en", "pl", "it"):
        with i18n.using(language):
            said[language] = sunday.words()
    assert said["en"].startswith("Played on Sunday, December 6, 2026 at 7:05")
    assert said["pl"].startswith("Rozegrana w niedzielę, 6 grudnia 2026 o 19:05")
    assert said["it"].startswith("Giocata domenica 6 dicembre 2026 alle 19:05")


def test_the_pdf_is_dated_when_the_game_started_and_the_standard_set_stays_fixed():
    played = Played(STARTED.astimezone(ZoneInfo("Europe/Berlin")), 85)
    assert created(game_sheet(tied(50), played=played)) == "D:20261127190500+01'00'"
    assert created(STANDARD_SET[0][1]()).startswith("D:2000")  # reportlab's invariant date


def test_a_tiebreak_is_explained_and_a_pending_one_leaves_no_rows_to_fill():
    done = words(game_sheet(tied(50)))
    assert "A tiebreak hand only decides the winner: its points are not added to the totals." in (
        done
    )
    pending = words(game_sheet(tied()))
    assert "are tied: they play a tiebreak hand" in pending
    # the tiebreak ends the game: its row is the last, with no hands 12 to 26 after it
    assert pending.endswith(" 10 Ann 10 5 25 10 out 0 25 1 60 600 Tie Bob 10 10 -")


def test_a_masters_record_leaves_the_next_phase_for_each_player_to_choose():
    hands = [{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 60}}]
    for rules, next_row in (("masters", "2 Bob"), ("official", "2 Bob 2 1")):
        if rules == "masters":
            hands[0]["attempts"] = {"Ann": 1, "Bob": 1}
        game = load_game({"rules": rules, "players": ["Ann", "Bob"], "hands": hands})
        text = words(game_sheet(game))
        # hand 2, dealt by Bob: the official rules know each player's phase; in Masters
        # each player picks theirs, so nothing is guessed
        assert f" {next_row} 3 " in text, text


def test_the_title_in_the_pdf_keeps_names_as_written_in_seat_order_and_plain():
    data = game_sheet(load_game({"players": ["שרה", "محمد", "Dana 🎲"], "hands": []}))
    title = PdfReader(io.BytesIO(data)).metadata["/Title"]
    assert title == "Phase 10: שרה, محمد, Dana 🎲"  # no isolates: PDF/UA's plain title


def test_the_time_zone_comes_from_the_caller_then_the_setting(monkeypatch):
    assert time_zone("America/New_York") == ZoneInfo("America/New_York")
    monkeypatch.setenv("SCOREKEEPER_TIME_ZONE", "Asia/Tokyo")
    assert time_zone() == ZoneInfo("Asia/Tokyo")
    with pytest.raises(ValueError, match="unknown time zone 'Mars/Olympus'"):
        time_zone("Mars/Olympus")
    monkeypatch.setenv("SCOREKEEPER_TIME_ZONE", "Mars/Olympus")  # a bad setting: this machine's
    assert time_zone() == datetime.now().astimezone().tzinfo


def test_the_apps_sheet_gives_the_games_start_on_its_tables_clock_and_its_table(client, clock):
    """The sheet was printed on the server's clock while every page said the phone's; then on
    the clock of whichever phone printed it. It is the table's, whoever prints."""
    client.set_cookie("tz", "Europe/Warsaw", domain="table.test")  # as app.js keeps it
    table = new_table(client, "The Smiths")
    url = table_game(client, table)  # 23 November 2026, 19:00 UTC: 20:00 in Warsaw
    clock.at = "2026-11-23T19:40:00+00:00"
    assert record(client, url, 1, 0, {1: 60, 2: 60}).status_code in (200, 303)
    game_id = url.split("/")[2]
    data = client.get(f"/v/{game_id}/print/score-sheet.pdf").data
    text = words(data)
    assert "Played on Monday, November 23, 2026 at 8:00 PM (Europe/Warsaw), 40 min" in text
    assert "Table: The Smiths" in text
    assert created(data) == "D:20261123200000+01'00'"
    for zone in ("Asia/Tokyo", None):  # another phone's, or one that never said its zone
        if zone:
            client.set_cookie("tz", zone, domain="table.test")
        else:
            client.delete_cookie("tz", domain="table.test")
        again = words(client.get(f"/v/{game_id}/print/score-sheet.pdf").data)
        assert "Played on Monday, November 23, 2026 at 8:00 PM (Europe/Warsaw), 40 min" in again


def test_the_command_line_prints_the_start_length_and_table_it_is_given(tmp_path, capsys):
    game = tmp_path / "game.json"
    game.write_text(json.dumps({"players": ["Ann", "Bob"], "hands": []}))
    out = tmp_path / "sheet.pdf"
    args = ["print", str(game), "--out", str(out), "--started", "2026-11-27T18:05:00+00:00"]
    zone = ["--time-zone", "Europe/Berlin", "--minutes", "85", "--table", "The Smiths"]
    assert cli.main([*args, *zone]) == 0
    text = words(out.read_bytes())
    assert "Played on Friday, November 27, 2026 at 7:05 PM (Europe/Berlin), 1 h 25 min" in text
    assert cli.main([*args, "--time-zone", "Mars/Olympus"]) == 2
    assert "unknown time zone 'Mars/Olympus'" in capsys.readouterr().err
