"""/healthz: ok while the games file is usable; 503 with the reason when it is read-only,
damaged or gone; never rate-limited, never carrying a secret."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from games import damaged_file
from tools import missing
from webutil import new_game

from scorekeeper import create_app, store


def test_a_healthy_app_answers_ok_with_its_version_and_nothing_secret(app, client):
    url = new_game(client)
    response = client.get("/healthz")
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["status"] == "ok" and answer["version"]
    assert set(answer) == {"status", "version", "live_pages"}  # no path, no key, no game
    assert answer["live_pages"] == 0  # polls held now: what a monitor watches at a club night
    assert url.split("/")[-1] not in response.get_data(as_text=True)
    assert "Set-Cookie" not in response.headers
    assert response.headers["Cache-Control"] == "no-store"


def test_the_health_check_is_never_rate_limited_even_under_an_app_wide_limit(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "g.sqlite3"),
            "SECRET_KEY": "x",
            "RATELIMIT_DEFAULT": "2/minute",
        }
    )
    client = app.test_client()
    assert [client.get("/healthz").status_code for _ in range(10)] == [200] * 10
    assert [client.get("/rules").status_code for _ in range(3)] == [200, 200, 429]  # it is on


def test_a_damaged_games_file_answers_503_damaged(app, client):
    store.connection.close_all()  # the app's connections checkpoint and let go of the file
    damaged_file(app.config["DATABASE"])  # garbage over pages the quick check reads
    response = client.get("/healthz")
    assert response.status_code == 503
    answer = response.get_json()
    assert answer["status"] == "unavailable" and answer["problem"] == "damaged"
    assert answer["reason"] and answer["version"]


def test_a_missing_games_file_answers_503_unreachable(app, client):
    store.connection.close_all()
    shutil.rmtree(os.path.dirname(app.config["DATABASE"]))  # the volume went away
    answer = client.get("/healthz")
    assert answer.status_code == 503 and answer.get_json()["problem"] == "unreachable"


# Runs in its own process: the app starts on a writable folder, which then turns read-only
# as a volume does when the disk is remounted read-only (as root: a read-only bind mount in a
# mount namespace of its own; otherwise: the folder's and files' write permissions taken away).
READ_ONLY_LATER = textwrap.dedent(
    """
    import json, os, subprocess, sys
    from scorekeeper import create_app
    folder = sys.argv[1]
    client = create_app({"DATABASE": folder + "/g.sqlite3", "SECRET_KEY": "x"}).test_client()
    before = client.get("/healthz").status_code
    if os.geteuid() == 0:
        subprocess.run(["mount", "--bind", "-o", "ro", folder, folder], check=True)
    else:
        for name in os.listdir(folder):
            os.chmod(os.path.join(folder, name), 0o444)
        os.chmod(folder, 0o555)
    after = client.get("/healthz")
    print(json.dumps([before, after.status_code, after.get_json()]))
    """
)


@pytest.mark.server
def test_a_games_file_turned_read_only_answers_503_read_only(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    prefix: list[str] = []
    if os.geteuid() == 0:
        if not shutil.which("unshare"):
            missing("unshare (util-linux) is not installed: it makes a read-only mount as root")
        prefix = ["unshare", "--mount", "--propagation", "private"]
    try:
        done = subprocess.run(
            [*prefix, sys.executable, "-c", READ_ONLY_LATER, str(folder)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        folder.chmod(0o755)
    assert done.returncode == 0, done.stderr
    before, after, answer = json.loads(done.stdout.splitlines()[-1])
    assert (before, after) == (200, 503)
    assert answer["status"] == "unavailable" and answer["problem"] == "read-only"


def test_the_health_check_reads_no_page_by_page_check_of_the_file(app, client, monkeypatch):
    """Issue 32: anyone may call /healthz, so it must not cost a read of the whole file
    (quick_check took 70 ms on a 64 MB file); start-up and check-db make that check."""
    new_game(client)
    asked: list[str] = []
    opened = sqlite3.connect

    def traced(*args, **kwargs):
        conn = opened(*args, **kwargs)
        conn.set_trace_callback(asked.append)
        return conn

    monkeypatch.setattr(sqlite3, "connect", traced)
    assert client.get("/healthz").status_code == 200
    assert asked and not [s for s in asked if re.search(r"quick_check|integrity_check", s)]
