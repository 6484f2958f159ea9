"""A random list of phases, in the shapes of the official lists.

Each phase has one of the shapes the official lists (Phase 10, Phase 10 + 10 and
Super Wild's phase 7) give their phases (RULES.md 3, 4):

- two sets;
- a set and a run;
- three sets of 3;
- four or five sets of 2;
- one run;
- one colour group;
- a run and a colour group.

Sets hold 3 to 6 cards, or 2 beside a set of 5 or 6 (and in four or five sets of
2); runs hold 4 to 10 and colour groups 4 to 9. A phase holds 6 to 10 cards (a
hand is 10 cards, 11 after drawing), at most 9 of them in sets, but for five sets
of 2. docs/rules.md says the same to players. The ten phases of a list differ.
Randomness comes from the ``random.Random`` passed in, so a seed repeats a list.
"""

from __future__ import annotations

import random
from functools import cache

from .phases import GroupKind, GroupSpec, Layout, Phase

LIST_LENGTH = 10
FEWEST_CARDS, MOST_CARDS = 6, 10
MOST_IN_SETS = 9  # but for five sets of 2
SETS, RUNS, COLOURS = range(3, 7), range(4, 11), range(4, 10)


def _set(size: int) -> GroupSpec:
    return GroupSpec(GroupKind.SET, size)


def _run(size: int) -> GroupSpec:
    return GroupSpec(GroupKind.RUN, size)


def _colour(size: int) -> GroupSpec:
    return GroupSpec(GroupKind.COLOUR, size)


@cache
def building_blocks() -> tuple[Layout, ...]:
    """Every layout a random list may hold, in a fixed order: sets, then runs, then
    colour groups, larger first ('set of 5 + set of 2', 'run of 4 + 5 of one colour')."""
    fits = range(FEWEST_CARDS, MOST_CARDS + 1)
    two_sets: list[Layout] = [
        (_set(a), _set(b))
        for a in SETS
        for b in [2, *SETS]
        if b <= a and a + b in fits and a + b <= MOST_IN_SETS and (b > 2 or a >= 5)
    ]
    set_and_run: list[Layout] = [(_set(s), _run(r)) for s in SETS for r in RUNS if s + r in fits]
    many_sets: list[Layout] = [(_set(3),) * 3, (_set(2),) * 4, (_set(2),) * 5]
    one_run: list[Layout] = [(_run(r),) for r in RUNS if r in fits]
    one_colour: list[Layout] = [(_colour(c),) for c in COLOURS if c in fits]
    run_and_colour: list[Layout] = [
        (_run(r), _colour(c)) for r in RUNS for c in COLOURS if r + c in fits
    ]
    return tuple(two_sets + set_and_run + many_sets + one_run + one_colour + run_and_colour)


def draw_phases(rng: random.Random, count: int = LIST_LENGTH) -> tuple[Phase, ...]:
    """``count`` different phases, each layout of ``building_blocks`` as likely as any."""
    return tuple(Phase((layout,)) for layout in rng.sample(building_blocks(), count))
