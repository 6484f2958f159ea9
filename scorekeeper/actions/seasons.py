"""Seasons: start one at a table, change its name, dates or counting, and put nights in it.

A season's board is never stored: ``reports.season_view`` works it out from its nights'
games. What is kept is what the organiser decided (``store.seasons``).
"""

from __future__ import annotations

from datetime import date

from sqlite_utils import Database

from .. import store
from ..i18n import N_, _
from ..rules.names import MAX_TABLE_NAME, NameRefused, valid_name
from ..rules.nights import Scheme
from ..rules.seasons import MOST_BEST
from ..store import nights, seasons, tables
from . import results

NO_SEASON = N_("There is no such season at this table.")
LONGEST = 3 * 366  # days: a season of a few months, a year, at most three
FIRST_YEAR, LAST_YEAR = 2000, 2200


def _plan(
    name: str, starts: str, ends: str, scheme: Scheme, best: int | None
) -> seasons.SeasonPlan | results.Refused:
    """The season as typed, each part checked; a refusal says which part is wrong."""
    try:
        title = valid_name(name, MAX_TABLE_NAME)
    except NameRefused as refused:
        return results.Refused(str(refused))
    try:
        first, last = date.fromisoformat(starts.strip()), date.fromisoformat(ends.strip())
    except ValueError:
        return results.Refused(_("Give both days as year-month-day, such as 2026-03-01."))
    if not (FIRST_YEAR <= first.year <= LAST_YEAR and FIRST_YEAR <= last.year <= LAST_YEAR):
        return results.Refused(
            _("A season falls between %(first)s and %(last)s.", first=FIRST_YEAR, last=LAST_YEAR)
        )
    if last < first:
        return results.Refused(_("A season ends on or after the day it starts."))
    if (last - first).days >= LONGEST:
        return results.Refused(_("A season lasts three years at most."))
    if best is not None and not 1 <= best <= MOST_BEST:
        return results.Refused(_("Count from 1 to %(most)s nights a player.", most=MOST_BEST))
    return seasons.SeasonPlan(title, first.isoformat(), last.isoformat(), scheme, best)


def create_season(
    db: Database,
    table_id: str,
    *,
    name: str,
    starts: str,
    ends: str,
    scheme: Scheme,
    best: int | None = None,
) -> seasons.Season | results.Refused:
    """A new season at the table, with no night in it yet."""
    plan = _plan(name, starts, ends, scheme, best)
    if isinstance(plan, results.Refused):
        return plan
    with store.connection.transaction(db):
        if tables.get_table(db, table_id) is None:
            return results.Refused(
                _("There is no table at that link. Copy it from the table's page.")
            )
        return seasons.create_season(db, table_id, plan)


def edit_season(
    db: Database,
    season: seasons.Season,
    *,
    name: str,
    starts: str,
    ends: str,
    scheme: Scheme,
    best: int | None = None,
) -> seasons.Season | results.Refused:
    """The season's name, dates or counting changed; its nights stay in it."""
    plan = _plan(name, starts, ends, scheme, best)
    if isinstance(plan, results.Refused):
        return plan
    with store.connection.transaction(db):
        if seasons.get_season(db, season.id) is None:
            return results.Refused(_(NO_SEASON))
        seasons.edit_season(db, season.id, plan)
        found = seasons.get_season(db, season.id)
    assert found is not None
    return found


def put_night(
    db: Database, table_id: str, night_id: str, season_id: str | None
) -> seasons.Season | None | results.Refused:
    """Put one of the table's nights into one of its seasons (out of any other), or into
    none (``season_id`` None); answers the season it is in now."""
    with store.connection.transaction(db):
        night = nights.get_night(db, night_id)
        if night is None or night.table_id != table_id:
            return results.Refused(_("There is no such night at this table."))
        season = seasons.get_season(db, season_id) if season_id is not None else None
        if season_id is not None and (season is None or season.table_id != table_id):
            return results.Refused(_(NO_SEASON))
        seasons.put_night(db, night_id, season_id)
    return season
