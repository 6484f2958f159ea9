"""The OpenAPI 3.1 description of the JSON API, served at /api/openapi.json.

It is what other programs read to call the API, and what the fuzz tests
(tests/test_fuzz.py) generate requests from, so it says exactly what each
endpoint accepts and every answer it can give: a wrong word here shows up as a
schema violation there. docs/api.md is the same in prose.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from ..rules.phases import OPTIONS, PROFILES

bp = Blueprint("openapi", __name__)

JSON = "application/json"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _answer(description: str, schema: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": _ref(schema)}}}


NAMES = {"type": "array", "items": {"type": "string"}}
NAMED_NUMBERS = {"type": "object", "additionalProperties": {"type": "integer"}}
PROFILE_NAMES = sorted(PROFILES)

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {"type": "string", "description": "What is wrong, in plain words."},
            "field": {"type": "string", "description": "The request field at fault."},
        },
    },
    "Problem": {
        "type": "object",
        "description": "One reason, with the rule it comes from (/rules#anchor).",
        "required": ["message", "rule", "anchor", "player", "field", "warning"],
        "properties": {
            "message": {"type": "string"},
            "rule": {"type": ["string", "null"], "examples": ["Rule 8: card points"]},
            "anchor": {"type": ["string", "null"], "examples": ["card-points"]},
            "player": {"type": ["string", "null"]},
            "field": {"type": ["string", "null"]},
            "warning": {"type": "boolean"},
        },
    },
    "Refusal": {
        "type": "object",
        "required": ["error", "problems"],
        "properties": {
            "error": {"type": "string"},
            "rule": {
                "type": ["string", "null"],
                "description": "The rule the error comes from, when it names one.",
                "examples": ["Rule 9: end of the game"],
            },
            "anchor": {"type": ["string", "null"], "examples": ["end-of-game"]},
            "problems": {"type": "array", "items": _ref("Problem")},
        },
    },
    "Conflict": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {"type": "string"},
            "next_hand": {"type": ["integer", "null"]},
            "hand": _ref("Hand"),
        },
    },
    "Cards": {
        "type": "object",
        "description": "Cards left in hand, counted by kind.",
        "properties": {
            key: {"type": "integer", "minimum": 0}
            for key in ("low", "high", "skips", "wilds", "super_wilds", "super_skips")
        },
    },
    "Hand": {
        "type": "object",
        "description": "One hand, as in the game file (docs/game-format.md).",
        "properties": {
            "went_out": {"type": ["string", "null"]},
            "made": NAMES,
            "points": NAMED_NUMBERS,
            "attempts": NAMED_NUMBERS,
            "floaters": NAMES,
            "cards": {"type": "object", "additionalProperties": _ref("Cards")},
            "tiebreak": {"type": "boolean"},
        },
        "additionalProperties": False,
    },
    "Game": {
        "type": "object",
        "description": "The game file (docs/game-format.md); the engine checks the rest.",
        "required": ["players"],
        "properties": {
            "rules": {"type": "string", "enum": PROFILE_NAMES},
            "options": {
                "type": "object",
                "additionalProperties": {"type": ["string", "integer", "boolean"]},
            },
            "players": {
                "type": "array",
                "items": {
                    "type": "string",
                    "format": "player-name",
                    "minLength": 1,
                    "maxLength": 40,
                    "description": "Letters, digits, spaces and signs: no control or "
                    "invisible characters (zero-width spaces, text-direction marks).",
                },
                "minItems": 2,
                "maxItems": 6,
                "uniqueItems": True,
            },
            "dealer": {"type": "string"},
            "orders": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "integer"}},
            },
            "hands": {"type": "array", "items": _ref("Hand")},
        },
        "additionalProperties": False,
    },
    "PlayerStanding": {
        "type": "object",
        "required": ["name", "phase", "score", "phases_done", "finished"],
        "properties": {
            "name": {"type": "string"},
            "phase": {"type": "integer"},
            "score": {"type": "integer"},
            "phases_done": {"type": "array", "items": {"type": "integer"}},
            "finished": {"type": "boolean"},
            "tiebreak_phase": {"type": "integer"},
        },
    },
    "Standings": {
        "type": "object",
        "required": ["players", "dealer", "over", "winner", "tiebreak", "hand", "tied"],
        "properties": {
            "players": {"type": "array", "items": _ref("PlayerStanding")},
            "dealer": {"type": "string"},
            "over": {"type": "boolean"},
            "winner": {"type": ["string", "null"]},
            "tiebreak": NAMES,
            "hand": {"type": "integer", "description": "The next hand's number."},
            "tied": NAMES,
            "warnings": NAMES,
        },
    },
    "CreatedGame": {
        "type": "object",
        "required": ["id", "key", "view_url", "edit_url", "hands_url", "standings"],
        "properties": {
            "id": {"type": "string"},
            "view_url": {"type": "string", "description": "Read-only link: share it freely."},
            "edit_url": {"type": "string", "description": "The scorekeeper's link: keep it."},
            "hands_url": {"type": "string", "description": "Where to POST hands."},
            "key": {
                "type": "string",
                "description": "The edit key (as in edit_url): the credential to record hands.",
            },
            "standings": _ref("Standings"),
            "warnings": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Things worth a second look, such as names that look alike.",
            },
        },
    },
    "GameView": {
        "type": "object",
        "required": ["id", "version", "view_url", "standings", "game"],
        "properties": {
            "id": {"type": "string"},
            "version": {"type": "integer"},
            "view_url": {"type": "string"},
            "standings": _ref("Standings"),
            "game": _ref("Game"),
        },
    },
    "NewHand": {
        "type": "object",
        "required": ["hand_number", "hand"],
        "properties": {
            "hand_number": {"type": "integer", "minimum": 1},
            "hand": _ref("Hand"),
        },
        "additionalProperties": False,
    },
    "HandRecorded": {
        "type": "object",
        "required": ["version", "standings", "hand_number", "recorded"],
        "properties": {
            "version": {"type": "integer"},
            "standings": _ref("Standings"),
            "hand_number": {"type": "integer"},
            "recorded": {
                "type": "boolean",
                "description": "false when this same hand had been recorded before",
            },
            "warnings": NAMES,
        },
    },
    "Verdict": {
        "type": "object",
        "required": ["valid", "reasons", "rules", "problems"],
        "properties": {
            "valid": {"type": "boolean"},
            "reasons": NAMES,
            "rules": NAMES,
            "problems": {"type": "array", "items": _ref("Problem")},
            "phase": {"type": "integer"},
        },
    },
    "HitVerdict": {
        "allOf": [
            _ref("Verdict"),
            {
                "type": "object",
                "required": ["where", "stands_for"],
                "properties": {
                    "where": {"type": ["string", "null"]},
                    "stands_for": {"type": ["integer", "null"]},
                },
            },
        ]
    },
    "Solution": {
        "type": "object",
        "required": ["can_make", "groups", "layout", "missing", "missing_cards", "phase"],
        "properties": {
            "can_make": {"type": "boolean"},
            "groups": {"type": ["array", "null"], "items": NAMES},
            "layout": {"type": ["array", "null"], "items": {"type": "string"}},
            "missing": {"type": ["integer", "null"]},
            "missing_cards": NAMES,
            "phase": {"type": "integer"},
        },
    },
}

# --- the rule checks: the same fields as a query string or a JSON object ---------------

# Cards as the command line writes them (R7, b12, W, S, 7H, QS, KD, JOKER), space-separated.
CARD = "(?:[RBGYrbgy](?:1[0-2]|[1-9])|[WSws]|(?:[Aa]|[2-9]|10|[JQKjqk])[HDCShdcs]|JOKER)"
CARDS_PATTERN = f"^{CARD}(?: {CARD}){{0,23}}$"
OPTION_TEXT = (
    "A house rule as key=value, e.g. wild_points=20; the keys are "
    + ", ".join(OPTIONS)
    + " (docs/api.md)."
)
COMMON_FIELDS: dict[str, dict[str, Any]] = {
    "rules": {"type": "string", "enum": PROFILE_NAMES, "description": "The rule profile."},
    "phase": {"type": "string", "pattern": "^[0-9]{0,3}$", "description": "The phase number."},
    "game": {"type": "string", "description": "A game's view id: use its rules."},
    "player": {"type": "string", "description": "A seat in that game (0 = first)."},
    "deck": {"type": "string", "description": "'regular' for playing-card names."},
}
TOOL_FIELDS: dict[str, dict[str, dict[str, Any]]] = {
    "check": {
        "group": {"description": "One group's cards, e.g. 'R7 B7 W'; repeat per group."},
    },
    "hit": {
        "kind": {"type": "string", "enum": ["set", "run", "colour", "color"]},
        "group": {
            "type": "string",
            "description": "The laid-down group as it lies (a run low to high or high to low).",
        },
        "card": {"type": "string", "description": "The one card to hit with."},
    },
    "solve": {"hand": {"type": "string", "description": "The cards in hand."}},
}
REQUIRED = {"check": ["group"], "hit": ["kind", "group", "card"], "solve": ["hand"]}
RESULTS = {"check": "Verdict", "hit": "HitVerdict", "solve": "Solution"}
SUMMARIES = {
    "check": "Is this a valid phase?",
    "hit": "Does this card fit that group?",
    "solve": "Can this hand make the phase?",
}


def _tool_operations(tool: str) -> dict[str, Any]:
    fields = {**COMMON_FIELDS, **TOOL_FIELDS[tool]}
    required = REQUIRED[tool]
    card_text = {"type": "string", "pattern": CARDS_PATTERN, "maxLength": 400}
    query = []
    for name, schema in fields.items():
        if name == "group" and tool == "check":
            schema = {**schema, "type": "array", "items": card_text, "minItems": 1}
        elif name in ("group", "card", "hand"):
            schema = {**schema, **card_text}
        elif name in required:
            schema = {**schema, "minLength": 1}
        query.append({"name": name, "in": "query", "required": name in required, "schema": schema})
    query.append(
        {
            "name": "option",
            "in": "query",
            "schema": {"type": "array", "items": {"type": "string", "pattern": "^[a-z_]+=.*$"}},
            "description": OPTION_TEXT,
        }
    )
    body_fields = {name: p["schema"] for name, p in ((q["name"], q) for q in query)}
    body_fields.pop("option")
    body_fields["phase"] = {"type": "integer", "minimum": 1, "maximum": 999}
    body_fields["options"] = {
        "type": "object",
        "additionalProperties": {"type": "string"},
        "description": "House rules: option name to value.",
    }
    if tool == "check":
        body_fields["group"] = {
            "type": "array",
            "items": card_text,
            "minItems": 1,
            "description": "Each group's cards, in the order the phase lists them.",
        }
    answers = {
        "200": _answer("The verdict.", RESULTS[tool]),
        "400": _answer("Unreadable input: which field, and why.", "Error"),
        **RATE_LIMITED,
    }
    summary = SUMMARIES[tool]
    return {
        "get": {
            "operationId": f"{tool}_get",
            "summary": summary,
            "parameters": query,
            "responses": answers,
        },
        "post": {
            "operationId": f"{tool}_post",
            "summary": summary,
            "requestBody": {
                "required": True,
                "content": {
                    JSON: {
                        "schema": {
                            "type": "object",
                            "required": required,
                            "properties": body_fields,
                        }
                    }
                },
            },
            "responses": answers,
        },
    }


GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
    "description": "The game's id, from its view link /v/<game_id>.",
}
EDIT_KEY = {
    "name": "key",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
    "description": "The game's edit key, from its edit link /g/<game_id>/<key>.",
}
BAD_BODY = {
    "400": _answer("The body is not the JSON object described.", "Error"),
    "413": _answer("The body is larger than 64 KB.", "Error"),
    "415": _answer("The body is not sent as application/json.", "Error"),
}


RATE_LIMITED = {
    "429": _answer(
        "Too many requests from this address in a short time: wait (Retry-After), try again.",
        "Error",
    )
}
STORAGE = {
    "503": _answer(
        "Nothing was saved: the game kept changing, or the storage is read-only or busy.",
        "Error",
    ),
    "507": _answer("Nothing was saved: the server's storage is full.", "Error"),
}


def _json_body(schema: str) -> dict[str, Any]:
    return {"required": True, "content": {JSON: {"schema": _ref(schema)}}}


PATHS: dict[str, Any] = {
    "/api/games": {
        "post": {
            "operationId": "create_game",
            "summary": "Start a game from its game file.",
            "requestBody": _json_body("Game"),
            "responses": {
                "201": {
                    **_answer("Created: the links and the standings.", "CreatedGame"),
                    "headers": {"Location": {"schema": {"type": "string"}}},
                    "links": {
                        "ReadGame": {
                            "operationId": "read_game",
                            "parameters": {"game_id": "$response.body#/id"},
                        },
                        "RecordHand": {
                            "operationId": "record_hand",
                            "parameters": {
                                "game_id": "$response.body#/id",
                                "key": "$response.body#/key",
                            },
                        },
                    },
                },
                **BAD_BODY,
                "422": _answer("The engine refuses the game, and says why.", "Refusal"),
                **RATE_LIMITED,
                **STORAGE,
            },
        }
    },
    "/api/games/{game_id}": {
        "get": {
            "operationId": "read_game",
            "summary": "The standings and the game file.",
            "parameters": [GAME_ID],
            "responses": {
                "200": _answer("The game.", "GameView"),
                "404": _answer("No game has this id.", "Error"),
                "503": _answer("The games file cannot be read just now.", "Error"),
            },
        }
    },
    "/api/games/{game_id}/{key}/hands": {
        "post": {
            "operationId": "record_hand",
            "summary": "Record hand N (idempotent: the same hand again changes nothing).",
            "parameters": [GAME_ID, EDIT_KEY],
            "requestBody": _json_body("NewHand"),
            "responses": {
                "200": _answer("This same hand was recorded before.", "HandRecorded"),
                "201": _answer("Recorded.", "HandRecorded"),
                **BAD_BODY,
                "404": _answer("No game has this id, or the key is wrong.", "Error"),
                "409": _answer(
                    "Hand N was recorded differently, is not the next hand, or the game is over.",
                    "Conflict",
                ),
                "422": _answer("The engine refuses the hand, and says why.", "Refusal"),
                **STORAGE,
            },
        }
    },
    **{f"/api/{tool}": _tool_operations(tool) for tool in ("check", "hit", "solve")},
}

SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "Phase 10 Scorekeeper API",
        "version": "1",
        "description": "Keep a Phase 10 game's score and settle rules disputes. "
        "The edit key in a URL is the only credential; no cookies are used.",
    },
    "paths": PATHS,
    "components": {"schemas": SCHEMAS},
}


@bp.get("/api/openapi.json")
def spec():
    return jsonify(SPEC)
