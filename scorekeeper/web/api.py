"""The JSON API for games: create one, read its standings, record hands.

Other programs (a bot, a spreadsheet, a second app at the table) use the same
game file as the export (docs/game-format.md). The edit key in the URL is the
only credential: these routes never read or set a cookie, which is why they can
be exempt from CSRF (a browser cannot make a cross-site request carry a secret
it does not know). Every check is the engine's, every write one versioned
transaction (store.save_change), so a hand re-sent after a lost answer, or the
same hand sent from three phones at once, is recorded exactly once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from werkzeug.exceptions import HTTPException

from .. import store
from ..rules.game import Game, GameError, HandRecord, game_to_json, hand_problems, load_game, replay
from ..rules.phases import RulesError
from .csrf import exempt
from .games import _summary

bp = Blueprint("api", __name__, url_prefix="/api/games")
NOT_FOUND = "There is no game at this link. It may have been mistyped."
SAVE_ATTEMPTS = 5  # re-read and re-judge after losing a race, at most this often


class ApiError(Exception):
    """A refusal with a status and a message the caller can show as it is."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


@bp.errorhandler(ApiError)
def api_error(error: ApiError) -> tuple[Response, int]:
    return jsonify(error=error.message, **error.extra), error.status


@bp.errorhandler(HTTPException)
def http_error(error: HTTPException) -> tuple[Response, int]:
    """Oversized or unreadable bodies answer in JSON here, not with the HTML error page."""
    code = error.code or 500
    messages = {
        413: "The request is larger than this API accepts (64 KB).",
        415: "Send the body as JSON with Content-Type: application/json.",
    }
    return jsonify(error=messages.get(code, error.description)), code


def _db():
    return store.connect(current_app.config["DATABASE"])


def _body() -> dict[str, Any]:
    # Only a JSON content type is accepted: a cross-site HTML form cannot send one.
    if not request.is_json:
        raise ApiError(415, "Send the body as JSON with Content-Type: application/json.")
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise ApiError(400, "The body must be one JSON object.")
    return body


def _links(stored: store.StoredGame) -> dict[str, str]:
    return {
        "view_url": url_for("share.view", game_id=stored.id, _external=True),
        "edit_url": url_for(
            "games.game_page", game_id=stored.id, key=stored.edit_key, _external=True
        ),
        "hands_url": url_for(
            "api.record_hand", game_id=stored.id, key=stored.edit_key, _external=True
        ),
    }


def _problem_json(problem) -> dict[str, Any]:
    return {
        "player": problem.player,
        "field": problem.field,
        "message": problem.message,
        "warning": problem.warning,
    }


def _refuse_game(error: GameError | RulesError) -> ApiError:
    problems = [_problem_json(p) for p in getattr(error, "problems", ())]
    return ApiError(422, str(error), problems=problems)


# --- create and read -----------------------------------------------------------------


@bp.post("")
@exempt
def create_game():
    """A new game from its game file (hands may already be in it, as for an import)."""
    body = _body()
    try:
        game = load_game(body)
        standings = replay(game)
    except (GameError, RulesError) as error:
        raise _refuse_game(error) from None
    summary = f"Game created through the API with {len(game.hands)} hands"
    stored = store.create_game(_db(), game_to_json(game), action="api-create", summary=summary)
    answer = {"id": stored.id, **_links(stored), "standings": standings.to_json()}
    response = jsonify(answer)
    response.status_code = 201
    response.headers["Location"] = answer["view_url"]
    return response


def _stored(game_id: str) -> store.StoredGame:
    stored = store.get_game(_db(), game_id)
    if stored is None:
        raise ApiError(404, NOT_FOUND)
    return stored


@bp.get("/<game_id>")
def read_game(game_id: str):
    """Standings and the game file: what anyone holding the view link may see."""
    stored = _stored(game_id)
    game = load_game(stored.state)
    return jsonify(
        id=stored.id,
        version=stored.version,
        view_url=url_for("share.view", game_id=stored.id, _external=True),
        standings=replay(game).to_json(),
        game=game_to_json(game),
    )


