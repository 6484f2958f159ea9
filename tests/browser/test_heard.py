"""Every change heard (issue 41, findings 1 and 2): each live page has one polite announcer,
empty when the page is shown, and each kind of change reaches it as one sentence, in the
reader's language: a new hand, a player's points arriving, a Send confirmed on the sender's
phone, a correction, a deletion, an undo, an early end and the rematch. Changes that come
together are said together, once."""

from __future__ import annotations

import re

import pytest
from pages import (
    PHONE,
    TABLET,
    enter_hand,
    heard,
    open_fix,
    open_page,
    player_links,
    said,
    settled,
    start_game,
)
from playwright.sync_api import expect

SAID = {
    "en-GB": {
        "hand 1": "Hand 1 saved: Ann out, Bob 55.",
        "total 1": "Your total so far: 55 points.",
        "sent": "Sent for hand 2: 30 points, phase made.",
        "arrived": "Bob sent 30 points, phase made.",
        "hand 2": "Hand 2 saved: Ann out, Bob 30.",
        "fix": "Hand 1 corrected: Bob 55 → 60.",
        "delete": "Hand 2 deleted (Ann had gone out).",
        "undo": "Undone: Hand 2 deleted (Ann had gone out).",
        "end": "Game ended early after hand 2: Ann wins.",
        "rematch": "Rematch: Ann, Bob.",
        "elsewhere": "From another phone: ",
    },
    "de-DE": {
        "hand 1": "Runde 1 gespeichert: Ann raus, Bob 55.",
        "total 1": "Deine Punkte bisher: 55.",
        "sent": "Für Runde 2 geschickt: 30 Punkte, Phase geschafft.",
        "arrived": "Bob hat 30 Punkte geschickt, Phase geschafft.",
        "hand 2": "Runde 2 gespeichert: Ann raus, Bob 30.",
        "fix": "Runde 1 korrigiert: Bob 55 → 60.",
        "delete": "Runde 2 gelöscht (Ann war rausgegangen).",
        "undo": "Rückgängig gemacht: Runde 2 gelöscht (Ann war rausgegangen).",
        "end": "Partie nach Runde 2 vorzeitig beendet: Ann gewinnt.",
        "rematch": "Revanche: Ann, Bob.",
        "elsewhere": "Von einem anderen Handy: ",
    },
}


@pytest.mark.parametrize("locale", SAID)
def test_every_kind_of_change_is_heard_in_one_sentence(browser, server, locale):
    words = SAID[locale]
    keeper = open_page(browser, server, **PHONE)  # the scorekeeper who makes every change
    start_game(keeper, server, ["Ann", "Bob"])
    keeper_url = keeper.url
    game_id = keeper_url.split("/")[-2]
    bob_link = player_links(keeper, keeper_url)["Bob"]
    second = open_page(browser, keeper_url, **PHONE, locale=locale)
    watch = open_page(browser, f"{server}/v/{game_id}", **PHONE, locale=locale)
    table = open_page(browser, f"{server}/v/{game_id}/table", **TABLET, locale=locale)
    bob = open_page(browser, bob_link, **PHONE, locale=locale)
    listeners = (second, watch, table, bob)
    try:
        for page in (keeper, *listeners):  # one announcer, polite, empty when shown
            settled(page)
            expect(heard(page)).to_have_count(1)
            expect(heard(page)).to_be_empty()
            assert heard(page).get_attribute("aria-live") == "polite"
        expect(keeper.get_by_role("log")).to_have_count(0)  # no hands yet

        enter_hand(keeper, "Ann", {"1": "55"})
        for page in (second, watch, table):
            expect(heard(page)).to_have_text(said(words["hand 1"]))
        expect(heard(bob)).to_have_text(said(f"{words['hand 1']} {words['total 1']}"))
        expect(keeper.get_by_role("log")).to_contain_text("55")  # the hands' list

        settled(bob)
        bob.fill("#points", "30")
        bob.check("input[name=made]")
        bob.click("#send")
        expect(heard(bob)).to_have_text(said(words["sent"]))
        expect(bob.locator("#points")).to_have_value("30")  # send again to change it
        assert bob.evaluate("document.activeElement.tagName") != "BODY"
        expect(heard(second)).to_have_text(said(words["arrived"]))
        expect(heard(keeper)).to_have_text(said(SAID["en-GB"]["arrived"]))  # in its own words

        expect(keeper.locator("input[name=points-1]")).to_have_value("30")
        settled(keeper)
        keeper.click("label.pill:text-is('Ann')")
        keeper.click("form.hand-form button[type=submit]")
        for page in (second, watch, table):
            expect(heard(page)).to_have_text(said(words["hand 2"]))

        open_fix(keeper, 1)
        keeper.fill("input[name=points-1]", "60")
        keeper.click("button:has-text('Save the correction')")
        for page in (second, watch, table):
            expect(heard(page)).to_have_text(said(words["fix"]))
        expect(second.locator("#elsewhere")).to_have_text(said(words["elsewhere"] + words["fix"]))

        open_fix(keeper, 2)
        keeper.click("button:has-text('Delete hand 2')")
        expect(keeper.locator("#record-heading")).to_have_text("Record hand 2")
        for page in (second, watch, table):
            expect(heard(page)).to_have_text(said(words["delete"]))

        keeper.click("button:has-text('Undo last change')")
        for page in (second, watch, table):
            expect(heard(page)).to_have_text(said(words["undo"]))

        keeper.click("text=End the game now…")
        keeper.click("button:has-text('End the game:')")
        for page in (second, watch, table):
            expect(heard(page)).to_have_text(said(words["end"]))
        expect(heard(bob)).to_contain_text(words["end"])

        keeper.click("button:has-text('Rematch')")
        keeper.wait_for_url(re.compile(r".*/g/[^/]+/[^/]+$"))
        for page in listeners:  # each follows the table to the new game, and says why
            expect(page).not_to_have_url(re.compile(game_id))
            expect(heard(page)).to_have_text(said(words["rematch"]))
    finally:
        for page in (keeper, *listeners):
            page.context.close()


def test_changes_that_come_together_are_said_together_once(browser, server):
    keeper = open_page(browser, server, **PHONE)
    start_game(keeper, server, ["Ann", "Bob"])
    game_id = keeper.url.split("/")[-2]
    watch = open_page(browser, f"{server}/v/{game_id}", **PHONE)
    try:
        settled(watch)
        watch.evaluate(
            """() => {
              window.saidTimes = [];
              const announcer = document.getElementById("announcer");
              new MutationObserver(() => {
                if (announcer.textContent) { window.saidTimes.push(announcer.textContent); }
              }).observe(announcer, {childList: true, characterData: true, subtree: true});
            }"""
        )
        watch.context.set_offline(True)  # a phone in a tunnel while two hands are saved
        enter_hand(keeper, "Ann", {"1": "55"})
        expect(keeper.locator("#record-heading")).to_have_text("Record hand 2")
        enter_hand(keeper, "Bob", {"0": "20"})
        expect(keeper.locator("#record-heading")).to_have_text("Record hand 3")
        watch.context.set_offline(False)
        both = "Hand 1 saved: Ann out, Bob 55. Hand 2 saved: Ann 20, Bob out."
        expect(heard(watch)).to_have_text(said(both))
        enter_hand(keeper, "Ann", {"1": "5"})  # the next change is said on its own
        third = "Hand 3 saved: Ann out, Bob 5."
        expect(heard(watch)).to_have_text(said(third))
        assert watch.evaluate("window.saidTimes") == [both, third]  # each said once
    finally:
        watch.context.close()
        keeper.context.close()
