"""Load benchmark: the pages people load, against a bare Flask route of the same size.

Not a test: it prints figures (docs/benchmarks.md has them and says how to read them).

    .venv/bin/python bench/bench_load.py            # about 80 seconds, loopback only

One server, started as `scorekeeper serve` starts it (gevent, the same app), serves
the app and, under /bare/<bytes>, a bare Flask app whose one route returns a page of
that many bytes. Each page is compared with the bare route sending as many bytes as
that page sends a phone (gzipped), on the same server, in the same round.

1. Throughput: for the scorekeeper page, the watch page and the live poll (answered
   304) of a game at hand 8 and one at hand 150, CONNECTIONS keep-alive connections
   ask back to back for BURST seconds, then the bare route of the same size does the
   same. ROUNDS rounds take the pages in turn; medians are reported.
2. Recording a hand, one phone alone: the web form's POST and the redirect it
   follows, alternating between a game at hand 8 and one at hand 150.
3. 100 phones, each sending one request a second for PACED seconds: 10 keep score
   (one hand a second through the form, plus the redirect), 90 poll the live view.
   Every phone has opened its page before the clock starts (a table already playing).
   The server logs, for each recorded hand, its time in the app (wall clock and CPU),
   its write's wait for the write lock and COMMIT, and each garbage collection;
   afterwards the disk's own fdatasync time is probed, so the tail can be read off.

Everything is bounded (counts and seconds) and binds 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import gzip
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
# A page's live poll: htmx asks the page's own URL for its fragment (web/live.py). The
# server answers at once (POLL_HOLD 0) rather than holding it, so throughput is counted.
POLL = {"HX-Request": "true"}
SIZES = (8, 150)  # hands already played
ROUNDS = 7
BURST = 0.6  # seconds per page per round
CONNECTIONS = 20
RECORDS = 20  # per game size, one phone alone
PHONES = 100
KEEPERS = 10
PACED = 24.0  # seconds: a game at hand 150 on 30 phases ends at hand 175


# --- the server ----------------------------------------------------------------------------------


def serve(port: int, database: str) -> None:
    """The app as `scorekeeper serve` runs it, with a bare Flask app beside it under /bare."""
    sys.path.insert(0, str(ROOT))
    from scorekeeper.serve import server

    server.patch()  # as `scorekeeper serve` does, before the app opens its games file
    from flask import Flask, Response
    from werkzeug.middleware.dispatcher import DispatcherMiddleware

    from scorekeeper import create_app
    from scorekeeper.serve.warm_up import ready

    bare = Flask("bare")

    @bare.get("/<int:size>")
    def page(size: int):
        return Response((b"<!doctype html><title>bare</title>" + b"x" * size)[:size], 200)

    time_writes()
    time_collections()
    # as `scorekeeper serve` does, but polls answered at once (POLL above)
    scorekeeper = ready(create_app({"DATABASE": database, "POLL_HOLD": 0}))
    app = DispatcherMiddleware(time_posts(scorekeeper), {"/bare": bare})
    server.run(app, "127.0.0.1", port, server.Guards())


def time_posts(app):
    """Log each recorded hand's time in the app: wall clock, and this thread's CPU time."""

    def timed(environ, start_response):
        if not environ["PATH_INFO"].endswith("/hands"):
            return app(environ, start_response)
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return app(environ, start_response)
        finally:
            wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
            sys.stderr.write(f"POST {wall:.6f} {cpu:.6f}\n")  # one write: lines stay whole

    return timed


def time_writes() -> None:
    """Log how long each write waited for its turn and how long its COMMIT took (the sync).

    The only difference from `scorekeeper serve`: two clock readings and a log line per write.
    """
    from scorekeeper import store

    transaction = store.connection.transaction

    @contextmanager
    def timed(db):
        asked = time.perf_counter()
        with transaction(db) as inside:
            began = time.perf_counter()
            yield inside
            ended = time.perf_counter()
        done = time.perf_counter()
        sys.stderr.write(f"WRITE {began - asked:.6f} {done - ended:.6f}\n")

    store.connection.transaction = timed


def time_collections() -> None:
    """Log each garbage collection's generation and how long it stopped the process."""
    started = [0.0]

    def timed(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            took = time.perf_counter() - started[0]
            sys.stderr.write(f"GC {info['generation']} {took:.6f}\n")

    gc.callbacks.append(timed)


def timings(log: list[str], kind: str) -> tuple[list[float], list[float]]:
    """The two figures of each `kind` line the server logged."""
    pairs = []
    for line in log:
        words = line.split()
        if len(words) == 3 and words[0] == kind:
            pairs.append((float(words[1]), float(words[2])))
    return [a for a, _ in pairs], [b for _, b in pairs]


def disk_sync_times(folder: Path, seconds: float) -> list[float]:
    """fdatasync of 64 KB (about what recording a hand at hand 150 writes) every 50 ms."""
    times, path = [], folder / "disk-probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    try:
        stop = time.perf_counter() + seconds
        for block in range(10**6):
            if time.perf_counter() > stop:
                break
            os.pwrite(fd, b"x" * 65536, (block % 16) * 65536)
            started = time.perf_counter()
            os.fdatasync(fd)
            times.append(time.perf_counter() - started)
            time.sleep(0.05)
    finally:
        os.close(fd)
    return times


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(port: int, database: Path, log: Path) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port), str(database)],
        stdout=subprocess.DEVNULL,
        stderr=log.open("w"),
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/bare/10", timeout=1).close()
            return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start") from None
            time.sleep(0.05)


