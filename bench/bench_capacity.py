"""Capacity benchmark: many tables at once on one `scorekeeper serve`, every phone its own.

Not a test: it prints figures (docs/benchmarks.md has them and says how to read them).

    .venv/bin/python bench/bench_capacity.py                  # 10, 50, 200 and 1000 tables
    .venv/bin/python bench/bench_capacity.py --tables 50 --seconds 60 --chromium 3

For each size a fresh `scorekeeper serve` starts with its defaults on a new games file
(only the creation limit is raised, so the games can be made in one go). Each table is
a scorekeeper and five watch phones; every phone is its own client with its own
loopback address (127.x.y.z), and does what the page does: it opens its page, then
polls the page's own `hx-get` URL with `HX-Request: true` and the `If-None-Match` tag
from the page's attributes; a 304 waits POLL_SECONDS and asks again, a 200 brings the
next tag. Each table records a hand through the API every 10-30 s (at random), then
loads the scorekeeper's page. With --chromium N, N real chromium pages also watch the
first table, to show the protocol is the page's.

Printed per size: Save p50/p95/max (the API call), the time until every phone of the
table shows the hand (p50/p95, from the Save's start), errors, the server's CPU share
of one core, its largest RSS and its open connections. The load generator is one
asyncio process and may use the other core.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
WATCHERS = 5
POLL_SECONDS = 2  # the app's default: a page asks again this soon after a 304
LIVE = re.compile(r'data-live hx-get="([^"]+)"[^>]*?hx-headers=\'(\{[^\']+\})\'')


def hand(number: int) -> dict:
    """Hand N of a long game: the players go out in turn, the others keep 50 (nobody makes
    phase 10 before hand 37, far beyond any run)."""
    out = PLAYERS[(number - 1) % len(PLAYERS)]
    return {"went_out": out, "made": [out], "points": {p: 50 for p in PLAYERS if p != out}}


# --- a small HTTP/1.1 client: keep-alive, one request at a time, from a chosen address ------


class Phone:
    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes]:
        for attempt in range(2):  # a keep-alive connection the server closed: open again
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(
                        "127.0.0.1", self.port, local_addr=(self.address, 0)
                    )
                return await self._exchange(method, path, headers or {}, body)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def _exchange(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        assert self.reader is not None and self.writer is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readuntil(b"\r\n")
        if not status_line:
            raise ConnectionError("closed")
        status = int(status_line.split()[1])
        answer: dict[str, str] = {}
        while (line := await self.reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.decode("latin-1").partition(":")
            answer[name.strip().lower()] = value.strip()
        length = int(answer.get("content-length", "0"))
        data = await self.reader.readexactly(length) if length else b""
        if answer.get("connection", "").lower() == "close":
            self.close()
        return status, answer, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def address(number: int) -> str:
    """Phone ``number``'s own loopback address."""
    return f"127.{1 + number // 62500}.{number // 250 % 250}.{number % 250 + 2}"


# --- a table: a scorekeeper recording hands, five phones watching --------------------------


@dataclass
class Figures:
    saves: list[float] = field(default_factory=list)
    shown: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    chromium: list[float] = field(default_factory=list)


