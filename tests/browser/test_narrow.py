"""At 360 px, in every language: Save in reach after the last points field, the hands table of
four players without a sideways swipe, no placeholder cut; and the table's pages saying where a
game is (its table's page leads to it, it leads back, the tablet ranks and names the leader)."""

from __future__ import annotations

import re

import pytest
from pages import PHONE, TABLET, browser_app, served, settled
from playwright.sync_api import expect
from webutil import new_game, new_table, record, table_game

LANGUAGES = ["en", "de", "es", "fr", "it", "pl"]
NARROW = {**PHONE, "viewport": {"width": 360, "height": 740}}
# Whether the element lies whole inside the window, as the page stands.
IN_VIEW = (
    "(el) => { const r = el.getBoundingClientRect();"
    " return r.top >= 0 && r.bottom <= window.innerHeight"
    " && r.left >= 0 && r.right <= document.documentElement.clientWidth; }"
)


def _client(database):
    return browser_app(database, TESTING=True).test_client()


@pytest.mark.parametrize("language", LANGUAGES)
def test_save_is_in_view_after_the_last_points_field(browser, tmp_path, language):
    """Four players, each under 50 so each gets the live check's longest words."""
    database = tmp_path / "games.sqlite3"
    client = _client(database)
    url = new_game(client, players=["Ann", "Bob", "Cy", "Dee"])
    assert record(client, url, 1, went_out=0, points={1: 50, 2: 20, 3: 35}).status_code == 303
    context = browser.new_context(**NARROW, locale=language)
    try:
        with served(database) as server:
            page = context.new_page()
            page.goto(f"{server}{url}#record")
            page.locator("label.pill").nth(1).click()  # Bob went out
            for seat, total in (("0", "25"), ("2", "10"), ("3", "45")):
                page.click(f"input[name=points-{seat}]")
                page.keyboard.type(total)
                expect(page.locator(f"#live-{seat} .will-mark")).to_be_visible()
            expect(page.locator("#hand-check .will-mark")).to_be_visible()
            settled(page)
            last = page.locator("input[name=points-3]")
            expect(last).to_be_focused()
            assert last.evaluate(IN_VIEW)
            save = page.locator("#record button[type=submit]")
            assert save.evaluate(IN_VIEW), (save.bounding_box(), last.bounding_box())
    finally:
        context.close()


def _overflow(page, selector: str) -> bool:
    return page.locator(selector).evaluate("e => e.scrollWidth > e.clientWidth")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "players", [["Ann", "Bob", "Cy", "Dee"], ["Mia", "Jonas", "Chloé", "Lea"]], ids=["Ann", "Mia"]
)
def test_four_players_hands_fit_360_px_without_a_sideways_swipe(
    browser, tmp_path, players, language
):
    database = tmp_path / "games.sqlite3"
    client = _client(database)
    url = new_game(client, players=players)
    hands = [
        (0, {1: 5, 2: 20, 3: 85}, {"made_1": "1", "made_2": "1"}),
        (1, {0: 120, 2: 45, 3: 10}, {"made_2": "1", "made_3": "1"}),
        (3, {0: 65, 1: 150, 2: 30}, {"made_2": "1"}),
    ]
    for number, (out, points, made) in enumerate(hands, start=1):
        answer = record(client, url, number, went_out=out, points=points, **made)
        assert answer.status_code == 303, answer.get_data(as_text=True)
    context = browser.new_context(**NARROW, locale=language)
    try:
        with served(database) as server:
            page = context.new_page()
            page.goto(server + url)
            box = page.locator("#hands .table-scroll")
            box.scroll_into_view_if_needed()
            assert not _overflow(page, "#hands .table-scroll")
            assert not _overflow(page, "html")
            for name in players:  # every player's column whole in the window
                head = page.locator("#hands thead th", has_text=name)
                assert head.evaluate(IN_VIEW), name
            fix = page.locator("#hands tbody tr").nth(2).locator("td.fix a")
            assert fix.evaluate(IN_VIEW)
            where = fix.bounding_box()
            assert where["width"] >= 44 and where["height"] >= 44
    finally:
        context.close()


