"""Deleting a game or a table by its link, bringing it back within the week, and the purge
that removes it for good afterwards and gives its room back."""

from __future__ import annotations

import html
import json
import sqlite3
from contextlib import closing

from games import table_backup
from webpage import read
from webutil import csrf, new_game, new_table, record, table_game

from scorekeeper import actions, cli, create_app, store
from scorekeeper.backup import purge

EVERY_ROW_OF = {  # table -> its column naming a game or a table
    "games": "id",
    "changes": "game_id",
    "game_sizes": "game_id",
    "game_figures": "game_id",
    "deleted_games": "game_id",
    "table_games": "game_id",
    "hand_entries": "game_id",
}


def _text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def _post(client, url: str, **fields):
    return client.post(url, data={"csrf_token": csrf(client), **fields})


def _ids(url: str) -> tuple[str, str]:
    game_id, key = url.split("/g/", 1)[1].split("/")[:2]
    return game_id, key


def _rows_of(app, game_id: str) -> int:
    with closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        return sum(
            conn.execute(f"SELECT count(*) FROM {name} WHERE {column} = ?", [game_id]).fetchone()[0]
            for name, column in EVERY_ROW_OF.items()
        )


def test_a_scorekeeper_deletes_a_game_after_confirming_and_brings_it_back(client):
    url = new_game(client)
    record(client, url, 1, 0, {1: 50, 2: 50})
    game_id, _key = _ids(url)
    confirm = client.get(f"{url}/delete")
    assert confirm.status_code == 200
    page = _text(confirm)
    assert "Delete this game?" in page and "bring it back for 7 days" in page
    assert _rows_before_confirm(client, url)  # a GET deletes nothing
    deleted = _post(client, f"{url}/delete")
    assert deleted.status_code == 303
    gone = client.get(url)
    assert gone.status_code == 410
    text = _text(gone)
    assert "This game was deleted. It can be brought back until" in text
    assert f'action="/g/{game_id}/' in text and "Bring it back" in text
    watch = client.get(f"/v/{game_id}")
    assert watch.status_code == 410
    assert "Bring it back" not in _text(watch)  # the watch link cannot
    assert client.get(f"/api/games/{game_id}").status_code == 410
    assert game_id not in _text(client.get("/"))  # gone from the start page
    back = _post(client, f"{url}/bring-back")
    assert back.status_code == 303
    again = client.get(url)
    assert again.status_code == 200 and "The game is back" in _text(again)
    assert "hand 2" in _text(again).lower()  # with its hands


def _rows_before_confirm(client, url) -> bool:
    return client.get(url).status_code == 200


def test_a_game_at_a_table_is_let_go_only_from_the_table_s_page(client):
    table = new_table(client)
    url = table_game(client, table)
    game_id, _key = _ids(url)
    refused = _post(client, f"{url}/delete")
    assert refused.status_code == 422
    assert "belongs to a table" in _text(refused)
    assert client.get(url).status_code == 200  # still there
    assert f"/t/{table.rsplit('/', 1)[1]}/games/{game_id}/delete" in _text(client.get(table))
    assert _post(client, f"{table}/games/{game_id}/delete").status_code == 303
    page = _text(client.get(table))
    listed, deleted = page.split('id="deleted-games"', 1)
    assert f"/g/{game_id}/" not in listed  # not among the table's games
    assert "removed for good on" in deleted
    keeper = client.get(url)
    assert keeper.status_code == 410
    assert "Its table's page can bring it back" in _text(keeper)
    assert _post(client, f"{url}/bring-back").status_code == 422  # not by the game's link
    assert _post(client, f"{table}/games/{game_id}/bring-back").status_code == 303
    assert client.get(url).status_code == 200


def test_a_game_of_another_table_cannot_be_deleted_through_this_one(client):
    ours = new_table(client)
    theirs = new_table(client, "The Joneses")
    game_id, _key = _ids(table_game(client, theirs))
    assert _post(client, f"{ours}/games/{game_id}/delete").status_code == 404
    assert client.get(f"/v/{game_id}").status_code == 200


def test_a_deleted_table_takes_its_games_and_comes_back_with_them(client):
    table = new_table(client)
    kept = table_game(client, table)
    alone = table_game(client, table, players=("Di", "Ed"))
    alone_id, _key = _ids(alone)
    _post(client, f"{table}/games/{alone_id}/delete")  # deleted on its own first
    confirm = client.get(f"{table}/delete")
    assert confirm.status_code == 200 and "Delete this table?" in _text(confirm)
    assert _post(client, f"{table}/delete").status_code == 303
    gone = client.get(table)
    assert gone.status_code == 410
    assert "This table was deleted, with its games" in _text(gone) and "Bring it back" in _text(
        gone
    )
    assert client.get(kept).status_code == 410
    assert "deleted with its table" in _text(client.get(kept))
    assert client.get(f"{table}/stats").status_code == 410
    assert "The Smiths" not in _text(client.get("/"))
    back = _post(client, f"{table}/bring-back")
    assert back.status_code == 303
    assert client.get(table).status_code == 200 and client.get(kept).status_code == 200
    assert client.get(alone).status_code == 410  # deleted before the table: still deleted


