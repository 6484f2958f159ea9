"""What an action answers: ``Saved``, ``Refused`` (``NoRoom`` past the storage budget) or
``Conflict``, and the messages several actions give.

- ``Saved``: written (or, for a hand sent twice, already there: ``changed`` is False);
- ``Refused``: the rules or the input say no; ``problems`` are the engine's;
- ``Conflict``: the game is not where the caller thought (another phone wrote
  first, the hand is already recorded differently, the game is over).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_
from ..reports import current_game
from ..rules.reasons import Reason, Rule
from ..store import change_notes

STALE = N_("Another phone changed this game a moment ago. Check the game and try again.")
NO_GAME = N_("There is no game at this link. It may have been mistyped.")
UNKNOWN_ZONE = N_("%(zone)s is not a time zone this app knows. Pick one from the list.")
TABLES_ZONE = N_("This game keeps its table's time zone: set it on the table's page.")


@dataclass(frozen=True)
class Saved:
    current: current_game.Current
    note: str  # what happened, as stored in the history (notes.py)
    changed: bool = True  # False: this very hand was recorded already (a re-sent form)
    warnings: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        """What happened, in words of the current language."""
        return change_notes.words(self.note)


@dataclass(frozen=True)
class Refused:
    message: str
    problems: tuple[Reason, ...] = ()
    rule: Rule | None = None  # the rule the message comes from, for its link on screen


@dataclass(frozen=True)
class NoRoom(Refused):
    """Refused because the game or its table would pass its storage budget."""


@dataclass(frozen=True)
class Conflict:
    message: str
    current: current_game.Current | None = None  # the game as it stands now

    @property
    def next_hand(self) -> int | None:
        if self.current is None or self.current.standings.over:
            return None
        return self.current.standings.hand_number


Result = Saved | Refused | Conflict
