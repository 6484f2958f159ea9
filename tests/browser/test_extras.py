"""Ending a game early, logging it in BG Stats, drawing and rating a phase list: on a phone.

Every new screen is checked at 360 px wide, light and dark, with axe at no
serious or critical finding; the flows run with and without JavaScript.
"""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from pages import (
    enter_hand,
    serious_violations,
    served,
    shot,
    start_game,
    start_table,
    table_game,
)
from playwright.sync_api import expect

NARROW = {"width": 360, "height": 740}


@pytest.fixture
def server(tmp_path):
    """The app, rating lists with 100 deals: quick on a busy machine, and still seeded."""
    with served(tmp_path / "games.sqlite3", RATING_TRIALS=100) as url:
        yield url


def two_hands(page) -> None:
    """Ann, Bob and Cy: Cy has made two phases after two hands, and leads."""
    enter_hand(page, "Ann", {"1": "50", "2": "20"})
    expect(page.locator(".status")).to_contain_text("Hand 2")
    enter_hand(page, "Cy", {"0": "60", "1": "5"})
    expect(page.locator(".status")).to_contain_text("Hand 3")


def end_now(page) -> None:
    page.click("text=End the game now…")
    expect(page.locator("h1")).to_have_text("End the game now?")
    expect(page.locator(".end-game .lead")).to_have_text("Ending now declares Cy the winner.")
    page.click("button:has-text('End the game: Cy wins')")
    expect(page.locator(".winner")).to_contain_text("Cy wins!")


@pytest.mark.parametrize("js", [True, False], ids=["with-js", "without-js"])
def test_ending_a_game_early_names_the_winner_first_and_can_be_undone(request, server, js):
    page = request.getfixturevalue("phone" if js else "phone_without_js")
    start_game(page, server, ["Ann", "Bob", "Cy"])
    two_hands(page)
    end_now(page)
    expect(page.locator(".ended-early")).to_have_text("Ended early after hand 2.")
    expect(page.locator(".notice")).to_contain_text("Game ended early after hand 2: Cy wins")
    expect(page.locator("#record")).not_to_contain_text("Record hand")
    shot(page, f"extras-{'js' if js else 'nojs'}-01-ended-early")
    page.click("button:has-text('Undo last change')")
    expect(page.locator(".status")).to_contain_text("Hand 3")
    expect(page.locator(".ended-early")).to_have_count(0)


def test_the_bgstats_link_carries_the_play_and_a_game_in_progress_has_none(phone, server):
    start_game(phone, server, ["Ann", "Bob", "Cy"])
    two_hands(phone)
    expect(phone.get_by_role("link", name="Log in BG Stats")).to_have_count(0)
    end_now(phone)
    link = phone.get_by_role("link", name="Log in BG Stats")
    parts = urlsplit(link.get_attribute("href"))
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == (
        "https://app.bgstatsapp.com/createPlay.html"
    )
    play = json.loads(parse_qs(parts.query)["data"][0])
    assert play["game"]["bggId"] == 1258 and play["game"]["highestWins"] is False
    assert [(p["name"], p["rank"], p["winner"]) for p in play["players"]] == [
        ("Cy", 1, True),
        ("Bob", 2, False),  # one phase each: Bob has 55 points, Ann 60
        ("Ann", 3, False),
    ]
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == ["Bob"]  # left of Ann
    with phone.expect_download() as download:
        phone.click("text=Download the play (JSON)")
    with open(download.value.path(), encoding="utf-8") as file:
        assert json.load(file) == play


def test_drawing_a_list_fills_the_form_and_shows_its_rating(phone, server):
    phone.goto(f"{server}/new")
    phone.fill("#player-0", "Ann")
    phone.fill("#player-1", "Bob")
    phone.click("button:has-text('Draw a random list')")
    rating = phone.locator(".rating-table tbody tr")
    expect(rating).to_have_count(10)
    expect(phone.locator("#phase-list")).to_be_in_viewport()
    expect(phone.locator("#player-0")).to_have_value("Ann")
    text = phone.locator("#opt-custom_phases").input_value()
    assert len(text.split(";")) == 10
    expect(phone.locator("#opt-phases")).to_have_value("custom")
    shot(phone, "extras-02-drawn-list")
    phone.click("text=Start the game")
    phone.wait_for_url(re.compile(r".*/g/[^/]+/[^/]+$"))
    expect(phone.locator("#rules-line")).to_contain_text("Our own list of 10 phases")


def test_how_hard_works_without_javascript_and_keeps_a_typed_list(phone_without_js, server):
    page = phone_without_js
    page.goto(f"{server}/new")
    page.click("text=House rules (optional)")
    page.fill("#opt-custom_phases", "set of 5 + set of 3; run of 4")
    page.check("input[name=keep_order]")
    page.click("button:has-text('How hard is this list?')")
    rows = page.locator(".rating-table tbody th")
    expect(rows).to_have_text(["1. 1 set of 5 + 1 set of 3", "2. 1 run of 4"])
    expect(page.locator("#opt-custom_phases")).to_have_value("set of 5 + set of 3; run of 4")
    page.fill("#opt-custom_phases", "2 sets of three")
    page.click("button:has-text('How hard is this list?')")
    expect(page.locator("#phase-list-error")).to_contain_text("cannot read group")


# --- every new screen, 360 px wide, light and dark ----------------------------------------


def new_screens(page, server) -> list[tuple[str, object]]:
    """(what, how to show it) for each screen this work added, with a game ended early."""
    table_url = start_table(page, server, "The Smiths")
    table_game(page, ["Ann", "Bob", "Cy"], first="0")
    edit = page.url
    two_hands(page)
    view = page.locator("a", has_text="Table view").get_attribute("href").rsplit("/table", 1)[0]

    def draw():
        page.goto(f"{server}/new")
        page.click("button:has-text('Draw a random list')")
        expect(page.locator(".rating-table tbody tr")).to_have_count(10)

    def rating_refused():
        page.goto(f"{server}/new")
        page.click("text=House rules (optional)")
        page.fill("#opt-custom_phases", "2 sets of three")
        page.click("button:has-text('How hard is this list?')")
        expect(page.locator("#phase-list-error")).to_be_visible()

    def ended():
        page.goto(f"{edit}/end")
        page.click("button:has-text('End the game')")
        expect(page.locator(".ended-early")).to_be_visible()

    return [
        ("game in progress, with its length", lambda: page.goto(edit)),
        ("end the game: confirmation", lambda: page.goto(f"{edit}/end")),
        ("game ended early", ended),
        ("watch page, ended early", lambda: page.goto(server + view)),
        ("table view, ended early", lambda: page.goto(f"{server}{view}/table")),
        ("table page, finished games", lambda: page.goto(table_url)),
        ("table statistics", lambda: page.goto(f"{table_url}/stats")),
        ("new game, drawn list rated", draw),
        ("new game, list refused", rating_refused),
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_the_new_screens_at_360_px(browser, server, scheme):
    context = browser.new_context(
        viewport=NARROW, color_scheme=scheme, bypass_csp=True, has_touch=True, is_mobile=True
    )
    try:
        page = context.new_page()
        problems = []
        for what, show in new_screens(page, server):
            show()
            page.wait_for_load_state()
            wide = page.evaluate("document.documentElement.scrollWidth")
            if wide > NARROW["width"]:
                problems.append(f"{what}: {wide} px wide at {NARROW['width']} px")
            problems += [f"{what}: {line}" for line in serious_violations(page)]
            shot(page, f"extras-360-{scheme}-{re.sub(r'[^a-z]+', '-', what)}")
        assert not problems, "\n".join(problems)
    finally:
        context.close()
