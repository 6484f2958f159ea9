"""Checkpoints happen in the background, never in the commit a phone is waiting for; word of
each commit reaches the pages of what it changed, and only those, once, from any process."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
from servers import SLOW_MACHINE_SECONDS

from scorekeeper import actions, store
from scorekeeper.live import across_processes
from scorekeeper.rules.game import HandRecord
from scorekeeper.store import games_file, tables

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
    store.connection.close_all()


def test_a_commit_never_copies_the_log_into_the_file_itself(path, monkeypatch):
    monkeypatch.setattr(games_file, "CHECKPOINT_AFTER", 3600.0)  # the background copy waits
    db = store.connection.connect(path)
    state = {**BIG_GAME, "hands": [HAND] * 600}  # about 50 KB: 80 games pass 1000 pages
    before = _games_in_the_file(path)
    for _ in range(80):
        store.games.create_game(db, state)
    assert _games_in_the_file(path) == before  # SQLite alone would have copied at 1000 pages
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == before + 80


def test_writes_reach_the_file_in_the_background_soon_after(path, monkeypatch):
    monkeypatch.setattr(games_file, "CHECKPOINT_AFTER", 0.05)
    db = store.connection.connect(path)
    store.games.create_game(db, {**BIG_GAME, "hands": [HAND]})
    deadline = time.monotonic() + SLOW_MACHINE_SECONDS
    while True:
        try:
            if _games_in_the_file(path) == 1:
                break
        except sqlite3.DatabaseError:  # read (immutable) while the copy was being written
            pass
        assert time.monotonic() < deadline, "the log was never copied into the file"
        time.sleep(0.05)


def test_closing_stops_the_background_copies(path):
    db = store.connection.connect(path)
    store.games.create_game(db, {**BIG_GAME, "hands": [HAND]})
    file = store.connection._file_of[db.conn]
    store.connection.close_all()
    assert file._thread is None or not file._thread.is_alive()
    assert _games_in_the_file(path) == 1  # the last connection closed copies the rest


# --- word of each commit: only the pages it concerns --------------------------------------


@pytest.fixture
def db(path, monkeypatch):
    monkeypatch.setattr(games_file, "NOTICE", 0.01)  # look for other processes' commits often,
    monkeypatch.setattr(games_file, "NOTICE_HEARING", 0.01)  # also those nobody tells of
    return store.connection.connect(path)


def _start(db, **options) -> str:
    saved = actions.games.start_game(db, {**BIG_GAME, "hands": []}, **options)
    assert isinstance(saved, actions.results.Saved)
    return saved.current.stored.id


def _record(db, game_id: str, number: int = 1) -> None:
    hand = HandRecord(went_out="Ann", made=("Ann",), points={"Bob": 50, "Cy": 50})
    assert isinstance(actions.hands.record(db, game_id, number, hand), actions.results.Saved)


def _heard(listener) -> bool:
    return listener.wait(0)


def test_a_commit_rings_only_its_own_games_bell(db):
    ours, theirs = _start(db), _start(db)
    bells = store.connection._file_of[db.conn].bells
    with (
        store.connection.listening(db, ours) as mine,
        store.connection.listening(db, theirs) as other,
    ):
        rung = bells.rung
        _record(db, ours)
        assert _heard(mine) and not _heard(other)
        assert bells.rung == rung + 1  # one bell, however many games are waited on
        assert not _heard(mine)  # heard once


def test_a_thousand_waiting_games_cost_a_commit_one_bell(db):
    games = [_start(db) for _ in range(3)]
    bells = store.connection._file_of[db.conn].bells
    with ExitStack() as stack:
        listeners = [
            stack.enter_context(store.connection.listening(db, g))
            for g in games
            for _ in range(300)
        ]
        rung = bells.rung
        _record(db, games[0])
        assert bells.rung == rung + 1
        assert sum(_heard(listener) for listener in listeners) == 300
    assert len(bells) == 0  # nobody listens: no bell is kept


def test_a_rematch_rings_the_game_it_follows_and_a_table_game_its_table(db):
    table = tables.create_table(db, "Family")
    first = _start(db, table_id=table.id)
    with (
        store.connection.listening(db, first) as old,
        store.connection.listening(db, store.commits.table_key(table.id)) as screen,
    ):
        saved = actions.games.rematch(db, first)
        assert isinstance(saved, actions.results.Saved)
        assert _heard(old) and _heard(screen)
        _record(db, saved.current.stored.id)
        assert _heard(screen)


def test_a_players_sent_points_ring_their_game(db):
    game_id = _start(db)
    with store.connection.listening(db, game_id) as listener:
        with store.connection.transaction(db):
            db.table("hand_entries").insert(
                {
                    "game_id": game_id,
                    "hand_number": 1,
                    "seat": 1,
                    "points": 5,
                    "at": store.connection.now(),
                }
            )
        assert _heard(listener)


def test_another_processs_commit_rings_the_bell_of_its_game(db, path):
    ours, theirs = _start(db), _start(db)
    with (
        store.connection.listening(db, ours) as mine,
        store.connection.listening(db, theirs) as other,
    ):
        assert not mine.wait(0.05)
        writer = sqlite3.connect(path)  # as `scorekeeper import` or another worker would write
        with writer:
            writer.execute(
                "INSERT INTO changes (game_id, version, at, action) VALUES (?, 99, ?, 'edit')",
                [ours, "2026-11-25T20:00:00+00:00"],
            )
        writer.close()
        assert mine.wait(30)  # within NOTICE
        assert not _heard(other)


@pytest.mark.server
def test_a_commit_in_another_process_is_told_at_once(path, monkeypatch):
    """``serve``'s workers tell each other of each commit (live/across_processes.py): the page here
    wakes though it would look for other processes' commits only once an hour."""
    monkeypatch.setattr(games_file, "NOTICE", 3600)
    monkeypatch.setattr(games_file, "NOTICE_HEARING", 3600)
    db = store.connection.connect(path)
    ours, theirs = _start(db), _start(db)
    with (
        store.connection.listening(db, ours) as mine,
        store.connection.listening(db, theirs) as other,
    ):
        assert not mine.wait(0.05)
        record = (
            "import sys; from scorekeeper import store, actions; "
            "from scorekeeper.rules.game import HandRecord; "
            "db = store.connection.connect(sys.argv[1]); "
            "hand = HandRecord(went_out='Ann', made=('Ann',), points={'Bob': 50, 'Cy': 50}); "
            "saved = actions.hands.record(db, sys.argv[2], 1, hand); "
            "assert isinstance(saved, actions.results.Saved)"
        )
        subprocess.run([sys.executable, "-c", record, str(path), ours], check=True)
        assert mine.wait(60)
        assert not _heard(other)


