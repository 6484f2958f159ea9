"""How long do a busy table's page and statistics take? Prints the figures.

Run: .venv/bin/python bench/bench_tables.py [--games N]

A family playing every week for years has a few hundred games. Both pages
replay every game from its hands on each view; the figures say whether that
is still quick enough (a page in well under a second on a small machine).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from games import played_to_the_end  # noqa: E402

from scorekeeper import create_app, store
from scorekeeper.store import tables  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(10)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": f"{tmp}/bench.sqlite3", "SECRET_KEY": "bench"})
        db = store.connection.connect(app.config["DATABASE"])
        table = tables.create_table(db, "Bench family")
        hands = 0
        for _ in range(args.games):
            state = played_to_the_end(rng, ["Ann", "Bob", "Cy"], most_left=150)
            hands += len(state["hands"])
            stored = store.games.create_game(db, state)
            tables.file_game(db, table.id, stored.id, state["players"])
        client = app.test_client()
        print(f"{args.games} games, {hands} hands")
        for label, path in (
            ("table page", f"/t/{table.id}"),
            ("statistics", f"/t/{table.id}/stats"),
        ):
            times = []
            for _ in range(5):
                start = time.perf_counter()
                response = client.get(path)
                times.append(time.perf_counter() - start)
                assert response.status_code == 200, response.status_code
            print(
                f"{label:12s} median {statistics.median(times) * 1000:7.1f} ms"
                f"  worst {max(times) * 1000:7.1f} ms  ({len(response.data) // 1024} KB)"
            )


if __name__ == "__main__":
    main()
