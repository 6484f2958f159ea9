"""Words picked from several: only the text shown is looked up in the catalogue.

Naming a set of 3 asks the catalogue for 'set of 3' alone, not for the name of
every size first (and the same for colours, cards, counts and notes).
"""

from __future__ import annotations

import gettext

import pytest

from scorekeeper import i18n
from scorekeeper.rules import scoring, solve, words
from scorekeeper.rules.cards import WILD, Colour, Kind, number_card
from scorekeeper.rules.house_rules import progression_note
from scorekeeper.rules.phases import RulesError, parse_layout
from scorekeeper.rules.ruleset import make_rules
from scorekeeper.rules.solve import describe_cards


class Asked(gettext.NullTranslations):
    """English that remembers every text it was asked to translate."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def gettext(self, message: str) -> str:
        self.asked.append(message)
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self.asked.append(msgid1)
        return msgid1 if n == 1 else msgid2

    def pgettext(self, context: str, message: str) -> str:
        self.asked.append(message)
        return message


def _bad_set() -> str:
    with pytest.raises(RulesError) as refused:
        parse_layout("1 set of 13")
    return str(refused.value)


@pytest.mark.parametrize(
    ("say", "said"),
    [
        (lambda: words.sets(2, 3), "2 sets of 3"),
        (lambda: words.sets(1, 9), "1 set of 9"),
        (lambda: words.runs(1, 4), "1 run of 4"),
        (lambda: words.set_name(3), "set of 3"),
        (lambda: words.run_name(12), "run of 12"),
        (lambda: words.ordinal_group(2), "the 2nd group"),
        (lambda: Colour.GREEN.word, "green"),
        (lambda: Colour.BLUE.card(7), "blue 7"),
        (lambda: Kind.SKIP.word, "Skip"),
        (lambda: Kind.WILD.count(2), "2 wilds"),
        (lambda: describe_cards([number_card(Colour.RED, 7)])[0], "a red 7"),
        (lambda: describe_cards([WILD])[0], "a Wild"),
        (lambda: solve._any_number(Colour.YELLOW, "x"), "a yellow card (any number) for x"),
        (lambda: solve._any_card(Colour.BLUE), "any blue card"),
        (lambda: scoring.count_words(3, "skips"), "3 Skips"),
        (lambda: scoring.kind_word("super_wilds"), "Super Wild"),
        (lambda: scoring._kinds_word("high"), "cards 10-12"),
        (_bad_set, "a set must hold 2 to 12 cards, not 13"),
        (
            lambda: progression_note(make_rules("masters")),
            "Masters: each hand, choose any phase you have not made yet.",
        ),
    ],
)
def test_a_text_picked_from_several_is_the_only_one_translated(say, said):
    """Naming a set of 3 looks up that one text, not the name of every size."""
    asked = Asked()
    token = i18n.activate("en", asked)
    try:
        words_said = say()
    finally:
        i18n.deactivate(token)
    assert words_said == said
    assert len(asked.asked) == 1, asked.asked
