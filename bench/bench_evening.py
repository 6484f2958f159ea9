"""What a table costs the server, measured as phones really load it.

Not a test: it prints figures (docs/benchmarks.md has them and says how to read them).

    .venv/bin/python bench/bench_evening.py           # about 4 minutes, loopback only
    .venv/bin/python bench/bench_evening.py --quick   # shorter idle windows, for a first look
    .venv/bin/python bench/bench_evening.py --without shared-fragments   # what one piece saves

A real `scorekeeper serve` (as a family starts it: on Linux a worker per core) and Debian's chromium
driven by Playwright: one scorekeeper page and five watch pages of one game, each in
its own browser context (its own cookies, as six phones). Every page runs its own
JavaScript, so whatever it asks the server for is counted, not only what a load
client thinks it asks for. The server's CPU time is read from /proc (every thread
of its process) while:

1. nobody touches anything (an idle table-minute), and
2. the scorekeeper records a hand through the form as a person does (taps who went
   out, types the points, taps Save) until every screen shows the new hand. The
   hand's cost is the CPU spent in that window less the idle rate over it.

Both at hand 8 and at hand 150 (a game of 30 phases, so it does not end). For scale,
a bare WSGI app answering 304 under the same waitress is measured per request.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
WATCHERS = 5
SIZES = (8, 150)  # the hand being played
HANDS = 5  # recorded hands measured per size
# 30 phases: six players going out in turn for 160 hands never finish, so no game ends early.
PHASES = "; ".join(
    ["2 sets of 3", "set of 3 + run of 4", "set of 4 + run of 4", "run of 7", "run of 8"] * 6
)
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # six pages in one browser: do not slow the ones in the background
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
TICK = os.sysconf("SC_CLK_TCK")


def processes(pid: int) -> list[int]:
    """The server's process and its workers (`serve` runs a worker per core on Linux)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [pid, *map(int, children)]


