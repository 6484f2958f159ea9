"""A score sheet at each limit its words have: the most the app lets a player give it prints
whole, and one past that is refused, not clipped (issue 39).

Each test prints one or two sheets (a second or two), so a limit that moves (a longer
translation, a larger type, a smaller box) fails here at once, not only in the slow
sweeps of every printable in every language (``test_printing_geometry``,
``test_printing_languages``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from games import EVERY_HOUSE_RULE
from geometry import problems, touching_ink
from printed import pages, words

from scorekeeper import i18n
from scorekeeper.printing import game_sheet, score_sheet
from scorekeeper.printing.layout import Fitted, LayoutError
from scorekeeper.printing.record import Played
from scorekeeper.printing.sheet_foot import legend
from scorekeeper.printing.sheet_header import SheetHeader
from scorekeeper.printing.sheet_page import LARGE_FLOOR
from scorekeeper.printing.sheets import MAX_LARGE_PLAYERS, MAX_PLAYERS, ScoreSheet
from scorekeeper.rules.game import Game
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.house_rules import house_rules
from scorekeeper.rules.names import MAX_NAME, MAX_TABLE_NAME, NameRefused, valid_name
from scorekeeper.rules.ruleset import make_rules

pytestmark = pytest.mark.printing  # prints within the limits of time, memory and requests

LANGUAGES = tuple(i18n.LANGUAGES)
VIEW_URL = "https://phase10.test/v/abcdefghijklmnop"  # a QR code: the header is narrower


CODE = "abcdefghijklmnop"
WIDEST = {"W": "W", "ideographs": "\u738b"}  # the widest Latin capital; an ideograph is 1 em


def every_option_game():
    """Every option changed (the Super Skip's two as well): the longest rules line there is."""
    return load_game({"players": ["Ann", "Bob"], "options": EVERY_HOUSE_RULE, "hands": []})


def widest_names(letter: str, count: int) -> list[str]:
    """``count`` names of the most letters a name may have, of the widest letters."""
    return [valid_name(letter * (MAX_NAME - 1) + "ABCDEF"[seat]) for seat in range(count)]


def all_tied(players: list[str]) -> Game:
    """Everyone makes every phase and all tie after ten hands: the sentence under the title
    names every player, as a tiebreak for them all."""
    hands = [
        {"went_out": out, "made": players, "points": {p: 5 for p in players if p != out}}
        for out in (players[number % len(players)] for number in range(10))
    ]
    for seat in range(10 % len(players)):  # out once more than the others: 5 points more
        player = players[seat]
        hand = next(h for h in hands if h["went_out"] != player and h["points"][player] == 5)
        hand["points"][player] = 10
    return load_game({"players": players, "hands": hands})


def longest_facts() -> Played:
    """The longest 'Played on ...': a long date, zone and length, a table of 60 W's."""
    started = datetime(2026, 9, 30, 23, 59, tzinfo=ZoneInfo("America/Argentina/ComodRivadavia"))
    return Played(started, 599, valid_name("W" * MAX_TABLE_NAME, MAX_TABLE_NAME))


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


def filled(box: Callable[[str], Fitted], words: str) -> Fitted:
    """``box`` with ``words`` and as many more as it holds (the same words again): the next
    one is refused (``LayoutError``)."""
    more = iter(words.split() * 2)
    last = box(words)
    while True:
        words = f"{words} {next(more)}"
        try:
            last = box(words)
        except LayoutError:
            return last


@pytest.mark.parametrize(("large", "spare"), [(False, 0), (True, 1)], ids=["regular", "large"])
def test_the_rules_box_holds_the_longest_rules_line_and_refuses_a_word_more_than_it_holds(
    large, spare
):
    """As tall as the longest line needs, in regular print; in large print a line more (the
    box grows with the square of the type). Past it, LayoutError: nothing is clipped."""
    game = every_option_game()

    def header() -> SheetHeader:
        sheet = ScoreSheet(game.rules, game=game, view_url=VIEW_URL, pagesize="a4", large=large)
        return sheet.header

    heights = {}
    for language in LANGUAGES:
        with i18n.using(language):
            heights[language] = header().rules_box.height
    with i18n.using(max(heights, key=heights.__getitem__)):  # the longest line there is
        longest = header()
        full = filled(
            lambda words: replace(longest, rules_words=words).rules_box, longest.rules_words
        )
    assert lines(full) == lines(longest.rules_box) + spare


# --- the legend ---------------------------------------------------------------------------

# Each legend there is: how the game is won and how a tie is played off differ.
LEGENDS = {
    "official": make_rules(),
    "ten hands": make_rules("ten-hands"),
    "lowest total wins": make_rules("official", {"winner": "lowest"}),
    "own last phase": make_rules("official", {"tiebreak": "own-phase"}),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_legend_prints_in_its_box_in_regular_and_large_print(language):
    with i18n.using(language):
        longest = max(LEGENDS.values(), key=lambda rules: len(legend(rules)))
        for rules in LEGENDS.values():
            for large in (False, True):
                ScoreSheet(rules, pagesize="a4", large=large).foot.legend_box  # noqa: B018
        for large in (False, True):
            said = words(score_sheet(longest, pagesize="a4", large=large))
            assert " ".join(legend(longest).split()[-6:]) in said


@pytest.mark.parametrize(("large", "spare"), [(False, 0), (True, 1)], ids=["regular", "large"])
def test_the_legend_box_holds_the_longest_legend_and_refuses_a_word_more_than_it_holds(
    large, spare
):
    feet = []
    for language in LANGUAGES:
        with i18n.using(language):
            feet += [
                (language, ScoreSheet(rules, pagesize="a4", large=large).foot)
                for rules in LEGENDS.values()
            ]
    language, longest = max(feet, key=lambda found: found[1].legend_box.height)
    with i18n.using(language):
        full = filled(
            lambda words: replace(longest, legend_words=words).legend_box, longest.legend_words
        )
    assert lines(full) == lines(longest.legend_box) + spare


# --- the names: title, sentence, columns, and the table's name ----------------------------


@pytest.mark.parametrize("pagesize", ["a4", "letter"])
@pytest.mark.parametrize("letter", WIDEST)
@pytest.mark.parametrize("language", LANGUAGES)
def test_six_names_of_forty_of_the_widest_letters_print_whole(language, letter, pagesize):
    """In the title, in the sentence of a tiebreak for all six, over their columns, and a
    table of 60 of them in when and where the game was played, beside the QR code: the title
    and the sentence were cut ("WWW…"), and a table's name in large print."""
    game = all_tied(widest_names(WIDEST[letter], MAX_PLAYERS))
    with i18n.using(language):
        data = game_sheet(
            game, view_url=VIEW_URL, code=CODE, pagesize=pagesize, played=longest_facts()
        )
    assert "\u2026" not in words(data)


@pytest.mark.parametrize("pagesize", ["a4", "letter"])
def test_in_large_print_the_widest_names_and_table_take_more_lines_not_a_cut(pagesize):
    """The header's words alone: with four such names, their tiebreak, the table and the QR
    code they take more lines, never a cut (the hands then start on the next page)."""
    for language in LANGUAGES:
        for letter in WIDEST.values():
            game = all_tied(widest_names(letter, MAX_LARGE_PLAYERS))
            with i18n.using(language):
                header = large_header(game, pagesize)
                assert not header.title_label.cut
                assert not header.summary("Page 99 of 99.").cut
                assert header.facts is not None and not header.facts.cut


BIDI = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069\u200b"))


def read_whole(name: str, said: str) -> bool:
    """``name`` in ``said``, read across the lines it was wrapped on."""
    return "".join(name.split()) in "".join(said.translate(BIDI).split())


def printed_whole_in_large_print(game: Game, pagesize: str, played: Played | None) -> bytes:
    """Printed (not refused) on two pages, the top too tall for the hands continuing on the
    next, every name read back whole and nothing cut short."""
    data = game_sheet(
        game,
        view_url=VIEW_URL,
        code=CODE,
        pagesize=pagesize,
        large=True,
        **({"played": played} if played else {}),
    )
    said = words(data)
    assert all(read_whole(name, said) for name in game.players), said
    assert "\u2026" not in said
    assert pages(data) == 2 and "Page 2 of 2." in said
    return data


@pytest.mark.parametrize("pagesize", ["a4", "letter"])
@pytest.mark.parametrize("letter", WIDEST)
def test_four_of_the_widest_names_print_in_large_print(letter, pagesize):
    """Four names of 40 of the widest letters, tied after ten hands (the sentence names them
    all), with and without the longest time zone and a table of 60 W's: large print
    refused them all ("no room for the hands on this page", issue 42); the names and the
    game's details now fill the first page and the hands the next."""
    game = all_tied(widest_names(WIDEST[letter], MAX_LARGE_PLAYERS))
    for played in (None, longest_facts()):
        data = printed_whole_in_large_print(game, pagesize, played)
        assert problems(data, LARGE_FLOOR) == []  # nothing overlaps, crosses a rule, under 14 pt


# Six scripts whose letters reach far above or below the line, names of up to 40 letters.
SIX_SCRIPTS = ("කුමාරි", "བསྟན་འཛིན", "王小明", "عَلِيّ", "အောင်ဆန်း", "प्रिया")


def long_name(word: str) -> str:
    """``word`` said as often as a name of at most 40 letters holds it."""
    name = word
    while len(f"{name} {word}") <= MAX_NAME:
        name = f"{name} {word}"
    return valid_name(name)


@pytest.mark.parametrize("pagesize", ["a4", "letter"])
def test_long_names_in_six_scripts_print_in_large_print(pagesize):
    """Large print holds four players: the first four of the six, then the last four, and
    the Sinhala, Tibetan and Chinese three of issue 42 (refused, as for phases on cards)."""
    names = [long_name(word) for word in SIX_SCRIPTS]
    for players in (names[:4], names[2:], names[:3]):
        printed_whole_in_large_print(all_tied(players), pagesize, longest_facts())


@pytest.mark.parametrize("pagesize", ["a4", "letter"])
def test_lines_of_letters_that_reach_far_are_spaced_by_their_fonts_ink(pagesize):
    """A Sinhala vowel under one line touched a Tibetan vowel over the next, a Myanmar
    letter the line under it (issue 42, 8): lines were 1.2 ems apart whatever the font.
    Each glyph's box, from its font, placed where the PDF puts it, clears the next line's
    and every rule. (Arabic is left out: its joined letters are not their plain forms.)"""
    players = [long_name(SIX_SCRIPTS[seat]) for seat in (0, 1, 2, 4)]
    data = printed_whole_in_large_print(all_tied(players), pagesize, longest_facts())
    assert touching_ink(data) == []


def large_header(game: Game, pagesize: str) -> SheetHeader:
    sheet = ScoreSheet(
        game.rules,
        game=game,
        title=f"Phase 10: {', '.join(game.players)}",
        view_url=VIEW_URL,
        pagesize=pagesize,
        large=True,
        played=longest_facts(),
    )
    return sheet.header


def test_one_name_more_than_the_title_the_sentence_or_the_facts_hold_is_cut_visibly():
    """Past their most lines a title, the sentence and the facts are cut with "…" (which the
    geometry check flags): the most lines are what the widest names need, not more."""
    game = all_tied(widest_names("W", MAX_LARGE_PLAYERS))
    one_more = "W" * MAX_NAME
    with i18n.using("pl"):  # the longest words for the widest names in large print
        header = large_header(game, "letter")
        assert replace(header, title=f"{header.title}, {one_more}").title_label.cut
        assert header.record is not None and header.played is not None
        record = replace(header.record, summary=f"{header.record.summary} {one_more}")
        assert replace(header, record=record).summary("Page 99 of 99.", height=10_000).cut
        played = replace(header.played, table=f"{header.played.table} {one_more}")
        facts = replace(header, played=played).facts
        assert facts is not None and facts.cut


def test_a_name_three_names_long_is_cut_over_the_narrowest_column():
    """Over a column of six on A4 the widest name takes its lines whole; one three times as
    long is past the most a name row holds, and is cut visibly. (Twice as long fits since a
    word too long for its line breaks between two letters without a hyphen: issue 42.)"""
    names = widest_names("W", MAX_PLAYERS)
    table = ScoreSheet(make_rules(), players=names, pagesize="a4").table
    assert not table.name_label(names[0]).cut
    assert table.name_label(" ".join(names[:3])).cut


def test_one_letter_one_player_or_one_table_letter_more_is_refused_before_paper():
    """What the limits above are measured against: the app refuses anything longer."""
    with pytest.raises(NameRefused):
        valid_name("W" * (MAX_NAME + 1))
    with pytest.raises(NameRefused):
        valid_name("W" * (MAX_TABLE_NAME + 1), MAX_TABLE_NAME)
    with pytest.raises(ValueError, match=f"at most {MAX_PLAYERS} players"):
        score_sheet(make_rules(), players=widest_names("W", MAX_PLAYERS) + ["Ann"])
    with pytest.raises(ValueError, match=f"at most {MAX_LARGE_PLAYERS} players"):
        score_sheet(make_rules(), players=widest_names("W", MAX_LARGE_PLAYERS + 1), large=True)
