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

What keeps one visitor from crowding the others out:
- a cap on connections per address (twice the live pages an address may hold), and an
  idle connection is closed after ``IDLE_SECONDS``;
- the open-files limit raised to the system's hard limit, and the connections served at
  once kept below it, so the process never runs out of descriptors (it stops accepting
  for a moment instead, and says so once in the log);
- live pages past the caps are answered 429 or 503 by the app itself (web/live.py).
"""

from __future__ import annotations

import logging
import signal
import sys
import time
from typing import Any

log = logging.getLogger("scorekeeper.server")

IDLE_SECONDS = 75  # a connection that sends nothing for this long is closed (> POLL_HOLD)
RESERVED_FILES = 64  # descriptors kept for the games file, its log, logs and the listener


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


def server_class(per_address: int) -> type:
    """gevent's WSGI server with the guards above. ``per_address``: connections one address
    may keep open (0: no cap, as behind a proxy, where every phone shares its address).
    `serve` runs it alone, and each `serve --workers` process through gunicorn."""
    from gevent import pywsgi

    class Server(pywsgi.WSGIServer):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.open: dict[str, int] = {}
            self.said_full = False

        def handle(self, client: Any, address: Any) -> None:
            who = address[0] if isinstance(address, tuple) else str(address)
            if per_address and self.open.get(who, 0) >= per_address:
                client.close()  # this address has enough connections already
                return
            self.open[who] = self.open.get(who, 0) + 1
            client.settimeout(IDLE_SECONDS)
            try:
                super().handle(client, address)
            finally:
                left = self.open[who] - 1
                if left:
                    self.open[who] = left
                else:
                    del self.open[who]

        def do_handle(self, *args: Any) -> None:
            if self.pool is not None and self.pool.free_count() <= 1 and not self.said_full:
                self.said_full = True
                log.warning("at capacity: %s connections open; new ones wait", len(self.pool))
            elif self.said_full and self.pool is not None and self.pool.free_count() > 100:
                self.said_full = False
            super().do_handle(*args)

    return Server


def run(app: Any, host: str, port: int, *, per_address: int) -> None:
    """Serve ``app`` in this process until Ctrl+C or SIGTERM."""
    import gevent
    from gevent.pool import Pool

    pool = Pool(capacity(app))
    server = server_class(per_address)(
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


YIELD_SECONDS = 0.005  # long work lets the others run at least this often


def let_others_run() -> None:
    """Between the games of a long piece of work (a table's import, its statistics, its
    backup): under gevent, let the other requests of the process run before the next game,
    if the work has run YIELD_SECONDS since it last did; under threads, a moment's yield
    (each gives the processor up to other programs too, so not after every game). Nothing
    here waits."""
    global _yielded
    now = time.monotonic()
    if now - _yielded >= YIELD_SECONDS:
        _yielded = now
        time.sleep(0)


_yielded = 0.0
