"""A family's table across devices: finding games again, rematch, statistics, escaping."""

from __future__ import annotations

import re

from pages import PHONE, enter_hand, shot, start_game, start_table, table_game
from playwright.sync_api import expect

EVIL = '<img src=x onerror=alert(1)>"&'


def test_device_a_finds_its_games_and_device_b_sees_nothing_until_it_opens_the_table(
    browser, server
):
    a, b = browser.new_context(**PHONE), browser.new_context(**PHONE)
    try:
        page = a.new_page()
        table_url = start_table(page, server, "The Smiths")
        table_game(page, ["Ann", "Bob"])
        expect(page.locator(".status")).to_contain_text("Ann deals")
        page.goto(f"{server}/")
        expect(page.locator(".continue")).to_contain_text("Continue: Ann, Bob, hand 1")
        shot(page, "tables-01-home-continue")
        page.click("text=Continue: Ann, Bob, hand 1")
        enter_hand(page, "Ann", {"1": "60"})
        expect(page.locator(".winner")).to_contain_text("Ann wins")
        page.click("button:has-text('Rematch')")  # same players, the deal passes on
        expect(page.locator(".status")).to_contain_text("Bob deals")
        enter_hand(page, "Bob", {"0": "75"})
        expect(page.locator(".winner")).to_contain_text("Bob wins")

        page.goto(f"{server}/")
        finished = page.locator("section", has_text="Finished games")
        expect(finished.locator("li")).to_have_count(2)
        expect(finished).to_contain_text("winner: Ann")
        expect(finished).to_contain_text("winner: Bob")
        expect(page.locator("text=Continue:")).to_have_count(0)
        shot(page, "tables-02-home-finished")

        other = b.new_page()
        other.goto(f"{server}/")
        expect(other.locator("main")).not_to_contain_text("Ann")
        expect(other.locator("main")).not_to_contain_text("The Smiths")
        other.goto(table_url)
        expect(other.locator("h1")).to_have_text("The Smiths")
        expect(other.locator("section", has_text="Finished games").locator("li")).to_have_count(2)
        other.goto(f"{server}/")
        expect(other.locator("section", has_text="Your tables")).to_contain_text("The Smiths")
        other.goto(f"{server}/new")
        expect(other.locator("#known-names option")).to_have_count(2)  # Ann, Bob
    finally:
        a.close()
        b.close()


def test_a_phone_that_opens_the_watch_link_keeps_the_game_and_others_never_see_it(browser, server):
    keeper, watcher, stranger = (browser.new_context(**PHONE) for _ in range(3))
    without_js = browser.new_context(**PHONE, java_script_enabled=False)
    try:
        page = keeper.new_page()
        start_game(page, server, ["Ann", "Bob"])
        enter_hand(page, "Ann", {"1": "60"})
        view = page.locator("a", has_text="Table view").first.get_attribute("href")
        view = server + view.rsplit("/table", 1)[0]

        phone = watcher.new_page()
        phone.goto(view)
        expect(phone.locator("#keep")).to_contain_text("on this device's start page")
        shot(phone, "tables-03-watch-kept")
        phone.goto(f"{server}/")
        watching = phone.locator("section", has_text="Watching")
        expect(watching).to_contain_text("Ann, Bob")
        expect(watching).to_contain_text("hand 2")
        expect(phone.locator("text=Continue:")).to_have_count(0)  # no scorekeeper link
        shot(phone, "tables-04-home-watching")
        watching.get_by_role("link", name=re.compile("Ann, Bob")).click()
        expect(phone).to_have_url(view)
        phone.goto(f"{server}/")
        phone.get_by_role("button", name="Forget Ann, Bob").click()
        expect(phone.locator("section", has_text="Watching")).to_have_count(0)

        other = stranger.new_page()
        other.goto(f"{server}/")
        expect(other.locator("main")).not_to_contain_text("Ann, Bob")

        plain = without_js.new_page()
        plain.goto(view)  # without JavaScript, opening the page is all it takes
        expect(plain.locator("#keep")).to_contain_text("on this device's start page")
        plain.goto(f"{server}/")
        expect(plain.locator("section", has_text="Watching")).to_contain_text("Ann, Bob")
    finally:
        for context in (keeper, watcher, stranger, without_js):
            context.close()


def test_statistics_and_plots_in_light_and_dark(browser, server):
    for scheme in ("light", "dark"):
        context = browser.new_context(**PHONE, color_scheme=scheme)
        try:
            page = context.new_page()
            start_table(page, server, f"Stats {scheme}")
            table_game(page, ["Ann", "Bob", "Cy"])
            enter_hand(page, "Cy", {"0": "60", "1": "20"})  # Bob made it too, but Cy is out
            expect(page.locator(".winner")).to_contain_text("Cy wins")
            page.click("button:has-text('Rematch')")
            enter_hand(page, "Cy", {"0": "5", "1": "95"})
            expect(page.locator(".winner")).to_contain_text("Cy wins")
            page.goto(f"{server}/")
            page.click(f"text=Stats {scheme}")
            page.click("nav.actions >> text=Statistics")
            expect(page.locator(".lead")).to_contain_text("2 finished games")
            cy = page.locator("article", has_text="Cy")
            expect(cy).to_contain_text("2 (100%)")
            expect(cy.locator("dd").last).to_have_text("2")  # longest winning streak
            expect(page.locator("#wins-title")).to_have_text(  # no invisible marks to copy
                "Wins added up over 2 games: Ann 0, Bob 0, Cy 2"
            )
            expect(page.locator("svg .label", has_text="Cy 2")).to_be_visible()
            label_fill = page.locator("svg .label").first.evaluate("e => getComputedStyle(e).fill")
            background = page.evaluate("getComputedStyle(document.body).backgroundColor")
            assert label_fill != background
            dark = scheme == "dark"
            assert (label_fill == "rgb(243, 244, 246)") is dark  # light text on dark
            shot(page, f"tables-03-stats-{scheme}")
        finally:
            context.close()


