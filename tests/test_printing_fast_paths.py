"""Shortcuts the printing takes for the letters of a long CJK name are exact for every
letter Unicode has: the ranges they skip hold nothing the long way would have found, and
a line fills as the letter-by-letter search filled it (issue 38: a night's 7,200 letters
were looked up in Unicode's tables once per line measured)."""

from __future__ import annotations

import random
import unicodedata

import pytest

from scorekeeper.i18n import has_right_to_left
from scorekeeper.printing import labels, shaping
from scorekeeper.printing.fonts import FONT, FONT_BOLD, register


def test_no_letter_between_u3000_and_ufb1c_is_written_right_to_left():
    for code in range(0x3000, 0xFB1D):
        assert unicodedata.bidirectional(chr(code)) not in ("R", "AL"), hex(code)
    assert has_right_to_left("王小明 שלום") and not has_right_to_left("王小明 한국")


def test_a_chinese_character_or_korean_syllable_never_needs_shaping():
    for start, end in ((0x3400, 0x4DC0), (0x4E00, 0xA000), (0xAC00, 0xD7A4)):
        for code in range(start, end):
            char = chr(code)
            assert shaping._plain_cjk(char)
            assert unicodedata.category(char) not in ("Mn", "Mc", "Me"), hex(code)
            assert unicodedata.name(char, "").split(" ", 1)[0] not in shaping._COMPLEX
    assert shaping.needs_shaping("王\u0301") and not shaping.needs_shaping("王小明한국")


def _filled_letter_by_letter(pieces, start, font, size, width) -> int:
    """The search ``_most_that_fit`` replaced: one part more until the line is too wide."""
    end = start
    while (
        end < len(pieces)
        and labels.line_width(labels._joined(pieces[start : end + 1]), font, size) <= width
    ):
        end += 1
    return end


NAMES = [
    "王小明李华张伟刘洋陈静杨帆赵磊黄敏周杰吴刚徐丽孙强马超朱琳胡军郭涛何平高峰林芳罗斌",
    "山田太郎さくらの花が咲くころに会いましょうカタカナ",
    "김민준 이서연 박지훈 최수아 정예준",
    "Anne-Marie de la Fontaine-Dubois Wolfeschlegelsteinhausen",
    "Ana María José García-Hernández y Pérez de Guzmán",
    "Ζωή Παπαδοπούλου-Καραγιάννη Νικολάου",
    "Приходько-Задунайська Олександра Володимирівна",
]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("font", [FONT, FONT_BOLD])
def test_a_line_takes_as_many_parts_as_fit_as_before(name, font):
    register()
    rng = random.Random(name)
    for hyphenate in (None, "en"):
        pieces = labels._pieces(name, hyphenate)
        for _ in range(40):
            size = rng.choice((7, 9, 11.5, 14))
            width = rng.uniform(10, 260)
            start = rng.randrange(len(pieces))
            assert labels._most_that_fit(pieces, start, font, size, width) == (
                _filled_letter_by_letter(pieces, start, font, size, width)
            ), (name, start, size, width)
