"""Issue 29's evening, played whole: two games with four phones, a dropped Wi-Fi and a second
scorekeeper, and after every step every screen says the same thing as this test's own count.

Phone A keeps score, B is a second scorekeeper (the link from the share page), C watches by
the code read aloud, D is Bob's own phone. Every phone is in New York and the evening starts
at 18:50 there, 23:50 UTC: the second game starts after midnight UTC, the same evening in
New York. The store's clock is the ``clock`` fixture, moved on by the test, so no time shown
depends on today's date or the machine's zone.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from pages import (
    PHONE,
    enter_hand,
    offline,
    online,
    open_fix,
    player_links,
    score_of,
    settled,
    start_table,
    stored_hands,
    table_game,
    whole_keeper_page,
)
from playwright.sync_api import expect

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
NEW_YORK = {**PHONE, "timezone_id": "America/New_York", "locale": "en-US"}
EVENING = "2026-11-26T23:50:00+00:00"  # 6:50 PM on Thanksgiving in New York


class Count:
    """This test's own count of one game (RULES.md 3 and 8): who went out made the phase and
    scores nothing; every other player scores the points left in the hand, and a total under 50
    is a phase made (ten cards, the most a player who missed it holds, are at least 50)."""

    def __init__(self) -> None:
        self.hands: list[tuple[str, dict[str, int]]] = []

    def record(self, out: str, points: dict[str, int]) -> None:
        self.hands.append((out, points))

    def fix(self, number: int, **points: int) -> None:
        out, before = self.hands[number - 1]
        self.hands[number - 1] = (out, {**before, **points})

    def made(self, number: int) -> set[str]:
        out, points = self.hands[number - 1]
        return {out, *(name for name, total in points.items() if total < 50)}

    def totals(self) -> dict[str, int]:
        return {name: sum(points.get(name, 0) for _, points in self.hands) for name in PLAYERS}

    def phases(self) -> dict[str, int]:
        """The phase each player is on: one more than the phases made."""
        made = [self.made(number) for number in range(1, len(self.hands) + 1)]
        return {name: 1 + sum(name in hand for hand in made) for name in PLAYERS}

    def ranking(self) -> list[str]:
        """The places if the game ended now (RULES.md 9): the most phases made, then the
        fewest points."""
        phases, totals = self.phases(), self.totals()
        return sorted(PLAYERS, key=lambda name: (-phases[name], totals[name]))


def later(clock, minutes: int) -> None:
    """Move the store's clock on by ``minutes``."""
    clock.at = (datetime.fromisoformat(clock.at) + timedelta(minutes=minutes)).isoformat()


def seats(points: dict[str, int]) -> dict[str, str]:
    """A hand's points as enter_hand types them: by seat."""
    return {str(PLAYERS.index(name)): str(total) for name, total in points.items()}


def started(clock_time: str) -> re.Pattern[str]:
    """'Started 11/26/26, 6:50 PM', as en-US writes a short time (a narrow space before PM)."""
    return re.compile(rf"Started 11/26/26, {clock_time}\W?PM")


def every_screen_agrees(
    count: Count, boards, bob, keeper_url: str, facts: list, winner: str | None = None
) -> None:
    """A, B and C show the count's totals and phases, the hand being played (or the winner)
    and the game's facts on New York's clock; Bob's phone his own; the server holds the
    count's hands, each once."""
    totals, phases = count.totals(), count.phases()
    now = re.compile(rf"{winner}\u2069? wins" if winner else rf"Hand {len(count.hands) + 1}\b")
    for page in boards:
        board = page.locator("#scoreboard")
        expect(board.locator(".status")).to_contain_text(now)
        for name in PLAYERS:
            expect(score_of(page, name)).to_have_text(str(totals[name]))
            row = board.locator("li.player", has_text=name)
            expect(row.locator(".phase strong")).to_have_text(f"Phase {phases[name]}")
        for fact in facts:
            expect(board.locator(".game-facts")).to_contain_text(fact)
        expect(board.locator(".game-facts")).not_to_contain_text("UTC")
    for page in boards[:2]:  # the scorekeepers' list of hands, a fix in it
        hands_agree(page, count)
    shown = {page.locator("#scoreboard .status").inner_text() for page in boards}
    assert len(shown) == 1, shown  # the same dealer, or winner, everywhere
    status = bob.locator("#player-status")
    if winner:
        expect(status).to_contain_text(f"The game is over: {winner} wins.")
    else:
        expect(status).to_contain_text(now)
        expect(status).to_contain_text(f"your phase: {phases['Bob']}")
    total = "Your total" if winner else "Your total so far"  # issue 41: over, it is the total
    expect(status).to_contain_text(f"{total}: {totals['Bob']} points")
    for word in ("Sent:", "Nothing is saved until"):  # nothing sent waits any more
        expect(status).not_to_contain_text(word)
    held = stored_hands(keeper_url)
    assert [(hand["went_out"], hand["points"]) for hand in held] == count.hands
    assert [set(hand["made"]) for hand in held] == [
        count.made(number) for number in range(1, len(held) + 1)
    ]


