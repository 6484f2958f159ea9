"""Check a laid-down phase or a hit, and explain in plain words why not.

A check never answers with a bare bool: it returns a ``Verdict`` whose reasons
name the group and the card, each paired with the rule it breaks (a section
of the rules page), so a family at the table can settle the argument.

Conventions this module fixes (the rule books leave them open):

- Groups are given in the order the phase lists them; for a phase with
  alternative layouts (Super Wild phase 7), any layout with that many groups.
- A run being laid down is judged on the best order of its cards (the player
  arranges it as they lay it). A run on the table keeps its order, low to
  high or high to low: each Wild stands for the place it occupies, a Super
  Wild fills two, and every place stands within 1-12 (``run_readings``).
- With the Super Wild option a plain Skip counts as a blue card in any group
  of one colour (phase 8 and the colour groups of other lists), for laying
  down and for hitting. It is not a natural card: the group still needs a
  numbered card. The Super Skip is never part of a phase. House rules
  super_skip_blue and blue_skip_natural give the other readings
  (``Rules.blue_skip_kinds``, ``counts_natural``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise, permutations
from typing import TypeVar

from ..i18n import _, ngettext
from . import reasons as rule
from . import words
from .cards import SUPER_WILD, WILD, Card, Colour, Kind, format_cards, impossible
from .phases import GroupKind, GroupSpec, Layout, Phase
from .reasons import Reason
from .ruleset import Rules

T = TypeVar("T")


@dataclass(frozen=True)
class Verdict:
    """Whether a phase (or hit) stands, and if not, every reason why."""

    valid: bool
    problems: tuple[Reason, ...] = ()

    @classmethod
    def of(cls, problems: Iterable[Reason]) -> Verdict:
        problems = tuple(problems)
        return cls(valid=not problems, problems=problems)

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(problem.message for problem in self.problems)

    @property
    def rules(self) -> tuple[rule.Rule | None, ...]:
        return tuple(problem.rule for problem in self.problems)

    def to_json(self) -> dict[str, object]:
        return {
            "valid": self.valid,
            "reasons": list(self.reasons),
            "rules": [str(r) for r in self.rules],
            "problems": [problem.to_json() for problem in self.problems],
        }


# --- laying down a phase -------------------------------------------------------


def check_phase(rules: Rules, phase_number: int, groups: Sequence[Sequence[Card]]) -> Verdict:
    """Is this a legal way to lay down phase ``phase_number``? (RulesError if no such phase.)"""
    phase = rules.playable(phase_number)
    laid = [tuple(group) for group in groups]
    cards = (card for group in laid for card in group)
    deck = [Reason(reason, rule.DECK) for reason in _impossible(rules, cards)]
    layouts = [layout for layout in phase.layouts if len(layout) == len(laid)]
    if not layouts:
        return Verdict.of(deck + _count_problems(phase_number, phase, laid))
    best: list[Reason] | None = None
    for layout in layouts:
        problems = _layout_problems(rules, layout, laid)
        if not problems:
            best = []
            break
        if best is None or len(problems) < len(best):
            best = problems
    assert best is not None
    if best and len(layouts[0]) > 1:
        best = _order_hint(rules, phase_number, layouts, laid) or best
    if (
        rules.natural_per_phase
        and laid
        and not any(counts_natural(rules, c) for g in laid for c in g)
    ):
        best.append(
            Reason(
                _(
                    "phase %(number)s has only Wilds: it needs at least one natural "
                    "(numbered) card",
                    number=phase_number,
                ),
                rule.NATURAL,
            )
        )
    return Verdict.of(deck + best)


def check_group(
    rules: Rules, spec: GroupSpec, cards: Sequence[Card], *, label: str, as_laid: bool = False
) -> list[Reason]:
    """What is wrong with ``cards`` as a ``spec`` group ([] when nothing is).

    A phase being laid down is judged on the best order of its run; a run
    already on the table (``as_laid``, for hits) keeps its order, either way.
    """
    cards = tuple(cards)
    if not cards:
        # Translators: %(group)s names a group and its cards: 'set of 3 (R7 B7 G8)'.
        return [Reason(_("%(group)s: the group has no cards", group=label), rule.PHASES)]
    problems: list[Reason] = []
    kept: list[Card] = []
    for card in cards:
        if not card.is_skip:
            kept.append(card)
        elif is_blue_skip(rules, spec.kind, card):
            kept.append(card)
        elif card.kind in rules.blue_skip_kinds():
            problems.append(
                Reason(
                    _(
                        "%(group)s: a %(card)s counts only as a blue card in a group of one colour",
                        group=label,
                        card=card.describe(),
                    ),
                    rule.SKIPS_NOT_LAID,
                )
            )
        else:
            problems.append(
                Reason(
                    _(
                        "%(group)s: a %(card)s can never be part of a phase",
                        group=label,
                        card=card.describe(),
                    ),
                    rule.SKIPS_NOT_LAID,
                )
            )
    places = sum(card.width for card in kept)
    if places < spec.size:
        values = {"group": label, "cards": words.cards(places), "spec": spec.describe()}
        if any(c.width > 1 for c in kept):
            message = _(
                "%(group)s: %(cards)s (the Super Wild fills two), but a %(spec)s needs at "
                "least %(size)s",
                size=spec.size,
                **values,
            )
        else:
            message = _(
                "%(group)s: %(cards)s, but a %(spec)s needs at least %(size)s",
                size=spec.size,
                **values,
            )
        problems.append(Reason(message, rule.PHASES))
    if spec.kind is GroupKind.SET:
        problems += _set_problems(kept, label)
    elif spec.kind is GroupKind.RUN and as_laid:
        problems += laid_run_problems(kept, label)
    elif spec.kind is GroupKind.RUN:
        problems += _run_problems(list(arrange_run(kept) or kept), label)
    else:
        problems += _colour_problems(kept, label)
    if not rules.natural_per_phase and kept and not any(counts_natural(rules, c) for c in kept):
        if any(c.is_skip for c in kept):
            message = _(
                "%(group)s: no natural card; every group needs at least one numbered card, "
                "not only Wilds and Skips",
                group=label,
            )
        else:
            message = _(
                "%(group)s: no natural card; every group needs at least one numbered card, "
                "not only Wilds",
                group=label,
            )
        problems.append(Reason(message, rule.NATURAL))
    return problems


def group_label(spec: GroupSpec, cards: Sequence[Card]) -> str:
    """How reasons name a group: 'set of 3 (R7 B7 G8)' (German 'Drilling (R7 B7 G8)')."""
    return f"{spec.describe()} ({format_cards(cards)})"


def _impossible(rules: Rules, cards: Iterable[Card]) -> list[str]:
    return impossible(cards, super_wild=rules.super_wild)


def is_blue_skip(rules: Rules, kind: GroupKind, card: Card) -> bool:
    """Under Super Wild a Skip may be a blue card in a group of one colour."""
    return kind is GroupKind.COLOUR and card.kind in rules.blue_skip_kinds()


def counts_natural(rules: Rules, card: Card) -> bool:
    """A numbered card; or, with house rule blue_skip_natural, a Skip that is blue."""
    return card.is_natural or (rules.blue_skip_natural and card.kind in rules.blue_skip_kinds())


def _layout_problems(rules: Rules, layout: Layout, groups: list[tuple[Card, ...]]) -> list[Reason]:
    problems: list[Reason] = []
    for spec, cards in zip(layout, groups, strict=True):
        problems += check_group(rules, spec, cards, label=group_label(spec, cards))
    return problems


def _count_problems(number: int, phase: Phase, groups: list[tuple[Card, ...]]) -> list[Reason]:
    """The number of groups matches none of the phase's layouts."""
    if not groups:
        return [
            Reason(
                _(
                    "nothing was laid down: phase %(number)s is %(phase)s",
                    number=number,
                    phase=phase,
                ),
                rule.LAYING_DOWN,
            )
        ]
    if len(phase.layouts) > 1:
        counts = sorted({len(layout) for layout in phase.layouts})
        return [
            Reason(
                _(
                    "phase %(number)s is %(phase)s: that is %(counts)s groups, not %(given)s",
                    number=number,
                    phase=phase,
                    counts=_or(counts),
                    given=len(groups),
                ),
                rule.NO_EXTRA_GROUPS,
            )
        ]
    layout = phase.groups
    if len(groups) > len(layout):
        return [
            Reason(
                ngettext(
                    "phase %(number)s has exactly %(num)s group (%(phase)s): %(nth)s "
                    "(%(cards)s) is not allowed",
                    "phase %(number)s has exactly %(num)s groups (%(phase)s): %(nth)s "
                    "(%(cards)s) is not allowed",
                    len(layout),
                    number=number,
                    phase=phase,
                    nth=words.ordinal_group(i + 1),
                    cards=format_cards(groups[i]),
                ),
                rule.NO_EXTRA_GROUPS,
            )
            for i in range(len(layout), len(groups))
        ]
    return [
        Reason(
            _(
                "phase %(number)s is %(phase)s: %(nth)s, a %(spec)s, is missing",
                number=number,
                phase=phase,
                nth=words.ordinal_group(i + 1),
                spec=layout[i].describe(),
            ),
            rule.LAYING_DOWN,
        )
        for i in range(len(groups), len(layout))
    ]


