"""Two phones at one table, and settling a phase argument by tapping cards."""

from __future__ import annotations

import re

import pytest
from pages import enter_hand, score_of, shot, start_game, tap_card
from playwright.sync_api import expect


@pytest.mark.parametrize("js", [True, False], ids=["with-js", "without-js"])
def test_tapping_cards_flips_the_verdict_from_invalid_to_valid(request, server, js):
    page = request.getfixturevalue("phone" if js else "phone_without_js")
    page.goto(f"{server}/check?phase=2")
    for card in ("add R7", "add B7", "add G7"):
        tap_card(page, card, js)
    page.check("input[name=active][value=g1]")
    if not js:
        page.click("button.visually-hidden", force=True)
    for card in ("add R3", "add R4", "add R6"):
        tap_card(page, card, js)
    expect(page.locator("#verdict")).to_contain_text("Not valid yet")
    expect(page.locator("#verdict")).to_contain_text("run of 4")
    shot(page, f"{'js' if js else 'nojs'}-06-checker-invalid")
    tap_card(page, "add Wild", js)
    expect(page.locator("#verdict")).to_contain_text("Valid: phase 2 is made")
    expect(page.locator("input[name=g1]")).to_have_value("R3 R4 R6 W")
    shot(page, f"{'js' if js else 'nojs'}-07-checker-valid")


def test_a_hand_recorded_on_one_phone_shows_on_the_others(browser, server):
    scorer = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    watcher = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = scorer.new_page()
        start_game(page, server, ["Ann", "Bob", "Cy"])
        page.click("nav.actions >> text=Share")
        view_link = page.locator("input[aria-label='View link']").input_value()
        assert re.fullmatch(rf"{re.escape(server)}/v/[\w-]{{22}}", view_link)
        edit_url = page.url.removesuffix("/share")
        shot(page, "js-08-share")

        other = watcher.new_page()
        other.goto(view_link)
        expect(score_of(other, "Bob")).to_have_text("0")
        # nothing on a watch page changes the game (keeping it on this phone only sets a cookie)
        assert other.locator("form[method=post]:not([action$='/forget'])").count() == 0

        page.goto(edit_url)
        enter_hand(page, "Ann", {"1": "50", "2": "20"})
        expect(score_of(page, "Bob")).to_have_text("50")
        expect(score_of(other, "Bob")).to_have_text("50")
        expect(other.locator(".status")).to_contain_text("Hand 2")
        shot(other, "js-09-watcher")
    finally:
        scorer.close()
        watcher.close()


def test_two_phones_saving_the_same_hand_record_it_once(browser, server):
    first = browser.new_context(viewport={"width": 390, "height": 844})
    second = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        a = first.new_page()
        start_game(a, server, ["Ann", "Bob"])
        b = second.new_page()
        b.goto(a.url)
        b.click("label.pill:text-is('Ann')")  # b starts entering hand 1 too
        enter_hand(a, "Ann", {"1": "50"})
        expect(a.locator(".status")).to_contain_text("Hand 2")
        expect(b.locator(".status")).to_contain_text("Hand 2")  # the standings move
        b.fill("input[name=points-1]", "50")  # b's form, being typed in, still says hand 1
        expect(b.locator("#record button[type=submit]")).to_be_hidden()  # no stale Save...
        b.locator("#record form").evaluate("(form) => form.requestSubmit()")  # ...sent anyway
        expect(b.locator(".notice")).to_contain_text("Hand 1 was already entered")
        expect(b.locator("table.hands tbody tr")).to_have_count(1)
    finally:
        first.close()
        second.close()
