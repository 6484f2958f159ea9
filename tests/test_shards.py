"""Shards behind HAProxy: two `scorekeeper serve`, each with its own games file, behind
Debian's haproxy on loopback, configured by `scorekeeper haproxy` (store/shards.py).

Every link reaches the shard its id names; a table's next game stays on the table's
shard; killing one shard (kill -9) leaves the other's tables working, and the killed
shard's games come back whole when it restarts.
"""

from __future__ import annotations

import http.cookiejar
import os
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from servers import Server, call, free_port, hand, wait_until
from tools import missing
from webpage import csrf, read

from scorekeeper.serve.haproxy import haproxy_config

pytestmark = pytest.mark.slow  # two servers and a proxy, one of them killed and restarted

SECRET = "one secret for every shard, so a phone's cookie holds on each"


def shard(tmp_path: Path, name: str, port: int | None = None) -> Server:
    env = {"SCOREKEEPER_SHARD": name, "SCOREKEEPER_SECRET_KEY": SECRET}
    return Server(tmp_path / f"shard-{name}.sqlite3", port=port, env=env)


@contextmanager
def haproxy(tmp_path: Path, shards: dict[str, Server]) -> Iterator[str]:
    """HAProxy in front of the shards, as `scorekeeper haproxy` configures it."""
    if not Path("/usr/sbin/haproxy").exists():
        missing("haproxy is not installed (run ./scripts/test, which installs it)")
    port = free_port()
    addresses = [f"{name}=127.0.0.1:{server.port}" for name, server in shards.items()]
    written = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "haproxy", f"--listen=127.0.0.1:{port}"]
        + ["--check-every=200ms", *(f"--shard={address}" for address in addresses)],
        capture_output=True,
        text=True,
        check=True,
    )
    config = tmp_path / "haproxy.cfg"
    config.write_text(written.stdout)
    process = subprocess.Popen(
        ["/usr/sbin/haproxy", "-db", "-f", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _answers(base + "/healthz"), 60, "haproxy did not start")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def _answers(url: str) -> bool:
    try:
        return call(url, timeout=5)[0] == 200
    except OSError:
        return False


def _browser() -> urllib.request.OpenerDirector:
    """A phone: it keeps its cookies (its shard, its session)."""
    return urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )


def _post_form(phone, url: str, page_url: str, fields: dict[str, str]) -> str:
    """Send a form as the page at ``page_url`` does (its CSRF token); the URL it lands on."""
    page = phone.open(page_url, timeout=30).read().decode()
    token = csrf(page)
    data = urllib.parse.urlencode({"csrf_token": token, **fields}).encode()
    with phone.open(url, data=data, timeout=30) as answer:
        return answer.geturl()


@pytest.fixture
def two_shards(tmp_path) -> Iterator[dict[str, Server]]:
    servers = {name: shard(tmp_path, name).start() for name in ("A", "B")}
    yield servers
    for server in servers.values():
        server.stop()


def test_every_link_reaches_the_shard_its_id_names(tmp_path, two_shards):
    with haproxy(tmp_path, two_shards) as base:
        games = [call(base + "/api/games", {"players": ["Ann", "Bob", "Cy"]})[1] for _ in range(4)]
        assert {game["id"][0] for game in games} == {"A", "B"}  # new games land in turn
        assert all(len(game["id"]) == 23 for game in games)
        for game in games:
            status, _ = call(game["hands_url"], {"hand_number": 1, "hand": hand(1)})
            assert status == 201
            watch = urllib.request.urlopen(game["view_url"], timeout=30).read().decode()
            assert "Hand <strong>2</strong>" in watch
            screen = urllib.request.urlopen(game["view_url"] + "/table", timeout=30).read()
            code = read(screen).watch_code
            assert code[0] == game["id"][0]  # the code names the shard too
            opened = urllib.request.urlopen(f"{base}/{code.lower()}", timeout=30)
            assert game["id"] in opened.geturl()


def test_a_tables_next_game_stays_on_the_tables_shard(tmp_path, two_shards):
    with haproxy(tmp_path, two_shards) as base:
        phone = _browser()
        table_url = _post_form(phone, base + "/tables/new", base + "/tables/new", {"name": "Us"})
        table_id = urllib.parse.urlsplit(table_url).path.split("/")[2]
        for _ in range(3):  # a new phone would land anywhere; the table's game lands at home
            other = _browser()
            new_url = f"{base}/new?table={table_id}"
            players = {"player-0": "Ann", "player-1": "Bob", "profile": "official"}
            game_url = _post_form(other, base + "/new", new_url, {"table": table_id, **players})
            game_id = urllib.parse.urlsplit(game_url).path.split("/")[2]
            assert game_id[0] == table_id[0], (game_url, table_url)


def test_a_killed_shard_stops_alone_and_comes_back_whole(tmp_path, two_shards):
    with haproxy(tmp_path, two_shards) as base:
        games = {}
        while set(games) != {"A", "B"}:
            game = call(base + "/api/games", {"players": ["Ann", "Bob", "Cy"]})[1]
            games[game["id"][0]] = game
        for game in games.values():
            for number in (1, 2):
                assert (
                    call(game["hands_url"], {"hand_number": number, "hand": hand(number)})[0] == 201
                )
        two_shards["B"].kill()  # a power cut on B
        stopped = games["B"]["view_url"]
        wait_until(lambda: _status(stopped) >= 500, 60, "the proxy still sends to B")
        # A's tables keep playing meanwhile
        assert call(games["A"]["hands_url"], {"hand_number": 3, "hand": hand(3)})[0] == 201
        # B comes back on its port and file; its phones catch up, nothing acknowledged lost
        two_shards["B"] = shard(tmp_path, "B", port=two_shards["B"].port).start()
        wait_until(lambda: _status(stopped) == 200, 60, "B did not come back behind the proxy")
        assert (
            "Hand <strong>3</strong>" in urllib.request.urlopen(stopped, timeout=30).read().decode()
        )
        assert call(games["B"]["hands_url"], {"hand_number": 3, "hand": hand(3)})[0] == 201


def _status(url: str) -> int:
    try:
        return urllib.request.urlopen(url, timeout=30).status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 599


def test_the_proxy_configuration_names_every_shard_and_is_valid(tmp_path):
    if not Path("/usr/sbin/haproxy").exists():
        missing("haproxy is not installed (run ./scripts/test, which installs it)")
    config = tmp_path / "haproxy.cfg"
    config.write_text(haproxy_config({"A": "10.0.0.2:5010", "B": "10.0.0.3:5010"}, ":80"))
    checked = subprocess.run(
        ["/usr/sbin/haproxy", "-c", "-f", str(config)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    assert "server A 10.0.0.2:5010" in config.read_text()


def test_a_shard_name_the_codes_cannot_carry_is_refused_at_start(tmp_path):
    started = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--db", str(tmp_path / "g.db")]
        + ["--port", "0", "--no-qr"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SCOREKEEPER_SHARD": "I"},
    )
    assert started.returncode == 2
    assert "SCOREKEEPER_SHARD" in started.stderr
