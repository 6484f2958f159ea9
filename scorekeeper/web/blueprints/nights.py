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
from ...i18n import N_, _
from ...printing.link import printed_link, site
from ...reports import night_view
from ...rules.nights import Mode, Scheme
from ...rules.ruleset import PROFILES
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
            "minutes": "",
            "season": _season_now(table.id),
        }
        return _form(roster, set(roster), "", values)
    form = request.form
    ticked = [name for name in form.getlist("player") if name in roster]
    newcomers = [_clean(line) for line in form.get("newcomers", "").splitlines() if line.strip()]
    fields = ("name", "rounds", "tables", "profile", "mode", "scheme", "minutes", "season")
    values = {key: form.get(key, "") for key in fields}
    try:
        mode, scheme = Mode(values["mode"]), Scheme(values["scheme"])
    except ValueError:
        return _form(roster, set(ticked), "\n".join(newcomers), values, _(BAD_FORM), 400)
    rounds = whole_number(values["rounds"])
    tables_asked = _tables_asked(values["tables"])
    minutes = _tables_asked(values["minutes"])  # the same reading: a number or nothing
    if rounds is None or tables_asked is False or minutes is False:
        message = (
            _(ROUNDS_TYPED)
            if rounds is None
            else _(TABLES_TYPED)
            if tables_asked is False
            else _(MINUTES_TYPED)
        )
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
        minutes=minutes or None,
    )
    if isinstance(night, actions.results.Refused):
        return _form(roster, set(ticked), "\n".join(newcomers), values, night.message, 422)
    if values["season"]:  # the season it counts for (a season gone meanwhile: said, not lost)
        counted = actions.seasons.put_night(db(), table.id, night.id, values["season"])
        if isinstance(counted, actions.results.Refused):
            flash(counted.message, "error")
    return redirect(url_for("nights.organiser", night_id=night.id), 303)


ROUNDS_TYPED = N_("Type how many rounds the night has, such as 3.")
MINUTES_TYPED = N_("Type the minutes of a round, such as 45, or leave it empty for no clock.")
TABLES_TYPED = N_("Type how many tables, such as 4, or leave it empty for the app's choice.")


