"""Can this hand make the phase, and how? If not, which cards are missing?

The search never permutes cards. A phase is a few groups, and each group is
pinned down by one choice: the number of a set, the lowest number of a run,
the colour of a colour group. Those choices turn into *slots*: "a 7", "a 5",
"a red card". For a given choice of every group, how many slots the hand's
natural cards can fill is a small flow problem with a closed form (numbers on
one side, colours on the other, each card feeding one of them), Wilds fill
any slot, and each group needs one natural card of its own (a matching of at
most 6 groups). A branch-and-bound over the choices, with a lower bound on
what the remaining groups can still absorb, finds the fewest missing cards.

"Missing" counts the fewest cards that, added to the hand, let it make the
phase. Each one is described as a natural card for one slot ("a 5 (any
colour) for the run of 4"); a Wild would do as well, except where a group
still needs its natural card. Among equally short answers the solver spends
the fewest Wild places (a Wild is 25 points in hand and hits anywhere).

A hand of more than 11 cards, or holding cards that cannot exist together,
raises CardError; a phase the game does not play raises RulesError.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

from ..i18n import N_, _
from .cards import (
    SKIP,
    SUPER_SKIP,
    SUPER_WILD,
    WILD,
    Card,
    CardError,
    Colour,
    Kind,
    impossible,
    number_card,
)
from .phases import GroupKind, GroupSpec, Layout, Phase
from .ruleset import Rules

COLOURS = tuple(Colour)
_COLOUR_INDEX = {colour: i for i, colour in enumerate(COLOURS)}
_BLUE = _COLOUR_INDEX[Colour.BLUE]
_NUMBERS = range(1, 13)

_Resource = int | tuple[int, int] | str  # a number, a (number, colour) cell, or "skip"
R = TypeVar("R")
T = TypeVar("T")


def _present(value: T | None, what: str) -> T:
    """``value``, which the solver has always set by now (None would be a bug)."""
    if value is None:
        raise AssertionError(f"{what} is not set")
    return value


_DECK_COPIES_PER_NUMBER = 8  # two in each of four colours
MAX_HAND = 11  # ten dealt and one drawn: a hand never holds more


@dataclass(frozen=True)
class Solution:
    """One way to lay the phase down, or how far the hand is from it."""

    can_make: bool
    groups: tuple[tuple[Card, ...], ...] | None  # runs low to high with Wilds in place
    layout: Layout | None  # the layout used (or the closest one, when missing > 0)
    missing: int  # 0 when can_make; else the fewest cards still needed
    missing_cards: tuple[str, ...]  # one description per missing card

    def to_json(self) -> dict[str, object]:
        return {
            "can_make": self.can_make,
            "groups": None if self.groups is None else [[c.code for c in g] for g in self.groups],
            "layout": None if self.layout is None else [str(spec) for spec in self.layout],
            "missing": self.missing,
            "missing_cards": list(self.missing_cards),
        }


def solve(rules: Rules, phase_number: int, hand: Sequence[Card]) -> Solution:
    """The best way to make ``phase_number`` from ``hand`` (RulesError if no such phase).

    Raises CardError when the hand holds cards that cannot exist together.
    """
    phase = rules.playable(phase_number)
    hand = tuple(hand)
    if len(hand) > MAX_HAND:
        raise CardError(
            _(
                "a hand holds at most %(most)s cards (10 dealt and 1 drawn), not %(count)s",
                most=MAX_HAND,
                count=len(hand),
            )
        )
    problems = impossible(hand, super_wild=rules.super_wild)
    if problems:
        raise CardError("; ".join(problems))
    pool = _Pool.of(hand, rules)
    return _build(pool, _best_plan(pool, phase, rules), rules.natural_per_phase)


def _best_plan(pool: _Pool, phase: Phase, rules: Rules) -> _Plan:
    """The best plan over the phase's layouts, for cards already known to exist together."""
    best: _Plan | None = None
    for layout in phase.layouts:
        plan = _Search(pool, layout, rules.natural_per_phase).run(best.key if best else None)
        if plan is not None and (best is None or plan.key < best.key):
            best = plan
    assert best is not None  # any layout can be completed with enough cards
    return best


@dataclass
class Work:
    """What the searches asked of it have cost: one step per group choice tried and one
    per layout searched. A caller that asks many times (a rating) bounds itself by it."""

    steps: int = 0


def held_phases(
    rules: Rules, phases: Sequence[Phase], cards: Sequence[Card], work: Work | None = None
) -> list[bool]:
    """For each phase, whether ``cards`` hold it (any number of cards, known to exist together).

    For estimates over many deals (``rules.rating``): no hand-size limit and no
    check of the cards; the cards are counted once for every phase, and each
    search stops as soon as it finds that nothing is missing. ``work`` adds up its cost.
    """
    pool = _Pool.of(tuple(cards), rules)
    per_phase = rules.natural_per_phase
    work = work if work is not None else Work()
    return [
        any(_holds(pool, layout, per_phase, work) for layout in phase.layouts) for phase in phases
    ]