# Every field with a placeholder, on the pages that have them: (path, what to open first).
PLACEHOLDERS = [("/new", "details.house-rules summary"), ("/tables/new", None), ("/check", None)]


def _cut_placeholders(page) -> list[str]:
    """The placeholders wider than their field's room for text: each typed into its field,
    which then scrolls sideways (the room left by whatever else the field shows, such as the
    button of a list of suggested names)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('input[placeholder]')]
          .filter(el => el.getClientRects().length)
          .filter(el => {
            const kept = el.value;
            el.value = el.placeholder;
            el.scrollLeft = 100000;
            const cut = el.scrollLeft > 0;
            el.scrollLeft = 0;
            el.value = kept;
            return cut;
          })
          .map(el => el.id + ': ' + el.placeholder)"""
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_placeholder_is_cut_at_360_px(browser, tmp_path, language):
    database = tmp_path / "games.sqlite3"
    client = _client(database)
    table = new_table(client)
    game = table_game(client, table, players=("Ann", "Bob"))
    game_id = game.split("/g/")[1].split("/")[0]
    context = browser.new_context(**NARROW, locale=language)
    try:
        with served(database) as server:
            page = context.new_page()
            cut = []
            # the table's pages first: the new game form then suggests its players' names
            pages = [(table, None), (f"{table}/games/{game_id}/move", None), *PLACEHOLDERS]
            for path, opening in pages:
                page.goto(server + path)
                if opening:
                    page.click(opening)
                if path == "/new":
                    expect(page.locator("#known-names option")).to_have_count(2)
                cut += [f"{path} {line}" for line in _cut_placeholders(page)]
            assert not cut
    finally:
        context.close()


def test_a_game_in_progress_is_the_first_button_on_its_tables_page(browser, tmp_path):
    database = tmp_path / "games.sqlite3"
    client = _client(database)
    table = new_table(client)
    done = table_game(client, table, players=("Ann", "Bob"), first="1")
    assert record(client, done, 1, went_out=0, points={1: 50}).status_code == 303
    playing = table_game(client, table, players=("Ann", "Bob", "Cy", "Dee"))
    context = browser.new_context(**NARROW)
    try:
        with served(database) as server:
            page = context.new_page()
            page.goto(server + table)
            going_on = page.locator(".playing a.game-link")
            expect(going_on).to_contain_text("Ann, Bob, Cy, Dee")
            first = page.locator("main :is(a.button, button.button, a.game-link)").first
            assert first.evaluate("(el, other) => el === other", going_on.element_handle())
            start = page.get_by_role("button", name="Start a new game")
            colour = "el => getComputedStyle(el).backgroundColor"
            assert going_on.evaluate(colour) != start.evaluate(colour)  # the one primary button
            assert "primary" not in (start.get_attribute("class") or "")
            assert going_on.bounding_box()["height"] >= 44
            finished = page.locator("section", has_text="Finished games").locator("a.game-link")
            label = finished.locator("strong")
            assert "underline" in label.evaluate("el => getComputedStyle(el).textDecorationLine")
            going_on.click()
            expect(page).to_have_url(re.compile(re.escape(playing) + "$"))
    finally:
        context.close()


def test_no_game_in_progress_keeps_start_a_new_game_first(browser, tmp_path):
    database = tmp_path / "games.sqlite3"
    table = new_table(_client(database))
    context = browser.new_context(**NARROW)
    try:
        with served(database) as server:
            page = context.new_page()
            page.goto(server + table)
            start = page.get_by_role("button", name="Start a new game")
            assert "primary" in start.get_attribute("class")
    finally:
        context.close()


