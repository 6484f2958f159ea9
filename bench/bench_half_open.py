"""Half-sent connections from one address, with a trusted proxy named (issue 38).

Not a test: it prints figures (docs/benchmarks.md has them).

    .venv/bin/python bench/bench_half_open.py                     # 19,930 connections
    .venv/bin/python bench/bench_half_open.py --connections 5000 --idle 5

`scorekeeper serve` starts with its defaults (a worker per core here) and
SCOREKEEPER_TRUST_PROXY=127.0.0.1, as behind Caddy on the same machine. One address that
is not the proxy (127.0.9.9) reaches the port directly and opens --connections
connections, each sending part of a request and then nothing (with --silent, nothing at
all). Printed: how many the server kept open, its RSS (every process), how long a request
from another address took while they were open, and how much its log grew once its idle
timeout (--idle, else serve's own) had closed them all. Run it from a checkout of another
commit (copy the script in) to compare; --idle is ignored by a server without the setting.
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HALF_SENT = b"GET / HTTP/1.1\r\nHost: scores.example.org\r\n"  # and never the blank line
GREEDY, NEIGHBOUR = "127.0.9.9", "127.0.9.10"
IP_BIND_ADDRESS_NO_PORT = 24  # Linux's, not named by Python's socket module


def start_server(folder: Path, idle: int | None) -> tuple[subprocess.Popen, int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "SCOREKEEPER_TRUST_PROXY": "127.0.0.1"}
    if idle:
        env["SCOREKEEPER_IDLE_SECONDS"] = str(idle)
    server = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1"]
        + ["--port", str(port), "--db", str(folder / "games.sqlite3"), "--no-qr"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=open(folder / "server.log", "wb"),  # noqa: SIM115 (kept for the run)
        env=env,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return server, port
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


class Sampler(threading.Thread):
    """Every half second: the server's RSS and open sockets (every process); every two,
    how long a request from another address takes. The largest of each is kept."""

    def __init__(self, pid: int, port: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.port = pid, port
        self.rss = self.sockets = 0
        self.probes: list[float] = []
        self.done = threading.Event()
        self.base_rss, self.base_sockets = self.sample()

    def processes(self) -> list[int]:
        children = Path(f"/proc/{self.pid}/task/{self.pid}/children").read_text().split()
        return [self.pid, *map(int, children)]

    def sample(self) -> tuple[int, int]:
        rss = sockets = 0
        for pid in self.processes():
            try:
                status = Path(f"/proc/{pid}/status").read_text().splitlines()
                fds = list(Path(f"/proc/{pid}/fd").iterdir())
            except FileNotFoundError:
                continue
            rss += next(int(line.split()[1]) * 1024 for line in status if "VmRSS" in line)
            sockets += sum(1 for fd in fds if _is_socket(fd))
        return rss, sockets

    def run(self) -> None:
        ticks = 0
        while not self.done.wait(0.5):
            rss, sockets = self.sample()
            self.rss, self.sockets = max(self.rss, rss), max(self.sockets, sockets)
            ticks += 1
            if ticks % 4 == 0:
                self.probes.append(probe(self.port))


def _is_socket(fd: Path) -> bool:
    try:
        return os.readlink(fd).startswith("socket:")
    except OSError:
        return False


def connect(port: int, source: str) -> socket.socket:
    """A connection from ``source``, its port chosen at connect() rather than bind(): with
    twenty thousand open from one address, bind() spends seconds finding a free one."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_IP, IP_BIND_ADDRESS_NO_PORT, 1)
    sock.settimeout(120)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def probe(port: int) -> float:
    """Seconds a request from another address takes."""
    started = time.perf_counter()
    connection = socket.create_connection(("127.0.0.1", port), 120, (NEIGHBOUR, 0))
    connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    while connection.recv(65536):
        pass
    connection.close()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=19_930)
    parser.add_argument("--idle", type=int, help="SCOREKEEPER_IDLE_SECONDS (default: serve's)")
    parser.add_argument(
        "--silent", action="store_true", help="send nothing at all (half-open, not half-sent)"
    )
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory() as folder:
        server, port = start_server(Path(folder), args.idle)
        log = Path(folder) / "server.log"
        sampler = Sampler(server.pid, port)
        before = log.stat().st_size
        try:
            sampler.start()
            started = time.perf_counter()
            sockets = []
            for _ in range(args.connections):
                try:
                    sock = connect(port, GREEDY)
                    sockets.append(sock)
                    if not args.silent:
                        sock.sendall(HALF_SENT)
                except OSError as error:
                    print(f"stopped opening after {len(sockets):,}: {error}")
                    break
            opened = time.perf_counter() - started
            for sock in sockets:  # the server closes each, at once or at its idle timeout
                try:
                    while sock.recv(65536):
                        pass
                except OSError:
                    pass
                sock.close()
            closed = time.perf_counter() - started
            sampler.done.set()
            sampler.join()
        finally:
            os.killpg(server.pid, 15)
            server.wait(timeout=30)
        added = log.read_bytes()[before:]  # with what the server said as it stopped
        grown, lines = len(added), added.count(b"\n")
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    probes = sorted(sampler.probes)
    mb = 2**20
    print(f"{len(sockets):,} connections from {GREEDY} opened in {opened:.1f} s, all closed")
    print(f"by the server {closed:.0f} s after the first was opened")
    print(f"most held by the server at once: {sampler.sockets - sampler.base_sockets:,}")
    print(f"server RSS: {sampler.base_rss / mb:.0f} MB before, {sampler.rss / mb:.0f} MB most")
    print(
        f"a request from {NEIGHBOUR} meanwhile: median {probes[len(probes) // 2]:.2f} s, "
        f"slowest {probes[-1]:.2f} s ({len(probes)} requests)"
        if probes
        else "no request from another address was made"
    )
    print(f"log grew by {grown:,} bytes ({lines:,} lines)")
    if lines <= 20:
        print(added.decode(errors="replace"), end="")


if __name__ == "__main__":
    main()