_NOTHING_MISSING = (1, 0)  # a bound only a plan with no card missing beats


def _holds(pool: _Pool, layout: Layout, per_phase: bool, work: Work) -> bool:
    """Whether the pool makes this layout; one group of plain cards is read off the counts."""
    work.steps += 1
    if len(layout) == 1 and not pool.super_wilds and not pool.blue_skips:
        return _holds_one(pool, layout[0])
    search = _Search(pool, layout, per_phase)
    held = search.run(_NOTHING_MISSING) is not None
    work.steps += search.steps
    return held


def _holds_one(pool: _Pool, spec: GroupSpec) -> bool:
    """One group, no Super Wild and no Skip standing as blue: some number (set), colour
    (colour group) or window of numbers within 1-12 (run) has a natural card and, with
    the Wilds, enough cards. The solver finds the same (tests/test_solve.py)."""
    wilds, need = len(pool.wilds), spec.size
    if spec.kind is GroupKind.SET:
        return any(count and count + wilds >= need for count in pool.count)
    if spec.kind is GroupKind.COLOUR:
        return any(total and total + wilds >= need for total in pool.colour_totals)
    present = [0] + [1 if pool.count[n] else 0 for n in _NUMBERS]
    for low in range(1, 14 - need):
        held = sum(present[low : low + need])
        if held and held + wilds >= need:
            return True
    return False


# --- the hand as counts --------------------------------------------------------


@dataclass
class _Pool:
    naturals: list[Card]
    count: list[int]  # count[n]: naturals of number n (index 0 unused)
    cells: list[list[int]]  # cells[n][c]: naturals of number n and colour c
    wilds: list[Card]  # plain Wilds
    super_wilds: list[Card]
    blue_skips: list[Card]  # Skips that may stand as blue cards (Super Wild option)
    skip_natural: bool = False  # house rule blue_skip_natural: a blue Skip anchors its group
    options: dict[tuple[GroupSpec, bool, bool, int], tuple[_Option, ...]] = field(
        default_factory=dict
    )  # each group's choices, made once

    @classmethod
    def of(cls, hand: tuple[Card, ...], rules: Rules) -> _Pool:
        naturals = sorted(
            (c for c in hand if c.is_natural),
            key=lambda c: (c.face, _COLOUR_INDEX[c.hue]),
        )
        count = [0] * 13
        cells = [[0] * 4 for _ in range(13)]
        for card in naturals:
            count[card.face] += 1
            cells[card.face][_COLOUR_INDEX[card.hue]] += 1
        return cls(
            naturals=naturals,
            count=count,
            cells=cells,
            wilds=[c for c in hand if c.kind is Kind.WILD],
            super_wilds=[c for c in hand if c.kind is Kind.SUPER_WILD],
            blue_skips=[c for c in hand if c.kind in rules.blue_skip_kinds()],
            skip_natural=rules.blue_skip_natural,
        )

    @cached_property
    def colour_totals(self) -> list[int]:
        """Naturals of each colour (counted once for every phase a pool is asked about)."""
        return [sum(self.cells[n][c] for n in _NUMBERS) for c in range(4)]

    def anchors(self, card: Card) -> bool:
        """May this card be its group's natural card?"""
        return card.is_natural or (self.skip_natural and card in self.blue_skips)


# --- choices for one group -----------------------------------------------------


@dataclass(frozen=True)
class _Option:
    """One way to pin a group down, as the slots it asks the hand to fill."""

    value: int  # the set's number, the run's lowest number, or a colour index
    numbers: tuple[int, ...]  # one entry per number slot (a set of 3 of 7s: (7, 7, 7))
    colour: int | None  # colour index for a colour group
    slots: int
    pair: int | None = None  # a Super Wild in a run: the lower number of the two it fills


@dataclass(frozen=True)
class _Group:
    index: int  # position in the layout
    spec: GroupSpec
    super_wild: bool  # this group holds the hand's Super Wild
    options: tuple[_Option, ...]


def _options(
    pool: _Pool, spec: GroupSpec, super_wild: bool, per_group: bool, spares: int
) -> tuple[_Option, ...]:
    key = (spec, super_wild, per_group, spares)
    if key not in pool.options:
        pool.options[key] = _make_options(pool, spec, super_wild, per_group, spares)
    return pool.options[key]


