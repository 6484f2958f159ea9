"""A resend is a Save: a change made while the phone is offline is kept, said beside the
button just tapped, and sent again when the connection is back; the page after it is the
whole scorekeeper page. A change that cannot be kept is refused on the spot, saying why."""

from __future__ import annotations

import re
from contextlib import suppress

from pages import (
    PHONE,
    PLAYER_POSTS,
    POSTS,
    enter_hand,
    offline,
    online,
    open_fix,
    open_page,
    player_links,
    posts_to,
    refuse_posts,
    score_of,
    sent_after_refused,
    settled,
    start_game,
    stored_hands,
    until,
    whole_keeper_page,
)
from playwright.sync_api import expect


def _in_view(locator) -> bool:
    return locator.evaluate(
        "(el) => { const r = el.getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight + 1; }"
    )


def test_the_page_after_a_resent_save_is_the_whole_scorekeeper_page(phone, server):
    start_game(phone, server, ["Ann", "Bob", "Cy", "Dee"])
    keeper_url = phone.url
    offline(phone)
    enter_hand(phone, "Ann", {"1": "45", "2": "20", "3": "60"})
    pending = phone.locator(".notice.pending")
    expect(pending).to_contain_text("Not sent yet")
    assert _in_view(pending), "the notice is beside the Save just tapped"
    assert _in_view(phone.locator("form.hand-form button[type=submit]"))
    expect(phone.locator("form.hand-form .notice.pending + button[type=submit]")).to_have_count(1)
    online(phone)
    expect(phone.locator("#scoreboard .status")).to_contain_text("Hand 2")
    expect(phone.locator("[data-saved]")).to_contain_text("Hand 1 saved")
    whole_keeper_page(phone)
    expect(score_of(phone, "Bob")).to_have_text("45")
    assert len(stored_hands(keeper_url)) == 1
    # and it keeps itself current: its poll answers the scorekeeper's fragment in place
    enter_hand(phone, "Bob", {"0": "10", "2": "5", "3": "50"})
    expect(phone.locator("#scoreboard .status")).to_contain_text("Hand 3")
    whole_keeper_page(phone)


