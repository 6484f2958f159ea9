"""A leaked link can be replaced: the scorekeeper's, the players', a table's (issue 24)."""

from __future__ import annotations

import sqlite3

from webpage import read
from webutil import csrf, new_game, new_table, plain_names, player_links, record, table_game

from scorekeeper import store
from scorekeeper.store import tables


def log_of(app, game_id: str) -> list[tuple]:
    """The game's change log and version: a new link must leave both as they were."""
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        changes = conn.execute(
            "SELECT version, action, detail FROM changes WHERE game_id = ? ORDER BY version",
            [game_id],
        ).fetchall()
        version = conn.execute("SELECT version FROM games WHERE id = ?", [game_id]).fetchone()
    return [*changes, version]


def notices(page: str) -> list[str]:
    return read(page).texts("p.notice[role=status]")


def renew(client, url: str):
    return client.post(url, data={"csrf_token": csrf(client)})


# --- the scorekeeper's link ------------------------------------------------------------


def test_a_new_scorekeeper_link_stops_the_old_one_everywhere(app, client):
    old = new_game(client)
    assert record(client, old, 1, 0, {1: 50, 2: 50}).status_code == 303
    game_id, old_key = old.split("/")[2:4]
    log = log_of(app, game_id)
    share = client.get(f"{old}/share").get_data(as_text=True)
    assert f'action="{old}/renew"' in share

    response = renew(client, f"{old}/renew")
    assert response.status_code == 303
    new = response.headers["Location"].removesuffix("/share")
    new_key = new.split("/")[3]
    assert new.startswith(f"/g/{game_id}/") and new_key != old_key and len(new_key) >= 22
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert f"http://table.test{new}" in page and old_key not in page
    assert "This game has a new scorekeeper link" in notices(page)[0]

    for path in ("", "/share", "/history", "/export.json", "/hands/1"):
        assert client.get(old + path).status_code == 404, path
    assert record(client, old, 2, 0, {1: 50, 2: 50}).status_code == 404
    api = client.post(f"/api/games/{game_id}/{old_key}/hands", json={"hand_number": 2})
    assert api.status_code == 404
    assert client.get(new).status_code == 200
    assert record(client, new, 2, 0, {1: 50, 2: 50}).status_code == 303
    changes = log[:-1]
    assert log_of(app, game_id)[: len(changes)] == changes  # as it was, then the new hand
    assert client.get(f"/v/{game_id}").status_code == 200  # the watch link is unchanged


def test_a_new_scorekeeper_link_writes_nothing_in_the_games_log(app, client):
    url = new_game(client)
    game_id = url.split("/")[2]
    before = log_of(app, game_id)
    assert renew(client, f"{url}/renew").status_code == 303
    assert log_of(app, game_id) == before


def test_this_device_remembers_the_new_link_and_others_keep_the_game_to_watch(app, client):
    old = new_game(client)
    other = app.test_client()
    assert other.get(old).status_code == 200  # a second scorekeeper's phone
    new = renew(client, f"{old}/renew").headers["Location"].removesuffix("/share")
    home = client.get("/").get_data(as_text=True)
    assert f'href="{new}"' in home and f'href="{old}"' not in home
    assert "Continue: Ann, Bob, Cy" in plain_names(home)
    elsewhere = other.get("/").get_data(as_text=True)
    assert "Continue:" not in elsewhere and f'href="{old}"' not in elsewhere
    assert "<h2>Watching</h2>" in elsewhere


def test_a_key_renewed_meanwhile_is_not_renewed_again(app, client):
    url = new_game(client)
    game_id, key = url.split("/")[2:4]
    db = store.connection.connect(app.config["DATABASE"])
    first = store.games.renew_edit_key(db, game_id, key)
    assert first is not None
    assert store.games.renew_edit_key(db, game_id, key) is None  # the second phone's request
    assert store.games.get_game(db, game_id).edit_key == first


