"""The storage budget: one table (or one game) cannot fill the file, and an import's games
each count against what one address may create."""

from __future__ import annotations

import io
import random
import sqlite3
from contextlib import closing

import pytest
from games import club_backup, club_game, club_names, finished_game, table_backup
from webutil import csrf, new_game, record, table_game

from scorekeeper import actions, create_app, store
from scorekeeper.backup import sizes, table_archive
from scorekeeper.backup.table_archive import ArchivedGame
from scorekeeper.reports import table_figures
from scorekeeper.rules.game import HandRecord
from scorekeeper.rules.gamefile import load_game
from scorekeeper.store import schema, tables

COUNTED = ("games", "changes", "tables", "table_games", "table_players", "game_sizes")


def _app(tmp_path, **config):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "games.sqlite3"),
            "SECRET_KEY": "test",
            "SERVER_NAME": "table.test",
            **config,
        }
    )
    yield app
    store.connection.close_all()


@pytest.fixture
def budgeted(tmp_path):
    """Tables of at most 128 KB: about twenty of the test games."""
    yield from _app(tmp_path, MAX_TABLE_BYTES=128 * 1024, MAX_GAME_BYTES=32 * 1024)


def _rows(app) -> tuple[int, ...]:
    with closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        return tuple(conn.execute(f"SELECT count(*) FROM {name}").fetchone()[0] for name in COUNTED)


def _used(app) -> int:
    """The bytes of the games file's pages in use."""
    with closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        query = "SELECT * FROM pragma_page_count, pragma_freelist_count, pragma_page_size"
        pages, free, size = conn.execute(query).fetchone()
        return (pages - free) * size


def _pages(app) -> int:
    with closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        return conn.execute("PRAGMA page_count").fetchone()[0]


def _import(client, backup: bytes):
    upload = (io.BytesIO(backup), "phase10-table.zip")
    return client.post("/tables/import", data={"csrf_token": csrf(client), "file": upload})


def test_an_import_that_would_fill_more_than_a_tables_budget_is_refused_before_writing(budgeted):
    client = budgeted.test_client()
    before, pages = _rows(budgeted), _pages(budgeted)
    refused = _import(client, table_backup(60))
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "the most one table may take here" in page and "Nothing was saved" in page
    assert _rows(budgeted) == before
    assert _pages(budgeted) == pages  # not a page written, not even rolled back
    assert _import(client, table_backup(5)).status_code == 303  # a table that fits comes in


def test_a_hand_that_takes_a_full_table_past_its_budget_is_refused_and_nothing_changes(
    budgeted,
):
    client = budgeted.test_client()
    assert _import(client, table_backup(12)).status_code == 303
    db = store.connection.connect(budgeted.config["DATABASE"])
    table_id = db.execute("SELECT id FROM tables").fetchone()[0]
    url = table_game(client, f"/t/{table_id}")
    budgeted.config["MAX_TABLE_BYTES"] = store.budget.table_size(db, table_id)  # full
    for number in range(1, 20):  # until a hand needs a page more: the pages fill as they go
        before = _rows(budgeted)
        out = (number - 1) % 3
        refused = record(client, url, number, out, {seat: 50 for seat in range(3) if seat != out})
        if refused.status_code != 303:
            break
    assert refused.status_code == 422
    assert "the most one table may take here" in refused.get_data(as_text=True)
    assert _rows(budgeted) == before
    new = client.post("/api/games", json={"players": ["Di", "Ed"]})  # a game in no table
    assert new.status_code == 201


def test_a_game_outside_tables_has_a_budget_of_its_own(budgeted):
    db = store.connection.connect(budgeted.config["DATABASE"])
    store.budget.set_budget(db, store.budget.Budget(game=24 * 1024, table=64 * 1024))
    players = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
    game_id = actions.games.start_game(db, {"players": players}).current.stored.id
    refused = None
    for number in range(1, 60):  # each goes out in turn: nobody has made every phase yet
        out = players[(number - 1) % 6]
        points = {name: 55 for name in players if name != out}
        result = actions.hands.record(db, game_id, number, HandRecord(out, (out,), points))
        if isinstance(result, actions.results.Refused):
            refused = result
            break
    assert isinstance(refused, actions.results.NoRoom)
    assert "the most one game may take here" in refused.message
    assert 0 < store.budget.game_size(db, game_id) <= 24 * 1024


