"""The whole table's end of a hand: can every player's cards have come from one deck?

Exact cards left are added up; bare totals ask whether there is any way to pick
cards for everyone that one deck holds (rule 8, "the deck").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from ..i18n import _, join
from . import reasons as rule
from .end_of_hand import Limits, PlayerHand, holdings, limits_of
from .reasons import Reason, cite
from .ruleset import Rules
from .scoring import KINDS_LEFT, CardsLeft, count_words, deck_counts


def _pareto(vectors: Iterable[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Drop every vector that needs at least as much of everything as another one."""
    kept: list[tuple[int, ...]] = []
    for vector in sorted(set(vectors), key=sum):
        if not any(all(k <= v for k, v in zip(other, vector, strict=True)) for other in kept):
            kept.append(vector)
    return kept


def _needs(rules: Rules, hand: PlayerHand) -> tuple[tuple[int, ...], ...]:
    """The least of each kind of card this player's end of hand can take from the deck."""
    return _needs_within(rules, limits_of(rules, hand), hand.points, hand.cards)


@lru_cache(maxsize=4096)
def _needs_within(
    rules: Rules, limits: Limits, points: int | None, exact: CardsLeft | None
) -> tuple[tuple[int, ...], ...]:
    ways = holdings(rules, limits)
    if exact is not None:
        matches = (used for cards, used, _ in ways if cards == exact)
    elif points is not None:
        matches = (used for _, used, worth in ways if worth == points)
    else:
        matches = (used for cards, used, _ in ways if not cards.count)
    return tuple(_pareto(used.vector for used in matches))


def table_problems(rules: Rules, hands: Mapping[str, PlayerHand]) -> list[Reason]:
    """Why all these hands cannot have been dealt from one deck ([] when they can).

    With exact cards this adds them up; with bare totals it asks whether there is
    any way to pick cards for everyone that one deck holds. Players whose own
    entry is impossible are left out (``player_problems`` explains those).
    """
    deck = deck_counts(rules).vector
    needs = {name: options for name, hand in hands.items() if (options := _needs(rules, hand))}
    if len(needs) < 2:
        return []  # one hand alone is checked against the deck by counts_problems
    problems = []
    for index, kind in enumerate(KINDS_LEFT):
        least = sum(min(option[index] for option in options) for options in needs.values())
        if least <= deck[index]:
            continue
        holders = [name for name, options in needs.items() if min(o[index] for o in options)]
        exact = all(hands[name].cards is not None for name in holders)
        values = {
            "names": join(holders),
            "cards": count_words(least, kind),
            "limit": deck[index],
        }
        if exact:
            reason = _(
                "together %(names)s hold %(cards)s, but the deck has only %(limit)s", **values
            )
        else:
            reason = _(
                "together %(names)s need at least %(cards)s, but the deck has only %(limit)s",
                **values,
            )
        problems.append(cite(reason, rule.DECK))
    if problems or _fits_one_deck(deck, list(needs.values())):
        return problems
    totals = ", ".join(f"{name} {hands[name].total(rules)}" for name in needs)
    return [
        cite(
            _(
                "these totals cannot all come from one deck (%(totals)s): together they "
                "need more Wilds, Skips and cards 10-12 than it holds",
                totals=totals,
            ),
            rule.DECK,
        )
    ]


def _fits_one_deck(deck: tuple[int, ...], needs: list[tuple[tuple[int, ...], ...]]) -> bool:
    """Can each player take one of their options so that the deck covers them all?"""
    if sum(max(sum(option) for option in options) for options in needs) <= deck[0]:
        # so few cards that the 72 cards 1-9 can never run out: leave them out
        deck = deck[1:]
        needs = [tuple(_pareto(option[1:] for option in options)) for options in needs]

    def share(option: tuple[int, ...]) -> float:
        return sum(n / d for n, d in zip(option, deck, strict=True) if d)

    cheapest = [min(options, key=share) for options in needs]
    if all(t <= d for t, d in zip(map(sum, zip(*cheapest, strict=True)), deck, strict=True)):
        return True  # the quick way: everyone takes their least scarce option
    reachable: list[tuple[int, ...]] = [(0,) * len(deck)]
    for options in needs:
        sums = (_plus(used, option) for used in reachable for option in options)
        reachable = _pareto(
            total for total in sums if all(t <= d for t, d in zip(total, deck, strict=True))
        )
        if not reachable:
            return False
    return True


def _plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))
