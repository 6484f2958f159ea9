"""Games: create, score hands, correct them, undo, history, export and import."""

from __future__ import annotations

import csv
import io
import itertools
import json
import secrets
from dataclasses import replace

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)

from .. import store
from ..rules.game import (
    MAX_NAME,
    MAX_PLAYERS,
    Game,
    GameError,
    HandRecord,
    Standings,
    game_to_json,
    load_game,
    replay,
)
from ..rules.game import hand_problems as engine_hand_problems
from ..rules.phases import OPTIONS, PROFILES, Progression, RulesError, make_rules
from .chart import score_chart
from .hand_form import CARD_FIELDS, HandForm, form_values, parse_hand
from .qr import qr_svg

bp = Blueprint("games", __name__)


def db():
    return store.connect(current_app.config["DATABASE"])


# --- loading ------------------------------------------------------------------


def game_or_404(game_id: str) -> store.StoredGame:
    stored = store.get_game(db(), game_id)
    if stored is None:
        abort(404, "There is no game at this link. It may have been mistyped.")
    return stored


@bp.url_value_preprocessor
def load_edit_game(endpoint, values):
    """Every /g/<game_id>/<key>/... route needs the game's edit key."""
    if values and "key" in values and "game_id" in values:
        stored = game_or_404(values.pop("game_id"))
        if not store.edit_key_matches(stored, values.pop("key")):
            abort(404, "There is no game at this link. It may have been mistyped.")
        g.stored = stored
        g.game = load_game(stored.state)


@bp.url_defaults
def add_edit_key(endpoint, values):
    stored = g.get("stored")
    if stored is not None and "game_id" not in values and endpoint.startswith("games.game"):
        values.setdefault("game_id", stored.id)
        values.setdefault("key", stored.edit_key)


def view_context(stored: store.StoredGame, game: Game) -> dict:
    """What every scoreboard page shows: the standings replayed from the hands."""
    return {
        "stored": stored,
        "game": game,
        "standings": replay(game),
        "chart": score_chart(game) if len(game.hands) >= 2 else None,
        "phase_text": lambda n: str(game.rules.phase(n)),
    }


# --- home, new game, import ------------------------------------------------------


@bp.get("/")
def home():
    return render_template("home.html")


# Words for the house-rule choices (the option values themselves are for files and the CLI).
CHOICE_LABELS = {
    "phases:official": "The official ten",
    "phases:plus10": "Phase 10 + 10 (twenty phases)",
    "phases:custom": "My own list (below)",
    "progression:standard": "Make your phase to move on",
    "progression:ten-hands": "Ten hands: everyone moves on each hand",
    "progression:masters": "Masters: pick any phase not yet made",
    "progression:mixed-up": "Mixed-up: a shuffled order each",
    "phase10:official": "Set of 5 + set of 3",
    "phase10:set4+set3": "Set of 4 + set of 3 (older boxes)",
    "wild_points:25": "25 points",
    "wild_points:20": "20 points",
    "natural:group": "In every group",
    "natural:phase": "Once per phase",
    "going_out:hit": "Hitting your last card goes out",
    "going_out:discard": "You must discard last (floaters)",
    "skip_out:allowed": "Allowed",
    "skip_out:draw": "Not allowed: draw another card",
    "winner:last-phase": "Whoever completes the last phase",
    "winner:lowest": "Lowest total once someone finishes",
    "tiebreak:last-phase": "Replay the last phase",
    "tiebreak:own-phase": "Each replays their own last phase",
    "totals:strict": "Refuse impossible totals",
    "totals:warn": "Only warn about them",
    "even:no": "No",
    "even:yes": "Yes",
    "super_wild:no": "No",
    "super_wild:yes": "Yes",
}


def _new_game_form(values: dict[str, str], errors: dict[str, str]) -> str:
    """The form; every house rule starts blank, meaning "as the chosen rules say"."""
    return render_template(
        "new_game.html",
        values=values,
        errors=errors,
        options=OPTIONS,
        profiles=PROFILES,
        names=store.known_names(db()),
        choice_labels=CHOICE_LABELS,
    )


