"""The one bounded JSON reader: deep nesting and huge numbers are clear errors."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from unittest.mock import ANY

import hostile_backups as hostile
import pytest
from hypothesis import given
from hypothesis import strategies as st
from servers import Server, Visitor, call

from scorekeeper.backup import json_reader
from scorekeeper.backup.json_reader import MAX_DEPTH, JsonError, deeper_than, parse_json


@pytest.mark.parametrize(
    ("text", "deeper"),
    [
        ("[]", False),
        ("[" * MAX_DEPTH + "]" * MAX_DEPTH, False),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), True),
        ('{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), True),
        ("[[]" * MAX_DEPTH + "]" * MAX_DEPTH, True),  # one level more with each '[[]'
        ("[[]" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1), False),
        ('["[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "\\"[[[[[[[[[[[[[[[[[[[[[[["]', False),
        ("[" * 100_000 + "]" * 100_000, True),
        ("[]," * 100_000, False),
    ],
)
def test_how_deep_json_nests_is_found_outside_its_strings(text, deeper):
    assert deeper_than(text, MAX_DEPTH) is deeper


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[" * 100_000 + "]" * 100_000, "nests more than 20 levels"),
        ("[1" + "0" * 4999 + "]", "at most 30 digits"),
        ('{"a": ', "this is not JSON"),
        ("[[[}", "this is not JSON"),
    ],
)
def test_hostile_json_is_a_clear_error(text, says):
    with pytest.raises(JsonError, match=says):
        parse_json(text)


def test_strings_come_back_composed():
    assert parse_json('["Zoe\\u0308"]') == ["Zoë"]


# --- what issue 32 found: costs that grew faster than the text, and values JSON has not -------

UNCLOSED_QUOTES = [
    pytest.param('"' + '\\"' * ((size - 1) // 2), id=f"{size // 1024} KB of unclosed quotes")
    for size in (32 * 1024, 64 * 1024, 1024 * 1024)
]


@pytest.mark.parametrize("text", UNCLOSED_QUOTES)
def test_a_text_of_unclosed_quotes_is_one_string_not_one_per_quote(text):
    """The attack's body (a quote, then escaped quotes to the limit) nests nothing and is
    not JSON. The check reads each string once from its opening quote, whatever follows."""
    assert deeper_than(text, MAX_DEPTH) is False
    with pytest.raises(JsonError, match="this is not JSON"):
        parse_json(text)


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ('["\\\\"]', 1),  # an escaped backslash, then the string's closing quote
        ('["\\"[[["]', 1),  # brackets after an escaped quote are still in the string
        ('[["\\\\\\"]"]]', 2),
        ('["a", "b", {"c": ["d"]}]', 3),
        ('"[[[', 0),  # an unclosed string runs to the end
    ],
)
def test_depth_counts_only_brackets_outside_strings(text, depth):
    assert json_reader.depth(text) == depth


def nesting(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(nesting, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(nesting, value.values()), default=0)
    return 0


# Strings made of what a depth check could misread: quotes, backslashes and brackets.
TRICKY = st.text(alphabet='"\\[]{}a', max_size=8)
DOCUMENTS = st.recursive(
    st.none() | st.integers() | TRICKY,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TRICKY, inner, max_size=3),
)


@given(DOCUMENTS)
def test_depth_is_how_deep_a_document_nests(document):
    assert json_reader.depth(json.dumps(document)) == nesting(document)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[1." + "0" * 4999 + "]", "at most 30 digits"),
        ("[0." + "1" * 31 + "]", "at most 30 digits"),
        ("[1e" + "9" * 40 + "]", "at most 30 digits"),
        ("[NaN]", "NaN is not a number JSON can hold"),
        ('{"a": Infinity}', "Infinity is not a number JSON can hold"),
        ("[-Infinity]", "-Infinity is not a number JSON can hold"),
    ],
)
def test_floats_are_bounded_and_nan_and_infinity_are_not_json(text, says):
    with pytest.raises(JsonError, match=says):
        parse_json(text)


def test_an_ordinary_float_still_reads():
    assert parse_json("[2.5, -1e3]") == [2.5, -1000.0]


@pytest.mark.parametrize(
    "text",
    ['["\\ud800"]', '{"\\ud800": 1}', '{"a": {"b": ["x\\udfffy"]}}', '"\\udc00\\ud800"'],
)
def test_a_lone_surrogate_anywhere_is_refused_by_its_code(text):
    with pytest.raises(JsonError, match=r"U\+D[89A-F][0-9A-F]{2} is half of a character") as caught:
        parse_json(text)
    str(caught.value).encode("utf-8")  # the message itself can be printed


def test_a_surrogate_pair_is_one_character():
    assert parse_json('["\\ud83c\\udfb2"]') == ["\U0001f3b2"]


@pytest.mark.server
def test_a_live_server_answers_the_attacks_bodies_and_keeps_answering_meanwhile(tmp_path):
    """Issue 32: 32 KB and 64 KB of unclosed quotes to the API and a 1 MB table.json of them
    (zipped to about a kilobyte) each stopped the whole server for seconds to hours. Each
    is now a clear refusal, to a new game and to a game's hands (the route with no limit),
    and /healthz answers while they are sent. (The deadlines are generous: a loaded machine
    is slow, never hours slow.)"""
    server = Server(tmp_path / "games.sqlite3").start()
    try:
        visitor = Visitor(server.base)
        status, created = call(server.base + "/api/games", {"players": ["Ann", "Bob"]})
        assert status == 201
        hands = server.base + "/" + created["hands_url"].split("/", 3)[3]
        bodies = [param.values[0] for param in UNCLOSED_QUOTES[:2]]
        routes = [server.base + "/api/games", hands]
        with ThreadPoolExecutor(max_workers=5) as pool:
            answers = [
                pool.submit(call, route, body, timeout=60) for body in bodies for route in routes
            ]
            backup = hostile.unclosed_quotes()
            imported = pool.submit(visitor.upload, "/tables/import", "file", backup, 60)
            while not all(answer.done() for answer in [*answers, imported]):
                assert call(server.base + "/healthz", timeout=10) == (200, ANY)
            for answer in answers:
                status, refusal = answer.result()
                assert status == 400 and "this is not JSON" in refusal["error"]
            status, page = imported.result()
            assert status == 422 and "this is not JSON" in page
    finally:
        server.kill()  # SIGTERM would wait for a request stuck in the check


def test_a_whole_number_written_as_a_float_is_that_integer():
    """JSON Schema reads 5.0 as the integer 5: so does the API (schemathesis sent it)."""
    read = parse_json("[5.0, 5e2, -1E1, 2.5]")
    assert read == [5, 500, -10, 2.5]
    assert [type(n) for n in read] == [int, int, int, float]