def _ended_process() -> int:
    """The number of a process that has just ended: nothing runs under it now."""
    ran = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(ran.stdout)


def _left_socket(place: Path, name: str) -> Path:
    """A socket file whose process is gone: bound, then closed (as after a kill -9)."""
    place.mkdir(mode=0o700, exist_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as gone:
        gone.bind(str(place / name))
    return place / name


BIND_AND_WAIT = (
    "import socket, sys; ear = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); "
    "ear.bind(sys.argv[1]); print('bound', flush=True); sys.stdin.read()"
)


def test_start_removes_the_sockets_of_processes_that_died_and_no_live_ones(path):
    """Issue 38: a wake-up socket left by a process that died stayed until a commit
    happened to find it. Start clears them: none of a process that still runs (this one,
    another), nor one bound under the number of a process that ended (a process of
    another PID namespace sharing the folder)."""
    place = across_processes._place_for(str(path))
    assert place is not None
    ours = across_processes.Neighbours(str(path))
    assert ours.listen()
    ended = _ended_process()
    left = _left_socket(place, f"{ended}.1")
    with ExitStack() as stack:
        namesake = stack.enter_context(socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM))
        namesake.bind(str(place / f"{ended}.2"))
        other = subprocess.Popen(
            [sys.executable, "-c", BIND_AND_WAIT, str(place / "1.1")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        stack.callback(other.stdout.close)
        stack.callback(other.wait, 10)
        stack.callback(other.stdin.close)
        assert other.stdout.readline() == "bound\n"
        (place / "1.1").rename(place / f"{other.pid}.1")  # named as listen names its own
        assert across_processes.clear_left() >= 1
        assert not left.exists()
        assert ours._own is not None and ours._own.exists()
        assert (place / f"{ended}.2").exists() and (place / f"{other.pid}.1").exists()
        assert ours.hear(0.01) is False  # probed, not told: nobody was woken
    ours.close()


def test_start_removes_a_folder_only_dead_processes_left(path):
    place = across_processes._place_for(str(path))
    assert place is not None
    ended = _ended_process()
    sockets = [_left_socket(place, f"{ended}.{n}") for n in (1, 2)]
    (place / "notes.txt").write_text("not a socket: left alone")
    across_processes.clear_left()
    assert not any(s.exists() for s in sockets) and place.exists()
    (place / "notes.txt").unlink()
    _left_socket(place, f"{ended}.3")
    across_processes.clear_left()
    assert not place.exists()


def test_a_process_that_starts_to_listen_clears_its_folder_first(path):
    place = across_processes._place_for(str(path))
    assert place is not None
    left = _left_socket(place, f"{_ended_process()}.1")
    ears = across_processes.Neighbours(str(path))
    assert ears.listen()
    assert not left.exists()
    ears.close()


def test_a_process_that_died_leaves_no_socket_for_long(path, tmp_path):
    """A socket whose process is gone is removed by the next commit that finds it."""
    left = across_processes.Neighbours(str(path))
    assert left.listen()
    folder = left._own.parent if left._own else None
    assert folder is not None
    dead = folder / "0.dead"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as gone:
        gone.bind(str(dead))  # closed at once: nobody behind it, as after a kill -9
    teller = across_processes.Neighbours(str(path))
    teller.tell()
    assert not dead.exists()
    assert left.hear(5)  # the live one heard
    teller.close()
    left.close()
