"""An evening that flows: every screen follows the table from game to game, no typed hand is
lost to a second phone or a dropped Wi-Fi, and every hand starts where the thumb is."""

from __future__ import annotations

import re
import time

from pages import (
    TABLET,
    WAIT,
    enter_hand,
    offline,
    online,
    open_fix,
    open_page,
    player_links,
    score_of,
    start_game,
    start_table,
    stored_hands,
    until,
)
from playwright.sync_api import expect

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True}


def _game_from_table(page, table_url: str, **options) -> str:
    page.goto(table_url)
    page.click("text=Start a new game")
    for i, name in enumerate(["Ann", "Bob"]):
        page.fill(f"#player-{i}", name)
    if options:
        page.click("text=House rules (optional)")
        for key, value in options.items():
            page.fill(f"#opt-{key}", value)
    page.click("text=Start the game")
    page.wait_for_url(re.compile(r".*/g/[^/]+/[^/]+$"))
    return page.url


def _is_poll(response) -> bool:
    headers = response.request.headers
    return headers.get("hx-request") == "true" and "hx-boosted" not in headers


def test_every_screen_follows_the_table_into_the_rematch(browser, server):
    keeper = open_page(browser, server, **PHONE)
    table_url = start_table(keeper, server, "The Smiths")
    keeper_url = _game_from_table(keeper, table_url, first="1")
    game_id = keeper_url.split("/")[-2]
    keeper.goto(table_url)
    screen_url = keeper.locator("#table-screen input").input_value()
    players = player_links(keeper, keeper_url)
    screens = {
        "watcher": open_page(browser, f"{server}/v/{game_id}", **PHONE),
        "table screen": open_page(browser, screen_url, **TABLET),
        "second scorekeeper": open_page(browser, keeper_url, **PHONE),
        "Ann's phone": open_page(browser, players["Ann"], **PHONE),
        "Bob's phone": open_page(browser, players["Bob"], **PHONE),
    }
    try:
        enter_hand(keeper, "Ann", {"1": "50"})  # Ann makes the one phase: the game is over
        for page in screens.values():
            expect(page.locator("body")).to_contain_text("Ann wins")
        keeper.click("button:has-text('Rematch')")
        keeper.wait_for_url(lambda url: "/g/" in url and game_id not in url)
        new_id = keeper.url.split("/")[-2]
        assert new_id != game_id
        for page in screens.values():  # nobody taps anything
            expect(page.locator("body")).to_contain_text("Hand 1")
            expect(page.locator("body")).not_to_contain_text("Ann wins")
        expect(screens["watcher"]).to_have_url(f"{server}/v/{new_id}")
        expect(screens["second scorekeeper"]).to_have_url(keeper.url)
        for name in ("Ann", "Bob"):
            expect(screens[f"{name}'s phone"]).to_have_url(re.compile(rf".*/p/{new_id}/[\w-]+$"))
            expect(screens[f"{name}'s phone"].locator("h1")).to_contain_text(name)
        expect(screens["table screen"]).to_have_url(screen_url)  # the same address all evening
        # each screen keeps its rights: the watcher still cannot record
        watcher = screens["watcher"]
        assert watcher.locator("#record").count() == 0
        assert watcher.locator("form[method=post]:not([action$='/forget'])").count() == 0
        home = watcher.context.new_page()
        home.goto(server)
        expect(home.locator("main")).to_contain_text("Watching")
        expect(home.locator(f"a[href='/v/{new_id}']")).to_have_count(1)
        expect(home.locator("main")).not_to_contain_text("Continue:")
    finally:
        for page in (keeper, *screens.values()):
            page.context.close()


