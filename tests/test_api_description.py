"""docs/openapi.json says what the server does: the engine's facts as the engine has them,
and no request it allows refused for its form (issues 38 #9 and 39).

Fast: the description is read as data and checked with JSON Schema, and each finding is
asked of the app itself. tests/test_fuzz.py (slow) asks schemathesis the same questions
with thousands of generated requests.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from urllib.parse import quote, urlencode

import jsonschema_rs
import pytest
from servers import Server

from scorekeeper.rules.options import OPTIONS, Choice, Option
from scorekeeper.web import api_description
from scorekeeper.web.blueprints.api import description

SPEC = description()
SCHEMAS = SPEC["components"]["schemas"]


def allows(schema: dict, value: object) -> bool:
    """Whether the description lets ``value`` through ``schema`` (its references resolved)."""
    return jsonschema_rs.validator_for({**schema, "components": SPEC["components"]}).is_valid(value)


def parameter(path: str, name: str) -> dict:
    return next(p["schema"] for p in SPEC["paths"][path]["get"]["parameters"] if p["name"] == name)


def body(path: str) -> dict:
    return SPEC["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]


# --- the engine's facts, said once -----------------------------------------------------


def test_the_description_holds_the_engines_facts():
    """Profiles, house rules and their values, the engine's limits: as the engine has them
    (scripts/openapi writes them in)."""
    stale = [
        pointer
        for pointer, value in api_description.engine_facts().items()
        if api_description.said(SPEC, pointer) != value
    ]
    assert stale == [], "run scripts/openapi"
    assert api_description.text(SPEC) == api_description.text(
        api_description.with_engine_facts(SPEC)
    )


def test_a_new_house_rule_is_described_from_options_alone(monkeypatch):
    """Issue 39: a house rule was edited by hand into five places, and a test only checked
    that its name appeared. Now its name and values come from OPTIONS."""
    choices = (Choice("15", "15 points"), Choice("20", "20 points"))
    monkeypatch.setitem(OPTIONS, "skip_points", Option("skip_points", "", "", choices, "15"))
    facts = api_description.engine_facts()
    schemas = api_description.SCHEMAS
    assert "skip_points" in facts[f"{schemas}/HouseRuleName"]["enum"]
    assert facts[f"{schemas}/HouseRules"]["properties"]["skip_points"]["enum"] == ["15", "20"]
    assert facts[f"{schemas}/GameOptions"]["properties"]["skip_points"]["enum"] == [
        "15",
        "20",
        15,
        20,
    ]
    assert {"enum": ["skip_points=15", "skip_points=20"]} in facts[f"{schemas}/HouseRule"]["anyOf"]
    assert api_description.with_engine_facts(SPEC) != SPEC  # the fast test fails until written


def test_a_house_rule_of_free_text_must_say_what_it_takes(monkeypatch):
    monkeypatch.setitem(OPTIONS, "nickname", Option("nickname", "", "", None, ""))
    with pytest.raises(KeyError, match="nickname"):
        api_description.engine_facts()


# --- issue 38 #9: valid by the description, refused by the server -----------------------

GROUP = "R1 B1 G1"
A_LIST = api_description.A_PHASE_LIST  # phases=custom needs one


def test_every_house_rule_the_description_allows_on_the_query_is_taken(client):
    """It allowed any ``option=`` name (``^[a-z_]+=.*$``); the server knows these only."""
    schema = parameter("/api/check", "option")
    assert not allows(schema, ["nonsense=1"]) and not allows(schema, ["wild_points=30"])
    refused = client.get("/api/check", query_string={"group": GROUP, "option": "nonsense=1"})
    assert refused.status_code == 400
    for branch in SCHEMAS["HouseRule"]["anyOf"]:
        for value in branch.get("enum", branch.get("examples")):
            rules = [value, f"custom_phases={A_LIST}"] if value == "phases=custom" else [value]
            assert allows(schema, rules)
            answer = client.get("/api/check", query_string={"group": GROUP, "option": rules})
            assert answer.status_code == 200, (value, answer.get_json())


def test_every_house_rule_the_description_allows_in_a_body_is_taken(client):
    schema = body("/api/solve")["properties"]["options"]
    assert not allows(schema, {"nonsense": "1"}) and not allows(schema, {"phases": "custom"})
    for key, values in SCHEMAS["HouseRules"]["properties"].items():
        for value in values.get("enum", values.get("examples")):
            options = {key: value}
            if options == {"phases": "custom"}:
                options["custom_phases"] = A_LIST
            assert allows(schema, options)
            answer = client.post("/api/solve", json={"hand": "R1 R2 R3", "options": options})
            assert answer.status_code == 200, (options, answer.get_json())


def test_the_hit_checker_describes_one_card(client):
    """It allowed up to 24 cards in ``card``, where the server checks one at a time."""
    for card in ("Y7", "w", "7H", "JOKER"):
        assert allows(parameter("/api/hit", "card"), card)
        assert allows(body("/api/hit")["properties"]["card"], card)
    assert not allows(parameter("/api/hit", "card"), "Y7 R7")
    assert not allows(body("/api/hit")["properties"]["card"], "Y7 R7")
    query = {"kind": "set", "group": "R7 B7 G7", "card": "Y7 R7"}
    refused = client.get("/api/hit", query_string=query)
    assert refused.status_code == 400 and refused.get_json()["field"] == "card"


def test_a_blank_dealer_is_not_described(client):
    """It allowed ``"dealer": ""``, which the engine refuses."""
    game = {"players": ["Ann", "Bob", "Cy"], "dealer": ""}
    assert not allows(SCHEMAS["Game"], game)
    assert allows(SCHEMAS["Game"], {**game, "dealer": "Bob"})
    assert client.post("/api/games", json=game).status_code == 422


@pytest.mark.parametrize(
    "game",
    [
        {"orders": {"Ann": [10**31]}},
        {"options": {"first": 10**31}},
        {"options": {"wild_points": 10**31}},
        {"orders": {"Ann": [31]}},
        {"options": {"first": 31}},
    ],
    ids=["orders 31 digits", "first 31 digits", "wild points 31 digits", "order 31", "first 31"],
)
def test_numbers_past_the_engines_are_not_described(client, game):
    """It allowed numbers of any size in a game file's orders and options; the server reads
    at most 30 digits, and the engine no phase past the 30th."""
    game = {"players": ["Ann", "Bob", "Cy"], **game}
    assert not allows(SCHEMAS["Game"], game)
    assert client.post("/api/games", json=game).status_code in (400, 422)


def test_a_phase_list_on_the_query_is_as_long_as_the_server_reads(tmp_path):
    """``GET /api/rate`` allowed 10,000 characters of phases, and the server answered 414
    (not in the description) from about 7,000. Now every GET lists 414, and a list of the
    described length, in the widest encoding its characters have, reaches the app with
    every other field at its longest."""
    schema = parameter("/api/rate", "phases")
    most = schema["maxLength"]
    widest = ";" * most  # each ';' is three bytes encoded (%3B)
    assert allows(schema, widest) and not allows(schema, widest + ";")
    longest = {
        "phases": widest,
        "rules": max(SCHEMAS["RulesName"]["enum"], key=len),
        "draw": "false",
        "turns": "10",
        "trials": "9999",
        "seed": "9" * 9,
        "order": "easiest",
    }
    for name in ("turns", "trials", "seed", "phases"):
        assert allows(parameter("/api/rate", name), longest[name])
    for path in ("/api/check", "/api/hit", "/api/solve", "/api/rate"):
        assert "414" in SPEC["paths"][path]["get"]["responses"]
    server = Server(tmp_path / "games.sqlite3").start()
    try:

        def status(query: str) -> int:
            try:
                with urllib.request.urlopen(f"{server.base}/api/rate?{query}", timeout=30):
                    return 200
            except urllib.error.HTTPError as error:
                return error.code

        assert status(urlencode(longest, quote_via=quote)) == 400  # read, and judged
        assert status(urlencode({"phases": "a" * 10_000})) == 414
    finally:
        server.stop()


def test_a_house_rule_a_rating_list_replaces_is_judged_all_the_same(client):
    """A rating of a list of its own dropped the phase options unread, so ``phases=custom``
    with no list, or a phases value no game has, was answered 200 though not described."""
    for options in ({"phases": "custom"}, {"phases": "bogus"}):
        asked = {"phases": "1 set of 3", "trials": 1, "options": options}
        assert not allows(body("/api/rate"), asked)
        answer = client.post("/api/rate", json=asked)
        assert answer.status_code == 400 and answer.get_json()["field"] == "rules"
    asked = {"phases": "1 set of 3", "trials": 1, "options": {"phases": "plus10"}}
    assert (
        allows(body("/api/rate"), asked) and client.post("/api/rate", json=asked).status_code == 200
    )
