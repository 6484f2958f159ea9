"""A games file written by the previous main opens in this version with nothing lost."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from webpage import read

from scorekeeper import codes, create_app, store
from scorekeeper.reports import current_game
from scorekeeper.store import sent_points, tables

OLD_FILE = Path(__file__).parent / "fixtures" / "games-2026-11-24.sql"
TABLE, GAME, LONE = "Ktqqvx1_CDXNOlZ2ujCRug", "qOdCI3egPURx0_lKelGDlw", "NHMp7fDf8k6MfRUhiB-Q8Q"


@pytest.fixture
def old_file(tmp_path):
    path = tmp_path / "games.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.executescript(OLD_FILE.read_text(encoding="utf-8"))
    yield path
    store.connection.close_all()


def test_the_previous_mains_file_keeps_its_games_table_and_sent_points(old_file):
    db = store.connection.connect(old_file)  # migrates
    game = current_game.load(db, GAME)
    assert game is not None and game.standings.hand_number == 3
    assert [p.score for p in game.standings.players] == [55, 25, 130]
    assert len(store.history.changes(db, GAME)) == 3  # created, two hands: the history is whole
    assert tables.game_ids(db, TABLE) == [GAME]
    ids = tables.player_ids(db, TABLE)
    assert sorted(ids) == ["Ann", "Bob", "Cy"] and len(set(ids.values())) == 3
    sent = sent_points.entries(db, GAME, 3)
    assert {seat: entry.points for seat, entry in sent.items()} == {0: 0, 2: 15}
    for game_id in (GAME, LONE):
        code = store.games.get_game(db, game_id).code
        assert len(code) == codes.LENGTH and store.games.game_by_code(db, code) == game_id
    assert not db["names"].exists()  # the first schema's unused table is gone


def test_its_scorekeeper_page_opens_with_the_points_players_sent(old_file):
    app = create_app({"TESTING": True, "DATABASE": str(old_file), "POLL_HOLD": 0})
    key = store.games.get_game(store.connection.connect(old_file), GAME).edit_key
    page = app.test_client().get(f"/g/{GAME}/{key}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    form = read(html)
    assert "15" in form.values("points-2")  # Cy sent 15
    assert "0" in form.checked("went_out")  # Ann went out


def test_its_table_screen_keeps_its_address_and_the_history_its_name(old_file):
    """The screen got an address of its own (renewed with the table's link); a file from
    before gives it the one it had, which is also the name its games' histories use."""
    db = store.connection.connect(old_file)
    table = tables.get_table(db, TABLE)
    assert table is not None and table.screen == table.view_id
    assert tables.table_by_screen(db, table.screen) == table
    app = create_app({"TESTING": True, "DATABASE": str(old_file), "POLL_HOLD": 0})
    assert app.test_client().get(f"/tv/{table.screen}").status_code == 200
