"""The facts of docs/openapi.json that the engine holds, said there by ``scripts/openapi``.

The description is a data file written by hand (routes, answers, the game file's shape),
except for what the rules decide: the profiles, the house rules and the values each takes,
and the engine's limits. Those are set here from the engine, by their place in the file
(a JSON pointer), so each is said once; ``scripts/openapi`` writes them in and
tests/test_api_description.py fails while the file differs.

A field whose value is judged by more than its form (a phase list, cards that one deck
must hold, a name among the players, this server's settings) carries ``x-judged``: why,
and ``examples`` the server takes. A value that fails the judgement is refused with a
400 naming the field (a game or a hand: 422).
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..rules.game import MAX_PLAYERS, MIN_PLAYERS
from ..rules.names import MAX_NAME
from ..rules.options import OPTIONS, Option
from ..rules.phases import MAX_PHASE_TEXT, MAX_PHASES, OFFICIAL_PHASES
from ..rules.rating import DEFAULT_TRIALS, MAX_TURNS
from ..rules.ruleset import PROFILES
from ..rules.scoring import MOST_OF_A_KIND, MOST_TYPED
from .assets import shipped

SCHEMAS = "/components/schemas"
RATE = "/paths/~1api~1rate/post/requestBody/content/application~1json/schema/properties"
A_PHASE_LIST = "; ".join(phase.notation for phase in OFFICIAL_PHASES[:2])

# What each house rule without a menu takes: a new one is said here before it is described.
FREE_TEXT: dict[str, dict[str, Any]] = {
    "custom_phases": {
        "type": "string",
        "maxLength": MAX_PHASE_TEXT,
        "x-judged": "the engine reads the phase list (docs/game-format.md)",
        "examples": [A_PHASE_LIST],
    },
    "first": {
        "type": "string",
        "pattern": "^[0-9]{0,2}$",
        "x-judged": "a number of phases this game's list has (0 or blank: all of them)",
        "examples": ["0"],
    },
    "suits": {
        "type": "string",
        "x-judged": "each of H, D, C, S given its own colour, like H=R,D=Y,C=G,S=B",
        "examples": [OPTIONS["suits"].default],
    },
}

# ...and those a game file may write as a number, within these bounds.
AS_A_NUMBER = {"first": {"minimum": 0, "maximum": MAX_PHASES}}


def _values(option: Option) -> dict[str, Any]:
    """The text an option takes, as a house rule of the checkers and of a rating."""
    if option.choices is None:
        return copy.deepcopy(FREE_TEXT[option.key])
    return {"type": "string", "enum": list(option.choices)}


def _game_file_values(option: Option) -> dict[str, Any]:
    """What a game file may give an option: its text, a number where the text is one, and
    true or false for a yes or no (docs/game-format.md)."""
    if option.choices is None:
        values = _values(option)
        if option.key in AS_A_NUMBER:
            return {**values, "type": ["string", "integer"], **AS_A_NUMBER[option.key]}
        return values
    numbers = [int(value) for value in option.choices if value.isdigit()]
    yes_no = sorted(option.choices) == ["no", "yes"]
    kinds = ["string", *(["integer"] if numbers else []), *(["boolean"] if yes_no else [])]
    return {
        "type": kinds if len(kinds) > 1 else "string",
        "enum": [*option.choices, *numbers, *([True, False] if yes_no else [])],
    }


def _object(values: dict[str, dict[str, Any]], nullable: bool, description: str) -> dict:
    """House rules as an object: each option's values; "custom" needs its list."""
    return {
        "type": ["object", "null"] if nullable else "object",
        "description": description,
        "properties": values,
        "additionalProperties": False,
        "if": {"properties": {"phases": {"const": "custom"}}, "required": ["phases"]},
        "then": {"required": ["custom_phases"]},
    }


def _query_values(options: Iterable[Option]) -> list[dict[str, Any]]:
    """One house rule as ``key=value``, for each option its values."""
    found = []
    for option in options:
        if option.choices is not None:
            found.append({"enum": [f"{option.key}={value}" for value in option.choices]})
            continue
        values = _values(option)
        given: dict[str, Any] = {"pattern": f"^{option.key}="}
        if "maxLength" in values:
            given["maxLength"] = len(option.key) + 1 + values["maxLength"]
        given["x-judged"] = values["x-judged"]
        given["examples"] = [f"{option.key}={value}" for value in values["examples"]]
        found.append(given)
    return found


