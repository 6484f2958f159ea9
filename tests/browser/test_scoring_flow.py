"""A family scores a game on a phone: the core flow, with and without JavaScript."""

from __future__ import annotations

import re

import pytest
from pages import enter_hand, score_of, shot, start_game
from playwright.sync_api import expect


@pytest.mark.parametrize("js", [True, False], ids=["with-js", "without-js"])
def test_a_whole_evening_of_scoring(request, server, js):
    page = request.getfixturevalue("phone" if js else "phone_without_js")
    tag = "js" if js else "nojs"
    start_game(page, server, ["Ann", "Bob", "Cy"])
    shot(page, f"{tag}-01-new-game")

    enter_hand(page, "Ann", {"1": "50", "2": "20"})
    expect(page.locator(".status")).to_contain_text("Hand 2")
    expect(score_of(page, "Bob")).to_have_text("50")

    enter_hand(page, "Bob", {"0": "7", "2": "60"})  # 7 cannot be a hand total
    expect(page.locator(".field-error").first).to_contain_text("7 is not a multiple of 5")
    expect(page.locator("input[name=points-2]")).to_have_value("60")  # kept as typed
    shot(page, f"{tag}-02-rejected-total")
    if js:  # Save once the live check has answered: its words move the button
        with page.expect_response(re.compile(r"/hands/check$")):
            page.fill("input[name=points-0]", "10")
    else:
        page.fill("input[name=points-0]", "10")
    page.click("button:has-text('Save')")
    expect(page.locator(".status")).to_contain_text("Hand 3")

    enter_hand(page, "Cy", {"0": "50", "1": "15"})
    expect(page.locator(".status")).to_contain_text("Hand 4")
    expect(score_of(page, "Ann")).to_have_text("60")
    shot(page, f"{tag}-03-scoreboard")

    # correct hand 1: Bob really had 75
    page.get_by_role("link", name="Fix hand 1").click()
    expect(page.locator("h1")).to_have_text("Correct hand 1")
    page.fill("input[name=points-1]", "75")
    page.click("button:has-text('Save the correction')")
    expect(score_of(page, "Bob")).to_have_text("90")

    page.click("button:has-text('Undo last change')")
    expect(score_of(page, "Bob")).to_have_text("65")
    page.click("nav.actions >> text=History")
    expect(page.locator("h1")).to_have_text("History")
    expect(page.locator(".history")).to_contain_text("Undone: Hand 1 corrected")
    shot(page, f"{tag}-04-history")


@pytest.mark.parametrize("js", [True, False], ids=["with-js", "without-js"])
def test_a_first_two_phases_game_ends_on_the_winner_screen(request, server, js):
    page = request.getfixturevalue("phone" if js else "phone_without_js")
    start_game(page, server, ["Ann", "Bob"], first="2")
    enter_hand(page, "Ann", {"1": "50"})
    expect(page.locator(".status")).to_contain_text("Hand 2")
    enter_hand(page, "Ann", {"1": "55"})
    expect(page.locator(".winner")).to_contain_text("Ann wins!")
    expect(page.locator("text=Record hand")).to_have_count(0)
    shot(page, f"{'js' if js else 'nojs'}-05-winner")


def test_the_live_check_warns_while_typing(phone, server):
    start_game(phone, server, ["Ann", "Bob", "Cy"])
    phone.click("label.pill:text-is('Ann')")
    phone.fill("input[name=points-1]", "47")
    expect(phone.locator("#hand-check")).to_contain_text("47 is not a multiple of 5")
    phone.fill("input[name=points-1]", "45")
    phone.fill("input[name=points-2]", "50")
    expect(phone.locator("#hand-check")).to_contain_text("fits the rules")


def test_card_steppers_add_up_the_cards_left(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    phone.click("label.pill:text-is('Ann')")
    phone.locator(".seat-1 summary").click()
    plus_low = phone.locator("button[data-for='low-1'][data-step='1']")
    for _ in range(9):
        plus_low.click()
    phone.locator("button[data-for='wilds-1'][data-step='1']").click()
    expect(phone.locator("#low-1")).to_have_value("9")
    phone.click("button:has-text('Save')")
    expect(score_of(phone, "Bob")).to_have_text(str(9 * 5 + 25))


def test_tap_targets_are_at_least_44_pixels(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    # a checkbox or radio is tapped through its label, so the label is the target
    small = phone.evaluate(
        """() => [...document.querySelectorAll(
        'a, button:not([hidden]), input:not([type=hidden]), select, summary')]
        .map(el => ['radio', 'checkbox'].includes(el.type)
                   ? (el.labels && el.labels[0]) || el.closest('label') : el)
        .filter(el => el.checkVisibility())
        .map(el => [el.outerHTML.slice(0, 80), el.getBoundingClientRect().height])
        .filter(([, h]) => h < 44)"""
    )
    assert small == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_picking_masters_on_the_form_gives_a_masters_game(phone, server):
    phone.goto(f"{server}/new")
    phone.fill("#player-0", "Ann")
    phone.fill("#player-1", "Bob")
    phone.check("input[name=profile][value=masters]")
    phone.click("text=Start the game")
    expect(phone.locator("select[name=attempt-0]")).to_be_visible()
    expect(phone.locator(".more .hint")).to_have_text("Masters.")


def test_ticking_made_phase_rechecks_the_total(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    phone.click("label.pill:text-is('Ann')")
    phone.fill("input[name=points-1]", "150")
    expect(phone.locator("#hand-check")).to_contain_text("fits the rules")
    phone.locator("input[name=made-1]").check()
    expect(phone.locator("#hand-check")).to_contain_text("150")
    expect(phone.locator("#hand-check")).not_to_contain_text("fits the rules")


def test_nothing_scrolls_sideways_on_a_360_pixel_phone(browser, server):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
    )
    try:
        page = context.new_page()
        page.goto(f"{server}/new")
        page.click("text=House rules (optional)")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        start_game(page, server, ["Grandma Jo", "Bob", "Cy"])
        for path in ("", "/history", "/share"):
            page.goto(page.url.split("/history")[0].split("/share")[0] + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
        for path in ("/check?phase=2", "/check/hit", "/check/hand", "/printables"):
            page.goto(server + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
    finally:
        context.close()