def hands_agree(page, count: Count) -> None:
    """A scorekeeper's list of hands: "out", or the points and a tick for a phase made."""
    rows = page.locator("#hands table.hands tbody tr")
    expect(rows).to_have_count(len(count.hands))
    for number, (out, points) in enumerate(count.hands, 1):
        made = count.made(number)
        cells = [
            "out" if name == out else f"{points[name]}{' ✓' if name in made else ''}"
            for name in PLAYERS
        ]
        expect(rows.nth(number - 1).locator("td:not(.fix)")).to_have_text(cells)


def bob_sends(phone, points: int, keepers) -> None:
    """Bob sends his points from his own phone; every scorekeeper's form gets them (nobody is
    typing there)."""
    settled(phone)
    phone.fill("#points", str(points))
    phone.click("button:has-text('Send to the scorekeeper')")
    expect(phone.locator("#player-status")).to_contain_text(f"Sent: {points} points.")
    for keeper in keepers:
        expect(keeper.locator("input[name=points-1]")).to_have_value(str(points))


def test_a_family_plays_two_games_on_four_phones_and_every_screen_agrees(browser, server, clock):
    clock.at = EVENING
    phones = [browser.new_context(**NEW_YORK) for _ in "ABCD"]
    a, b, c, d = (context.new_page() for context in phones)
    try:
        # --- A starts the game at the family's table and shares it ----------------------------
        table_url = start_table(a, server, "The Smiths")
        table_game(a, PLAYERS, first="0")  # every phase
        keeper_url = a.url
        game_id = keeper_url.split("/")[-2]
        a.goto(f"{keeper_url}/share")
        second_keeper = a.get_by_label("Scorekeeper link").input_value()
        code = a.locator(".watch-code strong").inner_text()
        bob_link = player_links(a, keeper_url)["Bob"]  # back on the game page after
        assert second_keeper == keeper_url

        b.goto(second_keeper)
        c.goto(server)
        c.fill("#code", code)
        c.click("button:has-text('Watch')")
        c.wait_for_url(f"{server}/v/{game_id}")
        d.goto(bob_link)
        expect(d.locator("h1")).to_contain_text("Bob")
        boards = (a, b, c)
        count = Count()
        facts = [started("6:50")]
        every_screen_agrees(count, boards, d, keeper_url, facts)

        # --- hand 1 on A ------------------------------------------------------------------------
        later(clock, 5)
        hand = {"Bob": 50, "Cy": 20, "Dee": 75}
        settled(a)
        enter_hand(a, "Ann", seats(hand))
        count.record("Ann", hand)
        expect(a.locator("[data-saved]")).to_contain_text("Hand 1 saved")
        every_screen_agrees(count, boards, d, keeper_url, [*facts, "5 min so far"])

        # --- hand 2 on B, the second scorekeeper ------------------------------------------------
        later(clock, 7)
        hand = {"Ann": 15, "Bob": 60, "Dee": 10}
        settled(b)
        enter_hand(b, "Cy", seats(hand))
        count.record("Cy", hand)
        expect(b.locator("[data-saved]")).to_contain_text("Hand 2 saved")
        expect(a.locator("#record-heading")).to_have_text("Record hand 3")
        every_screen_agrees(count, boards, d, keeper_url, [*facts, "12 min so far"])

        # --- hand 3: Bob sends his points from his phone, A saves the hand ---------------------
        later(clock, 6)
        bob_sends(d, 25, keepers=(a, b))
        hand = {"Ann": 55, "Bob": 25, "Cy": 5}
        settled(a)
        enter_hand(a, "Dee", seats({"Ann": 55, "Cy": 5}))  # Bob's field as his phone filled it
        count.record("Dee", hand)
        expect(a.locator("[data-saved]")).to_contain_text("Hand 3 saved")
        for keeper in (a, b):  # nothing of hand 3 left in hand 4's form
            expect(keeper.locator("#record-heading")).to_have_text("Record hand 4")
            expect(keeper.locator("input[name=points-1]")).to_have_value("")
        every_screen_agrees(count, boards, d, keeper_url, [*facts, "18 min so far"])

        # --- hand 4 saved on A while its Wi-Fi is down ----------------------------------------
        later(clock, 7)
        hand = {"Bob": 20, "Cy": 65, "Dee": 90}
        settled(a)
        offline(a)
        enter_hand(a, "Ann", seats(hand))
        pending = a.locator("#record .notice.pending")
        expect(pending).to_contain_text("Not sent yet")
        expect(pending).to_contain_text("Ann out, Bob 20, Cy 65, Dee 90")
        assert len(stored_hands(keeper_url)) == 3  # not sent indeed
        online(a)  # no tap: it goes by itself
        count.record("Ann", hand)
        expect(pending).to_have_count(0)
        expect(a.locator("[data-saved]")).to_contain_text("Hand 4 saved")
        whole_keeper_page(a)
        every_screen_agrees(count, boards, d, keeper_url, [*facts, "25 min so far"])
        whole_keeper_page(a)  # still whole after its polls

        # --- A fixes hand 2: Dee held 60, not 10, and so missed her phase -----------------------
        later(clock, 3)
        open_fix(a, 2)
        with a.expect_response(re.compile(r"/hands/2/check$")):
            a.fill("input[name=points-3]", "60")
        a.click("button:has-text('Save the correction')")
        count.fix(2, Dee=60)
        expect(a).to_have_url(re.compile(re.escape(keeper_url) + "(#.*)?$"))
        whole_keeper_page(a)
        every_screen_agrees(
            count, boards, d, keeper_url, [*facts, "28 min so far"]
        )  # to now (issue 41), 3 min on

        # --- A ends the game early --------------------------------------------------------------
        later(clock, 2)
        winner = count.ranking()[0]
        assert winner == "Ann"  # the count's own word, before the app's
        a.click("text=End the game now…")
        expect(a.locator(".end-game .lead")).to_contain_text(f"declares {winner} the winner")
        a.click(f"button:has-text('End the game: {winner} wins')")
        ended = [*facts, "Ended early after hand 4.", "took 25 min"]
        every_screen_agrees(count, boards, d, keeper_url, ended, winner=winner)
        rematch = "Rematch: same players, next dealer"
        for keeper in (a, b):  # B taps nothing: its page follows the end
            expect(keeper.get_by_role("button", name=rematch)).to_be_visible()
            expect(keeper.get_by_role("link", name="End the game now…")).to_have_count(0)
            expect(keeper.locator("#record form.hand-form")).to_have_count(0)
        expect(d.locator("#player-status")).to_contain_text("Ended early after hand 4.")
        expect(d.locator("#player-form form")).to_have_count(0)  # nothing left to send
        # the play for BG Stats, from the watch phone: on New York's clock, as BG Stats reads it
        play = c.request.get(f"{server}/v/{game_id}/bgstats.json").json()
        assert (play["playDate"], play["durationMin"]) == ("2026-11-26 18:50:00", 25)
        assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == [
            (name, count.totals()[name], name == winner) for name in count.ranking()
        ]

        # --- the rematch, after midnight UTC: every phone follows by itself ---------------------
        finished_url = keeper_url
        later(clock, 5)  # 00:25 UTC on the 27th, 7:25 PM on the 26th in New York
        a.get_by_role("button", name=rematch).click()
        a.wait_for_url(lambda url: "/g/" in url and game_id not in url)
        keeper_url = a.url
        new_id = keeper_url.split("/")[-2]
        expect(b).to_have_url(keeper_url)
        expect(c).to_have_url(f"{server}/v/{new_id}")
        expect(d).to_have_url(re.compile(rf".*/p/{new_id}/[\w-]+$"))
        expect(d.locator("h1")).to_contain_text("Bob")
        count = Count()
        facts = [started("7:25")]
        for page in boards:
            expect(page.locator("#scoreboard")).not_to_contain_text("wins")
        every_screen_agrees(count, boards, d, keeper_url, facts)

        # --- the rematch's hand 1 on A ----------------------------------------------------------
        later(clock, 6)
        hand = {"Ann": 30, "Cy": 50, "Dee": 5}
        settled(a)
        enter_hand(a, "Bob", seats(hand))
        count.record("Bob", hand)
        expect(a.locator("[data-saved]")).to_contain_text("Hand 1 saved")
        every_screen_agrees(count, boards, d, keeper_url, [*facts, "6 min so far"])

        # --- hand 2: Bob sends his points, B saves the hand -------------------------------------
        later(clock, 7)
        bob_sends(d, 40, keepers=(a, b))
        hand = {"Ann": 80, "Bob": 40, "Dee": 20}
        settled(b)
        enter_hand(b, "Cy", seats({"Ann": 80, "Dee": 20}))
        count.record("Cy", hand)
        expect(b.locator("[data-saved]")).to_contain_text("Hand 2 saved")
        for keeper in (a, b):
            expect(keeper.locator("#record-heading")).to_have_text("Record hand 3")
            expect(keeper.locator("input[name=points-1]")).to_have_value("")
        every_screen_agrees(count, boards, d, keeper_url, [*facts, "13 min so far"])
        whole_keeper_page(a)

        # --- the table's list: both games on the evening they were played, New York's ---------
        a.goto(table_url)
        games = a.locator("main")
        expect(games).to_contain_text(f"Nov 26, 2026 · winner: {winner}")
        expect(games).to_contain_text("ended early after hand 4 · 25 min")
        expect(games).to_contain_text("hand 3 · started Nov 26, 2026")
        expect(games).not_to_contain_text("Nov 27")
        a.goto(f"{finished_url}/history")  # the first game's changes, on New York's clock
        expect(a.locator("ol.history li").first).to_contain_text(re.compile(r"11/26/26, 7:20\W?PM"))
        expect(a.locator("main")).not_to_contain_text("UTC")
    finally:
        for context in phones:
            context.close()
