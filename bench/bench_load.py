"""Load benchmark: 100 phones on the real server, against a bare Flask route of the same size.

Not a test: it prints figures (docs/benchmarks.md says how to read them).

    .venv/bin/python bench/bench_load.py            # about a minute, loopback only

It starts `scorekeeper serve` (waitress, 8 threads, as ./scripts/serve runs
it) on a temporary database, and next to it the same waitress settings serving
a bare Flask route that returns a page as large as the game's view page. Then:

1. saturation: 100 keep-alive connections ask as fast as they can, for a few
   seconds each, for the full view page, the live fragment (If-None-Match, so
   304 while nothing changed), and the bare page: requests/s, p50, p99;
2. a table's evening, sped up: 100 phones on 10 games, each loading the view
   page once and then polling the live fragment every second (twice the app's
   rate); on each game one of the phones also records a hand through the web
   form every second: p50/p99 per kind of request, and the bare page at the
   same pace;
3. recording flat out: 10 scorekeepers record hands back to back while 90
   phones keep polling: hands/s, p50, p99;
4. page weight: a first visit to a game page with everything it loads.

Everything is bounded (counts and seconds) and binds 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
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
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PHONES = 100
GAMES = 10
PLAYERS = ["Ann", "Bob", "Cy", "Di"]
THREADS = 8  # what `scorekeeper serve` uses by default
SATURATION_SECONDS = 5.0
PACED_SECONDS = 12.0
RECORD_SECONDS = 6.0


# --- the servers --------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server behind {url} did not start") from None
            time.sleep(0.05)


def start_app(db: Path, port: int, log: Path) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1"]
        + ["--port", str(port), "--db", str(db), "--no-qr", "--threads", str(THREADS)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=log.open("w"),
    )
    wait_for(f"http://127.0.0.1:{port}/", process)
    return process


def start_bare(port: int, size: int, log: Path) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, __file__, "--bare", str(port), str(size)],
        stdout=subprocess.DEVNULL,
        stderr=log.open("w"),
    )
    wait_for(f"http://127.0.0.1:{port}/bare", process)
    return process


def serve_bare(port: int, size: int) -> None:
    """A Flask route with nothing behind it, under the same waitress settings."""
    from flask import Flask, Response
    from waitress import serve

    app = Flask("bare")
    page = (b"<!doctype html><title>bare</title>" + b"x" * size)[:size]

    @app.get("/bare")
    def bare():
        return Response(page, mimetype="text/html")

    serve(app, host="127.0.0.1", port=port, threads=THREADS, ident="bare")


# --- a small keep-alive HTTP/1.1 client (so the client is not the bottleneck) -------------------


class Connection:
    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cookie = ""

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes]:
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
                data += await self.reader.readexactly(size + 2)
            await self.reader.readline()
        else:
            data = await self.reader.readexactly(int(received.get("content-length", 0)))
        if received.get("content-encoding") == "gzip":
            data = gzip.decompress(data)
        if received.get("connection", "").lower() == "close":
            self.writer.close()
            self.writer = None
        return status, received, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Timings:
    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.started = time.perf_counter()

    def add(self, kind: str, seconds: float, ok: bool) -> None:
        self.samples.setdefault(kind, []).append(seconds)
        if not ok:
            self.errors[kind] = self.errors.get(kind, 0) + 1

    def row(self, kind: str, elapsed: float) -> dict[str, float]:
        values = sorted(self.samples.get(kind, [0.0]))
        return {
            "requests": len(values),
            "per_second": len(values) / elapsed,
            "p50_ms": 1000 * statistics.median(values),
            "p99_ms": 1000 * values[min(len(values) - 1, int(0.99 * len(values)))],
            "errors": self.errors.get(kind, 0),
        }


async def timed(timings: Timings, kind: str, call, ok=lambda s: s < 400):
    started = time.perf_counter()
    try:
        status, headers, body = await call
    except (OSError, asyncio.IncompleteReadError, ValueError):
        timings.add(kind, time.perf_counter() - started, False)
        return None
    timings.add(kind, time.perf_counter() - started, ok(status))
    return status, headers, body


# --- the game being watched -------------------------------------------------------------------


def hand_fields(number: int) -> dict[str, str]:
    """Hand N through the web form: players go out in turn, the others keep 50."""
    out = (number - 1) % len(PLAYERS)
    fields = {"hand_number": str(number), "went_out": str(out)}
    fields.update({f"points-{i}": "50" for i in range(len(PLAYERS)) if i != out})
    return fields


def make_games(base: str, count: int, hands: int) -> list[dict]:
    games = []
    for _ in range(count):
        request = urllib.request.Request(
            base + "/api/games",
            data=json.dumps({"players": PLAYERS}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request) as answer:
            created = json.loads(answer.read())
        for number in range(1, hands + 1):
            out = PLAYERS[(number - 1) % len(PLAYERS)]
            hand = {"went_out": out, "made": [out], "points": {p: 50 for p in PLAYERS if p != out}}
            body = json.dumps({"hand_number": number, "hand": hand}).encode()
            request = urllib.request.Request(
                created["hands_url"], data=body, headers={"Content-Type": "application/json"}
            )
            urllib.request.urlopen(request).close()
        games.append(
            {
                "view": "/v/" + created["id"],
                "edit": created["edit_url"].split("/", 3)[3],
                "next": hands + 1,
            }
        )
    return games


async def form_token(conn: Connection) -> str:
    _, _, page = await conn.request("GET", "/")
    return re.search(rb'"X-CSRF-Token": "([^"]+)"', page).group(1).decode()


async def record_hand(conn: Connection, token: str, game: dict):
    fields = {"csrf_token": token, **hand_fields(game["next"])}
    body = urllib.parse.urlencode(fields).encode()
    answer = await conn.request(
        "POST",
        "/" + game["edit"] + "/hands",
        {"Content-Type": "application/x-www-form-urlencoded"},
        body,
    )
    if answer[0] == 303:
        game["next"] += 1
    return answer


# --- the scenarios ------------------------------------------------------------------------------


async def saturate(port: int, paths: list[str], kind: str, etags: dict[str, str] | None = None):
    timings = Timings()
    stop = time.perf_counter() + SATURATION_SECONDS

    async def phone(i: int) -> None:
        conn = Connection(port)
        path = paths[i % len(paths)]
        headers = {"If-None-Match": etags[path]} if etags else {}
        while time.perf_counter() < stop:
            await timed(timings, kind, conn.request("GET", path, headers))
        conn.close()

    started = time.perf_counter()
    await asyncio.gather(*(phone(i) for i in range(PHONES)))
    return timings.row(kind, time.perf_counter() - started)


async def paced(port: int, bare_port: int, games: list[dict]) -> dict[str, dict]:
    """100 phones polling every second; on each game one of them records a hand a second."""
    timings = Timings()
    stop = time.perf_counter() + PACED_SECONDS

    async def phone(i: int) -> None:
        """Phones 0-9 keep score for their game (poll and record); the rest watch."""
        conn, game = Connection(port), games[i % len(games)]
        token = await form_token(conn) if i < len(games) else ""
        await asyncio.sleep(i / PHONES)  # phones do not all arrive in the same millisecond
        result = await timed(timings, "view page", conn.request("GET", game["view"]))
        etag = result[1].get("etag", "") if result else ""
        while time.perf_counter() < stop:
            await asyncio.sleep(1.0)
            result = await timed(
                timings,
                "live poll",
                conn.request("GET", game["view"] + "/live", {"If-None-Match": etag}),
                ok=lambda s: s in (200, 286, 304),
            )
            if result and result[0] != 304:
                etag = result[1].get("etag", etag)
            if token:
                await timed(
                    timings, "record hand", record_hand(conn, token, game), ok=lambda s: s == 303
                )
        conn.close()

    async def bare_phone(i: int) -> None:
        conn = Connection(bare_port)
        await asyncio.sleep(i / PHONES)
        while time.perf_counter() < stop:
            await timed(timings, "bare page", conn.request("GET", "/bare"))
            await asyncio.sleep(1.0)
        conn.close()

    started = time.perf_counter()
    await asyncio.gather(*(phone(i) for i in range(PHONES)))
    elapsed = time.perf_counter() - started
    result = {k: timings.row(k, elapsed) for k in ("view page", "live poll", "record hand")}
    stop = time.perf_counter() + PACED_SECONDS / 2
    started = time.perf_counter()
    await asyncio.gather(*(bare_phone(i) for i in range(PHONES)))
    result["bare page"] = timings.row("bare page", time.perf_counter() - started)
    return result


async def record_flat_out(port: int, games: list[dict]) -> dict:
    timings = Timings()
    stop = time.perf_counter() + RECORD_SECONDS

    async def scorekeeper(mine: list[dict]) -> None:
        conn = Connection(port)
        token = await form_token(conn)
        for game in mine:
            while time.perf_counter() < stop and game["next"] <= 28:
                await timed(
                    timings, "record hand", record_hand(conn, token, game), ok=lambda s: s == 303
                )
        conn.close()

    async def phone(i: int) -> None:
        conn, game = Connection(port), games[i % len(games)]
        etag = ""
        while time.perf_counter() < stop:
            result = await timed(
                timings,
                "live poll",
                conn.request("GET", game["view"] + "/live", {"If-None-Match": etag}),
                ok=lambda s: s in (200, 286, 304),
            )
            if result and result[0] != 304:
                etag = result[1].get("etag", etag)
            await asyncio.sleep(1.0)
        conn.close()

    started = time.perf_counter()
    keepers = [scorekeeper(games[i::GAMES]) for i in range(GAMES)]  # 10 + 90 = 100 phones
    await asyncio.gather(*keepers, *(phone(i) for i in range(PHONES - GAMES)))
    elapsed = time.perf_counter() - started
    return {k: timings.row(k, elapsed) for k in ("record hand", "live poll")}


# --- page weight -----------------------------------------------------------------------------


class Assets(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "link" and attrs.get("href"):
            self.urls.append(attrs["href"])
        if tag in ("script", "img") and attrs.get("src"):
            self.urls.append(attrs["src"])


def page_weight(base: str, path: str) -> dict:
    """Bytes of a first visit: the page and everything it pulls in (icons from the manifest too)."""
    seen: dict[str, tuple[int, int, str]] = {}

    def fetch(url: str) -> bytes:
        request = urllib.request.Request(base + url, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request) as answer:
            body = answer.read()
            encoding = answer.headers.get("Content-Encoding", "")
        plain = gzip.decompress(body) if encoding == "gzip" else body
        seen[url] = (len(body), len(gzip.compress(plain, 6)), encoding or "none")
        return plain

    html = fetch(path).decode()
    assets = Assets()
    assets.feed(html)
    for url in dict.fromkeys(assets.urls):
        body = fetch(url)
        if url.endswith(".webmanifest"):
            for icon in json.loads(body).get("icons", []):
                if icon["src"] not in seen:
                    fetch(icon["src"])
    return {
        "files": seen,
        "sent": sum(sent for sent, _, _ in seen.values()),
        "gzipped": sum(zipped for _, zipped, _ in seen.values()),
    }


# --- report --------------------------------------------------------------------------------------


def settle(result):
    """Let the servers close the last phase's connections (waitress admits 100 at a time)."""
    time.sleep(1.0)
    return result