def test_a_game_s_kept_size_is_what_its_writes_added_to_the_file(budgeted):
    """game_sizes follows every kind of change: a game is charged the pages it took."""
    client = budgeted.test_client()
    before = _used(budgeted)
    url = new_game(client)
    for number in range(1, 5):
        record(client, url, number, 0, {1: 50, 2: 50})
    fix = {"went_out": "1", "points-0": "50", "points-2": "55", "version": "5"}
    assert (
        client.post(f"{url}/hands/2", data={"csrf_token": csrf(client), **fix}).status_code == 303
    )
    undo = client.post(f"{url}/undo", data={"csrf_token": csrf(client), "version": "6"})
    assert undo.status_code == 303
    db = store.connection.connect(budgeted.config["DATABASE"])
    game_id = url.split("/")[-2]
    assert abs(store.budget.game_size(db, game_id) - (_used(budgeted) - before)) <= 4096  # a page


MEGABYTE = 1024 * 1024
SHAPES = {  # a game of each shape, by seed
    "three players": finished_game,
    "a club's four to six": lambda seed: club_game(
        random.Random(seed), club_names(12)[seed % 6 : seed % 6 + 4 + seed % 3]
    ),
    "one hand played": lambda seed: {
        **finished_game(seed),
        "hands": finished_game(seed)["hands"][:1],
    },
}


@pytest.mark.exhaustive
@pytest.mark.parametrize("shape", SHAPES)
def test_a_table_is_charged_what_its_games_add_to_the_file(tmp_path, shape):
    """Issue 38: a table was charged the texts of its games, a third to two thirds of what
    they take in the file, so a 64 MB budget let one take 100-200 MB. A table's backup and
    then game after game, until its budget refuses one: the file has grown by the budget,
    and ``scorekeeper biggest`` lists the table at what it grew by (each within a tenth)."""
    app = next(_app(tmp_path, MAX_TABLE_BYTES=MEGABYTE))
    client, game = app.test_client(), SHAPES[shape]
    before = _used(app)
    games = [
        ArchivedGame(load_game(game(seed)), "2020-01-01T19:00:00+00:00", "") for seed in range(20)
    ]
    response = _import(
        client, table_archive.build(table_archive.TableArchive("Club", [], {}, games))
    )
    assert response.status_code == 303
    table_id = response.headers["Location"].rsplit("/", 1)[1]
    db = store.connection.connect(app.config["DATABASE"])
    seed = 20
    while not isinstance(
        actions.games.start_game(db, game(seed), table_id=table_id), actions.results.NoRoom
    ):
        seed += 1
    grown = _used(app) - before
    listed = sizes.biggest(db)[0]
    assert listed.table_id == table_id and listed.games == seed
    assert 0.9 * MEGABYTE <= grown <= 1.1 * MEGABYTE, (grown, seed)
    assert abs(listed.size - grown) <= grown / 10, (listed.size, grown)
    store.connection.close_all()


@pytest.mark.exhaustive
@pytest.mark.parametrize("shape", SHAPES)
def test_a_backup_is_estimated_before_its_import_at_what_it_then_takes(tmp_path, shape):
    """A backup is measured whole before its first write (``NewGame.size``, estimated from
    its texts the way SQLite lays them out): within a tenth of what its import then takes."""
    db = store.connection.connect(tmp_path / "games.sqlite3")
    store.budget.set_budget(db, store.budget.Budget(table=64 * MEGABYTE))
    played = [load_game(SHAPES[shape](seed)) for seed in range(200)]
    archive = table_archive.TableArchive("Club", [], {}, [ArchivedGame(g, "", "") for g in played])
    judged = actions.table_import.judge(archive)
    assert isinstance(judged, list)
    estimated = sum(coming.size for coming in judged)
    table = actions.table_import.import_table(db, archive)
    assert isinstance(table, tables.Table)
    assert abs(store.budget.table_size(db, table.id) - estimated) <= estimated / 10
    store.connection.close_all()


@pytest.mark.exhaustive
def test_an_older_file_s_games_are_charged_what_they_take_once_it_is_upgraded(
    tmp_path, monkeypatch
):
    """A file from before issue 38 counted each game's texts: its upgrade estimates what
    each game's rows take in the file, within a tenth of what its writes measured."""
    path = tmp_path / "games.sqlite3"
    db = store.connection.connect(path)
    store.budget.set_budget(db, store.budget.Budget(table=64 * MEGABYTE))
    # imported as the previous main did: no figures kept beside the games
    monkeypatch.setattr(table_figures, "keep_imported", lambda db, written: None)
    table = actions.table_import.import_table(db, table_archive.read(club_backup(200, 30)))
    measured = store.budget.table_size(db, table.id)
    with store.connection.transaction(db):  # as the previous main kept it, before the new step
        row = f"(SELECT {schema.ROW_BYTES} FROM games g WHERE g.id = game_sizes.game_id)"
        log = (
            f"(SELECT sum({schema.LOG_BYTES}) FROM changes c WHERE c.game_id = game_sizes.game_id)"
        )
        db.execute(f"UPDATE game_sizes SET row_bytes = {row}, log_bytes = {log}")
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'sizes-in-the-file'")
    assert (
        store.budget.table_size(db, table.id) < measured * 0.8
    )  # a text counts less than its room
    store.connection.close_all()
    upgraded = store.budget.table_size(store.connection.connect(path), table.id)
    assert abs(upgraded - measured) <= measured / 10, (upgraded, measured)
    store.connection.close_all()


