"""A finished game as a BG Stats play: the push link decodes back to the play, field by field."""

from __future__ import annotations

import json
import sqlite3
from urllib.parse import parse_qs, urlsplit

import pytest
from webpage import read
from webutil import csrf, new_game, new_table, record, table_game, watch_path

from scorekeeper import store
from scorekeeper.reports import bgstats
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.names import MAX_NAME, MAX_TABLE_NAME
from scorekeeper.rules.replay import replay
from scorekeeper.store import tables

PLAYERS = ["Ann", "Bob", "Cy"]
FINISHED = {  # first to two phases: Cy makes both first
    "rules": "official",
    "options": {"first": "2"},
    "players": PLAYERS,
    "dealer": "Bob",
    "hands": [
        {"went_out": "Ann", "made": ["Ann", "Cy"], "points": {"Bob": 50, "Cy": 20}},
        {"went_out": "Cy", "made": ["Cy"], "points": {"Ann": 55, "Bob": 60}},
    ],
}
FACTS = bgstats.PlayFacts(
    game_id="GAME-ID",
    started="2026-11-23T19:05:00+00:00",
    ended="2026-11-23T20:17:30+00:00",
    table="The Smiths",
    player_ids={"Ann": "id-ann", "Bob": "id-bob", "Cy": "id-cy"},
)


def decoded(link: str) -> dict:
    """The play a push link carries, read back as BG Stats reads it."""
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == bgstats.PUSH_URL
    (data,) = parse_qs(parts.query, strict_parsing=True)["data"]
    return json.loads(data)


def test_the_link_decodes_to_the_documented_play():
    game = load_game(FINISHED)
    play = bgstats.play(game, replay(game), FACTS)
    assert decoded(bgstats.push_link(play)) == {
        "sourceName": "Phase 10 Scorekeeper",
        "sourcePlayId": bgstats.play_id("GAME-ID"),
        "playDate": "2026-11-23 19:05:00",
        "durationMin": 72,
        "comments": (
            "Official rules. House rules: First to make 2 phases ends the game. "
            "Phases made: Ann 1, Bob 0 and Cy 2."
        ),
        "game": {
            "name": "Phase 10",
            "bggId": 1258,
            "highestWins": False,
            "noPoints": False,
            "sourceGameId": "phase10",
        },
        "players": [
            {
                "name": "Cy",
                "score": 20,
                "rank": 1,
                "winner": True,
                "startPlayer": True,  # Bob dealt first: Cy, on his left, played first
                "sourcePlayerId": "id-cy",
                "role": "",
            },
            {
                "name": "Ann",
                "score": 55,
                "rank": 2,
                "winner": False,
                "startPlayer": False,
                "sourcePlayerId": "id-ann",
                "role": "",
            },
            {
                "name": "Bob",
                "score": 110,
                "rank": 3,
                "winner": False,
                "startPlayer": False,
                "sourcePlayerId": "id-bob",
                "role": "",
            },
        ],
        "location": "The Smiths",
    }


def test_the_play_id_is_stable_and_does_not_give_away_the_game():
    assert bgstats.play_id("GAME-ID") == bgstats.play_id("GAME-ID") != bgstats.play_id("OTHER")
    assert "GAME-ID" not in bgstats.play_id("GAME-ID")


def test_outside_a_table_a_player_is_known_by_their_name():
    assert bgstats.player_id(" Ann ", {}) == bgstats.player_id("ANN", {}) == "name:ann"


def test_a_tie_makes_every_tied_player_a_winner_of_the_same_rank():
    game = load_game(
        {
            "rules": "ten-hands",
            "options": {"first": "2"},
            "players": PLAYERS,
            "hands": [
                {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50, "Cy": 55}},
                {"went_out": "Bob", "made": ["Bob"], "points": {"Ann": 50, "Cy": 55}},
            ],
        }
    )
    players = bgstats.play(game, replay(game), FACTS)["players"]
    assert [(p["name"], p["rank"], p["winner"]) for p in players] == [
        ("Ann", 1, True),
        ("Bob", 1, True),
        ("Cy", 3, False),
    ]


