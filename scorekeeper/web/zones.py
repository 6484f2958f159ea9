"""The clocks a request's dates and times are on: the record's, and the reader's.

- The record's (``record_zone``): a table's time zone, or a game's own while it is in no
  table; each set on its page and defaulted from the phone that started it (``new_zone``),
  else from the server's ``SCOREKEEPER_TIME_ZONE`` (or ``TZ``, the machine's: language.py
  reads it at start). Records are dated on it, whoever asks: a game's history, a table's
  list of games and statistics, printed sheets, BG Stats' play, a table's backup. A view
  that shows a record says so once (``on_record_clock``) and every date on its page follows.
- The reader's (``zone``): the phone's own, which static/app.js keeps in a cookie, on a live
  screen; a phone that has not said its zone sees the record's, never UTC for lack of a
  cookie.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from functools import cache

from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_location
from flask import current_app, g, render_template, request
from flask_babel import format_date
from markupsafe import Markup

from .. import clock, i18n
from ..store import tables
from .access import db

ZONE_COOKIE = "tz"  # the phone's time zone, kept by app.js


def phone_zone() -> str | None:
    """The zone this phone said it is in (its IANA name), if it said one this app knows."""
    said = request.cookies.get(ZONE_COOKIE)
    return said if clock.zone(said) is not None else None


def server_zone() -> str:
    """The server's zone by its name: SCOREKEEPER_TIME_ZONE, else the machine's."""
    return zone_name(current_app.config["ZONE"])


def zone_name(found: tzinfo) -> str:
    return str(getattr(found, "key", None) or found)


def new_zone() -> str:
    """The clock a table or a game started on this phone gets: the phone's, else the
    server's."""
    return phone_zone() or server_zone()


def record_zone() -> tzinfo:
    """The clock of what this request opens: its table's, or its game's own while in no
    table; the server's when none was said (a table from before tables had one)."""
    found = g.get("record_zone")
    if found is None:
        found = g.record_zone = clock.zone(_record_zone_name()) or current_app.config["ZONE"]
    return found


def _record_zone_name() -> str | None:
    table = g.get("table")
    if table is not None:
        return table.time_zone
    night = g.get("night")
    if night is not None:
        its_table = tables.get_table(db(), night.table_id)
        return its_table.time_zone if its_table is not None else None
    link = g.get("link")
    if link is not None:
        return tables.time_zone_of_game(db(), link.game_id)
    return None


def zone() -> tzinfo:
    """The clock this request's page shows: the record's on a record's page
    (``on_record_clock``), else the phone's own, else the record's."""
    found = g.get("zone")
    if found is None:
        found = g.zone = clock.zone(phone_zone()) or record_zone()
    return found


def on_record_clock() -> tzinfo:
    """This page is a record: every date and time on it is on the record's clock, whoever
    reads it."""
    g.zone = record_zone()
    return g.zone


def local_day(when: date | datetime) -> date:
    """A time is taken as the day it was on the clock of this page (``zone``)."""
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


# --- a zone in words, and the list to pick one from -----------------------------------------


@dataclass(frozen=True)
class ClockLine:
    """A table's or a game's time zone as its page shows it, with this phone's beside it
    when they differ (a one-tap "use this phone's")."""

    name: str  # the IANA name in use
    label: str  # it in words
    phone: str | None  # this phone's zone, when it said one and it is another
    phone_label: str | None


def clock_line(name: str | None) -> ClockLine:
    """``name``: the time zone stored (None: the server's)."""
    name = name or server_zone()
    phone = phone_zone()
    phone = phone if phone and clock.zone(phone) != clock.zone(name) else None
    return ClockLine(name, zone_label(name), phone, zone_label(phone) if phone else None)


def clock_page(name: str | None, back: str, error: str | None = None) -> tuple[str, int]:
    """The page to pick a table's or a game's time zone from (``back``: its page)."""
    line = clock_line(name)
    page = render_template(
        "clock.html", clock=line, choices=zone_choices(line.name), back=back, error=error
    )
    return page, 422 if error else 200


def zone_label(name: str) -> str:
    """A zone as a family reads it, in the reader's language: "New York, United States"
    (CLDR's names, so every language has them); its IANA name when CLDR has no place."""
    return _labels(i18n.language()).get(name, name)


def zone_choices(chosen: str | None = None) -> list[tuple[str, str]]:
    """(IANA name, words) of every zone a phone may pick, by country and place in the
    reader's language; ``chosen`` (the one in use) is among them even when CLDR lists it under
    another name (Asia/Calcutta for Asia/Kolkata)."""
    choices = _choices(i18n.language())
    if chosen and all(name != chosen for name, _label in choices):
        return [(chosen, zone_label(chosen)), *choices]
    return choices


@cache
def _labels(language: str) -> dict[str, str]:
    locale = Locale.parse(language)
    labels = {"UTC": "UTC"}
    for name, territory in get_global("zone_territories").items():
        if clock.zone(name) is None:  # CLDR's placeholder (Etc/Unknown), or no data here
            continue
        place = get_timezone_location(name, locale=locale, return_city=True).rsplit("/", 1)[-1]
        country = locale.territories.get(territory)
        labels[name] = f"{place}, {country}" if country and country != place else place
    return labels


@cache
def _choices(language: str) -> list[tuple[str, str]]:
    labels = _labels(language)
    return sorted(labels.items(), key=lambda item: _sort_key(item[1]))


def _sort_key(label: str) -> tuple[str, str]:
    """By country, then place, ignoring accents (Á with A): every language's order is close
    enough for a list read by eye."""
    place, _comma, country = label.rpartition(", ")
    plain = unicodedata.normalize("NFKD", f"{country}\t{place}").casefold()
    return "".join(c for c in plain if not unicodedata.combining(c)), label
