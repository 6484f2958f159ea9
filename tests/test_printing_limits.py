"""A score sheet at each limit its words have: the most the app lets a player give it prints
whole, and one past that is refused, not clipped (issue 39).

Each test prints one or two sheets (a second or two), so a limit that moves (a longer
translation, a larger type, a smaller box) fails here at once, not only in the slow
sweeps of every printable in every language (``test_printing_geometry``,
``test_printing_languages``).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from games import EVERY_HOUSE_RULE
from printed import words

from scorekeeper import i18n
from scorekeeper.printing import game_sheet
from scorekeeper.printing.layout import Fitted, LayoutError
from scorekeeper.printing.sheets import ScoreSheet
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.house_rules import house_rules

LANGUAGES = tuple(i18n.LANGUAGES)
VIEW_URL = "https://phase10.test/v/abcdefghijklmnop"  # a QR code: the header is narrower
# Every option changed, the Super Skip's two as well: the longest rules line there is.
EVERY_OPTION = {**EVERY_HOUSE_RULE, "super_skip_blue": "yes", "blue_skip_natural": "yes"}


def every_option_game():
    return load_game({"players": ["Ann", "Bob"], "options": EVERY_OPTION, "hands": []})


# --- the rules --------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_house_rule_fits_the_rules_box_beside_the_qr_code(language):
    """A4 is the narrower page; large print the tallest type. With every option changed, a
    game's sheet was refused in five languages ("text does not fit a 158 x 24 mm box")."""
    game = every_option_game()
    with i18n.using(language):
        last = house_rules(game.rules)[-1]
        for large in (False, True):
            said = words(game_sheet(game, view_url=VIEW_URL, pagesize="a4", large=large))
            assert " ".join(last.split()) in said


def lines(box: Fitted) -> int:
    return len(box.paragraph.blPara.lines)


@pytest.mark.parametrize(("large", "spare"), [(False, 0), (True, 1)], ids=["regular", "large"])
def test_the_rules_box_holds_the_longest_rules_line_and_refuses_a_word_more_than_it_holds(
    large, spare
):
    """As tall as the longest line needs, in regular print; in large print a line more (the
    box grows with the square of the type). Past it, LayoutError: nothing is clipped."""
    game = every_option_game()

    def header():
        sheet = ScoreSheet(game.rules, game=game, view_url=VIEW_URL, pagesize="a4", large=large)
        return sheet.header

    heights = {}
    for language in LANGUAGES:
        with i18n.using(language):
            heights[language] = header().rules_box.height
    with i18n.using(max(heights, key=heights.__getitem__)):  # the longest line there is
        longest = header()
        more = iter(longest.rules_words.split() * 2)
        words, filled = longest.rules_words, longest.rules_box
        while True:
            words = f"{words} {next(more)}"
            try:
                filled = replace(longest, rules_words=words).rules_box
            except LayoutError:
                break
    assert lines(filled) == lines(longest.rules_box) + spare
