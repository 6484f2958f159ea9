"""The room at a club night (issue 40): the TV read from across the room with 40 players,
the round clock counting down from the server's time, and the organiser's phone
controlling the room (a swap, a table kept, a player taken out), with and without
JavaScript.
"""

from __future__ import annotations

from pages import (
    PHONE,
    hand_points,
    play_by_api,
    seating,
    serious_violations,
    shot,
    start_table,
    swap,
)
from pages import start_night as seat_first_round
from playwright.sync_api import expect

FORTY = [f"Player {number:02}" for number in range(1, 41)]
FULL_HD = {"viewport": {"width": 1920, "height": 1080}}
SMALLEST_TEXT = 28  # px at 1920 x 1080: a TV read from across the room


def start_night(organiser, server, players, rounds="3", minutes=""):
    start_table(organiser, server, "Thursday club")
    seat_first_round(organiser, players, rounds, minutes=minutes)


def screen_link(organiser) -> str:
    return organiser.get_by_role("link", name="Open the room screen").get_attribute("href")


# What one page of the TV shows: the players whose rows are whole on screen, anything seen
# past the screen's edges, and the smallest text of any element that shows text.
MEASURE = """() => {
  const w = window.innerWidth, h = window.innerHeight;
  const shown = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== 'hidden';
  const off = [], players = [];
  let smallest = 1000, smallestText = '';
  for (const el of document.querySelectorAll('body *')) {
    if (!shown(el)) continue;
    const texts = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
    const r = el.getBoundingClientRect();
    if (texts.length) {
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < smallest) { smallest = size; smallestText = texts[0].textContent.trim(); }
      if (r.left < -1 || r.top < -1 || r.right > w + 1 || r.bottom > h + 1) {
        off.push(el.tagName + ': ' + texts[0].textContent.trim());
      }
    }
    if (el.dataset.player && r.top >= -1 && r.bottom <= h + 1 && r.left >= -1 && r.right <= w + 1) {
      players.push(el.dataset.player);
    }
  }
  const screen = document.querySelector('.night-tv');
  return {off, players, smallest, smallestText, page: screen.dataset.page,
          pages: screen.dataset.pages, scroll: document.documentElement.scrollHeight > h + 1};
}"""


def every_page(room) -> tuple[set[str], list[dict]]:
    """Pause the pages, then look at each in turn: (the players seen, each page's measure)."""
    screen = room.locator(".night-tv")
    pages = int(screen.get_attribute("data-pages") or "1")
    if pages > 1:
        pause = room.get_by_role("button", name="Pause the pages")
        pause.click()
        expect(pause).to_have_attribute("aria-pressed", "true")
    seen: set[str] = set()
    measures = []
    for number in range(1, pages + 1):
        expect(screen).to_have_attribute("data-page", str(number) if pages > 1 else "1")
        measure = room.evaluate(MEASURE)
        measures.append(measure)
        seen |= set(measure["players"])
        if number < pages:
            room.get_by_role("button", name="Next page").click()
    return seen, measures


def assert_reads_across_the_room(measures: list[dict]) -> None:
    for measure in measures:
        assert measure["off"] == [], measure
        assert not measure["scroll"], measure
        assert measure["smallest"] >= SMALLEST_TEXT, measure


def test_the_tv_fits_forty_players_at_1920_by_1080_and_reads_across_the_room(browser, server):
    organiser = browser.new_context(**PHONE).new_page()
    start_night(organiser, server, FORTY)
    room = browser.new_context(**FULL_HD).new_page()
    room.goto(screen_link(organiser))

    # Round 1 seated: where to sit, every player on some page
    expect(room.locator(".tv-state")).to_contain_text("Round 1 of 3: go to your table")
    shot(room, "night-10-tv-seated")
    seen, measures = every_page(room)
    assert seen == set(FORTY)
    assert_reads_across_the_room(measures)
    shot(room, "night-10-tv-seated")

    # Round 1 playing: the tables, live
    organiser.get_by_role("button", name="Start round 1").click()
    expect(organiser.locator("#night-live h2").first).to_contain_text("Round 1 of 3: playing")
    expect(room.locator(".tv-state")).to_have_text("Round 1 of 3")
    tables = seating(organiser)
    assert len(tables) == 10
    keepers = organiser.locator("#night-live .night-round a.keep-score").evaluate_all(
        "(links) => links.map((a) => a.href)"
    )
    play_by_api(server, keepers[0], tables[0], hands=range(1, 4))
    expect(
        room.locator(f".night-game[data-table='1'] [data-player='{tables[0][1]}'] .score")
    ).to_have_text(str(3 * hand_points(tables[0])[tables[0][1]]))
    seen, measures = every_page(room)
    assert seen == set(FORTY)
    assert_reads_across_the_room(measures)
    shot(room, "night-11-tv-playing")

    # Between rounds: the leaderboard
    for index, (keeper, seats) in enumerate(zip(keepers, tables, strict=True)):
        play_by_api(server, keeper, seats, hands=range(4 if index == 0 else 1, 11))
    expect(room.locator(".tv-state")).to_contain_text("Round 1 of 3 is over")
    expect(room.locator("#night-board")).to_be_attached()
    seen, measures = every_page(room)
    assert seen == set(FORTY)
    assert_reads_across_the_room(measures)
    shot(room, "night-12-tv-board")

    checker = browser.new_context(**FULL_HD, bypass_csp=True).new_page()
    checker.goto(room.url)
    problems = serious_violations(checker)
    checker.context.close()
    assert not problems, "\n".join(problems)
    for page in (organiser, room):
        page.context.close()