def cpu_seconds(pid: int) -> float:
    """The CPU time of every thread of the server's processes so far (user + system), to
    the ns.

    Each thread's own schedstat is exact; /proc/<pid>/stat counts threads that already
    ended too, in ticks. The server's threads live as long as it does, so the sum of the
    live threads' times is used, and checked against the tick count.
    """
    total = 0
    for process in processes(pid):
        for task in Path(f"/proc/{process}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (FileNotFoundError, ProcessLookupError):
                continue  # a thread that ended while we looked
    return total / 1e9


def cpu_ticks(pid: int) -> float:
    total = 0
    for process in processes(pid):
        fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / TICK


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except urllib.error.HTTPError:  # it answered
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server at {url} did not start") from None
            time.sleep(0.1)


# What `--without` turns off in the server, to see what each piece of machinery saves.
WITHOUT = {
    "held-polls": "",  # SCOREKEEPER_POLL_HOLD=0: every poll answered at once (set below)
    "shared-fragments": "import scorekeeper.web.live as m; m.SHARED = 0",
    "recent-games": "import scorekeeper.actions as m; m.RECENT_GAMES = 0",
    "gc-freeze": "import gc; gc.freeze = lambda: None",
}


def start_app(port: int, database: Path, log: Path, without: str | None = None) -> subprocess.Popen:
    """`scorekeeper serve` as a family starts it (the console script of this venv), or the
    same with one piece of machinery turned off."""
    script = Path(sys.executable).with_name("scorekeeper")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "scorekeeper.cli"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if without == "held-polls":
        env["SCOREKEEPER_POLL_HOLD"] = "0"
    elif without:
        run = "import sys; from scorekeeper.cli import main; sys.exit(main())"
        command = [sys.executable, "-c", f"{WITHOUT[without]}; {run}"]
    process = subprocess.Popen(
        [*command, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(database)],
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        env=env,
    )
    wait_for(f"http://127.0.0.1:{port}/rules", process)
    return process


# --- the bare reference ------------------------------------------------------------------


def bare_app(environ, start_response):
    """A WSGI app that answers every request 304, as an idle poll is answered."""
    start_response("304 Not Modified", [("ETag", '"v1"')])
    return []


def serve_bare(port: int) -> None:
    from waitress import serve

    serve(bare_app, host="127.0.0.1", port=port, threads=8, _quiet=True)


def bare_reference(requests: int) -> float:
    """CPU seconds a bare WSGI app under waitress spends per 304 it answers."""
    import http.client

    port = free_port()
    process = subprocess.Popen([sys.executable, __file__, "--bare", str(port)])
    try:
        wait_for(f"http://127.0.0.1:{port}/", process)
        connection = http.client.HTTPConnection("127.0.0.1", port)
        for _ in range(50):  # warm up
            connection.request("GET", "/live", headers={"If-None-Match": '"v1"'})
            connection.getresponse().read()
        before = cpu_seconds(process.pid)
        for _ in range(requests):
            connection.request("GET", "/live", headers={"If-None-Match": '"v1"'})
            connection.getresponse().read()
        return (cpu_seconds(process.pid) - before) / requests
    finally:
        process.terminate()
        process.wait()


# --- the game ----------------------------------------------------------------------------


def hand(number: int) -> dict:
    out = PLAYERS[(number - 1) % len(PLAYERS)]
    return {"went_out": out, "made": [out], "points": {p: 50 for p in PLAYERS if p != out}}


def make_game(base: str, at_hand: int) -> dict:
    """A game whose next hand is ``at_hand``, created with its hands through the API."""
    game = {
        "rules": "official",
        "options": {"custom_phases": PHASES},
        "players": PLAYERS,
        "dealer": PLAYERS[0],
        "hands": [hand(n) for n in range(1, at_hand)],
    }
    request = urllib.request.Request(
        base + "/api/games",
        data=json.dumps(game).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def versions(pages) -> list[str | None]:
    return [page.get_attribute("#scoreboard", "data-version") for page in pages]


def record_hand(keeper, number: int) -> None:
    """Tap who went out, type everyone else's points and tap Save, as a person does."""
    out = (number - 1) % len(PLAYERS)
    keeper.locator(f"label[for='out-{out}']").click()
    for seat in range(len(PLAYERS)):
        if seat != out:
            keeper.locator(f"#points-{seat}").fill("50")
    keeper.locator("#record form button[type=submit]").click()


def measure_size(browser, base: str, pid: int, at_hand: int, idle: float) -> dict:
    created = make_game(base, at_hand)
    edit, view = created["edit_url"], created["view_url"]
    contexts = [browser.new_context(**PHONE) for _ in range(1 + WATCHERS)]
    pages = [context.new_page() for context in contexts]
    try:
        keeper, watchers = pages[0], pages[1:]
        keeper.goto(edit)
        for page in watchers:
            page.goto(view)
        for page in pages:
            page.wait_for_selector("#scoreboard[data-version]")
        time.sleep(3)  # every page's first polls are made: the table is playing

        started, before = time.monotonic(), cpu_seconds(pid)
        ticks = cpu_ticks(pid)
        time.sleep(idle)
        idle_cpu = cpu_seconds(pid) - before
        idle_ticks = cpu_ticks(pid) - ticks
        idle_rate = idle_cpu / (time.monotonic() - started)

        hands = []
        for number in range(at_hand, at_hand + HANDS):
            version = versions([keeper])[0]
            started, before = time.monotonic(), cpu_seconds(pid)
            record_hand(keeper, number)
            deadline = time.monotonic() + 30
            while any(v == version for v in versions(pages)):
                if time.monotonic() > deadline:
                    raise SystemExit(f"hand {number}: not every screen showed it within 30 s")
                time.sleep(0.05)
            took = time.monotonic() - started
            spent = cpu_seconds(pid) - before
            hands.append((spent - idle_rate * took, took))
            time.sleep(1.5)  # the next hand is typed a little later
        return {
            "idle_minute_ms": idle_rate * 60_000,
            "idle_tick_check_ms": idle_ticks / idle * 60_000,
            "hand_ms": [cost * 1000 for cost, _ in hands],
            "hand_seconds": [took for _, took in hands],
        }
    finally:
        for context in contexts:
            context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="20 s idle windows, not 60 s: recorded hands as in full, idle figures rough "
        "(a page's held poll ends about every 32 s)",
    )
    parser.add_argument("--bare", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--without", choices=WITHOUT, help="turn one piece of machinery off")
    args = parser.parse_args()
    if args.bare:
        serve_bare(args.bare)
        return
    from playwright.sync_api import sync_playwright

    idle = 20.0 if args.quick else 60.0
    bare = bare_reference(2000)
    print(f"bare WSGI app under waitress: {bare * 1000:.3f} ms of CPU per 304")
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        log = Path(folder) / "serve.log"
        server = start_app(port, Path(folder) / "games.sqlite3", log, args.without)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
                results = {
                    size: measure_size(browser, f"http://127.0.0.1:{port}", server.pid, size, idle)
                    for size in SIZES
                }
                browser.close()
        finally:
            server.terminate()
            server.wait()
    print(f"one scorekeeper page and {WATCHERS} watch pages; idle windows of {idle:.0f} s")
    if args.without:
        print(f"without: {args.without}")
    print(
        "| | idle table-minute (CPU) | recorded hand (CPU, median / max) | every screen shows it |"
    )
    print("|---|---|---|---|")
    for size, result in results.items():
        hand_ms = result["hand_ms"]
        print(
            f"| hand {size} | {result['idle_minute_ms']:.0f} ms "
            f"(ticks: {result['idle_tick_check_ms']:.0f} ms) "
            f"| {statistics.median(hand_ms):.1f} / {max(hand_ms):.1f} ms "
            f"| {statistics.median(result['hand_seconds']):.2f} s |"
        )
    worst_idle = max(r["idle_minute_ms"] for r in results.values())
    worst_hand = max(statistics.median(r["hand_ms"]) for r in results.values())
    print(f"targets: idle table-minute <= 100 ms: {'met' if worst_idle <= 100 else 'MISSED'}; ")
    print(f"         recorded hand <= 50 ms: {'met' if worst_hand <= 50 else 'MISSED'}")
    ratio = results[SIZES[-1]]["idle_minute_ms"] / max(results[SIZES[0]]["idle_minute_ms"], 1e-9)
    print(f"hand {SIZES[-1]} costs {ratio:.1f}x hand {SIZES[0]} while idle")


if __name__ == "__main__":
    main()