def _make_options(
    pool: _Pool, spec: GroupSpec, super_wild: bool, per_group: bool, spares: int
) -> tuple[_Option, ...]:
    k = spec.size
    slots = max(k - 2, 1 if per_group else 0) if super_wild else k
    count = pool.count
    options: list[_Option] = []
    if spec.kind is GroupKind.SET:
        held = [n for n in _NUMBERS if count[n]]
        empty = [n for n in _NUMBERS if not count[n]][: max(spares, 1)]
        for n in held + empty:
            options.append(_Option(n, (n,) * slots, None, slots))
        options.sort(key=lambda o: -min(count[o.value], slots))
    elif spec.kind is GroupKind.RUN:
        length = k if not super_wild or k >= 3 or not per_group else 3
        for start in range(1, 14 - length):
            span = range(start, start + length)
            if not super_wild:
                options.append(_Option(start, tuple(span), None, k))
                continue
            for low in range(start, start + length - 1):
                numbers = tuple(n for n in span if n not in (low, low + 1))
                options.append(_Option(start, numbers, None, len(numbers), pair=low))
        # Windows holding the same numbers of the hand are alike (the others are
        # filled by Wilds or missing either way): keep one of each.
        alike: dict[tuple[int, ...], int] = {}
        unique = []
        for option in options:
            present = tuple(n for n in option.numbers if count[n])
            alike[present] = alike.get(present, 0) + 1
            if alike[present] <= spares:
                unique.append(option)
        options = sorted(unique, key=lambda o: -sum(1 for n in o.numbers if count[n]))
    else:
        totals = [sum(pool.cells[n][c] for n in _NUMBERS) for c in range(4)]
        totals[_BLUE] += len(pool.blue_skips)
        for c in sorted(range(4), key=lambda c: -totals[c]):
            options.append(_Option(c, (), c, slots))
    if slots == 0:  # a Super Wild alone makes the group (house rule natural=phase)
        options = options[:1]
    return tuple(options)


# --- the search --------------------------------------------------------------


@dataclass(frozen=True)
class _Plan:
    key: tuple[int, int]  # (cards missing, Wild places used): smaller is better
    layout: Layout
    choice: tuple[tuple[_Group, _Option], ...]  # in layout order


@dataclass(frozen=True)
class _Shapes:
    """What the lower bound needs to know about the groups still to place."""

    sets: int
    largest_set: int
    set_slots: int
    runs: tuple[tuple[int, int], ...]  # (width of the window, slots) per run

    @classmethod
    def of(cls, groups: Sequence[_Group]) -> _Shapes:
        sets = [g.options[0].slots for g in groups if g.spec.kind is GroupKind.SET]
        runs = tuple(
            (len(o.numbers) + (0 if o.pair is None else 2), o.slots)
            for o in (g.options[0] for g in groups if g.spec.kind is GroupKind.RUN)
        )
        return cls(len(sets), max(sets, default=0), sum(sets), runs)


# Colour groups first: once their colours are fixed, each number slot changes the
# deficit by a simple rule (see _Search.add). Then runs, then sets, larger first.
_KIND_ORDER = {GroupKind.COLOUR: 0, GroupKind.RUN: 1, GroupKind.SET: 2}


