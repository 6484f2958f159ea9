"""The one bounded JSON reader: deep nesting and huge numbers are clear errors."""

from __future__ import annotations

import pytest

from scorekeeper.jsontext import MAX_DEPTH, JsonError, deeper_than, parse_json


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
