"""Accessibility: axe-core finds nothing serious on any main page, and the keyboard suffices.

Every page is checked in light and dark mode, at phone and tablet sizes, with
and without an error showing.
"""

from __future__ import annotations

import re

import pytest
from pages import PHONE, enter_hand, open_page, said, score_of, serious_violations, start_game
from playwright.sync_api import expect

SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 1024, "height": 768}}


def pages_of_a_game(page, server) -> list[tuple[str, object]]:
    """(what, how to show it) for every main page, two hands into a game."""
    start_game(page, server, ["Ann", "Bob", "Cy"])
    edit = page.url
    enter_hand(page, "Ann", {"1": "50", "2": "20"})
    expect(page.locator(".status")).to_contain_text("Hand 2")  # saved before the next
    enter_hand(page, "Bob", {"0": "60", "2": "15"})
    expect(score_of(page, "Ann")).to_have_text("60")
    view = page.locator("a", has_text="Table view").get_attribute("href").rsplit("/table", 1)[0]

    def bad_hand():
        page.goto(edit)
        page.click("label.pill:text-is('Cy')")
        page.fill("input[name=points-0]", "47")
        page.fill("input[name=points-1]", "60")
        page.click("button:has-text('Save')")
        expect(page.locator("#live-0 .field-error")).to_contain_text("47")

    def nobody_went_out():
        page.goto(edit)
        page.click("button:has-text('Save')")
        expect(page.locator("input[name=went_out]").first).to_have_attribute("aria-invalid", "true")

    def bad_new_game():
        page.goto(f"{server}/new")
        page.click("text=Start the game")
        expect(page.locator(".field-error").first).to_be_visible()

    def live_error():
        page.goto(edit)
        page.click("label.pill:text-is('Cy')")
        page.fill("input[name=points-0]", "47")
        expect(page.locator("#hand-check")).to_contain_text("47")

    return [
        ("home", lambda: page.goto(server)),
        ("new game", lambda: page.goto(f"{server}/new")),
        ("new game refused", bad_new_game),
        ("game", lambda: page.goto(edit)),
        ("game, live error", live_error),
        ("game, hand refused", bad_hand),
        ("game, nobody went out", nobody_went_out),
        ("fix a hand", lambda: page.goto(f"{edit}/hands/1")),
        ("share", lambda: page.goto(f"{edit}/share")),
        ("history", lambda: page.goto(f"{edit}/history")),
        ("view", lambda: page.goto(server + view)),
        ("table view", lambda: page.goto(f"{server}{view}/table")),
        ("phase checker", lambda: page.goto(f"{server}/check?phase=2&g0=R7+B7&g1=G3")),
        ("hit checker", lambda: page.goto(f"{server}/check/hit")),
        ("hand helper", lambda: page.goto(f"{server}/check/hand?phase=1&hand=R7+B7+G7+W")),
        ("printables", lambda: page.goto(f"{server}/printables")),
        ("rules", lambda: page.goto(f"{server}/rules")),
    ]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_any_page(browser, server, scheme, size):
    context = browser.new_context(
        viewport=SIZES[size], color_scheme=scheme, bypass_csp=True, has_touch=size == "phone"
    )
    try:
        page = context.new_page()
        problems = []
        for what, show in pages_of_a_game(page, server):
            response = show()
            if response is not None and response.status == 404:
                continue  # a page this version of the app does not have
            page.wait_for_load_state()
            problems += [f"{what}: {line}" for line in serious_violations(page)]
        assert not problems, "\n".join(problems)
    finally:
        context.close()


def tab_to(page, selector: str, limit: int = 60) -> None:
    """Press Tab until the element matching ``selector`` has the focus."""
    for _ in range(limit):
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_a_hand_can_be_recorded_with_the_keyboard_alone(phone, server):
    start_game(phone, server, ["Ann", "Bob", "Cy"])
    phone.locator("body").focus()
    tab_to(phone, "input[name=went_out]")
    phone.keyboard.press("ArrowRight")  # radios: arrows move the choice, to Bob
    expect(phone.locator("#out-1")).to_be_checked()
    tab_to(phone, "input[name=points-0]")
    phone.keyboard.type("25")
    tab_to(phone, "input[name=points-2]")
    phone.keyboard.type("70")
    tab_to(phone, "button[type=submit]")
    phone.keyboard.press("Enter")
    expect(phone.locator(".status")).to_contain_text("Hand 2")
    expect(score_of(phone, "Ann")).to_have_text("25")
    expect(score_of(phone, "Cy")).to_have_text("70")


def test_verdicts_and_names_are_announced(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    assert phone.locator("#hand-check").get_attribute("aria-live") == "polite"
    phone.click("label.pill:text-is('Ann')")
    phone.fill("input[name=points-1]", "47")
    live = phone.locator("[aria-live]", has_text="47 is not a multiple of 5")
    expect(live).to_have_count(1)
    expect(live).to_contain_text("Bob")
    expect(live).to_have_id("hand-check")


def test_a_checkers_new_verdict_is_announced(phone, server):
    phone.goto(f"{server}/check?phase=1&g0=R7+B7+G7&g1=R3+B3")
    phone.fill("input[name=g1]", "R3 B3 W")
    phone.locator("input[name=g1]").dispatch_event("change")
    expect(phone.locator("#announcer")).to_contain_text("Valid: phase 1 is made")
    assert phone.locator("#announcer").get_attribute("aria-live") == "polite"


def test_a_watcher_hears_each_change_in_one_sentence(browser, phone, server):
    """The scoreboard is swapped whole by a live update, so its changes are said in the
    page's one lasting live region."""
    start_game(phone, server, ["Ann", "Bob"])
    watcher = open_page(browser, re.sub(r"/g/([^/]+)/[^/]+$", r"/v/\1", phone.url), **PHONE)
    try:
        expect(watcher.locator(".status")).to_contain_text("Hand 1")
        enter_hand(phone, "Ann", {"1": "45"})
        announcer = watcher.locator("#announcer")
        expect(announcer).to_have_text(said("Hand 1 saved: Ann out, Bob 45."))
        assert announcer.get_attribute("aria-live") == "polite"
        enter_hand(phone, "Bob", {"0": "20"})
        expect(announcer).to_have_text(said("Hand 2 saved: Ann 20, Bob out."))
    finally:
        watcher.context.close()
