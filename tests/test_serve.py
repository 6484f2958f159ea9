"""`scorekeeper serve` (what ./scripts/serve runs) starts a real server that answers."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from scorekeeper.cli import phone_address, startup_message


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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
        deadline = time.monotonic() + 20
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
    finally:
        process.terminate()
        process.wait(timeout=10)
        process.stdout.close()


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
