"""How long the printables take to build: one game's sheet, and the whole standard set.

Run: .venv/bin/python bench/bench_printing.py
Targets: under 100 ms for a game's sheet (it is built on request), under 3 s for the set.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.printing import score_sheet, write_standard_set  # noqa: E402
from scorekeeper.rules.phases import make_rules  # noqa: E402

SHEET_TARGET = 0.100
SET_TARGET = 3.0


def timed(action, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    rules = make_rules("plus10", {"wild_points": "20"})

    def sheet() -> bytes:
        return score_sheet(
            rules,
            players=["Ann", "Bo", "Carmen", "Dev", "Eli", "Fatima"],
            title="Friday night",
            view_url="http://192.168.1.20:5000/games/42/view",
        )

    sheet()  # warm up: imports and font metrics
    sheet_times = timed(sheet, 30)
    with tempfile.TemporaryDirectory() as folder:
        set_times = timed(lambda: write_standard_set(Path(folder)), 3)

    sheet_median, set_median = statistics.median(sheet_times), statistics.median(set_times)
    ok = sheet_median < SHEET_TARGET and set_median < SET_TARGET
    print(
        f"per-game sheet: {sheet_median * 1000:.1f} ms median of {len(sheet_times)} "
        f"(target < {SHEET_TARGET * 1000:.0f} ms)"
    )
    print(
        f"standard set:   {set_median:.2f} s median of {len(set_times)} "
        f"(target < {SET_TARGET:.0f} s)"
    )
    print("within targets" if ok else "OVER TARGET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
