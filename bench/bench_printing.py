"""How long the printables take to build: a long game's sheet, and the whole standard set.

Run: .venv/bin/python bench/bench_printing.py
Targets: under 100 ms for the sheet of a 150-hand game (it is built on request,
from the state the store kept after each hand), under 3 s for the whole
standard set (`scorekeeper printables`). bench/bench_sheet.py breaks the
sheet's time down: replayed or kept, hand 8 or 150, through the app.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.printing import game_sheet, write_standard_set  # noqa: E402
from scorekeeper.rules.game import Game  # noqa: E402
from scorekeeper.rules.gamefile import load_game  # noqa: E402
from scorekeeper.rules.replay import replay_from  # noqa: E402

SHEET_TARGET = 0.100
SET_TARGET = 3.0
HANDS = 150
PLAYERS = ["Ann", "Bo", "Carmen", "Dmitri", "Eli", "Fatima"]


def long_game(hands: int = HANDS) -> Game:
    """Six players on a 30-phase list, each going out in turn: a game that long is legal."""
    played = []
    for number in range(hands):
        out = PLAYERS[number % len(PLAYERS)]
        points = {name: 50 + 5 * ((number + seat) % 4) for seat, name in enumerate(PLAYERS)}
        del points[out]
        played.append({"went_out": out, "made": [out], "points": points})
    options = {"custom_phases": "; ".join(["2 sets of 3"] * 30)}
    return load_game({"options": options, "players": PLAYERS, "hands": played})


def timed(action, repeat: int, clock=time.perf_counter) -> list[float]:
    times = []
    for _ in range(repeat):
        start = clock()
        action()
        times.append(clock() - start)
    return times


def main() -> int:
    game = long_game()
    kept = replay_from(game).kept  # what the store keeps with each version

    def sheet() -> bytes:
        url = "http://192.168.1.20:5010/v/AbCdEfGhIjKlMnOpQrStUv"
        return game_sheet(game, view_url=url, kept=kept)

    pages = sheet().count(b"/Type /Page\n")  # warm up: imports and font metrics
    sheet_times = timed(sheet, 20)
    sheet_cpu = statistics.median(timed(sheet, 20, time.process_time))
    with tempfile.TemporaryDirectory() as folder:
        set_times = timed(lambda: write_standard_set(Path(folder)), 3)
        files = len(list(Path(folder).glob("*.pdf")))

    sheet_median, set_median = statistics.median(sheet_times), statistics.median(set_times)
    ok = sheet_median < SHEET_TARGET and set_median < SET_TARGET
    print(
        f"{HANDS}-hand game sheet ({pages} pages): {sheet_median * 1000:.1f} ms median, "
        f"{max(sheet_times) * 1000:.1f} ms worst of {len(sheet_times)}, "
        f"{sheet_cpu * 1000:.1f} ms CPU (target < {SHEET_TARGET * 1000:.0f} ms)"
    )
    print(
        f"standard set ({files} PDFs): {set_median:.2f} s median of {len(set_times)} "
        f"(target < {SET_TARGET:.0f} s)"
    )
    print("within targets" if ok else "OVER TARGET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
