"""A player's own phone follows the game: what they sent is said only while it waits, an
early end is said, and a total no cards add up to is refused as it is typed."""

from __future__ import annotations

import pytest
from pages import PHONE, enter_hand, open_page, player_links, settled, start_game
from playwright.sync_api import expect


def test_a_players_phone_follows_each_hand_and_the_early_end(browser, server):
    keeper = open_page(browser, server, **PHONE)
    start_game(keeper, server, ["Ann", "Bob"])
    keeper_url = keeper.url
    bob = open_page(browser, player_links(keeper, keeper_url)["Bob"], **PHONE)
    try:
        settled(bob)
        bob.fill("#points", "7")  # no tap on Send yet
        check = bob.locator("#entry-check")
        expect(check).to_contain_text("7 is not a multiple of 5")
        bob.fill("#points", "45")
        expect(check).to_be_empty()
        bob.click("button:has-text('Send to the scorekeeper')")
        sent = bob.locator("main", has_text="Nothing is saved until they save the hand")
        expect(sent).to_have_count(1)

        expect(keeper.locator("input[name=points-1]")).to_have_value("45")
        enter_hand(keeper, "Ann", {})
        expect(bob.locator("#player-status")).to_contain_text("Hand 2")
        expect(bob.locator("main")).not_to_contain_text("Sent to the scorekeeper")
        expect(bob.locator("main")).not_to_contain_text("Nothing is saved")

        keeper.click("text=End the game now…")
        keeper.click("button:has-text('End the game:')")
        status = bob.locator("#player-status")
        expect(status).to_contain_text("The game is over")
        expect(status).to_contain_text("Ended early after hand 1")
        expect(status).to_contain_text("Your total: 45 points.")  # no more "so far"
        expect(status).not_to_contain_text("so far")
    finally:
        bob.context.close()
        keeper.context.close()


@pytest.mark.parametrize(
    ("locale", "saved", "over"),
    [
        (
            "en-GB",
            "Hand 1 saved: Ann out, Bob 45. Your total so far: 45 points.",
            "Hand 2 saved: Ann out, Bob 5. Ann wins the game. Your total: 50 points.",
        ),
        (
            "de-DE",
            "Runde 1 gespeichert: Ann raus, Bob 45. Deine Punkte bisher: 45.",
            "Runde 2 gespeichert: Ann raus, Bob 5. Ann gewinnt die Partie. Deine Punkte: 50.",
        ),
    ],
)
def test_a_players_phone_says_each_change_to_a_screen_reader(browser, server, locale, saved, over):
    keeper = open_page(browser, server, **PHONE)
    start_game(keeper, server, ["Ann", "Bob"], first="2")  # Ann ends it in hand 2
    keeper_url = keeper.url
    bob = open_page(browser, player_links(keeper, keeper_url)["Bob"], **PHONE, locale=locale)
    try:
        settled(bob)
        heard = bob.locator("#announcer")  # the page's one live region that is never replaced
        expect(heard).to_be_empty()
        enter_hand(keeper, "Ann", {"1": "45"})
        expect(heard).to_have_text(saved)
        enter_hand(keeper, "Ann", {"1": "5"})
        expect(heard).to_have_text(over)
    finally:
        bob.context.close()
        keeper.context.close()