# --- a small keep-alive HTTP/1.1 client (so the client is not the bottleneck) --------------------


class Connection:
    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cookie = ""

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes, int]:
        """Status, headers, body (unzipped) and the bytes the body took on the wire."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines.append("Accept-Encoding: gzip")  # as every phone's browser sends
        extra = dict(headers or {})
        if self.cookie:
            extra["Cookie"] = self.cookie
        if body:
            extra["Content-Length"] = str(len(body))
        lines += [f"{k}: {v}" for k, v in extra.items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        assert self.reader is not None
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        received: dict[str, str] = {}
        for line in header_lines:
            if ":" in line:
                key, value = line.split(":", 1)
                received[key.strip().lower()] = value.strip()
        if "set-cookie" in received:
            self.cookie = received["set-cookie"].split(";", 1)[0]
        if received.get("transfer-encoding") == "chunked":
            data = b""
            while size := int((await self.reader.readline()).strip(), 16):
                data += (await self.reader.readexactly(size + 2))[:-2]
            await self.reader.readline()
        else:
            data = await self.reader.readexactly(int(received.get("content-length", 0)))
        wire = len(data)
        if received.get("content-encoding") == "gzip":
            data = gzip.decompress(data)
        if received.get("connection", "").lower() == "close":
            self.writer.close()
            self.writer = None
        return status, received, data, wire

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


# --- the games -----------------------------------------------------------------------------------

# 30 phases: six players going out in turn for 160 hands never finish, so no game ends early.
PHASES = "; ".join(
    ["2 sets of 3", "set of 3 + run of 4", "set of 4 + run of 4", "run of 7", "run of 8"] * 6
)


def hand(number: int) -> dict:
    out = PLAYERS[(number - 1) % len(PLAYERS)]
    return {"went_out": out, "made": [out], "points": {p: 50 for p in PLAYERS if p != out}}


def make_game(base: str, hands: int) -> dict:
    """A game at `hands` hands, created in one request with its hands (as an import is)."""
    game = {
        "rules": "official",
        "options": {"custom_phases": PHASES},
        "players": PLAYERS,
        "dealer": PLAYERS[0],
        "hands": [hand(n) for n in range(1, hands + 1)],
    }
    request = urllib.request.Request(
        base + "/api/games",
        data=json.dumps(game).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        created = json.loads(answer.read())
    edit = "/" + created["edit_url"].split("/", 3)[3]
    return {"view": "/v/" + created["id"], "edit": edit, "next": hands + 1, "hands": hands}


async def open_keeper(port: int, game: dict) -> tuple[Connection, str]:
    """A scorekeeper's phone: its session, and the CSRF token its page carries."""
    conn = Connection(port)
    _, _, page, _ = await conn.request("GET", game["edit"])
    return conn, re.search(rb'"X-CSRF-Token": "([^"]+)"', page).group(1).decode()


