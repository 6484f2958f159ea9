"""Bad input never breaks the app: no 5xx, and every refusal says what is wrong.

The JSON API is fuzzed by schemathesis from its own OpenAPI description, with its
conformance checks: statuses, content types, headers and bodies as described, what the
description does not allow refused, and what it allows taken. The HTML forms (new game,
hand, import, the checkers' query strings) by hypothesis. Both are bounded and
derandomized, so a run is repeatable and takes a few minutes at most.
"""

from __future__ import annotations

import io
import json
import re
from urllib.parse import urlencode

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import checks
from schemathesis.config import SchemathesisConfig
from webutil import csrf, new_game

from scorekeeper import create_app
from scorekeeper.web.blueprints.api import description

pytestmark = pytest.mark.slow  # sends thousands of generated requests (schemathesis, Hypothesis)

SPEC = description()

FUZZ = settings(
    max_examples=50,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
# An HTML refusal carries its reason in one of these (forms, checkers, error page).
MESSAGE = re.compile(r'class="field-error"|role="alert"|class="card error-page"')


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    # Not TESTING: a crash must come back as the 500 a phone would see, not as an exception.
    return create_app(
        {
            "DATABASE": str(tmp_path_factory.mktemp("fuzz") / "games.sqlite3"),
            "SECRET_KEY": "fuzz",
            "SERVER_NAME": "table.test",
            # one client sends thousands of requests here: rate limits have tests of their own
            "RATE_LIMIT_CREATE": "100000 per minute",
            "RATE_LIMIT_CHECK": "100000 per minute",
            "RATE_LIMIT_RATE": "100000 per minute",
            "RATING_TRIALS": 5,  # a rating deals this many hands at most: the fuzzer sends many
        }
    )


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def game_url(client):
    return new_game(client, players=("Ann", "Bob", "Cy"))


# --- the JSON API, from its OpenAPI description ---------------------------------------


OPERATIONS = [
    (method.upper(), path) for path, item in SPEC["paths"].items() for method in sorted(item)
]


def test_the_served_description_is_the_one_the_fuzzer_reads(client):
    assert client.get("/api/openapi.json").get_json() == SPEC


def test_a_rating_asked_for_the_described_most_trials_is_answered(tmp_path):
    """The description allowed 5,000 trials where the server takes 1,000: a valid request by
    the description was refused. (A server with its own defaults, unlike the fuzzer's.)"""
    database = str(tmp_path / "games.sqlite3")
    client = create_app({"DATABASE": database, "SECRET_KEY": "x"}).test_client()
    body = SPEC["paths"]["/api/rate"]["post"]["requestBody"]["content"]["application/json"]
    most = body["schema"]["properties"]["trials"]["maximum"]
    asked = {"phases": "1 set of 3", "trials": most, "turns": 0}
    assert client.post("/api/rate", json=asked).status_code == 200
    refused = client.post("/api/rate", json={**asked, "trials": most + 1})
    assert refused.status_code == 400 and f"from 1 to {most}" in refused.get_json()["error"]


def test_every_api_route_is_described(app):
    described = {(m, re.sub(r"\{(\w+)\}", r"<\1>", p)) for m, p in OPERATIONS}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/") or rule.rule == "/api/openapi.json":
            continue
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert (method, rule.rule) in described, f"{method} {rule.rule} is not in the spec"


# A body over 64 KB is refused unread (413), like any other request it does not describe.
CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {
            "negative_data_rejection": {
                "expected-statuses": ["400", "404", "405", "409", "413", "415", "422", "429"]
            },
            # a well-formed request to a game that does not exist is answered 404
            "positive_data_acceptance": {"expected-statuses": ["2xx", "404"]},
        }
    }
)


def _cases():
    for method, path in OPERATIONS:
        for mode in schemathesis.GenerationMode:
            yield pytest.param(method, path, mode, id=f"{method} {path} {mode.value}")


def _call(case) -> None:
    # The WSGI transport does not undo gzip the way an HTTP client does: ask for none.
    case.headers = {**(case.headers or {}), "Accept-Encoding": "identity"}


