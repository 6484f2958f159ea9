"""Ending a game early on the scorekeeper's page; when each game started and how long it took."""

from __future__ import annotations

import io

from pypdf import PdfReader
from webpage import read
from webutil import csrf, new_game, new_table, plain_names, record, table_game, watch_path


def two_hands(client, game_url: str) -> None:
    """Cy leads after two hands: two phases made; Ann and Bob one each."""
    for number, out, points, made in (
        (1, 0, {1: 50, 2: 20}, {"made-0": "on", "made-2": "on"}),
        (2, 2, {0: 60, 1: 5}, {"made-1": "on", "made-2": "on"}),
    ):
        response = record(client, game_url, number, out, points, **made)
        assert response.status_code == 303, response.get_data(as_text=True)


def test_the_confirmation_names_the_winner_it_will_declare(client, clock):
    game_url = new_game(client)
    two_hands(client, game_url)
    page = client.get(game_url).get_data(as_text=True)
    assert f'href="{game_url.removeprefix("http://table.test")}/end"' in page
    confirm = plain_names(client.get(f"{game_url}/end").get_data(as_text=True))
    assert "Ending now declares <strong>Cy</strong> the winner." in confirm
    assert "End the game: Cy wins" in confirm
    assert 'name="version" value="3"' in confirm


def test_ending_the_game_says_so_everywhere(client, clock):
    game_url = new_game(client)
    clock.at = "2026-11-23T20:25:00+00:00"  # the hands that ended it
    two_hands(client, game_url)
    clock.at = "2026-11-23T20:40:00+00:00"  # ended a while later: not playing time
    response = client.post(f"{game_url}/end", data={"csrf_token": csrf(client), "version": "3"})
    assert response.status_code == 303
    page = plain_names(client.get(game_url).get_data(as_text=True))
    assert "Game ended early after hand 2: Cy wins" in page  # the flash
    assert "<strong>Cy</strong> wins!" in page
    assert "Ended early after hand 2." in page
    assert "took 1 h 25 min" in page
    assert "End the game now" not in page
    history = plain_names(client.get(f"{game_url}/history").get_data(as_text=True))
    assert "Game ended early after hand 2: Cy wins" in history
    view = watch_path(game_url)
    for url in (view, f"{view}/table"):
        watched = client.get(url).get_data(as_text=True)
        assert "Ended early after hand 2." in watched


def test_undo_after_ending_brings_the_game_back(client, clock):
    game_url = new_game(client)
    two_hands(client, game_url)
    client.post(f"{game_url}/end", data={"csrf_token": csrf(client), "version": "3"})
    response = client.post(f"{game_url}/undo", data={"csrf_token": csrf(client), "version": "4"})
    assert response.status_code == 303
    page = client.get(game_url).get_data(as_text=True)
    assert "Record hand 3" in page and "Ended early" not in page


def test_a_page_that_missed_a_hand_is_shown_the_new_winner_instead(client, clock):
    game_url = new_game(client)
    record(client, game_url, 1, 0, {1: 50, 2: 20}, made_0="on", made_2="on")
    assert "declares <strong>" in client.get(f"{game_url}/end").get_data(as_text=True)
    record(client, game_url, 2, 2, {0: 60, 1: 5}, made_1="on", made_2="on")
    response = client.post(f"{game_url}/end", data={"csrf_token": csrf(client), "version": "2"})
    assert response.status_code == 409
    page = plain_names(response.get_data(as_text=True))
    assert 'role="alert"' in page and "changed on another phone" in page
    assert "Ending now declares <strong>Cy</strong> the winner." in page
    assert client.get(game_url).get_data(as_text=True).count("Record hand 3") == 1


def test_a_game_without_hands_offers_no_end_and_refuses_one(client, clock):
    game_url = new_game(client)
    assert "End the game now" not in client.get(game_url).get_data(as_text=True)
    response = client.post(f"{game_url}/end", data={"csrf_token": csrf(client), "version": "1"})
    assert response.status_code == 422
    assert "only after its first hand" in response.get_data(as_text=True)


def so_far(page: str) -> tuple[str, str]:
    """The playing time a page shows: the minutes the page counts on from, and its words."""
    minutes = read(page).one("[data-minutes]")
    shown = f"{minutes.text} so far"
    return minutes["data-minutes"], shown if shown in minutes.parent.text else minutes.text


def test_a_game_in_progress_shows_when_it_started_and_for_how_long(client, clock):
    game_url = new_game(client)
    clock.at = "2026-11-23T19:45:00+00:00"
    record(client, game_url, 1, 0, {1: 50, 2: 20}, made_0="on", made_2="on")
    page = client.get(game_url).get_data(as_text=True)
    assert '<time datetime="2026-11-23T19:00:00+00:00">Started' in page
    assert so_far(page) == ("45", "45 min so far")
    clock.at = "2026-11-23T19:52:00+00:00"  # no hand since: "so far" is to now
    page = client.get(game_url).get_data(as_text=True)
    assert so_far(page) == ("52", "52 min so far")
    assert "Log in BG Stats" not in page


def test_a_table_lists_a_game_ended_early_and_its_length(client, clock):
    table_url = new_table(client)
    game_url = table_game(client, table_url)
    two_hands(client, game_url)
    clock.at = "2026-11-23T21:00:00+00:00"
    client.post(f"{game_url}/end", data={"csrf_token": csrf(client), "version": "3"})
    finished = read(client.get(table_url).get_data(as_text=True)).section("Finished games")
    assert "ended early after hand 2" in finished.text and "2 h" in finished.text
    assert [a for a in finished.links() if a.startswith("/v/") and a.endswith("/bgstats")]


def _ended_at(client, clock, *ends: str) -> str:
    """The statistics page of a table whose games each started at 19:00 and, after two
    hands, ended early at one of ``ends`` (hh:mm:ss, 23 November 2026)."""
    table_url = new_table(client)
    for end in ends:
        clock.at = "2026-11-23T19:00:00+00:00"
        game_url = table_game(client, table_url)
        clock.at = f"2026-11-23T{end}+00:00"
        two_hands(client, game_url)
        client.post(f"{game_url}/end", data={"csrf_token": csrf(client), "version": "3"})
    return client.get(f"{table_url}/stats").get_data(as_text=True)


def test_statistics_give_the_average_length_and_the_games_ended_early(client, clock):
    page = _ended_at(client, clock, "19:30:00", "20:30:00")
    assert "A game takes 1 h on average" in page  # 30 and 90 minutes
    assert "2 games ended early" in page


def test_a_game_played_in_under_a_minute_counts_in_the_average_length(client, clock):
    page = _ended_at(client, clock, "19:00:20", "20:00:00")  # under a minute (0 min), an hour
    assert "A game takes 30 min on average" in page  # 0 and 60 minutes


def test_the_printed_sheet_says_the_game_was_ended_early(client, clock):
    game_url = new_game(client)
    two_hands(client, game_url)
    client.post(f"{game_url}/end", data={"csrf_token": csrf(client), "version": "3"})
    game_id = game_url.split("/g/")[1].split("/")[0]
    data = client.get(f"/v/{game_id}/print/score-sheet.pdf").data
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    assert "won: the game was ended early after hand 2." in plain_names(" ".join(text.split()))