def _tables_asked(text: str) -> int | None | bool:
    """The tables (or minutes) typed: a number, None when left empty, False when it is no
    number."""
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
        "round_clock": night_view.round_clock(now, store.connection.now()),
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
    context = {
        **_context(now, _tag(night)),
        "keeper_qr": _keeper_codes(now),
        "seen": nights.latest_change(db(), night.id),
    }
    poll_url = url_for("nights.organiser")
    if live.polled():
        html = render_template(
            "_night_organiser.html", poll_url=poll_url, modes=list(Mode), **context
        )
        return live.fragment(html, 200, str(context["live_tag"]))
    device.remember_table(g.table.id)
    changes = [
        (at, night_view.change_words(action, facts))
        for at, action, facts in nights.history(db(), night.id)
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


def _back(result: object = None, done: str = "") -> Response:
    """Back to the organiser's page, saying what happened: a refusal or a conflict as an
    alert, else ``done``."""
    if isinstance(result, actions.results.Refused | actions.results.Conflict):
        flash(result.message, "error")
    elif done:
        flash(done)
    return redirect(url_for("nights.organiser"), 303)


def _seen() -> int | None:
    """The night's latest change the organiser's page showed (None: the form does not say)."""
    text = request.form.get("seen", "")
    if not text.strip():
        return None
    seen = whole_number(text)
    if seen is None:
        abort(400, _(BAD_FORM))
    return seen


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
        return _back(actions.results.Refused(_(TABLES_TYPED)))
    seated = actions.nights.seat_next(db(), g.night, mode, tables_asked, _seen())
    if not isinstance(seated, nights.Round):
        return _back(seated)
    return _back(done=_("Round %(round)s is seated.", round=seated.number))


@bp.post("/t/<table_id>/nights/<night_id>/start")
@creating  # a game at every table: counted as one start, like a new game
def start() -> Response:
    started = actions.nights.start_round(db(), g.night, _seen())
    if not isinstance(started, nights.Round):
        return _back(started)
    return _back(
        done=_("Round %(round)s has started: a game at every table.", round=started.number)
    )


@bp.post("/t/<table_id>/nights/<night_id>/players")
def players() -> Response:
    """A player leaves, comes back, or arrives late (seated from the next round); or keeps
    a table in every round (an accessible seat), or no longer does."""
    action, name = request.form.get("action", ""), _clean(request.form.get("name", ""))
    if action not in ("leave", "arrive", "keep", "free"):
        abort(400, _(BAD_FORM))
    if not name:
        return _back(actions.results.Refused(_("Type the player's name.")))
    if action in ("keep", "free"):
        table = whole_number(request.form.get("table")) if action == "keep" else None
        if action == "keep" and table is None:
            abort(400, _(BAD_FORM))
        refused = actions.nights.keep_table(db(), g.night, name, table)
        done = (
            _("%(player)s keeps table %(table)s in every round.", player=name, table=table)
            if table
            else _("%(player)s may sit at any table again.", player=name)
        )
        return _back(refused, done)
    changed = actions.nights.set_here(db(), g.night, name, action == "arrive")
    if isinstance(changed, actions.results.Refused):
        return _back(changed)
    return _back(done=_here_words(changed))


def _here_words(change: actions.nights.HereChange) -> str:
    name = change.name
    match change.what:
        case actions.nights.Here.ALREADY_HERE:
            return _("%(player)s is already here.", player=name)
        case actions.nights.Here.ALREADY_LEFT:
            return _("%(player)s has already left the night.", player=name)
        case actions.nights.Here.LEFT if change.seated:
            return _(
                "%(player)s has left: round %(round)s is seated again without them.",
                player=name,
                round=change.seated,
            )
        case actions.nights.Here.LEFT:
            return _("%(player)s has left: not seated from the next round.", player=name)
        case _ if change.seated:
            return _(
                "%(player)s is here: round %(round)s is seated again with them.",
                player=name,
                round=change.seated,
            )
    return _("%(player)s is here: seated from the next round.", player=name)


@bp.post("/t/<table_id>/nights/<night_id>/swap")
def swap() -> Response:
    """Two players of the round waiting to start change places."""
    first, second = _clean(request.form.get("first", "")), _clean(request.form.get("second", ""))
    if not first or not second:
        return _back(actions.results.Refused(_("Choose the two players to swap.")))
    swapped = actions.nights.swap(db(), g.night, first, second, _seen())
    if not isinstance(swapped, nights.Round):
        return _back(swapped)
    return _back(
        done=_("%(first)s and %(second)s have swapped places.", first=first, second=second)
    )


@bp.post("/t/<table_id>/nights/<night_id>/move")
def move() -> Response:
    """A player of the round waiting to start moves to another table."""
    name = _clean(request.form.get("player", ""))
    table = whole_number(request.form.get("table"))
    if not name or table is None:
        return _back(actions.results.Refused(_("Choose a player and the table to move them to.")))
    moved = actions.nights.move(db(), g.night, name, table, _seen())
    if not isinstance(moved, nights.Round):
        return _back(moved)
    return _back(done=_("%(player)s moves to table %(table)s.", player=name, table=table))


@bp.post("/t/<table_id>/nights/<night_id>/take-out")
def take_out() -> Response:
    """A player is taken out of the round being played: their game goes on without them."""
    name = _clean(request.form.get("player", ""))
    number = whole_number(request.form.get("round"))
    if not name or number is None:
        return _back(actions.results.Refused(_("Choose the player to take out.")))
    done = actions.nights.take_out(db(), g.night, name, number)
    if not isinstance(done, actions.results.Saved):
        return _back(done)
    return _back(
        done=_(
            "%(player)s is out of round %(round)s: their game goes on without them.",
            player=name,
            round=number,
        )
    )


@bp.post("/t/<table_id>/nights/<night_id>/end")
def end() -> Response:
    """End the night after its last finished round: the standings are final."""
    refused = actions.nights.end_night(db(), g.night, _seen())
    return _back(refused, _("The night is over: its standings are final."))


@bp.post("/t/<table_id>/nights/<night_id>/reopen")
def reopen() -> Response:
    """A night ended early goes on."""
    refused = actions.nights.reopen(db(), g.night, _seen())
    return _back(refused, _("The night goes on: seat the next round when the room is ready."))


@bp.post("/t/<table_id>/nights/<night_id>/plan")
def plan() -> Response:
    """The night's number of rounds and its round clock."""
    rounds = whole_number(request.form.get("rounds"))
    minutes = _tables_asked(request.form.get("minutes", ""))
    if rounds is None:
        return _back(actions.results.Refused(_(ROUNDS_TYPED)))
    if minutes is False:
        return _back(actions.results.Refused(_(MINUTES_TYPED)))
    refused = actions.nights.change_plan(db(), g.night, rounds, minutes or None, _seen())
    return _back(refused, _("The night's plan is changed."))


# --- the players' page and the room's screen --------------------------------------------


def _watching(template: str, fragment: str, endpoint: str, player: str = "") -> Response:
    """A read-only page of the night. What every phone and screen of the night shows alike
    is rendered once per version of the night (live.shared), from one reading of it (``_now``);
    a player's phone adds only where that player sits (and marks their own row), and every
    page its round clock, so a hand at any of thirty tables costs one render of the
    leaderboard, not one per phone."""
    night: nights.Night = g.night
    if (held := _held(night)) is not None:
        return held
    tag = _tag(night)
    context = {
        **_context(_now(night, tag), tag),
        "player": player,
        "poll_url": url_for(endpoint, player=player) if player else url_for(endpoint),
    }
    if endpoint == "nights.view":
        shared = live.shared(
            ("night", endpoint, night.id, tag),
            lambda: Markup(render_template("_night_view_shared.html", **context)),
        )
        context["shared"] = _yours(shared, player)
        html = render_template(fragment, **context)
    else:
        screen = live.shared(
            ("night", endpoint, night.id, tag),
            lambda: render_template(fragment, **context, clock_slot=CLOCK_SLOT),
        )
        clock = render_template("_night_clock.html", **context)
        html = context["screen"] = Markup(screen.replace(CLOCK_SLOT, clock, 1))
    if live.polled():
        return live.fragment(html, 200, tag)
    return live.page(render_template(template, **context))


CLOCK_SLOT = Markup("<!-- the round clock -->")


def _yours(shared: str, player: str) -> Markup:
    """The shared part of a player's page with their own row of the leaderboard marked
    (``aria-current`` and a mark beside the name: not by colour alone). One string
    replacement: the shared part stays rendered once for every phone."""
    if not player:
        return Markup(shared)
    marks = {
        Markup('<tr data-player="%s">') % player: Markup(
            '<tr data-player="%s" class="yours" aria-current="true">'
        )
        % player,
        Markup('<th scope="row"><bdi>%s</bdi>') % player: Markup(
            '<th scope="row"><bdi>%s</bdi> <span class="you">(%s)</span>'
        )
        % (player, _("you")),
    }
    for plain, marked in marks.items():
        shared = shared.replace(plain, marked, 1)
    return Markup(shared)


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
    """The room's screen: the round's tables while it is played, where to sit once a round
    is seated, the leaderboard between rounds; in pages that turn when it does not fit."""
    return _watching("night_screen.html", "_night_screen.html", "nights.screen")