def test_a_fix_made_offline_is_kept_and_sent_when_the_connection_is_back(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    keeper_url = phone.url
    enter_hand(phone, "Ann", {"1": "35"})
    expect(phone.locator("[data-saved]")).to_contain_text("Hand 1 saved")
    open_fix(phone, 1)
    with phone.expect_response(re.compile(r"/hands/1/check$")):  # its live check is in
        phone.fill("input[name=points-1]", "40")
    expect(phone.locator("input[name=points-1]")).to_have_value("40")
    offline(phone)
    phone.click("button:has-text('Save the correction')")
    pending = phone.locator(".notice.pending")
    expect(pending).to_contain_text("Not sent yet")
    expect(pending).to_contain_text("Bob 40")
    assert _in_view(pending) and _in_view(phone.locator("form.hand-form button[type=submit]"))
    assert stored_hands(keeper_url)[0]["points"] == {"Bob": 35}
    online(phone)
    expect(score_of(phone, "Bob")).to_have_text("40")
    whole_keeper_page(phone)
    expect(phone).to_have_url(re.compile(re.escape(keeper_url) + "(#.*)?$"))
    assert stored_hands(keeper_url)[0]["points"] == {"Bob": 40}


def test_a_fix_made_offline_that_no_longer_fits_is_refused_with_its_reason(browser, phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    keeper_url = phone.url
    enter_hand(phone, "Ann", {"1": "35"})
    open_fix(phone, 1)
    phone.fill("input[name=points-1]", "40")
    expect(phone.locator("input[name=points-1]")).to_have_value("40")
    offline(phone)
    phone.click("button:has-text('Save the correction')")
    expect(phone.locator(".notice.pending")).to_contain_text("Not sent yet")
    other = browser.new_context().new_page()
    try:  # meanwhile the hand is fixed on another phone
        other.goto(f"{keeper_url}/hands/1")
        other.fill("input[name=points-1]", "25")
        other.click("button:has-text('Save the correction')")
        other.wait_for_url(keeper_url)
    finally:
        other.context.close()
    online(phone)
    expect(phone.locator("main")).to_contain_text("Another phone changed this game")
    expect(phone.locator(".notice.pending")).to_have_count(0)
    assert stored_hands(keeper_url)[0]["points"] == {"Bob": 25}  # nothing overwritten unseen


def test_an_undo_made_offline_is_refused_on_the_spot(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    keeper_url = phone.url
    enter_hand(phone, "Ann", {"1": "35"})
    expect(phone.locator("[data-saved]")).to_contain_text("Hand 1 saved")
    offline(phone)
    undo = phone.locator("button", has_text="Undo")
    undo.click()
    refused = phone.locator(".alert.offline")
    expect(refused).to_contain_text("not sent")
    assert _in_view(refused)
    online(phone)
    assert len(stored_hands(keeper_url)) == 1


def _fix_bob_offline(phone, server) -> str:
    """Hand 1 saved (Bob 35), then corrected to Bob 40 on its Fix page while offline: kept."""
    start_game(phone, server, ["Ann", "Bob"])
    keeper_url = phone.url
    enter_hand(phone, "Ann", {"1": "35"})
    expect(phone.locator("[data-saved]")).to_contain_text("Hand 1 saved")
    open_fix(phone, 1)
    with phone.expect_response(re.compile(r"/hands/1/check$")):
        phone.fill("input[name=points-1]", "40")
    offline(phone)
    phone.click("button:has-text('Save the correction')")
    expect(phone.locator(".notice.pending")).to_contain_text("Bob 40")
    return keeper_url


def test_a_fix_kept_offline_is_sent_after_going_back_to_the_game(phone, server):
    keeper_url = _fix_bob_offline(phone, server)
    phone.go_back()  # still offline: the Fix page is left before it could send
    expect(phone).to_have_url(keeper_url)
    online(phone)
    expect(phone.locator("[data-saved]")).to_contain_text("Hand 1 corrected")
    expect(score_of(phone, "Bob")).to_have_text("40")
    whole_keeper_page(phone)
    assert stored_hands(keeper_url)[0]["points"] == {"Bob": 40}


def test_the_game_page_says_a_kept_fix_and_sends_it(phone, server):
    keeper_url = _fix_bob_offline(phone, server)
    context = phone.context
    # no change reaches the server yet, from any page of this phone (a page being closed
    # loses its own routes, and once heard "online" and sent its change straight through)
    context.route(POSTS, lambda route: route.abort("internetdisconnected"))
    phone.close()  # the Fix page is closed before the connection is back
    context.set_offline(False)  # pages load again, but a change cannot reach the server yet
    game = context.new_page()
    game.goto(keeper_url)
    pending = game.locator(".notice.pending")
    expect(pending).to_contain_text("Not sent yet")
    expect(pending).to_contain_text("Correct hand 1")  # not the next hand's form
    expect(pending).to_contain_text("Bob 40")
    expect(game.locator("#record .notice.pending")).to_have_count(0)
    assert stored_hands(keeper_url)[0]["points"] == {"Bob": 35}
    context.unroute(POSTS)  # the server is reachable: sent without a tap
    expect(game.locator("[data-saved]")).to_contain_text("Hand 1 corrected")
    expect(score_of(game, "Bob")).to_have_text("40")
    expect(game.locator(".notice.pending")).to_have_count(0)
    whole_keeper_page(game)
    assert stored_hands(keeper_url)[0]["points"] == {"Bob": 40}


# --- offline as one rule (issue 41, finding 7): Save, Fix, Delete and a player's Send -------


def test_a_delete_made_offline_is_kept_and_sent_once_when_the_connection_is_back(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    keeper_url = phone.url
    enter_hand(phone, "Ann", {"1": "35"})
    expect(phone.locator("[data-saved]")).to_contain_text("Hand 1 saved")
    enter_hand(phone, "Bob", {"0": "20"})
    expect(phone.locator("[data-saved]")).to_contain_text("Hand 2 saved")
    open_fix(phone, 2)
    posts = posts_to(phone, "/hands/2/delete")
    offline(phone)
    phone.click("button:has-text('Delete hand 2')")
    pending = phone.locator(".notice.pending")
    expect(pending).to_contain_text("Not sent yet")
    expect(phone.locator(".alert.offline")).to_have_count(0)  # kept, not refused
    assert len(stored_hands(keeper_url)) == 2
    online(phone)
    expect(phone.locator("#record-heading")).to_have_text("Record hand 2")  # the game page
    expect(phone).to_have_url(re.compile(re.escape(keeper_url) + "(#.*)?$"))
    expect(phone.locator(".notice.pending")).to_have_count(0)
    assert len(stored_hands(keeper_url)) == 1
    until(phone, lambda: sent_after_refused(posts) == 1)  # sent once when back


def test_a_players_send_made_offline_is_kept_and_sent_once(browser, phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    keeper_url = phone.url
    bob = open_page(browser, player_links(phone, keeper_url)["Bob"], **PHONE)
    try:
        settled(bob)
        posts = posts_to(bob, "/p/")
        bob.context.route(PLAYER_POSTS, refuse_posts)
        bob.context.set_offline(True)
        bob.fill("#points", "45")
        bob.click("#send")
        expect(bob.locator(".player-form .notice.pending")).to_contain_text("45")
        expect(bob.locator(".alert.offline")).to_have_count(0)
        bob.click("#send")  # tapped again, still offline: still one change waiting
        expect(bob.locator(".notice.pending")).to_have_count(1)
        bob.context.unroute(PLAYER_POSTS)
        bob.context.set_offline(False)
        expect(bob.locator("#player-status")).to_contain_text("Sent: 45 points.")
        expect(bob.locator(".notice.pending")).to_have_count(0)
        expect(phone.locator("input[name=points-1]")).to_have_value("45")
        until(bob, lambda: sent_after_refused(posts) == 1)
    finally:
        bob.context.close()


def test_the_offline_notices_go_as_soon_as_the_phone_is_back(browser, phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    keeper_url = phone.url
    enter_hand(phone, "Ann", {"1": "35"})
    bob = open_page(browser, player_links(phone, keeper_url)["Bob"], **PHONE)
    try:
        settled(bob)
        settled(phone)
        offline(phone)
        phone.click("button:has-text('Undo last change')")
        expect(phone.locator(".alert.offline")).to_contain_text("not sent")
        bob.context.set_offline(True)
        banner = bob.locator("#reconnecting")
        expect(banner).to_be_visible()
        held = []  # the polls that would say the server is there again are not answered
        for page in (phone, bob):
            page.route(re.compile(r".*/(g|p)/.*"), lambda route: held.append(route))
        online(phone)
        bob.context.set_offline(False)
        expect(banner).to_be_hidden()  # the phone is back: no poll needed to say so
        expect(phone.locator(".alert.offline")).to_have_count(0)
        for page in (phone, bob):
            page.unroute(re.compile(r".*/(g|p)/.*"))
        for route in held:
            with suppress(Exception):
                route.continue_()
    finally:
        bob.context.close()


def test_a_double_tap_on_save_sends_once(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    keeper_url = phone.url
    settled(phone)
    arrived: list = []  # each Save that left the phone: (its hand's number, its route)

    def slow_first(route) -> None:  # the first Save takes its time on a slow network
        arrived.append((route.request.post_data_json["hand_number"], route))
        if len(arrived) > 1:
            route.continue_()

    phone.route(re.compile(r".*/g/[^/]+/[^/]+/hands$"), slow_first)
    phone.click("label.pill:text-is('Ann')")
    phone.fill("input[name=points-1]", "45")
    save = phone.locator("form.hand-form button[type=submit]")
    save.click()
    until(phone, lambda: len(arrived) == 1)
    save.click()  # tapped again while the first is on its way
    arrived[0][1].continue_()
    expect(phone.locator("[data-saved]")).to_contain_text("Hand 1 saved")
    enter_hand(phone, "Bob", {"0": "20"})  # the next Save leaves after any second one would
    expect(phone.locator("[data-saved]")).to_contain_text("Hand 2 saved")
    assert [number for number, _route in arrived] == ["1", "2"]  # the second tap sent nothing
    assert len(stored_hands(keeper_url)) == 2


def test_a_save_tapped_again_while_the_kept_one_is_sent_sends_nothing_more(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    keeper_url = phone.url
    offline(phone)
    enter_hand(phone, "Ann", {"1": "45"})
    expect(phone.locator("#record .notice.pending")).to_contain_text("Not sent yet")
    arrived: list = []  # each Save that left the phone: (its hand's number, its route)

    def slow_first(route) -> None:  # the kept Save, sent when back, takes its time
        arrived.append((route.request.post_data_json["hand_number"], route))
        if len(arrived) > 1:
            route.continue_()

    phone.unroute(POSTS)
    phone.route(re.compile(r".*/g/[^/]+/[^/]+/hands$"), slow_first)
    phone.context.set_offline(False)  # back: the kept Save is on its way...
    until(phone, lambda: len(arrived) == 1)
    phone.click("form.hand-form button[type=submit]")  # ...when Save is tapped again
    arrived[0][1].continue_()
    expect(phone.locator("#scoreboard .status")).to_contain_text("Hand 2")
    expect(phone.locator("main")).not_to_contain_text("already entered")
    enter_hand(phone, "Bob", {"0": "20"})  # the next Save leaves after any second one would
    expect(phone.locator("[data-saved]")).to_contain_text("Hand 2 saved")
    assert [number for number, _route in arrived] == ["1", "2"]
    assert len(stored_hands(keeper_url)) == 2
