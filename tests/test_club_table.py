"""A club's big table (2,000 games among 300 players) stays cheap: its statistics and its
backup are worked out once per version, a page at a time in any language, and let the
server's other requests run while they are (issue 38, finding 7).

Work is counted (charts drawn, figures added up, pauses for others), never timed:
bench/bench_big_table.py prints what it costs.
"""

from __future__ import annotations

import pytest
from games import club_backup
from webpage import read
from webutil import plain_names

from scorekeeper import actions, create_app, store
from scorekeeper.backup import table_archive
from scorekeeper.reports import statistics, table_figures
from scorekeeper.store import tables
from scorekeeper.web import charts
from scorekeeper.web.blueprints import tables as table_pages

pytestmark = pytest.mark.exhaustive  # a club's table of 2,000 games among 300 players

GAMES, PLAYERS = 2000, 300
MOST_BYTES = 500 * 1024  # one page of a club's statistics


def _club(folder, games: int, players: int):
    """The app and the path of a club's table of ``games`` among ``players``, imported
    (by the action the import page calls: a test client's upload past 500 KB leaves a
    temporary file for the garbage collector)."""
    path = folder / "games.sqlite3"
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "test"})
    table = actions.table_import.import_table(
        store.connection.connect(path), table_archive.read(club_backup(games, players))
    )
    assert isinstance(table, tables.Table)
    return app, f"/t/{table.id}"


def _counted(monkeypatch, module, name) -> list[int]:
    """Count the calls of ``module.name`` (it still does its work)."""
    calls: list[int] = []
    real = getattr(module, name)
    monkeypatch.setattr(module, name, lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def test_a_club_s_statistics_come_a_page_of_players_at_a_time_from_figures_kept(
    tmp_path, monkeypatch
):
    """Issue 38: every player's card, phase chart and head to head, and a wins line per
    player with a point per game: a 7.2 MB page (9.5 MB here), drawn again for each view,
    in any language (1.05 s)."""
    app, url = _club(tmp_path, GAMES, PLAYERS)
    client = app.test_client()
    pages = [client.get(f"{url}/stats?page={n}") for n in (1, 2, 10)]
    assert [page.status_code for page in pages] == [200, 200, 200]
    first, second, last = (plain_names(page.get_data(as_text=True)) for page in pages)
    assert "Players 1–30 of 300, in the order they first played." in first
    assert "Players 31–60 of 300" in second and "Players 271–300 of 300" in last
    assert "Page 2 of 10" in second and 'rel="next"' in second and 'rel="prev"' in second
    for page in (first, second, last):
        assert len(page.encode()) < MOST_BYTES
        assert page.count('<article class="card" id="player-') == 30
        assert page.count('class="chart-name"') == 30  # the phase charts of those 30
        rivals = page.count("<li><strong>")
        assert 30 <= rivals <= 30 * table_pages.OPPONENTS
        lines = [line["points"] for line in read(page).select("polyline")]
        assert len(lines) == charts.WIN_LINES  # the players with the most wins
        assert all(len(line.split()) <= charts.WIN_POINTS + 1 for line in lines)
    assert "The 6 players with the most wins." in first
    assert "Each player against the 8 players they played with most." in first
    assert 'id="player-31"' in second and 'id="phases-31-title"' in second
    # another page, in another language: nothing is worked out or drawn again
    drawn = _counted(monkeypatch, charts, "wins_chart")
    drawn += _counted(monkeypatch, charts, "phase_charts")
    added = _counted(monkeypatch, statistics, "add_up")
    german = client.get(f"{url}/stats?page=3", headers={"Accept-Language": "de"})
    assert german.status_code == 200 and "Seite 3 von 10" in german.get_data(as_text=True)
    assert drawn == [] and added == []
    store.connection.close_all()


def test_working_out_a_club_s_statistics_and_backup_lets_other_requests_run(tmp_path, monkeypatch):
    """On a one-process server a Save waited 4.2 s behind a club's statistics: the work now
    offers the others a turn between games (server.let_others_run)."""
    games = 200
    app, url = _club(tmp_path, games, 60)
    client = app.test_client()
    db = store.connection.connect(app.config["DATABASE"])
    db.execute("DELETE FROM game_figures")  # a file from before they were kept: every game
    db.conn.commit()  # is replayed
    table_figures._games.clear()
    working = _counted(monkeypatch, table_figures, "let_others_run")
    pauses = _counted(monkeypatch, table_pages, "let_others_run")
    assert client.get(f"{url}/stats").status_code == 200
    assert len(working) >= games  # before each game's figures (and while adding them up)
    pauses.clear()
    building = _counted(monkeypatch, table_archive, "let_others_run")
    backup = client.get(f"{url}/export.zip")
    assert backup.status_code == 200
    assert len(pauses) >= games and len(building) >= games  # reading, then writing each
    assert len(table_archive.read(backup.data).games) == games
    store.connection.close_all()
