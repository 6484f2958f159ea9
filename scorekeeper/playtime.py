"""How long a game took: its playing time, as the store timed it (UTC).

The store writes when each change was made (``store.now``), so a game's length
is the time from its creation to the hand that ended it (``store.played_until``:
later corrections, an undo and its restore do not move it). A game in progress
has taken that long so far, to its latest hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from .i18n import _


def moment(text: str) -> datetime:
    """A time as the store writes it; one written without a zone is taken as UTC."""
    when = datetime.fromisoformat(text)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def minutes(first: str, last: str) -> int:
    """Whole minutes (rounded) from ``first`` to ``last``; never below 0."""
    seconds = (moment(last) - moment(first)).total_seconds()
    return max(0, round(seconds / 60))


def duration(total: int) -> str:
    """'45 min', '2 h', '1 h 25 min', in the current language."""
    hours, rest = divmod(max(0, total), 60)
    if not hours:
        return _("%(minutes)s min", minutes=rest)
    if not rest:
        return _("%(hours)s h", hours=hours)
    return _("%(hours)s h %(minutes)s min", hours=hours, minutes=rest)


def average(lengths: Sequence[int]) -> int | None:
    """The average length in whole minutes, None without any game."""
    return round(sum(lengths) / len(lengths)) if lengths else None
