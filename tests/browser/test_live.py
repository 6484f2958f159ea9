"""Every phone showing a game follows it live, for a whole evening.

A scorekeeper phone plays; a watcher on the view link, a table view and a
second scorekeeper phone must each show every change within 3 seconds, also
after idle gaps longer than the poll interval (1 s in these tests), after a
phone sleeps and wakes, and after the server restarts.
"""

from __future__ import annotations

import re
from contextlib import ExitStack

from pages import POLL_SECONDS, TABLET, enter_hand, open_page, score_of, shot, start_game, until
from playwright.sync_api import expect

# The app's poll interval as served here (pages.py), in ms: a sleeping page must not
# poll for two and a half of them, and a waking one must not wait for the next.
POLL = POLL_SECONDS * 1000
ASLEEP = POLL * 5 // 2
AT_ONCE = POLL * 4 // 5
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True}


def _watchers(browser, keeper_url: str) -> dict:
    game_id = keeper_url.split("/")[-2]
    base = keeper_url.split("/g/")[0]
    return {
        "watcher": open_page(browser, f"{base}/v/{game_id}", **PHONE),
        "table": open_page(browser, f"{base}/v/{game_id}/table", **TABLET),
        "second scorekeeper": open_page(browser, keeper_url, **PHONE),
    }


def _all_show(pages: dict, hand: str, scores: dict[str, str]) -> None:
    for page in pages.values():
        expect(page.locator("#scoreboard .status")).to_contain_text(hand)
        for name, score in scores.items():
            expect(score_of(page, name)).to_have_text(score)


def _idle(pages: dict) -> None:
    """Everyone idles until each page has polled again since it showed the last change."""
    with ExitStack() as waiting:
        for page in pages.values():
            waiting.enter_context(page.expect_request(_is_poll))


def _close(pages: dict) -> None:
    for page in pages.values():
        page.context.close()


def test_three_devices_follow_every_change_of_a_game(browser, server):
    scorer = open_page(browser, server, **PHONE)
    start_game(scorer, server, ["Ann", "Bob", "Cy"])
    others = _watchers(browser, scorer.url)
    try:
        _all_show(others, "Hand 1", {"Ann": "0", "Bob": "0", "Cy": "0"})
        hands = [
            ("Ann", {"1": "50", "2": "20"}, {"Bob": "50", "Cy": "20"}),
            ("Bob", {"0": "10", "2": "60"}, {"Ann": "10", "Cy": "80"}),
            ("Cy", {"0": "50", "1": "15"}, {"Ann": "60", "Bob": "65"}),
            ("Ann", {"1": "25", "2": "30"}, {"Bob": "90", "Cy": "110"}),
            ("Bob", {"0": "5", "2": "5"}, {"Ann": "65", "Cy": "115"}),
        ]
        for number, (went_out, points, totals) in enumerate(hands, start=1):
            _idle(others)  # the phones poll in between
            enter_hand(scorer, went_out, points)
            _all_show(others, f"Hand {number + 1}", totals)
        expect(others["second scorekeeper"].locator("#record h2")).to_have_text("Record hand 6")
        expect(others["second scorekeeper"].locator("table.hands tbody tr")).to_have_count(5)
        shot(others["table"], "live-01-table-view")

        _idle(others)
        scorer.get_by_role("link", name="Fix hand 2").click()
        expect(scorer.locator("h1")).to_have_text("Correct hand 2")
        scorer.fill("input[name=points-0]", "40")
        scorer.click("button:has-text('Save the correction')")
        expect(score_of(scorer, "Ann")).to_have_text("95")
        _all_show(others, "Hand 6", {"Ann": "95"})

        _idle(others)
        scorer.click("button:has-text('Undo last change')")
        _all_show(others, "Hand 6", {"Ann": "65"})

        _idle(others)
        scorer.get_by_role("link", name="Fix hand 5").click()
        expect(scorer.locator("h1")).to_have_text("Correct hand 5")
        scorer.click("button:has-text('Delete hand 5')")
        _all_show(others, "Hand 5", {"Ann": "60", "Cy": "110"})
    finally:
        _close(others)
        scorer.context.close()


