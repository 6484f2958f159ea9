"""What the costliest printable costs: names in Chinese, Japanese and Korean that ask for
the most font work, and a Save waiting beside it on the same worker.

Not a test: it prints figures (docs/benchmarks.md quotes them).

    .venv/bin/python bench/bench_cjk_printing.py [--server]   # a minute or two

1. In a fresh process each time (the first request after a start), CPU seconds and the
   peak memory above what the process held before, split into the process's own memory and
   the pages of the files it read (the CJK collection and the libraries: shared with every
   other process, and dropped by the system when it needs the room):
   - a game's sheet for six 40-letter names, Chinese, Japanese and Korean by turns,
     every letter from a 64-code-point block of its own (``tests/printed.py``), printed
     in bold and regular: first, again, then for six other such names (warm);
   - a night's seating cards and room list for 180 players whose 40-letter names share
     no character (7,200 characters: the most glyphs one printable can hold): first,
     again, then for 180 other such names (warm);
   and the CJK fonts the process keeps afterwards.
2. Through ``scorekeeper serve`` with one worker: how long a Save (a hand sent through
   the API) takes alone, and while that worker builds the six names' sheet, the first
   after its start and then one for six other names; the worker's CPU for the sheet
   (``--server``: this part alone).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from printed import scattered_names  # noqa: E402
from servers import Server, call  # noqa: E402

NIGHT_PLAYERS = 180  # actions.MOST_AT_A_NIGHT
TICKS = os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int | str = "self") -> tuple[float, float]:
    """(resident, peak resident) MB of a process, from /proc."""
    fields = _status(pid)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def file_mb(pid: int | str = "self") -> float:
    """The resident MB that are pages of files (fonts, libraries) rather than the process's
    own memory: shared with every process that reads them, dropped under memory pressure."""
    return int(_status(pid)["RssFile"].split()[0]) / 1024


def _status(pid: int | str) -> dict[str, str]:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return dict(line.split(":", 1) for line in lines)


def reset_peak(pid: int | str = "self") -> None:
    """Start counting the peak resident memory again from now (Linux's clear_refs)."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def distinct_names(count: int, length: int = 40, skip: int = 0) -> list[str]:
    """``count`` names sharing no character: Chinese characters taken in order (after the
    first ``skip`` of them)."""
    letters = iter(range(0x4E00 + skip, 0xA000))
    return ["".join(chr(next(letters)) for _ in range(length)) for _ in range(count)]


def game_of(players: list[str]):
    from scorekeeper.rules.gamefile import load_game

    out = players[0]
    hand = {"went_out": out, "made": [out], "points": {name: 50 for name in players[1:]}}
    return load_game({"players": players, "hands": [hand, hand]})


def cjk_fonts() -> int:
    from reportlab.pdfbase import pdfmetrics

    return sum(name.startswith("NotoSansCJK") for name in pdfmetrics.getRegisteredFontNames())


def measured(build) -> dict[str, float]:
    """CPU seconds, and MB above what the process held before: at the peak, of that the
    pages of files it read (the CJK collection, libraries), and still held after."""
    before, _peak = rss_mb()
    files = file_mb()
    reset_peak()
    start = time.process_time()
    build()
    cpu = time.process_time() - start
    after, peak = rss_mb()
    return {"cpu": cpu, "peak": peak - before, "files": file_mb() - files, "kept": after - before}


def child(case: str) -> None:
    """One case in this fresh process; its figures as JSON on stdout."""
    from scorekeeper.printing import game_sheet
    from scorekeeper.printing.night_seating import seating_cards
    from scorekeeper.rules.nights import TableSeating

    game_sheet(game_of(["Ann", "Bob", "Cy"]))  # a start: imports, the Latin fonts
    start, _peak = rss_mb()
    figures: dict[str, dict[str, float]] = {}
    if case == "sheet":
        worst = game_of(scattered_names(6))
        figures["first"] = measured(lambda: game_sheet(worst))
        figures["again"] = measured(lambda: game_sheet(worst))
        other = game_of(scattered_names(6, skip=6))
        figures["other names"] = measured(lambda: game_sheet(other))
    else:
        names = distinct_names(NIGHT_PLAYERS)
        tables = [TableSeating(n + 1, tuple(names[4 * n : 4 * n + 4])) for n in range(45)]
        figures["first"] = measured(lambda: seating_cards("Club night", 1, tables))
        figures["again"] = measured(lambda: seating_cards("Club night", 1, tables))
        names = distinct_names(NIGHT_PLAYERS, skip=NIGHT_PLAYERS * 40)
        others = [TableSeating(n + 1, tuple(names[4 * n : 4 * n + 4])) for n in range(45)]
        figures["other names"] = measured(lambda: seating_cards("Club night", 1, others))
    figures["process"] = {"fonts": cjk_fonts(), "kept": rss_mb()[0] - start}
    print(json.dumps(figures))


def in_fresh_process(case: str) -> dict[str, dict[str, float]]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", case], check=True, capture_output=True, text=True
    )
    return json.loads(done.stdout)


