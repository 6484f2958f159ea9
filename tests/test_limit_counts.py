"""Rate limits counted once for every process serving a games file (issue 32): the counts
live in a counts file beside it, so `serve --workers 2` no longer doubles each limit."""

from __future__ import annotations

import stat
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from servers import Server

from scorekeeper import create_app, store
from scorekeeper.store import limit_counts
from scorekeeper.store.limit_counts import SQLiteCounts

pytestmark = pytest.mark.server  # counts limits across a real server's workers


@pytest.fixture
def workers(tmp_path):
    """Two apps on one games file, as two worker processes build them."""

    def worker():
        config = {"DATABASE": str(tmp_path / "games.sqlite3"), "SECRET_KEY": "x"}
        return create_app({**config, "RATE_LIMIT_CODE": "3 per minute"}).test_client()

    yield worker(), worker()
    store.connection.close_all()


def test_two_workers_share_one_count_per_address(workers):
    first, second = workers
    statuses = [
        worker.get("/code?code=ABCD-EFGH").status_code
        for worker in (first, second, first, second, first)
    ]
    assert statuses[:3] != [429] * 3 and statuses[3:] == [429, 429], statuses


def test_the_counts_file_is_beside_the_games_file_for_its_owner_only(workers, tmp_path):
    counts = limit_counts.counts_file(str(tmp_path / "games.sqlite3"))
    assert counts.parent == tmp_path.resolve() and counts.name == "games.ratelimits.sqlite3"
    assert stat.S_IMODE(counts.stat().st_mode) == 0o600


def test_two_games_files_in_one_folder_count_apart(tmp_path):
    """Two servers whose games files shared a folder shared one address's counts."""
    ours = SQLiteCounts(limit_counts.uri_beside(str(tmp_path / "games.sqlite3")))
    other = SQLiteCounts(limit_counts.uri_beside(str(tmp_path / "club.sqlite3")))
    assert [ours.incr("LIMITER/10.0.0.1", 60) for _ in range(3)] == [1, 2, 3]
    assert other.incr("LIMITER/10.0.0.1", 60) == 1


def test_every_hit_from_many_threads_and_processes_is_counted(tmp_path):
    uri = limit_counts.uri_beside(str(tmp_path / "games.sqlite3"))
    one, other = SQLiteCounts(uri), SQLiteCounts(uri)  # as two processes open it
    with ThreadPoolExecutor(max_workers=8) as pool:
        hits = [pool.submit((one, other)[n % 2].incr, "LIMITER/10.0.0.1", 60) for n in range(400)]
        counts = sorted(hit.result() for hit in hits)
    assert counts == list(range(1, 401))  # each hit saw a count of its own
    assert one.get("LIMITER/10.0.0.1") == other.get("LIMITER/10.0.0.1") == 400


def test_a_window_starts_again_once_it_has_expired(tmp_path, monkeypatch):
    counts = SQLiteCounts(limit_counts.uri_beside(str(tmp_path / "games.sqlite3")))
    monkeypatch.setattr(limit_counts.time, "time", lambda: 1000.0)
    assert [counts.incr("key", 60) for _ in range(3)] == [1, 2, 3]
    assert counts.get_expiry("key") == 1060.0
    monkeypatch.setattr(limit_counts.time, "time", lambda: 1060.0)
    assert counts.get("key") == 0
    assert counts.incr("key", 60) == 1 and counts.get_expiry("key") == 1120.0
    counts.clear("key")
    assert counts.get("key") == 0 and counts.check()


def test_expired_counts_are_swept_now_and_then(tmp_path, monkeypatch):
    counts = SQLiteCounts(limit_counts.uri_beside(str(tmp_path / "games.sqlite3")))
    monkeypatch.setattr(limit_counts.time, "time", lambda: 1000.0)
    for address in range(limit_counts.PRUNE_EVERY - 1):
        counts.incr(f"LIMITER/10.0.{address // 250}.{address % 250}", 60)
    monkeypatch.setattr(limit_counts.time, "time", lambda: 2000.0)
    counts.incr("LIMITER/192.168.1.2", 60)  # the sweep's turn
    assert counts.reset() == 1


def test_a_database_in_memory_keeps_its_counts_in_memory():
    assert limit_counts.uri_beside(":memory:") == "memory://"


def test_a_server_with_two_workers_allows_each_address_its_limit_once(tmp_path):
    limit = {"SCOREKEEPER_RATE_LIMIT_CODE": "4 per minute"}
    server = Server(tmp_path / "games.sqlite3", workers=2, env=limit).start()
    try:
        with ThreadPoolExecutor(max_workers=12) as pool:  # at once: both workers take some
            statuses = list(pool.map(status, [server.base + "/code?code=ABCD-EFGH"] * 24))
    finally:
        server.stop()
    assert sum(code != 429 for code in statuses) == 4, statuses


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize(
    ("address", "counted"),
    [
        ("198.51.100.7", "198.51.100.7"),
        ("::ffff:198.51.100.7", "198.51.100.7"),  # what a dual-stack listener sees of IPv4
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2::1", "2001:db8:1:2::/64"),
        ("[2001:db8:1:2::1]", "2001:db8:1:2::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("::1", "::/64"),
        ("unix:/run/scorekeeper.sock", "unix:/run/scorekeeper.sock"),
    ],
)
def test_a_limit_counts_an_ipv6_address_by_its_64_and_ipv4_as_it_is(address, counted):
    assert limit_counts.counted_as(address) == counted
