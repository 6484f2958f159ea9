"""A random list of phases, from the building blocks the rules know.

Every phase is made of sets, runs and colour groups (RULES.md 3, 4), in sizes
a hand can lay down: at least 6 and at most 10 cards in all, as in the official
lists (a hand is 10 cards, 11 after drawing); sets of 2 to 6, runs of 4 to 10
and colour groups of 4 to 9, the sizes the official lists use. A phase has one
to three groups, or four or five sets of 2 (as Phase 10 + 10 and Super Wild
have). The ten phases of a list differ. Randomness comes from the
``random.Random`` passed in, so a seed repeats a list.
"""

from __future__ import annotations

import itertools
import random
from functools import cache

from .phases import GroupKind, GroupSpec, Layout, Phase

LIST_LENGTH = 10
FEWEST_CARDS, MOST_CARDS = 6, 10
SIZES = {GroupKind.SET: range(2, 7), GroupKind.RUN: range(4, 11), GroupKind.COLOUR: range(4, 10)}
_ORDER = {GroupKind.SET: 0, GroupKind.RUN: 1, GroupKind.COLOUR: 2}


def _canonical(groups: tuple[GroupSpec, ...]) -> Layout:
    """Sets, then runs, then colour groups, larger first: '2 sets of 3 + run of 4'."""
    return tuple(sorted(groups, key=lambda spec: (_ORDER[spec.kind], -spec.size)))


@cache
def building_blocks() -> tuple[Layout, ...]:
    """Every layout a random list may hold, in a fixed order."""
    specs = [GroupSpec(kind, size) for kind in GroupKind for size in SIZES[kind]]
    found: dict[Layout, None] = {}
    for count in (1, 2, 3):
        for groups in itertools.combinations_with_replacement(specs, count):
            if FEWEST_CARDS <= sum(spec.size for spec in groups) <= MOST_CARDS:
                found[_canonical(groups)] = None
    pair = GroupSpec(GroupKind.SET, 2)
    found[(pair,) * 4] = found[(pair,) * 5] = None
    return tuple(found)


def draw_phases(rng: random.Random, count: int = LIST_LENGTH) -> tuple[Phase, ...]:
    """``count`` different phases, drawn evenly by how many groups they have."""
    by_groups: dict[int, list[Layout]] = {}
    for layout in building_blocks():
        by_groups.setdefault(min(len(layout), 3), []).append(layout)
    drawn: list[Layout] = []
    while len(drawn) < count:
        layout = rng.choice(by_groups[rng.choice(sorted(by_groups))])
        if layout not in drawn:
            drawn.append(layout)
    return tuple(Phase((layout,)) for layout in drawn)
