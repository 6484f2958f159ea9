"""The family's own clock: times are stored in UTC (``store.connection.now``) and shown in
a time zone; and how long a game took.

Which zone is the web layer's choice (web/zones.py): the phone's own, else the
server's setting ``SCOREKEEPER_TIME_ZONE``, else the machine's. Here is only what
any layer needs: a zone from its IANA name, the machine's, and a stored time or
day in a zone.

A game's length is the time from its creation to the hand that ended it
(``store.history.played_until``: later corrections, an undo and its restore do not move
it). A game in progress has taken that long so far, to its latest hand.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from datetime import UTC, date, datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .i18n import _

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){0,2}")


def zone(name: str | None) -> tzinfo | None:
    """The zone with this IANA name ("Europe/Berlin"); None for anything else (or for a
    zone this machine has no data of)."""
    if name == "UTC":
        return UTC  # known without the zone data
    if not name or len(name) > 64 or not _NAME.fullmatch(name):
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def machine_zone(localtime: Path = Path("/etc/localtime")) -> tzinfo:
    """The machine's own zone: ``TZ``, else the zone /etc/localtime links to, else UTC."""
    found = zone(os.environ.get("TZ", "").removeprefix(":"))
    if found is None and localtime.is_symlink():
        target = str(localtime.resolve())
        if "/zoneinfo/" in target:
            found = zone(target.split("/zoneinfo/", 1)[1])
    return found or UTC


def local(when: str | datetime, where: tzinfo) -> datetime:
    """A stored time (written without a zone: UTC) as the clock on the wall in ``where``."""
    return (moment(when) if isinstance(when, str) else _aware(when)).astimezone(where)


def day(when: str | datetime, where: tzinfo) -> date | None:
    """The day it was in ``where``; None when a stored time cannot be read."""
    try:
        return local(when, where).date()
    except ValueError:
        return None


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo else moment(when.isoformat())


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
