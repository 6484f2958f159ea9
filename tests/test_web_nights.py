"""A club night through its pages: started from a table, run by the table's link, watched
by its own link and short code, refused clearly when the form is wrong."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest
from flask import template_rendered
from printed import words as pdf_words
from webpage import read
from webutil import csrf, new_table, plain_names, record, table_game

from scorekeeper import codes

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed"]


def start_night(client, table_url, players=PLAYERS, newcomers="", **choices) -> str:
    data = {
        "csrf_token": csrf(client),
        "name": "Thursday",
        "player": players,
        "newcomers": newcomers,
        "rounds": "2",
        "profile": "ten-hands",
        "mode": "new_opponents",
        "scheme": "placement",
        **choices,
    }
    response = client.post(f"{table_url}/nights/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


@pytest.fixture
def table_url(client) -> str:
    url = new_table(client, "Thursday club")
    for players in (PLAYERS[:3], PLAYERS[3:]):  # the roster: from games played before
        table_game(client, url, players=players)
    return url


def keeper_links(page: str) -> list[str]:
    return read(page).links("a.keep-score")


def seating(page: str) -> list[list[str]]:
    """Each table's names in seat order, as the page lists them (also from ``plain_names``'
    page, whose names have lost their ``<bdi>``)."""
    return [
        [_seated_name(seat) for seat in table.select("span.seat")]
        for table in read(page).select("li.night-table")
    ]


def _seated_name(seat) -> str:
    isolated = seat.select("bdi")
    return isolated[0].text if isolated else seat.leading_text


def read_only_link(page: str) -> str:
    """The night's read-only link (its path), as the organiser's page gives it to copy."""
    (link,) = read(page).copy_links
    assert link.startswith("http://table.test/e/"), link
    return link.removeprefix("http://table.test")


def leaderboard(page: str) -> dict[str, str]:
    return dict(read(page).leaderboard)


def test_the_table_page_offers_a_night_with_its_roster_ticked(client, table_url):
    page = client.get(table_url).get_data(as_text=True)
    assert "Start a night" in page
    form = client.get(f"{table_url}/nights/new").get_data(as_text=True)
    ticked = read(form).checked("player")
    for name in PLAYERS:
        assert name in ticked
    assert "#night" in form  # rule 11 on the rules page


def test_a_night_is_seated_started_and_each_table_gets_its_scorekeeper_link(client, table_url):
    url = start_night(client, table_url, newcomers="Flo\n")
    shown = client.get(url).get_data(as_text=True)
    page = plain_names(shown)
    assert "Round 1 of 2: seated" in page and "(deals)" in page
    tables = seating(shown)
    assert sorted(len(t) for t in tables) == [3, 3]
    assert sorted(n for t in tables for n in t) == sorted([*PLAYERS, "Flo"])
    started = client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    assert started.status_code == 303
    shown = client.get(url).get_data(as_text=True)
    page = plain_names(shown)
    links = keeper_links(shown)
    assert len(links) == 2 and "Round 1 of 2: playing" in page
    assert seating(shown) == tables  # as seated, seat 1 dealing
    game = client.get(links[0]).get_data(as_text=True)
    assert "Ten hands" in game
    listed = client.get(table_url).get_data(as_text=True)
    assert "Thursday" in listed and url.split("table.test")[-1] in listed


def test_the_read_only_link_and_the_code_say_where_a_player_sits(client, table_url):
    url = start_night(client, table_url)
    organiser = client.get(url).get_data(as_text=True)
    view = read_only_link(organiser)
    code = read(organiser).one("section.share p strong").text  # "... and type CODE"
    assert codes.normalise(code) is not None
    opened = client.get(f"/{code.lower()}")
    assert opened.status_code == 303 and opened.headers["Location"].endswith(view)
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    tables = seating(client.get(url).get_data(as_text=True))
    number, seat = next((i, t.index("Cy") + 1) for i, t in enumerate(tables, 1) if "Cy" in t)
    mine = plain_names(client.get(f"{view}?player=Cy").get_data(as_text=True))
    assert f"Round 1: go to table {number}, seat {seat}" in mine
    reopened = client.get(f"/{code.lower()}", follow_redirects=True)  # the code typed again
    again = plain_names(reopened.get_data(as_text=True))
    assert f"Round 1: go to table {number}, seat {seat}" in again  # the phone remembers Cy
    assert read(again).checked("player") == ["Cy"]
    assert "/g/" not in mine and "csrf_token" not in mine  # read only: no scorekeeper link
    tv = plain_names(client.get(f"{view}/tv").get_data(as_text=True))
    assert "Round 1: the tables" in tv and len(read(tv).select(".night-game.tv-item")) == 2
    assert "Leaderboard" not in tv  # nothing to rank before the first game ends


def test_the_leaderboard_follows_a_game_finished_through_the_form(client, table_url):
    url = start_night(client, table_url)  # 5 players: tables of 3 and 2
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    page = client.get(url).get_data(as_text=True)
    first_table = seating(page)[0]
    link = keeper_links(page)[0].replace("http://table.test", "")
    for hand in range(1, 11):
        response = record(client, link, hand, went_out=0, points={1: 50, 2: 60})
        assert response.status_code == 303, response.get_data(as_text=True)
    points = leaderboard(client.get(url).get_data(as_text=True))
    assert [points[name] for name in first_table] == ["120", "60", "0"]
    game_id = link.split("/")[2]
    play = client.get(f"/v/{game_id}/bgstats.json")  # each game still logs to BG Stats
    assert play.status_code == 200 and len(json.loads(play.data)["players"]) == 3
    figures = read(client.get(f"{table_url}/stats").get_data(as_text=True))
    winner = figures.one(f'tr[data-player="{first_table[0]}"]')
    assert winner.texts("td") == ["1", "1", "120.0"]
    assert client.post(f"{url}/seat", data={"csrf_token": csrf(client)}).status_code == 303
    page = plain_names(client.get(url).get_data(as_text=True))
    assert "Round 1 of 2: playing" in page  # the other table plays on: no round 2 yet
    assert "not all finished" in page


def test_a_player_leaves_and_a_late_one_arrives_between_rounds(client, table_url):
    url = start_night(client, table_url)
    token = csrf(client)
    client.post(f"{url}/players", data={"csrf_token": token, "action": "leave", "name": "Ed"})
    client.post(f"{url}/players", data={"csrf_token": token, "action": "arrive", "name": "Gus"})
    shown = client.get(url).get_data(as_text=True)
    page = plain_names(shown)
    names = sorted(n for t in seating(shown) for n in t)
    assert names == sorted(["Ann", "Bob", "Cy", "Di", "Gus"])
    assert "(left the night)" in page
    history = page.split('id="night-history"')[1]
    for words in ("The night began with 5 players", "Ed left the night", "Gus joined the night"):
        assert words in history
    assert history.count("Round 1 seated: At random") == 3  # seated, then again twice


@pytest.mark.parametrize(
    ("change", "status", "words"),
    [
        ({"rounds": "many"}, 422, "how many rounds"),
        ({"rounds": "99"}, 422, "1 to 20 rounds"),
        ({"mode": "chaos"}, 400, "does not say"),
        ({"player": [], "newcomers": "Solo"}, 422, "at least 2 players"),
        ({"newcomers": "<b>Ann</b>\n" + "x" * 50}, 422, ""),
    ],
)
def test_a_wrong_form_is_refused_with_words_and_keeps_what_was_typed(
    client, table_url, change, status, words
):
    data = {
        "csrf_token": csrf(client),
        "name": "Thursday",
        "player": PLAYERS,
        "rounds": "2",
        "profile": "official",
        "mode": "random",
        "scheme": "cumulative",
        **change,
    }
    response = client.post(f"{table_url}/nights/new", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == status and words in page
    assert "<b>Ann" not in page


def test_a_night_needs_the_tables_link_and_a_form_its_csrf_token(client, table_url):
    url = start_night(client, table_url)
    night_id = url.rsplit("/", 1)[1]
    assert client.get(f"/t/not-a-table/nights/{night_id}").status_code == 404
    other = new_table(client, "Another club")
    assert client.get(f"{other}/nights/{night_id}").status_code == 404
    assert client.get("/e/not-a-night").status_code == 404
    assert client.post(f"{url}/start", data={}).status_code == 400
    wrong = client.post(f"{url}/seat", data={"csrf_token": csrf(client), "mode": "chaos"})
    assert wrong.status_code == 400 and "does not say" in wrong.get_data(as_text=True)


def live_tag(page: str) -> str:
    return read(page).live("#night-live")["If-None-Match"]


def test_the_room_screen_waits_on_the_night_and_wakes_for_its_games(client, table_url):
    url = start_night(client, table_url)
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    organiser = client.get(url).get_data(as_text=True)
    view = read_only_link(organiser)
    page = client.get(f"{view}/tv").get_data(as_text=True)
    tag = live_tag(page)
    poll = {"HX-Request": "true", "If-None-Match": tag}
    assert client.get(f"{view}/tv", headers=poll).status_code == 304
    link = keeper_links(organiser)[0].replace("http://table.test", "")
    assert record(client, link, 1, went_out=0, points={1: 50, 2: 60}).status_code == 303
    woken = client.get(f"{view}/tv", headers=poll)
    assert woken.status_code == 200 and "HX-Request" in woken.headers["Vary"]
    fragment = woken.get_data(as_text=True)
    assert fragment.lstrip().startswith('<div id="night-live"') and "hand 2" in fragment
    assert live_tag(fragment) != tag


def test_a_hand_is_rendered_once_for_every_players_phone_of_the_night(app, client, table_url):
    """Each phone follows its own name, but the round and the leaderboard are the same for
    all: after a hand they are rendered once, and each phone adds only where it sits."""
    url = start_night(client, table_url)
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    organiser = client.get(url).get_data(as_text=True)
    view = read_only_link(organiser)
    link = keeper_links(organiser)[0].replace("http://table.test", "")
    assert record(client, link, 1, went_out=0, points={1: 50, 2: 60}).status_code == 303
    rendered: list[str] = []

    def count(sender, template, context, **extra):
        rendered.append(template.name)

    with template_rendered.connected_to(count, app):
        phones = {
            name: client.get(f"{view}?player={name}", headers={"HX-Request": "true"})
            for name in PLAYERS
        }
    assert rendered.count("_night_view_shared.html") == 1
    assert rendered.count("_night_view.html") == len(PLAYERS)
    tables = seating(organiser)
    places = {
        name: (t, seat) for t, seats in enumerate(tables, 1) for seat, name in enumerate(seats, 1)
    }
    for name, phone in phones.items():  # each phone still says where its player sits
        said = read(phone.get_data(as_text=True)).one("p.lead strong").text
        assert said == "Round 1: go to table {}, seat {}".format(*places[name])


def test_a_tables_backup_keeps_its_nights_and_an_import_brings_them_back(app, client, table_url):
    url = start_night(client, table_url)
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    page = client.get(url).get_data(as_text=True)
    link = keeper_links(page)[0].replace("http://table.test", "")
    for hand in range(1, 11):
        record(client, link, hand, went_out=0, points={1: 50, 2: 60})
    client.post(
        f"{url}/players", data={"csrf_token": csrf(client), "action": "leave", "name": "Di"}
    )
    board = read(page).leaderboard
    before = client.get(url).get_data(as_text=True)
    backup = client.get(f"{table_url}/export.zip").data
    with zipfile.ZipFile(io.BytesIO(backup)) as zf:
        (night,) = json.loads(zf.read("table.json"))["nights"]
    assert night["played"][0]["games"] and night["players"][3] == {"name": "Di", "here": False}
    other = app.test_client()
    response = other.post(
        "/tables/import",
        data={"csrf_token": csrf(other), "file": (io.BytesIO(backup), "phase10-table.zip")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303, response.get_data(as_text=True)
    imported = other.get(response.headers["Location"]).get_data(as_text=True)
    (night_url,) = read(imported).links("#nights a.game-link")
    assert night_url.rsplit("/", 1)[1] != url.rsplit("/", 1)[1]  # a new link
    after = other.get(night_url).get_data(as_text=True)
    assert seating(after) == seating(before) and board  # seated the same
    assert read(after).leaderboard == read(before).leaderboard
    assert "(left the night)" in plain_names(after)


def test_the_number_of_tables_may_be_asked_and_a_wrong_one_is_explained(client, table_url):
    url = start_night(client, table_url, tables="2")
    assert sorted(len(t) for t in seating(client.get(url).get_data(as_text=True))) == [2, 3]
    token = csrf(client)
    client.post(f"{url}/seat", data={"csrf_token": token, "tables": "1"})
    shown = client.get(url).get_data(as_text=True)
    assert "5 players sit at 1 to 2 tables" not in plain_names(shown)  # 5 at one: within the rule
    assert [len(t) for t in seating(shown)] == [5]
    client.post(f"{url}/seat", data={"csrf_token": token, "tables": "3"})
    shown = client.get(url).get_data(as_text=True)
    assert "5 players sit at 1 to 2 tables, not 3" in plain_names(shown)
    assert [len(t) for t in seating(shown)] == [5]
    client.post(f"{url}/seat", data={"csrf_token": token, "tables": "many"})
    assert "Type how many tables" in client.get(url).get_data(as_text=True)
    refused = client.post(
        f"{table_url}/nights/new",
        data={
            "csrf_token": token,
            "player": PLAYERS,
            "rounds": "2",
            "tables": "x",
            "mode": "random",
        }
        | {"scheme": "placement", "profile": "official", "name": "N"},
    )
    assert refused.status_code == 422 and "Type how many tables" in refused.get_data(as_text=True)


def test_the_nights_printables_are_its_seating_and_standings_read_back(client, table_url):
    """From the night's read-only link: each seated round's cards (every table's seats, its
    watch code once started) and the standings, as the pages show them."""
    url = start_night(client, table_url)
    organiser = client.get(url).get_data(as_text=True)
    view = read_only_link(organiser)
    assert f"{view}/print/seating-1.pdf?size=a4" in read(organiser).links()
    assert client.get(f"{view}/print/standings.pdf").status_code == 404  # nothing played yet
    seated = client.get(f"{view}/print/seating-1.pdf")
    assert seated.status_code == 200 and seated.mimetype == "application/pdf"
    before = pdf_words(seated.data)
    tables = seating(organiser)
    for number, seats in enumerate(tables, 1):
        assert f"Table {number}" in before or f"Table{number}" in before.replace(" ", "")
        assert all(name in before for name in seats)
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    page = client.get(url).get_data(as_text=True)
    link = keeper_links(page)[0].replace("http://table.test", "")
    started = pdf_words(client.get(f"{view}/print/seating-1.pdf").data).replace(" ", "")
    watch = read(page).watch_codes
    assert len(watch) == len(tables)
    for code in watch:  # grouped as on the page, or as the sheets group it
        assert codes.normalise(code) is not None
        assert code.replace("-", "") in started.replace("-", "")
    for hand in range(1, 11):
        record(client, link, hand, went_out=0, points={1: 50, 2: 60})
    sheet = client.get(f"{view}/print/standings.pdf?size=a4")
    assert sheet.status_code == 200
    text = pdf_words(sheet.data)
    first = seating(page)[0]
    # issue 40, 8: one table finished, the other still playing: not "after 1 round"
    assert "Standings during round 1" in text and "after 1 round" not in text
    assert in_order(text, first[0], first[1], first[2])
    assert client.get(f"{view}/print/seating-3.pdf").status_code == 404
    assert client.get(f"{view}/print/seating-1.pdf?size=poster").status_code == 400


def in_order(text: str, *parts: str) -> bool:
    at = 0
    for part in parts:
        at = text.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True


# --- issue 40: the night's loose ends, room control and the round clock, through the pages ---


def view_link(client, url) -> str:
    return read_only_link(client.get(url).get_data(as_text=True))


def play_round(client, url, ended_early_after: int | None = None) -> list[list[str]]:
    """Start the seated round and play every table through its scorekeeper's form: seat 1
    goes out every hand, seat n + 1 keeps 50 + 10 n; ``ended_early_after``: table 1 stops
    there ("End the game now")."""
    assert client.post(f"{url}/start", data={"csrf_token": csrf(client)}).status_code == 303
    page = client.get(url).get_data(as_text=True)
    tables = seating(page)
    for index, (link, seats) in enumerate(zip(keeper_links(page), tables, strict=True)):
        link = link.replace("http://table.test", "")
        hands = ended_early_after if index == 0 and ended_early_after else 10
        for hand in range(1, hands + 1):
            points = {seat: 50 + 10 * seat for seat in range(1, len(seats))}
            assert record(client, link, hand, went_out=0, points=points).status_code == 303
        if hands < 10:
            data = {"csrf_token": csrf(client), "version": str(hands + 1)}
            assert client.post(f"{link}/end", data=data).status_code == 303
    return tables


def test_the_tv_and_every_phone_say_the_night_is_over_with_its_winner(client, table_url):
    """Issue 40, 3: the TV kept "Round 1 of 1" with finished tables and no winner; a
    player's phone kept "Round 1: go to table 1, seat 3"."""
    url = start_night(client, table_url, players=PLAYERS[:3], rounds="1")
    (seats,) = play_round(client, url)
    view = view_link(client, url)
    for page in (f"{view}/tv", f"{view}?player={seats[2]}", url):
        text = plain_names(client.get(page).get_data(as_text=True))
        assert "The night is over." in text, page
        assert f"Winner of the night: {seats[0]}" in text, page
        assert "Final standings" in text, page
        assert "go to table" not in text, page
    mine = plain_names(client.get(f"{view}?player={seats[2]}").get_data(as_text=True))
    assert "You finished in place 3 with 0 points." in mine