def test_the_table_view_uses_a_landscape_screen(browser, server):
    scorer = open_page(browser, server, **PHONE)
    start_game(scorer, server, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"])
    enter_hand(scorer, "Ann", {"1": "50", "2": "20", "3": "5", "4": "10", "5": "25"})
    expect(scorer.locator(".status")).to_contain_text("Hand 2")  # saved before the next
    enter_hand(scorer, "Bob", {"0": "10", "2": "60", "3": "5", "4": "10", "5": "25"})
    expect(scorer.locator(".status")).to_contain_text("Hand 3")  # both hands saved: a chart
    table = open_page(
        browser, scorer.url.replace("/g/", "/v/").rsplit("/", 1)[0] + "/table", **TABLET
    )
    try:
        expect(table.locator("#scoreboard .chart svg")).to_be_visible()
        board = table.locator("#scoreboard").bounding_box()
        chart = table.locator("#scoreboard .chart svg").bounding_box()
        assert board["width"] > 1100  # the whole width, not a phone column
        assert chart["y"] + chart["height"] <= 800  # the chart is on screen, not below the fold
        assert chart["x"] > 500  # beside the standings
        shot(table, "live-02-table-view-landscape")
    finally:
        table.context.close()
        scorer.context.close()


def test_a_second_scorekeeper_keeps_the_hand_they_are_typing(browser, server):
    scorer = open_page(browser, server, **PHONE)
    start_game(scorer, server, ["Ann", "Bob"])
    second = open_page(browser, scorer.url, **PHONE)
    try:
        second.click("label.pill:text-is('Bob')")
        second.fill("input[name=points-0]", "35")
        enter_hand(scorer, "Ann", {"1": "50"})
        expect(score_of(second, "Bob")).to_have_text("50")  # the standings move on
        expect(second.locator("input[name=points-0]")).to_have_value("35")  # the form stays
        expect(second.locator(".alert.stale")).to_contain_text("Hand 1 was just saved")
        expect(second.locator("#record button[type=submit]")).to_be_hidden()  # no stale Save
        second.locator("#record form").evaluate("(form) => form.requestSubmit()")  # sent anyway
        expect(second.locator(".alert")).to_contain_text("Hand 1 was saved on another phone")
        expect(second.locator("input[name=points-0]")).to_have_value("35")  # kept, as hand 2
    finally:
        second.context.close()
        scorer.context.close()


def _set_hidden(page, hidden: bool) -> None:
    """What a phone's browser does when the screen goes off, and back on."""
    page.evaluate(
        """hidden => {
            Object.defineProperty(document, "hidden", {value: hidden, configurable: true});
            Object.defineProperty(document, "visibilityState",
                {value: hidden ? "hidden" : "visible", configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def _is_poll(request) -> bool:
    """A page asking its own address for its live part (htmx, not a boosted link)."""
    headers = request.headers
    return headers.get("hx-request") == "true" and "hx-boosted" not in headers


def test_a_sleeping_phone_does_not_poll_and_catches_up_when_it_wakes(browser, server):
    scorer = open_page(browser, server, **PHONE)
    start_game(scorer, server, ["Ann", "Bob"])
    watcher = _watchers(browser, scorer.url)["watcher"]
    polls: list = []
    ended: list = []
    watcher.on("request", lambda r: polls.append(r) if _is_poll(r) else None)
    watcher.on("requestfinished", lambda r: ended.append(r))
    watcher.on("requestfailed", lambda r: ended.append(r))
    try:
        expect(watcher.locator("#scoreboard")).to_have_attribute("data-version", "1")
        _set_hidden(watcher, True)
        until(watcher, lambda: all(poll in ended for poll in polls))  # its waiting poll stopped
        polls.clear()
        enter_hand(scorer, "Ann", {"1": "50"})
        watcher.wait_for_timeout(ASLEEP)  # asleep through two poll intervals
        assert polls == []
        expect(score_of(watcher, "Bob")).to_have_text("0")
        _set_hidden(watcher, False)
        expect(score_of(watcher, "Bob")).to_have_text("50", timeout=AT_ONCE)  # not next poll
    finally:
        watcher.context.close()
        scorer.context.close()


def test_phones_carry_on_after_the_server_restarts(browser, restartable_server):
    server = restartable_server
    scorer = open_page(browser, server.url, **PHONE)
    start_game(scorer, server.url, ["Ann", "Bob"])
    keeper_url = scorer.url
    others = _watchers(browser, keeper_url)
    try:
        enter_hand(scorer, "Ann", {"1": "50"})
        _all_show(others, "Hand 2", {"Bob": "50"})
        server.stop()
        failed = others["watcher"].wait_for_event("requestfailed")
        assert _is_poll(failed)  # polling hit a closed port, and keeps trying
        others["watcher"].wait_for_event("requestfailed", _is_poll)
        server.start()
        scorer.goto(keeper_url)
        enter_hand(scorer, "Bob", {"0": "20"})
        _all_show(others, "Hand 3", {"Ann": "20", "Bob": "50"})
    finally:
        _close(others)
        scorer.context.close()


def test_a_finished_game_keeps_polling_cheaply_and_a_reopening_correction_shows(browser, server):
    scorer = open_page(browser, server, **PHONE)
    start_game(scorer, server, ["Ann", "Bob"], first="1")
    watcher = _watchers(browser, scorer.url)["watcher"]
    answers: list[int] = []
    watcher.on("response", lambda r: answers.append(r.status) if _is_poll(r.request) else None)
    try:
        enter_hand(scorer, "Ann", {"1": "50"})
        expect(watcher.locator(".winner")).to_contain_text("Ann wins!")
        answers.clear()
        for _ in range(2):  # it keeps asking (a next game is followed), and nothing changed
            watcher.wait_for_event("response", lambda r: _is_poll(r.request))
        assert set(answers) == {304}
        assert re.search(r"Hand \d", watcher.locator(".status").inner_text()) is None

        scorer.click("button:has-text('Undo last change')")  # the winning hand was a mistake
        expect(watcher.locator(".status")).to_contain_text("Hand 1")
        enter_hand(scorer, "Bob", {"0": "25"})
        expect(watcher.locator(".winner")).to_contain_text("Bob wins!")
    finally:
        watcher.context.close()
        scorer.context.close()
