"""Checkpoints happen in the background, never in the commit a phone is waiting for; word of
each commit reaches the polls waiting on one, once, from any process."""

from __future__ import annotations

import sqlite3
import time

import pytest

from scorekeeper import dbfile, store

HAND = {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50, "Cy": 50}}
BIG_GAME = {"rules": "official", "players": ["Ann", "Bob", "Cy"], "dealer": "Ann"}


def _games_in_the_file(path) -> int:
    """Games written into the database file itself, not only into its write-ahead log."""
    main = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return main.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:  # not even the tables yet
        return 0
    finally:
        main.close()


@pytest.fixture
def path(tmp_path):
    yield tmp_path / "games.sqlite3"
    store.close_all()


def test_a_commit_never_copies_the_log_into_the_file_itself(path, monkeypatch):
    monkeypatch.setattr(dbfile, "CHECKPOINT_AFTER", 3600.0)  # the background copy waits
    db = store.connect(path)
    state = {**BIG_GAME, "hands": [HAND] * 600}  # about 50 KB: 80 games pass 1000 pages
    before = _games_in_the_file(path)
    for _ in range(80):
        store.create_game(db, state)
    assert _games_in_the_file(path) == before  # SQLite alone would have copied at 1000 pages
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == before + 80


def test_writes_reach_the_file_in_the_background_soon_after(path, monkeypatch):
    monkeypatch.setattr(dbfile, "CHECKPOINT_AFTER", 0.05)
    db = store.connect(path)
    store.create_game(db, {**BIG_GAME, "hands": [HAND]})
    deadline = time.monotonic() + 30
    while True:
        try:
            if _games_in_the_file(path) == 1:
                break
        except sqlite3.DatabaseError:  # read (immutable) while the copy was being written
            pass
        assert time.monotonic() < deadline, "the log was never copied into the file"
        time.sleep(0.05)


def test_closing_stops_the_background_copies(path):
    db = store.connect(path)
    store.create_game(db, {**BIG_GAME, "hands": [HAND]})
    file = store._file_of[db.conn]
    store.close_all()
    assert file._thread is None or not file._thread.is_alive()
    assert _games_in_the_file(path) == 1  # the last connection closed copies the rest


# --- word of each commit --------------------------------------------------------------------


@pytest.fixture
def db(path, monkeypatch):
    monkeypatch.setattr(dbfile, "NOTICE", 0)  # look for other processes' commits on every wait
    return store.connect(path)


def test_this_processs_commit_wakes_the_polls_once(db):
    store.create_game(db, {**BIG_GAME, "hands": []})
    seen = store.wait_for_commit(db, None, 0)
    assert store.wait_for_commit(db, seen, 0.01) == seen  # nothing new: the watcher's baseline
    store.create_game(db, {**BIG_GAME, "hands": []})
    assert store.wait_for_commit(db, seen, 0.01) == seen + 1
    # the watcher sees the file changed, but that was this process's own commit, told already
    assert store.wait_for_commit(db, seen + 1, 0.01) == seen + 1


def test_another_processs_commit_wakes_the_polls(db, path):
    store.create_game(db, {**BIG_GAME, "hands": []})
    seen = store.wait_for_commit(db, None, 0)
    assert store.wait_for_commit(db, seen, 0.01) == seen
    other = sqlite3.connect(path)  # as `scorekeeper import` would write
    with other:
        other.execute("UPDATE games SET updated = ?", ["2026-11-25T20:00:00+00:00"])
    other.close()
    assert store.wait_for_commit(db, seen, 5) == seen + 1
