"""A game's short code: read aloud, typed in any case, with the printed spaces or dashes."""

from __future__ import annotations

import pytest

from scorekeeper import codes

CODE = "ABCD0EFGH1JKMNPQ"


def test_a_new_code_is_16_characters_of_80_random_bits_and_never_repeats():
    made = {codes.new_code() for _ in range(2000)}
    assert len(made) == 2000
    assert all(len(code) == codes.LENGTH == 16 for code in made)
    assert codes.BITS == 80
    assert {c for code in made for c in code} == set(codes.ALPHABET)


def test_a_code_has_no_look_alike_characters():
    assert len(set(codes.ALPHABET)) == 32
    assert not set("ILOU") & set(codes.ALPHABET)  # 1/I/l, 0/O, and no accidental words
    assert set(codes.ALPHABET) == set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")


@pytest.mark.parametrize(
    "typed",
    [
        "ABCD0EFGH1JKMNPQ",
        "abcd0efgh1jkmnpq",
        "AbCd 0EfG H1Jk MnPq",
        "ABCD-0EFG-H1JK-MNPQ",
        "  abcd - 0efg - h1jk - mnpq  ",
        "ABCD\u00a00EFG\u2013H1JK\tMNPQ",  # a non-breaking space, an en dash, a tab
        "ABCDOEFGHIJKMNPQ",  # O typed for 0, I for 1
        "abcdoefghljkmnpq",  # o for 0, l for 1
        "http://192.168.1.20:5010/ABCD-0EFG-H1JK-MNPQ",  # the printed link, pasted
    ],
)
def test_a_code_is_read_in_any_case_with_spaces_dashes_and_look_alikes(typed):
    assert codes.normalise(typed) == CODE


@pytest.mark.parametrize(
    "typed",
    [
        "",
        "ABCD-0EFG-H1JK",
        "ABCD0EFGH1JKMNPQR",
        "ABCD0EFGH1JKMNPU",
        "ABCD_0EFG_H1JK_MNPQ",
        "ä" * 16,
    ],
)
def test_anything_else_is_not_a_code(typed):
    assert codes.normalise(typed) is None


def test_a_code_is_grouped_in_fours_for_reading_aloud_and_reads_back_the_same():
    assert codes.grouped(CODE) == "ABCD-0EFG-H1JK-MNPQ"
    assert codes.grouped(CODE, " ") == "ABCD 0EFG H1JK MNPQ"
    for code in (codes.new_code() for _ in range(50)):
        assert codes.normalise(codes.grouped(code)) == code
        assert codes.normalise(codes.grouped(code, " ").lower()) == code
