"""Hitting: may a card go onto a group already on the table, and where?

A group on the table keeps the order it was laid in. A run may lie low to
high or high to low and takes a card at either end, within 1-12. Its
naturals fix which numbers its Wilds stand for; when they cannot (one
natural and Wilds to one side, like ``W R5``: 4-5 or 5-6), and the answer
depends on it, the verdict says so rather than guess: the table remembers
what each Wild was laid down as.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .cards import Card, Colour, format_cards, impossible
from .check import (
    RULE_DECK,
    RULE_HIT_COLOUR,
    RULE_HIT_RUN,
    RULE_HIT_SET,
    RULE_SKIP,
    RULE_SKIP_BLUE,
    RunReading,
    Verdict,
    a_number,
    check_group,
    colour_of,
    is_blue_skip,
    run_readings,
)
from .phases import GroupKind, GroupSpec, Rules
from .reasons import Reason

_KIND_WORD = {GroupKind.SET: "set", GroupKind.RUN: "run", GroupKind.COLOUR: "colour group"}


@dataclass(frozen=True)
class HitVerdict(Verdict):
    """A hit's verdict, plus where the card goes and what number it takes."""

    where: str | None = None  # "high end (as 9)", "joins the set of 7s"
    stands_for: int | None = None  # the number the card counts as (sets and runs)

    def to_json(self) -> dict[str, object]:
        return {**super().to_json(), "where": self.where, "stands_for": self.stands_for}


def check_hit(rules: Rules, kind: GroupKind, group: Sequence[Card], card: Card) -> HitVerdict:
    """May ``card`` be hit onto this laid-down group, and where does it go?"""
    group = tuple(group)
    label = f"the {_KIND_WORD[kind]} ({format_cards(group)})"
    deck = [Reason(reason, RULE_DECK) for reason in impossible((*group, card), rules.super_wild)]
    problems = deck + check_group(rules, GroupSpec(kind, 2), group, label=label, as_laid=True)
    if problems:
        return _no_hit(problems)
    if card.is_skip and not is_blue_skip(rules, kind, card):
        return _no_hit([Reason(f"a {card.describe()} can never be hit onto a group", RULE_SKIP)])
    if kind is GroupKind.SET:
        return _hit_set(group, card)
    if kind is GroupKind.RUN:
        return _hit_run(group, card)
    return _hit_colour(group, card)


def _no_hit(problems: list[Reason]) -> HitVerdict:
    return HitVerdict(False, tuple(problems))


def _hit(where: str, stands_for: int | None = None) -> HitVerdict:
    return HitVerdict(True, where=where, stands_for=stands_for)


def _hit_set(group: tuple[Card, ...], card: Card) -> HitVerdict:
    numbers = {c.number for c in group if c.is_natural}
    if not numbers:  # only possible with the house rule natural=phase
        if card.is_wild:
            return _hit("joins the set of Wilds")
        return _no_hit(
            [
                Reason(
                    f"the set has only Wilds, so its number is not on the table; {card.code} "
                    f"fits only if the Wilds were laid down as {card.number}s",
                    RULE_HIT_SET,
                )
            ]
        )
    number = numbers.pop()
    assert number is not None
    if card.is_wild:
        as_what = f"two {number}s" if card.width == 2 else a_number(number)
        return _hit(f"joins the set of {number}s (as {as_what})", number)
    if card.number == number:
        return _hit(f"joins the set of {number}s", number)
    return _no_hit(
        [Reason(f"{card.code} is not {a_number(number)}: the set is {number}s", RULE_HIT_SET)]
    )


# --- runs --------------------------------------------------------------------


def _hit_run(group: tuple[Card, ...], card: Card) -> HitVerdict:
    readings = run_readings(group)
    places = sum(c.width for c in group)
    if not any(c.is_natural for c in group):  # only Wilds (house rule natural=phase)
        if card.is_wild and places + card.width <= 12:
            return _hit("an end of the run (the Wilds' numbers were said when laid down)")
        return _no_hit(
            [
                Reason(
                    "the run has only Wilds, so which numbers it holds is not on the table; "
                    "a card fits only if it extends an end within 1-12",
                    RULE_HIT_RUN,
                )
            ]
        )
    verdicts = [_hit_reading(reading, card) for reading in readings]
    if len(verdicts) == 1:
        return _with_direction(group, readings[0], verdicts[0])
    if all(v.valid for v in verdicts):
        if len({v.stands_for for v in verdicts}) == 1:
            return verdicts[0]
        spans = " or ".join(r.span for r in readings)
        return _hit(f"an end of the run ({spans}, as its Wilds were laid down)")
    if not any(v.valid for v in verdicts):
        return _no_hit(
            [
                Reason(
                    f"{card.code} extends the run neither as {readings[0].span} nor as "
                    f"{readings[1].span}",
                    RULE_HIT_RUN,
                )
            ]
        )
    fits = next(r for r, v in zip(readings, verdicts, strict=True) if v.valid)
    other = next(r for r, v in zip(readings, verdicts, strict=True) if not v.valid)
    return _no_hit(
        [
            Reason(
                f"it depends on what the Wilds were laid down as: {card.code} fits if the run "
                f"is {fits.span}, not if it is {other.span}",
                RULE_HIT_RUN,
            )
        ]
    )


