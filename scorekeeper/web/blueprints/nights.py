"""A club night: starting one from a table, the organiser's page, the players' page and the
room's screen.

The organiser reaches a night through the table's own link
(``/t/<table>/nights/<night>``): whoever runs the table runs its nights. Everyone
else has the night's read-only link (``/e/<night_view>``, also opened by the
night's short code at ``/<code>``), and the room's screen at ``/e/<night_view>/tv``.
Each page is also its live part (live.py): its poll is held on the night's own
key (``night:<id>``), rung by the night's changes and its games' only.
"""

from __future__ import annotations

from collections import OrderedDict

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from ... import actions, clock, codes, store
from ...i18n import N_, _, ngettext
from ...printing.link import printed_link, site
from ...reports import night_view
from ...rules.nights import Mode, Scheme
from ...rules.phases import PROFILES
from ...store import check_in, nights, seasons, tables
from .. import device, live
from ..access import db, public_url, qr_svg
from ..forms import whole_number
from ..security import creating
from ..zones import local_day

bp = Blueprint("nights", __name__)

DEFAULT_ROUNDS = 3
PLAYER_COOKIE = "night_player"  # the name a phone follows; per night, as its path is the link
FORMATS = ("official", "ten-hands", "even", "plus10", "masters", "super-wild")  # PROFILES' names


def _clean(text: str) -> str:
    return " ".join(text.split())


# --- starting a night ------------------------------------------------------------------


@bp.route("/t/<table_id>/nights/new", methods=["GET", "POST"])
@creating
def new_night() -> Response | tuple[str, int] | str:
    table: tables.Table = g.table
    roster = [p.name for p in tables.roster(db(), table.id) if not p.retired]
    if request.method in ("GET", "HEAD"):
        values = {
            "name": _("Club night"),
            "rounds": str(DEFAULT_ROUNDS),
            "tables": "",
            "profile": "official",
            "mode": Mode.NEW_OPPONENTS.value,
            "scheme": Scheme.PLACEMENT.value,
            "season": _season_now(table.id),
        }
        return _form(roster, set(roster), "", values)
    form = request.form
    ticked = [name for name in form.getlist("player") if name in roster]
    newcomers = [_clean(line) for line in form.get("newcomers", "").splitlines() if line.strip()]
    fields = ("name", "rounds", "tables", "profile", "mode", "scheme", "season")
    values = {key: form.get(key, "") for key in fields}
    try:
        mode, scheme = Mode(values["mode"]), Scheme(values["scheme"])
    except ValueError:
        return _form(roster, set(ticked), "\n".join(newcomers), values, _(BAD_FORM), 400)
    rounds = whole_number(values["rounds"])
    tables_asked = _tables_asked(values["tables"])
    if rounds is None or tables_asked is False:
        message = _(TABLES_TYPED) if rounds is not None else _(ROUNDS_TYPED)
        return _form(roster, set(ticked), "\n".join(newcomers), values, message, 422)
    night = actions.nights.create_night(
        db(),
        table.id,
        name=_clean(values["name"]) or _("Club night"),
        players=[*ticked, *newcomers],
        rounds=rounds,
        profile=values["profile"],
        mode=mode,
        scheme=scheme,
        tables_asked=tables_asked,
    )
    if isinstance(night, actions.results.Refused):
        return _form(roster, set(ticked), "\n".join(newcomers), values, night.message, 422)
    if values["season"]:  # the season it counts for (a season gone meanwhile: said, not lost)
        counted = actions.seasons.put_night(db(), table.id, night.id, values["season"])
        if isinstance(counted, actions.results.Refused):
            flash(counted.message, "error")
    return redirect(url_for("nights.organiser", night_id=night.id), 303)


ROUNDS_TYPED = N_("Type how many rounds the night has, such as 3.")
TABLES_TYPED = N_("Type how many tables, such as 4, or leave it empty for the app's choice.")


def _tables_asked(text: str) -> int | None | bool:
    """The tables typed: a number, None when left empty, False when it is no number."""
    if not text.strip():
        return None
    number = whole_number(text)
    return False if number is None else number


BAD_FORM = N_("This form does not say what to change. Reload the page and try again.")


