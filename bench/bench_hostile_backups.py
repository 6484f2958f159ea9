"""Hostile table backups: how long each takes to be refused.

Not a test: it prints figures (docs/benchmarks.md has them). The backups are the
ones tests/test_table_archive.py refuses, built by tests/hostile_backups.py.

    .venv/bin/python bench/bench_hostile_backups.py     # about a second
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import hostile_backups  # noqa: E402

from scorekeeper.backup import table_archive  # noqa: E402

ROUNDS = 20


def refused_in(data: bytes) -> tuple[float, str]:
    """Median seconds to refuse ``data``, and the message."""
    times, message = [], ""
    for _ in range(ROUNDS):
        start = time.perf_counter()
        try:
            table_archive.read(data)
        except table_archive.ArchiveError as error:
            message = str(error)
        times.append(time.perf_counter() - start)
    return statistics.median(times), message


def main() -> None:
    print(f"{'backup':<34} {'bytes':>7} {'refused in':>11}  message")
    for name, build in hostile_backups.HOSTILE.items():
        data = build()
        seconds, message = refused_in(data)
        print(f"{name:<34} {len(data):>7} {seconds * 1000:>8.2f} ms  {message[:60]}")


if __name__ == "__main__":
    main()
