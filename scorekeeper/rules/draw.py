"""A random list of phases, from the building blocks the rules know.

Every phase is made of sets, runs and colour groups (RULES.md 3, 4), in sizes
a hand can lay down: at least 6 and at most 10 cards in all, as in the official
lists (a hand is 10 cards, 11 after drawing); sets of 2 to 6, runs of 4 to 10
and colour groups of 4 to 9, the sizes the official lists use. A phase has one
to three groups, or four or five sets of 2 (as Phase 10 + 10 and Super Wild
have). Otherwise their shapes are kept: a set of 2 only beside a set of 5 or 6,
one colour group at most, and at most 9 cards in sets. The ten phases of a
list differ. Randomness comes from the ``random.Random`` passed in, so a seed
repeats a list.
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
            if FEWEST_CARDS <= sum(spec.size for spec in groups) <= MOST_CARDS and _fair(groups):
                found[_canonical(groups)] = None
    pair = GroupSpec(GroupKind.SET, 2)
    found[(pair,) * 4] = found[(pair,) * 5] = None
    return tuple(found)


def _fair(groups: tuple[GroupSpec, ...]) -> bool:
    """Shapes like the official lists': a set of 2 only beside a set of 5 or more (pairs
    are so common that '2 sets of 2 + 4 of one colour' is made by nearly every hand), at
    most one colour group (two are nearly as easy), at most 9 cards in sets (6 + 4 is
    nearly never made)."""
    sets = [spec.size for spec in groups if spec.kind is GroupKind.SET]
    colours = sum(1 for spec in groups if spec.kind is GroupKind.COLOUR)
    pairs_fit = sets.count(2) == 0 or (sets.count(2) == 1 and max(sets) >= 5)
    return pairs_fit and colours <= 1 and sum(sets) <= 9


def draw_phases(rng: random.Random, count: int = LIST_LENGTH) -> tuple[Phase, ...]:
    """``count`` different phases, each layout of ``building_blocks`` as likely as any."""
    return tuple(Phase((layout,)) for layout in rng.sample(building_blocks(), count))