class _Search:
    """Branch and bound over the groups' choices for one layout.

    The deficit (slots the hand's naturals cannot fill) is a max-flow value with
    a closed form: for the colour groups' colours C and every subset X of them,
    ``S_X = E(X) - supply(X) + sum_n max(D_n - a_n, -a_n,X)`` where D_n counts the
    number slots for n, a_n the hand's n's and a_n,X those of colours in X; the
    deficit is the largest S_X. Adding a slot for n raises S_X by one exactly when
    D_n >= a_n - a_n,X, so it is kept up to date in a few steps.
    """

    def __init__(self, pool: _Pool, layout: Layout, natural_per_phase: bool) -> None:
        self.pool, self.layout, self.natural_per_phase = pool, layout, natural_per_phase
        self.wilds = len(pool.wilds)
        self.colour_totals = pool.colour_totals
        self.best_key: tuple[int, int] | None = None
        self.best: tuple[tuple[_Group, _Option], ...] | None = None
        self.steps = 0  # group choices tried

    def run(self, bound: tuple[int, int] | None) -> _Plan | None:
        self.best_key = bound
        pool, layout = self.pool, self.layout
        order = sorted(
            range(len(layout)), key=lambda i: (_KIND_ORDER[layout[i].kind], -layout[i].size)
        )
        # Where the Super Wild goes, if anywhere: one group of each shape, tried first
        # (it usually helps, and a good answer early prunes the rest).
        placements: list[int | None] = []
        if pool.super_wilds:
            for i in order:
                if layout[i] not in [layout[j] for j in placements if j is not None]:
                    placements.append(i)
        placements.append(None)
        per_group = not self.natural_per_phase
        for super_wild in placements:
            # the Super Wild's group first among its kind (it breaks the tie between twins)
            sequence = sorted(order, key=lambda i: (_KIND_ORDER[layout[i].kind], i != super_wild))
            same = {spec: sum(1 for s in layout if s == spec) for spec in layout}
            self.groups = tuple(
                _Group(
                    i,
                    layout[i],
                    i == super_wild,
                    _options(pool, layout[i], i == super_wild, per_group, same[layout[i]]),
                )
                for i in sequence
            )
            self.colour_groups = sum(1 for g in self.groups if g.spec.kind is GroupKind.COLOUR)
            self.sw_places = 0 if super_wild is None else 2
            self.remaining = [0] * (len(self.groups) + 1)
            for j in range(len(self.groups) - 1, -1, -1):
                self.remaining[j] = self.remaining[j + 1] + self.groups[j].options[0].slots
            self.shapes = [_Shapes.of(self.groups[j:]) for j in range(len(self.groups) + 1)]
            self.demand = [0] * 13
            self.colour_demand = [0] * 4
            self.chosen: list[int] = []
            self.steps += len(self.groups)  # each group's options made
            self._prepare_numbers()
            self._dfs(0)
        if self.best is None or self.best_key is None:  # set together, in _leaf
            return None
        return _Plan(self.best_key, layout, tuple(sorted(self.best, key=lambda go: go[0].index)))

    # -- the deficit --------------------------------------------------------

    def _prepare_numbers(self) -> None:
        """Thresholds and running sums S_X once the colour groups are fixed."""
        cells = self.pool.cells
        used = [c for c in range(4) if self.colour_demand[c]]
        subsets = [[used[i] for i in range(len(used)) if m >> i & 1] for m in range(1 << len(used))]
        self.steps += len(subsets)  # each subset's sums cost about one choice's work
        skips = len(self.pool.blue_skips)
        if skips and not self.natural_per_phase and not self.pool.skip_natural:
            skips = min(
                skips,
                sum(
                    self.groups[d].options[o].slots - 1
                    for d, o in enumerate(self.chosen)
                    if self.groups[d].options[o].colour == _BLUE
                ),
            )
        self.thresholds = []
        self.sums = []
        for subset in subsets:
            self.thresholds.append(
                [0] + [sum(cells[n]) - sum(cells[n][c] for c in subset) for n in _NUMBERS]
            )
            supply = sum(self.colour_totals[c] for c in subset) + (skips if _BLUE in subset else 0)
            self.sums.append(sum(self.colour_demand[c] for c in subset) - supply)
        self.open_all = len(subsets) - 1

    def _colour_deficit(self) -> int:
        """Deficit while only colour groups are placed: each colour on its own."""
        skips = len(self.pool.blue_skips)
        if skips and not self.natural_per_phase and not self.pool.skip_natural:
            skips = min(skips, max(0, self.colour_demand[_BLUE] - self._blue_groups()))
        deficit = 0
        for c in range(4):
            supply = self.colour_totals[c] + (skips if c == _BLUE else 0)
            deficit += max(0, self.colour_demand[c] - supply)
        return deficit

    def _blue_groups(self) -> int:
        return sum(
            1 for d, o in enumerate(self.chosen) if self.groups[d].options[o].colour == _BLUE
        )

    def _add(self, numbers: tuple[int, ...], step: int) -> None:
        demand, thresholds, sums = self.demand, self.thresholds, self.sums
        if len(thresholds) == 1:  # no colour groups: S is the plain number deficit
            threshold, total = thresholds[0], 0
            for n in numbers:
                if step < 0:
                    demand[n] -= 1
                if demand[n] >= threshold[n]:
                    total += 1
                if step > 0:
                    demand[n] += 1
            sums[0] += step * total
            return
        for n in numbers:
            if step < 0:
                demand[n] -= 1
            for x, threshold in enumerate(thresholds):
                if demand[n] >= threshold[n]:
                    sums[x] += step
            if step > 0:
                demand[n] += 1

    def _lower_bound(self, depth: int, deficit: int) -> int:
        """Fewest unfilled slots any completion of the remaining groups can reach."""
        remaining = self.remaining[depth]
        if not remaining:
            return deficit
        best = deficit
        demand = self.demand
        for x in range(len(self.thresholds)):
            threshold = self.thresholds[x]
            spare = [0] * 13
            total = 0
            for n in _NUMBERS:
                if threshold[n] > demand[n]:
                    spare[n] = threshold[n] - demand[n]
                    total += spare[n]
            base = self.sums[x] + remaining
            if base - total > best:
                best = base - total
            if base <= best or not total:
                continue  # the remaining groups cannot raise the bound past best
            best = max(best, base - self._absorb(depth, spare, total))
        return best

    def _absorb(self, depth: int, spare: list[int], total: int) -> int:
        """Most slots the remaining number groups could fill without raising S_X."""
        sets = runs = 0
        shapes = self.shapes[depth]
        if shapes.sets:
            # each set takes one number: hand them out greedily as the largest set
            # (a number's gain shrinks with each set put on it, so greedy is optimal)
            left = sorted((s for s in spare if s), reverse=True)
            size = shapes.largest_set
            for _ in range(shapes.sets):
                if not left:
                    break
                take = min(size, left[0])
                sets += take
                rest = left[0] - take
                left = sorted([rest, *left[1:]], reverse=True) if rest else left[1:]
            sets = min(sets, shapes.set_slots)
        if shapes.runs:
            windows = {}
            prefix = [0] * 13
            for n in _NUMBERS:
                prefix[n] = prefix[n - 1] + (1 if spare[n] else 0)
            for width, slots in shapes.runs:
                if width not in windows:
                    windows[width] = max(
                        prefix[s + width - 1] - prefix[s - 1] for s in range(1, 14 - width)
                    )
                runs += min(slots, windows[width])
        return min(total, sets + runs)

    def _bound_key(self, deficit: int) -> tuple[int, int]:
        """The best key any completion can reach, with at least ``deficit`` unfilled slots."""
        # every group needs a natural of its own: no more groups than naturals can have one
        anchors = len(self.pool.naturals) + (len(self.pool.blue_skips) * self.pool.skip_natural)
        unanchored = 0 if self.natural_per_phase else len(self.groups) - anchors
        return self._key(deficit, unanchored)

    def _key(self, deficit: int, unanchored: int) -> tuple[int, int]:
        return (max(deficit - self.wilds, unanchored, 0), min(deficit, self.wilds) + self.sw_places)

    # -- branch and bound ---------------------------------------------------

    def _dfs(self, depth: int) -> None:
        groups = self.groups
        if depth == len(groups):
            self._leaf()
            return
        group = groups[depth]
        first = 0
        previous = groups[depth - 1] if depth else None
        if (
            previous
            and previous.spec == group.spec
            and not previous.super_wild
            and not group.super_wild
        ):
            first = self.chosen[-1]  # same group twice: choices in order, no repeats
        colour_phase = depth < self.colour_groups
        self.steps += len(group.options) - first
        for index in range(first, len(group.options)):
            option = group.options[index]
            self.chosen.append(index)
            colour = option.colour
            if colour_phase:
                assert colour is not None  # colour groups come first, each with its colour
                self.colour_demand[colour] += option.slots
                if depth + 1 == self.colour_groups:
                    self._prepare_numbers()
                    deficit = max(self.sums)
                else:
                    deficit = self._colour_deficit()
            else:
                self._add(option.numbers, 1)
                deficit = max(self.sums)
            best = self.best_key
            if best is None or self._bound_key(deficit) < best:
                last = depth + 1 == len(groups)
                if last or (colour_phase and depth + 1 < self.colour_groups):
                    self._dfs(depth + 1)
                elif best is None or self._bound_key(self._lower_bound(depth + 1, deficit)) < best:
                    self._dfs(depth + 1)
            if colour_phase:
                assert colour is not None
                self.colour_demand[colour] -= option.slots
            else:
                self._add(option.numbers, -1)
            self.chosen.pop()
            if self.best_key is not None and self.best_key <= (0, self.sw_places):
                return

    def _leaf(self) -> None:
        deficit = max(self.sums)
        key = self._bound_key(deficit)
        if self.best_key is not None and key >= self.best_key:
            return
        if deficit - self.wilds < len(self.groups):
            key = self._key(deficit, self._unanchored())
            if self.best_key is not None and key >= self.best_key:
                return
        self.best_key = key
        self.best = tuple((g, g.options[i]) for g, i in zip(self.groups, self.chosen, strict=True))

    def _unanchored(self) -> int:
        """Groups that cannot each get a natural card of their own."""
        options = [g.options[i] for g, i in zip(self.groups, self.chosen, strict=True)]
        if self.natural_per_phase:
            return 0 if any(self._anchors(o) for o in options) else 1
        adjacency = [self._anchors(o) for o in options]
        return len(adjacency) - _match(adjacency, self._capacity)[0]

    def _anchors(self, option: _Option) -> Sequence[_Resource]:
        """The naturals that could be this group's own natural card."""
        count, cells = self.pool.count, self.pool.cells
        if not self.colour_groups:
            return sorted({n for n in option.numbers if count[n]})
        if option.colour is not None:
            c = option.colour
            skip = (
                ["skip"] if c == _BLUE and self.pool.skip_natural and self.pool.blue_skips else []
            )
            return [(n, c) for n in _NUMBERS if cells[n][c]] + skip
        return [(n, c) for n in sorted(set(option.numbers)) for c in range(4) if cells[n][c]]

    def _capacity(self, resource: _Resource) -> int:
        if isinstance(resource, str):  # "skip", the only word
            return len(self.pool.blue_skips)
        if isinstance(resource, tuple):
            n, c = resource
            return self.pool.cells[n][c]
        return self.pool.count[resource]


