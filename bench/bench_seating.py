"""How good and how quick is seating a club night with "new opponents"? Prints the figures.

Run: .venv/bin/python bench/bench_seating.py [--players 40] [--rounds 5] [--seconds 60]

Target (issue 40): seating 40 players over 5 rounds with "new opponents" repeats at
most one pair more than a 60-second search finds, and seating a round costs under
100 ms. Two rooms are tried: the app's own choice of tables (as many as the players
allow, so the fewest per table) and the fewest tables (six at most at a table, so
the most pairs meet each round and repeats cannot be avoided by the last rounds).

The app seats one round at a time, as a night is played (it cannot know who will
come to the next round). The search below is independent of the app's code: it
plans the whole night at once, starting from random tables and swapping two players
at different tables of one round while that does not add repeats, restarting from
new random tables when it stops finding better, until its time is up. A repeat is
counted as the app counts it: a pair at one table who already sat together earlier
that night, once for every round it happens.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.rules.nights import MOST_AT_A_TABLE, Mode, seat_round, table_sizes  # noqa: E402

TARGET_MS = 100.0
TARGET_EXTRA_PAIRS = 1


def app_night(players: list[str], rounds: int, tables: int | None) -> tuple[int, list[float]]:
    """The app's seating, round by round (the first at random, as a night's first round
    is): its repeats in all and each round's CPU in ms."""
    earlier: list[tuple[str, ...]] = []
    repeats, costs = 0, []
    for number in range(1, rounds + 1):
        start = time.process_time()
        mode = Mode.RANDOM if number == 1 else Mode.NEW_OPPONENTS  # as actions/nights seats
        seating = seat_round(players, mode, seed=f"bench-{number}", earlier=earlier, tables=tables)
        costs.append((time.process_time() - start) * 1000)
        repeats += seating.repeats
        earlier += [table.seats for table in seating.tables]
    return repeats, costs


def searched_night(
    count: int, rounds: int, sizes: tuple[int, ...], seconds: float, seed: int
) -> tuple[int, int]:
    """The fewest repeats a whole-night search finds in ``seconds``; and the swaps it tried."""
    rng = random.Random(seed)
    deadline = time.process_time() + seconds
    best = None
    tried = 0
    while time.process_time() < deadline and best != 0:
        repeats, swaps = _climb(count, rounds, sizes, rng, deadline)
        tried += swaps
        best = repeats if best is None else min(best, repeats)
    assert best is not None
    return best, tried


def _climb(
    count: int, rounds: int, sizes: tuple[int, ...], rng: random.Random, deadline: float
) -> tuple[int, int]:
    """One restart: random tables, then swaps that do not add repeats, until stuck."""
    where: list[list[int]] = []  # where[round][player]: the player's table that round
    tables: list[list[list[int]]] = []
    for _ in range(rounds):
        order = list(range(count))
        rng.shuffle(order)
        starts = list(itertools.accumulate(sizes, initial=0))
        room = [order[a:b] for a, b in zip(starts, starts[1:], strict=False)]
        tables.append(room)
        seat = [0] * count
        for number, table in enumerate(room):
            for player in table:
                seat[player] = number
        where.append(seat)
    met = [[0] * count for _ in range(count)]
    for room in tables:
        for table in room:
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
    repeats = sum(max(0, met[a][b] - 1) for a, b in itertools.combinations(range(count), 2))
    best, swaps, since_better = repeats, 0, 0
    while repeats and since_better < 20 * count * rounds:
        swaps += 1
        if swaps % 1000 == 0 and time.process_time() >= deadline:
            break
        r = rng.randrange(rounds)
        a, b = rng.sample(range(count), 2)
        ta, tb = where[r][a], where[r][b]
        if ta == tb:
            continue
        here, there = tables[r][ta], tables[r][tb]
        change = 0
        for x in here:
            if x != a:
                change -= met[a][x] >= 2
                change += met[b][x] >= 1
        for y in there:
            if y != b:
                change -= met[b][y] >= 2
                change += met[a][y] >= 1
        if change > 0:
            since_better += 1
            continue
        for x in here:
            if x != a:
                met[a][x] -= 1
                met[x][a] -= 1
                met[b][x] += 1
                met[x][b] += 1
        for y in there:
            if y != b:
                met[b][y] -= 1
                met[y][b] -= 1
                met[a][y] += 1
                met[y][a] += 1
        here[here.index(a)], there[there.index(b)] = b, a
        where[r][a], where[r][b] = tb, ta
        repeats += change
        if repeats < best:
            best, since_better = repeats, 0
        else:
            since_better += 1
    return best, swaps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=60.0, help="the search's CPU time")
    args = parser.parse_args()
    players = [f"Player {n:02d}" for n in range(1, args.players + 1)]
    fewest_tables = -(-args.players // MOST_AT_A_TABLE)
    print(f"{args.players} players, {args.rounds} rounds, 'new opponents'")
    print(f"targets: at most {TARGET_EXTRA_PAIRS} repeat more than a {args.seconds:g} s search;")
    print(f"         seating a round under {TARGET_MS:g} ms of CPU\n")
    met_all = True
    for label, tables in (("the app's tables", None), ("the fewest tables", fewest_tables)):
        sizes = table_sizes(args.players, tables)
        repeats, costs = app_night(players, args.rounds, tables)
        found, swaps = searched_night(args.players, args.rounds, sizes, args.seconds, seed=40)
        close = repeats <= found + TARGET_EXTRA_PAIRS
        quick = max(costs) < TARGET_MS
        met_all = met_all and close and quick
        print(f"{label}: {len(sizes)} tables of {'/'.join(map(str, sizes))}")
        print(f"  app:    {repeats} repeats; CPU per round " + ", ".join(f"{c:.0f}" for c in costs))
        print(f"          ms (slowest {max(costs):.0f} ms: {'met' if quick else 'MISSED'})")
        print(f"  search: {found} repeats after {swaps:,} swaps in {args.seconds:g} s")
        print(f"  within {TARGET_EXTRA_PAIRS} of the search: {'met' if close else 'MISSED'}\n")
    print("all targets met" if met_all else "a target was MISSED")
    return 0 if met_all else 1


if __name__ == "__main__":
    raise SystemExit(main())