@pytest.mark.parametrize(("method", "path", "mode"), list(_cases()))
def test_the_api_answers_every_generated_request_as_described(app, method, path, mode):
    """No 5xx; every status, header and body is one the description allows; every request
    it does not allow is refused, the checkers' JSON bodies included (a list or a number
    where it says text). Whether every request it allows is taken: the next test."""
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=CONFIG)
    operation = schema[path][method]
    excluded = [checks.positive_data_acceptance]

    @FUZZ
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case):
        _call(case)
        case.call_and_validate(excluded_checks=excluded)

    run()


def held_to_examples(node):
    """The description with each field judged by more than its form (``x-judged``: a phase
    list, cards one deck must hold, a name among the players) held to its examples. The
    rest it says exactly, so the server must take every request this one allows."""
    if isinstance(node, dict):
        if "x-judged" in node:
            return {"enum": node["examples"]}
        return {key: held_to_examples(value) for key, value in node.items()}
    if isinstance(node, list):
        return [held_to_examples(value) for value in node]
    return node


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_the_api_takes_every_request_its_description_allows(app, method, path):
    """Issue 38 #9: options, cards, the dealer and numbers were described wider than the
    server takes them. Every generated request the description allows is answered 2xx
    (or 404, a game that does not exist), its judged fields at their examples."""
    schema = schemathesis.openapi.from_dict(held_to_examples(SPEC), config=CONFIG)
    schema.app = app
    operation = schema[path][method]
    accepted = [checks.not_a_server_error, checks.positive_data_acceptance]

    @FUZZ
    @given(case=operation.as_strategy(generation_mode=schemathesis.GenerationMode.POSITIVE))
    def run(case):
        _call(case)
        case.call_and_validate(checks=accepted)

    run()


# Each checker's body, valid, and a value of every JSON type for each of its fields.
CHECKER_BODIES = {
    "/api/check": {"group": ["R1 R2 R3", "B4 B4 B4"], "phase": 1},
    "/api/hit": {"kind": "set", "group": "R7 B7 G7", "card": "Y7"},
    "/api/solve": {"hand": "R1 R1 G1 B2 B2 Y2 W S G9 Y12", "phase": 1},
}
JSON_VALUES = {
    "string": "1",
    "integer": 1,
    "array": ["R1 R2 R3"],
    "object": {"wild_points": "20"},
    "boolean": True,
    "null": None,
    "number": 1.5,
    "list of numbers": [1],
    "object of numbers": {"wild_points": 20},
}