def _match(
    adjacency: Sequence[Sequence[R]], capacity: Callable[[R], int]
) -> tuple[int, list[R | None]]:
    """Largest matching of groups to resources, each resource used up to its capacity."""
    holders: dict[R, list[int]] = {}
    matched: list[R | None] = [None] * len(adjacency)

    def place(g: int, seen: set[R]) -> bool:
        for r in adjacency[g]:
            if r in seen:
                continue
            seen.add(r)
            owners = holders.setdefault(r, [])
            if len(owners) < capacity(r):
                owners.append(g)
                matched[g] = r
                return True
            for other in list(owners):
                if place(other, seen):
                    owners.remove(other)
                    owners.append(g)
                    matched[g] = r
                    return True
        return False

    size = sum(1 for g in range(len(adjacency)) if place(g, set()))
    return size, matched


# --- from a plan to cards ------------------------------------------------------


@dataclass
class _Slot:
    group: int  # position in the layout
    number: int | None
    colour: int | None
    natural_only: bool = False  # a colour group's slot kept for its natural card
    card: Card | None = None
    reserved: bool = False  # kept for a missing natural card


def _build(pool: _Pool, plan: _Plan, natural_per_phase: bool) -> Solution:
    layout = plan.layout
    slots: list[_Slot] = []
    for position, (_spec, option) in enumerate(plan.choice):
        if option.colour is not None:
            slots += [
                _Slot(
                    position, None, option.colour, natural_only=(i == 0 and not natural_per_phase)
                )
                for i in range(option.slots)
            ]
        else:
            slots += [_Slot(position, n, None) for n in option.numbers]
    cards = pool.naturals + pool.blue_skips
    _fill_with_naturals(slots, cards, len(layout), natural_per_phase, pool.anchors)
    _reserve_for_naturals(slots, len(layout), natural_per_phase, pool.anchors)
    wilds = iter(pool.wilds)
    for slot in slots:
        if slot.card is None and not slot.reserved:
            slot.card = next(wilds, None)
    missing = [slot for slot in slots if slot.card is None]
    if missing:
        return Solution(False, None, layout, len(missing), _describe(pool, plan, slots, missing))
    return Solution(True, _groups(plan, slots, pool), layout, 0, ())


