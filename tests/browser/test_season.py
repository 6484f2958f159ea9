"""A short season: two club nights of six players on the organiser's phone, one player
checking themselves in from their own phone on the second night, and the season's board
and ratings on a player's phone, each checked against this test's own count (rule 12) and
openskill's own ratings for the same games in the same order.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from pages import PHONE, play_by_api, seating, serious_violations, settled, shot, start_table
from pages import start_night as seat_first_round
from playwright.sync_api import expect
from test_web_seasons import new_season, view_link
from test_web_seasons import play_round as play_by_client
from test_web_seasons import start_night as start_by_client
from webutil import new_table

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
LATE = "Flo"  # not ticked on the second night: checks in from a phone as "flo"
NARROW = {**PHONE, "viewport": {"width": 360, "height": 740}}  # the narrowest phone we serve
CSS = (Path(__file__).resolve().parents[2] / "static" / "app.css").read_text()
LONG = ["Bartholomäus", "Konstantinos", "Maximiliane", "Władysława"]
NIGHT = "Donnerstagsspieleabend im Vereinsheim"


def fits(page, width: int) -> None:
    """Nothing on the page is wider than the phone: no sideways scrolling."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


def start_night(organiser, tick: list[str] | None, newcomers: list[str]) -> None:
    """From the table page: a night of one round at two tables, counted for the season the
    form chose by itself (today's)."""
    seat_first_round(organiser, newcomers, "1", tick=tick, tables="2", season="Spring league")
    expect(organiser.locator("#night-season")).to_contain_text("counts for Spring league")


def play_round(organiser, server) -> list[tuple[str, ...]]:
    """Start the seated round and play each table's ten hands; its tables, in order."""
    tables = seating(organiser)
    organiser.get_by_role("button", name="Start round 1").click()
    keeping = organiser.locator("#night-live .night-round a.keep-score")
    expect(keeping).to_have_count(len(tables))
    settled(organiser)
    for keeper, seats in zip(
        keeping.evaluate_all("(a) => a.map((x) => x.href)"), tables, strict=True
    ):
        play_by_api(server, keeper, seats)
    expect(organiser.locator("#night-live")).to_contain_text("The night is over")
    return tables