def _order_hint(
    rules: Rules, number: int, layouts: list[Layout], groups: list[tuple[Card, ...]]
) -> list[Reason]:
    """If the groups would stand in another order, say so rather than list failures."""
    for layout in layouts:
        if len(layout) > 6 or len(set(layout)) == 1:
            continue
        for order in set(permutations(layout)):
            if not _layout_problems(rules, order, groups):
                # Translators: %(group)s is a group's name: 'set of 3', 'run of 4'.
                wanted = _("the %(group)s", group=layout[0].describe())
                for spec in layout[1:]:
                    wanted = _(
                        "%(groups)s, then the %(group)s", groups=wanted, group=spec.describe()
                    )
                return [
                    Reason(
                        _(
                            "phase %(number)s lists %(groups)s: give the groups in that order",
                            number=number,
                            groups=wanted,
                        ),
                        rule.PHASES,
                    )
                ]
    return []


# --- one group ---------------------------------------------------------------


def _set_problems(cards: list[Card], label: str) -> list[Reason]:
    naturals = [c for c in cards if c.is_natural]
    if not naturals:
        return []
    target = _most_common(c.face for c in naturals)
    return [
        Reason(_not_a_number(label, c.code, target), rule.SETS)
        for c in naturals
        if c.number != target
    ]


