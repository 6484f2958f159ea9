"""The JSON API: games (create one, read it, record hands) and the checkers, at /api/.

Other programs (a bot, a spreadsheet, a second app at the table) use the same
game file as the export (docs/game-format.md). The edit key in the URL is the
only credential: these routes never read or set a cookie, which is why they can
be exempt from CSRF (a browser cannot make a cross-site request carry a secret
it does not know). Every check is the engine's, every write one versioned
transaction (scorekeeper.actions), so a hand re-sent after a lost answer, or the
same hand sent from three phones at once, is recorded exactly once. What each
route accepts and answers is described in docs/openapi.json, served as it is.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from flask import Blueprint, Response, g, jsonify, request
from werkzeug.datastructures import MultiDict

from ... import actions, store
from ...i18n import N_, _
from ...reports import bgstats, current_game
from ...rules.check import check_phase
from ...rules.game import Game, GameError, HandRecord
from ...rules.gamefile import read_hand
from ...rules.names import lookalike_warning, lookalikes
from ...store import change_notes
from .. import zones
from ..access import db, public_url
from ..assets import shipped
from ..checking import BadRequest, Tool, house_rules, make_tool, run_hit, run_solve
from ..forms import JsonError, request_json
from ..ratings import rate_answer
from ..security import checking, creating, csrf_exempt, rating

bp = Blueprint("api", __name__, url_prefix="/api")
NOT_FOUND = actions.results.NO_GAME  # say it with _(NOT_FOUND)


@cache
def description() -> dict[str, Any]:
    """The OpenAPI 3.1 description (docs/openapi.json)."""
    return json.loads((shipped("docs") / "openapi.json").read_text(encoding="utf-8"))


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(description())


class ApiError(Exception):
    """A refusal with a status and a message the caller can show as it is."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


@bp.errorhandler(ApiError)
def api_error(error: ApiError) -> tuple[Response, int]:
    return jsonify(error=error.message, **error.extra), error.status


def _body() -> dict[str, Any]:
    """The JSON object sent. Only a JSON content type is accepted: a cross-site HTML form
    cannot send one."""
    if not request.is_json:
        raise ApiError(415, _("Send the body as JSON with Content-Type: application/json."))
    try:
        body = request_json()
    except JsonError as error:
        raise ApiError(400, _("The body cannot be read: %(reason)s.", reason=error)) from None
    if not isinstance(body, dict):
        raise ApiError(400, _("The body must be one JSON object."))
    return body


def _links(stored: store.games.StoredGame) -> dict[str, str]:
    """The game's links, at the address phones open (access.public_url)."""
    game, key = stored.id, stored.edit_key
    return {
        "view_url": public_url("watch.view", game_id=game),
        "edit_url": public_url("games.game_page", game_id=game, key=key),
        "hands_url": public_url("api.record_hand", game_id=game, key=key),
    }


def _refused(result: actions.results.Refused) -> ApiError:
    """A 422 with the reason, its rule and that rule's anchor on /rules, and each problem."""
    return ApiError(
        422,
        result.message,
        rule=str(result.rule) if result.rule else None,
        anchor=result.rule.anchor if result.rule else None,
        problems=[p.to_json() for p in result.problems],
    )


# --- create and read -----------------------------------------------------------------


@bp.post("/games")
@csrf_exempt
@creating
def create_game():
    """A new game from its game file (hands may already be in it, as for an import)."""
    body = _body()
    hands = body.get("hands")
    count = len(hands) if isinstance(hands, list) else 0
    note = change_notes.note("api-create", hands=count)
    result = actions.games.start_game(
        db(), body, action="api-create", note=note, time_zone=zones.new_zone()
    )
    if isinstance(result, actions.results.Refused):
        raise _refused(result)
    stored, standings = result.current.stored, result.current.standings
    players = result.current.game.players
    warnings = [lookalike_warning(*pair) for pair in lookalikes(players)]
    answer = {
        "id": stored.id,
        "key": stored.edit_key,
        **_links(stored),
        "standings": standings.to_json(),
        "warnings": warnings,
    }
    response = jsonify(answer)
    response.status_code = 201
    response.headers["Location"] = answer["view_url"]
    return response


def _current() -> current_game.Current:
    """The game the URL names: the link was checked already (access.py)."""
    current = current_game.load(db(), g.link.game_id)
    if current is None:
        raise ApiError(404, _(NOT_FOUND))
    return current


@bp.get("/games/<game_id>")
def read_game():
    """Standings and the game file: what anyone holding the view link may see."""
    current = _current()
    return jsonify(
        id=current.stored.id,
        version=current.version,
        view_url=public_url("watch.view", game_id=current.stored.id),
        standings=current.standings.to_json(),
        game=current.stored.state,
    )


@bp.get("/games/<game_id>/<key>/bgstats")
def bgstats_play():
    """A finished game as a BG Stats play, with the push link that opens BG Stats' import."""
    current = _current()
    try:
        play = bgstats.stored_play(
            db(), current.stored, current.game, current.standings, zones.record_zone()
        )
    except bgstats.NotFinished as error:
        raise ApiError(409, str(error)) from None
    return jsonify(play=play, url=bgstats.push_link(play))


# --- recording a hand -----------------------------------------------------------------


def _read_hand(game: Game, raw: Mapping[str, Any], number: int) -> HandRecord:
    """The hand as the engine reads it (names made canonical)."""
    try:
        return read_hand(game, raw, number)
    except GameError as error:
        reason = error.reason if error.hand == number else str(error)
        raise ApiError(
            422, _("hand %(number)s: %(reason)s", number=number, reason=reason), problems=[]
        ) from None


