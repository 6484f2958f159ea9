"""`scorekeeper serve` (what ./scripts/serve runs) starts a real server that answers."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from servers import SLOW_MACHINE_SECONDS, Server, call, free_port, wait_until
from webpage import read

from scorekeeper.cli import lan_address, network, phone_address, startup_message
from scorekeeper.live import across_processes
from scorekeeper.serve import workers

pytestmark = pytest.mark.server  # starts `scorekeeper serve` in its own process


def test_serve_prints_the_address_and_serves_the_app(tmp_path):
    port = free_port()
    db = tmp_path / "games.sqlite3"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scorekeeper.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            str(db),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        first_line = process.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in first_line
        deadline = time.monotonic() + SLOW_MACHINE_SECONDS
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as page:
                    body = page.read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
        assert "Start a new game" in body
        assert db.exists()  # data goes where --db says
        # a worker per core where gunicorn runs (here: Linux), else this one process
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
        expected = workers.default_count()
        assert len(children) == (expected if expected > 1 else 0)
    finally:
        process.terminate()
        process.wait(timeout=10)
        process.stdout.close()


@pytest.mark.parametrize(("cores", "expected"), [(1, 1), (2, 2), (3, 3), (16, workers.MOST)])
def test_serve_runs_a_worker_per_core_up_to_most(monkeypatch, cores, expected):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)))
    monkeypatch.setattr(workers, "available", lambda: True)
    assert workers.default_count() == expected


def test_where_gunicorn_does_not_run_one_process_serves(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)))
    monkeypatch.setattr(workers, "available", lambda: False)
    assert workers.default_count() == 1


def test_each_worker_keeps_its_share_of_a_cap_so_an_address_never_passes_it():
    assert workers.share(300, 2) == 150
    assert workers.share(5, 2) == 2  # 4 in all, not 6
    assert workers.share(0, 4) == 0  # no cap stays no cap
    assert workers.share(1, 4) == 1  # at least one each


def test_serve_rejects_a_bad_port_with_a_message():
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--port", "x"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "invalid int value" in result.stderr


def test_serve_with_an_unusable_database_exits_2_with_a_message(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--db", "/nonexistent/dir/x.db"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "cannot open the database /nonexistent/dir/x.db" in result.stderr
    assert "Traceback" not in result.stderr


def test_serve_with_a_wrong_idle_timeout_exits_2_naming_the_setting(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--db", str(tmp_path / "g.sqlite3")],
        capture_output=True,
        text=True,
        env={**os.environ, "SCOREKEEPER_IDLE_SECONDS": "soon"},
    )
    assert result.returncode == 2
    assert "SCOREKEEPER_IDLE_SECONDS must be a whole number" in result.stderr
    assert "Traceback" not in result.stderr


def test_serve_on_a_busy_port_exits_2_with_a_message(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "scorekeeper.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                str(tmp_path / "g.db"),
                "--no-qr",
            ],
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert result.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in result.stderr


@pytest.mark.parametrize(
    ("host", "lan", "url", "says"),
    [
        ("0.0.0.0", "192.168.1.20", "http://192.168.1.20:5010/", "on any phone on this network"),
        ("0.0.0.0", None, "http://localhost:5010/", "<this computer's address>:5010"),
        ("127.0.0.1", "192.168.1.20", "http://127.0.0.1:5010/", "this computer only"),
        ("192.168.1.20", None, "http://192.168.1.20:5010/", "on any phone on this network"),
    ],
)
def test_serve_tells_phones_where_to_go_only_when_they_can(host, lan, url, says):
    assert startup_message(host, 5010, lan)[0] == url
    assert says in startup_message(host, 5010, lan)[1]
    if host == "0.0.0.0":
        assert "without --host" not in startup_message(host, 5010, lan)[1]


@pytest.mark.parametrize(
    ("url", "kept"),
    [
        ("http://192.168.1.20:5010/", "http://192.168.1.20:5010/"),
        ("http://localhost:5010/", None),
        ("http://127.0.0.1:5010/", None),
    ],
)
def test_printed_links_use_the_announced_address_only_when_phones_can_reach_it(url, kept):
    assert phone_address(url) == kept


def test_without_db_the_command_line_and_the_app_open_the_same_file(tmp_path, monkeypatch):
    """`serve` checks and `backup` copies the file the app itself opens when no --db is given."""
    from scorekeeper import SOURCE, create_app
    from scorekeeper.cli import default_database

    assert default_database() == SOURCE / "instance" / "scorekeeper.sqlite3"  # a checkout
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    app = create_app()
    assert Path(app.config["DATABASE"]) == default_database() == tmp_path / "scorekeeper.sqlite3"
    assert default_database().exists()  # the app made it there


def test_backup_without_db_copies_the_default_games_file(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    from scorekeeper import create_app

    create_app()
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "backup", str(tmp_path / "copy.sqlite3")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "copy.sqlite3").exists()


class _Probe:
    """A UDP socket whose route goes out through ``address`` (or nowhere, when None)."""

    def __init__(self, address: str | None, connected: list[tuple[str, int]]):
        self.address = address
        self.connected = connected

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, target):
        self.connected.append(target)
        if self.address is None:
            raise OSError(101, "Network is unreachable")

    def getsockname(self):
        return (self.address, 40000)


def _machine(monkeypatch, route: str | None, hostname: list[str]) -> list[tuple[str, int]]:
    """Stand in for the network: the outward route's address and what the name resolves to."""
    connected: list[tuple[str, int]] = []
    monkeypatch.setattr(
        network.socket, "socket", lambda family, kind: _Probe(route, connected), raising=True
    )
    monkeypatch.setattr(
        network.socket,
        "getaddrinfo",
        lambda host, port, family: [(family, 2, 17, "", (a, 0)) for a in hostname],
    )
    return connected


