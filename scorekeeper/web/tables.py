"""A table's page: its games, roster, statistics and backup; a new game; moving games in."""

from __future__ import annotations

import re
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

from .. import actions, stats, store, table_archive, tables
from ..i18n import _, ngettext
from ..rules.names import MAX_NAME, NameRefused
from ..stats import PlayedGame
from . import charts, device
from .access import RENEWED_MEANWHILE, db, public_url, qr_svg
from .device import GameSummary, readable, summarise
from .security import creating, reading

bp = Blueprint("tables", __name__)
SHOWN_FINISHED = 20  # the latest finished games; the rest behind a link
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
    try:
        table = tables.create_table(db(), name)  # the name rule (rules/names.py) has its say
    except NameRefused as refused:
        return render_template("new_table.html", name=name, error=str(refused)), 422
    device.remember_table(table.id)
    return redirect(url_for("tables.table_page", table_id=table.id), 303)


@bp.get("/t/<table_id>")
def table_page():
    return _render_table()


def _render_table(status: int = 200, error: str | None = None):
    table = g.table
    device.remember_table(table.id)
    summaries = _summaries(table.id)
    playing = [s for s in summaries if not s.standings.over]
    finished = [s for s in summaries if s.standings.over]
    playing.sort(key=lambda s: s.stored.updated, reverse=True)
    finished.sort(key=lambda s: s.played_until, reverse=True)  # the last played first
    show_all = request.args.get("all") == "1"
    link = public_url("tables.table_page")
    screen = public_url("watch.table_screen", view_id=table.view_id)
    in_table = {s.stored.id for s in summaries}
    movable = [s for s in device.device_games(db()) if s.edit_key and s.stored.id not in in_table]
    return render_template(
        "table_page.html",
        table=table,
        playing=playing,
        finished=finished if show_all else finished[:SHOWN_FINISHED],
        more_finished=0 if show_all else max(0, len(finished) - SHOWN_FINISHED),
        roster=tables.roster(db(), table.id),
        link=link,
        qr=qr_svg(link),
        screen=screen,
        movable=movable,
        error=error,
    ), status


@bp.get("/t/<table_id>/stats")
def table_stats():
    table = g.table
    played = [
        PlayedGame(summary.game, summary.stored.created, minutes=summary.minutes)
        for summary in _summaries(table.id)
        if summary.standings.over
    ]
    played.sort(key=lambda entry: entry.date)
    found = stats.table_stats(played, tables.aliases(db(), table.id))
    return render_template(
        "table_stats.html",
        table=table,
        stats=found,
        wins=charts.wins_chart(found),
        phases=charts.phase_charts(found),
        scores=charts.final_scores_chart(found),
    )


def _summaries(table_id: str) -> list[GameSummary]:
    found = (readable(db(), game_id) for game_id in tables.game_ids(db(), table_id))
    summaries = (summarise(db(), stored) for stored in found if stored is not None)
    return [summary for summary in summaries if summary is not None]


# --- backup: export and import a whole table ------------------------------------------


@bp.get("/t/<table_id>/export.zip")
def table_export():
    table = g.table
    games = [
        table_archive.ArchivedGame(s.game, s.stored.created, s.stored.updated)
        for s in _summaries(table.id)
    ]
    archive = table_archive.TableArchive(
        table.name,
        [(p.name, p.retired) for p in tables.roster(db(), table.id)],
        tables.aliases(db(), table.id),
        games,
    )
    return Response(
        table_archive.build(archive),
        mimetype="application/zip",
        headers={
            "Content-Disposition": 'attachment; filename="phase10-table.zip"',
            "Cache-Control": "no-store",
        },
    )


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
        archive = table_archive.read(upload.read())
    except table_archive.ArchiveError as error:
        return render_template("import_table.html", error=str(error)), 422
    table = actions.import_table(db(), archive)
    if isinstance(table, actions.Refused):
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


# --- the roster -----------------------------------------------------------------------


@bp.post("/t/<table_id>/roster")
def table_roster():
    """One form per roster change: rename, merge or retire (and bring back)."""
    table, form = g.table, request.form
    action, name = form.get("action", ""), form.get("name", "")
    try:
        if action == "rename":
            new = _clean(form.get("new", ""))
            if not new:
                raise tables.RosterError(
                    _("Type the new name (up to %(count)s characters)", count=MAX_NAME)
                )
            warnings = tables.rename(db(), table.id, name, new)
            flash(_("%(old)s is now %(new)s", old=name, new=new))
            for warning in warnings:
                flash(_("Note: %(warning)s.", warning=warning))
        elif action == "merge":
            into = form.get("into", "")
            tables.merge(db(), table.id, name, into)
            flash(_("%(extra)s and %(into)s are now one player: %(into)s", extra=name, into=into))
        elif action in ("retire", "return"):
            tables.set_retired(db(), table.id, name, action == "retire")
            if action == "retire":
                flash(_("%(player)s is retired", player=name))
            else:
                flash(_("%(player)s is back", player=name))
        else:
            abort(400, _("This form does not say what to change. Reload the page and try again."))
    except tables.RosterError as error:
        return _render_table(422, str(error))
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
    stored = store.get_game(db(), game_id) if game_id else None
    summary = summarise(db(), stored) if stored and store.edit_key_matches(stored, key) else None
    if summary is None:
        message = _(
            "That is not a scorekeeper link of a game here. Copy it from the game's Share page."
        )
        return _render_table(422, message)
    tables.file_game(db(), g.table.id, summary.stored.id, list(summary.game.players))
    flash(_("The game is now in this table"))
    return redirect(url_for("tables.table_page"), 303)


@bp.post("/t/<table_id>/renew")
def renew() -> WerkzeugResponse:
    """A new link for the table; the old one stops working."""
    old = g.table.id
    new = tables.renew_link(db(), old)
    if new is None:
        abort(404, _(RENEWED_MEANWHILE))
    device.remember_table(new, instead_of=old)
    flash(
        _(
            "This table has a new link, below. The old one no longer opens it: open the new "
            "one on each phone that should remember the table. The games' own links are "
            "unchanged."
        )
    )
    return redirect(url_for("tables.table_page", table_id=new), 303)