def test_a_game_links_back_to_its_table_on_a_device_that_has_the_table(browser, tmp_path):
    database = tmp_path / "games.sqlite3"
    client = _client(database)
    table = new_table(client, name="The Smiths")
    game = table_game(client, table, players=("Ann", "Bob", "Cy", "Dee"))
    game_id = game.split("/g/")[1].split("/")[0]
    family, stranger = browser.new_context(**NARROW), browser.new_context(**NARROW)
    try:
        with served(database) as server:
            page = family.new_page()
            page.goto(server + table)
            page.locator(".playing a.game-link").click()
            expect(page).to_have_url(re.compile(re.escape(game) + "$"))
            back = page.get_by_role("link", name="Table: The Smiths")
            assert back.bounding_box()["height"] >= 44
            back.click()
            expect(page).to_have_url(re.compile(re.escape(table) + "$"))
            page.goto(f"{server}/v/{game_id}")  # its watch page too
            expect(page.get_by_role("link", name="Table: The Smiths")).to_be_visible()

            other = stranger.new_page()  # given only the game's links: never the table's
            for path in (game, f"/v/{game_id}"):
                other.goto(server + path)
                expect(other.locator("#scoreboard")).to_be_visible()
                expect(other.get_by_role("link", name=re.compile("^Table: "))).to_have_count(0)
                assert table not in other.content()
    finally:
        family.close()
        stranger.close()


def test_the_tablet_ranks_the_players_and_names_the_leader(browser, tmp_path):
    database = tmp_path / "games.sqlite3"
    client = _client(database)
    table = new_table(client)
    game = table_game(client, table, players=("Ann", "Bob", "Cy", "Dee"))
    game_id = game.split("/g/")[1].split("/")[0]
    context = browser.new_context(**TABLET)
    try:
        with served(database) as server:
            page = context.new_page()
            page.goto(f"{server}/v/{game_id}/table")
            names = page.locator("#scoreboard li.player .name")
            expect(names.first).to_contain_text("Ann")  # no hand yet: seat order, no leader
            expect(page.locator("#scoreboard .leader")).to_have_count(0)
            # Cy goes out having made phase 1; Bob made it too, with more points; Ann, Dee did not
            answer = record(client, game, 1, went_out=2, points={0: 60, 1: 25, 3: 85}, made_1="1")
            assert answer.status_code == 303, answer.get_data(as_text=True)
            for screen in ("the table view, live", "the table's screen"):
                if screen == "the table's screen":
                    page.goto(_screen(page, server, table))
                expect(names.first).to_contain_text("Cy")
                expect(names.nth(1)).to_contain_text("Bob")
                leader = page.locator("#scoreboard li.player.is-leader")
                expect(leader).to_have_count(1)
                expect(leader.locator(".name")).to_contain_text(re.compile(r"Cy.*leads"))
                expect(leader.locator(".place")).to_have_text("1st")
                # said in words, not by colour alone
                assert leader.locator(".leader").inner_text().strip().endswith("leads")
    finally:
        context.close()


def _screen(page, server: str, table: str) -> str:
    page.goto(server + table)
    return page.locator("#table-screen input.link-field").input_value()


# Each element that holds more than it shows (a word spilling out of its chip), and each inline
# text broken over lines ("25" at the end of one line, "pts" alone on the next).
SPILLED = "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
BROKEN = "els => els.filter(e => e.getClientRects().length > 1).map(e => e.textContent)"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_cards_word_stays_in_its_chip_and_its_worth_stays_whole(browser, tmp_path, language):
    """At 360 px Spanish "Comodín" spilled out of its 48 px chip on the phase checker (issue 41,
    finding 9), and "Comodín 25 pts" under "Count cards instead" put "pts" on a line of its own."""
    database = tmp_path / "games.sqlite3"
    url = new_game(_client(database), players=["Ann", "Bob", "Cy", "Dee"])
    context = browser.new_context(**NARROW, locale=language)
    try:
        with served(database) as server:
            page = context.new_page()
            for rules in ("official", "super-wild"):
                page.goto(f"{server}/check?rules={rules}")
                chips = page.locator(".palette .card-chip")
                expect(chips.first).to_be_visible()
                assert chips.evaluate_all(SPILLED) == [], rules
            page.goto(f"{server}{url}")
            page.locator("details.count summary").first.click()
            worth = page.locator(".stepper label small")
            expect(worth.first).to_be_visible()
            assert worth.evaluate_all(BROKEN) == []
    finally:
        context.close()