async def record(conn: Connection, token: str, game: dict) -> tuple[float, float]:
    """The form's POST and the redirect it follows: (POST seconds, both seconds)."""
    number, fields = game["next"], {"csrf_token": token, "hand_number": str(game["next"])}
    out = (number - 1) % len(PLAYERS)
    fields["went_out"] = str(out)
    fields.update({f"points-{i}": "50" for i in range(len(PLAYERS)) if i != out})
    started = time.perf_counter()
    status, headers, _, _ = await conn.request(
        "POST",
        game["edit"] + "/hands",
        {"Content-Type": "application/x-www-form-urlencoded"},
        urllib.parse.urlencode(fields).encode(),
    )
    posted = time.perf_counter()
    if status != 303:
        raise SystemExit(f"recording hand {number} answered {status}")
    game["next"] += 1
    location = headers["location"].split("127.0.0.1", 1)[-1].split("/", 1)[-1]
    status, _, _, _ = await conn.request("GET", "/" + location)
    if status != 200:
        raise SystemExit(f"the page after recording hand {number} answered {status}")
    return posted - started, time.perf_counter() - started


# --- 1. throughput -------------------------------------------------------------------------------


async def burst(port: int, path: str, headers: dict[str, str], expect: int) -> float:
    """Requests per second from CONNECTIONS connections asking back to back for BURST s."""
    stop = time.perf_counter() + BURST
    done = 0

    async def phone() -> None:
        nonlocal done
        conn = Connection(port)
        while time.perf_counter() < stop:
            status, *_ = await conn.request("GET", path, headers)
            if status != expect:
                raise SystemExit(f"{path} answered {status}, not {expect}")
            done += 1
        conn.close()

    started = time.perf_counter()
    await asyncio.gather(*(phone() for _ in range(CONNECTIONS)))
    return done / (time.perf_counter() - started)


async def pages_to_measure(port: int, games: dict[int, dict]) -> list[dict]:
    """Each page a phone loads, with what it takes to ask for it and its size on the wire."""
    pages = []
    for hands, game in games.items():
        conn = Connection(port)
        status, headers, _, wire = await conn.request("GET", game["view"], POLL)
        etag = headers["etag"]
        for label, path, extra, expect in (
            ("scorekeeper page", game["edit"], {}, 200),
            ("watch page", game["view"], {}, 200),
            ("live poll (304)", game["view"], {**POLL, "If-None-Match": etag}, 304),
        ):
            _, _, _, wire = await conn.request("GET", path, extra)
            pages.append(
                {
                    "label": f"{label}, hand {hands}",
                    "kind": label,
                    "hands": hands,
                    "path": path,
                    "headers": extra,
                    "expect": expect,
                    "bytes": wire,
                    "rates": [],
                    "bare": [],
                }
            )
        conn.close()
    return pages


async def throughput(port: int, pages: list[dict]) -> None:
    for _ in range(ROUNDS):
        for page in pages:
            page["rates"].append(await burst(port, page["path"], page["headers"], page["expect"]))
            await asyncio.sleep(0.1)
            page["bare"].append(await burst(port, f"/bare/{page['bytes']}", {}, 200))
            await asyncio.sleep(0.1)


# --- 2. recording, one phone alone ---------------------------------------------------------------


async def record_alone(port: int, games: dict[int, dict]) -> dict[int, list[tuple[float, float]]]:
    keepers = {hands: await open_keeper(port, game) for hands, game in games.items()}
    times: dict[int, list[tuple[float, float]]] = {hands: [] for hands in games}
    for _ in range(RECORDS):
        for hands, game in games.items():  # alternating, so drift hits both alike
            conn, token = keepers[hands]
            times[hands].append(await record(conn, token, game))
    for conn, _ in keepers.values():
        conn.close()
    return times


# --- 3. 100 phones, one request a second each ----------------------------------------------------