def arrange_run(cards: Sequence[Card]) -> tuple[Card, ...] | None:
    """The cards laid as a run, low to high, or None if no order makes one.

    A player arranges a run as they lay it down, so a phase is judged on the
    best order: naturals ascending, Wilds in the gaps (a Super Wild in two
    neighbouring ones), spare Wilds at the high end, then the low end. Hits,
    by contrast, meet a run already on the table, in its order.
    """
    naturals: dict[int, Card] = {}
    wilds = supers = 0
    for card in cards:
        if card.is_natural and card.number not in naturals:
            naturals[card.face] = card
        elif card.kind is Kind.WILD:
            wilds += 1
        elif card.kind is Kind.SUPER_WILD:
            supers += 1
        else:
            return None  # a repeated number or a Skip: no order helps
    if not naturals:
        return None
    length = len(naturals) + wilds + 2 * supers
    low, high = min(naturals), max(naturals)
    for start in range(low, 0, -1):  # spare Wilds go high first
        end = start + length - 1
        if end > 12 or end < high:
            continue
        run: list[Card] = []
        pairs, number = supers, start
        while number <= end:
            if number in naturals:
                run.append(naturals[number])
            elif pairs and number + 1 <= end and number + 1 not in naturals:
                run.append(SUPER_WILD)
                pairs -= 1
                number += 1
            else:
                run.append(WILD)
            number += 1
        if pairs == 0 and run.count(WILD) == wilds:
            return tuple(run)
    return None


def _positions(cards: Sequence[Card]) -> list[tuple[int, Card]]:
    """Each card's place in a run as laid out (a Super Wild takes two places)."""
    placed, place = [], 0
    for card in cards:
        placed.append((place, card))
        place += card.width
    return placed


def _run_start(cards: Sequence[Card]) -> int | None:
    """The number the first place stands for, if the naturals agree on one."""
    starts = {card.face - place for place, card in _positions(cards) if card.is_natural}
    return starts.pop() if len(starts) == 1 else None


@dataclass(frozen=True)
class RunReading:
    """Which numbers a run on the table holds, read one way: low to high or high to low."""

    first: int  # the number the first place stands for
    step: int  # +1: laid low to high; -1: laid high to low
    places: int

    @property
    def low(self) -> int:
        return min(self.first, self.last)

    @property
    def high(self) -> int:
        return max(self.first, self.last)

    @property
    def last(self) -> int:
        return self.first + self.step * (self.places - 1)

    @property
    def span(self) -> str:
        return f"{self.low}-{self.high}"


def run_readings(cards: Sequence[Card]) -> list[RunReading]:
    """Every way the run, exactly as laid, stands within 1-12 (two ways at most).

    Its naturals fix the direction when there are two or more. With one
    natural and Wilds, both directions may stand and give different numbers
    (``W R5`` is 4-5 or 5-6); readings giving the same numbers count once.
    """
    places = sum(card.width for card in cards)
    naturals = [(place, card.face) for place, card in _positions(cards) if card.is_natural]
    readings: list[RunReading] = []
    for step in (1, -1):
        firsts = {number - step * place for place, number in naturals}
        if len(firsts) != 1:
            continue
        reading = RunReading(firsts.pop(), step, places)
        if reading.low >= 1 and reading.high <= 12:
            if all(reading.span != other.span for other in readings):
                readings.append(reading)
    return readings