@bp.route("/new", methods=["GET", "POST"])
def new_game():
    if request.method == "GET":
        return _new_game_form({"profile": "official", "dealer": "0"}, {})
    values = {k: v for k, v in request.form.items() if len(k) < 40}
    errors: dict[str, str] = {}
    names = [" ".join(request.form.get(f"player-{i}", "").split()) for i in range(MAX_PLAYERS)]
    seated = [(i, name) for i, name in enumerate(names) if name]
    for i, name in seated:
        if len(name) > MAX_NAME:
            errors[f"player-{i}"] = f"Keep names to {MAX_NAME} characters"
        elif [n.casefold() for _, n in seated].count(name.casefold()) > 1:
            errors[f"player-{i}"] = f"Two players are called {name}: add an initial"
    if len(seated) < 2:
        errors["player-0"] = "Phase 10 needs at least 2 players: enter their names"
    extra = [
        k
        for k, v in request.form.items()
        if k.startswith("player-")
        and v.strip()
        and k not in {f"player-{i}" for i in range(MAX_PLAYERS)}
    ]
    if extra:
        errors["player-0"] = (
            f"Phase 10 is for 2 to {MAX_PLAYERS} players, not {len(seated) + len(extra)}"
        )
    dealer_seat = request.form.get("dealer", "0")
    dealer = dict(seated).get(int(dealer_seat)) if dealer_seat.isdigit() else None
    if dealer is None and seated:
        errors["dealer"] = "Pick the first dealer among the named players"
    profile = request.form.get("profile", "official")
    options = {key: request.form[f"opt-{key}"] for key in OPTIONS if f"opt-{key}" in request.form}
    try:
        rules = make_rules(profile, _changed(profile, options))
    except RulesError as error:
        errors["rules"] = str(error)
        rules = None
    players = [name for _, name in seated]
    if rules and rules.progression is Progression.MIXED_UP and not 2 <= len(players) <= 4:
        errors["rules"] = "Mixed-up Masters is for 2 to 4 players"
    if errors:
        return _new_game_form(values, errors), 422
    state = {
        "rules": profile,
        "options": rules.changed_options(),
        "players": players,
        "dealer": dealer,
        "hands": [],
    }
    if rules.progression is Progression.MIXED_UP:
        shuffle = secrets.SystemRandom().sample
        state["orders"] = {
            name: shuffle(list(rules.sequence), len(rules.sequence)) for name in players
        }
    load_game(state)  # the engine has the last word on what a game is
    stored = store.create_game(db(), state)
    return redirect(url_for("games.game_page", game_id=stored.id, key=stored.edit_key), 303)


def _changed(profile: str, options: dict[str, str]) -> dict[str, str]:
    """The house rules actually set: blank means "as the chosen rules say"."""
    base = make_rules(profile).options if profile in PROFILES else {}
    return {
        key: value.strip()
        for key, value in options.items()
        if value.strip() and value.strip().lower() != str(base.get(key, "")).lower()
    }


@bp.route("/import", methods=["GET", "POST"])
def import_game():
    if request.method == "GET":
        return render_template("import.html", text="", error=None)
    upload = request.files.get("file")
    text = upload.read().decode("utf-8", "replace") if upload and upload.filename else ""
    text = text or request.form.get("text", "")
    try:
        data = json.loads(text)
        game = load_game(data)
        replay(game)
    except json.JSONDecodeError as error:
        message = f"This is not JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        return render_template("import.html", text=text, error=message), 422
    except (GameError, RulesError) as error:
        return render_template("import.html", text=text, error=str(error)), 422
    stored = store.create_game(
        db(),
        game_to_json(game),
        action="import",
        summary=f"Game imported with {len(game.hands)} hands",
    )
    return redirect(url_for("games.game_page", game_id=stored.id, key=stored.edit_key), 303)


# --- the game page and recording hands -----------------------------------------


def render_game(form: HandForm | None = None, status: int = 200, message: str | None = None):
    context = view_context(g.stored, g.game)
    return render_template(
        "game.html", form=form or HandForm({}), message=message, card_fields=CARD_FIELDS, **context
    ), status


@bp.get("/g/<game_id>/<key>")
def game_page():
    return render_game()


# the engine's Problem.field -> this form's field prefix
FORM_FIELDS = {
    "points": "points",
    "made": "made",
    "attempts": "attempt",
    "floaters": "floater",
    "cards": "low",
}


def _problems_into(form: HandForm, game: Game, hand: HandRecord, before: Game) -> bool:
    """Add the engine's verdict to the form; True when nothing blocks saving."""
    seat = {name: i for i, name in enumerate(game.players)}
    ok = True
    for problem in engine_hand_problems(before, hand):
        if problem.warning:
            form.notes.append(f"Warning: {problem}")
            continue
        ok = False
        if problem.field == "went_out":
            key = "went_out"
        elif problem.field in FORM_FIELDS and problem.player in seat:
            key = f"{FORM_FIELDS[problem.field]}-{seat[problem.player]}"
        else:
            form.general.append(str(problem))
            continue
        text = str(problem)
        form.errors[key] = f"{form.errors[key]}; {text}" if key in form.errors else text
    return ok