class Table:
    def __init__(self, run: Run, number: int, game: dict) -> None:
        self.run, self.number, self.game = run, number, game
        base = run.base
        self.edit = game["edit_url"].removeprefix(base)
        self.view = game["view_url"].removeprefix(base)
        self.hands = game["hands_url"].removeprefix(base)
        self.version = 1
        self.saved_at: dict[int, float] = {}  # version -> when its Save started
        self.seen: dict[int, set[int]] = {}  # version -> phones that show it

    async def watch(self, phone: Phone, path: str, seat: int) -> None:
        """One phone: open the page, then poll it as the page does."""
        status, _, html = await phone.request("GET", path)
        if status != 200:
            self.run.figures.errors.append(f"page {status}")
            return
        found = LIVE.search(html.decode())
        if not found:
            self.run.figures.errors.append("no live part")
            return
        url, tag = found[1], json.loads(found[2])["If-None-Match"]
        self.run.opened += 1
        while not self.run.stopping:
            try:
                status, _, body = await phone.request(
                    "GET", url, {"HX-Request": "true", "If-None-Match": tag}
                )
            except (OSError, asyncio.IncompleteReadError) as error:
                self.run.figures.errors.append(f"poll {type(error).__name__}")
                await asyncio.sleep(POLL_SECONDS)
                continue
            if status == 200:
                found = LIVE.search(body.decode())
                if found:
                    tag = json.loads(found[2])["If-None-Match"]
                    self.shows(int(tag.strip('"').split(".")[0]), seat)
            elif status not in (204, 304):
                self.run.figures.errors.append(f"poll {status}")
            await asyncio.sleep(POLL_SECONDS if status != 200 else 0)

    def shows(self, version: int, seat: int) -> None:
        for saved, started in self.saved_at.items():
            if version >= saved and seat not in self.seen.setdefault(saved, set()):
                self.seen[saved].add(seat)
                if len(self.seen[saved]) == WATCHERS + 1 and self.run.measuring:
                    self.run.figures.shown.append(time.perf_counter() - started)

    async def keep_score(self, phone: Phone) -> None:
        await asyncio.sleep(random.uniform(0, 20))  # tables did not all start together
        number = 1
        while not self.run.stopping:
            body = json.dumps({"hand_number": number, "hand": hand(number)}).encode()
            started = time.perf_counter()
            self.saved_at[self.version + 1] = started
            try:
                status, _, answer = await phone.request("POST", self.hands, body=body)
            except (OSError, asyncio.IncompleteReadError) as error:
                self.run.figures.errors.append(f"save {type(error).__name__}")
                await asyncio.sleep(5)
                continue
            if status != 201:
                self.run.figures.errors.append(f"save {status} {answer[:80]!r}")
                return
            if self.run.measuring:
                self.run.figures.saves.append(time.perf_counter() - started)
            self.version = json.loads(answer)["version"]
            status, _, _ = await phone.request("GET", self.edit)  # the page after Save
            self.shows(self.version, 0)
            number += 1
            await asyncio.sleep(random.uniform(10, 30))


class Run:
    def __init__(self, base: str, port: int) -> None:
        self.base, self.port = base, port
        self.figures = Figures()
        self.stopping = False
        self.measuring = False
        self.opened = 0  # phones whose page is open


async def make_games(port: int, base: str, count: int) -> list[dict]:
    phone = Phone(port, "127.0.0.1")
    games = []
    for _ in range(count):
        body = json.dumps({"players": PLAYERS}).encode()
        status, _, answer = await phone.request("POST", "/api/games", body=body)
        assert status == 201, answer
        games.append(json.loads(answer))
    phone.close()
    return games


async def play(
    port: int, tables: int, seconds: float, sampler: Sampler, chromium: int
) -> tuple[Figures, str]:
    base = f"http://127.0.0.1:{port}"
    run = Run(base, port)
    games = await make_games(port, base, tables)
    phones: list[Phone] = []
    tasks = []
    first: Table | None = None
    for number, game in enumerate(games):
        table = Table(run, number, game)
        first = first or table
        keeper_address = address(number * (WATCHERS + 1))
        keeper = Phone(port, keeper_address)
        keeper_poll = Phone(port, keeper_address)
        phones += [keeper, keeper_poll]
        tasks.append(asyncio.create_task(table.watch(keeper_poll, table.edit, 0)))
        for seat in range(1, WATCHERS + 1):
            phone = Phone(port, address(number * (WATCHERS + 1) + seat))
            phones.append(phone)
            tasks.append(asyncio.create_task(table.watch(phone, table.view, seat)))
        tasks.append(asyncio.create_task(table.keep_score(keeper)))
        if number % 50 == 49:
            await asyncio.sleep(0.5)  # phones open their pages over a few seconds, not at once
    while run.opened < tables * (WATCHERS + 1) and not run.figures.errors:
        await asyncio.sleep(1)  # every page open...
    await asyncio.sleep(10)  # ...and the first hands saved
    run.measuring = True
    sampler.start()
    assert first is not None
    watched = asyncio.create_task(chromium_watchers(base, first, chromium, seconds))
    await asyncio.sleep(seconds)
    sampler.stop()
    run.measuring = False
    said = await watched
    run.stopping = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for phone in phones:
        phone.close()
    return run.figures, said


# --- the server and what it costs ----------------------------------------------------------