def test_lan_address_is_the_outward_interface_when_the_name_means_loopback(monkeypatch):
    # Debian and Ubuntu: the hostname resolves to 127.0.1.1 although eth0 is on the LAN.
    connected = _machine(monkeypatch, route="192.168.1.20", hostname=["127.0.1.1"])
    assert lan_address() == "192.168.1.20"
    assert connected and not connected[0][0].startswith("127.")  # probed outward, sent nothing


@pytest.mark.parametrize(
    ("route", "hostname", "found"),
    [
        (None, ["127.0.1.1", "192.168.1.30"], "192.168.1.30"),  # no route: the name, as before
        ("127.0.0.1", ["10.0.0.5"], "10.0.0.5"),  # a loopback route is never the answer
        ("0.0.0.0", ["127.0.0.1"], None),
        (None, ["127.0.1.1", "127.0.0.1"], None),  # only loopback: "could not be found"
    ],
)
def test_lan_address_falls_back_to_the_name_and_is_never_loopback(
    monkeypatch, route, hostname, found
):
    _machine(monkeypatch, route=route, hostname=hostname)
    assert lan_address() == found


def test_lan_address_on_a_machine_whose_name_does_not_resolve(monkeypatch):
    _machine(monkeypatch, route=None, hostname=[])

    def unknown(*args):
        raise socket.gaierror(-2, "Name or service not known")

    monkeypatch.setattr(network.socket, "getaddrinfo", unknown)
    assert lan_address() is None


def test_the_server_logs_each_error_once(tmp_path):
    """Issue 24: every error was logged twice, by Flask's handler and by the root logger
    that waitress sets up. A game with damaged stored data logs one line when opened."""
    import sqlite3

    port = free_port()
    db = tmp_path / "games.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1"]
        + ["--port", str(port), "--db", str(db), "--no-qr"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SLOW_MACHINE_SECONDS
        body = json.dumps({"players": ["Ann", "Bob"]}).encode()
        create = urllib.request.Request(
            f"{base}/api/games", data=body, headers={"Content-Type": "application/json"}
        )
        while True:
            try:
                with urllib.request.urlopen(create, timeout=2) as answer:
                    game_id = json.loads(answer.read())["id"]
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
        with sqlite3.connect(db) as conn:  # a damaged byte in the game's stored text
            conn.execute("UPDATE games SET state = '{\"players\": [' WHERE id = ?", [game_id])
        try:
            urllib.request.urlopen(f"{base}/v/{game_id}", timeout=5)
        except urllib.error.HTTPError as error:
            assert error.code == 503
        else:
            raise AssertionError("a damaged game was served")
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=10)
    logged = [line for line in output.splitlines() if f"game {game_id} cannot be read" in line]
    assert len(logged) == 1, output


def test_serve_starts_by_removing_the_wake_up_sockets_of_a_server_that_was_killed(tmp_path):
    """Issue 38: the socket a killed server listened on for other processes' commits
    (across_processes.py) stayed until a commit happened to find it; the next `serve` removes
    it as it starts."""
    db = tmp_path / "games.sqlite3"
    killed = Server(db).start()
    try:
        status, game = call(
            f"{killed.base}/api/games", {"players": ["Ann", "Bob"], "dealer": "Ann"}
        )
        assert status == 201
        watch = urllib.parse.urlsplit(game["view_url"]).path
        with urllib.request.urlopen(killed.base + watch, timeout=30) as page:
            tag = read(page.read()).live_tag
        poll = http.client.HTTPConnection("127.0.0.1", killed.port, timeout=60)
        poll.request("GET", watch, headers={"HX-Request": "true", "If-None-Match": tag})
        place = across_processes._place_for(str(db))  # a page waits: the process listens there
        wait_until(lambda: place.exists() and any(place.iterdir()), 30, "nobody listened")
        left = list(place.iterdir())
        killed.kill()
        poll.close()
    finally:
        killed.stop()
    assert all(path.exists() for path in left)  # nothing removes them...
    server = Server(db).start()
    try:
        assert not any(path.exists() for path in left)  # ...but the next start
        assert not place.exists()  # nor their folder, once empty
    finally:
        server.stop()