@bp.post("/g/<game_id>/<key>/hands")
def game_record_hand():
    game, stored = g.game, g.stored
    standings = replay(game)
    expected = request.form.get("hand_number", "")
    if expected.isdigit() and int(expected) < standings.hand_number:
        message = (
            f"Hand {expected} was already entered on another phone. "
            "Here is the game as it stands now."
        )
        return render_game(message=message, status=409)
    if standings.over:
        return render_game(message="The game is over: no more hands can be recorded.", status=409)
    form = parse_hand(request.form, game, standings)
    if form.hand is None or not _problems_into(form, game, form.hand, game):
        return render_game(form, 422)
    new_game = game.with_hand(form.hand)
    try:
        g.stored = store.save_change(
            db(),
            stored.id,
            stored.version,
            game_to_json(new_game),
            action="record",
            summary=_summary(new_game, form.hand),
        )
    except store.Conflict:
        g.stored = game_or_404(stored.id)
        g.game = load_game(g.stored.state)
        return render_game(
            message="Another phone changed this game a moment ago. Check the "
            "standings below and enter the hand again if it is missing.",
            status=409,
        )
    return redirect(url_for("games.game_page"), 303)


NEUTRAL_POINTS = 50  # ten cards of 1-9: always possible for a player who did not lay down


@bp.post("/g/<game_id>/<key>/hands/check")
def game_check_hand():
    """The live verdict while a hand is typed (htmx): nothing is saved.

    Players with nothing typed yet stand in with a neutral total, and only the
    problems of players already filled in are shown.
    """
    game = g.game
    form = parse_hand(request.form, game, replay(game), partial=True)
    hand = form.hand
    if hand is not None and hand.went_out is not None:
        untyped = [n for n in game.players if n not in hand.points and n != hand.went_out]
        if untyped:
            filled = {**hand.points, **dict.fromkeys(untyped, NEUTRAL_POINTS)}
            _problems_into(form, game, replace(hand, points=filled), game)
            typed = {str(i) for i, n in enumerate(game.players) if n not in untyped}
            form.errors = {k: m for k, m in form.errors.items() if k.rsplit("-", 1)[-1] in typed}
            form.general, form.hand = [], None
        else:
            _problems_into(form, game, hand, game)
    elif hand is not None:
        form.hand = None  # nobody has gone out yet: nothing to judge
    return render_template("_hand_check.html", form=form, game=game, live=True)


def _summary(game: Game, hand: HandRecord) -> str:
    number = len(game.hands)
    if hand.tiebreak:
        return f"Tiebreak hand: {hand.went_out} went out"
    return f"Hand {number}: {hand.went_out} went out; made: {', '.join(hand.made) or 'nobody'}"


# --- corrections ------------------------------------------------------------------


def _hand_index(number: int) -> int:
    if not 1 <= number <= len(g.game.hands):
        abort(404, f"There is no hand {number} in this game.")
    return number - 1


@bp.route("/g/<game_id>/<key>/hands/<int:number>", methods=["GET", "POST"])
def game_edit_hand(number: int):
    game = g.game
    index = _hand_index(number)
    before = replace(game, hands=game.hands[:index])
    standings = replay(before)
    if request.method == "GET":
        return _edit_form(HandForm(form_values(game, game.hands[index])), number, standings)
    form = parse_hand(request.form, game, standings)
    ok = form.hand is not None and _problems_into(form, game, form.hand, before)
    if ok:
        hands = list(game.hands)
        hands[index] = form.hand
        corrected = replace(game, hands=tuple(hands))
        try:
            replay(corrected)
        except GameError as error:
            form.general.append(f"With this change a later hand no longer fits: {error}")
            ok = False
    if not ok:
        return _edit_form(form, number, standings), 422
    _save(corrected, "edit", f"Hand {number} corrected")
    return redirect(url_for("games.game_page"), 303)


def _edit_form(form: HandForm, number: int, standings: Standings) -> str:
    game = g.game
    return render_template(
        "edit_hand.html",
        form=form,
        number=number,
        game=game,
        standings=standings,
        card_fields=CARD_FIELDS,
        phase_text=lambda n: str(game.rules.phase(n)),
    )