def test_a_shared_win_is_said_on_every_page(client, table_url):
    url = start_night(client, table_url, rounds="1")  # 5 players: tables of 3 and 2
    play_round(client, url)
    view = view_link(client, url)
    text = plain_names(client.get(f"{view}/tv").get_data(as_text=True))
    assert "The win is shared:" in text and " and " in text


def test_a_player_not_seated_this_round_is_told_so_not_shown_an_old_seat(client, table_url):
    """Issue 40, 4: Finn, who left after round 1, was shown "Round 1: go to table 1, seat 3"
    in round 3; the same would meet a late arrival."""
    url = start_night(client, table_url, players=PLAYERS[:4], rounds="3")
    view = view_link(client, url)
    play_round(client, url)
    between = plain_names(client.get(f"{view}?player=Ann").get_data(as_text=True))
    assert "Round 1 is over" in between and "go to table" not in between
    token = csrf(client)
    client.post(f"{url}/players", data={"csrf_token": token, "action": "leave", "name": "Di"})
    client.post(f"{url}/seat", data={"csrf_token": token})
    client.post(f"{url}/start", data={"csrf_token": token})
    client.post(f"{url}/players", data={"csrf_token": token, "action": "arrive", "name": "Flo"})
    left = plain_names(client.get(f"{view}?player=Di").get_data(as_text=True))
    assert "You are not seated in round 2: you left the night." in left
    assert "go to table" not in left
    late = plain_names(client.get(f"{view}?player=Flo").get_data(as_text=True))
    assert "You are not seated in round 2." in late and "from the next round" in late
    stranger = plain_names(client.get(f"{view}?player=Nobody").get_data(as_text=True))
    assert "Nobody called Nobody is at this night" in stranger
    assert "is not seated yet" not in stranger


