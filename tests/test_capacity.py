"""A thousand tables on one server: live pages hold no thread, one address cannot crowd the
others out, and open connections cannot crash the process (issue 28).

Each test starts `scorekeeper serve` as a family does and talks to it as the page does: a
live page is a held poll (its own URL, `HX-Request`, `If-None-Match` with the tag the page
shows). Every phone has its own loopback address (127.0.0.x), as phones on a Wi-Fi have
their own. Polls are held far longer than any test waits (SCOREKEEPER_POLL_HOLD), so an
answer can only come from what a test does, never from a timer running out.
"""

from __future__ import annotations

import http.client
import socket
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest
from servers import Server, call, hand, shown_tag, wait_until

pytestmark = pytest.mark.server  # holds thousands of connections to a real server

HOLD = "600"  # seconds a poll is held: far longer than any test runs


@pytest.fixture
def serve(tmp_path):
    """Start `scorekeeper serve` with these settings (on top of the long hold)."""

    @contextmanager
    def start(workers: int = 1, **settings: str) -> Iterator[Server]:
        served = Server(
            tmp_path / "games.sqlite3",
            workers=workers,
            env={"SCOREKEEPER_POLL_HOLD": HOLD, **settings},
        ).start()
        try:
            yield served
        finally:
            served.stop()

    return start


@pytest.fixture
def server(serve) -> Iterator[Server]:
    with serve() as served:
        yield served


def new_game(server: Server) -> dict:
    status, game = call(server.base + "/api/games", {"players": ["Ann", "Bob", "Cy"]})
    assert status == 201, game
    return game


def phone(server: Server, number: int) -> http.client.HTTPConnection:
    """A connection from phone ``number``'s own loopback address."""
    address = f"127.0.{number // 250}.{number % 250 + 2}"
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=60, source_address=(address, 0)
    )
    connection.connect()
    return connection


def start_poll(connection: http.client.HTTPConnection, path: str, tag: str) -> None:
    connection.request("GET", path, headers={"HX-Request": "true", "If-None-Match": tag})


def answered(connection: http.client.HTTPConnection) -> bool:
    """Whether the server has begun answering this connection's request (without reading)."""
    assert connection.sock is not None
    connection.sock.setblocking(False)
    try:
        return bool(connection.sock.recv(1, socket.MSG_PEEK))
    except BlockingIOError:
        return False
    finally:
        connection.sock.setblocking(True)


@contextmanager
def held_polls(server: Server, path: str, count: int, first: int = 0) -> Iterator[list]:
    tag = shown_tag(server, path)
    with ExitStack() as stack:
        phones = []
        for number in range(first, first + count):
            connection = phone(server, number)
            stack.callback(connection.close)
            start_poll(connection, path, tag)
            phones.append(connection)
        yield phones


def test_a_save_is_answered_while_more_pages_wait_than_waitress_had_threads(server):
    """Waitress held a thread per waiting page: from the 33rd, a Save waited for a poll's
    hold to end (here 600 s). Now 200 pages wait and the Save is answered all the same."""
    game = new_game(server)
    watch = game["view_url"].removeprefix(server.base)
    with held_polls(server, watch, 200) as phones:
        status, saved = call(game["hands_url"], {"hand_number": 1, "hand": hand(1)}, timeout=60)
        assert status == 201, saved
        status, _ = call(server.base + "/healthz", timeout=60)
        assert status == 200
        # ...and every waiting page is told, at once, with the new scores
        for connection in phones:
            answer = connection.getresponse()
            assert answer.status == 200
            assert "Hand <strong>2</strong>" in answer.read().decode()


def test_a_hand_at_one_table_does_not_answer_another_tables_pages(server):
    ours, theirs = new_game(server), new_game(server)
    watch = theirs["view_url"].removeprefix(server.base)
    with held_polls(server, watch, 5) as phones:
        status, _ = call(ours["hands_url"], {"hand_number": 1, "hand": hand(1)}, timeout=60)
        assert status == 201
        status, _ = call(theirs["hands_url"], {"hand_number": 1, "hand": hand(1)}, timeout=60)
        assert status == 201
        for connection in phones:  # woken by their own game's hand, showing it
            assert "Hand <strong>2</strong>" in connection.getresponse().read().decode()


@pytest.fixture
def capped(serve) -> Iterator[Server]:
    """A server where one address may hold three live pages (and six connections)."""
    with serve(SCOREKEEPER_LIVE_PER_ADDRESS="3") as served:
        yield served


def test_an_address_past_its_cap_gets_429_and_nobody_else_notices(capped):
    server = capped
    game = new_game(server)
    watch = game["view_url"].removeprefix(server.base)
    tag = shown_tag(server, watch)
    with ExitStack() as stack:
        greedy = []
        for _ in range(3):  # one address, three live pages: within its cap
            connection = phone(server, 7)
            stack.callback(connection.close)
            start_poll(connection, watch, tag)
            greedy.append(connection)
        wait_until(lambda: _held(server) >= 3, 60, "the three polls were not held")
        fourth = phone(server, 7)
        stack.callback(fourth.close)
        start_poll(fourth, watch, tag)
        refused = fourth.getresponse()
        assert refused.status == 429
        assert int(refused.getheader("Retry-After")) > 0
        assert "Too many live pages" in refused.read().decode()
        neighbour = phone(server, 8)  # another phone on another address is held as usual
        stack.callback(neighbour.close)
        start_poll(neighbour, watch, tag)
        status, _ = call(game["hands_url"], {"hand_number": 1, "hand": hand(1)}, timeout=60)
        assert status == 201
        for connection in [*greedy, neighbour]:
            assert connection.getresponse().status == 200