def test_only_the_scorekeeper_link_can_make_a_new_one(app, client):
    url = new_game(client)
    game_id, key = url.split("/")[2:4]
    for wrong in (game_id, "A" * 22, key.swapcase()):
        assert renew(client, f"/g/{game_id}/{wrong}/renew").status_code == 404
    assert client.post(f"{url}/renew").status_code == 400  # no CSRF token
    assert (
        store.games.get_game(store.connection.connect(app.config["DATABASE"]), game_id).edit_key
        == key
    )


# --- the players' links ----------------------------------------------------------------


def test_new_player_links_stop_every_old_one_and_keep_what_was_sent(app, client):
    url = new_game(client)
    game_id = url.split("/")[2]
    old_pick, old_links = player_links(client, url)
    ann = "/" + old_links["Ann"].split("/", 3)[3]
    sent = {"csrf_token": csrf(client), "points": "25", "hand_number": "1"}
    assert client.post(ann, data=sent).status_code == 303
    before = log_of(app, game_id)

    response = renew(client, f"{url}/players/renew")
    assert response.status_code == 303 and response.headers["Location"] == f"{url}/players"
    page = client.get(f"{url}/players").get_data(as_text=True)
    assert any("The players have new links" in note for note in notices(page))
    new_pick, new_links = player_links(client, url)
    assert new_pick != old_pick and set(new_links.values()).isdisjoint(old_links.values())
    for link in (old_pick, *old_links.values()):
        assert client.get("/" + link.split("/", 3)[3]).status_code == 404
    assert client.post(ann, data=sent).status_code == 404
    for link in (new_pick, *new_links.values()):
        assert client.get("/" + link.split("/", 3)[3]).status_code == 200
    assert 'value="25"' in client.get(url).get_data(as_text=True)  # Ann's points are still there
    assert log_of(app, game_id) == before


# --- a table's link ----------------------------------------------------------------------


def test_a_new_table_link_stops_the_old_one_and_keeps_everything_else(app, client):
    old = new_table(client)
    game = table_game(client, old, players=("Ann", "Bobby", "Cy"))
    merged = {"csrf_token": csrf(client), "action": "merge", "name": "Bobby", "into": "Cy"}
    assert client.post(f"{old}/roster", data=merged).status_code == 303
    db = store.connection.connect(app.config["DATABASE"])
    old_id = old.rsplit("/", 1)[1]
    screen = tables.get_table(db, old_id).screen
    assert f'action="{old}/renew"' in client.get(old).get_data(as_text=True)

    response = renew(client, f"{old}/renew")
    assert response.status_code == 303
    new = response.headers["Location"]
    new_id = new.rsplit("/", 1)[1]
    assert new_id != old_id and len(new_id) >= 22
    page = client.get(new).get_data(as_text=True)
    assert "This table has a new link" in notices(page)[0]
    assert f"http://table.test{new}" in page and old_id not in page

    for path in ("", "/stats", "/export.zip"):
        assert client.get(old + path).status_code == 404, path
    assert tables.get_table(db, old_id) is None
    assert [p.name for p in tables.roster(db, new_id)] == ["Ann", "Cy"]
    assert tables.aliases(db, new_id) == {"Bobby": "Cy"}
    assert tables.game_ids(db, new_id) == [game.split("/")[2]]
    new_screen = tables.get_table(db, new_id).screen
    assert new_screen != screen and client.get(f"/tv/{screen}").status_code == 404
    assert client.get(f"/tv/{new_screen}").status_code == 200  # the screen follows the new one
    assert client.get(game).status_code == 200  # the games' own links are unchanged
    home = client.get("/").get_data(as_text=True)
    assert home.count(f'href="{new}"') == 1 and f'href="{old}"' not in home


def test_only_the_table_link_can_make_a_new_one(app, client):
    url = new_table(client)
    assert renew(client, "/t/" + "A" * 22 + "/renew").status_code == 404
    assert client.post(f"{url}/renew").status_code == 400  # no CSRF token
    db = store.connection.connect(app.config["DATABASE"])
    assert tables.get_table(db, url.rsplit("/", 1)[1]) is not None
