"""How long does rating a list of ten phases take? Prints the figures for each kind of list.

Run: .venv/bin/python bench/bench_rating.py [--repeats N]

Target (issue 23): rating ten phases answers within 2 s on this machine, with the
default 1,000 deals and 5 turns, through the JSON API as a phone or a script
would ask (/api/rate, in-process) as well as in the engine alone
(rules.rating.rate). Each list is timed N times; the best and the worst are
printed, so a busy machine's pauses show in the worst and not in the best.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.rules import rating  # noqa: E402
from scorekeeper.rules.draw import draw_phases  # noqa: E402
from scorekeeper.rules.phases import PLUS10_PHASES, Phase, parse_phase_list
from scorekeeper.rules.ruleset import Rules, make_rules

TARGET_S = 2.0
# Ten phases of up to 11 cards with as many groups as a phase may have: the solver's
# slowest kind of list that a hand could still make.
MANY_GROUPS = parse_phase_list(
    "; ".join(
        [
            "5 sets of 2",
            "2 runs of 2 + 2 sets of 2 + 2 of one colour",
            "3 runs of 3 + set of 2",
            "2 x 4 of one colour + set of 3",
            "set of 3 + run of 4 + 4 of one colour",
            "3 x 3 of one colour + set of 2",
            "run of 5 + run of 6",
            "set of 2 + run of 3 + 3 of one colour + set of 3",
            "6 runs of 2",
            "2 sets of 2 + 2 runs of 3 + set of 2 + run of 2",
        ]
    )
)


def lists() -> list[tuple[str, Rules, tuple[Phase, ...]]]:
    official, super_wild = make_rules(), make_rules("super-wild")
    per_phase = make_rules(options={"natural": "phase"})
    found = [
        ("official", official, official.phase_list),
        ("Phase 10 + 10, phases 11-20", official, PLUS10_PHASES[10:]),
        ("Super Wild (Super Wild in the deck)", super_wild, super_wild.phase_list),
        ("official, natural=phase", per_phase, official.phase_list),
        ("many groups, up to 11 cards", official, MANY_GROUPS),
    ]
    for seed in range(3):
        found.append((f"drawn, seed {seed}", official, draw_phases(random.Random(seed))))
    return found


def timed(run: Callable[[], object], repeats: int) -> tuple[float, float]:
    """(best, worst) seconds over ``repeats`` runs."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times), max(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="time each list N times")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE": str(Path(folder) / "bench.sqlite3"),
                "SECRET_KEY": "bench",
                "RATE_LIMIT_RATE": "100000 per minute",
            }
        )
        client = app.test_client()
        print(
            f"{rating.DEFAULT_TRIALS} deals, {rating.DEFAULT_TURNS} turns, each list timed "
            f"{args.repeats}x; seconds (best / worst)"
        )
        print(f"{'list':38} {'engine':>15} {'/api/rate':>15}")
        all_ok = True
        for name, rules, phases in lists():
            engine = timed(lambda r=rules, p=phases: rating.rate(p, r), args.repeats)
            body = {
                "phases": "; ".join(phase.notation for phase in phases),
                "rules": rules.profile,
                "options": rules.changed_options(),
            }

            def ask(body: dict = body) -> None:
                response = client.post("/api/rate", json=body)
                assert response.status_code == 200, response.get_data(as_text=True)

            api = timed(ask, args.repeats)
            all_ok &= api[0] < TARGET_S
            print(
                f"{name:38} {engine[0]:>7.2f} / {engine[1]:<5.2f} {api[0]:>7.2f} / {api[1]:<5.2f}"
            )
        print(f"target: ten phases rated within {TARGET_S} s (best of each, API): ", end="")
        print("met" if all_ok else "NOT met")
    return 0 if all_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
