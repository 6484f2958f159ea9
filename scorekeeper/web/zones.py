"""The family's own clock: the time zone a request's dates and times are shown in.

The phone's zone, which static/app.js keeps in a cookie; else the server's
``SCOREKEEPER_TIME_ZONE``; else the machine's (``clock.py``, read at start by
language.py). Kept apart from the language blueprint so every blueprint can ask it.
"""

from __future__ import annotations

from datetime import date, datetime, tzinfo

from flask import current_app, g, request
from flask_babel import format_date
from markupsafe import Markup

from .. import clock

ZONE_COOKIE = "tz"  # the phone's time zone, kept by app.js


def zone() -> tzinfo:
    """The family's own clock for this request: the zone the phone says, else the server's."""
    found = g.get("zone")
    if found is None:
        found = g.zone = clock.zone(request.cookies.get(ZONE_COOKIE)) or current_app.config["ZONE"]
    return found


def local_day(when: date | datetime) -> date:
    """A time is taken as the day it was on the family's own clock."""
    return clock.local(when, zone()).date() if isinstance(when, datetime) else when


def day(when: date | datetime) -> str:
    """A day (or the day of a time) as the reader's language writes it."""
    return format_date(local_day(when))


def day_of(when: date | datetime | None) -> Markup:
    """A day (or the day of a time) as the reader's language writes it, as a <time>."""
    if when is None:
        return Markup("")
    found = local_day(when)
    return Markup('<time datetime="%s">%s</time>') % (found.isoformat(), format_date(found))
