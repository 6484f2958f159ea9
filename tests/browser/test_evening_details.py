"""The smaller frictions of a family evening (issue 41, finding 8), each fixed and kept fixed:
opening "Count cards instead" keeps the points typed, "so far" counts to now, a player who
went out is not asked for points, what a player sent stays in their form, and the address
bar follows the page."""

from __future__ import annotations

import re

from pages import (
    PHONE,
    enter_hand,
    open_fix,
    open_page,
    player_links,
    settled,
    start_game,
    start_table,
)
from playwright.sync_api import expect


def test_opening_count_cards_keeps_the_points_typed(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    phone.click("label.pill:text-is('Ann')")
    phone.fill("#points-1", "55")
    phone.locator(".seat-1 summary").click()
    count = phone.locator(".seat-1 details.count")
    expect(count).to_contain_text("Count each kind of card left in the hand.")
    expect(count.locator(".count-total")).to_be_hidden()  # no "Cards worth 0 points"
    expect(phone.locator("#points-1")).to_have_value("55")
    phone.fill("#high-1", "2")  # a card counted: now the worth is said, and fills Points
    expect(count.locator(".count-total")).to_be_visible()
    expect(count.locator(".count-total")).to_contain_text("Cards worth 20 points")
    expect(phone.locator("#points-1")).to_have_value("20")


def test_so_far_counts_on_to_now_while_nothing_is_saved(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    enter_hand(phone, "Ann", {"1": "55"})
    expect(phone.locator("#record-heading")).to_have_text("Record hand 2")
    phone.reload()  # a page opened now: its polls are held until the game changes
    settled(phone)
    so_far = phone.locator("#scoreboard .so-far")
    expect(so_far).to_have_text("0 min")
    # The page has been open a while with nothing saved: its count, taken when the page came,
    # is moved back (the server's clock cannot be), and the page counts on by itself.
    back = "(el, ms) => { el.dataset.since = String(Number(el.dataset.since) - ms); }"
    so_far.evaluate(back, 130_000)  # a long hand: two minutes with nothing saved
    expect(so_far).to_have_text("2 min")
    so_far.evaluate(back, 3_600_000)
    expect(so_far).to_have_text("1 h 2 min")


def test_a_player_who_went_out_is_not_asked_for_points_and_keeps_what_they_sent(browser, server):
    keeper = open_page(browser, server, **PHONE)
    start_game(keeper, server, ["Ann", "Bob"])
    bob = open_page(browser, player_links(keeper, keeper.url)["Bob"], **PHONE)
    try:
        settled(bob)
        bob.check("input[name=went_out]")
        expect(bob.locator("#points")).to_be_hidden()
        expect(bob.locator("input[name=made]")).to_be_hidden()
        bob.uncheck("input[name=went_out]")
        bob.fill("#points", "35")
        bob.check("input[name=made]")
        bob.click("#send")
        expect(bob.locator("#player-status")).to_contain_text("Sent: 35 points, phase made.")
        expect(bob.locator("#points")).to_have_value("35")  # "send again to change it"
        expect(bob.locator("input[name=made]")).to_be_checked()
        bob.reload()
        expect(bob.locator("#points")).to_have_value("35")
    finally:
        bob.context.close()
        keeper.context.close()


def test_the_address_bar_follows_a_new_table_and_a_fixed_finished_game(phone, server):
    table_url = start_table(phone, server, "The Smiths")  # waits for the table's address
    assert "/tables/new" not in phone.url and phone.url == table_url
    start_game(phone, server, ["Ann", "Bob"], first="1")
    keeper_url = phone.url
    enter_hand(phone, "Ann", {"1": "55"})  # the one phase: Ann wins
    expect(phone.locator(".winner")).to_be_visible()
    open_fix(phone, 1)
    phone.fill("input[name=points-1]", "60")
    phone.click("button:has-text('Save the correction')")
    expect(phone.locator("[data-saved]")).to_contain_text("Hand 1 corrected.")
    expect(phone).to_have_url(re.compile(re.escape(keeper_url) + "(#.*)?$"))