def laid_run_problems(cards: Sequence[Card], label: str) -> list[Reason]:
    """What keeps a run on the table, in its order, from standing ([] when it stands)."""
    cards = list(cards)
    naturals = [(place, card) for place, card in _positions(cards) if card.is_natural]
    if not naturals or run_readings(cards):
        return []
    places = sum(card.width for card in cards)
    if places > 12:
        return [Reason(_too_long(label), rule.RUNS)]
    if len(naturals) > 1:
        (_first, a), (_second, b) = naturals[:2]
        ordered = cards if b.face > a.face else cards[::-1]
        problems = [p for p in _run_problems(ordered, label) if p.rule != rule.WILDS]
        if problems:
            return problems
    place, natural = naturals[0]
    ways = []
    for step in (1, -1):
        first = natural.face - step * place
        numbers = [first + step * p for p in range(places)]
        outside = words.numbers([n for n in numbers if not 1 <= n <= 12])
        if len(naturals) > 1 and not _naturals_agree(cards, first, step):
            continue
        if step > 0:
            ways.append(
                _("read low to high, its Wilds would stand for %(numbers)s", numbers=outside)
            )
        else:
            ways.append(
                _("read high to low, its Wilds would stand for %(numbers)s", numbers=outside)
            )
    if not ways:
        return [
            Reason(
                _("%(group)s: these numbers do not follow on from each other", group=label),
                rule.RUNS,
            )
        ]
    return [
        Reason(
            _(
                "%(group)s: %(ways)s; a Wild in a run stands for a number from 1 to 12",
                group=label,
                ways="; ".join(ways),
            ),
            rule.WILDS,
        )
    ]


def _naturals_agree(cards: Sequence[Card], first: int, step: int) -> bool:
    return all(
        card.number == first + step * place for place, card in _positions(cards) if card.is_natural
    )


def _run_problems(cards: list[Card], label: str) -> list[Reason]:
    placed = _positions(cards)
    places = sum(card.width for card in cards)
    problems: list[Reason] = []
    if places > 12:
        problems.append(Reason(_too_long(label), rule.RUNS))
    naturals = [(place, card) for place, card in placed if card.is_natural]
    if not naturals:
        return problems
    descending = len(naturals) > 1 and all(b.face < a.face for (_, a), (_, b) in pairwise(naturals))
    if descending and len({c.face + p for p, c in naturals}) == 1:
        return problems + [
            Reason(
                _(
                    "%(group)s: laid high to low; a run is read low to high, so lay it as "
                    "%(cards)s",
                    group=label,
                    cards=format_cards(reversed(cards)),
                ),
                rule.RUNS,
            )
        ]
    for (p1, c1), (p2, c2) in pairwise(naturals):
        problems += _pair_problems(label, p1, c1, p2, c2)
    start = _run_start(cards)
    if start is None or problems:
        return problems
    first_place, first = naturals[0]
    last_place, last = naturals[-1]
    if start < 1:
        before = cards[: _index(placed, first_place)]
        problems.append(
            Reason(
                _(
                    "%(group)s: the %(wilds)s before %(card)s would have to stand "
                    "for numbers below 1; a run starts at 1",
                    group=label,
                    wilds=_wilds_word(before),
                    card=first.code,
                ),
                rule.WILDS,
            )
        )
    if start + places - 1 > 12:
        after = cards[_index(placed, last_place) + 1 :]
        problems.append(
            Reason(
                _(
                    "%(group)s: the %(wilds)s after %(card)s would have to stand for "
                    "numbers above 12; a run stops at 12 (no wrap from 12 to 1)",
                    group=label,
                    wilds=_wilds_word(after),
                    card=last.code,
                ),
                rule.WILDS,
            )
        )
    return problems