# --- recording a hand -----------------------------------------------------------------


def _same_hand(a: HandRecord, b: HandRecord) -> bool:
    """The same facts, whatever order the names were listed in."""
    return replace(a, made=tuple(sorted(a.made)), floaters=tuple(sorted(a.floaters))) == replace(
        b, made=tuple(sorted(b.made)), floaters=tuple(sorted(b.floaters))
    )


def _read_hand(game: Game, raw: Mapping[str, Any], number: int) -> HandRecord:
    """The engine reads the hand as the hand after the recorded ones (names made canonical)."""
    data = game_to_json(game)
    hands = list(data["hands"])  # type: ignore[arg-type]
    try:
        loaded = load_game({**data, "hands": hands[: number - 1] + [dict(raw)]})
    except GameError as error:
        reason = error.reason if error.hand == number else str(error)
        raise ApiError(422, f"hand {number}: {reason}", problems=[]) from None
    return loaded.hands[-1]


def _request_hand() -> tuple[int, Mapping[str, Any]]:
    body = _body()
    number, hand = body.get("hand_number"), body.get("hand")
    unknown = sorted(set(body) - {"hand_number", "hand"})
    if unknown:
        raise ApiError(400, f"unknown key {', '.join(map(repr, unknown))}: send hand_number, hand")
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise ApiError(400, "hand_number must be the hand's number: 1 for the first hand.")
    if not isinstance(hand, dict):
        raise ApiError(400, "hand must be one hand as in the game file (went_out, made, points).")
    return number, hand


def _answer(stored: store.StoredGame, game: Game, status: int, **extra: Any):
    response = jsonify(version=stored.version, standings=replay(game).to_json(), **extra)
    response.status_code = status
    return response


@bp.post("/<game_id>/<key>/hands")
@exempt
def record_hand(game_id: str, key: str):
    """Record hand N: 201 when saved, 200 when this very hand was saved already."""
    stored = _stored(game_id)
    if not store.edit_key_matches(stored, key):
        raise ApiError(404, NOT_FOUND)
    number, raw = _request_hand()
    for _ in range(SAVE_ATTEMPTS):
        game = load_game(stored.state)
        standings = replay(game)
        if number < standings.hand_number:
            hand = _read_hand(game, raw, number)
            if _same_hand(hand, game.hands[number - 1]):
                return _answer(stored, game, 200, hand_number=number, recorded=False)
            raise ApiError(
                409,
                f"Hand {number} was already recorded, differently. Correct it on the game's "
                "page if it is wrong.",
                hand=game_to_json(game)["hands"][number - 1],  # type: ignore[index]
                next_hand=standings.hand_number,
            )
        if number > standings.hand_number:
            raise ApiError(
                409,
                f"The next hand of this game is hand {standings.hand_number}, not {number}.",
                next_hand=standings.hand_number,
            )
        if standings.over:
            raise ApiError(409, "The game is over: no more hands can be recorded.", next_hand=None)
        hand = _read_hand(game, raw, number)
        problems = hand_problems(game, hand)
        errors = [p for p in problems if not p.warning]
        if errors:
            raise ApiError(
                422,
                f"Hand {number} cannot be recorded: {errors[0]}",
                problems=[_problem_json(p) for p in problems],
            )
        new_game = game.with_hand(hand)
        try:
            saved = store.save_change(
                _db(),
                stored.id,
                stored.version,
                game_to_json(new_game),
                action="record",
                summary=_summary(new_game, hand),
            )
        except store.Conflict:
            stored = _stored(game_id)  # someone wrote first: judge again against their version
            continue
        warnings = [str(p) for p in problems if p.warning]
        return _answer(saved, new_game, 201, hand_number=number, recorded=True, warnings=warnings)
    raise ApiError(503, "The game is changing too fast to record this hand. Try again.")