async def paced(port: int, games: list[dict]) -> dict[str, list[float]]:
    """Every phone first opens its page (a table already playing), then the clock starts."""
    times: dict[str, list[float]] = {"record POST": [], "record + redirect": [], "live poll": []}
    errors = 0
    keepers = [await open_keeper(port, games[i]) for i in range(KEEPERS)]
    watchers = []
    for i in range(PHONES - KEEPERS):
        conn = Connection(port)
        _, headers, _, _ = await conn.request("GET", games[i % KEEPERS]["view"], POLL)
        watchers.append((conn, headers["etag"]))
    await asyncio.sleep(1.0)
    stop = time.perf_counter() + PACED

    async def keeper(i: int, offset: float) -> None:
        (conn, token), game = keepers[i], games[i]
        await asyncio.sleep(offset)
        while time.perf_counter() < stop:
            tick = time.perf_counter()
            post, both = await record(conn, token, game)
            times["record POST"].append(post)
            times["record + redirect"].append(both)
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - tick)))
        conn.close()

    async def watcher(i: int, offset: float) -> None:
        nonlocal errors
        (conn, etag), game = watchers[i], games[i % KEEPERS]
        await asyncio.sleep(offset)
        while time.perf_counter() < stop:
            tick = time.perf_counter()
            status, headers, _, _ = await conn.request(
                "GET", game["view"], {**POLL, "If-None-Match": etag}
            )
            times["live poll"].append(time.perf_counter() - tick)
            errors += status not in (200, 286, 304)
            etag = headers.get("etag", etag)
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - tick)))
        conn.close()

    phones = [keeper(i, i / KEEPERS) for i in range(KEEPERS)]
    phones += [watcher(i, i / PHONES) for i in range(PHONES - KEEPERS)]
    await asyncio.gather(*phones)
    if errors:
        raise SystemExit(f"{errors} live polls failed")
    return times


# --- 4. bytes stored per recorded hand ----------------------------------------------------------


def stored_per_hand(folder: Path) -> tuple[float, float]:
    """Bytes the games file grows by per recorded hand (six players), from hand 10 to 60 and
    from 60 to 110, measured after VACUUM so free pages do not count."""
    sys.path.insert(0, str(ROOT))
    from scorekeeper import actions, store
    from scorekeeper.rules.game import HandRecord

    db = store.connection.connect(folder / "stored.sqlite3")
    game = {"rules": "plus10", "players": PLAYERS, "dealer": PLAYERS[0], "hands": []}
    game_id = actions.games.start_game(db, game).current.stored.id  # type: ignore[union-attr]
    sizes = {}
    for number in range(1, 111):
        out = PLAYERS[(number - 1) % len(PLAYERS)]
        points = {name: 50 + 5 * (number % 7) for name in PLAYERS if name != out}
        if not isinstance(
            actions.hands.record(db, game_id, number, HandRecord(out, (out,), points)),
            actions.results.Saved,
        ):
            raise SystemExit(f"hand {number} was not saved")
        if number in (10, 60, 110):
            db.execute("VACUUM")
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            sizes[number] = pages * db.execute("PRAGMA page_size").fetchone()[0]
    store.connection.close_all()
    return (sizes[60] - sizes[10]) / 50, (sizes[110] - sizes[60]) / 50


