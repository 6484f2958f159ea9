"""A table's statistics in a process that has just started: each finished game's figures are
kept in the file by the game's version (store/game_figures.py), so a club's table is added
up without replaying its games (issue 38: a 2,000-game table's first view cost 2.2 s of
CPU in every new process, all of it replays).

A new process is this one with what it kept forgotten (``_new_process``). Replays are
counted (``statistics.figures``), never timed: bench/bench_big_table.py prints the cost.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from games import club_backup

from scorekeeper import actions, create_app, store
from scorekeeper.backup import purge, table_archive
from scorekeeper.reports import current_game, statistics, table_figures
from scorekeeper.store import budget, tables

GAMES, PLAYERS = 24, 10


@pytest.fixture
def club(tmp_path):
    """A client of the app, a connection and the id of a table of GAMES finished games, imported."""
    path = tmp_path / "games.sqlite3"
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "test"})
    db = store.connection.connect(path)
    table = actions.table_import.import_table(db, table_archive.read(club_backup(GAMES, PLAYERS)))
    assert isinstance(table, tables.Table)
    yield app.test_client(), db, table.id
    store.connection.close_all()


def _new_process() -> None:
    """Forget what this process kept of every table's statistics, as a restart does."""
    table_figures._games.clear()
    table_figures._kept.clear()


@pytest.fixture
def replays(monkeypatch) -> list[int]:
    """One entry per game whose figures are worked out from its hands."""
    calls: list[int] = []
    real = statistics.figures
    monkeypatch.setattr(statistics, "figures", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def _stats(client, table_id: str, language: str = "en") -> str:
    page = client.get(f"/t/{table_id}/stats", headers={"Accept-Language": language})
    assert page.status_code == 200
    return page.get_data(as_text=True)


def _kept_rows(db, table_id: str) -> dict[str, store.game_figures.KeptFigures]:
    return store.game_figures.of_table(db, table_id)


def test_a_new_process_adds_up_an_imported_table_without_replaying_a_game(club, replays):
    client, db, table_id = club
    assert len(_kept_rows(db, table_id)) == GAMES  # the import kept every game's figures
    _new_process()
    replays.clear()
    from_the_file = _stats(client, table_id)
    assert replays == []
    assert f"{GAMES} games" in from_the_file
    # the same page as the one worked out from every game's hands
    db.execute("DELETE FROM game_figures")
    db.conn.commit()
    _new_process()
    assert _stats(client, table_id) == from_the_file
    assert len(replays) == GAMES


def test_figures_worked_out_once_are_kept_for_the_next_process(club, replays):
    """A file from before this version has no figures: its first view works them out and
    keeps them, charged to each game's storage budget like its own rows."""
    client, db, table_id = club
    db.execute("DELETE FROM game_figures")
    db.conn.commit()
    sizes = {game_id: budget.game_size(db, game_id) for game_id in tables.game_ids(db, table_id)}
    used = budget.used_bytes(db)
    _new_process()
    first = _stats(client, table_id)
    assert len(replays) == GAMES
    kept = _kept_rows(db, table_id)
    assert set(kept) == set(sizes)
    assert all(row.format == statistics.FIGURES_FORMAT for row in kept.values())
    grown = sum(budget.game_size(db, game_id) - size for game_id, size in sizes.items())
    assert grown == budget.used_bytes(db) - used > 0  # every byte they take is charged
    _new_process()
    replays.clear()
    assert _stats(client, table_id) == first
    assert replays == []


def test_a_game_corrected_after_its_figures_were_kept_is_worked_out_again(club, replays):
    client, db, table_id = club
    game_id = tables.game_ids(db, table_id)[3]
    now = current_game.load(db, game_id)
    assert now is not None
    first = now.game.hands[0]
    loser = next(name for name, points in first.points.items() if points >= 50)
    corrected = replace(first, points={**first.points, loser: first.points[loser] + 5})
    done = actions.hands.correct(db, game_id, now.version, 1, corrected)
    assert isinstance(done, actions.results.Saved)
    _new_process()
    replays.clear()
    figures = table_figures.game_figures_of_table(db, table_id)
    assert len(replays) == 1  # that game alone
    final = dict(next(f for f in figures if f.date == now.stored.created).scores)
    assert final[loser] == now.standings.player(loser).score + 5
    assert _kept_rows(db, table_id)[game_id].version == now.version + 1


def test_damaged_or_older_figures_are_worked_out_again(club, replays):
    client, db, table_id = club
    before = _stats(client, table_id)
    damaged, older = tables.game_ids(db, table_id)[:2]
    db.execute("UPDATE game_figures SET figures = '{\"date\": ' WHERE game_id = ?", [damaged])
    db.execute("UPDATE game_figures SET format = 0 WHERE game_id = ?", [older])
    db.conn.commit()
    _new_process()
    replays.clear()
    assert _stats(client, table_id, "de") != before  # the page in German
    assert len(replays) == 2
    _new_process()
    assert _stats(client, table_id) == before  # the same figures as before, kept again
    assert _kept_rows(db, table_id)[older].format == statistics.FIGURES_FORMAT


def test_a_game_in_progress_or_gone_keeps_no_figures(club):
    client, db, table_id = club
    game_id = tables.game_ids(db, table_id)[0]
    now = current_game.load(db, game_id)
    assert now is not None
    done = actions.hands.delete(db, game_id, now.version, len(now.game.hands))  # not over now
    assert isinstance(done, actions.results.Saved)
    _new_process()
    _stats(client, table_id)
    assert _kept_rows(db, table_id)[game_id].version == now.version  # the finished version's
    kept = table_figures.game_figures_of_table(db, table_id)
    assert len(kept) == GAMES - 1  # never counted while it is played
    purge.remove_table(db, table_id)
    assert db.execute("SELECT count(*) FROM game_figures").fetchone()[0] == 0


def test_a_file_that_cannot_take_the_figures_still_shows_the_statistics(club, replays, caplog):
    """Kept figures are only a shortcut: a file that is read-only (or full) shows the same
    page, worked out from the games, and keeps them once it can."""
    client, db, table_id = club
    before = _stats(client, table_id)
    db.execute("DELETE FROM game_figures")
    db.conn.commit()
    db.execute("PRAGMA query_only = 1")
    _new_process()
    assert _stats(client, table_id) == before
    assert len(replays) == GAMES and "not kept in the file" in caplog.text
    db.execute("PRAGMA query_only = 0")
    assert _kept_rows(db, table_id) == {}
    _new_process()
    _stats(client, table_id)
    assert len(_kept_rows(db, table_id)) == GAMES