def _fill_with_naturals(
    slots: list[_Slot],
    cards: list[Card],
    group_count: int,
    natural_per_phase: bool,
    anchors: Callable[[Card], bool],
) -> None:
    """Most slots filled by cards in hand, every group that can have a natural keeping one.

    (With the house rule natural=phase, one natural card in the whole phase.)
    """

    skips = [i for i, card in enumerate(cards) if card.is_skip]

    def fits(slot: _Slot, card: Card) -> bool:
        if slot.number is not None:
            return card.number == slot.number
        if card.is_skip:
            return slot.colour == _BLUE and (not slot.natural_only or anchors(card))
        return _COLOUR_INDEX[card.hue] == slot.colour

    by_number: dict[int, list[int]] = {}
    by_colour: dict[int, list[int]] = {}
    for i, card in enumerate(cards):
        if card.is_natural:
            by_number.setdefault(card.face, []).append(i)
            by_colour.setdefault(_COLOUR_INDEX[card.hue], []).append(i)
    edges: list[list[int]] = []
    for slot in slots:
        if slot.number is not None:
            edges.append(by_number.get(slot.number, []))
        else:
            coloured = by_colour.get(slot.colour, []) if slot.colour is not None else []
            edges.append([i for i in coloured + skips if fits(slot, cards[i])])
    natural_edges = [[i for i in e if anchors(cards[i])] for e in edges]
    # Groups first: which can each have a natural card of their own (one slot each).
    by_group = [[s for s, slot in enumerate(slots) if slot.group == g] for g in range(group_count)]
    adjacency = [sorted({i for s in group for i in natural_edges[s]}) for group in by_group]
    _, anchor_card = _match(adjacency, lambda _: 1)
    if natural_per_phase:
        anchor_card = [None] * group_count
    first = []
    for g, card_index in enumerate(anchor_card):
        if card_index is not None:
            first.append(next(s for s in by_group[g] if card_index in natural_edges[s]))
    owner: list[int | None] = [None] * len(cards)
    chosen: list[int | None] = [None] * len(slots)

    def augment(s: int, seen: set[int]) -> bool:
        for i in natural_edges[s] if s in first else edges[s]:
            if i in seen:
                continue
            seen.add(i)
            holder = owner[i]
            if holder is None or augment(holder, seen):
                owner[i] = s
                chosen[s] = i
                return True
        return False

    for s in first + [s for s in range(len(slots)) if s not in first]:
        augment(s, set())
    if natural_per_phase and not any(i is not None and anchors(cards[i]) for i in chosen):
        # a blue Skip gives its place to a natural card, if one fits there
        for s, taken in enumerate(chosen):
            spare = [j for j in natural_edges[s] if owner[j] is None]
            if taken is not None and spare:
                owner[taken], owner[spare[0]], chosen[s] = None, s, spare[0]
                break
    for s, taken in enumerate(chosen):
        if taken is not None:
            slots[s].card = cards[taken]