def _with_direction(
    group: tuple[Card, ...], reading: RunReading, verdict: HitVerdict
) -> HitVerdict:
    """A refusal says why a run with one natural reads the only way it can (W W W R3: 6-3)."""
    if verdict.valid or sum(c.is_natural for c in group) != 1 or len(group) < 2:
        return verdict
    way, other = (
        ("high to low", "low to high") if reading.step < 0 else ("low to high", "high to low")
    )
    note = (
        f" (read {other}, its Wilds would stand for numbers outside 1-12, so it is laid {way}: "
        f"{', '.join(str(reading.first + reading.step * i) for i in range(reading.places))})"
    )
    first = verdict.problems[0]
    return HitVerdict(False, (replace(first, message=first.message + note), *verdict.problems[1:]))


def _hit_reading(reading: RunReading, card: Card) -> HitVerdict:
    """The hit, with the run read this one way."""
    start, end, width = reading.low, reading.high, card.width
    span = reading.span
    if card.is_natural:
        number = card.number
        assert number is not None
        if number == end + 1 <= 12:
            return _hit("high end", number)
        if number == start - 1 >= 1:
            return _hit("low end", number)
        if start <= number <= end:
            reason = f"the run {span} already has its {number}; a hit must extend an end"
        else:
            reason = f"{card.code} does not extend the run {span}: {_run_wants(start, end)}"
        return _no_hit([Reason(reason, RULE_HIT_RUN)])
    if end + width <= 12:
        return _hit(f"high end (as {_and([str(end + i) for i in range(1, width + 1)])})", end + 1)
    if start - width >= 1:
        low = start - width
        return _hit(f"low end (as {_and([str(low + i) for i in range(width)])})", low)
    if reading.places == 12:
        reason = "the run already goes from 1 to 12: nothing more fits"
    else:
        reason = (
            f"a {card.describe()} fills {width} places, and the run {span} has room for only "
            f"{start - 1} more below and {12 - end} more above"
        )
    return _no_hit([Reason(reason, RULE_HIT_RUN)])


def _run_wants(start: int, end: int) -> str:
    wants = [a_number(n) for n in (start - 1, end + 1) if 1 <= n <= 12]
    if not wants:
        return "it already goes from 1 to 12"
    return "only " + " or ".join(wants) + " fits"


# --- colour groups -----------------------------------------------------------


def _hit_colour(group: tuple[Card, ...], card: Card) -> HitVerdict:
    colours = {colour_of(c) for c in group} - {None}
    if not colours:  # only Wilds (house rule natural=phase)
        if card.is_wild:
            return _hit("joins the group of Wilds")
        own = colour_of(card)
        assert own is not None  # not a Wild, so a natural or a (blue) Skip
        return _no_hit(
            [
                Reason(
                    "the group has only Wilds, so its colour is not on the table; "
                    f"{card.code} fits only if they were laid down as "
                    f"{own.word}",
                    RULE_HIT_COLOUR,
                )
            ]
        )
    colour = colours.pop()
    assert colour is not None
    if card.is_wild:
        return _hit(f"joins the {colour.word} cards (as {colour.word})")
    if card.is_skip:
        if colour is Colour.BLUE:
            return _hit(f"joins the blue cards (the {card.describe()} counts as blue)")
        reason = f"a {card.describe()} counts as blue, and the group is {colour.word}"
        return _no_hit([Reason(reason, RULE_SKIP_BLUE)])
    if card.colour is colour:
        return _hit(f"joins the {colour.word} cards")
    return _no_hit(
        [
            Reason(
                f"{card.code} is not {colour.word}: the group is {colour.word} cards",
                RULE_HIT_COLOUR,
            )
        ]
    )


def _and(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