def test_the_night_is_ended_early_from_the_organisers_page(client, table_url):
    url = start_night(client, table_url, rounds="3")
    play_round(client, url)
    page = client.get(url).get_data(as_text=True)
    assert "End the night after round 1" in page
    ended = client.post(f"{url}/end", data={"csrf_token": csrf(client)}, follow_redirects=True)
    text = plain_names(ended.get_data(as_text=True))
    assert "The night is over." in text and "It was ended after round 1 of 3." in text
    view = view_link(client, url)
    sheet = pdf_words(client.get(f"{view}/print/standings.pdf").data)
    assert "Final standings after 1 round" in sheet
    late = client.post(
        f"{url}/players",
        data={"csrf_token": csrf(client), "action": "arrive", "name": "Very Late"},
        follow_redirects=True,
    )
    assert "The night is over" in late.get_data(as_text=True)
    assert "Very Late" not in client.get(f"{view}/tv").get_data(as_text=True)


def test_the_rounds_and_the_clock_change_from_the_organisers_page(client, table_url):
    url = start_night(client, table_url, rounds="3")
    data = {"csrf_token": csrf(client), "rounds": "4", "minutes": "45"}
    page = client.post(f"{url}/plan", data=data, follow_redirects=True).get_data(as_text=True)
    assert "Round 1 of 4: seated" in page and 'name="minutes" inputmode="numeric"' in page
    assert 'value="45"' in page
    wrong = client.post(f"{url}/plan", data={**data, "minutes": "soon"}, follow_redirects=True)
    assert "Type the minutes of a round" in wrong.get_data(as_text=True)