def _reserve_for_naturals(
    slots: list[_Slot], group_count: int, natural_per_phase: bool, anchors: Callable[[Card], bool]
) -> None:
    """Keep an empty slot for a missing natural card where a group (or the phase) has none."""
    groups = [[slot for slot in slots if slot.group == g] for g in range(group_count)]
    if natural_per_phase:
        groups = [slots] if not any(s.card and anchors(s.card) for s in slots) else []
    for group in groups:
        if not group or any(s.card is not None and anchors(s.card) for s in group):
            continue
        empty = [s for s in group if s.card is None]
        slot = empty[0] if empty else group[0]
        slot.card = None  # a blue Skip steps aside for the natural card
        slot.reserved = True


def _groups(plan: _Plan, slots: list[_Slot], pool: _Pool) -> tuple[tuple[Card, ...], ...]:
    groups: list[tuple[Card, ...]] = []
    for position, (group, option) in enumerate(plan.choice):
        mine = [slot for slot in slots if slot.group == position]
        super_wild = pool.super_wilds[:1] if group.super_wild else []
        if group.spec.kind is GroupKind.RUN:
            placed = [
                (_present(slot.number, "a run slot's number"), _present(slot.card, "a slot's card"))
                for slot in mine
            ]
            placed += [(_present(option.pair, "a Super Wild's place"), card) for card in super_wild]
            groups.append(tuple(card for _, card in sorted(placed, key=lambda nc: nc[0])))
            continue
        held = [_present(slot.card, "a slot's card") for slot in mine]
        order = {Kind.NUMBER: 0, Kind.SKIP: 1, Kind.SUPER_SKIP: 1, Kind.WILD: 2}
        held.sort(
            key=lambda c: (
                order[c.kind],
                c.number or 0,
                _COLOUR_INDEX[c.colour] if c.colour is not None else 0,
            )
        )
        groups.append(tuple(held + super_wild))
    return tuple(groups)


def _describe(
    pool: _Pool, plan: _Plan, slots: list[_Slot], missing: list[_Slot]
) -> tuple[str, ...]:
    layout = plan.layout
    names = []
    for position, spec in enumerate(layout):
        if layout.count(spec) > 1:
            nth = layout[: position + 1].count(spec)
            names.append(_ordinal(nth, spec.describe()))
        else:
            names.append(_("the %(group)s", group=spec.describe()))
    extra = [0] * 13
    in_group: dict[tuple[int, int], int] = {}
    words = []
    for slot in missing:
        name = names[slot.group]
        if slot.colour is not None:
            words.append(_any_number(COLOURS[slot.colour], name))
            continue
        n = slot.number
        assert n is not None
        kind = layout[slot.group].kind
        group_has_number = pool.count[n] or any(
            s.card is not None and s.card.is_natural for s in slots if s.group == slot.group
        )
        if kind is GroupKind.SET and not group_has_number:
            first = not in_group.get((slot.group, n))
            if first:
                words.append(_("a card of any number for %(group)s", group=name))
            else:
                words.append(_("another card of that number for %(group)s", group=name))
        elif pool.count[n] + extra[n] >= _DECK_COPIES_PER_NUMBER:
            words.append(
                _("a Wild for %(group)s (all eight %(number)ss are taken)", group=name, number=n)
            )
        elif kind is GroupKind.RUN and n in (8, 11):
            words.append(_("an %(number)s (any colour) for %(group)s", number=n, group=name))
        elif kind is GroupKind.RUN:
            words.append(_("a %(number)s (any colour) for %(group)s", number=n, group=name))
        elif n in (8, 11):
            words.append(_("an %(number)s for %(group)s", number=n, group=name))
        else:
            words.append(_("a %(number)s for %(group)s", number=n, group=name))
        extra[n] += 1
        in_group[slot.group, n] = in_group.get((slot.group, n), 0) + 1
    return tuple(words)


