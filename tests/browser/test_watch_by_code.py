"""A game's code read aloud and typed on another phone, and a leaked link replaced."""

from __future__ import annotations

import re

from pages import shot, start_game
from playwright.sync_api import expect


def read_aloud(page, server) -> str:
    """The scorekeeper opens the share page and reads the code out."""
    page.goto(page.url + "/share")
    code = page.locator(".watch-code strong").inner_text()
    assert re.fullmatch(r"[0-9A-Z]{4}(-[0-9A-Z]{4}){3}", code)
    return code


def test_a_code_typed_on_the_start_page_opens_the_watch_page_with_or_without_javascript(
    phone, phone_without_js, server
):
    start_game(phone, server, ["Ann", "Bob"])
    code = read_aloud(phone, server)
    shot(phone, "code-01-share")
    for watcher, typed in (
        (phone_without_js, code.lower().replace("-", " ")),
        (phone, code.replace("-", "")),
    ):
        watcher.goto(f"{server}/")
        watcher.fill("#code", typed)
        watcher.click("button:has-text('Watch')")
        watcher.wait_for_url(re.compile(r".*/v/[^/]+$"))
        expect(watcher.locator(".scoreboard")).to_contain_text("Ann")
    phone_without_js.goto(f"{server}/")
    phone_without_js.fill("#code", "ABCD-EFGH-JKMN-PQRS")
    phone_without_js.click("button:has-text('Watch')")
    expect(phone_without_js.locator("#code-error")).to_contain_text("No game has this code")
    expect(phone_without_js.locator("#code")).to_have_value("ABCD-EFGH-JKMN-PQRS")


def test_a_new_scorekeeper_link_replaces_the_old_one_on_this_phone(phone, server):
    start_game(phone, server, ["Ann", "Bob"])
    old = phone.url
    phone.goto(old + "/share")
    phone.click("text=Make a new scorekeeper link")
    phone.click("button:has-text('Make a new link, and stop the old one')")
    expect(phone.locator(".notice")).to_contain_text("This game has a new scorekeeper link")
    new = phone.url.removesuffix("/share")
    assert new != old
    assert phone.goto(old).status == 404
    phone.goto(f"{server}/")
    phone.click("text=Continue: Ann, Bob, hand 1")
    phone.wait_for_url(new)
