"""What one visitor may hold of the server, behind a proxy or not, and what the log says of
the connections that end badly (issue 38).

Each test starts `scorekeeper serve` as a family does and talks to it over real sockets.
Every visitor has its own loopback address (127.x.y.z); the trusted proxy is 127.0.0.1,
and a phone behind it is the address the proxy names in X-Forwarded-For. A limit counts
an IPv6 address by its /64 network, which is what one household or one phone is given.
"""

from __future__ import annotations

import http.client
import re
import socket
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from flask import request
from servers import Server, call, hand, shown_tag, wait_until

from scorekeeper import create_app, store
from scorekeeper.web.proxy import trust_setting

pytestmark = pytest.mark.server  # caps connections on a real server

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


# --- finding 3: behind a proxy, everyone else keeps a cap, and so does each phone ----------


def test_behind_a_proxy_an_address_that_is_not_the_proxy_keeps_its_cap(serve):
    """With SCOREKEEPER_TRUST_PROXY set, nobody had a connection cap: one address that
    reached the port directly held 19,930 connections, every one the server could serve."""
    with serve(SCOREKEEPER_TRUST_PROXY=PROXY, **CAPPED) as server, ExitStack() as stack:
        for _ in range(6):  # its cap, each connection kept open after its answer
            kept = http.client.HTTPConnection(
                "127.0.0.1", server.port, timeout=60, source_address=("127.0.9.9", 0)
            )
            stack.callback(kept.close)
            kept.request("GET", "/healthz")
            assert kept.getresponse().read()
        assert status(server, "127.0.9.9") == "closed"
        assert status(server, "127.0.9.10") == 200  # its neighbour is served


@pytest.mark.parametrize(
    ("peer", "chain"),
    [
        ("10.0.0.5", "203.0.113.9"),
        ("10.0.0.5", "198.51.100.1, 203.0.113.9"),  # what the phone wrote itself: not read
        ("10.0.0.5", "198.51.100.1, 203.0.113.9, 10.0.0.7"),  # through two named proxies
        ("10.0.0.5", "10.0.0.7"),  # a phone on the proxies' own network
        ("10.0.0.5", ""),  # the proxy's own request
        ("::ffff:10.0.0.5", "2001:db8::1"),  # the proxy, as a listener on :: sees it
        ("192.168.1.23", "203.0.113.9"),  # not a proxy: its own address, whatever it says
    ],
)
def test_the_server_counts_the_phone_the_app_sees(tmp_path, peer, chain):
    """The server reads a proxied request's phone before the app does (to count its
    connection); both read the same one."""
    app = create_app(
        {"DATABASE": str(tmp_path / "g.sqlite3"), "SECRET_KEY": "x", "TRUST_PROXY": "10.0.0.0/8"}
    )

    @app.get("/whoami")
    def whoami():
        return {"address": request.remote_addr}

    headers = {"X-Forwarded-For": chain} if chain else {}
    answer = app.test_client().get("/whoami", headers=headers, environ_base={"REMOTE_ADDR": peer})
    assert trust_setting(app).client(peer, chain) == answer.get_json()["address"]
    store.connection.close_all()


def unfinished_upload(server: Server, phone: str) -> socket.socket:
    """A connection from the proxy carrying a phone's request whose body never comes."""
    sock = connect(server, PROXY)
    sock.sendall(
        b"POST /api/games HTTP/1.1\r\nHost: scores.test\r\nContent-Type: application/json\r\n"
        + f"X-Forwarded-For: {phone}\r\nContent-Length: 100\r\n\r\n{{".encode()
    )
    return sock


def test_behind_a_proxy_each_phone_has_a_cap_of_its_own(serve):
    """A phone behind the proxy holding its cap of requests at once (six uploads that never
    finish, from six addresses of its /64) gets 429 for the next; other phones do not."""
    with serve(SCOREKEEPER_TRUST_PROXY=PROXY, **CAPPED) as server, ExitStack() as stack:
        for n in range(6):
            stack.callback(unfinished_upload(server, f"2001:db8:1:2::{n + 1:x}").close)
        wait_until(
            lambda: status(server, PROXY, "2001:db8:1:2::99") == 429,
            60,
            "a seventh request of the phone's was answered",
        )
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        connection.request("GET", "/healthz", headers={"X-Forwarded-For": "2001:db8:1:2::99"})
        refused = connection.getresponse()
        assert refused.status == 429 and int(refused.getheader("Retry-After")) > 0
        assert "Wait a minute" in refused.read().decode()
        connection.close()
        # a seventh upload is refused before its body is read, and its connection closed
        seventh, answer = unfinished_upload(server, "2001:db8:1:2::7"), b""
        while chunk := seventh.recv(65536):
            answer += chunk
        seventh.close()
        assert answer.startswith(b"HTTP/1.1 429") and b"Connection: close" in answer
        assert status(server, PROXY, "2001:db8:1:3::1") == 200  # the next /64: another phone
        assert status(server, PROXY, "203.0.113.7") == 200
        assert status(server, PROXY) == 200  # the proxy's own request (no phone named)
        stack.close()  # the uploads end: the phone is served again
        wait_until(
            lambda: status(server, PROXY, "2001:db8:1:2::99") == 200,
            60,
            "the phone stayed refused after its requests ended",
        )


