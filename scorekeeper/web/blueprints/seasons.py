"""Seasons: a table's nights added up. Started and run by the table's link
(``/t/<table>/seasons``), read by players at the season's own link (``/s/<season_view>``),
with a page per player (their nights) and the ratings across nights.

The board and the ratings are ``reports.season_view``'s, worked out from the nights'
games. The season's pages keep themselves current as a night's do (live.py): their poll
is held on the season's key (``season:<id>``), rung by its own changes, its nights' and
their games'.
"""

from __future__ import annotations

from datetime import date, timedelta

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ... import actions, clock, store
from ...i18n import N_, _
from ...reports import season_view
from ...rules.nights import Scheme
from ...rules.seasons import MOST_BEST, explained
from ...store import nights, seasons, tables
from .. import device, live
from ..access import db, public_url, qr_svg
from ..forms import whole_number
from ..security import creating
from ..zones import local_day

bp = Blueprint("seasons", __name__)

WEEKS = 13  # a new season's suggested length: a quarter of a year
BAD_FORM = N_("This form does not say what to change. Reload the page and try again.")
BEST_TYPED = N_("Type how many nights count for each player, such as 8, or leave it empty.")


def _today() -> date:
    """Today on the family's clock (the store's clock: tests set it)."""
    return local_day(clock.moment(store.connection.now()))


# --- the table's seasons: the list, a new one -----------------------------------------


@bp.route("/t/<table_id>/seasons", methods=["GET", "POST"])
@creating
def table_seasons() -> Response | tuple[str, int]:
    """The table's seasons, and a new one."""
    table: tables.Table = g.table
    if request.method in ("GET", "HEAD"):
        first = _today()
        values = {
            "name": _("Season %(year)s", year=first.year),
            "starts": first.isoformat(),
            "ends": (first + timedelta(weeks=WEEKS, days=-1)).isoformat(),
            "scheme": Scheme.PLACEMENT.value,
            "best": "",
        }
        return _list_page(values)
    values, scheme, best = _typed()
    if scheme is None or best is False:
        return _list_page(values, _(BAD_FORM if scheme is None else BEST_TYPED), 422)
    season = actions.seasons.create_season(
        db(),
        table.id,
        name=values["name"],
        starts=values["starts"],
        ends=values["ends"],
        scheme=scheme,
        best=best,
    )
    if isinstance(season, actions.results.Refused):
        return _list_page(values, season.message, 422)
    flash(_("%(season)s has started: put its nights in it from here.", season=season.name))
    return redirect(url_for("seasons.organiser", season_id=season.id), 303)


def _typed() -> tuple[dict[str, str], Scheme | None, int | None | bool]:
    """The season's form as typed, its scheme (None: not one of the list) and its best N
    (None: every night; False: not a number)."""
    form = request.form
    values = {key: form.get(key, "").strip() for key in ("name", "starts", "ends", "scheme")}
    values["best"] = form.get("best", "").strip()
    try:
        scheme: Scheme | None = Scheme(values["scheme"])
    except ValueError:
        scheme = None
    best: int | None | bool = None
    if values["best"]:
        number = whole_number(values["best"])
        best = False if number is None else number
    return values, scheme, best


def _list_page(values: dict[str, str], error: str | None = None, status: int = 200):
    table: tables.Table = g.table
    page = render_template(
        "seasons.html",
        table=table,
        seasons=seasons.seasons_of_table(db(), table.id),
        values=values,
        schemes=list(Scheme),
        most_best=MOST_BEST,
        error=error,
    )
    return page, status


# --- a season, for its organiser -------------------------------------------------------


def _tag(season: seasons.Season) -> str:
    return live.shown(seasons.version(db(), season.id))


def _held(season: seasons.Season) -> Response | None:
    """A poll of a season's page, held until the season, a night or a game of it changes."""
    key = store.commits.season_key(season.id)
    return live.answer(_tag(season), lambda: _tag(season), key)


def _context(season: seasons.Season) -> dict[str, object]:
    tag = _tag(season)
    now = season_view.season_now(db(), season)
    return {
        "season": season,
        "now": now,
        "live_tag": tag,
        "view_link": public_url("seasons.view", season_view=season.view_id),
        "explained": explained(season.scheme),
    }