def test_a_season_of_two_nights_with_a_check_in_from_a_phone(browser, server):
    organiser = browser.new_context(**PHONE).new_page()
    table_url = start_table(organiser, server, "Thursday club")
    organiser.get_by_role("link", name="Seasons").click()
    organiser.fill("#season-name", "Spring league")  # its days: from today, by default
    organiser.get_by_role("button", name="Start the season").click()
    expect(organiser.locator("h1")).to_have_text("Spring league")
    season_link = organiser.locator('input[aria-label="The season\'s link"]').input_value()

    organiser.goto(table_url)
    start_night(organiser, None, PLAYERS)
    nights = [play_round(organiser, server)]

    organiser.goto(table_url)
    start_night(organiser, [p for p in PLAYERS if p != LATE], [])
    phone = browser.new_context(**NARROW).new_page()
    phone.goto(organiser.locator('input[aria-label="The night\'s link"]').input_value())
    phone.get_by_role("link", name="Add me to tonight's list").click()
    fits(phone, 360)
    shot(phone, "season-01-check-in-form")
    phone.fill("#check-in-name", "flo")  # as typed on a phone: the roster says Flo
    phone.get_by_role("button", name="I am here").click()
    expect(phone.locator(".notice")).to_contain_text("Welcome, Flo: you are on tonight's list.")
    expect(phone.locator(".your-seat")).to_contain_text("Round 1: go to table")
    # the organiser sees the arrival without reloading, and the round seated with Flo
    expect(organiser.locator("#check-ins")).to_contain_text("Flo")
    expect(organiser.locator("#night-live .night-round")).to_contain_text("Flo")
    shot(organiser, "season-02-organiser-sees-check-in")
    nights.append(play_round(organiser, server))
    assert sorted(name for seats in nights[1] for name in seats) == sorted(PLAYERS)

    # this test's own count: rule 11's points for places, added over the nights
    points: Counter[str] = Counter()
    for tables in nights:
        for seats in tables:  # seat 1 goes out every hand: the seats are the places
            for place, name in enumerate(seats):
                points[name] += 120 * (len(seats) - 1 - place) // (len(seats) - 1)
    model = PlackettLuce()
    ratings = {name: model.rating() for name in PLAYERS}
    for tables in nights:  # openskill's own, game by game in the order played
        for seats in tables:
            rated = model.rate([[ratings[n]] for n in seats], ranks=list(range(1, len(seats) + 1)))
            ratings.update({name: rating for name, (rating,) in zip(seats, rated, strict=True)})

    reader = browser.new_context(**NARROW).new_page()
    reader.goto(season_link)
    for name in PLAYERS:
        row = reader.locator(f"#season-board tr[data-player='{name}']")
        expect(row.locator("td.points")).to_have_text(str(points[name]))
        expect(row.locator("td.points")).to_have_css("display", "table-cell")  # in its column
        expect(row.locator("td").nth(2)).to_have_text("2")  # nights: both
        shown = reader.locator(f"#season-ratings tr[data-player='{name}']")
        mu, sigma = float(shown.get_attribute("data-mu")), float(shown.get_attribute("data-sigma"))
        assert mu == pytest.approx(ratings[name].mu) and sigma == pytest.approx(ratings[name].sigma)
        expect(shown).to_contain_text(
            f"about {round(ratings[name].mu)}, give or take {round(ratings[name].sigma)}"
        )
    fits(reader, 360)
    shot(reader, "season-03-board")
    reader.locator(f"#season-board tr[data-player='{LATE}'] a").click()
    expect(reader.locator("h1")).to_have_text(LATE)
    expect(reader.locator(".your-season")).to_contain_text(f"{points[LATE]} points")
    fits(reader, 360)
    organiser.goto(table_url + "/seasons")
    organiser.get_by_role("link", name="Spring league").click()
    expect(organiser.locator("#season-nights li")).to_have_count(2)
    organiser.set_viewport_size({"width": 360, "height": 740})
    fits(organiser, 360)
    shot(organiser, "season-04-organiser")
    problems = []
    checker = browser.new_context(**PHONE, bypass_csp=True).new_page()
    for url in (season_link, reader.url, organiser.url):
        checker.goto(url)
        problems += serious_violations(checker)
    assert not problems, "\n".join(problems)
    for page in (organiser, phone, reader, checker):
        page.context.close()


@pytest.mark.parametrize("language", ["en", "de", "es", "fr", "it", "pl"])
def test_the_season_pages_of_long_names_fit_a_narrow_phone(browser, client, clock, language):
    """Six columns, long names and long words ("Gesamtpunkte", a night called
    "Donnerstagsspieleabend"): the board and a player's nights scroll in their cards, the
    page never sideways."""
    table_url = new_table(client, "Thursday club")
    season = new_season(client, table_url, best="1")
    for _night in range(2):
        night = start_by_client(
            client, table_url, LONG, name=NIGHT, season=season.rsplit("/", 1)[1]
        )
        play_by_client(client, night)
    public = view_link(client.get(season).get_data(as_text=True))
    page = browser.new_page(viewport={"width": 360, "height": 740})
    try:
        pages = ((public, "#season-board", 6), (f"{public}/player?name={LONG[0]}", "main", 4))
        for url, part, heads in pages:
            shown = client.get(url, headers={"Accept-Language": language}).get_data(as_text=True)
            body = shown.split("<body", 1)[1].split(">", 1)[1].split("</body>", 1)[0]
            page.set_content(f'<html lang="{language}"><style>{CSS}</style><body>{body}</body>')
            assert page.locator(f"{part} .board th[scope=col]").count() == heads
            fits(page, 360)
    finally:
        page.close()
