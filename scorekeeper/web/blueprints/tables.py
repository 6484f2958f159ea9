"""A table's page: its games, roster, statistics and backup; a new game; moving games in."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlencode

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response as WerkzeugResponse

from ... import actions, store
from ...backup import table_archive
from ...i18n import _, ngettext
from ...live.turns import let_others_run
from ...reports import current_game, night_view, statistics, table_figures
from ...rules.game import Game
from ...store import nights, seasons, tables
from .. import charts, device, zones
from ..access import RENEWED_MEANWHILE, db, public_url, qr_svg
from ..device import GameSummary, readable, summarise
from ..forms import number_in
from ..security import count_imported_games, creating, reading

bp = Blueprint("tables", __name__)
GAMES_A_PAGE = 50  # the table page shows this many games, the latest played first
MOST_PAGES = 999_999  # a page number past this is no page of any table: page 1
MAX_BACKUP = 5 * 1024 * 1024


def _clean(text: str) -> str:
    return " ".join(text.split())


# --- creating and showing a table ---------------------------------------------------


@bp.route("/tables/new", methods=["GET", "POST"])
@creating
def new_table():
    if reading():
        return render_template("new_table.html", name="", error=None)
    name = _clean(request.form.get("name", ""))
    if not name:
        error = _("Give the table a name, such as your family's")
        return render_template("new_table.html", name=name, error=error), 422
    # the name rule (rules/names.py) has its say; its clock is this phone's (else the server's)
    table = actions.tables.create_table(db(), name, zones.new_zone())
    if isinstance(table, actions.results.Refused):
        return render_template("new_table.html", name=name, error=table.message), 422
    device.remember_table(table.id)
    return redirect(url_for("tables.table_page", table_id=table.id), 303)


@bp.get("/t/<table_id>")
def table_page():
    return _render_table()


def _render_table(status: int = 200, error: str | None = None):
    table = g.table
    device.remember_table(table.id)
    zones.on_record_clock()  # its games listed on the days they were played at the table
    page = _page_number()
    shown, total = tables.games_page(db(), table.id, page, GAMES_A_PAGE)
    summaries = _read_summaries(shown)
    playing = [s for s in summaries if not s.standings.over]
    finished = [s for s in summaries if s.standings.over]
    undo_moves = store.history.moved_last(db(), shown)  # "Undo the move" (blueprints/moving.py)
    link = public_url("tables.table_page")
    screen = public_url("watch.table_screen", screen=table.screen)
    movable = [  # only a game in no table moves in by its own link (actions.moving.move_game)
        s
        for s in device.device_games(db())
        if s.edit_key and tables.table_of_game(db(), s.stored.id) is None
    ]
    return render_template(
        "table_page.html",
        table=table,
        playing=playing,
        finished=finished,
        page=page,
        pages=max(1, -(-total // GAMES_A_PAGE)),
        roster=tables.roster(db(), table.id),
        link=link,
        qr=qr_svg(link),
        screen=screen,
        movable=movable,
        undo_moves=undo_moves,
        nights=nights.nights_of_table(db(), table.id),
        error=error,
        clock=zones.clock_line(table.time_zone),
    ), status


@dataclass(frozen=True)
class KeptStats:
    """A table's statistics at one version of it, in no language (names and numbers, the
    charts' geometry): worked out once, and each page of them rendered from it, in any
    language."""

    stats: statistics.TableStats
    wins: charts.WinsChart | None
    phases: tuple[charts.BarChart, ...]  # a chart per player, titled with the name
    scores: charts.BarChart | None
    opponents: dict[str, tuple[str, ...]]  # whom each player's head to head lists


@bp.get("/t/<table_id>/stats")
def table_stats():
    """A club's table has hundreds of players: their figures come PLAYERS_A_PAGE a page,
    each with the head to head of the OPPONENTS they played most; a family's is one page,
    every pair."""
    table = g.table
    zones.on_record_clock()
    kept = table_figures.kept(db(), table.id, "stats", lambda: _work_out_stats(table.id))
    also = ",".join(night.id for night in nights.nights_of_table(db(), table.id))
    figures = table_figures.kept(
        db(), table.id, "nights", lambda: _work_out_nights(table.id), also=also
    )
    players = list(kept.stats.players.values())
    pages = max(1, -(-len(players) // PLAYERS_A_PAGE))
    page = min(_page_number(), pages)
    first = (page - 1) * PLAYERS_A_PAGE
    shown = players[first : first + PLAYERS_A_PAGE]
    names = {p.name for p in shown}
    return render_template(
        "table_stats.html",
        table=table,
        stats=kept.stats,
        night_figures=figures,
        shown=shown,
        first=first,
        page=page,
        pages=pages,
        rivals=kept.stats.rivals_of([p.name for p in shown], kept.opponents),
        opponents=OPPONENTS,
        wins=kept.wins,
        phases=[(i, c) for i, c in enumerate(kept.phases, start=1) if c.title in names],
        scores=kept.scores,
        band=charts.BIN,
    )


PLAYERS_A_PAGE = 30  # players whose figures one page of a table's statistics shows
OPPONENTS = 8  # past one page of players, each one's head to head with those played most


def _work_out_stats(table_id: str) -> KeptStats:
    finished = table_figures.game_figures_of_table(db(), table_id)
    added = statistics.add_up(finished, tables.aliases(db(), table_id), pause=let_others_run)
    club = len(added.players) > PLAYERS_A_PAGE
    return KeptStats(
        added,
        charts.wins_chart(added),
        tuple(charts.phase_charts(added)),
        charts.final_scores_chart(added),
        added.opponents(OPPONENTS if club else None),
    )


def _games_of(game_ids: list[str]) -> Iterator[tuple[store.games.StoredGame, Game]]:
    """Each game that can still be read, one at a time, letting the process's other
    requests run before each (a club's table has 2,000)."""
    for game_id in game_ids:
        let_others_run()
        stored = readable(db(), game_id)
        if stored is None:
            continue
        try:
            yield stored, current_game.played(stored)
        except store.games.UnreadableGame:
            continue


def _work_out_nights(table_id: str) -> list[statistics.NightFigures]:
    """Each player's club nights, from each night's leaderboard (worked out from its games)."""
    boards = []
    for night in nights.nights_of_table(db(), table_id):
        boards.append((night.scheme, night_view.night_now(db(), night).board))
    return statistics.night_figures(boards, tables.aliases(db(), table_id))


def _read_summaries(game_ids: list[str]) -> list[GameSummary]:
    found = (readable(db(), game_id) for game_id in game_ids)
    summaries = (summarise(db(), stored) for stored in found if stored is not None)
    return [summary for summary in summaries if summary is not None]


def _page_number() -> int:
    """``?page=N`` of the table page, read as every number a request sends is (plain
    digits: ``²`` and ``٣`` are no page); anything else is page 1."""
    return number_in(request.args.get("page"), 1, MOST_PAGES) or 1


# --- backup: export and import a whole table ------------------------------------------


@bp.get("/t/<table_id>/export.zip")
def table_export():
    table = g.table
    night_versions = [nights.version(db(), n.id) for n in nights.nights_of_table(db(), table.id)]
    night_versions += [
        seasons.version(db(), s.id) for s in seasons.seasons_of_table(db(), table.id)
    ]
    # what else it holds, and the clock its hands.csv gives dates on (the table's)
    its_clock = str(zones.record_zone())
    roster = repr([table.name, tables.roster(db(), table.id), night_versions, its_clock])
    backup = table_figures.kept(db(), table.id, "backup", _work_out_backup, also=roster)
    return Response(
        backup,
        mimetype="application/zip",
        headers={
            "Content-Disposition": 'attachment; filename="phase10-table.zip"',
            "Cache-Control": "no-store",
        },
    )


def _work_out_backup() -> bytes:
    table = g.table
    found = list(_games_of(tables.game_ids(db(), table.id)))
    games = [table_archive.ArchivedGame(game, s.created, s.updated) for s, game in found]
    index = {stored.id: i for i, (stored, _game) in enumerate(found)}
    its_nights = nights.nights_of_table(db(), table.id)
    night_index = {night.id: i for i, night in enumerate(its_nights)}
    archive = table_archive.TableArchive(
        table.name,
        [(p.name, p.retired) for p in tables.roster(db(), table.id)],
        tables.aliases(db(), table.id),
        games,
        [table_archive.archived_night(db(), night, index) for night in its_nights],
        [
            table_archive.archived_season(db(), season, night_index)
            for season in seasons.seasons_of_table(db(), table.id)
        ],
        table.time_zone,
    )
    return table_archive.build(archive, zones.record_zone())


def init_app(app: Flask) -> None:
    """A backup may be larger than an ordinary form; set before the form is first read."""

    @app.before_request
    def allow_large_backup():
        if request.endpoint == "tables.import_table":
            request.max_content_length = MAX_BACKUP
            request.max_form_memory_size = MAX_BACKUP  # werkzeug may count a file part


@bp.route("/tables/import", methods=["GET", "POST"])
@creating
def import_table():
    if reading():
        return render_template("import_table.html", error=None)
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        error = _("Choose the backup file first.")
        return render_template("import_table.html", error=error), 422
    try:
        backup = table_archive.opened(upload.read())
        # counted before a game is replayed: a backup refused for its last game costs too
        if refused := _too_many_games(backup.count):
            return refused
        archive = backup.archive()
    except table_archive.ArchiveError as error:
        return render_template("import_table.html", error=str(error)), 422
    table = actions.table_import.import_table(db(), archive, zones.new_zone())
    if isinstance(table, actions.results.NoRoom):
        return render_template("import_table.html", error=table.message), 422
    if isinstance(table, actions.results.Refused):
        message = _(
            "A game in this backup cannot be imported: %(reason)s. Nothing was imported.",
            reason=table.message,
        )
        return render_template("import_table.html", error=message), 422
    device.remember_table(table.id)
    flash(
        ngettext(
            "Imported %(num)s game. This is the table's new link.",
            "Imported %(num)s games. This is the table's new link.",
            len(archive.games),
        )
    )
    return redirect(url_for("tables.table_page", table_id=table.id), 303)


def _too_many_games(count: int) -> tuple[str, int, dict[str, str]] | None:
    """The page refusing a backup whose games, each counted, pass this address's allowance."""
    wait = count_imported_games(count)
    if wait is None:
        return None
    error = ngettext(
        "This backup has %(num)s game, more than this address may import for now. Try "
        "again later. Nothing was imported.",
        "This backup has %(num)s games, more than this address may import for now. Try "
        "again later. Nothing was imported.",
        count,
    )
    page = render_template("import_table.html", error=error)
    return page, 429, {"Retry-After": str(wait)}


# --- the roster -----------------------------------------------------------------------


@bp.post("/t/<table_id>/roster")
def table_roster():
    """One form per roster change: rename, merge or retire (and bring back)."""
    table, form = g.table, request.form
    action, name = form.get("action", ""), form.get("name", "")
    if action == "rename":
        new = _clean(form.get("new", ""))
        warnings = actions.tables.rename_player(db(), table.id, name, new)
        if isinstance(warnings, actions.results.Refused):
            return _render_table(422, warnings.message)
        flash(_("%(old)s is now %(new)s", old=name, new=new))
        for warning in warnings:
            flash(_("Note: %(warning)s.", warning=warning))
    elif action == "merge":
        into = form.get("into", "")
        if refused := actions.tables.merge_players(db(), table.id, name, into):
            return _render_table(422, refused.message)
        flash(_("%(extra)s and %(into)s are now one player: %(into)s", extra=name, into=into))
    elif action in ("retire", "return"):
        if refused := actions.tables.retire_player(db(), table.id, name, action == "retire"):
            return _render_table(422, refused.message)
        if action == "retire":
            flash(_("%(player)s is retired", player=name))
        else:
            flash(_("%(player)s is back", player=name))
    else:
        abort(400, _("This form does not say what to change. Reload the page and try again."))
    return redirect(url_for("tables.table_page"), 303)


# --- games into the table -------------------------------------------------------------


@bp.get("/t/<table_id>/new")
def table_new_game():
    """The new-game form with the ticked players filled in, in seating order."""
    ticked = [n for n in request.args.getlist("player") if n][:6]
    query = {"table": g.table.id, **{f"player-{i}": n for i, n in enumerate(ticked)}}
    return redirect(f"{url_for('games.new_game')}?{urlencode(query)}", 303)


GAME_LINK = re.compile(r"/g/([A-Za-z0-9_-]{10,40})/([A-Za-z0-9_-]{10,40})")


@bp.post("/t/<table_id>/games")
def table_add_game():
    """Move a game into the table; it takes the scorekeeper link (the edit link)."""
    text = request.form.get("link", "").strip()
    game_id = request.form.get("game", "")
    key = dict(device.games()).get(game_id) or ""  # a game this device keeps score of
    if text:
        match = GAME_LINK.search(text)
        game_id, key = match.groups() if match else ("", "")
    stored = store.games.get_game(db(), game_id) if game_id else None
    keeps = stored and store.games.edit_key_matches(stored, key)
    summary = summarise(db(), stored) if keeps else None
    if summary is None:
        message = _(
            "That is not a scorekeeper link of a game here. Copy it from the game's Share page."
        )
        return _render_table(422, message)
    moved = actions.moving.move_game(db(), summary.stored.id, g.table.id, None)
    if not isinstance(moved, actions.results.Saved):
        return _render_table(422, moved.message)
    flash(_("The game is now in this table"))
    return redirect(url_for("tables.table_page"), 303)


@bp.route("/t/<table_id>/clock", methods=["GET", "POST"])
def table_clock():
    """The table's time zone: every record of its games is dated on it."""
    table = g.table
    if reading():
        return zones.clock_page(table.time_zone, url_for("tables.table_page"))
    chosen = request.form.get("zone", "").strip()
    refused = actions.tables.set_time_zone(db(), table.id, chosen)
    if refused is not None:
        return zones.clock_page(table.time_zone, url_for("tables.table_page"), refused.message)
    flash(_("This table's time zone is now %(zone)s.", zone=zones.zone_label(chosen)))
    return redirect(url_for("tables.table_page"), 303)


@bp.post("/t/<table_id>/renew")
def renew() -> WerkzeugResponse:
    """A new link for the table; the old one stops working."""
    old = g.table.id
    new = actions.links.renew_table_link(db(), old)
    if new is None:
        abort(404, _(RENEWED_MEANWHILE))
    device.remember_table(new, instead_of=old)
    flash(
        _(
            "This table has a new link, below. The old one no longer opens it: open the new "
            "one on each phone that should remember the table. Its screen has a new link "
            "too; the games' own links are unchanged."
        )
    )
    return redirect(url_for("tables.table_page", table_id=new), 303)
