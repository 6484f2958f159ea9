"""How long a game's score sheet takes: at hand 8 and at hand 150, the ways it is built.

Run: .venv/bin/python bench/bench_sheet.py [--repeat N]
Target: a 150-hand game's sheet in under 100 ms, built on request (issue 11).

For each game size it prints the median (and worst) of N builds of:
- replayed: ``game_sheet(game)``, replaying and re-checking every hand (the
  command line's ``scorekeeper print game.json``, which has only the game file);
- kept: ``game_sheet(game, kept=...)``, reading the state the store kept after
  each hand, as the app does (nothing replayed);
- app, new version: the sheet's URL through the app on a real SQLite file, the
  first request for a version (the kept sheets are forgotten before each one);
- app, again: the same URL once that version's sheet is kept.
The games are the ones bench/bench_printing.py times: six players on a 30-phase
list, each going out in turn.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_printing import long_game  # noqa: E402

from scorekeeper import actions, create_app, store  # noqa: E402
from scorekeeper.printing import game_sheet  # noqa: E402
from scorekeeper.rules.gamefile import game_to_json  # noqa: E402
from scorekeeper.rules.replay import replay_from  # noqa: E402
from scorekeeper.web import versioned  # noqa: E402

TARGET = 0.100
SIZES = (8, 150)
VIEW_URL = "http://192.168.1.20:5010/v/AbCdEfGhIjKlMnOpQrStUv"


def timed(action: Callable[[], object], repeat: int) -> tuple[list[float], list[float]]:
    """(wall-clock, CPU) seconds of each of ``repeat`` runs, after one to warm up."""
    action()  # warm up: imports, fonts, the QR code
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        action()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    return wall, cpu


def line(label: str, wall: list[float], cpu: list[float]) -> str:
    median, worst = statistics.median(wall) * 1000, max(wall) * 1000
    return (
        f"  {label:<18} {median:7.1f} ms median {worst:7.1f} ms worst of {len(wall)}"
        f"  {statistics.median(cpu) * 1000:7.1f} ms CPU"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21, help="builds per figure (default 21)")
    repeat = parser.parse_args().repeat
    print(f"Machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print(f"Load average before the run: {', '.join(f'{n:.2f}' for n in os.getloadavg())}")
    medians: dict[tuple[int, str], float] = {}
    cpu_medians: dict[tuple[int, str], float] = {}
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": f"{folder}/bench.sqlite3", "SECRET_KEY": "bench"})
        app.config["PUBLIC_URL"] = "http://192.168.1.20:5010"
        client = app.test_client()
        with app.app_context():
            db = store.connection.connect(app.config["DATABASE"])
        for hands in SIZES:
            game = long_game(hands)
            kept = replay_from(game).kept
            saved = actions.games.start_game(db, game_to_json(game))
            assert isinstance(saved, actions.results.Saved), saved
            url = f"/v/{saved.current.stored.id}/print/score-sheet.pdf"
            pages = game_sheet(game, view_url=VIEW_URL).count(b"/Type /Page\n")

            def fresh_request(url: str = url) -> None:
                versioned._renders.clear()  # as if this version had never been printed
                assert client.get(url).status_code == 200

            def kept_request(url: str = url) -> None:
                assert client.get(url).status_code == 200

            runs = {
                "replayed": lambda game=game: game_sheet(game, view_url=VIEW_URL),
                "kept": lambda game=game, kept=kept: game_sheet(game, view_url=VIEW_URL, kept=kept),
                "app, new version": fresh_request,
                "app, again": kept_request,
            }
            print(f"\nSheet of a game at hand {hands} ({pages} pages):")
            for label, run in runs.items():
                wall, cpu = timed(run, repeat)
                medians[hands, label] = statistics.median(wall)
                cpu_medians[hands, label] = statistics.median(cpu)
                print(line(label, wall, cpu))
        store.connection.close_all()

    print("\nHand 150 against hand 8 (medians, wall-clock and CPU):")
    for label in ("replayed", "kept", "app, new version"):
        ratio = medians[SIZES[-1], label] / medians[SIZES[0], label]
        cpu_ratio = cpu_medians[SIZES[-1], label] / cpu_medians[SIZES[0], label]
        print(f"  {label:<18} {ratio:5.1f} x  {cpu_ratio:5.1f} x CPU")
    key = (SIZES[-1], "app, new version")
    print("\n150-hand sheet through the app, new version (target < 100 ms):")
    print(f"  wall-clock {medians[key] * 1000:6.1f} ms: {verdict(medians[key])}")
    print(f"  CPU        {cpu_medians[key] * 1000:6.1f} ms: {verdict(cpu_medians[key])}")
    if medians[key] > 1.5 * cpu_medians[key]:
        print("  (wall-clock well above CPU: the run waited for a busy core)")
    return 0 if medians[key] < TARGET else 1


def verdict(seconds: float) -> str:
    return "met" if seconds < TARGET else "OVER TARGET"


if __name__ == "__main__":
    raise SystemExit(main())