@pytest.fixture
def limited(tmp_path):
    yield from _app(tmp_path, RATE_LIMIT_IMPORTED_GAMES="5 per day")


def test_an_import_counts_every_game_it_brings_against_the_address_s_allowance(limited):
    client = limited.test_client()
    assert _import(client, table_backup(3)).status_code == 303
    before = _rows(limited)
    refused = _import(client, table_backup(3))  # 6 games today: one more than allowed
    assert refused.status_code == 429
    assert refused.headers["Retry-After"]
    page = refused.get_data(as_text=True)
    assert "This backup has 3 games, more than this address may import for now" in page
    assert _rows(limited) == before
    assert _import(client, table_backup(2)).status_code == 303  # 5 in all: still allowed


def test_a_refused_import_counts_its_games_before_any_is_replayed(limited, monkeypatch):
    """A backup whose last game the engine refuses replayed every game before it, again and
    again, and counted none of them (issue 38): now its games count before any replay."""
    replayed = []
    real = table_archive.replay_from
    monkeypatch.setattr(table_archive, "replay_from", lambda game: replayed.append(1) or real(game))
    client = limited.test_client()
    bad = club_backup(3, 6, bad_last=True)
    refused = _import(client, bad)
    assert refused.status_code == 422 and "Game 3 in this backup" in refused.get_data(True)
    assert len(replayed) == 3
    again = _import(client, bad)  # 6 games counted today: past the 5 allowed
    assert again.status_code == 429
    assert len(replayed) == 3  # refused before a game was replayed
    assert _import(client, table_backup(2)).status_code == 303  # 3 + 2: the day's 5
    assert _import(client, table_backup(1)).status_code == 429


def test_a_backup_with_more_games_than_a_day_allows_is_refused_whole(limited):
    client = limited.test_client()
    before = _rows(limited)
    assert _import(client, table_backup(6)).status_code == 429
    assert _rows(limited) == before


def test_an_import_that_fails_halfway_leaves_nothing_behind(budgeted, monkeypatch):
    """The games go in by small transactions; when one fails, those written go again."""
    db = store.connection.connect(budgeted.config["DATABASE"])
    archive = table_archive.read(table_backup(20))
    monkeypatch.setattr(actions.table_import, "IMPORT_BATCH_BYTES", 1)  # a transaction per game
    real, written = store.games.insert_game, []

    def full_after_five(db, new):
        if len(written) == 5:
            error = sqlite3.OperationalError("database or disk is full")
            error.sqlite_errorcode = sqlite3.SQLITE_FULL
            raise error
        written.append(new.id)
        return real(db, new)

    monkeypatch.setattr(store.games, "insert_game", full_after_five)
    before = _rows(budgeted)
    with pytest.raises(sqlite3.OperationalError):
        actions.table_import.import_table(db, archive)
    assert len(written) == 5
    assert _rows(budgeted) == before


def test_a_table_of_many_games_is_read_back_with_its_games_in_order(budgeted):
    budgeted.config["MAX_TABLE_BYTES"] = 2 * 1024**2
    client = budgeted.test_client()
    response = _import(client, table_backup(40))
    assert response.status_code == 303
    table_id = response.headers["Location"].rsplit("/", 1)[1]
    export = client.get(f"/t/{table_id}/export.zip")
    archive = table_archive.read(export.data)
    played = [game.game.hands[0].went_out for game in archive.games]
    assert played == [finished_game(seed)["hands"][0]["went_out"] for seed in range(40)]


def test_a_wrong_budget_setting_stops_the_start_with_a_message(tmp_path):
    from scorekeeper.web.security import SettingError

    with pytest.raises(SettingError, match="MAX_TABLE_BYTES"):
        create_app({"DATABASE": str(tmp_path / "g.sqlite3"), "MAX_TABLE_BYTES": "lots"})
    store.connection.close_all()