WHOLE_REQUEST = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.7\r\n\r\n"


def test_a_proxys_connections_that_never_send_a_request_are_capped_too(serve):
    """Until its first request, a connection from the proxy counts against the proxy's own
    address; so connections that never send one cannot take the server either."""
    with serve(SCOREKEEPER_TRUST_PROXY=PROXY, **CAPPED) as server, ExitStack() as stack:
        silent = [connect(server, PROXY) for _ in range(6)]
        for sock in silent:
            stack.callback(sock.close)
        assert status(server, PROXY, "203.0.113.7") == "closed"
        # one of them sends its request: answered, and from then on it is the proxy's to keep
        silent[0].sendall(WHOLE_REQUEST)
        assert silent[0].recv(12) == b"HTTP/1.1 200"
        assert status(server, PROXY, "203.0.113.7") == 200


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


def test_behind_a_proxy_many_phones_share_its_address_without_its_cap(serve):
    """Twenty phones behind the proxy hold a live page each, far past one address's cap of
    connections, and a Save reaches every one."""
    with serve(SCOREKEEPER_TRUST_PROXY=PROXY, **CAPPED) as server, ExitStack() as stack:
        code, game = call(server.base + "/api/games", {"players": ["Ann", "Bob", "Cy"]})
        assert code == 201
        watch = game["view_url"].removeprefix(server.base)
        tag = shown_tag(server, watch)
        phones = [poll(server, watch, tag, f"203.0.113.{n + 1}") for n in range(20)]
        for connection in phones:
            stack.callback(connection.close)
        wait_until(lambda: held(server) >= 20, 60, "the twenty polls were not held")
        code, _ = call(game["hands_url"], {"hand_number": 1, "hand": hand(1)}, timeout=60)
        assert code == 201
        assert [connection.getresponse().status for connection in phones] == [200] * 20


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


# --- finding 4: a log that cannot flood --------------------------------------------------

HALF_SENT = b"GET / HTTP/1.1\r\nHost: scores.test\r\n"  # and never the blank line


def half_sent(server: Server, count: int, first: int) -> None:
    """``count`` connections, a hundred from each address, each sending part of a request;
    back once the server has closed every one (its idle timeout, set short)."""
    sockets = []
    try:
        for n in range(first, first + count):
            source = f"127.3.{n // 100 // 250}.{n // 100 % 250 + 2}"
            sock = connect(server, source)
            sockets.append(sock)
            sock.sendall(HALF_SENT)
        for sock in sockets:
            while sock.recv(4096):  # whatever the server says, until it closes
                pass
    finally:
        for sock in sockets:
            sock.close()


def summed(log: str, kind: str) -> int:
    """What the log's lines of counts say of ``kind``, in all ("...: 9,999 timed out")."""
    return sum(int(n.replace(",", "")) for n in re.findall(rf"[:,] (\d[\d,]*) {kind}", log))


def test_ten_thousand_half_sent_requests_add_little_to_the_log(serve, tmp_path):
    """Each half-sent request that reached the idle timeout was logged as an ERROR with its
    traceback, about 2.5 KB: 43,308 connections wrote 108 MB. Now one short line, then
    one line a minute at most that counts them."""
    log = tmp_path / "server.log"
    with serve(SCOREKEEPER_IDLE_SECONDS="1") as server:
        before = log.stat().st_size
        for batch in range(5):
            half_sent(server, 2000, first=batch * 2000)
        assert server.process is not None
        server.stop()  # what was counted since the last line is said as it stops
    text = log.read_text()
    added = log.stat().st_size - before
    assert added < 100_000, f"{added:,} bytes of log"
    assert "Traceback" not in text
    assert summed(text, "timed out") == 10_000, text[-2000:]
    assert max(len(line) for line in text.splitlines()) < 300


def test_a_malformed_request_line_is_not_written_to_the_log(serve, tmp_path):
    """gevent logged the line it could not read, an edit key in it if there was one."""
    with serve() as server:
        sock = connect(server, "127.0.9.9")
        sock.sendall(b"GET /g/GAME/SECRETEDITKEY HTTP/3.0\r\n\r\n")
        assert sock.recv(12) == b"HTTP/1.1 400"
        sock.close()
    text = Path(tmp_path / "server.log").read_text()
    assert "SECRETEDITKEY" not in text
    assert "Traceback" not in text


def test_polls_refused_at_the_servers_capacity_are_one_line_not_one_each(serve, tmp_path):
    """Each poll answered 503 wrote a line, and a poll can be sent again at once."""
    with serve(SCOREKEEPER_LIVE_MAX="1") as server, ExitStack() as stack:
        code, game = call(server.base + "/api/games", {"players": ["Ann", "Bob", "Cy"]})
        assert code == 201
        watch = game["view_url"].removeprefix(server.base)
        tag = shown_tag(server, watch)
        stack.callback(poll(server, watch, tag, "203.0.113.1").close)
        wait_until(lambda: held(server) >= 1, 60, "the first poll was not held")
        for _ in range(50):
            refused = poll(server, watch, tag, "203.0.113.2")
            assert refused.getresponse().status == 503
            refused.close()
    said = [line for line in (tmp_path / "server.log").read_text().splitlines() if "503" in line]
    assert len(said) <= 2, said  # the first, and the count said as the server stopped
