"""A table's page: its games, its roster, a new game or a rematch, moving games in."""

from __future__ import annotations

import re
import secrets
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

from .. import actions, notes, store, table_archive, tables
from ..i18n import N_, _, ngettext
from ..rules.game import MAX_NAME, game_to_json, load_game
from ..rules.phases import Progression
from ..stats import PlayedGame
from ..stats import table_stats as table_stats_of
from . import device, stats_charts
from .csrf import reading
from .games import db, game_or_404
from .links import public_url
from .listing import GameSummary, device_games, summarise
from .qr import qr_svg

bp = Blueprint("tables", __name__)
NOT_FOUND = N_("There is no table at this link. It may have been mistyped.")
SHOWN_FINISHED = 20  # the latest finished games; the rest behind a link


def table_or_404(table_id: str) -> tables.Table:
    table = tables.get_table(db(), table_id)
    if table is None:
        abort(404, _(NOT_FOUND))
    return table


@bp.url_value_preprocessor
def take_table_id(endpoint, values):
    if values and "table_id" in values:
        g.table_id = values.pop("table_id")


@bp.before_request
def load_table():
    """After the CSRF check, so a forged form is refused the same way for every table."""
    if "table_id" in g:
        g.table = table_or_404(g.table_id)


@bp.url_defaults
def add_table_id(endpoint, values):
    table = g.get("table")
    if table is not None and endpoint.startswith("tables.table") and "table_id" not in values:
        values["table_id"] = table.id


def _clean(text: str) -> str:
    return " ".join(text.split())


# --- creating and showing a table ---------------------------------------------------


@bp.route("/tables/new", methods=["GET", "POST"])
def new_table():
    if reading():
        return render_template("new_table.html", name="", error=None)
    name = _clean(request.form.get("name", ""))
    error = None
    if not name:
        error = _("Give the table a name, such as your family's")
    elif len(name) > tables.MAX_TABLE_NAME:
        error = _("Keep the name to %(count)s characters", count=tables.MAX_TABLE_NAME)
    if error:
        return render_template("new_table.html", name=name, error=error), 422
    table = tables.create_table(db(), name)
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
    finished.sort(key=lambda s: s.stored.updated, reverse=True)
    show_all = request.args.get("all") == "1"
    link = public_url("tables.table_page")
    in_table = {s.stored.id for s in summaries}
    movable = [s for s in device_games(db()) if s.edit_key and s.stored.id not in in_table]
    return render_template(
        "table_page.html",
        table=table,
        playing=playing,
        finished=finished if show_all else finished[:SHOWN_FINISHED],
        more_finished=0 if show_all else max(0, len(finished) - SHOWN_FINISHED),
        roster=tables.roster(db(), table.id),
        link=link,
        qr=qr_svg(link),
        movable=movable,
        error=error,
    ), status


@bp.get("/t/<table_id>/stats")
def table_stats():
    table = g.table
    played = [
        PlayedGame(summary.game, summary.stored.updated, summary.steps)
        for summary in _summaries(table.id)
        if summary.standings.over
    ]
    played.sort(key=lambda entry: entry.date)
    stats = table_stats_of(played, tables.aliases(db(), table.id))
    return render_template(
        "table_stats.html",
        table=table,
        stats=stats,
        wins=stats_charts.wins_chart(stats),
        phases=stats_charts.phase_charts(stats),
        scores=stats_charts.score_chart(stats),
    )


def _summaries(table_id: str) -> list[GameSummary]:
    found = (store.get_game(db(), game_id) for game_id in tables.game_ids(db(), table_id))
    summaries = (summarise(stored) for stored in found if stored is not None)
    return [summary for summary in summaries if summary is not None]


# --- backup: export and import a whole table ------------------------------------------

MAX_BACKUP = 5 * 1024 * 1024


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
        headers={"Content-Disposition": 'attachment; filename="phase10-table.zip"'},
    )


def init_app(app: Flask) -> None:
    """A backup may be larger than an ordinary form; set before the form is first read."""

    @app.before_request
    def allow_large_backup():
        if request.endpoint == "tables.import_table":
            request.max_content_length = MAX_BACKUP
            request.max_form_memory_size = MAX_BACKUP  # werkzeug may count a file part


@bp.route("/tables/import", methods=["GET", "POST"])
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
    table = tables.create_table(db(), archive.name)
    for entry in archive.games:
        result = actions.create(
            db(),
            game_to_json(entry.game),
            action="import",
            note=notes.note("table-import", table=archive.name),
        )
        if isinstance(result, actions.Refused):  # read() checked every game already
            abort(
                422,
                _("A game in this backup cannot be imported: %(reason)s", reason=result.message),
            )
        stored = result.current.stored
        tables.add_game(db(), table.id, stored.id, list(entry.game.players))
        tables.restore_dates(db(), stored.id, entry.created, entry.updated)
    tables.restore_roster(db(), table.id, archive.players, archive.aliases)
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
            if not new or len(new) > MAX_NAME:
                raise tables.RosterError(
                    _("Type the new name (up to %(count)s characters)", count=MAX_NAME)
                )
            tables.rename(db(), table.id, name, new)
            flash(_("%(old)s is now %(new)s", old=name, new=new))
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
    if stored is None or not store.edit_key_matches(stored, key):
        message = _(
            "That is not a scorekeeper link of a game here. Copy it from the game's Share page."
        )
        return _render_table(422, message)
    tables.add_game(db(), g.table.id, stored.id, list(load_game(stored.state).players))
    flash(_("The game is now in this table"))
    return redirect(url_for("tables.table_page"), 303)


def _edit_game(game_id: str, key: str) -> store.StoredGame:
    stored = game_or_404(game_id).stored
    if not store.edit_key_matches(stored, key):
        abort(404, _(actions.NO_GAME))
    return stored


@bp.post("/g/<game_id>/<key>/rematch")
def rematch(game_id: str, key: str):
    """Same players, rules and table; the player after the last game's first dealer deals."""
    stored = _edit_game(game_id, key)
    game = load_game(stored.state)
    players = list(game.players)
    state = game_to_json(game)
    state["hands"] = []
    state["dealer"] = players[(players.index(game.dealer) + 1) % len(players)]
    if game.rules.progression is Progression.MIXED_UP:
        shuffle = secrets.SystemRandom().sample
        sequence = list(game.rules.sequence)
        state["orders"] = {name: shuffle(sequence, len(sequence)) for name in players}
    result = actions.create(db(), state, note=notes.note("rematch"))
    if isinstance(result, actions.Refused):
        abort(422, _("The rematch could not be started: %(reason)s", reason=result.message))
    new = result.current.stored
    table_id = tables.table_of_game(db(), stored.id)
    if table_id:
        tables.add_game(db(), table_id, new.id, players)
    return redirect(url_for("games.game_page", game_id=new.id, key=new.edit_key), 303)
