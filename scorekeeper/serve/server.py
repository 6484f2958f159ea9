"""How `serve` answers every phone: gevent's WSGI server, a greenlet per connection.

A live page's poll waits for its game for up to 30 s (web/live.py). Under a server
with a thread per request (waitress), each waiting page held one of its 32 threads,
so the sixth table's Save queued behind the others' polls. Here a waiting page is a
parked greenlet and a socket: thousands cost a few tens of MB, a Save or a page load
never waits behind them, and the event loop (epoll, kqueue or IOCP, through libev or
libuv) has no `select()` ceiling. The Flask app is unchanged: gevent patches the
standard library before the app serves, so its locks, sleeps and conditions yield
to other requests instead of blocking the process (docs/decisions.md has the
figures behind the choice).

What keeps one visitor from crowding the others out (``Guards``):
- a cap on connections per address (twice the live pages an address may hold; an IPv6
  address's /64, limit_counts.counted_as), and an idle connection is closed after
  ``IDLE_SECONDS`` (``SCOREKEEPER_IDLE_SECONDS``);
- behind a trusted proxy, whose connections carry many phones, the cap is each phone's:
  a connection from the proxy counts against the proxy's own address until its first
  request is read (so connections that never send one are capped too), then against
  the phone of each request while it is served, and against nobody between requests,
  where the proxy keeps it for its next one (its own pool's size and the idle timeout
  bound those). A phone past its cap is answered 429 (web/security.py). Anyone else
  who reaches the port keeps the cap of their own address;
- the open-files limit raised to the system's hard limit, and the connections served at
  once kept below it, so the process never runs out of descriptors (it stops accepting
  for a moment instead, and says so once in the log);
- live pages past the caps are answered 429 or 503 by the app itself (web/live.py);
- a connection that ends badly (half a request and then nothing, a request that is not
  HTTP, one refused at its cap) is counted, not logged with a traceback each, and said
  in a line a minute at most (connection_log.py), so no visitor can fill the disk.
"""

from __future__ import annotations

import logging
import signal
import sys
from dataclasses import dataclass
from typing import Any, Protocol

from ..store.limit_counts import counted_as
from ..web import connection_log

log = logging.getLogger("scorekeeper.server")

IDLE_SECONDS = 75  # a connection that sends nothing for this long is closed (> POLL_HOLD)
RESERVED_FILES = 64  # descriptors kept for the games file, its log, logs and the listener
BAD_REQUEST = b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


class Proxy(Protocol):
    """The reverse proxy the app trusts (web/proxy.py's ``Trust``)."""

    def trusts(self, address: str) -> bool: ...

    def client(self, peer: str, forwarded_for: str) -> str: ...


@dataclass(frozen=True)
class Guards:
    """What `serve` was told about connections (docs/scaling.md)."""

    per_address: int = 0  # connections one address may keep open (0: no cap)
    idle_seconds: float = IDLE_SECONDS  # a connection that sends nothing this long is closed
    proxy: Proxy | None = None  # whose connections carry many phones, each with its own cap