def test_a_second_organisers_stale_page_is_refused_with_what_changed(client, table_url):
    """Issue 40, 7: both phones were told "Round 2 is seated."; the last one won."""
    url = start_night(client, table_url)
    play_round(client, url)
    page = client.get(url).get_data(as_text=True)
    (seen,) = set(read(page).values("seen"))  # every form of the page saw the same
    token = csrf(client)
    first = client.post(f"{url}/seat", data={"csrf_token": token, "seen": seen, "mode": "random"})
    assert first.status_code == 303
    assert "Round 2 is seated." in client.get(url).get_data(as_text=True)  # the first phone
    second = client.post(
        f"{url}/seat",
        data={"csrf_token": token, "seen": seen, "mode": "by_standing"},
        follow_redirects=True,
    )
    text = second.get_data(as_text=True)
    assert "Another phone changed the night a moment ago (Round 2 seated: At random)" in text
    assert "Round 2 is seated." not in text
    history = text.split('id="night-history"')[1]
    assert history.count("Round 2 seated") == 1


def test_the_finished_tables_say_a_shared_win_and_an_early_end(client, table_url):
    """Issue 40, 8: a shared win showed only "finished", an early end no "ended early after
    hand 6"."""
    url = start_night(client, table_url, rounds="2")
    play_round(client, url, ended_early_after=6)
    client.get(url)  # the keepers' notes ("Hand 6 saved.") are said once
    tables = read(client.get(url).get_data(as_text=True)).texts("li.night-table[data-table]")
    assert re.search(r"ended early after hand 6: \w+ wins", tables[0])
    assert re.search(r"finished: \w+ wins", tables[1])


