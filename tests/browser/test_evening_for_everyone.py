"""Issue 41's measure of done: the evening it describes, played in a browser.

A table in New York (the scorekeeper's phone, a tablet showing the table view, Bob's own
phone), a second scorekeeper and a watch phone in Berlin, a watch phone in Tokyo. Each kind
of change is made once: a hand, a player's Send, a correction, a deletion, an undo, an early
end and the rematch, and Save, Fix, Delete and Send each once while offline. After each,
the one announcer of every other phone it reaches (a player's points reach the
scorekeepers) says it in its reader's language, and a scorekeeper's page says which change
came from another phone. Every date shown is on the phone's own
clock, every record (printed sheet, BG Stats, the table's page) on the table's, New York's;
the first hand's choices are on screen without a scroll, and the finished game's table view
fits the tablet.

The store's clock is the ``clock`` fixture; each phone's zone and language are its own.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from datetime import datetime, timedelta

from pages import (
    IN_VIEW,
    PHONE,
    PLAYER_POSTS,
    TABLE_VIEW_FITS,
    enter_hand,
    heard,
    offline,
    online,
    open_fix,
    open_page,
    player_links,
    posts_to,
    refuse_posts,
    said,
    sent_after_refused,
    settled,
    start_table,
    stored_hands,
    table_game,
    until,
)
from playwright.sync_api import expect
from printed import words
from webpage import read

SIX = ("Ana", "Bob", "Chloé", "Dmitri", "Emma", "Farid")
NIGHT = "2026-12-07T01:36:18+00:00"  # Dec 6, 8:36 PM in New York; Dec 7 in Berlin and Tokyo
NEW_YORK = {"timezone_id": "America/New_York", "locale": "en-US"}
BERLIN_EN = {"timezone_id": "Europe/Berlin", "locale": "en-GB"}
BERLIN_DE = {"timezone_id": "Europe/Berlin", "locale": "de-DE"}
TOKYO = {"timezone_id": "Asia/Tokyo", "locale": "en-US"}
TABLET = {"viewport": {"width": 1024, "height": 768}, **NEW_YORK}

# What each change is heard as, in English and in German (the Berlin watch phone).
SAID = {
    "en": {
        "hand": "Hand {n} saved: {hand}.",
        "out": "{name} out",
        "total": "Your total so far: {points} points.",
        "sent": "Sent for hand {n}: {points} points, phase made.",
        "arrived": "Bob sent {points} points, phase made.",
        "fix": "Hand 1 corrected: Bob 55 → 60.",
        "late fix": "Hand 2 corrected: Emma 55 → 50. {winner} wins the game.",
        "delete": "Hand 3 deleted (Dmitri had gone out).",
        "undo": "Undone: Hand 3 deleted (Dmitri had gone out).",
        "end": "Game ended early after hand 3: {winner} wins.",
        "rematch": "Rematch: Ana, Bob, Chloé, Dmitri, Emma, Farid.",
        "elsewhere": "From another phone: ",
    },
    "de": {
        "hand": "Runde {n} gespeichert: {hand}.",
        "out": "{name} raus",
        "fix": "Runde 1 korrigiert: Bob 55 → 60.",
        "late fix": "Runde 2 korrigiert: Emma 55 → 50. {winner} gewinnt die Partie.",
        "delete": "Runde 3 gelöscht (Dmitri war rausgegangen).",
        "undo": "Rückgängig gemacht: Runde 3 gelöscht (Dmitri war rausgegangen).",
        "end": "Partie nach Runde 3 vorzeitig beendet: {winner} gewinnt.",
        "rematch": "Revanche: Ana, Bob, Chloé, Dmitri, Emma, Farid.",
    },
}


def _said(language: str, key: str, **facts) -> re.Pattern:
    return said(SAID[language][key].format(**facts), SIX)


def _hand(language: str, number: int, out: str, points: dict[str, int]) -> re.Pattern:
    """A saved hand as said: each player in seat order, who went out, the others' points."""
    words = SAID[language]
    parts = [
        words["out"].format(name=name) if name == out else f"{name} {points[name]}" for name in SIX
    ]
    return _said(language, "hand", n=number, hand=", ".join(parts))