def _ordinal(n: int, group: str) -> str:
    """'the 2nd set of 3', when a phase has two alike."""
    if n == 1:
        return _("the 1st %(group)s", group=group)
    if n == 2:
        return _("the 2nd %(group)s", group=group)
    if n == 3:
        return _("the 3rd %(group)s", group=group)
    return _("the %(n)sth %(group)s", n=n, group=group)


_ANY_NUMBER = {
    Colour.RED: N_("a red card (any number) for %(group)s"),
    Colour.BLUE: N_("a blue card (any number) for %(group)s"),
    Colour.GREEN: N_("a green card (any number) for %(group)s"),
    Colour.YELLOW: N_("a yellow card (any number) for %(group)s"),
}


def _any_number(colour: Colour, group: str) -> str:
    """'a red card (any number) for the 7 of one colour'."""
    return _(_ANY_NUMBER[colour], group=group)


# --- every way to get closer ------------------------------------------------------


def closer_cards(rules: Rules, phase_number: int, hand: Sequence[Card]) -> tuple[Card, ...]:
    """Every kind of card that, drawn into ``hand``, leaves one card fewer missing.

    When one card is missing these are every way to finish the phase. One card of
    each number and colour stands for both copies; a card the deck has no more of
    (the hand already holds every copy) is left out. ``()`` when the hand makes it.

    A hand of 11 has just drawn: it discards one card before it draws again, so a
    card counts when, with the best discard, it leaves one fewer missing.
    """
    hand = tuple(hand)
    missing = solve(rules, phase_number, hand).missing
    if not missing:
        return ()
    phase = rules.playable(phase_number)
    keeps = _kept_hands(phase, hand)
    candidates = [number_card(c, n) for n in _NUMBERS for c in COLOURS] + [WILD, SKIP]
    if rules.super_wild:
        candidates += [SUPER_WILD, SUPER_SKIP]
    found = []
    for card in candidates:
        if impossible((*hand, card), super_wild=rules.super_wild):
            continue  # no copy of it is left to draw
        pools = (_Pool.of((*kept, card), rules) for kept in keeps)
        if any(_best_plan(pool, phase, rules).key[0] < missing for pool in pools):
            found.append(card)
    return tuple(found)


def _kept_hands(phase: Phase, hand: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """What the hand may keep before a card is drawn into it.

    Below 11 cards, all of it. At 11, one card goes: when every layout of the phase
    fits in a hand, the plan for the 12 cards leaves one unused to discard, so the
    12 are searched as one; otherwise each different discard is tried.
    """
    if len(hand) < MAX_HAND or all(sum(s.size for s in lay) <= MAX_HAND for lay in phase.layouts):
        return [hand]
    discards = {card: i for i, card in enumerate(hand)}.values()
    return [hand[:i] + hand[i + 1 :] for i in discards]


def describe_cards(cards: Sequence[Card]) -> tuple[str, ...]:
    """Words for a choice of cards, merged where they can be: "any 7", "any red card"."""
    numbers = {(c.number, c.colour) for c in cards if c.is_natural}
    words = []
    whole_colours = [c for c in COLOURS if all((n, c) in numbers for n in _NUMBERS)]
    for colour in whole_colours:
        words.append(_any_card(colour))
        numbers -= {(n, colour) for n in _NUMBERS}
    for n in _NUMBERS:
        colours = [c for c in COLOURS if (n, c) in numbers]
        if len(colours) == len(COLOURS):
            words.append(_("any %(number)s", number=n))
        elif colours:
            words += [_a_card(c, n) for c in colours]
    words += [_a_kind(c.kind) for c in cards if not c.is_natural]
    return tuple(words)


_ANY_CARD = {
    Colour.RED: N_("any red card"),
    Colour.BLUE: N_("any blue card"),
    Colour.GREEN: N_("any green card"),
    Colour.YELLOW: N_("any yellow card"),
}
_A_CARD = {
    Colour.RED: N_("a red %(number)s"),
    Colour.BLUE: N_("a blue %(number)s"),
    Colour.GREEN: N_("a green %(number)s"),
    Colour.YELLOW: N_("a yellow %(number)s"),
}
_A_KIND = {
    Kind.WILD: N_("a Wild"),
    Kind.SKIP: N_("a Skip"),
    Kind.SUPER_WILD: N_("a Super Wild"),
    Kind.SUPER_SKIP: N_("a Super Skip"),
}


def _any_card(colour: Colour) -> str:
    return _(_ANY_CARD[colour])


def _a_card(colour: Colour, number: int) -> str:
    """'a red 7' (German 'eine rote 7', Spanish 'un 7 rojo')."""
    return _(_A_CARD[colour], number=number)


def _a_kind(kind: Kind) -> str:
    return _(_A_KIND[kind])