@bp.route("/t/<table_id>/seasons/<season_id>", methods=["GET", "POST"])
def organiser() -> Response | tuple[str, int]:
    """The season's own page for the table: its settings, its nights, the board."""
    season: seasons.Season = g.season
    if request.method == "POST":
        values, scheme, best = _typed()
        if scheme is None or best is False:
            return _organiser_page(season, values, _(BAD_FORM if scheme is None else BEST_TYPED))
        edited = actions.seasons.edit_season(
            db(),
            season,
            name=values["name"],
            starts=values["starts"],
            ends=values["ends"],
            scheme=scheme,
            best=best,
        )
        if isinstance(edited, actions.results.Refused):
            return _organiser_page(season, values, edited.message)
        flash(_("The season's settings are saved."))
        return redirect(url_for("seasons.organiser"), 303)
    if (held := _held(season)) is not None:
        return held
    if live.polled():
        return _live_part(season, url_for("seasons.organiser"))
    device.remember_table(g.table.id)
    values = {
        "name": season.name,
        "starts": season.starts,
        "ends": season.ends,
        "scheme": season.scheme.value,
        "best": str(season.best or ""),
    }
    return live.page(_organiser_page(season, values)[0])


def _organiser_page(
    season: seasons.Season, values: dict[str, str], error: str | None = None
) -> tuple[str, int]:
    table: tables.Table = g.table
    context = _context(season)
    inside = {night.night.id for night in season_view.season_now(db(), season).nights}
    others = []
    for night in nights.nights_of_table(db(), table.id):
        if night.id not in inside:
            others.append((night, seasons.season_of_night(db(), night.id)))
    page = render_template(
        "season.html",
        table=table,
        values=values,
        schemes=list(Scheme),
        most_best=MOST_BEST,
        error=error,
        others=others,
        qr=qr_svg(str(context["view_link"])),
        poll_url=url_for("seasons.organiser"),
        **context,
    )
    return page, 422 if error else 200


def _live_part(season: seasons.Season, poll_url: str) -> Response:
    """The part of a season's page that keeps itself current: the board and the ratings,
    rendered once per version of the season for every phone."""
    context = {**_context(season), "poll_url": poll_url}
    tag = str(context["live_tag"])
    html = live.shared(
        ("season", season.id, tag, poll_url),
        lambda: render_template("_season_live.html", **context),
    )
    return live.fragment(html, 200, tag)


@bp.post("/t/<table_id>/nights/<night_id>/season")
def move_night() -> Response:
    """Put the night into one of the table's seasons, or into none; back to the page the
    form was on (the night's or a season's)."""
    night: nights.Night = g.night
    chosen = request.form.get("season", "")
    moved = actions.seasons.put_night(db(), g.table.id, night.id, chosen or None)
    if isinstance(moved, actions.results.Refused):
        flash(moved.message, "error")
    elif moved is None:
        flash(_("%(night)s is in no season now.", night=night.name))
    else:
        flash(_("%(night)s counts for %(season)s now.", night=night.name, season=moved.name))
    back = request.form.get("back", "")
    if back == "night":
        return redirect(url_for("nights.organiser"), 303)
    found = seasons.get_season(db(), back) if back else None
    if found is not None and found.table_id == g.table.id:
        return redirect(url_for("seasons.organiser", season_id=found.id), 303)
    return redirect(url_for("seasons.table_seasons"), 303)


# --- a season for its players ------------------------------------------------------------


@bp.get("/s/<season_view>")
def view() -> Response:
    """The season's board and ratings on a player's phone, kept current."""
    season: seasons.Season = g.season
    if (held := _held(season)) is not None:
        return held
    poll_url = url_for("seasons.view")
    if live.polled():
        return _live_part(season, poll_url)
    context = {**_context(season), "poll_url": poll_url, "read_only": True}
    return live.page(render_template("season_view.html", **context))


@bp.get("/s/<season_view>/player")
def player() -> str:
    """One player's season: their line of the board, their rating, and each of their
    nights (which count, when only the best count)."""
    season: seasons.Season = g.season
    name = request.args.get("name", "")[:100]
    now = season_view.season_now(db(), season)
    line = now.line(name)
    if line is None:
        abort(404, _("Nobody called %(name)s has come to a night of this season.", name=name))
    return render_template(
        "season_player.html",
        season=season,
        now=now,
        name=name,
        line=line,
        rating=now.rating(name),
        played=now.nights_of(name),
        read_only=True,
    )