def test_a_finished_game_opened_later_links_to_the_next_game_and_stays_put(browser, server):
    keeper = open_page(browser, server, **PHONE)
    start_game(keeper, server, ["Ann", "Bob"], first="1")
    finished_url = keeper.url
    enter_hand(keeper, "Ann", {"1": "50"})
    keeper.click("button:has-text('Rematch')")
    keeper.wait_for_url(lambda url: url != finished_url)
    rematch_url = keeper.url
    try:
        keeper.goto(finished_url)
        link = keeper.get_by_role("link", name=re.compile("Next game: .*Ann.*Bob"))
        expect(link).to_have_attribute("href", "/" + rematch_url.split("/", 3)[3])
        for _ in range(2):  # its polls come back unchanged: opened after the rematch, it stays
            answer = keeper.wait_for_event("response", _is_poll)
            assert answer.status == 304
        expect(keeper).to_have_url(finished_url)
    finally:
        keeper.context.close()


def test_points_from_phones_never_freeze_a_second_scorekeepers_form(browser, server):
    a = open_page(browser, server, **PHONE)
    start_game(a, server, ["Ann", "Bob", "Cy"])
    keeper_url = a.url
    players = player_links(a, keeper_url)
    c = open_page(browser, keeper_url, **PHONE)
    ann = open_page(browser, players["Ann"], **PHONE)
    try:
        ann.fill("#points", "25")
        ann.click("button:has-text('Send to the scorekeeper')")
        for page in (a, c):  # filled in from Ann's phone: nobody is typing on a or c
            expect(page.locator("input[name=points-0]")).to_have_value("25")
            assert page.locator("#record form[data-typing]").count() == 0
        enter_hand(c, "Bob", {"2": "60"})
        expect(a.locator("#record h2")).to_have_text("Record hand 2")
        expect(a.locator("input[name=points-0]")).to_have_value("")  # nothing stale is kept

        # a types hand 2 while c saves it: a's entry is kept and offered as hand 3
        a.click("label.pill:text-is('Cy')")
        a.fill("input[name=points-0]", "15")
        a.fill("input[name=points-1]", "60")
        enter_hand(c, "Ann", {"1": "20", "2": "35"})
        notice = a.locator("#record .alert.stale")
        expect(notice).to_contain_text("Hand 2 was just saved on another phone")
        expect(notice).to_contain_text(re.compile("Bob\u2069? 20, \u2068?Cy\u2069? 35"))
        expect(a.locator("input[name=points-1]")).to_have_value("60")  # what was typed is kept
        a.click("button:has-text('Move it to hand 3')")
        a.click("#record button[type=submit]")
        expect(a.locator("#scoreboard .status")).to_contain_text("Hand 4")
        hands = stored_hands(keeper_url)
        assert len(hands) == 3 and hands[2]["went_out"] == "Cy"
        assert hands[2]["points"] == {"Ann": 15, "Bob": 60}
    finally:
        for page in (a, c, ann):
            page.context.close()


