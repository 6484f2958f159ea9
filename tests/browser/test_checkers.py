"""The phase checker moves on by itself, and the hand helper lists every way to finish."""

from __future__ import annotations

import pytest
from pages import tap_card
from playwright.sync_api import expect


@pytest.mark.parametrize("js", [True, False], ids=["with-js", "without-js"])
def test_a_full_group_sends_the_next_taps_to_the_next_group(request, server, js):
    page = request.getfixturevalue("phone" if js else "phone_without_js")
    page.goto(f"{server}/check?phase=1")  # 2 sets of 3
    for card in ("R7", "B7", "G7", "R3", "B3", "Wild"):
        tap_card(page, f"add {card}", js)
    expect(page.locator("input[name=g0]")).to_have_value("R7 B7 G7")
    expect(page.locator("input[name=g1]")).to_have_value("R3 B3 W")
    expect(page.locator("#verdict")).to_contain_text("Valid: phase 1 is made")


def test_a_chosen_full_group_still_takes_more_cards(phone, server):
    phone.goto(f"{server}/check?phase=1&g0=R7+B7+G7&g1=R3&active=g0")
    phone.click("button[aria-label='add Y7']")  # a set may hold more than three
    expect(phone.locator("input[name=g0]")).to_have_value("R7 B7 G7 Y7")


@pytest.mark.parametrize("js", [True, False], ids=["with-js", "without-js"])
def test_the_hand_helper_lists_every_card_that_finishes(request, server, js):
    page = request.getfixturevalue("phone" if js else "phone_without_js")
    page.goto(f"{server}/check/hand?phase=1&hand=R7+B7+W+R3+B3")
    closer = page.locator("#verdict .closer li")
    expect(closer).to_have_text(["any 3", "any 7", "a Wild"])
    expect(page.locator("#verdict")).to_contain_text("Any one of these finishes it")
