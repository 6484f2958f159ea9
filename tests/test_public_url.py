"""The address phones open: SCOREKEEPER_PUBLIC_URL (or serve --public-url) wins over any
guess, in the API's links, the share page's QR codes and the printed sheet's QR code;
and what `serve` says on its first start."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from printed import qr_codes, svg_qr_codes
from servers import PLAYERS, SLOW_MACHINE_SECONDS, Server, call, free_port

pytestmark = pytest.mark.server  # starts `scorekeeper serve` in its own process


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read()


def links_phones_get(base: str, folder: Path) -> dict[str, list[str]]:
    """Start a game through the API, then read its links where phones meet them: the API's
    answer, the share page's QR codes and the printed sheet's QR code."""
    status, created = call(base + "/api/games", {"players": PLAYERS})
    assert status == 201
    game, key = created["id"], created["key"]
    share = fetch(f"{base}/g/{game}/{key}/share").decode()
    sheet = fetch(f"{base}/v/{game}/print/score-sheet.pdf")
    return {
        "api": [created["view_url"], created["edit_url"], created["hands_url"]],
        "share": svg_qr_codes(share, folder),
        "sheet": qr_codes(sheet, folder),
        "expected": [f"/v/{game}", f"/g/{game}/{key}"],
    }


@pytest.mark.parametrize(
    ("env", "arguments", "address"),
    [
        ({"SCOREKEEPER_PUBLIC_URL": "http://192.168.1.50:5010"}, [], "http://192.168.1.50:5010"),
        (  # the command line wins over the environment
            {"SCOREKEEPER_PUBLIC_URL": "http://192.168.1.50:5010"},
            ["--public-url", "https://scores.example.org/"],
            "https://scores.example.org",
        ),
    ],
)
def test_the_public_address_reaches_api_links_share_qr_codes_and_the_sheet(
    tmp_path, env, arguments, address
):
    class Announced(Server):
        def arguments(self) -> list[str]:
            return super().arguments() + arguments

    server = Announced(tmp_path / "games.sqlite3", env=env).start()
    try:
        links = links_phones_get(server.base, tmp_path)
    finally:
        server.stop()
    view, edit = (address + path for path in links["expected"])
    assert links["api"] == [view, edit, edit.replace("/g/", "/api/games/", 1) + "/hands"]
    assert links["share"] == [view, edit]
    assert links["sheet"] == [view]


def first_start(*arguments: str, env: dict[str, str] | None = None) -> tuple[str, str]:
    """What `serve` prints before it serves (stdout, stderr); stopped once it answers."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port), *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        deadline = time.monotonic() + SLOW_MACHINE_SECONDS
        while True:
            try:
                fetch(f"http://127.0.0.1:{port}/healthz")
                break
            except OSError:
                assert process.poll() is None, process.communicate()
                assert time.monotonic() < deadline, "serve did not answer"
                time.sleep(0.05)
    finally:
        process.terminate()
        out, errors = process.communicate(timeout=20)
    return out, errors


def test_a_server_for_this_computer_only_says_so_and_prints_no_qr_code(tmp_path):
    out, errors = first_start("--host", "127.0.0.1", "--db", str(tmp_path / "g.sqlite3"))
    assert "this computer only" in out
    assert "█" not in out  # no QR code a phone could not open
    assert "Ctrl+C stops the server." in out
    assert f"Games file: {tmp_path / 'g.sqlite3'}" in out
    assert "Data folder: " in out
    assert not re.search(r"pip|setuptools|Warning", errors)


def test_the_first_start_names_the_data_folder(tmp_path):
    data = tmp_path / "data"
    out, _ = first_start("--host", "127.0.0.1", env={"SCOREKEEPER_DATA": str(data)})
    assert f"Data folder: {data}" in out
    assert "Games file" not in out  # the games are in the data folder
    assert (data / "scorekeeper.sqlite3").exists() and (data / "secret_key").exists()


def test_in_a_container_without_a_public_address_serve_says_how_to_set_one(tmp_path):
    db = ["--db", str(tmp_path / "g.sqlite3")]
    out, errors = first_start(*db, env={"container": "oci"})
    assert "SCOREKEEPER_PUBLIC_URL" in errors and "may not be one phones can reach" in errors
    assert "█" not in out  # the container's own address would only mislead
    public = {"container": "oci", "SCOREKEEPER_PUBLIC_URL": "http://192.168.1.50:5010"}
    out, errors = first_start(*db, env=public)
    assert "Open http://192.168.1.50:5010/ on any phone" in out
    assert "SCOREKEEPER_PUBLIC_URL" not in errors
    assert "█" in out  # the QR code of the address the operator gave
    out, errors = first_start(*db, "--host", "127.0.0.1", env={"container": "oci"})
    assert "this computer only" in out and "SCOREKEEPER_PUBLIC_URL" not in errors


@pytest.mark.parametrize(
    "value", ["192.168.1.50:5010", "ftp://scores", "http://", "https://x.org/scores?a=1"]
)
def test_a_public_address_that_is_no_address_is_refused_with_a_message(value):
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--public-url", value],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "public address must be like" in done.stderr
    assert "Traceback" not in done.stderr