@bp.post("/g/<game_id>/<key>/hands/<int:number>/delete")
def game_delete_hand(number: int):
    game = g.game
    index = _hand_index(number)
    remaining = replace(game, hands=game.hands[:index] + game.hands[index + 1 :])
    try:
        replay(remaining)
    except GameError as error:
        return render_game(
            message=f"Hand {number} cannot be deleted: without it, {error}", status=409
        )
    _save(remaining, "delete", f"Hand {number} deleted")
    return redirect(url_for("games.game_page"), 303)


def _version_seen() -> int:
    """The game version the phone's page showed; saving against a stale one is a conflict."""
    text = request.form.get("version", "").strip()
    if not text:
        return g.stored.version
    if not text.isdigit():
        abort(
            400,
            "This form does not say which version of the game it changes. Reload the "
            "game and try again.",
        )
    return int(text)


def _save(game: Game, action: str, summary: str) -> None:
    try:
        store.save_change(
            db(),
            g.stored.id,
            _version_seen(),
            game_to_json(game),
            action=action,
            summary=summary,
        )
    except store.Conflict:
        abort(
            409,
            "Another phone changed this game a moment ago. Go back to the game, check "
            "it, and try again.",
        )


@bp.post("/g/<game_id>/<key>/undo")
def game_undo():
    step = _next_undo(store.changes(db(), g.stored.id))
    if step is None:
        return render_game(message="Nothing to undo yet.", status=409)
    change, before = step
    _restore(before.state, "undo", f"Undone: {change.summary}")
    flash(f"Undone: {change.summary}")
    return redirect(url_for("games.game_page"), 303)


def _next_undo(history: list[store.Change]) -> tuple[store.Change, store.Change] | None:
    """The newest change not undone yet, and the change before it (history newest first).

    Each undo cancels one earlier change, so tapping Undo again keeps stepping back.
    """
    pending = 0
    for newer, older in itertools.pairwise(history):
        if newer.action == "undo":
            pending += 1
        elif pending:
            pending -= 1
        else:
            return newer, older
    return None


def _restore(state: dict, action: str, summary: str) -> None:
    game = load_game(state)
    _save(game, action, summary)


@bp.get("/g/<game_id>/<key>/history")
def game_history():
    return render_template(
        "history.html", stored=g.stored, game=g.game, history=store.changes(db(), g.stored.id)
    )


@bp.post("/g/<game_id>/<key>/history/<int:version>/restore")
def game_restore(version: int):
    change = store.get_change(db(), g.stored.id, version)
    if change is None:
        abort(404, f"There is no change {version} in this game's history.")
    _restore(change.state, "restore", f"Restored the game as it was after change {version}")
    return redirect(url_for("games.game_page"), 303)


# --- export -------------------------------------------------------------------------


def _download(body: str, mimetype: str, filename: str) -> Response:
    return Response(
        body,
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def export_json(game: Game) -> Response:
    return _download(
        json.dumps(game_to_json(game), indent=2), "application/json", "phase10-game.json"
    )


def _csv_cell(value: object) -> str:
    """Spreadsheets run cells starting with = + - @ as formulas: make them text."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def export_csv(game: Game) -> Response:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["hand", *map(_csv_cell, game.players), "went out", "made phase"])
    for number, hand in enumerate(game.hands, start=1):
        scores = hand.scores(game.rules)
        label = "tiebreak" if hand.tiebreak else number
        writer.writerow(
            [
                label,
                *(scores.get(n, 0) for n in game.players),
                _csv_cell(hand.went_out or ""),
                _csv_cell(" ".join(hand.made)),
            ]
        )
    writer.writerow(["total", *(p.score for p in replay(game).players), "", ""])
    return _download(out.getvalue(), "text/csv", "phase10-game.csv")


@bp.get("/g/<game_id>/<key>/export.json")
def game_export_json():
    return export_json(g.game)


@bp.get("/g/<game_id>/<key>/export.csv")
def game_export_csv():
    return export_csv(g.game)


@bp.get("/g/<game_id>/<key>/share")
def game_share():
    stored = g.stored
    links = {
        "edit": url_for("games.game_page", _external=True),
        "view": url_for("share.view", game_id=stored.id, _external=True),
    }
    return render_template(
        "share.html",
        stored=stored,
        game=g.game,
        links=links,
        edit_qr=qr_svg(links["edit"]),
        view_qr=qr_svg(links["view"]),
    )