def _form(
    roster: list[str],
    ticked: set[str],
    newcomers: str,
    values: dict[str, str],
    error: str | None = None,
    status: int = 200,
) -> tuple[str, int]:
    page = render_template(
        "night_new.html",
        table=g.table,
        roster=roster,
        ticked=ticked,
        newcomers=newcomers,
        values=values,
        error=error,
        formats=[PROFILES[name] for name in FORMATS],
        modes=list(Mode),
        schemes=list(Scheme),
        seasons=seasons.seasons_of_table(db(), g.table.id),
    )
    return page, status


def _season_now(table_id: str) -> str:
    """The table's season whose days hold today (the latest started), else none."""
    today = local_day(clock.moment(store.connection.now())).isoformat()
    found = seasons.seasons_of_table(db(), table_id)
    return next((one.id for one in found if one.starts <= today <= one.ends), "")


# --- the organiser's page --------------------------------------------------------------


def _tag(night: nights.Night) -> str:
    return live.shown(nights.version(db(), night.id))


def _held(night: nights.Night) -> Response | None:
    """A poll of a night's page, held until the night or one of its games changes."""
    return live.answer(_tag(night), lambda: _tag(night), store.commits.night_key(night.id))


def _context(now: night_view.NightNow, tag: str) -> dict[str, object]:
    night = now.night
    view = public_url("nights.view", night_view=night.view_id)
    return {
        "now": now,
        "night": night,
        "live_tag": tag,
        "view_link": view,
        "tv_link": public_url("nights.screen", night_view=night.view_id),
        "code": codes.grouped(night.code),
        "code_site": site(view),
        "code_link": printed_link(view, night.code),
        "tonight": check_in.tonights_list(db(), night.id),
        "too_late": actions.check_in.too_late(now),
    }


@bp.get("/t/<table_id>/nights/<night_id>")
def organiser() -> Response:
    night: nights.Night = g.night
    if (held := _held(night)) is not None:
        return held
    now = night_view.night_now(db(), night)
    context = {**_context(now, _tag(night)), "keeper_qr": _keeper_codes(now)}
    poll_url = url_for("nights.organiser")
    if live.polled():
        html = render_template(
            "_night_organiser.html", poll_url=poll_url, modes=list(Mode), **context
        )
        return live.fragment(html, 200, str(context["live_tag"]))
    device.remember_table(g.table.id)
    changes = [
        (at, _change_words(action, facts)) for at, action, facts in nights.history(db(), night.id)
    ]
    html = render_template(
        "night.html",
        changes=changes,
        table=g.table,
        poll_url=poll_url,
        modes=list(Mode),
        qr=qr_svg(str(context["view_link"])),
        season=seasons.season_of_night(db(), night.id),
        seasons=seasons.seasons_of_table(db(), night.table_id),
        **context,
    )
    return live.page(html)


def _change_words(action: str, facts: dict) -> str:
    """One change of the night's log, in the reader's language."""
    mode = facts.get("mode")
    match action:
        case "create":
            count = len(facts.get("players", ()))
            return ngettext(
                "The night began with %(num)s player", "The night began with %(num)s players", count
            )
        case "seat" if mode in {m.value for m in Mode}:
            return _(
                "Round %(round)s seated: %(mode)s", round=facts.get("round"), mode=Mode(mode).label
            )
        case "start":
            return _("Round %(round)s started", round=facts.get("round"))
        case "leave":
            return _("%(player)s left", player=facts.get("player"))
        case "arrive":
            return _("%(player)s arrived", player=facts.get("player"))
        case "import":
            return _("Brought in from a table's backup")
        case check_in.CHECKED_IN:
            return _("%(player)s checked in from their phone", player=facts.get("player"))
        case check_in.CLOSED:
            return _("The list was closed to players' phones")
        case check_in.OPENED:
            return _("The list was opened to players' phones")
    return action


def _keeper_codes(now: night_view.NightNow) -> dict[int, Markup]:
    """Each table's scorekeeper link as a QR code, for the round being played: the
    organiser shows it to whoever keeps score there."""
    playing = now.playing
    if playing is None:
        return {}
    codes_of = {}
    for (number, table), game in now.games.items():
        if number == playing.number:
            stored = game.stored
            link = public_url("games.game_page", game_id=stored.id, key=stored.edit_key)
            codes_of[table] = qr_svg(link)
    return codes_of


def _back(refused: actions.results.Refused | None, done: str) -> Response:
    if refused is not None:
        flash(refused.message, "error")
    else:
        flash(done)
    return redirect(url_for("nights.organiser"), 303)