def _request_hand() -> tuple[int, Mapping[str, Any]]:
    body = _body()
    number, hand = body.get("hand_number"), body.get("hand")
    unknown = sorted(set(body) - {"hand_number", "hand"})
    if unknown:
        keys = ", ".join(map(repr, unknown))
        raise ApiError(400, _("unknown key %(keys)s: send hand_number, hand", keys=keys))
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise ApiError(400, _("hand_number must be the hand's number: 1 for the first hand."))
    if not isinstance(hand, dict):
        raise ApiError(
            400, _("hand must be one hand as in the game file (went_out, made, points).")
        )
    return number, hand


def _answer(current: current_game.Current, status: int, **extra: Any):
    response = jsonify(version=current.version, standings=current.standings.to_json(), **extra)
    response.status_code = status
    return response


@bp.post("/games/<game_id>/<key>/hands")
@csrf_exempt
def record_hand() -> Response:
    """Record hand N: 201 when saved, 200 when this very hand was saved already."""
    current = _current()
    number, raw = _request_hand()
    hand = _read_hand(current.game, raw, number)
    result = actions.hands.record(db(), current.stored.id, number, hand)
    if isinstance(result, actions.results.Saved):
        if not result.changed:
            return _answer(result.current, 200, hand_number=number, recorded=False)
        warnings = list(result.warnings)
        return _answer(result.current, 201, hand_number=number, recorded=True, warnings=warnings)
    if isinstance(result, actions.results.Refused):
        raise _refused(result)
    now = result.current
    extra: dict[str, Any] = {"next_hand": result.next_hand}
    if now is not None and number < now.standings.hand_number:
        extra["hand"] = now.stored.state["hands"][number - 1]
    if now is None:
        raise ApiError(503, result.message)
    raise ApiError(409, result.message, **extra)


# --- the checkers ---------------------------------------------------------------------


def _body_args(body: dict[str, Any]) -> MultiDict[str, str]:
    """A checker's JSON body as the query string it stands for, each field of exactly the
    type this route's schema in docs/openapi.json gives it (BadRequest names the first
    that is not): text as text, the phase a whole number, groups a list of texts, house
    rules an object of texts. The checks then judge the values as on the query string."""
    schema = description()["paths"][request.path]["post"]["requestBody"]
    fields = schema["content"]["application/json"]["schema"]["properties"]
    args: MultiDict[str, str] = MultiDict()
    for key, value in body.items():
        if key not in fields:
            keys = ", ".join(fields)
            raise BadRequest(key, _("unknown key %(key)r: send %(keys)s", key=key, keys=keys))
        kind = fields[key]["type"]
        if kind == "integer" and isinstance(value, int) and not isinstance(value, bool):
            args.add(key, str(value))
        elif kind == "string" and isinstance(value, str):
            args.add(key, value)
        elif kind == "array" and isinstance(value, list) and all(isinstance(v, str) for v in value):
            for item in value:
                args.add(key, item)
        elif (
            kind == "object"
            and isinstance(value, dict)
            and all(isinstance(v, str) for v in value.values())
        ):
            for name, setting in value.items():
                args.add("option", f"{name}={setting}")
        else:
            raise BadRequest(key, _("%(field)s must be %(kind)s", field=key, kind=_(KINDS[kind])))
    return args


KINDS = {  # say them with _()
    "integer": N_("a whole number"),
    "string": N_("text"),
    "array": N_("a list of texts"),
    "object": N_("an object whose values are texts"),
}


def _api(run: Callable[[Tool], Any], required: tuple[str, ...]):
    args = MultiDict(request.args)
    try:
        if request.is_json:
            args = _body_args(_body())
        tool = make_tool(args)
    except BadRequest as error:
        return jsonify(error=error.message, field=error.field), 400
    for name in required:
        if not args.get(name):
            return jsonify(error=_("%(field)s is required", field=name), field=name), 400
    result = run(tool)
    if tool.errors:
        name, message = next(iter(tool.errors.items()))
        return jsonify(error=message, field=name), 400
    return jsonify(
        {**result.to_json(), "phase": tool.phase} if hasattr(result, "to_json") else result
    )


def _api_phase(tool: Tool):
    groups = [tool.cards(f"g{i}") for i, _ in enumerate(tool.args.getlist("group"))]
    return check_phase(tool.rules, tool.phase, groups) if not tool.errors else None


@bp.route("/check", methods=["GET", "POST"])
@csrf_exempt
@checking
def check():
    def run(tool: Tool):
        for i, text in enumerate(tool.args.getlist("group")):
            tool.args[f"g{i}"] = text
        return _api_phase(tool)

    return _api(run, ("group",))


@bp.route("/hit", methods=["GET", "POST"])
@csrf_exempt
@checking
def hit():
    return _api(run_hit, ("kind", "group", "card"))


@bp.route("/solve", methods=["GET", "POST"])
@csrf_exempt
@checking
def solve():
    return _api(run_solve, ("hand",))


@bp.route("/rate", methods=["GET", "POST"])
@csrf_exempt
@rating
def rate() -> tuple[Response, int]:
    """How hard a phase list is (or a random one drawn): each phase's chance, easiest first."""
    args: dict[str, Any] = dict(request.args)
    try:
        options: Any = house_rules(request.args)
    except BadRequest as error:
        raise ApiError(400, error.message, field=error.field) from None
    if request.method == "POST":
        body = _body()
        options = body.pop("options", {})
        if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
            raise ApiError(400, _("options must be an object of option names and values"))
        args = body
    status, answer = rate_answer(args, {str(k): str(v) for k, v in options.items()})
    return jsonify(answer), status
