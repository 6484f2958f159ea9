"""The table view fits (issue 41, finding 6): a finished game of six, ended early after hand 9,
on a 1024 x 768 tablet and a 1920 x 1080 screen, with nothing wrapped and nothing below the
screen. On the tablet "3rd / Dmitri" wrapped, the winner's star sat on a line of its own and
"Ended early after hand 9" was below the screen, while the chart's column had room."""

from __future__ import annotations

import pytest
from pages import TABLE_VIEW_FITS, browser_app, served
from webutil import csrf, new_table, record, table_game

SIX = ["Ana", "Bob", "Chloé", "Dmitri", "Emma", "Farid"]
SCREENS = [(1024, 768), (1920, 1080)]


@pytest.fixture
def ended_early(tmp_path):
    """A six-player game at a table, ended early after hand 9."""
    database = tmp_path / "games.sqlite3"
    client = browser_app(database, TESTING=True).test_client()
    url = table_game(client, new_table(client), players=SIX)
    for number in range(1, 10):
        out = (number - 1) % 6
        points = {seat: 50 + 5 * ((3 * seat + number) % 7) for seat in range(6) if seat != out}
        assert record(client, url, number, went_out=out, points=points).status_code == 303
    ended = client.post(f"{url}/end", data={"csrf_token": csrf(client), "version": "10"})
    assert ended.status_code == 303
    return database, url.split("/")[2]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_finished_game_of_six_fits_the_screen_unwrapped(browser, ended_early, screen, language):
    database, game_id = ended_early
    width, height = screen
    context = browser.new_context(viewport={"width": width, "height": height}, locale=language)
    try:
        with served(database) as server:
            page = context.new_page()
            page.goto(f"{server}/v/{game_id}/table")
            assert page.locator(".ended-early").is_visible()
            assert page.evaluate(TABLE_VIEW_FITS) == {"below": [], "wrapped": [], "wide": False}
    finally:
        context.close()
