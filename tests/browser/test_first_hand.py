"""The first hand without a scroll (issue 41, finding 5): on a phone, the scorekeeper's page of
a six-player game at a table opens with "Who went out?" on screen (it was at y = 975 on a
390 x 844 screen, below the scoreboard), and Save stays in reach while the points are typed,
the on-screen keyboard up (a keyboard shrinks the page, as base.html asks it to; here the
window shrinks as it would)."""

from __future__ import annotations

import pytest
from pages import IN_VIEW, PHONE, browser_app, served
from playwright.sync_api import expect
from webutil import new_table, record, table_game

SIX = ["Ana", "Bob", "Chloé", "Dmitri", "Emma", "Farid"]
KEYBOARD = 336  # px an on-screen keyboard takes from a phone's screen, suggestions row included


def _six_at_a_table(database, hands: int) -> tuple[str, str]:
    """A six-player game at a table, ``hands`` hands in (from the second on, a chart too)."""
    client = browser_app(database, TESTING=True).test_client()
    table = new_table(client)
    url = table_game(client, table, players=SIX)
    for number in range(1, hands + 1):
        out = (number - 1) % 6
        points = {seat: 55 + 5 * seat for seat in range(6) if seat != out}
        assert record(client, url, number, went_out=out, points=points).status_code == 303
    return table, url


def _phone(browser, width: int, height: int):
    return browser.new_context(**{**PHONE, "viewport": {"width": width, "height": height}})


@pytest.mark.parametrize("hands", [0, 2], ids=["first hand", "third hand, with the chart"])
@pytest.mark.parametrize("screen", [(390, 844), (360, 740)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_who_went_out_and_save_are_on_screen_when_the_page_opens(browser, tmp_path, hands, screen):
    database = tmp_path / "games.sqlite3"
    table, url = _six_at_a_table(database, hands)
    context = _phone(browser, *screen)
    try:
        with served(database) as server:
            page = context.new_page()
            page.goto(f"{server}{table}")  # this phone knows the table: the page links back to it
            page.goto(f"{server}{url}")
            expect(page.locator(".its-table")).to_be_visible()
            first = page.locator("#record label.pill").first
            save = page.locator("#record button[type=submit]")
            assert first.evaluate(IN_VIEW), first.bounding_box()
            assert save.evaluate(IN_VIEW), save.bounding_box()
            assert page.evaluate("window.scrollY") == 0  # not one scroll
    finally:
        context.close()


@pytest.mark.parametrize("screen", [(390, 844), (360, 740)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_save_stays_in_reach_above_the_keyboard_as_each_points_field_is_typed(
    browser, tmp_path, screen
):
    database = tmp_path / "games.sqlite3"
    table, url = _six_at_a_table(database, 0)
    width, height = screen
    context = _phone(browser, width, height)
    try:
        with served(database) as server:
            page = context.new_page()
            page.goto(f"{server}{url}")
            page.locator("label.pill", has_text="Ana").click()
            page.set_viewport_size({"width": width, "height": height - KEYBOARD})
            save = page.locator("#record button[type=submit]")
            for seat in range(1, 6):
                field = page.locator(f"input[name=points-{seat}]")
                field.focus()  # the phone brings the field it types into on screen...
                assert field.evaluate(IN_VIEW), (seat, field.bounding_box())
                assert save.evaluate(IN_VIEW), (seat, save.bounding_box())
                box = field.bounding_box()
                assert box["y"] + box["height"] <= save.bounding_box()["y"], seat  # ...above Save
                page.keyboard.type(str(50 + 5 * seat))
            save.click()
            expect(page.locator("[data-saved]")).to_contain_text("Hand 1 saved")
    finally:
        context.close()