def test_a_game_ended_early_ranks_the_leader_first():
    game = load_game({**FINISHED, "ended_early": True, "hands": FINISHED["hands"][:1]})
    players = bgstats.play(game, replay(game), FACTS)["players"]
    assert [(p["name"], p["rank"], p["winner"]) for p in players] == [
        ("Ann", 1, True),
        ("Cy", 2, False),
        ("Bob", 3, False),
    ]


def test_a_game_ended_early_says_so_in_the_comments():
    game = load_game({**FINISHED, "ended_early": True, "hands": FINISHED["hands"][:1]})
    assert bgstats.comments(game, replay(game)).endswith("Ended early after hand 1.")


def test_a_game_in_progress_has_no_play():
    game = load_game({**FINISHED, "hands": FINISHED["hands"][:1]})
    with pytest.raises(bgstats.NotFinished):
        bgstats.play(game, replay(game), FACTS)


def test_a_game_without_a_table_has_no_location_and_an_unknown_length_is_left_out():
    game = load_game(FINISHED)
    facts = bgstats.PlayFacts("G", "2026-11-23T19:05:00+00:00", "2026-11-23T19:05:00+00:00")
    play = bgstats.play(game, replay(game), facts)
    assert "location" not in play and "durationMin" not in play
    assert play["players"][0]["sourcePlayerId"] == "name:cy"


# --- through the app: the scoreboard's link, the list's, the download and the API -----------


def finished_table_game(client, clock) -> tuple[str, str]:
    """(table URL, game URL): Ann, Bob and Cy at the Smiths' table, first to one phase."""
    clock.at = "2026-11-23T19:05:00+00:00"
    table_url = new_table(client)
    game_url = table_game(client, table_url, dealer=1, first="1")
    clock.at = "2026-11-23T19:47:00+00:00"
    response = record(client, game_url, 1, 2, {0: 55, 1: 60})
    assert response.status_code == 303
    return table_url, game_url


def link_on(page: str) -> str:
    """The first link on the page that logs a play in BG Stats."""
    return next(a for a in read(page).links() if a.startswith("https://app.bgstatsapp.com/"))


def test_every_screen_of_a_finished_game_offers_the_same_play(client, clock):
    table_url, game_url = finished_table_game(client, clock)
    play = decoded(link_on(client.get(game_url).get_data(as_text=True)))
    assert play["location"] == "The Smiths" and play["durationMin"] == 42
    assert play["playDate"] == "2026-11-23 19:05:00"
    assert [(p["name"], p["rank"], p["winner"], p["startPlayer"]) for p in play["players"]] == [
        ("Cy", 1, True, True),
        ("Ann", 2, False, False),
        ("Bob", 3, False, False),
    ]
    table_id = table_url.rsplit("/", 1)[1]
    with client.application.app_context():
        ids = tables.player_ids(
            store.connection.connect(client.application.config["DATABASE"]), table_id
        )
    assert {p["name"]: p["sourcePlayerId"] for p in play["players"]} == {
        name: ids[name] for name in PLAYERS
    }
    view = watch_path(game_url)
    assert decoded(link_on(client.get(view).get_data(as_text=True))) == play
    listed = client.get(f"{view}/bgstats")
    assert listed.status_code == 303 and decoded(listed.headers["Location"]) == play
    download = client.get(f"{view}/bgstats.json")
    assert "attachment" in download.headers["Content-Disposition"]
    assert json.loads(download.get_data(as_text=True)) == play
    game_id, key = game_url.rsplit("/", 2)[1:]
    answer = client.get(f"/api/games/{game_id}/{key}/bgstats")
    assert answer.status_code == 200
    assert answer.get_json() == {"play": play, "url": link_on(f'<a href="{listed.location}">')}


def test_a_renamed_roster_player_keeps_their_id(client, clock):
    table_url, game_url = finished_table_game(client, clock)
    before = decoded(link_on(client.get(game_url).get_data(as_text=True)))
    data = {"csrf_token": csrf(client), "action": "rename", "name": "Ann", "new": "Annie"}
    assert client.post(f"{table_url}/roster", data=data).status_code == 303
    after = decoded(link_on(client.get(game_url).get_data(as_text=True)))
    assert after["players"][1]["name"] == "Ann"  # the game keeps its own names
    assert after["players"][1]["sourcePlayerId"] == before["players"][1]["sourcePlayerId"]
    assert after["sourcePlayId"] == before["sourcePlayId"]