def engine_facts() -> dict[str, Any]:
    """Each place in the description (a JSON pointer) and what the engine puts there."""
    profiles = sorted(PROFILES)
    values = {key: _values(option) for key, option in OPTIONS.items()}
    game_values = {key: _game_file_values(option) for key, option in OPTIONS.items()}
    names = ", ".join(OPTIONS)
    return {
        f"{SCHEMAS}/RulesName": {
            "type": "string",
            "enum": profiles,
            "description": "A rules profile (docs/game-format.md).",
        },
        f"{SCHEMAS}/HouseRuleName": {
            "type": "string",
            "enum": list(OPTIONS),
            "description": "A house rule's name (docs/game-format.md).",
        },
        f"{SCHEMAS}/HouseRules": _object(
            values, False, f"House rules: option name to value. The options: {names}."
        ),
        f"{SCHEMAS}/GameOptions": _object(
            game_values,
            True,
            "House rules: option name to value; a number may be written as a number, "
            "true and false mean yes and no. Null is read as absent.",
        ),
        f"{SCHEMAS}/HouseRule": {
            "type": "string",
            "description": f"A house rule as key=value, e.g. wild_points=20. The keys: {names}.",
            "anyOf": _query_values(OPTIONS.values()),
        },
        f"{SCHEMAS}/HouseRuleList": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/HouseRule"},
            "description": "House rules, one key=value each; phases=custom needs custom_phases.",
            "if": {"contains": {"const": "phases=custom"}},
            "then": {"contains": {"pattern": "^custom_phases=."}},
        },
        f"{RATE}/phases/maxLength": MAX_PHASE_TEXT,
        f"{RATE}/turns/maximum": MAX_TURNS,
        f"{RATE}/trials/maximum": DEFAULT_TRIALS,
        f"{SCHEMAS}/Game/properties/players/minItems": MIN_PLAYERS,
        f"{SCHEMAS}/Game/properties/players/maxItems": MAX_PLAYERS,
        f"{SCHEMAS}/PlayerName/maxLength": MAX_NAME,
        f"{SCHEMAS}/Game/properties/orders/additionalProperties/items/maximum": MAX_PHASES,
        f"{SCHEMAS}/Game/properties/orders/additionalProperties/maxItems": MAX_PHASES,
        f"{SCHEMAS}/Hand/properties/points/additionalProperties/maximum": MOST_TYPED,
        **{
            f"{SCHEMAS}/Cards/properties/{kind}/maximum": MOST_OF_A_KIND
            for kind in ("low", "high", "skips", "wilds", "super_wilds", "super_skips")
        },
    }


def _parts(pointer: str) -> list[str]:
    return [part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:]]


def said(description: dict[str, Any], pointer: str) -> Any:
    """What the description says at ``pointer`` (KeyError when it says nothing there)."""
    node: Any = description
    for part in _parts(pointer):
        node = node[part]
    return node


def _said(description: dict[str, Any], pointer: str) -> Any:
    try:
        return said(description, pointer)
    except (KeyError, IndexError, TypeError):
        return None


def with_engine_facts(description: dict[str, Any]) -> dict[str, Any]:
    """The description with every engine fact in its place (a copy)."""
    updated = copy.deepcopy(description)
    for pointer, value in engine_facts().items():
        *parents, last = _parts(pointer)
        node = updated
        for part in parents:
            node = node[part]
        node[last] = copy.deepcopy(value)
    return updated


def text(description: dict[str, Any]) -> str:
    """The file as it is written: two spaces a level, characters as they are."""
    return json.dumps(description, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """``scripts/openapi``: write the engine's facts into docs/openapi.json; ``check``: say
    which differ, and fail."""
    path: Path = shipped("docs") / "openapi.json"
    written = json.loads(path.read_text(encoding="utf-8"))
    wanted = with_engine_facts(written)
    if argv[:1] == ["check"]:
        stale = [p for p, value in engine_facts().items() if _said(written, p) != value]
        for pointer in stale:
            print(f"{path}: {pointer} is not the engine's (run scripts/openapi)")
        return 1 if stale else 0
    path.write_text(text(wanted), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
