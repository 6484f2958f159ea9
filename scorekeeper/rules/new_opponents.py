"""Seating "new opponents" (rule 11): the tables with the fewest pairs who have met tonight.

Finding them is a hard partitioning problem in general: a greedy seating is improved by
swaps and restarted from new draws, within a bound on the work, after trying the
seatings along a plane's lines (``seating_lines``) that plan a full room's night.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from .seating_lines import line_seatings

# The search for new_opponents: greedy, then swaps, restarted from new draws.
STALE_RESTARTS = 12  # restarts in a row that found nothing better: stop
MOST_SWAPS_TRIED = 60_000  # the whole search's work, whatever the size of the room


def fewest_repeats(
    names: list[str],
    sizes: Sequence[int],
    met: Counter[frozenset[str]],
    rng: random.Random,
    pins: Mapping[str, int] | None = None,
    rounds: Sequence[Sequence[Sequence[str]]] = (),
) -> list[list[str]]:
    """Tables with the fewest pairs who have met, then the least met of them, then spread.

    The cost of a seating is, compared in this order: the pairs at one table who
    have met before tonight; how often those pairs met, added up (the pair that
    met most is the last to meet again); and, added over the players, the square
    of how many at their table they have met (no one player takes every repeat).
    A greedy seating is improved by swapping two players at different tables, or
    moving one to a table one seat smaller, while that lowers the cost; this is
    restarted from new random draws until
    a seating without repeats is found, ``STALE_RESTARTS`` restarts in a row find
    nothing better, or ``MOST_SWAPS_TRIED`` swaps have been tried in all. ``pins``:
    players who keep a table (by its index), never swapped or moved.

    Searching round by round cannot plan for the last rounds of a full room, so the
    seatings along a plane's lines (``seating_lines``, given the night's ``rounds``
    so far) are tried first: one without repeats is kept without searching, and
    otherwise the best of them is kept when the search finds nothing better.
    """
    n = len(names)
    index = {name: i for i, name in enumerate(names)}
    fixed = {index[name]: table for name, table in (pins or {}).items()}
    times = [[0] * n for _ in range(n)]
    for pair, count in met.items():
        a, b = sorted(pair)
        if a in index and b in index:
            times[index[a]][index[b]] = times[index[b]][index[a]] = count
    most_met = max((max(row) for row in times), default=0)
    scale = n * n * (most_met + 1) * 36 + 1  # each part of the cost stays below the next's unit

    def cost(table: Sequence[int]) -> int:
        repeats = weight = spread = 0
        for a in table:
            known = 0
            for b in table:
                if a != b and times[a][b]:
                    known += 1
                    if b > a:
                        repeats += 1
                        weight += times[a][b]
            spread += known * known
        return (repeats * scale + weight) * scale + spread

    best = [] if fixed else _best_line_seating(names, sizes, rounds, cost)
    best_cost = sum(cost(table) for table in best)
    if best and best_cost == 0:
        return [[names[i] for i in table] for table in _numbered(best, fixed)]
    order = list(range(n))
    work = stale = 0
    while work < MOST_SWAPS_TRIED and stale < STALE_RESTARTS:
        rng.shuffle(order)
        tables = _greedy(order, sizes, times, cost, fixed)
        work += _improve(tables, cost, MOST_SWAPS_TRIED - work, set(fixed))
        total = sum(cost(table) for table in tables)
        if not best or total < best_cost:
            best, best_cost, stale = tables, total, 0
        else:
            stale += 1
        if best_cost == 0:
            break
    return [[names[i] for i in table] for table in _numbered(best, fixed)]


def _best_line_seating(
    names: Sequence[str],
    sizes: Sequence[int],
    rounds: Sequence[Sequence[Sequence[str]]],
    cost: Callable[[Sequence[int]], int],
) -> list[list[int]]:
    """The cheapest of the seatings along a plane's lines, fitted to ``sizes`` and
    improved; [] when there is none. Lines hold players by index into ``names``: the
    largest line is the largest table, players beyond a table's size or not on the plane
    go, one by one, where they add the least cost."""
    index = {name: i for i, name in enumerate(names)}
    targets = sorted(sizes, reverse=True)
    best: list[list[int]] = []
    best_cost = 0
    for lines, rest in line_seatings(names, len(sizes), rounds):
        tables = sorted(([index[name] for name in line] for line in lines), key=len, reverse=True)
        waiting = [index[name] for name in rest]
        for table, size in zip(tables, targets, strict=True):
            while len(table) > size:
                waiting.append(table.pop())
        for player in waiting:
            open_tables = [t for t, size in enumerate(targets) if len(tables[t]) < size]
            target = min(open_tables, key=lambda t: cost([*tables[t], player]) - cost(tables[t]))
            tables[target].append(player)
        total = sum(cost(table) for table in tables)
        if not best or total < best_cost:
            best, best_cost = tables, total
    if best_cost:
        _improve(best, cost, MOST_SWAPS_TRIED)
    return best


def _numbered(tables: list[list[int]], fixed: Mapping[int, int]) -> list[list[int]]:
    """The tables in number order, the larger first (a move may have left a smaller table
    first); a table with a player who keeps it stays at its number (moves never change its
    size, so the sizes still fall in order)."""
    held = {fixed[player]: table for table in tables for player in table if player in fixed}
    free = sorted((t for t in tables if not any(p in fixed for p in t)), key=len, reverse=True)
    rest = iter(free)
    return [held[index] if index in held else next(rest) for index in range(len(tables))]


def _improve(
    tables: list[list[int]],
    cost: Callable[[Sequence[int]], int],
    budget: int,
    fixed: set[int] | None = None,
) -> int:
    """Lower the cost while a change lowers it: swap two players at different tables, or
    move one from a table to a table one seat smaller (the sizes stay the same, only which
    table has which). Returns the changes tried; stops once they reach ``budget``.
    ``fixed``: players who keep their table: never swapped, and their table never moved to
    or from (its size is its number's)."""
    fixed = fixed or set()
    costs = [cost(table) for table in tables]
    work = 0
    improved = True
    while improved and work < budget:
        improved = False
        for t, u in itertools.permutations(range(len(tables)), 2):
            here, there = tables[t], tables[u]
            if t < u:
                for i, j in itertools.product(range(len(here)), range(len(there))):
                    if here[i] in fixed or there[j] in fixed:
                        continue
                    work += 1
                    here[i], there[j] = there[j], here[i]
                    new_t, new_u = cost(here), cost(there)
                    if new_t + new_u < costs[t] + costs[u]:
                        costs[t], costs[u], improved = new_t, new_u, True
                    else:
                        here[i], there[j] = there[j], here[i]
            if len(here) == len(there) + 1 and not fixed.intersection(here + there):
                for i, player in enumerate(here):
                    work += 1
                    new_t = cost(here[:i] + here[i + 1 :])
                    new_u = cost([*there, player])
                    if new_t + new_u < costs[t] + costs[u]:
                        del here[i]
                        there.append(player)
                        costs[t], costs[u], improved = new_t, new_u, True
                        break
    return work


def _greedy(
    order: Sequence[int],
    sizes: Sequence[int],
    times: Sequence[Sequence[int]],
    cost: Callable[[Sequence[int]], int],
    fixed: Mapping[int, int] | None = None,
) -> list[list[int]]:
    """Each player in turn, the ones who have met the most first, to the table where they
    add the least cost (the emptiest, among equals); ``fixed``: players already at the
    table they keep."""
    fixed = fixed or {}
    tables: list[list[int]] = [[] for _ in sizes]
    for player, table in fixed.items():
        tables[table].append(player)
    free = [player for player in order if player not in fixed]
    for player in sorted(free, key=lambda p: -sum(1 for count in times[p] if count)):
        open_tables = [t for t, size in enumerate(sizes) if len(tables[t]) < size]
        target = min(
            open_tables,
            key=lambda t: (
                cost([*tables[t], player]) - cost(tables[t]),
                len(tables[t]) - sizes[t],
            ),
        )
        tables[target].append(player)
    return tables