@bp.post("/t/<table_id>/nights/<night_id>/seat")
def seat() -> Response:
    """Seat the waiting round again, or the next round once this one is over."""
    chosen = request.form.get("mode")
    try:
        mode = Mode(chosen) if chosen else None
    except ValueError:
        abort(400, _(BAD_FORM))
    tables_asked = _tables_asked(request.form.get("tables", ""))
    if tables_asked is False:
        return _back(actions.results.Refused(_(TABLES_TYPED)), "")
    seated = actions.nights.seat_next(db(), g.night, mode, tables_asked)
    if isinstance(seated, actions.results.Refused):
        return _back(seated, "")
    return _back(None, _("Round %(round)s is seated.", round=seated.number))


@bp.post("/t/<table_id>/nights/<night_id>/start")
@creating  # a game at every table: counted as one start, like a new game
def start() -> Response:
    started = actions.nights.start_round(db(), g.night)
    if isinstance(started, actions.results.Refused):
        return _back(started, "")
    return _back(
        None, _("Round %(round)s has started: a game at every table.", round=started.number)
    )


@bp.post("/t/<table_id>/nights/<night_id>/players")
def players() -> Response:
    """A player leaves, comes back, or arrives late (seated from the next round)."""
    action, name = request.form.get("action", ""), _clean(request.form.get("name", ""))
    if action not in ("leave", "arrive"):
        abort(400, _(BAD_FORM))
    if not name:
        return _back(actions.results.Refused(_("Type the player's name.")), "")
    refused = actions.nights.set_here(db(), g.night, name, action == "arrive")
    if action == "leave":
        done = _("%(player)s has left: not seated from the next round.", player=name)
    else:
        done = _("%(player)s is here: seated from the next round.", player=name)
    return _back(refused, done)


# --- the players' page and the room's screen --------------------------------------------


def _watching(template: str, fragment: str, endpoint: str, player: str = "") -> Response:
    """A read-only page of the night. What every phone and screen of the night shows alike
    is rendered once per version of the night (live.shared), from one reading of it (``_now``);
    a player's phone adds only where that player sits, so a hand at any of thirty tables
    costs one render of the leaderboard, not one per phone."""
    night: nights.Night = g.night
    if (held := _held(night)) is not None:
        return held
    tag = _tag(night)
    context = {
        **_context(_now(night, tag), tag),
        "player": player,
        "poll_url": url_for(endpoint, player=player) if player else url_for(endpoint),
    }
    if player or endpoint == "nights.view":
        context["shared"] = live.shared(
            ("night", endpoint, night.id, tag),
            lambda: Markup(render_template("_night_view_shared.html", **context)),
        )
        html = render_template(fragment, **context)
    else:
        html = live.shared(
            ("night", endpoint, night.id, tag), lambda: render_template(fragment, **context)
        )
    if live.polled():
        return live.fragment(html, 200, tag)
    return live.page(render_template(template, **context))


_readings: OrderedDict[str, tuple[str, night_view.NightNow]] = OrderedDict()
READINGS = 32  # nights whose latest reading is kept: those being watched now


def _now(night: nights.Night, tag: str) -> night_view.NightNow:
    """The night as its pages show it at ``tag``, read once for every phone that asks."""
    kept = _readings.get(night.id)
    if kept is None or kept[0] != tag:
        kept = _readings[night.id] = (tag, night_view.night_now(db(), night))
        while len(_readings) > READINGS:
            _readings.popitem(last=False)
    _readings.move_to_end(night.id)
    return kept[1]


@bp.get("/e/<night_view>")
def view() -> Response:
    """The night on a player's phone: where to sit next (for a chosen name, which the phone
    remembers for this night, so the link or code opened again goes straight to it), and
    the leaderboard."""
    night: nights.Night = g.night
    chosen = request.args.get("player")
    name = (chosen if chosen is not None else request.cookies.get(PLAYER_COOKIE, ""))[:100]
    response = _watching("night_view.html", "_night_view.html", "nights.view", name)
    if chosen is not None and not live.polled():
        path = url_for("nights.view", night_view=night.view_id)
        response.set_cookie(
            PLAYER_COOKIE,
            chosen[:100],
            max_age=2 * 24 * 3600,  # the night, and the morning after
            path=path,
            secure=request.is_secure,
            httponly=True,
            samesite="Lax",
        )
    return response


@bp.get("/e/<night_view>/tv")
def screen() -> Response:
    """The room's screen: every table's game live beside the leaderboard."""
    return _watching("night_screen.html", "_night_screen.html", "nights.screen")