def show(label: str, row: dict) -> None:
    print(
        f"  {label:<28} {row['per_second']:8.1f} req/s   p50 {row['p50_ms']:6.1f} ms   "
        f"p99 {row['p99_ms']:7.1f} ms   errors {row['errors']}  ({row['requests']} requests)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--bare", nargs=2, type=int, metavar=("PORT", "SIZE"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.bare:
        serve_bare(*args.bare)
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # still stop both servers
    print(f"Machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, {THREADS} threads")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Load average before the run: {load} (other work on the machine skews figures)")
    folder = tempfile.TemporaryDirectory()
    port, bare_port = free_port(), free_port()
    logs = {name: Path(folder.name) / f"{name}.log" for name in ("app", "bare")}
    app = start_app(Path(folder.name) / "bench.sqlite3", port, logs["app"])
    bare = None
    try:
        base = f"http://127.0.0.1:{port}"
        games = make_games(base, GAMES, 6)
        spare = make_games(base, 30, 0)
        with urllib.request.urlopen(base + games[0]["view"]) as answer:
            view_size = len(answer.read())
        etags = {}
        for game in games:
            with urllib.request.urlopen(base + game["view"] + "/live") as answer:
                etags[game["view"] + "/live"] = answer.headers["ETag"]
                live_size = len(answer.read())
        bare = start_bare(bare_port, view_size, logs["bare"])
        print(f"View page {view_size} bytes, live fragment {live_size} bytes; bare page same size")

        print(f"\n1. Saturation: {PHONES} keep-alive connections, {SATURATION_SECONDS:.0f} s each")
        view = settle(asyncio.run(saturate(port, [g["view"] for g in games], "view page")))
        live = settle(asyncio.run(saturate(port, list(etags), "live poll (304)", etags)))
        bare_row = settle(asyncio.run(saturate(bare_port, ["/bare"], "bare page")))
        show("view page (full scoreboard)", view)
        show("live poll (304)", live)
        show("bare Flask page, same size", bare_row)
        print(
            f"  scoreboard / bare throughput: {view['per_second'] / bare_row['per_second']:.0%} "
            f"(live 304 / bare: {live['per_second'] / bare_row['per_second']:.0%})"
        )

        print(f"\n2. Paced: {PHONES} phones polling every 1 s, {GAMES} scorekeepers, 1 hand/s each")
        result = settle(asyncio.run(paced(port, bare_port, games)))
        for kind, row in result.items():
            show(kind, row)

        print(f"\n3. Recording flat out: {GAMES} scorekeepers back to back, 90 phones polling")
        result = asyncio.run(record_flat_out(port, spare))
        for kind, row in result.items():
            show(kind, row)

        print("\n4. Page weight of a first visit (HTML + everything it loads)")
        for label, path in (("view page", games[0]["view"]), ("edit page", "/" + games[0]["edit"])):
            weight = page_weight(base, path)
            print(
                f"  {label}: {weight['sent'] / 1024:.1f} KB as sent, "
                f"{weight['gzipped'] / 1024:.1f} KB gzipped"
            )
            for url, (sent, zipped, encoding) in weight["files"].items():
                shown = url if len(url) < 40 else url[:37] + "..."
                print(f"    {shown:<40} {sent:7d} B sent ({encoding}), {zipped:6d} B gzipped")
        print("\n5. Waitress's own warnings (requests waiting for a free thread)")
        for name, log in logs.items():
            depths = [int(d) for d in re.findall(r"Task queue depth is (\d+)", log.read_text())]
            other = [
                line
                for line in log.read_text().splitlines()
                if line and "Task queue depth" not in line
            ]
            print(
                f"  {name}: {len(depths)} queue warnings, deepest queue {max(depths, default=0)}; "
                f"{len(other)} other log lines"
            )
            for line in other[:6]:
                print(f"    {line[:150]}")
    finally:
        for process in (app, bare):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)
        folder.cleanup()


if __name__ == "__main__":
    main()