def test_a_save_made_offline_is_kept_and_sent_once_when_the_connection_is_back(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    keeper_url = phone.url
    offline(phone)
    enter_hand(phone, "Ann", {"1": "45"})
    pending = phone.locator("#record .notice.pending")
    expect(pending).to_contain_text("Not sent yet")
    expect(pending).to_contain_text("Ann out, Bob 45")  # typed on this phone: no marks
    assert stored_hands(keeper_url) == []
    online(phone)  # no tap: it goes by itself
    expect(phone.locator("#scoreboard .status")).to_contain_text("Hand 2")
    expect(score_of(phone, "Bob")).to_have_text("45")
    expect(phone.locator("#record .notice.pending")).to_have_count(0)
    assert len(stored_hands(keeper_url)) == 1


def test_a_kept_save_survives_a_reload_and_is_sent_once(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    keeper_url = phone.url
    offline(phone)
    enter_hand(phone, "Bob", {"0": "30"})
    expect(phone.locator("#record .notice.pending")).to_contain_text("Not sent yet")
    online(phone)
    phone.goto(keeper_url)  # reloaded as soon as the connection is back
    expect(phone.locator("#scoreboard .status")).to_contain_text("Hand 2")
    expect(score_of(phone, "Ann")).to_have_text("30")
    phone.reload()
    expect(phone.locator("#scoreboard .status")).to_contain_text("Hand 2")
    assert len(stored_hands(keeper_url)) == 1


def test_a_kept_save_that_another_phone_beat_shows_the_difference(browser, phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    keeper_url = phone.url
    other = open_page(browser, keeper_url, **PHONE)
    try:
        offline(phone)
        enter_hand(phone, "Ann", {"1": "45"})
        expect(phone.locator("#record .notice.pending")).to_contain_text("Not sent yet")
        enter_hand(other, "Bob", {"0": "20"})
        # saved before this phone is back: on a busy machine its resend could come first
        expect(other.locator("[data-saved]")).to_contain_text("Hand 1 saved")
        online(phone)
        message = phone.locator(".alert", has_text="was saved on another phone while you typed")
        expect(message).to_contain_text(re.compile("Ann\u2069? 20, \u2068?Bob"))
        expect(phone.locator("input[name=points-1]")).to_have_value("45")  # kept, as hand 2
        assert len(stored_hands(keeper_url)) == 1
    finally:
        other.context.close()


def test_watchers_say_they_are_reconnecting_while_the_server_is_gone(browser, restartable_server):
    server = restartable_server
    keeper = open_page(browser, server.url, **PHONE)
    start_game(keeper, server.url, ["Ann", "Bob"])
    keeper_url = keeper.url
    watcher = open_page(browser, f"{server.url}/v/{keeper_url.split('/')[-2]}", **PHONE)
    try:
        banner = watcher.locator("#reconnecting")
        expect(banner).to_be_hidden()
        server.stop()
        expect(banner).to_be_visible()
        last = re.compile(r"Reconnecting… \(last update \d?\d:\d\d\W?[AP]M")
        expect(banner).to_contain_text(last)
        server.start()
        expect(banner).to_be_hidden()
        keeper.goto(keeper_url)
        enter_hand(keeper, "Ann", {"1": "50"})
        expect(score_of(watcher, "Bob")).to_have_text("50")
    finally:
        watcher.context.close()
        keeper.context.close()


def test_a_page_that_cannot_reach_the_server_asks_less_and_less_often(browser, restartable_server):
    """After a restart a thousand phones must not all ask at once: each failure makes the page
    wait longer (2, 4, 8 ... s, at random between half and all of it); waking the phone still
    asks at once."""
    server = restartable_server
    keeper = open_page(browser, server.url, **PHONE)
    start_game(keeper, server.url, ["Ann", "Bob"])
    watcher = open_page(browser, f"{server.url}/v/{keeper.url.split('/')[-2]}", **PHONE)
    failed: list[float] = []

    def note(request) -> None:
        if request.headers.get("hx-request") == "true":
            failed.append(time.monotonic())

    watcher.on("requestfailed", note)
    try:
        server.stop()
        until(watcher, lambda: len(failed) >= 4, timeout=4 * WAIT)
        gaps = [later - earlier for earlier, later in zip(failed, failed[1:], strict=False)]
        # without backing off the page would ask every POLL_SECONDS (1 s here); after its
        # third failure it waits at least half of 8 s
        assert gaps[2] >= 3.5, gaps
        server.start()
        watcher.evaluate("window.dispatchEvent(new Event('focus'))")  # the phone wakes up
        expect(watcher.locator("#reconnecting")).to_be_hidden()
    finally:
        watcher.context.close()
        keeper.context.close()


def test_fixing_an_inferred_tick_follows_the_points(phone, server):
    start_game(phone, server, ["Ann", "Bob", "Cy"])
    keeper_url = phone.url
    enter_hand(phone, "Bob", {"0": "40", "2": "60"})  # Ann under 50: she made her phase
    expect(phone.locator("#record [data-saved]")).to_contain_text("Hand 1 saved")
    assert stored_hands(keeper_url)[0]["made"] == ["Ann", "Bob"]
    open_fix(phone, 1)
    made = phone.locator("input[name=made-0]")
    expect(made).not_to_be_checked()  # inferred, not typed
    expect(phone.locator("#live-0")).to_contain_text("will be marked as having made their phase")
    phone.fill("input[name=points-0]", "60")
    expect(phone.locator("#live-0 .will-mark")).to_have_count(0)
    expect(phone.locator("#hand-check")).not_to_contain_text("Ann will be marked")
    phone.click("button:has-text('Save the correction')")
    expect(score_of(phone, "Ann")).to_have_text("60")
    assert stored_hands(keeper_url)[0]["made"] == ["Bob"]


def test_a_hand_typed_on_a_phone_needs_no_scroll(phone, server):
    """Taps, keys and scrolls for a 4-player typed hand: it starts at "Who went out?"."""
    start_game(phone, server, ["Ann", "Bob", "Cy", "Di"])
    enter_hand(phone, "Ann", {"1": "50", "2": "20", "3": "35"})
    expect(phone.locator("#record [data-saved]")).to_contain_text("Hand 1 saved")
    expect(phone.locator("#record-heading")).to_be_focused()
    taps = keys = scrolls = 0
    steps = [("label.pill:text-is('Bob')", None)]
    steps += [
        (f"input[name=points-{seat}]", total)
        for seat, total in (("0", "25"), ("2", "10"), ("3", "45"))
    ]
    steps += [("#record button[type=submit]", None)]
    for selector, typed in steps:
        target = phone.locator(selector)
        if not target.evaluate(
            "(el) => { const r = el.getBoundingClientRect();"
            " return r.top >= 0 && r.bottom <= window.innerHeight; }"
        ):
            scrolls += 1
        target.click()
        taps += 1
        if typed:
            phone.keyboard.type(typed)
            keys += len(typed)
            # the live check's word on this total (under 50: will be marked) is on the page
            # before the next tap is judged, as it is for a person
            seat = selector.split("-")[-1].rstrip("]")
            expect(phone.locator(f"#live-{seat} .will-mark")).to_be_visible()
    expect(phone.locator("#scoreboard .status")).to_contain_text("Hand 3")
    assert (taps, keys, scrolls) == (5, 6, 0)


def test_a_points_field_selects_what_it_holds_when_tapped(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    enter_hand(phone, "Ann", {"1": "35"})
    open_fix(phone, 1)
    phone.click("input[name=points-1]")
    phone.keyboard.type("40")
    expect(phone.locator("input[name=points-1]")).to_have_value("40")  # not 3540


def test_the_phase_checker_keeps_the_scroll_and_the_focus_while_cards_are_tapped(phone, server):
    """Each tap swaps the page in: the card tapped stays under the thumb, focused."""
    phone.goto(f"{server}/check?phase=2")
    for card in ("R7", "B7", "G7", "Y3", "R4", "B5", "G6"):
        button = phone.locator(f"#add-{card}")
        button.scroll_into_view_if_needed()  # a row further down the palette: the user's scroll
        where = button.evaluate("(el) => el.getBoundingClientRect().top")
        button.click()
        expect(button).to_be_focused()
        expect(phone).to_have_url(re.compile(rf"add={card}$"))
        assert abs(button.evaluate("(el) => el.getBoundingClientRect().top") - where) < 1
        assert phone.evaluate("window.scrollY") > 0  # never back to the top
    expect(phone.locator("#verdict .verdict.valid")).to_contain_text("phase 2 is made")


def test_a_german_phone_says_when_it_last_heard_in_german_time(browser, server):
    """The reconnecting bar said "zuletzt aktualisiert 06:43 AM" beside German pages' 06:39:
    the phone's own locale is American, the family reads the app in German."""
    keeper = open_page(browser, server, **PHONE)
    start_game(keeper, server, ["Ann", "Bob"])
    watcher = open_page(browser, f"{server}/v/{keeper.url.split('/')[-2]}", **PHONE, locale="en-US")
    try:
        watcher.click("footer nav a[lang=de]")  # the family's language, on an American phone
        expect(watcher.locator("html")).to_have_attribute("lang", "de")
        offline(watcher)
        watcher.evaluate("window.dispatchEvent(new Event('offline'))")
        banner = watcher.locator("#reconnecting")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text(re.compile(r"\b\d\d:\d\d\)"))
        expect(banner).not_to_contain_text(re.compile("AM|PM"))
    finally:
        watcher.context.close()
        keeper.context.close()