def test_a_game_in_progress_offers_no_link_anywhere(client, clock):
    game_url = new_game(client)
    record(client, game_url, 1, 0, {1: 50, 2: 55})
    assert "bgstatsapp" not in client.get(game_url).get_data(as_text=True)
    view = watch_path(game_url)
    assert "bgstatsapp" not in client.get(view).get_data(as_text=True)
    refused = client.get(f"{view}/bgstats")
    assert refused.status_code == 409 and "not over yet" in refused.get_data(as_text=True)
    game_id, key = game_url.rsplit("/", 2)[1:]
    answer = client.get(f"/api/games/{game_id}/{key}/bgstats")
    assert answer.status_code == 409 and "not over yet" in answer.get_json()["error"]


def test_the_api_needs_the_scorekeeper_key(client, clock):
    _, game_url = finished_table_game(client, clock)
    game_id = game_url.rsplit("/", 2)[1]
    assert client.get(f"/api/games/{game_id}/wrong-key/bgstats").status_code == 404


# --- the roster player's id --------------------------------------------------------------


def test_a_merge_keeps_the_id_of_the_player_merged_into_and_the_old_name_finds_it(tmp_path):
    db = store.connection.connect(tmp_path / "games.sqlite3")
    table = tables.create_table(db, "The Smiths")
    tables.file_game(db, table.id, "g1", ["Ann", "Annie", "Bob"])
    ids = tables.player_ids(db, table.id)
    assert len(set(ids.values())) == 3
    tables.merge(db, table.id, "Annie", "Ann")
    after = tables.player_ids(db, table.id)
    assert after["Ann"] == after["Annie"] == ids["Ann"] and after["Bob"] == ids["Bob"]
    store.connection.close_all()


def test_a_file_from_before_roster_ids_gets_one_for_every_player(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = store.connection.connect(path)
    table = tables.create_table(db, "The Smiths")
    tables.file_game(db, table.id, "g1", ["Ann", "Bob"])
    store.connection.close_all()
    raw = sqlite3.connect(path)  # as an older app left it: no player_id, no migration
    raw.execute("ALTER TABLE table_players DROP COLUMN player_id")
    raw.execute("DELETE FROM _sqlite_migrations WHERE name = 'roster-player-ids'")
    raw.commit()
    raw.close()
    ids = tables.player_ids(store.connection.connect(path), table.id)
    assert set(ids) == {"Ann", "Bob"} and all(ids.values()) and len(set(ids.values())) == 2
    store.connection.close_all()


def _longest_play(options: dict[str, str]) -> dict:
    """Six names of 40 letters of 4 bytes each, a 60-letter table and the given house rules:
    each letter is 12 characters in the link."""
    names = ["".join(chr(0x20000 + seat) for _ in range(MAX_NAME)) for seat in range(6)]
    hands = [
        {"went_out": names[0], "made": [names[0]], "points": {p: 50 for p in names[1:]}}
        for _ in range(10)
    ]
    game = load_game({"options": options, "players": names, "dealer": names[0], "hands": hands})
    facts = bgstats.PlayFacts("GAME-ID", FACTS.started, FACTS.ended, "\U0001f3b2" * MAX_TABLE_NAME)
    return bgstats.play(game, replay(game), facts)


@pytest.mark.parametrize("options", [{}, {"wild_points": "20", "going_out": "discard"}])
def test_the_longest_play_still_fits_a_link_web_servers_take(options):
    """The link reached 8,316 characters; many servers refuse a request line over 8 KB."""
    play = _longest_play(options)
    link = bgstats.push_link(play)
    assert len(link) <= bgstats.LINK_MOST < 8192 - len("GET  HTTP/1.1")
    read = decoded(link)
    assert [p["score"] for p in read["players"]] == [0, 500, 500, 500, 500, 500]
    assert read["comments"].startswith("Official rules")  # the rules, if not every player's


def test_a_family_game_keeps_its_whole_comment():
    game = load_game(FINISHED)
    assert "Phases made" in bgstats.play(game, replay(game), FACTS)["comments"]
