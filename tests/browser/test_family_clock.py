"""The family's own clock: every date and time in the phone's time zone, and a game's length
its playing time, whatever is corrected later.

The store's clock (``store.connection.now``, the ``clock`` fixture) is the one clock: each test sets
it, and each phone's time zone is set explicitly (the server's is UTC), so nothing depends
on today's date or the machine's zone.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from pages import PHONE, enter_hand, open_fix, settled, start_table, table_game
from playwright.sync_api import expect


def _later(clock, minutes: int) -> None:
    """Move the store's clock (the ``clock`` fixture) on by ``minutes``."""
    clock.at = (datetime.fromisoformat(clock.at) + timedelta(minutes=minutes)).isoformat()


def _phone_in(browser, zone: str):
    return browser.new_context(**PHONE, timezone_id=zone, locale="en-US").new_page()


@pytest.mark.parametrize(
    ("zone", "started", "time_played", "day", "play_date"),
    [
        ("Europe/Berlin", "11/27/26, 12:45", "1:15", "Nov 27, 2026", "2026-11-27 00:45:00"),
        ("America/New_York", "11/26/26, 6:45", "7:15", "Nov 26, 2026", "2026-11-26 18:45:00"),
    ],
)
def test_every_date_and_time_is_on_the_phones_own_clock(
    browser, server, clock, zone, started, time_played, day, play_date
):
    clock.at = "2026-11-26T23:45:00+00:00"
    phone = _phone_in(browser, zone)
    try:
        table_url = start_table(phone, server, "The Smiths")
        table_game(phone, ["Ann", "Bob"])
        keeper_url = phone.url
        game_id = keeper_url.split("/")[-2]
        facts = phone.locator("#scoreboard .game-facts")
        expect(facts).to_contain_text(re.compile(rf"Started {re.escape(started)}\W?[AP]M"))
        expect(facts).not_to_contain_text("UTC")
        _later(clock, 30)
        enter_hand(phone, "Ann", {"1": "50"})  # Ann makes the one phase: the game is over
        expect(phone.locator("#scoreboard")).to_contain_text("Ann wins")

        phone.goto(f"{keeper_url}/history")
        latest = phone.locator("ol.history li").first
        expect(latest).to_contain_text(re.compile(rf"{re.escape(time_played)}\W?[AP]M"))
        expect(phone.locator("main")).not_to_contain_text("UTC")

        phone.goto(table_url)
        expect(phone.locator("main")).to_contain_text(f"{day} · winner: Ann")
        phone.goto(f"{table_url}/stats")
        expect(phone.locator("main")).to_contain_text(f"on {day}")

        play = phone.request.get(f"{server}/v/{game_id}/bgstats.json").json()
        assert play["playDate"] == play_date  # BG Stats reads it as local time
        assert play["durationMin"] == 30
    finally:
        phone.context.close()


def test_a_games_length_is_its_playing_time_whatever_is_corrected_later(browser, server, clock):
    clock.at = "2026-11-26T19:00:00+00:00"  # 20:00 in Berlin
    phone = _phone_in(browser, "Europe/Berlin")
    try:
        table_url = start_table(phone, server, "The Smiths")
        table_game(phone, ["Ann", "Bob"], first="3")
        keeper_url = phone.url
        game_id = keeper_url.split("/")[-2]
        _later(clock, 4)
        enter_hand(phone, "Ann", {"1": "50"})
        expect(phone.locator("[data-saved]")).to_contain_text("Hand 1 saved")
        _later(clock, 5)
        enter_hand(phone, "Bob", {"0": "20"})
        expect(phone.locator("[data-saved]")).to_contain_text("Hand 2 saved")
        _later(clock, 1)
        phone.click("text=End the game now…")
        phone.click("button:has-text('End the game:')")
        facts = phone.locator("#scoreboard .game-facts")
        expect(facts).to_contain_text("Ended early after hand 2")
        expect(facts).to_contain_text("took 9 min")  # from its start to the hand that ended it

        _later(clock, 10)
        phone.click("button:has-text('Undo last change')")  # the early end undone...
        expect(facts).to_contain_text("20 min so far")  # played on: counted to now (issue 41)
        _later(clock, 3)
        phone.goto(f"{keeper_url}/history")
        settled(phone)
        ended = phone.locator("ol.history li", has_text="Ended early")
        ended.locator("button:has-text('Go back to this')").click()  # ...and brought back
        expect(facts).to_contain_text("took 9 min")

        clock.at = "2026-11-27T06:00:00+00:00"  # a typo fixed the next morning
        open_fix(phone, 1)
        phone.fill("input[name=points-1]", "55")
        phone.click("button:has-text('Save the correction')")
        expect(facts).to_contain_text("took 9 min")

        phone.goto(table_url)
        finished = phone.locator("main li", has_text="winner:")
        expect(finished).to_contain_text("Nov 26, 2026")  # the evening it was played
        expect(finished).to_contain_text("9 min")
        phone.goto(f"{table_url}/stats")
        expect(phone.locator("main")).to_contain_text("A game takes 9 min on average")
        play = phone.request.get(f"{server}/v/{game_id}/bgstats.json").json()
        assert play["durationMin"] == 9
        assert play["playDate"] == "2026-11-26 20:00:00"
    finally:
        phone.context.close()


def test_a_watch_link_opened_first_shows_the_phones_clock_without_a_reload(browser, server, clock):
    """A phone that had never opened the app (no zone kept yet) got the server's clock on a
    watch page or a table's screen, until the next hand was saved: its next poll now
    brings the page on its own clock."""
    clock.at = "2026-11-26T23:45:00+00:00"  # 18:45 in New York
    keeper = _phone_in(browser, "Europe/Berlin")
    watcher = _phone_in(browser, "America/New_York")
    try:
        start_table(keeper, server, "The Smiths")
        screen = keeper.locator("a", has_text="Open the table screen").get_attribute("href")
        table_game(keeper, ["Ann", "Bob"])
        game_id = keeper.url.split("/")[-2]
        started = re.compile(r"Started 11/26/26, 6:45\W?PM")
        watcher.goto(f"{server}/v/{game_id}")  # its first page: the server's clock (UTC)
        expect(watcher.locator("#scoreboard .game-facts")).to_contain_text(started)
        tablet = _phone_in(browser, "America/New_York")
        try:
            tablet.goto(f"{server}{screen}" if screen.startswith("/") else screen)
            expect(tablet.locator(".game-facts")).to_contain_text(started)
        finally:
            tablet.context.close()
    finally:
        keeper.context.close()
        watcher.context.close()
