"""How hard a phase is: the chance that 10 dealt cards and N drawn ones, with nothing
discarded, hold it (Monte Carlo).

Each trial deals 10 cards from the game's shuffled deck and draws N more, one a
turn, and asks the solver (``solve.held_phases``) whether those 10 + N cards hold
each phase. Every phase of a list is judged on the same deals, so the list's figures
compare like with like. The reading is deliberately simple: the player keeps every
card drawn, so after 5 turns it judges a hand of 15 cards, which never exists at
the table (there a player discards one a turn, but may also take the discard
pile's top card); the figures rank phases against each other rather than promise a
real table's odds. The 10 cards as dealt are counted exactly for most phases by
``exact.dealt_chance`` (the rules page's figures). A phase of more than 11 cards can never be laid
down (a hand holds at most 11) and is rated 0 without dealing.

Randomness comes from ``random.Random(seed)``: the same list, rules, turns,
trials and seed always give the same figures. Each chance comes with its 95%
Wilson interval; the list's average with the normal interval of the per-deal
share of its phases made.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import deck
from .phases import Phase
from .ruleset import Rules
from .solve import MAX_HAND, Work, held_phases

DEALT = 10
DEFAULT_TURNS = 5
MAX_TURNS = 10
DEFAULT_TRIALS = 1000
MAX_TRIALS = 5000
MAX_WORK = 24_000  # groups x trials in one rating: a longer list gets fewer trials
# The solver's steps in one rating (solve.Work, about 5-7 microseconds each): the official
# lists get their 1,000 deals whole (Super Wild's at 10 turns takes 244,000), and a list
# whose every deal is slow to judge (colour groups, a Super Wild, no draws) gets fewer.
MAX_STEPS = 250_000
DEFAULT_SEED = 10  # the same list always gets the same figures unless told otherwise
Z95 = 1.959964


def wilson(made: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of ``made`` successes in ``trials``."""
    if not trials:
        return 0.0, 1.0
    share = made / trials
    spread = Z95 * Z95 / trials
    centre = (share + spread / 2) / (1 + spread)
    half = Z95 * math.sqrt(share * (1 - share) / trials + spread / (4 * trials)) / (1 + spread)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class PhaseRating:
    """One phase: in how many of the deals it was made."""

    number: int  # its place in the list as given (1 = first)
    phase: Phase
    made: int
    trials: int
    too_big: bool = False  # more cards than a hand ever holds: never made

    @property
    def chance(self) -> float:
        return self.made / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return (0.0, 0.0) if self.too_big else wilson(self.made, self.trials)

    def to_json(self) -> dict[str, object]:
        low, high = self.interval
        return {
            "number": self.number,
            "phase": self.phase.notation,
            "chance": round(self.chance, 4),
            "interval": [round(low, 4), round(high, 4)],
            "made": self.made,
            "trials": self.trials,
            "too_big": self.too_big,
        }


@dataclass(frozen=True)
class ListRating:
    """A whole list: each phase's rating (easiest first, unless kept as given) and its
    average chance."""

    phases: tuple[PhaseRating, ...]
    turns: int
    trials: int
    seed: int
    average: float
    interval: tuple[float, float]
    ordered: bool  # easiest first (False: as given)
    steps: int = 0  # the solver's work (not in the answer: it is the server's business)

    @property
    def too_big(self) -> tuple[PhaseRating, ...]:
        """The phases no hand can ever make."""
        return tuple(rating for rating in self.phases if rating.too_big)

    def to_json(self) -> dict[str, object]:
        low, high = self.interval
        return {
            "phases": [rating.to_json() for rating in self.phases],
            "average": round(self.average, 4),
            "interval": [round(low, 4), round(high, 4)],
            "turns": self.turns,
            "trials": self.trials,
            "seed": self.seed,
            "order": "easiest" if self.ordered else "given",
        }


def trials_for(phases: Sequence[Phase], wanted: int = DEFAULT_TRIALS) -> int:
    """The trials a rating of these phases runs: as wanted, within MAX_WORK.

    The solver's work grows with the groups it places, so the bound counts groups
    (the official list has 16: it gets the default 1,000 deals), not phases.
    """
    groups = sum(len(layout) for phase in phases for layout in phase.layouts)
    return max(1, min(wanted, MAX_TRIALS, MAX_WORK // max(groups, 1)))


def rate(
    phases: Sequence[Phase],
    rules: Rules,
    *,
    turns: int = DEFAULT_TURNS,
    trials: int = DEFAULT_TRIALS,
    seed: int = DEFAULT_SEED,
    ordered: bool = True,
) -> ListRating:
    """Rate each phase and the list: the chance that 10 cards dealt from ``rules``' deck
    and ``turns`` more drawn, none discarded, hold it (the game's Wild and natural-card
    rules apply).

    Deals stop early once the solver has taken MAX_STEPS, so what a rating costs is
    bounded by the work it does, not only by its count of deals; the answer says how
    many deals it made, and the same request always makes the same ones."""
    if not phases:
        raise ValueError("no phases to rate")
    if not 0 <= turns <= MAX_TURNS:
        raise ValueError(f"turns must be 0 to {MAX_TURNS}")
    trials = trials_for(phases, trials)
    cards = deck(rules.super_wild)
    rng = random.Random(seed)
    playable = [i for i, phase in enumerate(phases) if phase.min_cards <= MAX_HAND]
    asked = [phases[i] for i in playable]
    made = [0] * len(phases)
    shares: list[float] = []
    work = Work()
    for _ in range(trials):
        if work.steps >= MAX_STEPS:
            break
        dealt = rng.sample(cards, DEALT + turns)
        held = held_phases(rules, asked, dealt, work) if asked else []
        for i, yes in zip(playable, held, strict=True):
            made[i] += yes
        shares.append(sum(held) / len(phases))
    trials = len(shares)
    ratings = [
        PhaseRating(i + 1, phase, made[i], trials, too_big=i not in playable)
        for i, phase in enumerate(phases)
    ]
    if ordered:
        ratings.sort(key=lambda rating: -rating.made)  # stable: equals keep their order
    average = sum(shares) / trials
    spread = math.sqrt(sum((s - average) ** 2 for s in shares) / max(trials - 1, 1))
    half = Z95 * spread / math.sqrt(trials)
    interval = (max(0.0, average - half), min(1.0, average + half))
    return ListRating(tuple(ratings), turns, trials, seed, average, interval, ordered, work.steps)