def _wrong_types():
    for path, body in CHECKER_BODIES.items():
        schema = SPEC["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        for field, described in schema["schema"]["properties"].items():
            for kind, value in JSON_VALUES.items():
                if kind != described["type"]:
                    yield pytest.param(path, body, field, value, id=f"{path} {field} {kind}")


@pytest.mark.parametrize(("path", "body", "field", "value"), list(_wrong_types()))
def test_a_checkers_body_refuses_any_type_its_description_does_not_give(
    client, path, body, field, value
):
    """Issue 24: lists and numbers were read as text wherever the description says text."""
    assert client.post(path, json=body).status_code == 200
    response = client.post(path, json={**body, field: value})
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["field"] == field


@pytest.mark.parametrize("path", list(CHECKER_BODIES))
def test_a_checkers_body_refuses_keys_its_description_does_not_name(client, path):
    schema = SPEC["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert schema["additionalProperties"] is False
    response = client.post(path, json={**CHECKER_BODIES[path], "g0": "R1"})
    assert response.status_code == 400
    assert "unknown key 'g0'" in response.get_json()["error"]


@pytest.mark.parametrize(
    "url",
    [
        "/api/solve?hand=S+S+S+S+S",
        "/api/solve?hand=W+W+W+W+W+W+W+W+W",
        "/check/hand?hand=S+S+S+S+S",
    ],
)
def test_a_hand_that_cannot_exist_is_refused_with_the_reason(client, url):
    response = client.get(url)
    assert response.status_code == 400
    assert "deck has only" in response.get_data(as_text=True)


# --- the HTML forms, by hypothesis ----------------------------------------------------------

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)
NUMBERISH = st.one_of(
    st.integers(-10, 300).map(str), st.sampled_from(["", " ", "1e3", "0x10", "١٢", "50.0"]), TEXT
)


def assert_clear(response, what: str) -> None:
    status = response.status_code
    assert status < 500, f"{what} gave {status}"
    if 400 <= status < 500:
        page = response.get_data(as_text=True)
        assert MESSAGE.search(page), f"{what} gave {status} without saying why: {page[:300]}"


@FUZZ
@given(
    names=st.lists(st.one_of(TEXT, st.sampled_from(["Ann", "ann", " Bob "])), max_size=7),
    dealer=NUMBERISH,
    profile=st.one_of(st.sampled_from(["official", "masters", "mixed-up", "ten-hands"]), TEXT),
    options=st.dictionaries(st.sampled_from(["first", "wild_points", "custom_phases"]), TEXT),
)
def test_the_new_game_form_refuses_nonsense_clearly(client, names, dealer, profile, options):
    data = {"csrf_token": csrf(client), "dealer": dealer, "profile": profile}
    data.update({f"player-{i}": name for i, name in enumerate(names)})
    data.update({f"opt-{key}": value for key, value in options.items()})
    assert_clear(client.post("/new", data=data), f"/new with {data}")


HAND_FIELDS = st.dictionaries(
    st.one_of(
        st.sampled_from(["went_out", "hand_number", "version"]),
        st.builds(
            "{}-{}".format,
            st.sampled_from(["points", "made", "mode", "low", "high", "skips", "wilds", "attempt"]),
            st.integers(-1, 7),
        ),
    ),
    NUMBERISH,
    max_size=12,
)


@FUZZ
@given(fields=HAND_FIELDS, path=st.sampled_from(["/hands", "/hands/check", "/hands/1"]))
def test_the_hand_form_refuses_nonsense_clearly(client, game_url, fields, path):
    data = {"csrf_token": csrf(client), **fields}
    assert_clear(client.post(game_url + path, data=data), f"{path} with {fields}")


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
GAME_KEYS = ["rules", "options", "players", "dealer", "orders", "hands"]


@FUZZ
@given(
    text=st.one_of(
        TEXT,
        st.builds(
            '{{"players": ["Ann", "Bob"], "hands": [{}]}}'.format, TEXT
        ),  # broken JSON inside a plausible game
        st.dictionaries(st.sampled_from(GAME_KEYS), JSONISH).map(json.dumps),
    )
)
def test_importing_nonsense_is_refused_clearly(client, text):
    response = client.post("/import", data={"csrf_token": csrf(client), "text": text})
    assert_clear(response, f"/import with {text!r}")


QUERY = st.dictionaries(
    st.sampled_from(
        ["rules", "phase", "option", "game", "player", "deck", "layout", "active"]
        + ["g0", "g1", "g5", "add", "remove", "clear", "kind", "group", "card", "hand"]
    ),
    st.one_of(NUMBERISH, st.sampled_from(["R7 B7 W", "S S S S S", "g0:0", "first=3", "x=y"])),
    max_size=8,
)


@FUZZ
@given(query=QUERY, page=st.sampled_from(["/check", "/check/hit"]))
def test_the_checkers_refuse_nonsense_queries_clearly(client, query, page):
    assert_clear(client.get(page, query_string=query), f"{page} with {query}")


@FUZZ
@given(query=QUERY)
def test_the_hand_helper_refuses_nonsense_queries_clearly(client, query):
    assert_clear(client.get("/check/hand", query_string=query), f"/check/hand with {query}")


# --- oversized input ------------------------------------------------------------------------


class CountedBody(io.BytesIO):
    """A request body that counts how many of its bytes the app reads."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.taken = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.taken += len(data)
        return data

    def read1(self, size: int = -1) -> bytes:
        data = super().read1(size)
        self.taken += len(data)
        return data

    def readline(self, size: int | None = -1) -> bytes:
        data = super().readline(size)
        self.taken += len(data)
        return data

    def readinto(self, buffer) -> int:
        count = super().readinto(buffer)
        self.taken += count
        return count


def post_counted(client, path: str, body: bytes, content_type: str):
    """Post `body` with its length declared, as a browser does; returns the answer and how
    many bytes of the body the app read."""
    stream = CountedBody(body)
    response = client.post(
        path,
        input_stream=stream,
        content_type=content_type,
        headers={"Content-Length": str(len(body))},
    )
    return response, stream.taken


# Refused from its declared length, unread: what it costs stays the same however large the
# body is. How fast that is belongs in bench/, not here (CONTRIBUTING: no test asserts a time).


def test_a_10_mb_form_is_refused_unread_with_a_message(client):
    fields = {"csrf_token": csrf(client), "player-0": "A" * 10_000_000, "player-1": "Bob"}
    body = urlencode(fields).encode()
    response, read = post_counted(client, "/new", body, "application/x-www-form-urlencoded")
    assert response.status_code == 413
    assert "far more than this form accepts" in response.get_data(as_text=True)
    assert read <= client.application.config["MAX_CONTENT_LENGTH"]  # never the 10 MB


def test_a_10_mb_json_body_is_refused_unread_with_a_message(client):
    body = ('{"players": ["' + "A" * 10_000_000 + '"]}').encode()
    response, read = post_counted(client, "/api/games", body, "application/json")
    assert response.status_code == 413 and "64 KB" in response.get_json()["error"]
    assert read <= client.application.config["MAX_CONTENT_LENGTH"]  # never the 10 MB


@pytest.mark.parametrize(
    ("path", "field", "message"),
    [
        ("/new", "player-1", "at most 40 characters"),
        ("/import", "text", "at most 40 characters"),
    ],
)
def test_a_10000_character_name_is_refused_with_a_message(client, path, field, message):
    name = "N" * 10_000
    if path == "/new":
        data = {"player-0": "Ann", "player-1": name, "dealer": "0", "profile": "official"}
    else:
        data = {"text": json.dumps({"players": ["Ann", name]})}
    response = client.post(path, data={"csrf_token": csrf(client), **data})
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def test_a_10000_character_name_is_refused_by_the_api(client):
    response = client.post("/api/games", json={"players": ["Ann", "N" * 10_000]})
    assert response.status_code == 422
    assert "at most 40 characters" in response.get_json()["error"]


def test_1000_players_are_refused_by_the_api_and_by_import(client):
    players = [f"P{i}" for i in range(1000)]
    response = client.post("/api/games", json={"players": players})
    assert response.status_code == 422
    assert "2-6 players, not 1000" in response.get_json()["error"]
    page = client.post(
        "/import", data={"csrf_token": csrf(client), "text": json.dumps({"players": players})}
    )
    assert page.status_code == 422


def test_1000_players_in_the_new_game_form_are_refused_with_a_message(client):
    data = {"csrf_token": csrf(client), "dealer": "0", "profile": "official"}
    data.update({f"player-{i}": f"P{i}" for i in range(1000)})
    response = client.post("/new", data=data)
    assert response.status_code in (413, 422)
    assert MESSAGE.search(response.get_data(as_text=True))


# --- stateful: create a game, then read it and record its hands through the links -------


def test_the_links_from_creating_a_game_reach_its_hands():
    created = SPEC["paths"]["/api/games"]["post"]["responses"]["201"]["links"]
    assert created["RecordHand"]["operationId"] == "record_hand"
    assert created["RecordHand"]["parameters"] == {
        "game_id": "$response.body#/id",
        "key": "$response.body#/key",
    }


# Names as families type them (the engine's other refusals are tested in test_names.py).
schemathesis.openapi.format(
    "player-name", st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnoÀéü", min_size=1)
)


def test_stateful_sequences_of_api_calls_never_get_a_server_error(app):
    """Create games, then read them and record hands with the key the answer gave."""
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=CONFIG)

    reached: list[int] = []  # statuses of hands sent to a game the sequence created

    class Workflow(schema.as_state_machine()):
        def after_call(self, response, case):
            if case.operation.path.endswith("/hands"):
                reached.append(response.status_code)

        def get_call_kwargs(self, case):
            return {"headers": {"Accept-Encoding": "identity"}}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            # as above: the engine refuses more than JSON Schema can say (names, decks)
            case.validate_response(
                response,
                excluded_checks=[checks.positive_data_acceptance],
                transport_kwargs=kwargs,
            )

    Workflow.run(
        settings=settings(
            max_examples=25,
            stateful_step_count=6,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    assert {status for status in reached if status != 404}, reached