def _held(server: Server) -> int:
    """Live pages the server holds now (its health answer says)."""
    status, health = call(server.base + "/healthz", timeout=60)
    assert status == 200
    return int(health["live_pages"])


@pytest.mark.parametrize("workers", [1, 2], ids=["one process", "two workers"])
def test_two_thousand_open_connections_do_not_stop_the_server(serve, workers):
    """Waitress used select(): about a thousand connections killed the process."""
    with serve(workers) as server:
        game = new_game(server)
        sockets = []
        try:
            for number in range(2000):
                address = f"127.1.{number // 200}.{number % 200 + 2}"  # ten phones an address
                where = ("127.0.0.1", server.port)
                sockets.append(socket.create_connection(where, 60, (address, 0)))
            status, _ = call(game["hands_url"], {"hand_number": 1, "hand": hand(1)}, timeout=60)
            assert status == 201
            assert server.process is not None and server.process.poll() is None
        finally:
            for sock in sockets:
                sock.close()
        status, _ = call(server.base + "/healthz", timeout=60)
        assert status == 200


@pytest.mark.parametrize("workers", [1, 2], ids=["one process", "two workers"])
def test_one_address_cannot_hold_every_connection(serve, workers):
    """Past twice its live-page cap, an address's further connections are closed at once;
    another address is served."""
    with serve(workers, SCOREKEEPER_LIVE_PER_ADDRESS="3") as server:
        sockets = []
        try:
            for _ in range(50):
                sockets.append(
                    socket.create_connection(("127.0.0.1", server.port), 60, ("127.0.9.9", 0))
                )
            probe = sockets[-1]
            assert probe.recv(1) == b""  # closed by the server, not served
            status, _ = call(server.base + "/healthz", timeout=60)
            assert status == 200
        finally:
            for sock in sockets:
                sock.close()


def test_a_poll_past_the_servers_capacity_gets_503_and_a_save_still_works(serve):
    with serve(SCOREKEEPER_LIVE_MAX="2") as server:
        game = new_game(server)
        watch = game["view_url"].removeprefix(server.base)
        with held_polls(server, watch, 2):
            wait_until(lambda: _held(server) >= 2, 60, "the two polls were not held")
            with held_polls(server, watch, 1, first=50) as (late,):
                refused = late.getresponse()
                assert refused.status == 503
                assert int(refused.getheader("Retry-After")) > 0
            status, _ = call(game["hands_url"], {"hand_number": 1, "hand": hand(1)}, timeout=60)
            assert status == 201


def test_polls_are_held_without_a_thread_each(server):
    """The process's threads do not grow with the pages waiting."""
    game = new_game(server)
    watch = game["view_url"].removeprefix(server.base)
    assert server.process is not None
    before = _threads(server.process.pid)
    with held_polls(server, watch, 300):
        wait_until(lambda: _held(server) >= 300, 60, "the polls were not held")
        assert _threads(server.process.pid) <= before + 2


def _threads(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return int(next(line for line in status if line.startswith("Threads:")).split()[1])


# --- `serve` on a machine with more than one core runs a worker per core (serve/workers.py) ------


def test_with_two_workers_a_save_wakes_the_pages_waiting_in_both(serve):
    """Each worker holds the pages it accepted; a commit in one reaches the other's within
    dbfile.NOTICE, and every page shows the hand."""
    with serve(2) as server:
        game = new_game(server)
        watch = game["view_url"].removeprefix(server.base)
        with held_polls(server, watch, 100) as phones:
            status, _ = call(game["hands_url"], {"hand_number": 1, "hand": hand(1)}, timeout=60)
            assert status == 201
            for connection in phones:
                answer = connection.getresponse()
                assert answer.status == 200
                assert "Hand <strong>2</strong>" in answer.read().decode()


def test_with_two_workers_an_address_holds_no_more_than_its_cap_in_all(serve):
    with serve(2, SCOREKEEPER_LIVE_PER_ADDRESS="4") as server:
        game = new_game(server)
        watch = game["view_url"].removeprefix(server.base)
        tag = shown_tag(server, watch)
        with ExitStack() as stack:
            greedy = []
            for _ in range(5):  # one address, one page past its cap, whichever worker
                connection = phone(server, 7)
                stack.callback(connection.close)
                start_poll(connection, watch, tag)
                greedy.append(connection)
            neighbour = phone(server, 8)
            stack.callback(neighbour.close)
            start_poll(neighbour, watch, tag)
            status, _ = call(game["hands_url"], {"hand_number": 1, "hand": hand(1)}, timeout=60)
            assert status == 201
            answers = [_status(connection) for connection in greedy]
            assert answers.count(200) <= 4 and set(answers) <= {200, 429, "closed"}
            assert neighbour.getresponse().status == 200


def _status(connection: http.client.HTTPConnection) -> int | str:
    """The answer's status, or "closed": a worker already holding this address's share of
    connections closes the next one at once (serve/server.py) rather than answer it 429."""
    try:
        return connection.getresponse().status
    except (ConnectionError, http.client.RemoteDisconnected):
        return "closed"