def test_a_players_page_starts_on_choose_your_name_and_marks_their_row(client, table_url):
    """Issue 40, 8: the page started on the first name, and did not mark the player's row;
    read as text the Points and Games cells ran together ("1601")."""
    url = start_night(client, table_url)
    view = view_link(client, url)
    first = client.get(view).get_data(as_text=True)
    assert '<option value="" selected>Choose your name</option>' in first
    play_round(client, url)
    mine = client.get(f"{view}?player=Cy").get_data(as_text=True)
    assert '<tr data-player="Cy" class="yours" aria-current="true">' in mine
    assert mine.count('class="yours"') == 1 and "(you)" in mine
    cells = read(mine).one("tr[data-player=Cy]").bare_text.split()
    assert len([cell for cell in cells if cell.isdigit()]) == 4  # place, points, games, total
    other = client.get(f"{view}?player=Ann").get_data(as_text=True)
    assert 'data-player="Cy" class="yours"' not in other


def test_an_arrival_already_here_in_another_case_is_said_so(client, table_url):
    """Issue 40, 8: "zoë" when Zoë is here said "is here: seated from the next round"."""
    url = start_night(client, table_url, newcomers="Zoë\n")
    answer = client.post(
        f"{url}/players",
        data={"csrf_token": csrf(client), "action": "arrive", "name": "zoë"},
        follow_redirects=True,
    )
    assert "Zoë is already here." in plain_names(answer.get_data(as_text=True))