def _later(clock, minutes: int) -> None:
    clock.at = (datetime.fromisoformat(clock.at) + timedelta(minutes=minutes)).isoformat()


def _type_hand(page, out: str, points: dict[str, int]) -> None:
    """The scorekeeper's form filled in and saved: who went out, the others' points."""
    enter_hand(page, out, {str(SIX.index(name)): str(total) for name, total in points.items()})


def test_an_evening_for_everyone(browser, server, clock):
    clock.at = NIGHT
    new_york = open_page(browser, "about:blank", **PHONE, **NEW_YORK)
    devices = [new_york]
    try:
        table_url = start_table(new_york, server, "The Smiths")
        table_game(new_york, SIX, first="3")
        keeper_url = new_york.url
        game_id = keeper_url.split("/")[-2]
        bob_link = player_links(new_york, keeper_url)["Bob"]
        # the first hand's choices and its Save, on screen as the page opens
        settled(new_york)
        assert new_york.locator("#record label.pill").first.evaluate(IN_VIEW)
        assert new_york.locator("#record button[type=submit]").evaluate(IN_VIEW)
        assert new_york.evaluate("window.scrollY") == 0

        berlin_keeper = open_page(browser, keeper_url, **PHONE, **BERLIN_EN)
        berlin_watch = open_page(browser, f"{server}/v/{game_id}", **PHONE, **BERLIN_DE)
        tokyo_watch = open_page(browser, f"{server}/v/{game_id}", **PHONE, **TOKYO)
        tablet = open_page(browser, f"{server}/v/{game_id}/table", **TABLET)
        bob = open_page(browser, bob_link, **PHONE, **NEW_YORK)
        devices += [berlin_keeper, berlin_watch, tokyo_watch, tablet, bob]
        watchers = (berlin_keeper, berlin_watch, tokyo_watch, tablet)
        language = {berlin_watch: "de"}

        # each phone's screen on its own clock: the game started at 8:36 PM in New York
        started = {
            new_york: r"Started 12/6/26, 8:36\W?PM",
            berlin_keeper: r"Started 12/7/26, 2:36\W?AM",
            berlin_watch: r"Begonnen 07.12.26, 02:36",
            tokyo_watch: r"Started 12/7/26, 10:36\W?AM",
            tablet: r"Started 12/6/26, 8:36\W?PM",
        }
        for page, when in started.items():
            expect(page.locator(".game-facts")).to_contain_text(re.compile(when))
        for page in devices:  # one announcer, polite, empty when shown
            settled(page)
            expect(heard(page)).to_have_count(1)
            expect(heard(page)).to_be_empty()
            assert heard(page).get_attribute("aria-live") == "polite"

        # hand 1, saved in New York
        _later(clock, 6)
        first = {"Bob": 55, "Chloé": 60, "Dmitri": 65, "Emma": 70, "Farid": 75}
        _type_hand(new_york, "Ana", first)
        expect(new_york.locator("[data-saved]")).to_contain_text("Hand 1 saved")
        for page in watchers:
            expect(heard(page)).to_have_text(_hand(language.get(page, "en"), 1, "Ana", first))
        expect(heard(bob)).to_contain_text(SAID["en"]["total"].format(points=55))
        expect(new_york.get_by_role("log")).to_contain_text("75")  # the hands' list

        # Bob sends his points for hand 2 with no connection: kept, sent once when back
        posts = posts_to(bob, "/p/")
        bob.context.route(PLAYER_POSTS, refuse_posts)
        bob.context.set_offline(True)
        bob.fill("#points", "30")
        bob.check("input[name=made]")
        bob.click("#send")
        expect(bob.locator(".player-form .notice.pending")).to_contain_text("30")
        bob.context.unroute(PLAYER_POSTS)
        bob.context.set_offline(False)
        expect(heard(bob)).to_have_text(_said("en", "sent", n=2, points=30))
        for page in (new_york, berlin_keeper):
            expect(heard(page)).to_have_text(_said("en", "arrived", points=30))
            expect(page.locator("input[name=points-1]")).to_have_value("30")
        until(bob, lambda: sent_after_refused(posts) == 1)

        # hand 2, saved in New York with no connection: kept, sent once when back
        _later(clock, 7)
        offline(new_york)
        second = {"Ana": 40, "Dmitri": 50, "Emma": 55, "Farid": 60}
        _type_hand(new_york, "Chloé", second)
        expect(new_york.locator("#record .notice.pending")).to_contain_text("Not sent yet")
        assert len(stored_hands(keeper_url)) == 1
        online(new_york)
        expect(new_york.locator("[data-saved]")).to_contain_text("Hand 2 saved")
        second["Bob"] = 30
        for page in watchers:
            expect(heard(page)).to_have_text(_hand(language.get(page, "en"), 2, "Chloé", second))
        assert len(stored_hands(keeper_url)) == 2

        # Berlin fixes hand 1 with no connection (Bob 55 -> 60): kept, sent when back
        _later(clock, 2)
        open_fix(berlin_keeper, 1)
        with berlin_keeper.expect_response(re.compile(r"/hands/1/check$")):
            berlin_keeper.fill("input[name=points-1]", "60")
        offline(berlin_keeper)
        berlin_keeper.click("button:has-text('Save the correction')")
        expect(berlin_keeper.locator(".notice.pending")).to_contain_text("Bob 60")
        online(berlin_keeper)
        expect(berlin_keeper.locator("[data-saved]")).to_contain_text("Hand 1 corrected")
        for page in (new_york, berlin_watch, tokyo_watch, tablet):
            expect(heard(page)).to_have_text(_said(language.get(page, "en"), "fix"))
        expected = said(SAID["en"]["elsewhere"] + SAID["en"]["fix"], SIX)
        expect(new_york.locator("#elsewhere")).to_have_text(expected)
        assert stored_hands(keeper_url)[0]["points"]["Bob"] == 60

        # hand 3, saved in Berlin; deleted in New York with no connection; then undone
        _later(clock, 8)
        third = {"Ana": 55, "Bob": 50, "Chloé": 45, "Emma": 80, "Farid": 65}
        settled(berlin_keeper)
        _type_hand(berlin_keeper, "Dmitri", third)
        expect(berlin_keeper.locator("[data-saved]")).to_contain_text("Hand 3 saved")
        for page in (new_york, berlin_watch, tokyo_watch, tablet):
            expect(heard(page)).to_have_text(_hand(language.get(page, "en"), 3, "Dmitri", third))
        open_fix(new_york, 3)
        offline(new_york)
        new_york.click("button:has-text('Delete hand 3')")
        expect(new_york.locator(".notice.pending")).to_contain_text("Not sent yet")
        assert len(stored_hands(keeper_url)) == 3
        online(new_york)
        expect(new_york.locator("#record-heading")).to_have_text("Record hand 3")
        assert len(stored_hands(keeper_url)) == 2
        for page in (berlin_keeper, berlin_watch, tokyo_watch, tablet):
            expect(heard(page)).to_have_text(_said(language.get(page, "en"), "delete"))
        expected = said(SAID["en"]["elsewhere"] + SAID["en"]["delete"], SIX)
        expect(berlin_keeper.locator("#elsewhere")).to_have_text(expected)
        new_york.click("button:has-text('Undo last change')")
        for page in watchers:
            expect(heard(page)).to_have_text(_said(language.get(page, "en"), "undo"))
        assert len(stored_hands(keeper_url)) == 3

        # the game ended early in New York
        _later(clock, 1)
        new_york.click("text=End the game now…")
        new_york.click("button:has-text('End the game:')")
        winner = "Ana"  # two phases made, as Chloé, and fewer points (95 to 105)
        for page in watchers:
            expect(heard(page)).to_have_text(_said(language.get(page, "en"), "end", winner=winner))
        expect(heard(bob)).to_contain_text(SAID["en"]["end"].format(winner=winner))
        expect(bob.locator("main")).not_to_contain_text("Your total so far")
        expect(tablet.locator(".ended-early")).to_be_visible()
        assert tablet.evaluate(TABLE_VIEW_FITS) == {"below": [], "wrapped": [], "wide": False}

        # every record is on the table's clock, whoever asks
        for page in (tokyo_watch, berlin_watch, new_york):
            play = page.request.get(f"{server}/v/{game_id}/bgstats.json").json()
            assert play["playDate"] == "2026-12-06 20:36:18"
            assert play["durationMin"] == 23  # from its start to its last hand
            sheet = page.request.get(f"{server}/v/{game_id}/print/score-sheet.pdf").body()
            assert "Played on Sunday, December 6, 2026 at 8:36 PM (America/New_York)" in words(
                sheet
            )
        with zipfile.ZipFile(
            io.BytesIO(tokyo_watch.request.get(f"{table_url}/export.zip").body())
        ) as backup:
            rows = csv.DictReader(io.StringIO(backup.read("hands.csv").decode()))
            assert {row["date"] for row in rows} == {"2026-12-06"}
        tokyo_watch.goto(f"{table_url}/stats")
        expect(tokyo_watch.locator("main")).to_contain_text("on Dec 6, 2026")
        expect(tokyo_watch.locator("main")).not_to_contain_text("Dec 7")
        tokyo_watch.goto(table_url)
        expect(tokyo_watch.locator("main")).to_contain_text(f"Dec 6, 2026 · winner: {winner}")
        tokyo_watch.goto(f"{server}/v/{game_id}")

        for page in (new_york, berlin_keeper, tokyo_watch):  # the game's history is a record
            history = read(page.request.get(f"{keeper_url}/history").text())
            latest = history.first("ol.history li").text  # the early end, at 9:00 PM
            assert "12/6/26, 9:00\u202fPM" in latest, (page.url, latest)
        expect(new_york.locator(".game-facts")).to_contain_text("took 23 min")

        # a correction of the finished game, in Berlin: heard with the result it leaves, and
        # the game's page after it
        _later(clock, 5)
        open_fix(berlin_keeper, 2)
        berlin_keeper.fill("input[name=points-4]", "50")
        berlin_keeper.click("button:has-text('Save the correction')")
        expect(berlin_keeper.locator("[data-saved]")).to_contain_text("Hand 2 corrected")
        expect(berlin_keeper).to_have_url(re.compile(re.escape(keeper_url) + "(#.*)?$"))
        for page in (new_york, berlin_watch, tokyo_watch, tablet):
            expect(heard(page)).to_have_text(
                _said(language.get(page, "en"), "late fix", winner=winner)
            )

        # the rematch, from Berlin: every phone follows and says why
        rematch = berlin_keeper.get_by_role("button", name="Rematch: same players, next dealer")
        rematch.click()
        berlin_keeper.wait_for_url(lambda url: url != keeper_url)
        for page in (new_york, berlin_watch, tokyo_watch, tablet, bob):
            expect(page).not_to_have_url(re.compile(game_id))
            expect(heard(page)).to_have_text(_said(language.get(page, "en"), "rematch"))
        expect(new_york.locator("#record-heading")).to_have_text("Record hand 1")
        rematch_started = {
            new_york: r"Started 12/6/26, 9:05\W?PM",
            tokyo_watch: r"Started 12/7/26, 11:05\W?AM",
        }
        for page, when in rematch_started.items():
            expect(page.locator(".game-facts")).to_contain_text(re.compile(when))
        assert new_york.locator("#record label.pill").first.evaluate(IN_VIEW)
    finally:
        for page in devices:
            page.context.close()