def test_names_are_escaped_on_the_table_home_stats_and_plots(browser, server):
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        dialogs = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        start_table(page, server, EVIL)
        expect(page.locator("h1")).to_have_text(EVIL)
        table_game(page, [EVIL, "Bob"])
        enter_hand(page, "Bob", {"0": "60"})
        page.goto(f"{server}/")
        expect(page.locator("main")).to_contain_text(f"{EVIL}, Bob")
        expect(page.locator("section", has_text="Your tables")).to_contain_text(EVIL)
        page.click("section:has-text('Your tables') a")
        expect(page.locator(".roster")).to_contain_text(EVIL)
        page.click("nav.actions >> text=Statistics")
        expect(page.locator("article h2").first).to_have_text(EVIL)
        expect(page.locator("#wins-title")).to_contain_text(EVIL)
        expect(page.locator("main img")).to_have_count(0)
        page.goto(f"{server}/new")
        expect(page.locator("#known-names option").first).to_have_attribute("value", EVIL)
        assert dialogs == []
        shot(page, "tables-04-escaping")
    finally:
        context.close()


def test_two_players_send_points_and_the_scorekeepers_form_fills_in_live(browser, server):
    keeper, ann_phone, bob_phone = (browser.new_context(**PHONE) for _ in range(3))
    try:
        page = keeper.new_page()
        page.goto(f"{server}/new")
        for i, name in enumerate(["Ann", "Bob", "Cy"]):
            page.fill(f"#player-{i}", name)
        page.click("text=Start the game")
        page.wait_for_url(re.compile(r".*/g/[^/]+/[^/]+$"))
        game_url = page.url
        page.click("text=Players enter their own points")
        pick = page.locator("input[aria-label='Link where players pick their name']").input_value()
        bob_link = page.locator('input[aria-label="Bob\'s link"]').input_value()
        page.goto(game_url)

        ann = ann_phone.new_page()
        ann.goto(pick)
        ann.click("a:has-text('Ann')")
        expect(ann.locator("h1")).to_have_text("Ann: my points")
        assert game_url.rsplit("/", 1)[1] not in ann.content()  # never the scorekeeper link
        ann.check("input[name=went_out]")
        ann.click("text=Send to the scorekeeper")
        expect(ann.locator(".ok")).to_contain_text("you went out")

        bob = bob_phone.new_page()
        bob.goto(bob_link)
        bob.fill("#points", "25")
        bob.check("input[name=made]")
        bob.click("text=Send to the scorekeeper")
        expect(bob.locator("#player-status")).to_contain_text("Nothing is saved until")
        shot(bob, "tables-05-player-sent")

        # the scorekeeper's open page fills in without a reload
        expect(page.locator("input[name=points-1]")).to_have_value("25")
        expect(page.locator("#out-0")).to_be_checked()
        expect(page.locator("input[name=made-1]")).to_be_checked()
        expect(page.locator(".from-phones")).to_contain_text("Bob: 25, made phase")
        expect(page.locator(".status")).to_contain_text("Hand 1")  # nothing saved yet
        page.fill("input[name=points-2]", "60")
        shot(page, "tables-06-keeper-filled")
        page.click("button:has-text('Save hand 1')")
        expect(page.locator(".status")).to_contain_text("Hand 2")
        expect(page.locator("#scoreboard li.player", has_text="Bob")).to_contain_text("25")

        # Bob's phone follows by itself: no reload, no "Refresh"
        expect(bob.locator("#player-status")).to_contain_text("Hand 2")
        expect(bob.locator("#player-status")).to_contain_text("your phase: 2")
        expect(bob.locator("#player-form input[name=hand_number]")).to_have_value("2")
    finally:
        for context in (keeper, ann_phone, bob_phone):
            context.close()


def test_a_guests_undo_stops_at_the_table_and_the_family_takes_the_move_back(browser, server):
    """Issue 38: a guest's Undo, with only the game's scorekeeper link, stops at the game's
    filing into the family's table; the table's page offers "Undo the move" instead."""
    family, guest = browser.new_context(**PHONE), browser.new_context(**PHONE)
    try:
        keeper = family.new_page()
        start_game(keeper, server, ["Dee", "Eve"])
        game_url = keeper.url
        enter_hand(keeper, "Dee", {"1": "60"})
        expect(keeper.locator(".status")).to_contain_text("Hand 2")
        table_url = start_table(keeper, server, "The Smiths")
        keeper.click("button:has-text('Add this game')")
        expect(keeper.locator(".notice")).to_contain_text("The game is now in this table")
        row = keeper.locator(".game-list li", has_text="Dee, Eve")
        expect(row.locator("button", has_text="Undo the move")).to_be_visible()
        shot(keeper, "tables-undo-the-move")

        phone = guest.new_page()
        phone.goto(game_url)
        phone.click("button:has-text('Undo last change')")
        expect(phone.locator("main")).to_contain_text("Undo stops here")
        keeper.goto(table_url)
        expect(keeper.locator(".game-list li", has_text="Dee, Eve")).to_have_count(1)

        keeper.locator(".game-list li", has_text="Dee, Eve").locator("button").click()
        expect(keeper.locator(".notice")).to_contain_text("Undone: Moved into the table")
        expect(keeper.locator(".game-list li", has_text="Dee, Eve")).to_have_count(0)
    finally:
        family.close()
        guest.close()