def save(base: str, hands_url: str, number: int, players: list[str]) -> float:
    out = players[0]
    hand = {"went_out": out, "made": [out], "points": {name: 50 for name in players[1:]}}
    start = time.perf_counter()
    status, _answer = call(hands_url, {"hand_number": number, "hand": hand}, timeout=900)
    assert status == 201, status
    return time.perf_counter() - start


def beside_a_sheet(server: Server, names: list[str], saves: dict) -> dict[str, float]:
    """A sheet for ``names`` asked of the worker, and a Save sent 0.1 s later."""
    _status, game = call(server.base + "/api/games", {"players": names})
    url = f"{server.base}/v/{game['id']}/print/score-sheet.pdf"
    pid = server.process.pid
    cpu, (rss, _peak) = cpu_seconds(pid), rss_mb(pid)
    reset_peak(pid)
    took: dict[str, float] = {}

    def fetch() -> None:
        start = time.perf_counter()
        with urllib.request.urlopen(url, timeout=900) as answer:
            answer.read()
        took["sheet"] = time.perf_counter() - start

    fetching = threading.Thread(target=fetch)
    fetching.start()
    time.sleep(0.1)
    saves["number"] += 1
    took["save"] = save(server.base, saves["url"], saves["number"], saves["players"])
    fetching.join()
    after, peak = rss_mb(pid)
    took.update(cpu=cpu_seconds(pid) - cpu, peak=peak - rss, kept=after - rss)
    return took


def through_the_server() -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        env = {"SCOREKEEPER_RATE_LIMIT_PRINT": "10000 per minute"}
        server = Server(Path(folder) / "games.sqlite3", env=env).start()
        try:
            players = ["Ann", "Bob", "Cy"]
            _status, game = call(server.base + "/api/games", {"players": players})
            saves = {"url": game["hands_url"], "number": 0, "players": players}
            alone = []
            for _ in range(5):
                saves["number"] += 1
                alone.append(save(server.base, saves["url"], saves["number"], players))
            first = beside_a_sheet(server, scattered_names(6), saves)
            warm = beside_a_sheet(server, scattered_names(6, skip=6), saves)
        finally:
            server.kill()
    return {"alone": statistics.median(alone), "first": first, "warm": warm}


def main() -> int:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if "--server" not in sys.argv:
        in_process()
    served = through_the_server()
    print("Through `serve`, one worker:")
    print(f"  a Save alone: {served['alone'] * 1000:.0f} ms (median of 5)")
    for label in ("first", "warm"):
        row = served[label]
        assert isinstance(row, dict)
        print(
            f"  sheet ({label}): {row['sheet']:.2f} s, worker {row['cpu']:.2f} s CPU, peak "
            f"+{row['peak']:.1f} MB, kept +{row['kept']:.1f} MB; a Save beside it "
            f"{row['save'] * 1000:.0f} ms"
        )
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


def in_process() -> None:
    sheet, night = in_fresh_process("sheet"), in_fresh_process("night")
    print("Six 40-letter CJK names, every letter in a block of its own (a game's sheet):")
    for label in ("first", "again", "other names"):
        _row(label, sheet[label])
    print(
        f"  the process keeps {sheet['process']['fonts']:.0f} CJK fonts, "
        f"+{sheet['process']['kept']:.1f} MB"
    )
    print(f"A night's seating cards, {NIGHT_PLAYERS} names with no character in common:")
    for label in ("first", "again", "other names"):
        _row(label, night[label])
    print(
        f"  the process keeps {night['process']['fonts']:.0f} CJK fonts, "
        f"+{night['process']['kept']:.1f} MB"
    )


def _row(label: str, row: dict[str, float]) -> None:
    own = row["peak"] - row["files"]
    print(
        f"  {label:<12} {row['cpu']:6.2f} s CPU, peak +{row['peak']:5.1f} MB = {own:5.1f} MB "
        f"its own + {row['files']:4.1f} MB of files; kept +{row['kept']:5.1f} MB"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2])
    else:
        raise SystemExit(main())