# --- report --------------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{1000 * seconds:6.1f} ms"


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), args.serve[1])
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # still stop the server
    print(f"Machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, gevent")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Load average before the run: {load} (other work on the machine skews figures)")
    folder = tempfile.TemporaryDirectory()
    port = free_port()
    server = start(port, Path(folder.name) / "bench.sqlite3", Path(folder.name) / "server.log")
    results: list[tuple[str, bool]] = []
    try:
        base = f"http://127.0.0.1:{port}"
        pages = asyncio.run(pages_to_measure(port, {n: make_game(base, n) for n in SIZES}))
        print(
            f"\n1. Throughput: {CONNECTIONS} keep-alive connections, {BURST} s per page, "
            f"{ROUNDS} interleaved rounds, medians"
        )
        asyncio.run(throughput(port, pages))
        per_hands: dict[tuple[str, int], float] = {}
        for page in pages:
            rate, bare = statistics.median(page["rates"]), statistics.median(page["bare"])
            ratio = statistics.median(
                r / b for r, b in zip(page["rates"], page["bare"], strict=True)
            )
            per_hands[page["kind"], page["hands"]] = rate
            target = 0.35 if page["kind"] == "scorekeeper page" else 0.7
            results.append((f"{page['label']}: {ratio:.2f} x bare (>= {target})", ratio >= target))
            print(
                f"  {page['label']:<30} {page['bytes']:6d} B  {rate:7.0f} req/s   "
                f"bare {bare:7.0f} req/s   ratio {ratio:.2f} (target >= {target})"
            )
        for kind in ("scorekeeper page", "watch page", "live poll (304)"):
            slower = per_hands[kind, SIZES[0]] / per_hands[kind, SIZES[1]]
            results.append((f"{kind} at hand 150: {slower:.2f} x hand 8 (<= 1.5)", slower <= 1.5))

        print(f"\n2. Recording a hand, one phone alone, {RECORDS} hands per game, alternating")
        alone = asyncio.run(record_alone(port, {n: make_game(base, n) for n in SIZES}))
        for hands, times in alone.items():
            posts, boths = [t[0] for t in times], [t[1] for t in times]
            print(
                f"  game at hand {hands:<4} POST median {ms(statistics.median(posts))}   "
                f"POST + redirect median {ms(statistics.median(boths))}, "
                f"p90 {ms(pct(boths, 0.9))}"
            )
        small, big = (statistics.median(t[1] for t in alone[n]) for n in SIZES)
        results.append(
            (f"recording at hand 150: {big / small:.2f} x hand 8 (<= 1.5)", big <= 1.5 * small)
        )

        print(f"\n3. {PHONES} phones, one request a second each, {PACED:.0f} s:")
        print(f"   {KEEPERS} record a hand a second (half the games at hand 8, half at 150),")
        print(f"   {PHONES - KEEPERS} poll the live view")
        games = [make_game(base, SIZES[i % 2]) for i in range(KEEPERS)]
        server_log = Path(folder.name) / "server.log"
        before = len(server_log.read_text().splitlines())
        times = asyncio.run(paced(port, games))
        log = server_log.read_text().splitlines()
        for kind, values in times.items():
            print(
                f"  {kind:<20} {len(values):5d} requests   p50 {ms(statistics.median(values))}   "
                f"p90 {ms(pct(values, 0.9))}   p99 {ms(pct(values, 0.99))}   max {ms(max(values))}"
            )
        p99 = pct(times["record POST"], 0.99)
        results.append(
            (f"record-hand POST p99 under 100 phones: {1000 * p99:.1f} ms (< 25)", p99 < 0.025)
        )
        walls, cpus = timings(log[before:], "POST")
        waits, commits = timings(log[before:], "WRITE")
        print("\n   Where the record POST's time went, server side:")
        for kind, values in (
            ("in the app, wall clock", walls),
            ("in the app, CPU", cpus),
            ("waiting for the write lock", waits),
            ("COMMIT (the sync)", commits),
        ):
            print(
                f"  {kind:<27} p50 {ms(statistics.median(values))}   p90 {ms(pct(values, 0.9))}"
                f"   p99 {ms(pct(values, 0.99))}   max {ms(max(values))}"
            )
        pauses = [float(line.split()[2]) for line in log[before:] if line.startswith("GC 2 ")]
        print(
            f"  full garbage collections    {len(pauses)}, the longest "
            f"{ms(max(pauses, default=0.0))} (every thread stopped)"
        )
        disk = disk_sync_times(Path(folder.name), 5.0)
        print(
            f"  this disk, fdatasync 64 KB p50 {ms(statistics.median(disk))}   "
            f"p90 {ms(pct(disk, 0.9))}   p99 {ms(pct(disk, 0.99))}   max {ms(max(disk))}"
            f"   ({len(disk)} syncs, no server load)"
        )

        early, late = stored_per_hand(Path(folder.name))
        print("\n4. Bytes stored per recorded hand (six players, after VACUUM)")
        print(f"  hands 10 to 60: {early:.0f} B per hand   hands 60 to 110: {late:.0f} B per hand")
        results.append(
            (f"stored per hand: {max(early, late):.0f} B (<= 1024)", max(early, late) <= 1024)
        )

        print("\nTargets")
        for text, ok in results:
            print(f"  {verdict(ok):<7} {text}")
        queue = [line for line in log if "Task queue depth" in line]
        print(f"\nServer log: {len(queue)} 'task queue depth' warnings")
    finally:
        server.terminate()
        server.wait(timeout=10)
        folder.cleanup()


if __name__ == "__main__":
    main()