def _pair_problems(label: str, p1: int, c1: Card, p2: int, c2: Card) -> list[Reason]:
    """Two naturals of a run, laid at places p1 < p2 with only Wilds between them."""
    n1, n2 = c1.number, c2.number
    assert n1 is not None and n2 is not None
    gap = p2 - p1  # n2 must be n1 + gap
    between = gap - 1  # places held by Wilds between them
    if n2 == n1 + gap:
        return []
    pair = {"group": label, "first": c1.code, "second": c2.code}
    if n2 < n1 and n1 + gap > 12 and n2 == n1 + gap - 12:
        message = _("%(group)s: %(first)s then %(second)s wraps from 12 to 1", **pair)
        return [Reason(message, rule.RUNS)]
    if n2 == n1:
        return [
            Reason(
                _(
                    "%(group)s: two %(number)ss (%(first)s and %(second)s); "
                    "a run has each number once",
                    number=n1,
                    **pair,
                ),
                rule.RUNS,
            )
        ]
    if n2 < n1:
        return [
            Reason(
                _(
                    "%(group)s: %(second)s comes after %(first)s; "
                    "lay the run in order, low to high",
                    **pair,
                ),
                rule.RUNS,
            )
        ]
    needed = list(range(n1 + 1, n2))
    missing = words.numbers(needed)
    if len(needed) > between:
        if between == 0:
            message = ngettext(
                "%(group)s: the %(missing)s is missing and no Wild fills it",
                "%(group)s: the %(missing)s are missing and no Wild fills them",
                len(needed),
                missing=missing,
                **pair,
            )
            return [Reason(message, rule.RUNS)]
        message = ngettext(
            "%(group)s: between %(first)s and %(second)s the %(missing)s is needed, "
            "but only %(wilds)s",
            "%(group)s: between %(first)s and %(second)s the %(missing)s are needed, "
            "but only %(wilds)s",
            len(needed),
            missing=missing,
            wilds=ngettext("%(num)s Wild stands there", "%(num)s Wilds stand there", between),
            **pair,
        )
        return [Reason(message, rule.RUNS)]
    places = ngettext("%(num)s place", "%(num)s places", between)
    if not needed:
        message = _(
            "%(group)s: between %(first)s and %(second)s no number fits, "
            "but %(places)s of Wilds stand there",
            places=places,
            **pair,
        )
    else:
        message = ngettext(
            "%(group)s: between %(first)s and %(second)s only the %(missing)s fits, "
            "but %(places)s of Wilds stand there",
            "%(group)s: between %(first)s and %(second)s only the %(missing)s fit, "
            "but %(places)s of Wilds stand there",
            len(needed),
            missing=missing,
            places=places,
            **pair,
        )
    return [Reason(message, rule.RUNS)]


def colour_of(card: Card) -> Colour | None:
    if card.is_natural:
        return card.colour
    return Colour.BLUE if card.is_skip else None


def _colour_problems(cards: list[Card], label: str) -> list[Reason]:
    coloured = [(card, colour) for card in cards if (colour := colour_of(card)) is not None]
    if not coloured:
        return []
    target = _most_common(colour for _, colour in coloured)
    problems = []
    for card, colour in coloured:
        if colour is target:
            continue
        if card.is_skip:
            reason = _(
                "%(group)s: a Skip counts as blue, and this group is %(colour)s",
                group=label,
                colour=target.word,
            )
            problems.append(Reason(reason, rule.SUPER_WILD))
        else:
            reason = _(
                "%(group)s: %(card)s is not %(colour)s",
                group=label,
                card=card.code,
                colour=target.word,
            )
            problems.append(Reason(reason, rule.COLOUR_GROUPS))
    return problems


# --- words -------------------------------------------------------------------


def _not_a_number(label: str, card: str, n: int) -> str:
    """'set of 3 (...): G8 is not a 7' (German 'keine 7', Spanish 'no es un 7')."""
    if n in (8, 11):
        return _("%(group)s: %(card)s is not an %(number)s", group=label, card=card, number=n)
    return _("%(group)s: %(card)s is not a %(number)s", group=label, card=card, number=n)


def _too_long(label: str) -> str:
    return _("%(group)s: a run holds at most 12 cards (1 to 12)", group=label)


def _most_common(values: Iterable[T]) -> T:
    """The value most cards agree on (the first one laid, on a tie)."""
    counts = Counter(values)
    top = max(counts.values())
    return next(value for value in counts if counts[value] == top)


def _index(placed: list[tuple[int, Card]], place: int) -> int:
    return next(i for i, (p, _) in enumerate(placed) if p == place)


def _wilds_word(cards: Sequence[Card]) -> str:
    if len(cards) == 1:
        return cards[0].describe()
    return ngettext("%(num)s Wild", "%(num)s Wilds", len(cards))


def _or(counts: list[int]) -> str:
    """'2 or 3 or 5'."""
    text = str(counts[0])
    for count in counts[1:]:
        text = _("%(counts)s or %(count)s", counts=text, count=count)
    return text