def test_swaps_and_moves_before_a_round_starts_and_the_seating_cards_follow(client, table_url):
    url = start_night(client, table_url)  # 5 players: 3 and 2
    view = view_link(client, url)
    before = seating(client.get(url).get_data(as_text=True))
    a, b = before[0][0], before[1][0]
    token = csrf(client)
    client.post(f"{url}/swap", data={"csrf_token": token, "first": a, "second": b})
    after = seating(client.get(url).get_data(as_text=True))
    assert after[0][0] == b and after[1][0] == a
    client.post(f"{url}/move", data={"csrf_token": token, "player": after[0][1], "table": "2"})
    moved = seating(client.get(url).get_data(as_text=True))
    assert [len(t) for t in moved] == [2, 3] and moved[1][-1] == after[0][1]
    cards = pdf_words(client.get(f"{view}/print/seating-1.pdf").data)
    assert in_order(cards, *moved[1])
    wrong = client.post(
        f"{url}/move",
        data={"csrf_token": token, "player": moved[0][0], "table": "2"},
        follow_redirects=True,
    )
    assert "table 1 would keep only one player" in wrong.get_data(as_text=True)


def test_a_player_is_taken_out_of_a_round_and_their_game_goes_on(client, table_url):
    url = start_night(client, table_url, players=PLAYERS[:4], rounds="1")
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    page = client.get(url).get_data(as_text=True)
    (seats,) = seating(page)
    out = seats[3]
    answer = client.post(
        f"{url}/take-out",
        data={"csrf_token": csrf(client), "player": out, "round": "1"},
        follow_redirects=True,
    )
    assert f"{out} is out of round 1" in plain_names(answer.get_data(as_text=True))
    link = keeper_links(page)[0].replace("http://table.test", "")
    game = plain_names(client.get(link).get_data(as_text=True))
    assert 'name="points-3"' not in game  # no points asked of who left
    assert record(client, link, 1, went_out=0, points={1: 50, 2: 60}).status_code == 303
    view = view_link(client, url)
    mine = plain_names(client.get(f"{view}?player={out}").get_data(as_text=True))
    assert "you were taken out of this round" in mine