def test_the_deleted_page_names_what_was_deleted_in_its_gender(client):
    """French read "Supprimé" over a deleted game, a feminine "partie" (issue 41, finding 9):
    the heading names the game or the table, so each language can agree."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "fr"
    table = new_table(client)
    game = new_game(client)
    assert _post(client, f"{game}/delete").status_code == 303
    assert _post(client, f"{table}/delete").status_code == 303
    assert "<h1>Partie supprimée</h1>" in _text(client.get(game))
    assert "<h1>Table supprimée</h1>" in _text(client.get(table))


def test_deleting_needs_the_page_s_token(client):
    url = new_game(client)
    assert client.post(f"{url}/delete").status_code == 400
    assert client.get(url).status_code == 200


def test_what_was_deleted_is_purged_after_its_week_and_its_room_given_back(app, client, clock):
    db = store.connection.connect(app.config["DATABASE"])
    table = new_table(client)
    for _ in range(3):
        url = table_game(client, table)
        for number in range(1, 8):
            record(client, url, number, 0, {1: 50, 2: 50})
    table_id = table.rsplit("/", 1)[1]
    game_id, _key = _ids(url)
    lone_id, _key = _ids(new_game(client))
    _post(client, f"/g/{lone_id}/{_key}/delete")
    _post(client, f"{table}/delete")
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    clock.at = "2026-11-30T18:59:59+00:00"  # a second short of a week
    assert actions.trash.purge_deleted(db) == purge.Purged(0, 0, 0)
    assert _rows_of(app, game_id) > 0
    assert _post(client, f"{table}/bring-back").status_code == 303  # still in time
    _post(client, f"{table}/delete")
    clock.at = "2026-12-07T19:00:00+00:00"  # a week after the second deletion
    done = actions.trash.purge_deleted(db)
    assert (done.games, done.tables) == (4, 1)
    assert done.pages > 0 and db.execute("PRAGMA page_count").fetchone()[0] < pages
    for removed in (game_id, lone_id):
        assert _rows_of(app, removed) == 0
    for name in ("tables", "table_players", "table_aliases"):
        column = "id" if name == "tables" else "table_id"
        left = db.execute(f"SELECT count(*) FROM {name} WHERE {column} = ?", [table_id])
        assert left.fetchone()[0] == 0
    assert client.get(table).status_code == 404
    assert client.get(url).status_code == 404


def test_the_app_purges_when_it_starts(app, client, clock):
    url = new_game(client)
    game_id, _key = _ids(url)
    _post(client, f"{url}/delete")
    clock.at = "2026-12-01T19:00:00+00:00"
    store.connection.close_all()
    create_app(dict(app.config))
    assert _rows_of(app, game_id) == 0


def test_a_purge_keeps_what_was_brought_back(app, client, clock):
    url = new_game(client)
    _post(client, f"{url}/delete")
    _post(client, f"{url}/bring-back")
    clock.at = "2027-01-01T19:00:00+00:00"
    db = store.connection.connect(app.config["DATABASE"])
    assert actions.trash.purge_deleted(db).games == 0
    assert client.get(url).status_code == 200


def test_the_operator_sees_the_biggest_tables_first(app, client, capsys):
    client.post("/tables/import", data={"csrf_token": csrf(client), "file": (_zip(2), "a.zip")})
    big = client.post(
        "/tables/import", data={"csrf_token": csrf(client), "file": (_zip(9, "Big"), "b.zip")}
    )
    big_id = big.headers["Location"].rsplit("/", 1)[1]
    new_game(client)
    path = app.config["DATABASE"]
    assert cli.main(["biggest", "--db", path, "--count", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert "9 games" in lines[0] and "table Big" in lines[0] and f"/t/{big_id}" in lines[0]
    assert "2 games" in lines[1] and "The Smiths" in lines[1]
    assert "1 game in no table" in lines[2]
    assert cli.main(["biggest", "--db", path, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [holder["games"] for holder in found] == [9, 2, 1]
    assert found[0]["size"] > found[1]["size"] > 0


def test_biggest_and_purge_say_so_when_there_is_no_games_file(tmp_path, capsys):
    missing = str(tmp_path / "none.sqlite3")
    assert cli.main(["biggest", "--db", missing]) == 2
    assert cli.main(["purge", "--db", missing]) == 2
    assert "there is no games file" in capsys.readouterr().err


def test_the_purge_command_removes_what_is_due(app, client, clock, capsys):
    url = new_game(client)
    game_id, _key = _ids(url)
    _post(client, f"{url}/delete")
    clock.at = "2026-12-01T19:00:00+00:00"
    assert cli.main(["purge", "--db", app.config["DATABASE"], "--vacuum"]) == 0
    assert "Removed for good 1 games and 0 tables" in capsys.readouterr().out
    assert _rows_of(app, game_id) == 0


def _zip(count: int, name: str = "The Smiths"):
    import io

    return io.BytesIO(table_backup(count, name))


def test_a_new_games_file_gives_purged_room_back_to_the_disk(app):
    db = store.connection.connect(app.config["DATABASE"])
    assert db.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # incremental


def test_the_deleted_page_names_the_day_it_is_removed_for_good(client, clock):
    url = new_game(client)
    _post(client, f"{url}/delete")
    page = _text(client.get(url))
    assert read(page).select('time[datetime="2026-11-30"]')
