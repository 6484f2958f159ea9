"""A season of three club nights played as a club plays them (issue 40's measure of done):
the organiser's phone, the room's TV at 1920 x 1080 and two players' phones, each a real
browser page; the tables' hands go through the game's JSON API, as a scorekeeper's phone
could send them.

Night 1: 12 players, 2 rounds; a late arrival, a player leaving, a swap before round 2.
Night 2: 3 rounds planned, two players checking themselves in, ended after round 1.
Night 3: 15 players, 1 round. Then a big night of 40, which the TV shows whole.

After every game the TV's board is checked against this test's own count of rule 11, and
after every night every page's board; at the end the season's board against rule 12 and
its ratings against openskill's own for the same games in the same order.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urljoin

import pytest
from openskill.models import PlackettLuce
from pages import (
    PHONE,
    open_page,
    play_by_api,
    seating,
    settled,
    shot,
    start_night,
    start_table,
    swap,
)
from playwright.sync_api import expect
from test_club_night import placement_points
from test_night_room import FORTY, FULL_HD, assert_reads_across_the_room, every_page, screen_link

ROSTER = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lu"]
LATE = "Max"  # arrives on night 1 while round 1 is played
LEAVES = "Gus"  # goes home after round 1 of night 1
CHECK_INS = {"flo": "Flo", "Zoë": "Zoë"}  # night 2, typed on their phones: one known, one new
NIGHT_3_NEW = ["Ned", "Ola"]


def ten_hands_total(seat: int) -> int:
    """A game's total for the player in ``seat`` (from 0) when seat 0 goes out each of ten
    hands (pages.hand_points)."""
    return 0 if seat == 0 else 10 * (50 + 10 * seat)


@dataclass
class Count:
    """This test's own count: each finished game, its players in their places (seat order:
    seat 1 goes out every hand), by night."""

    nights: list[list[tuple[str, ...]]] = field(default_factory=list)

    def board(self, games: list[tuple[str, ...]]) -> dict[str, tuple[int, int, int, int]]:
        """Rule 11 over ``games``: each player's (place, points, games, total score); places
        by the most points, then more games, then the lower total, shared when all equal."""
        points: Counter[str] = Counter()
        played: Counter[str] = Counter()
        total: Counter[str] = Counter()
        for seats in games:
            for seat, name in enumerate(seats):
                points[name] += placement_points(seat + 1, len(seats))
                played[name] += 1
                total[name] += ten_hands_total(seat)
        key = {name: (-points[name], -played[name], total[name]) for name in played}
        return {
            name: (
                1 + sum(other < key[name] for other in key.values()),
                points[name],
                played[name],
                total[name],
            )
            for name in played
        }

    def night(self, number: int) -> dict[str, tuple[int, int, int, int]]:
        return self.board(self.nights[number - 1])

    def season(self) -> dict[str, tuple[int, int, int, int]]:
        return self.board([seats for night in self.nights for seats in night])


def games_shown(games: int, tv: bool) -> str:
    return f"{games} game{'' if games == 1 else 's'}" if tv else str(games)


def expect_night_board(page, expected: dict[str, tuple[int, int, int, int]], tv: bool) -> None:
    """A night's board, on the TV (a line a player) or a phone (a row): each player's place,
    points and games as counted, and nobody else with a game."""
    for name, (place, points, games, _total) in expected.items():
        row = page.locator(f"#night-board [data-player='{name}']")
        expect(row.locator(".points")).to_have_text(str(points))
        expect(row.locator(".place" if tv else "td >> nth=0")).to_have_text(str(place))
        expect(row.locator(".games")).to_have_text(games_shown(games, tv))
    rows = page.locator("#night-board [data-player]")
    for name in rows.evaluate_all("(rows) => rows.map((row) => row.dataset.player)"):
        if name not in expected:  # here, not played yet
            row = page.locator(f"#night-board [data-player='{name}']")
            expect(row.locator(".games")).to_have_text(games_shown(0, tv))


def play(
    organiser, server, room, count: Count, number: int, start: bool = True
) -> list[tuple[str, ...]]:
    """Start round ``number`` as seated (unless started) and play each table's ten hands,
    the TV's board checked after every game; the round's tables, in order."""
    if start:
        organiser.get_by_role("button", name=f"Start round {number}").click()
    expect(organiser.locator("#night-live h2").first).to_contain_text(f"Round {number} of")
    expect(organiser.locator("#night-live h2").first).to_contain_text("playing")
    tables = seating(organiser)
    keeping = organiser.locator("#night-live .night-round a.keep-score")
    expect(keeping).to_have_count(len(tables))
    settled(organiser)
    keepers = keeping.evaluate_all("(links) => links.map((a) => a.href)")
    for keeper, seats in zip(keepers, tables, strict=True):
        play_by_api(server, keeper, seats)
        count.nights[-1].append(seats)
        expect_night_board(room, count.night(len(count.nights)), tv=True)
    return tables


def at_seat(tables: list[tuple[str, ...]], name: str) -> tuple[int, int]:
    return next((t, s.index(name) + 1) for t, s in enumerate(tables, 1) if name in s)


def expect_seat(phone, round_number: int, tables: list[tuple[str, ...]], name: str) -> None:
    table, seat = at_seat(tables, name)
    expect(phone.locator(".your-seat")).to_contain_text(
        f"Round {round_number}: go to table {table}, seat {seat}"
    )


def choose_name(phone, name: str) -> None:
    phone.reload()
    phone.select_option("#player", name)
    phone.get_by_role("button", name="Where do I sit?").click()


def expect_night_over(count: Count, pages: dict, ended: str = "") -> None:
    """The TV and every phone say the night is over, with its winner and final board; a
    player's phone says where they finished."""
    expected = count.night(len(count.nights))
    winners = sorted(name for name, (place, *_rest) in expected.items() if place == 1)
    for role, page in pages.items():
        over = page.locator(".night-over-title").first
        expect(over).to_contain_text("The night is over.")
        if ended:
            expect(over).to_contain_text(ended)
        winner = page.locator(".night-winner").first
        if len(winners) == 1:
            expect(winner).to_contain_text(f"Winner of the night: {winners[0]}")
        else:  # equal on points, games and total: they share it, in alphabetical order
            shared = ", ".join(winners[:-1]) + f" and {winners[-1]}"
            expect(winner).to_contain_text(f"The win is shared: {shared}")
        expect_night_board(page, expected, tv=role == "tv")
        if role in expected:  # a player's phone: their own line
            place, points, *_rest = expected[role]
            expect(page.locator(".your-seat")).to_contain_text(
                f"You finished in place {place} with {points} points."
            )