def test_the_round_clock_counts_down_from_the_servers_time_and_calls_the_last_hand(
    browser, server, clock
):
    """The server says what is left (the store's clock, set here); each page counts down on
    its own timer (Playwright's, moved on here) and calls the last hand at 0."""
    clock.at = "2026-11-23T19:00:00+00:00"
    organiser = browser.new_context(**PHONE).new_page()
    start_night(organiser, server, FORTY[:6], minutes="30")
    organiser.get_by_role("button", name="Start round 1").click()
    expect(organiser.locator("#night-live h2").first).to_contain_text("Round 1 of 3: playing")
    clock.at = "2026-11-23T19:29:55+00:00"  # 5 seconds left
    room_context = browser.new_context(**FULL_HD)
    phone_context = browser.new_context(**PHONE)
    for context in (room_context, phone_context):  # the pages' time stands still until moved
        context.clock.install(time=1_000_000)
        context.clock.pause_at(1_001_000)
    room = room_context.new_page()
    room.goto(screen_link(organiser))
    phone = phone_context.new_page()
    phone.goto(organiser.locator('input[aria-label="The night\'s link"]').input_value())
    phone.select_option("#player", FORTY[0])
    phone.get_by_role("button", name="Where do I sit?").click()
    for page in (room, phone):
        expect(page.locator(".round-clock .clock-time")).to_have_text("0:05")
        expect(page.locator(".round-clock .clock-up")).to_be_hidden()
    # The server's clock moves with the pages' (a live update may draw the clock again)
    clock.at = "2026-11-23T19:29:57+00:00"
    for page in (room, phone):  # 2.5 s: the page ticks each second from when it loaded
        page.clock.run_for(2500)
    for page in (room, phone):
        expect(page.locator(".round-clock .clock-time")).to_have_text("0:03")
    clock.at = "2026-11-23T19:30:01+00:00"
    for page in (room, phone):
        page.clock.run_for(4000)
    for page in (room, phone):
        expect(page.locator(".round-clock .clock-up")).to_be_visible()
        expect(page.locator(".round-clock .clock-up")).to_contain_text("last hand")
    shot(room, "night-13-tv-last-hand")
    for page in (organiser, room, phone):
        page.context.close()


def test_the_organisers_phone_swaps_keeps_a_table_and_takes_a_player_out(browser, server):
    narrow = {**PHONE, "viewport": {"width": 360, "height": 740}}
    organiser = browser.new_context(**narrow).new_page()
    start_night(organiser, server, FORTY[:6])
    before = seating(organiser)
    first, second = before[0][0], before[1][0]
    swap(organiser, first, second)
    after = seating(organiser)
    assert after[0][0] == second and after[1][0] == first
    organiser.get_by_role("button", name=f"Keeps table 2 {first}").click()
    expect(organiser.locator(".notice")).to_contain_text(f"{first} keeps table 2 in every round")
    organiser.get_by_role("button", name="Start round 1").click()
    expect(organiser.locator("#night-live h2").first).to_contain_text("Round 1 of 3: playing")
    out = after[1][-1]
    organiser.locator("#room-playing summary").click()
    organiser.select_option("#take-out", out)
    organiser.get_by_role("button", name="Take out of this round").click()
    expect(organiser.locator(".notice")).to_contain_text(f"{out} is out of round 1")
    expect(organiser.locator(".night-table[data-table='2']")).to_contain_text("(taken out)")
    shot(organiser, "night-15-organiser-room-control")
    overflow = organiser.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not overflow  # usable at 360 px
    checker = browser.new_context(**PHONE, bypass_csp=True).new_page()
    checker.goto(organiser.url)
    problems = serious_violations(checker)
    checker.context.close()
    assert not problems, "\n".join(problems)
    organiser.context.close()


def test_room_control_works_without_javascript(browser, server, phone_without_js):
    organiser = browser.new_context(**PHONE).new_page()
    start_night(organiser, server, FORTY[:6])
    url = organiser.url
    organiser.context.close()
    phone = phone_without_js
    phone.goto(url)
    shot(phone, "night-14-no-js")
    before = [
        tuple(seat.split(" (")[0] for seat in row.split(": ", 1)[1].split(", "))
        for row in phone.locator(".night-round .night-table").all_inner_texts()
    ]
    phone.locator("#room-seated summary").click()
    phone.select_option("#move-player", before[0][0])
    phone.select_option("#move-table", "2")
    phone.get_by_role("button", name="Move to this table").click()
    expect(phone.locator(".notice")).to_contain_text(f"{before[0][0]} moves to table 2")
    expect(phone.locator(".night-table[data-table='2']")).to_contain_text(before[0][0])