def test_the_round_clock_shows_what_is_left_on_the_servers_clock(client, table_url, clock):
    clock.at = "2026-11-23T19:00:00+00:00"
    url = start_night(client, table_url, minutes="30")
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    view = view_link(client, url)
    clock.at = "2026-11-23T19:12:30+00:00"
    for page in (url, f"{view}?player=Ann", f"{view}/tv"):
        text = client.get(page).get_data(as_text=True)
        assert 'data-left="1050"' in text and "17:30" in text, page
    clock.at = "2026-11-23T19:31:00+00:00"
    for page in (url, f"{view}?player=Ann", f"{view}/tv"):
        text = client.get(page).get_data(as_text=True)
        assert 'data-left="0"' in text and "Time is up: this is the last hand." in text, page


def test_a_table_whose_game_ends_in_a_shared_win_says_so(client, table_url):
    """Issue 40, 8: a shared win (a ten-hands tie) showed only "finished"."""
    url = start_night(client, table_url, players=PLAYERS[:2], rounds="1")
    client.post(f"{url}/start", data={"csrf_token": csrf(client)})
    page = client.get(url).get_data(as_text=True)
    link = keeper_links(page)[0].replace("http://table.test", "")
    for hand in range(1, 11):  # each goes out in turn, the other keeping 50: 250 each
        out = hand % 2
        assert record(client, link, hand, went_out=out, points={1 - out: 50}).status_code == 303
    client.get(url)  # the keeper's notes are said once
    table = read(client.get(url).get_data(as_text=True)).one("li.night-table[data-table=1]")
    assert re.search(r"finished: \w+ and \w+ share the win", table.text)
    view = view_link(client, url)
    tv = plain_names(client.get(f"{view}/tv").get_data(as_text=True))
    assert "The win is shared:" in tv


def test_the_organiser_marks_a_player_who_keeps_a_table(client, table_url):
    url = start_night(client, table_url)
    tables = seating(client.get(url).get_data(as_text=True))
    keeper = tables[1][0]
    page = client.get(url).get_data(as_text=True)
    assert f'Keeps table 2<span class="visually-hidden"> {keeper}</span>' in page
    answer = client.post(
        f"{url}/players",
        data={"csrf_token": csrf(client), "action": "keep", "name": keeper, "table": "2"},
        follow_redirects=True,
    )
    text = plain_names(answer.get_data(as_text=True))
    assert f"{keeper} keeps table 2 in every round." in text and "(keeps table 2)" in text
    play_round(client, url)
    client.post(f"{url}/seat", data={"csrf_token": csrf(client)})
    assert keeper in seating(client.get(url).get_data(as_text=True))[1]