def expect_season(page, expected: dict, came: Counter[str], ratings: dict) -> None:
    """The season's board (rule 12: as one long night of its games) and its ratings, as
    counted here and as openskill rates the same games in the same order."""
    expect(page.locator("#season-board tbody tr")).to_have_count(len(expected))
    for name, (place, points, games, total) in expected.items():
        cells = page.locator(f"#season-board tr[data-player='{name}'] td")
        expect(cells).to_have_text(
            [str(place), str(points), str(came[name]), str(games), str(total)]
        )
        shown = page.locator(f"#season-ratings tr[data-player='{name}']")
        mu, sigma = float(shown.get_attribute("data-mu")), float(shown.get_attribute("data-sigma"))
        assert mu == pytest.approx(ratings[name].mu) and sigma == pytest.approx(ratings[name].sigma)
        expect(shown.locator("td")).to_have_text(
            [
                f"about {round(ratings[name].mu)}, give or take {round(ratings[name].sigma)}",
                str(games),
            ]
        )


def test_a_season_of_three_club_nights_on_the_organisers_phone_the_tv_and_two_phones(
    browser, server
):
    organiser = open_page(browser, server, **PHONE)
    table_url = start_table(organiser, server, "Thursday club")
    organiser.get_by_role("link", name="Seasons").click()
    organiser.fill("#season-name", "Winter league")
    organiser.get_by_role("button", name="Start the season").click()
    expect(organiser.locator("h1")).to_have_text("Winter league")
    season_link = organiser.locator('input[aria-label="The season\'s link"]').input_value()
    room = browser.new_context(**FULL_HD).new_page()
    count = Count()

    # Night 1: Max arrives while round 1 is played, Gus leaves after it, a swap before round 2
    organiser.goto(table_url)
    start_night(organiser, ROSTER, "2", season="Winter league")
    night_link = organiser.locator('input[aria-label="The night\'s link"]').input_value()
    room.goto(screen_link(organiser))
    kit = open_page(browser, night_link, **PHONE)
    choose_name(kit, "Kit")
    count.nights.append([])
    first = seating(organiser)
    expect_seat(kit, 1, first, "Kit")
    organiser.get_by_role("button", name="Start round 1").click()
    expect(organiser.locator("#night-live h2").first).to_contain_text("Round 1 of 2: playing")
    organiser.fill("#arrival", LATE)
    organiser.get_by_role("button", name="Add to the night").click()
    expect(organiser.locator(".notice")).to_contain_text(f"{LATE} is here: seated from the next")
    late = open_page(browser, night_link, **PHONE)
    choose_name(late, LATE)
    expect(late.locator(".your-seat")).to_contain_text("You are not seated in round 1.")
    tables = play(organiser, server, room, count, 1, start=False)
    assert tables == first
    expect(late.locator(".your-seat")).to_contain_text("Round 1 is over. Wait here")
    for page in (organiser, kit, late):  # between rounds: every phone's board, Max's 0 games
        expect_night_board(page, count.night(1), tv=False)
    organiser.get_by_role("button", name=f"Leaves {LEAVES}").click()
    expect(organiser.locator(".notice")).to_contain_text(f"{LEAVES} has left")
    organiser.get_by_role("button", name="Seat round 2").click()
    expect(organiser.locator("#night-live h2").first).to_contain_text("Round 2 of 2: seated")
    before = seating(organiser)
    here = [name for name in [*ROSTER, LATE] if name != LEAVES]
    assert sorted(name for seats in before for name in seats) == sorted(here)
    one, two = before[0][0], before[1][0]
    swap(organiser, one, two)
    second = seating(organiser)
    assert second[0] == (two, *before[0][1:]) and second[1] == (one, *before[1][1:])
    assert second[2:] == before[2:]
    for phone, name in ((kit, "Kit"), (late, LATE)):  # live: the seat after the swap
        expect_seat(phone, 2, second, name)
    expect(room.locator(".tv-state")).to_contain_text("Round 2 of 2: go to your table")
    for number, seats in enumerate(second, 1):  # the TV seats as swapped
        shown = room.locator(f".night-game[data-table='{number}'] li[data-player]")
        expect(shown).to_have_count(len(seats))
        for seat, name in enumerate(seats):
            expect(shown.nth(seat)).to_have_attribute("data-player", name)
    assert play(organiser, server, room, count, 2) == second
    pages = {"tv": room, "organiser": organiser, "Kit": kit, LATE: late}
    expect_night_over(count, pages)
    assert count.night(1)[LEAVES][2] == 1 and count.night(1)[LATE][2] == 1
    shot(room, "club-season-01-tv-night-over")

    # Night 2: Flo and Zoë check themselves in from their phones; ended after round 1 of 3
    organiser.goto(table_url)
    ticked = [name for name in [*ROSTER, LATE] if name not in ("Flo", "Gus", "Ida")]
    start_night(organiser, [], "3", tick=ticked, season="Winter league")
    night_link = organiser.locator('input[aria-label="The night\'s link"]').input_value()
    room.goto(screen_link(organiser))
    phones = {}
    for typed, name in CHECK_INS.items():
        phone = open_page(browser, night_link, **PHONE)
        phone.get_by_role("link", name="Add me to tonight's list").click()
        phone.fill("#check-in-name", typed)
        phone.get_by_role("button", name="I am here").click()
        expect(phone.locator(".notice")).to_contain_text(
            f"Welcome, {name}: you are on tonight's list."
        )
        expect(organiser.locator("#check-ins")).to_contain_text(name)  # live, no reload
        phones[name] = phone
    expect(organiser.locator("#check-ins")).to_contain_text("new to the table")  # Zoë
    for name in CHECK_INS.values():  # round 1 seated again with them
        expect(organiser.locator("#night-live .night-round")).to_contain_text(name)
    tables = seating(organiser)
    assert sorted(n for seats in tables for n in seats) == sorted([*ticked, *CHECK_INS.values()])
    assert len(tables) == 3
    for name, phone in phones.items():
        expect_seat(phone, 1, tables, name)
    count.nights.append([])
    play(organiser, server, room, count, 1)
    organiser.get_by_role("button", name="End the night after round 1").click()
    pages = {"tv": room, "organiser": organiser, **phones}
    expect_night_over(count, pages, ended="It was ended after round 1 of 3.")
    newcomer = open_page(browser, night_link, **PHONE)  # too late: the night has ended
    expect(newcomer.locator("#check-in")).to_contain_text("The night is over")
    expect(newcomer.get_by_role("link", name="Add me to tonight's list")).to_have_count(0)
    newcomer.goto(f"{night_link}/check-in")
    expect(newcomer.get_by_role("button", name="I am here")).to_have_count(0)
    newcomer.context.close()
    shot(room, "club-season-02-tv-ended-early")

    # Night 3: everyone from the roster but Bob, and two newcomers; one round of 4 tables
    organiser.goto(table_url)
    ticked = [name for name in [*ROSTER, LATE, "Zoë"] if name != "Bob"]
    start_night(organiser, NIGHT_3_NEW, "1", tick=ticked, season="Winter league")
    room.goto(screen_link(organiser))
    for phone, name in ((kit, "Kit"), (phones["Zoë"], "Zoë")):
        phone.goto(organiser.locator('input[aria-label="The night\'s link"]').input_value())
        choose_name(phone, name)
    count.nights.append([])
    tables = play(organiser, server, room, count, 1)
    assert [len(seats) for seats in tables] == [4, 4, 4, 3]
    pages = {"tv": room, "organiser": organiser, "Kit": kit, "Zoë": phones["Zoë"]}
    expect_night_over(count, pages)

    # The season: its board by rule 12, its ratings as openskill rates the same games
    assert [sum(map(len, night)) for night in count.nights] == [24, 12, 15]
    model = PlackettLuce()
    ratings: dict = {}
    for night in count.nights:
        for seats in night:
            rated = model.rate(
                [[ratings.get(name, model.rating())] for name in seats],
                ranks=list(range(1, len(seats) + 1)),
            )
            ratings.update({name: rating for name, (rating,) in zip(seats, rated, strict=True)})
    came = Counter(name for night in count.nights for name in {n for s in night for n in s})
    expected = count.season()
    assert len(expected) == 16
    reader = kit
    reader.goto(season_link)
    expect_season(reader, expected, came, ratings)
    shot(reader, "club-season-03-season-board")
    reader.locator("#season-board tr[data-player='Kit'] a").click()  # Kit's own page
    expect(reader.locator("h1")).to_have_text("Kit")
    place, points, games, _total = expected["Kit"]
    expect(reader.locator(".your-season")).to_contain_text(f"Place {place} of 16 in Winter league")
    expect(reader.locator(".your-season")).to_contain_text(
        f"{points} points · 3 nights · {games} games"
    )
    nights = [count.night(number)["Kit"] for number in (1, 2, 3)]
    expect(reader.locator("main tbody tr td.points")).to_have_text([str(n[1]) for n in nights])
    shot(reader, "club-season-03-season-board")
    organiser.goto(table_url + "/seasons")
    organiser.get_by_role("link", name="Winter league").click()
    expect(organiser.locator("#season-nights li")).to_have_count(3)
    expect_season(organiser, expected, came, ratings)
    link = organiser.locator("#season-print a", has_text="The board as a spreadsheet (CSV)")
    answer = organiser.request.get(urljoin(organiser.url, link.get_attribute("href")))
    assert answer.ok
    rows = {row["player"]: row for row in csv.DictReader(io.StringIO(answer.text()))}
    assert rows.keys() == expected.keys()
    for name, (place, points, games, total) in expected.items():
        row = rows[name]
        assert (row["place"], row["points"], row["nights"], row["games"]) == (
            str(place),
            str(points),
            str(came[name]),
            str(games),
        ), row
        assert (row["total score"], row["nights counted"]) == (str(total), str(came[name]))
        assert (row["rating"], row["give or take"]) == (
            str(round(ratings[name].mu)),
            str(round(ratings[name].sigma)),
        ), row
    for page in (organiser, room, kit, late, *phones.values()):
        page.context.close()


def test_the_tv_shows_every_player_of_a_big_night_of_forty(browser, server):
    """A club's biggest night: all 40 players on the TV, seated and on the board after the
    round, on pages that fit the screen and read across the room."""
    organiser = open_page(browser, server, **PHONE)
    start_table(organiser, server, "Thursday club")
    start_night(organiser, FORTY, "1")
    room = open_page(browser, screen_link(organiser), **FULL_HD)
    seen, measures = every_page(room)
    assert seen == set(FORTY)
    assert_reads_across_the_room(measures)
    count = Count(nights=[[]])
    play(organiser, server, room, count, 1)
    assert sum(map(len, count.nights[0])) == 40
    room.reload()  # its pages from the first again, paused
    expect(room.locator(".night-over-title")).to_contain_text("The night is over.")
    seen, measures = every_page(room)
    assert seen == set(FORTY)
    assert_reads_across_the_room(measures)
    expect_night_board(room, count.night(1), tv=True)
    shot(room, "club-season-04-tv-forty")
    for page in (organiser, room):
        page.context.close()