class Sampler:
    """The server's CPU time, largest RSS and open connections while measuring: its process
    and, with `--workers`, every worker (its children); and the load generator's CPU."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.rss = 0
        self.connections = 0
        self._cpu = self._wall = self._own = 0.0
        self.cpu_share = self.load_share = 0.0
        self._task: asyncio.Task | None = None

    def processes(self) -> list[int]:
        children = Path(f"/proc/{self.pid}/task/{self.pid}/children").read_text().split()
        return [self.pid, *map(int, children)]

    def cpu(self) -> float:
        total = 0
        for pid in self.processes():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except FileNotFoundError:
                continue
            total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")

    def start(self) -> None:
        self._cpu, self._wall, self._own = self.cpu(), time.perf_counter(), time.process_time()
        self._task = asyncio.create_task(self._sample())

    def stop(self) -> None:
        wall = time.perf_counter() - self._wall
        self.cpu_share = (self.cpu() - self._cpu) / wall
        self.load_share = (time.process_time() - self._own) / wall
        if self._task is not None:
            self._task.cancel()

    async def _sample(self) -> None:
        while True:
            rss = sockets = 0
            for pid in self.processes():
                try:
                    status = Path(f"/proc/{pid}/status").read_text().splitlines()
                    fds = list(Path(f"/proc/{pid}/fd").iterdir())
                except FileNotFoundError:
                    continue
                for line in status:
                    if line.startswith("VmRSS:"):
                        rss += int(line.split()[1]) * 1024
                sockets += sum(1 for fd in fds if _is_socket(fd)) - 1  # less the listener
            self.rss = max(self.rss, rss)
            self.connections = max(self.connections, sockets)
            await asyncio.sleep(1)


def _is_socket(fd: Path) -> bool:
    try:
        return os.readlink(fd).startswith("socket:")
    except OSError:
        return False


def start_server(folder: Path, serve_args: list[str]) -> tuple[subprocess.Popen, int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1"]
        + ["--port", str(port), "--db", str(folder / "games.sqlite3"), "--no-qr", *serve_args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=open(folder / "server.log", "w"),  # noqa: SIM115 (kept for the run)
        env={**os.environ, "SCOREKEEPER_RATE_LIMIT_CREATE": "100000 per minute"},
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), 1):
                return server, port
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


async def chromium_watchers(base: str, table: Table, count: int, seconds: float) -> str:
    """A few real pages watching the first table: at the end, do they show its last hand?"""
    if not count:
        return ""
    if not shutil.which("chromium"):
        return "chromium is not installed: no real pages"
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=shutil.which("chromium"),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        pages = []
        started = time.perf_counter()
        try:
            for _ in range(count):
                page = await (await browser.new_context()).new_page()
                await page.goto(base + table.view, timeout=seconds * 1000)
                pages.append(page)
        except Exception as error:  # noqa: BLE001 (a figure to print, not a crash)
            await browser.close()
            return f"chromium pages on table 1: not loaded ({type(error).__name__})"
        await asyncio.sleep(max(1.0, seconds - 5 - (time.perf_counter() - started)))
        hand = f"Hand {table.version}"  # a game at version v is at hand v (one hand a change)
        shown = [await page.locator(".status").first.inner_text() for page in pages]
        await browser.close()
    right = sum(hand in text for text in shown)
    return f"chromium pages on table 1: {right} of {count} show {hand} (the protocol's view)"


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(tables: int, seconds: float, chromium: int, serve_args: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server, port = start_server(Path(folder), serve_args)
        try:
            sampler = Sampler(server.pid)
            figures, said = asyncio.run(play(port, tables, seconds, sampler, chromium))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
            log = (Path(folder) / "server.log").read_text()
    saves, shown = figures.saves, figures.shown
    ms = 1000
    print(
        f"{tables:>5} tables ({tables * (WATCHERS + 1):>5} phones): "
        f"Save p50/p95/max {percentile(saves, 0.5) * ms:6.0f} / {percentile(saves, 0.95) * ms:6.0f}"
        f" / {max(saves, default=float('nan')) * ms:6.0f} ms ({len(saves)} hands); "
        f"every phone shows it p50/p95 {percentile(shown, 0.5) * ms:6.0f} / "
        f"{percentile(shown, 0.95) * ms:6.0f} ms; errors {len(figures.errors)}; "
        f"server CPU {sampler.cpu_share * 100:5.1f}% of a core "
        f"(load generator {sampler.load_share * 100:.0f}%); "
        f"RSS {sampler.rss / 2**20:5.0f} MB; connections {sampler.connections}",
        flush=True,
    )
    if said:
        print(f"      {said}", flush=True)
    if figures.errors:
        common = statistics.multimode(figures.errors)
        print(f"      errors, most common: {common[:3]}", flush=True)
    if "Traceback" in log:
        print("      the server logged a traceback:\n" + log[-2000:], flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="*", default=[10, 50, 200, 1000])
    parser.add_argument("--seconds", type=float, default=60, help="measured, per size")
    parser.add_argument("--chromium", type=int, default=2, help="real pages on table 1")
    parser.add_argument(
        "--serve", default="", help="more for `scorekeeper serve`, e.g. '--workers 2'"
    )
    args = parser.parse_args()
    print(f"Machine: {os.cpu_count()} CPUs; load before: {os.getloadavg()[0]:.2f}")
    for tables in args.tables:
        measure(tables, args.seconds, args.chromium, args.serve.split())


if __name__ == "__main__":
    main()
