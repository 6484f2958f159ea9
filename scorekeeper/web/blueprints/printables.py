"""Printables as downloads: the standard set, and sheets made for one game.

The standard set is the one in ``printables/``, except that what links to the
app (the two-deck guide's QR code and printed link) carries the address
``serve`` announced, which the committed files cannot know. Every PDF is for
anyone with a read-only link (or none), and one may take up to a second of a
worker's time: they share a rate limit per address (``RATE_LIMIT_PRINT``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from flask import Blueprint, Response, abort, current_app, g, render_template, request

from ... import clock, i18n, store
from ...i18n import N_, _
from ...printing import (
    PAGE_SIZES,
    STANDARD_SET,
    deck_guide,
    game_sheet,
    reference_cards,
    standard_set,
)
from ...printing.layout import LayoutError
from ...printing.night_seating import seating_cards
from ...printing.night_standings import standings_sheet
from ...printing.record import Played
from ...printing.season_standings import SeasonSheet
from ...printing.sheets import MAX_LARGE_PLAYERS
from ...reports import night_view, season_view
from ...store import nights, seasons, tables
from .. import zones
from ..access import db, game, public_url
from ..render_cache import Kept
from ..security import printing as print_limit
from ..zones import day, local_day

bp = Blueprint("printables", __name__)
STANDARD = dict(STANDARD_SET)
TITLES = {
    "score-sheet": N_("Score sheet"),
    "score-sheet-ten-hands": N_("Score sheet for ten-hands games"),
    "score-sheet-large": N_("Large-print score sheet (2 to 4 players)"),
    "phase-cards-official": N_("Phase cards: official rules"),
    "phase-cards-plus10": N_("Phase cards: Phase 10 + 10"),
    "phase-cards-even": N_("Phase cards: even phases"),
    "phase-cards-super-wild": N_("Phase cards: Super Wild"),
    "phase-cards-masters": N_("Phase cards: Masters"),
    "phase-cards-mixed-up": N_("Phase cards: Mixed-up Masters"),
    "two-deck-guide": N_("Playing with two regular decks"),
}


# PDFs kept by tag (what each depends on), the latest asked for last: a table prints a
# sheet again, and a game's two-deck guide takes half a second to build.
kept_pdfs: Kept[bytes] = Kept(32 * 2**20)


def _pdf(build: Callable[[], bytes], filename: str, tag: str) -> Response:
    """The PDF, or 304 when the phone has this very one (``tag``: what it depends on)."""
    headers = {
        "Content-Disposition": f'inline; filename="{filename}"',
        "Cache-Control": "no-cache",
        "ETag": tag,
        "Vary": "Accept-Language, Cookie",
    }
    if request.headers.get("If-None-Match") == tag:
        return Response(status=304, headers=headers)
    return Response(kept_pdfs.get(tag, build), mimetype="application/pdf", headers=headers)


def _tag(*parts: object) -> str:
    words = (i18n.language(), current_app.config["PSEUDO_LOCALE"])
    digest = hashlib.sha256(repr((*words, *parts)).encode()).hexdigest()[:16]
    return f'"{digest}"'


def _size() -> str:
    size = request.args.get("size", "letter")
    if size not in PAGE_SIZES:
        abort(400, _("Paper size must be one of %(sizes)s.", sizes=", ".join(PAGE_SIZES)))
    return size


@bp.get("/printables")
def index():
    titles = {name: _(title) for name, title in TITLES.items()}
    return render_template("printables.html", titles=titles, sizes=PAGE_SIZES)


@bp.get("/printables/<name>.pdf")
@print_limit
def standard(name: str):
    """A standard printable; one that links to the app links to it at its address."""
    filename = f"{name}.pdf"
    if filename not in STANDARD:
        abort(404, _("There is no printable with that name."))
    app_url = public_url("home.home")
    return _pdf(dict(standard_set(app_url))[filename], filename, _tag(filename, app_url))


@bp.get("/v/<game_id>/print/<kind>.pdf")
@print_limit
def for_game(kind: str):
    """A game's own score sheet (its record so far, QR to the view link and its short code
    to type), cards or guide.

    Built from the kept standings (nothing replayed); a phone that printed this very
    version already gets a 304.
    """
    current = game()
    stored, played = current.stored, current.game
    size = _size()
    view_url = public_url("watch.view", game_id=stored.id)
    facts = _played(stored)  # on the sheet, and in the tag: read once
    if kind in ("score-sheet", "score-sheet-large"):
        large = kind == "score-sheet-large"
        if large and len(played.players) > MAX_LARGE_PLAYERS:
            abort(
                400,
                _("Large print has room for %(count)s players at most.", count=MAX_LARGE_PLAYERS),
            )

        def build() -> bytes:
            return game_sheet(
                played,
                view_url=view_url,
                code=stored.code,
                pagesize=size,
                large=large,
                kept=current.kept,
                played=facts,
            )
    elif kind == "phase-cards":

        def build() -> bytes:
            return reference_cards(played.rules, pagesize=size, copies=len(played.players))
    elif kind == "two-deck-guide":

        def build() -> bytes:
            return deck_guide(played.rules, pagesize=size, view_url=view_url, code=stored.code)
    else:
        abort(404, _("There is no printable with that name."))
    filename = f"phase10-{kind}-{size}.pdf"
    return _pdf(build, filename, _tag(stored.id, g.link.version, kind, size, view_url, facts))


@bp.get("/e/<night_view>/print/seating-<int:number>.pdf")
@print_limit
def night_seating(number: int):
    """A round's seating cards, a card per table with its watch code and QR, then the room
    list; for anyone with the night's link, as a game's printables are."""
    night: nights.Night = g.night
    now = night_view.night_now(db(), night)
    if not 1 <= number <= len(now.rounds):
        abort(404, _("Round %(number)s has not been seated yet.", number=number))
    seated = now.rounds[number - 1]
    size = _size()
    codes: dict[int, str] = {}
    links: dict[int, str] = {}
    for table in seated.tables:
        current = now.games.get((number, table.number))
        if current is not None:
            links[table.number] = public_url("watch.view", game_id=current.stored.id)
            if current.stored.code:
                codes[table.number] = current.stored.code

    def build() -> bytes:
        return seating_cards(
            night.name, number, seated.tables, codes=codes, links=links, pagesize=size
        )

    tag = _tag("night-seating", night.id, nights.version(db(), night.id), number, size, links)
    return _pdf(build, f"phase10-night-round-{number}-{size}.pdf", tag)


@bp.get("/e/<night_view>/print/standings.pdf")
@print_limit
def night_standings():
    """The night's standings: final once the night is over, "during round N" while a round
    is played, else "after N rounds"."""
    night: nights.Night = g.night
    now = night_view.night_now(db(), night)
    played = [seated for seated in now.rounds if seated.started]
    if not played:
        abort(404, _("No round of this night has started yet."))
    size = _size()
    zones.on_record_clock()  # the night's table's clock, whoever prints it
    played_on = zones.day(night.when)
    playing = now.playing

    def build() -> bytes:
        return standings_sheet(
            night.name,
            played_on,
            now.board,
            night.scheme,
            rounds=now.finished_rounds,
            tables_per_round=[len(seated.tables) for seated in played],
            final=now.over,
            pagesize=size,
            playing=playing.number if playing else None,
        )

    version = nights.version(db(), night.id)
    tag = _tag("night-standings", night.id, version, size, played_on)
    return _pdf(build, f"phase10-night-standings-{size}.pdf", tag)


@bp.get("/s/<season_view>/print/standings.pdf")
@print_limit
def season_standings() -> Response:
    """The season's standings: final once its last day is over, else "after N nights"."""
    season: seasons.Season = g.season
    now = season_view.season_now(db(), season)
    size = _size()
    today = local_day(clock.moment(store.connection.now()))
    days = _("%(first)s – %(last)s", first=day(season.first_day), last=day(season.last_day))
    sheet = SeasonSheet(
        season.name,
        days,
        now.board,
        season.scheme,
        nights=len(now.nights),
        best=season.best,
        final=today > season.last_day,
        pagesize=size,
    )
    tag = _tag("season-standings", season.id, seasons.version(db(), season.id), sheet)
    return _pdf(sheet.build, f"phase10-season-standings-{size}.pdf", tag)


def _played(stored: store.games.StoredGame) -> Played:
    """When the game started (on its table's clock, or its own in no table, whoever prints
    it), its length, its table."""
    started = clock.moment(stored.created).astimezone(zones.record_zone())
    table_id = tables.table_of_game(db(), stored.id)
    table = tables.get_table(db(), table_id) if table_id else None
    return Played(
        started,
        clock.minutes(stored.created, store.history.played_until(db(), stored)),  # playing time
        table.name if table is not None else None,
    )


@bp.errorhandler(LayoutError)
def does_not_fit(error: LayoutError):
    message = _("Cannot print this: %(reason)s.", reason=error)  # the reason says what
    page = render_template("error.html", code=422, title=_("Cannot print"), message=message)
    return page, 422
