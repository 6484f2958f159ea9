"""What one visitor may hold of the server, behind a proxy or not, and what the log says of
the connections that end badly (issue 38).

Each test starts `scorekeeper serve` as a family does and talks to it over real sockets.
Every visitor has its own loopback address (127.x.y.z); the trusted proxy is 127.0.0.1,
and a phone behind it is the address the proxy names in X-Forwarded-For. A limit counts
an IPv6 address by its /64 network, which is what one household or one phone is given.
"""

from __future__ import annotations

import http.client
import socket
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest
from servers import Server, call, shown_tag, wait_until

PROXY = "127.0.0.1"
CAPPED = {"SCOREKEEPER_LIVE_PER_ADDRESS": "3"}  # so six connections an address
HOLD = "600"  # seconds a poll is held, and a quiet connection kept: longer than any test


@pytest.fixture
def serve(tmp_path) -> Iterator:
    """Start `scorekeeper serve` (one process) with these settings; its log is kept."""

    @contextmanager
    def start(**settings: str) -> Iterator[Server]:
        env = {"SCOREKEEPER_POLL_HOLD": HOLD, "SCOREKEEPER_IDLE_SECONDS": HOLD, **settings}
        served = Server(tmp_path / "games.sqlite3", env=env, log=tmp_path / "server.log")
        try:
            yield served.start()
        finally:
            served.stop()

    return start


def connect(server: Server, source: str) -> socket.socket:
    """A connection to the server from ``source``, sending nothing yet."""
    return socket.create_connection(("127.0.0.1", server.port), 60, (source, 0))


def status(server: Server, source: str, phone: str | None = None, path: str = "/healthz"):
    """The status of a GET from ``source`` (on behalf of ``phone``, as the proxy says it) on a
    new connection, or "closed" when the server closed it unanswered."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=60, source_address=(source, 0)
    )
    try:
        connection.request("GET", path, headers={"X-Forwarded-For": phone} if phone else {})
        answer = connection.getresponse()
        answer.read()
        return answer.status
    except (ConnectionError, http.client.RemoteDisconnected):
        return "closed"
    finally:
        connection.close()


def poll(server: Server, path: str, tag: str, phone: str) -> http.client.HTTPConnection:
    """A live page's held poll, sent through the proxy on behalf of ``phone``."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=60, source_address=(PROXY, 0)
    )
    connection.request(
        "GET", path, headers={"HX-Request": "true", "If-None-Match": tag, "X-Forwarded-For": phone}
    )
    return connection


def held(server: Server) -> int:
    code, health = call(server.base + "/healthz", timeout=60)
    assert code == 200
    return int(health["live_pages"])


# --- finding 6: an IPv6 /64 is one address to every limit -----------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe"),  # one /64
        ("::ffff:198.51.100.7", "198.51.100.7"),  # IPv4-mapped IPv6 is the IPv4 address
    ],
)
def test_live_pages_count_an_ipv6_64_as_one_address(serve, first, second):
    with serve(SCOREKEEPER_TRUST_PROXY=PROXY, SCOREKEEPER_LIVE_PER_ADDRESS="1") as server:
        code, game = call(server.base + "/api/games", {"players": ["Ann", "Bob", "Cy"]})
        assert code == 201
        watch = game["view_url"].removeprefix(server.base)
        tag = shown_tag(server, watch)
        with ExitStack() as stack:
            waiting = poll(server, watch, tag, first)
            stack.callback(waiting.close)
            wait_until(lambda: held(server) >= 1, 60, "the first poll was not held")
            again = poll(server, watch, tag, second)
            stack.callback(again.close)
            assert again.getresponse().status == 429
            elsewhere = poll(server, watch, tag, "2001:db8:1:3::1")  # another /64
            stack.callback(elsewhere.close)
            wait_until(lambda: held(server) >= 2, 60, "another network's poll was not held")