class Counts:
    """Connections open now, by the address each counts against, within a cap (0: none).
    One greenlet at a time touches it: no lock."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open: dict[str, int] = {}

    def take(self, who: str) -> bool:
        """Count one more against ``who``, unless it holds its cap already."""
        held = self.open.get(who, 0)
        if self.cap and held >= self.cap:
            return False
        self.open[who] = held + 1
        return True

    def give_back(self, who: str) -> None:
        left = self.open[who] - 1
        if left:
            self.open[who] = left
        else:
            del self.open[who]


def patch() -> None:
    """Make the standard library cooperative (gevent's monkey patching), before any
    request is served: ``serve`` calls this once the app is made."""
    from gevent import monkey

    if not monkey.is_module_patched("socket"):
        # ssl stays as it is: HTTPS is a proxy's job here (self-hosting.md), and patching a
        # module already imported (by urllib3, say) is what gevent warns against
        monkey.patch_all(ssl=False)


def open_files_limit() -> int:
    """Raise this process's open-files limit to the hard limit where the system allows it;
    the limit now (a large number where the system sets none, as on Windows)."""
    try:
        import resource
    except ImportError:  # Windows: no per-process limit to speak of for sockets
        return 65_536
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65_536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 65_536


def capacity(app: Any) -> int:
    """Connections served at once: what the open-files limit allows, and no more than the
    live pages allowed plus room for Saves and page loads. Live pages are capped below it
    (LIVE_MAX), so they are refused with a 503 before the server stops accepting."""
    files = open_files_limit() - RESERVED_FILES
    connections = max(files, 16)
    room = max(connections // 10, 16)  # for Saves and page loads when live pages are at cap
    app.config["LIVE_MAX"] = min(app.config["LIVE_MAX"] or connections, connections - room)
    return connections


def check_address(host: str, port: int) -> None:
    """An OSError now if ``host:port`` cannot be listened on (in use, not this machine's)."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))


def server_class(guards: Guards) -> type:
    """gevent's WSGI server with the guards above. `serve` runs it alone, and each
    `serve --workers` process through gunicorn (each with its share of the caps)."""
    from gevent import pywsgi

    proxy = guards.proxy

    class Guarded(pywsgi.WSGIHandler):
        """A connection's handler that knows whose count the connection is on (``holder``;
        None between a proxy's requests) and moves it to each proxied request's phone."""

        holder: str | None = None
        peer = ""  # the address the connection came from
        proxied = False  # from the trusted proxy: each request counts against its phone
        crowded = False  # this request's phone holds its cap: answered 429, then closed

        def handle_one_response(self) -> None:
            if not self.proxied or proxy is None:
                return super().handle_one_response()
            counts: Counts = self.server.counts
            forwarded_for = self.environ.get("HTTP_X_FORWARDED_FOR", "")
            phone = counted_as(proxy.client(self.peer, forwarded_for))
            if phone != self.holder:
                if counts.take(phone):
                    if self.holder is not None:
                        counts.give_back(self.holder)
                    self.holder = phone
                else:
                    self.refuse()
            try:
                return super().handle_one_response()
            finally:
                if self.holder is not None:  # served: the proxy keeps it for its next request
                    counts.give_back(self.holder)
                    self.holder = None

        def refuse(self) -> None:
            """Have the app answer 429 (web/security.py), read nothing of the body (a phone
            at its cap may be sending slow ones), and close the connection after."""
            self.crowded = True
            self.environ[connection_log.CROWDED] = True
            self.wsgi_input = self.environ["wsgi.input"] = pywsgi.Input(self.rfile, 0)

        def start_response(self, status: Any, headers: Any, exc_info: Any = None) -> Any:
            if self.crowded:  # its body is left unread: the connection can carry no more
                headers = [*headers, ("Connection", "close")]
            return super().start_response(status, headers, exc_info)

        def _handle_client_error(self, ex: BaseException) -> tuple[str, bytes] | None:
            """A request that stopped coming, broke off or is not HTTP: counted, not logged
            with its traceback and what was sent (gevent's hook for its subclasses)."""
            kind = connection_log.kind_of(ex)
            self.server.tally.note(kind, counted_as(self.peer))
            return ("400", BAD_REQUEST) if kind == connection_log.MALFORMED else None

        def handle_error(self, t: Any, v: Any, tb: Any) -> None:
            """A phone that stopped reading its answer, or left: counted, as above. Anything
            else is the app's or the server's own error, and logged in full."""
            if isinstance(v, TimeoutError | ConnectionError):
                self.server.tally.note(connection_log.kind_of(v), counted_as(self.peer))
                self.close_connection = True
            else:
                super().handle_error(t, v, tb)

    class Server(pywsgi.WSGIServer):
        handler_class: type

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # gunicorn's worker gives its own handler class: ours goes on top of it
            if not issubclass(self.handler_class, Guarded):
                self.handler_class = type("Guarded", (Guarded, self.handler_class), {})
            self.counts = Counts(guards.per_address)
            self.tally = connection_log.Tally(log, "connections")
            self.said_full = False

        def handle(self, client: Any, address: Any) -> None:
            peer = address[0] if isinstance(address, tuple) else str(address)
            who = counted_as(peer)
            if not self.counts.take(who):
                client.close()  # this address (or the proxy's) has enough connections already
                self.tally.note(connection_log.REFUSED, who)
                return
            client.settimeout(guards.idle_seconds)
            handler = self.handler_class(client, address, self)
            handler.holder, handler.peer = who, peer
            handler.proxied = proxy is not None and proxy.trusts(peer)
            try:
                handler.handle()
            except (TimeoutError, ConnectionError) as error:  # while a 400 was sent, say
                self.tally.note(connection_log.kind_of(error), who)
            finally:
                if handler.holder is not None:
                    self.counts.give_back(handler.holder)

        def close(self) -> None:
            super().close()
            self.tally.say()  # what was counted since the last line, as the server stops

        def do_handle(self, *args: Any) -> None:
            if self.pool is not None and self.pool.free_count() <= 1 and not self.said_full:
                self.said_full = True
                log.warning("at capacity: %s connections open; new ones wait", len(self.pool))
            elif self.said_full and self.pool is not None and self.pool.free_count() > 100:
                self.said_full = False
            super().do_handle(*args)

    return Server


def run(app: Any, host: str, port: int, guards: Guards) -> None:
    """Serve ``app`` in this process until Ctrl+C or SIGTERM."""
    import gevent
    from gevent.pool import Pool

    pool = Pool(capacity(app))
    server = server_class(guards)(
        (host, port), app, spawn=pool, log=None, error_log=log, backlog=2048
    )  # no access log: edit links are keys
    server.init_socket()  # an address in use is said now, as an OSError

    def stop() -> None:
        server.stop(timeout=10)  # requests in progress finish; then serve_forever returns

    if hasattr(signal, "SIGTERM") and sys.platform != "win32":
        # docker stop, systemd, kill: as Ctrl+C (a replica gets its last sync)
        gevent.signal_handler(signal.SIGTERM, stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        server.stop(timeout=10)
    sys.stdout.flush()
