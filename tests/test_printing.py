"""The printables: what they say, that nothing is clipped, and that they are reproducible."""

from __future__ import annotations

import re
import subprocess
import unicodedata
from io import BytesIO
from pathlib import Path

import pytest
from games import EVERY_HOUSE_RULE, tied
from printed import (
    assert_cards_unclipped,
    folds,
    overlapping,
    pages,
    qr_codes,
    undrawn,
    word_boxes,
    words,
)
from pypdf import PdfReader
from reportlab.lib.units import mm
from tools import missing, require

from scorekeeper import actions, i18n, store
from scorekeeper.printing import (
    STANDARD_SET,
    cjk,
    deck_guide,
    fonts,
    game_sheet,
    reference_cards,
    score_sheet,
    sheet_page,
    write_standard_set,
)
from scorekeeper.printing import cards as card_layout
from scorekeeper.printing import sheets as sheet_layout
from scorekeeper.printing.guide import two_deck_count
from scorekeeper.printing.layout import escape, page_size, plain
from scorekeeper.printing.qr import error_correction, qr_matrix
from scorekeeper.rules.game import Game, HandRecord
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.replay import played_hands, replay, replay_from
from scorekeeper.rules.ruleset import make_rules

pytestmark = pytest.mark.printing  # builds every printable and reads it back

PRINTABLES = Path(__file__).resolve().parents[1] / "printables"
HOSTILE = '<b>Ann & "Bob"</b>'
# RULES.md 3, in the words the app prints ("one colour" for the rules' "1 colour").
OFFICIAL = [
    "2 sets of 3",
    "1 set of 3 + 1 run of 4",
    "1 set of 4 + 1 run of 4",
    "1 run of 7",
    "1 run of 8",
    "1 run of 9",
    "2 sets of 4",
    "7 cards of one colour",
    "1 set of 5 + 1 set of 2",
    "1 set of 5 + 1 set of 3",
]
PLUS_TEN = [
    "4 sets of 2",
    "1 set of 4 + 1 run of 5",
    "1 set of 5 + 1 run of 5",
    "1 run of 4 + 4 cards of one colour",
    "1 run of 5 + 4 cards of one colour",
    "1 run of 10",
    "1 set of 4 + 1 set of 5",
    "9 cards of one colour",
    "1 set of 6 + 1 set of 2",
    "1 set of 6 + 1 set of 3",
]


@pytest.fixture
def cjk_font() -> None:
    """Debian's fonts-noto-cjk, in which Chinese, Japanese and Korean names print."""
    if not cjk.installed():
        missing("fonts-noto-cjk is not installed (./scripts/test installs it)")


@pytest.fixture
def game_rules():
    return make_rules("plus10", {"wild_points": "20", "going_out": "discard"})


# --- phase reference cards ----------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "phases"),
    [
        ("official", list(enumerate(OFFICIAL, 1))),
        ("plus10", list(enumerate(OFFICIAL + PLUS_TEN, 1))),
        ("even", [(n, OFFICIAL[n - 1]) for n in (2, 4, 6, 8, 10)]),
    ],
)
def test_a_reference_card_lists_each_phase_of_its_profile_by_number(profile, phases):
    text = words(reference_cards(make_rules(profile)))
    for number, phase in phases:
        assert f"{number}. {phase}" in text  # the number set apart from the phase


def test_the_even_phases_card_leaves_out_the_odd_phases():
    text = words(reference_cards(make_rules("even")))
    for phase in ("2 sets of 3", "1 run of 8", "1 set of 5 + 1 set of 2"):
        assert phase not in text


def test_the_super_wild_card_gives_phase_7_three_ways_and_lets_a_skip_be_blue():
    text = words(reference_cards(make_rules("super-wild")))
    assert "7. 2 sets of 4 OR 3 sets of 3 OR 5 sets of 2" in text
    assert "8. 7 cards of one colour (a Skip may count as a blue card)" in text
    assert "Super Wild 50" in text and "Super Skip 25" in text


def test_a_reference_card_explains_groups_wild_skip_and_points():
    text = words(reference_cards(make_rules()))
    for name in ("Set:", "Run:", "Colour group:", "Wild:", "Skip:"):
        assert name in text
    assert "12 is never followed by 1" in text  # RULES.md 4: no wrap
    assert "red, blue, green or yellow" in text  # colours named in words, not ink
    for cards, points in (("1 to 9", 5), ("10, 11, 12", 10), ("Skip", 15), ("Wild", 25)):
        assert f"{cards} {points}" in text


def test_a_house_rule_for_wild_points_reaches_the_card():
    assert "Wild 20" in words(reference_cards(make_rules("official", {"wild_points": "20"})))


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"natural": "phase"}, "each phase needs at least one card that is not a Wild"),
        ({}, "each group needs at least one card that is not a Wild"),
        ({"going_out": "discard"}, "Going out: only by discarding your last card"),
        ({"skip_out": "draw"}, "Last card a Skip: you may not go out on it"),
    ],
)
def test_the_card_back_follows_the_games_house_rules(options, said):
    assert said in words(reference_cards(make_rules("official", options)))


def test_a_card_with_every_house_rule_carries_on_to_a_second_pair(tmp_path):
    rules = make_rules("official", EVERY_HOUSE_RULE)
    data = reference_cards(rules)
    text = words(data)
    assert "Phase 10 + 10, even only" in text
    assert "The game ends when someone has made 4 phases" in text
    assert "2. 1 set of 3 + 1 run of 4" in text and "8. 7 cards of one colour" in text
    assert "Super Wild 50" in text
    assert_cards_unclipped(data, tmp_path)


def test_a_custom_phase_list_prints_under_its_own_heading():
    rules = make_rules("official", {"custom_phases": "run of 3 + 3 of one colour; 2 runs of 4"})
    text = words(reference_cards(rules))
    assert "Our own phases" in text
    assert "1. 1 run of 3 + 3 cards of one colour" in text
    assert "2. 2 runs of 4" in text


def test_thirty_long_custom_phases_carry_on_to_more_faces_instead_of_shrinking(tmp_path):
    phase = "set of 3 + run of 4 + 5 of one colour or 3 sets of 3 or 2 runs of 5"
    rules = make_rules("official", {"custom_phases": "; ".join([phase] * 30)})
    data = reference_cards(rules)
    text = words(data)
    for number in range(1, 31):
        assert f"{number}. 1 set of 3 + 1 run of 4" in text
    assert "PHASES 6 TO 10" in text and "PHASES 26 TO 30" in text  # not "phase ten goes on"
    assert_cards_unclipped(data, tmp_path)


def test_reference_cards_are_poker_size_four_pairs_to_a_landscape_page():
    assert card_layout.CARD_WIDTH == pytest.approx(63 * mm)
    assert card_layout.CARD_HEIGHT == pytest.approx(88 * mm)
    for size in ("letter", "a4"):
        width, height = page_size(size, turned=True)
        assert 2 * card_layout.PAIR_WIDTH < width - 20 * mm
        assert 2 * card_layout.CARD_HEIGHT < height - 20 * mm
    reader = PdfReader(BytesIO(reference_cards(make_rules(), copies=6)))
    assert len(reader.pages) == 2  # six players: two pages of four pairs
    box = reader.pages[0].mediabox
    assert box.width > box.height


@pytest.mark.parametrize("profile", ["official", "plus10", "even", "super-wild"])
def test_no_reference_card_text_is_clipped_or_overlapping(profile, tmp_path):
    assert_cards_unclipped(reference_cards(make_rules(profile)), tmp_path)


# --- score sheets ----------------------------------------------------------------------


def test_a_game_sheet_prints_the_players_title_rules_and_house_rules(game_rules):
    data = score_sheet(game_rules, players=["Ann", "Raj", "Zoë"], title="Friday at Gran's")
    text = words(data)
    for name in ("Ann", "Raj", "Zoë", "Friday at Gran's"):
        assert name in text
    assert "Rules: Phase 10 + 10." in text
    assert "A Wild left in hand scores 20" in text
    assert "You must discard to go out" in text
    assert "Wild 20" in text  # the points strip follows the house rule
    assert text.count("Phase Points Total") == 3  # a column group per player


@pytest.mark.parametrize(("players", "columns", "expected"), [(2, None, 2), (3, 5, 5), (0, 4, 4)])
def test_a_sheet_has_a_column_group_per_player_or_as_many_as_asked(players, columns, expected):
    names = ["Ann", "Bo", "Cy"][:players]
    data = score_sheet(make_rules(), players=names, player_columns=columns)
    # five or six columns are too narrow for the words at 9 pt: their short forms
    headings = "Ph. Pts Tot." if expected > 4 else "Phase Points Total"
    assert words(data).count(headings) == expected


def test_a_hostile_player_name_prints_literally_not_as_markup(tmp_path):
    data = score_sheet(make_rules(), players=[HOSTILE, "&amp; Co"], title=HOSTILE)
    text = words(data)
    assert text.count(HOSTILE) == 2  # the title and the column
    assert "&amp; Co" in text
    assert escape(HOSTILE) == "&lt;b&gt;Ann &amp; &quot;Bob&quot;&lt;/b&gt;"


def test_names_in_any_script_print_as_written_and_unknown_letters_never_as_boxes(cjk_font):
    for name in ("Łukasz Şahin", "Zoë Ødegård", "Δήμητρα", "Дмитрий", "李雷", "דוד", "محمد"):
        assert plain(name) == name
    assert plain("\U0001d11e") == "\U0001d11e"  # a musical clef, in Symbola
    assert plain("Ann \U0001fae0") == "Ann \U0001fae0"  # an emoji of 2021, in Noto Emoji
    # A letter no font has: its code point, never a black box or "?"
    letter = undrawn()
    assert plain(f"Ann {letter}") == f"Ann [U+{ord(letter):04X}]"


def test_a_blank_sheet_has_six_columns_and_rows_for_a_long_game():
    text = words(score_sheet(make_rules()))
    assert text.count("Name") == 6
    assert text.count("Ph. Pts Tot.") == 6  # the short forms: a 9 pt floor in narrow columns
    assert "Date" in text
    for number, phase in enumerate(OFFICIAL, 1):
        assert f"{number}. {phase}" in text  # the phase list in the margin
    for cards, points in (("1 to 9", 5), ("10, 11, 12", 10), ("Skip", 15), ("Wild", 25)):
        assert f"{cards} {points}" in text


@pytest.mark.parametrize("size", ["letter", "a4"])
def test_a_blank_sheet_fits_enough_hands(size):
    sheet = sheet_layout.ScoreSheet(make_rules(), pagesize=size)
    data = sheet.build()
    assert pages(data) == 1
    hands = " ".join(str(n) for n in range(1, 26))
    assert f"Tot. Carried {hands}" in words(data)  # a carried row, then 25 hands or more


def test_a_ten_hands_sheet_labels_each_hand_with_its_phase():
    text = words(score_sheet(make_rules("ten-hands"), players=["Ann", "Bo"]))
    for number, phase in enumerate(OFFICIAL, 1):
        assert f"{number} Phase {number} {phase}" in text
    assert "the lowest total wins" in text
    assert "an exact tie is a tie" in text


def test_a_sheet_refuses_more_than_six_players_or_too_few_columns():
    with pytest.raises(ValueError, match="at most 6"):
        score_sheet(make_rules(), players=list("ABCDEFG"))
    with pytest.raises(ValueError, match="2 to 6"):
        score_sheet(make_rules(), player_columns=7)
    with pytest.raises(ValueError, match="3 players need 3 columns"):
        score_sheet(make_rules(), players=["A", "B", "C"], player_columns=2)


def test_a_sheet_refuses_an_unknown_page_size():
    with pytest.raises(ValueError, match="letter or a4"):
        score_sheet(make_rules(), pagesize="legal")


@pytest.mark.parametrize(
    ("rules", "kwargs"),
    [
        (make_rules(), {}),
        (make_rules("ten-hands"), {"pagesize": "a4"}),
        (
            make_rules("official", EVERY_HOUSE_RULE),
            {
                "players": [HOSTILE, "Bartholomew-Maximilian von Longname", "W" * 60, "Zoë"],
                "title": "A very long title " * 8,
                "view_url": "https://example.org/games/42/view?" + "k" * 300,
            },
        ),
    ],
    ids=["blank", "ten-hands", "long-names"],
)
def test_no_sheet_text_is_clipped_or_overlapping(rules, kwargs, tmp_path):
    data = score_sheet(rules, **kwargs)
    width, height = page_size(kwargs.get("pagesize", "letter"))
    margin = sheet_page.MARGIN - 0.5
    for page in word_boxes(data, tmp_path):
        for x0, y0, x1, y1, word in page:
            assert margin <= x0 and x1 <= width - margin, f"{word!r} runs off the side"
            assert margin - 2 <= y0 and y1 <= height - margin + 2, f"{word!r} runs off the page"
        assert overlapping(page) == []


def test_a_name_too_long_for_its_column_is_printed_whole_over_more_lines():
    """Issue 30: never cut with "…"; a word no dictionary hyphenates breaks between two
    letters, without a hyphen (issue 42), so it reads back whole but for the line breaks."""
    text = words(score_sheet(make_rules(), players=["W" * 60, "Bo"], title="T" * 300))
    assert "\u2026" not in text and "-" not in text
    whole = "".join(text.split())
    assert "W" * 60 in whole and "W" * 61 not in whole and "T" * 300 in whole


def test_a_sheet_lists_every_house_rule_in_words():
    text = words(score_sheet(make_rules("official", EVERY_HOUSE_RULE)))
    for said in (
        "Rules: Official rules. House rules: Phase 10 + 10: twenty phases.",
        "Masters: each hand, choose any phase you have not made yet.",
        "A Wild left in hand scores 20.",
        "hearts = blue, diamonds = green, clubs = red, spades = yellow.",
    ):
        assert said in text
    assert ".." not in text


# --- the QR code ------------------------------------------------------------------


@pytest.mark.parametrize(("length", "level"), [(20, "H"), (60, "Q"), (120, "M"), (400, "L")])
def test_shorter_links_get_more_error_correction(length, level):
    from qrcode import constants

    assert error_correction("x" * length) == getattr(constants, f"ERROR_CORRECT_{level}")


def test_the_qr_code_is_drawn_as_vectors_not_an_image():
    data = score_sheet(make_rules(), players=["A", "B"], view_url="https://example.org/g/1")
    page = PdfReader(BytesIO(data)).pages[0]
    assert not page.images
    assert len(qr_matrix("https://example.org/g/1")) >= 21


@pytest.mark.parametrize(
    "view_url",
    [
        "http://192.168.1.20:5000/games/7",
        "https://scores.example.org/games/1234/view?key=Zq8u2WfP0xkT3mR9c_vLh-Ya&t=1",
    ],
)
def test_the_game_sheet_qr_code_opens_the_view_link(view_url, tmp_path):
    data = score_sheet(make_rules(), players=["Ann", "Bo"], view_url=view_url)
    assert qr_codes(data, tmp_path) == [view_url]
    assert view_url in words(data)  # also printed for anyone without a camera


# --- the two-deck guide --------------------------------------------------------------


def test_two_decks_with_jokers_make_108_cards():
    count = two_deck_count()
    assert (count.numbers, count.wilds, count.skips, count.total) == (96, 8, 4, 108)


def test_the_guide_shows_the_card_mapping_the_count_and_the_points():
    data = deck_guide(make_rules())
    text = words(data)
    assert pages(data) == 1
    for line in ("Ace 1 5", "Jack 11 10", "Queen 12 10", "King Wild 25", "Joker Skip 15"):
        assert line in text
    assert "Ace to Queen: 12 ranks × 4 suits × 2 decks 96" in text
    assert "Kings: 4 per deck × 2 decks 8 Wilds" in text
    assert "Jokers: 2 per deck × 2 decks 4 Skips" in text
    assert "numbers 1–12: 12 × 4 colours × 2" in text  # issue 30: every factor, × and –
    assert "Total 108" in text


def test_the_guide_prints_the_default_suit_colours_in_words_and_letters():
    text = words(deck_guide(make_rules()))
    assert "Colour (the default)" in text
    for suit, colour, letter in (
        ("Hearts", "red", "R"),
        ("Diamonds", "yellow", "Y"),
        ("Clubs", "green", "G"),
        ("Spades", "blue", "B"),
    ):
        assert f"{colour} ({letter})" in text
        assert f"7 of {suit.lower()} = {colour} 7" in text


def test_the_guide_prints_a_games_own_suit_mapping_and_super_cards():
    rules = make_rules("super-wild", {"suits": "H=B,D=G,C=R,S=Y", "wild_points": "20"})
    text = words(deck_guide(rules, pagesize="a4"))
    assert "Colour (this game's choice)" in text
    assert "7 of hearts = blue 7" in text and "7 of spades = yellow 7" in text
    assert "King Wild 20" in text
    assert "The marked King Super Wild 50" in text


@pytest.mark.parametrize("size", ["letter", "a4"])
def test_a_guide_printed_from_the_app_opens_the_app_by_its_code_and_its_link(size, tmp_path):
    app_url = "http://192.168.1.20:5010/"
    data = deck_guide(make_rules(), pagesize=size, app_url=app_url)
    assert pages(data) == 1
    assert qr_codes(data, tmp_path) == [app_url]
    text = words(data)
    assert f"Keep score on your phones: scan the code, or open {app_url}" in text
    assert "Scan to keep score" in text


def test_the_guide_built_without_a_server_says_where_to_print_one_with_a_code(tmp_path):
    data = deck_guide(make_rules())
    assert qr_codes(data, tmp_path) == []  # no address is known: no code to a wrong one
    text = words(data)
    assert "print this guide from its Print for the table page" in text
    assert "your copy will carry a code that opens the scorekeeper" in text


def test_a_games_own_guide_opens_the_game_not_the_app(tmp_path):
    view_url = "http://192.168.1.20:5010/v/AbCdEfGhIjKlMnOpQrStUv"
    data = deck_guide(make_rules(), view_url=view_url, app_url="http://192.168.1.20:5010/")
    assert qr_codes(data, tmp_path) == [view_url]
    assert "Scan for this game" in words(data)


VIEW = "http://192.168.1.20:5010/v/g0plOYlSOpy2OZGv_wCYYQ"
CODE = "ABCD0EFGH1JKMNPQ"


@pytest.mark.parametrize("build", [game_sheet, deck_guide], ids=["sheet", "guide"])
def test_the_link_to_read_aloud_is_the_apps_address_and_the_code_in_groups(build, tmp_path):
    """The QR code keeps the watch link; under it, a link a family can read over the phone."""
    game = load_game({"players": ["Ann", "Bo"], "hands": []})
    target = game if build is game_sheet else game.rules
    data = build(target, view_url=VIEW, code=CODE)
    text = words(data)
    assert "http://192.168.1.20:5010/ABCD-0EFG-H1JK-MNPQ" in text.replace(" ", "")
    assert "g0plOYlS" not in text  # nothing case-sensitive left to read out
    assert qr_codes(data, tmp_path) == [VIEW]
    without = words(build(target, view_url=VIEW))
    assert VIEW in without.replace(" ", "")  # no code: the watch link itself


def test_a_games_own_guide_prints_its_link(tmp_path):
    data = deck_guide(make_rules(), view_url=VIEW)
    assert VIEW in words(data).replace(" ", "")


def test_the_guide_is_centred_its_tables_as_wide_as_its_text():
    import pdfplumber

    with pdfplumber.open(BytesIO(deck_guide(make_rules(), pagesize="a4"))) as pdf:
        page = pdf.pages[0]
        left = min(line["x0"] for line in page.lines)  # the tables' rules
        right = page.width - max(line["x1"] for line in page.lines)
        text_left = min(char["x0"] for char in page.chars)
    assert left == pytest.approx(13 * mm, abs=1) and right == pytest.approx(13 * mm, abs=1)
    assert text_left == pytest.approx(left, abs=1)


@pytest.mark.parametrize(("name", "build"), STANDARD_SET, ids=[n for n, _ in STANDARD_SET])
def test_every_pdf_says_its_language_and_declares_only_the_fonts_it_embeds(name, build):
    for language in ("en", "de"):
        with i18n.using(language):
            data = build()
        reader = PdfReader(BytesIO(data))
        assert reader.trailer["/Root"]["/Lang"] == language
        assert b"Helvetica" not in data, name


def test_the_standard_set_can_be_built_with_a_configured_address(tmp_path):
    """For a club that keeps the app at a fixed address: the guide's code opens it."""
    app_url = "https://phase10.example.org/"
    written = write_standard_set(tmp_path / "set", app_url=app_url)
    guide = next(path for path in written if path.name == "two-deck-guide-a4.pdf")
    assert qr_codes(guide.read_bytes(), tmp_path) == [app_url]
    sheet = next(path for path in written if path.name == "score-sheet-a4.pdf")
    assert sheet.read_bytes() == (PRINTABLES / "score-sheet-a4.pdf").read_bytes()


# --- reproducible output -------------------------------------------------------------


@pytest.mark.parametrize(
    "build",
    [
        lambda: score_sheet(make_rules(), players=["Ann", "Bo"], view_url="https://e.org/g/1"),
        lambda: reference_cards(make_rules("super-wild"), pagesize="a4"),
        lambda: deck_guide(make_rules()),
    ],
    ids=["sheet", "cards", "guide"],
)
def test_the_same_input_gives_the_same_bytes(build):
    assert build() == build()


def test_every_standard_printable_is_one_page():
    for name, build in STANDARD_SET:
        assert pages(build()) == 1, name


def test_the_standard_set_has_every_printable_in_both_page_sizes():
    names = {name for name, _ in STANDARD_SET}
    stems = (
        "score-sheet",
        "score-sheet-large",
        "score-sheet-ten-hands",
        "phase-cards-official",
        "phase-cards-plus10",
        "phase-cards-even",
        "phase-cards-super-wild",
        "phase-cards-masters",
        "phase-cards-mixed-up",
        "two-deck-guide",
    )
    for stem in stems:
        assert {f"{stem}-letter.pdf", f"{stem}-a4.pdf"} <= names
    assert len(names) == 2 * len(stems)


def test_the_english_set_is_the_same_whatever_language_is_spoken(tmp_path):
    with i18n.using("de"):
        written = write_standard_set(tmp_path, "en")
    guide = next(path for path in written if path.name == "two-deck-guide-a4.pdf")
    assert guide.read_bytes() == (PRINTABLES / "two-deck-guide-a4.pdf").read_bytes()


def test_printables_folder_is_not_stale(tmp_path):
    fresh = {path.name: path.read_bytes() for path in write_standard_set(tmp_path)}
    committed = {path.name: path.read_bytes() for path in PRINTABLES.glob("*.pdf")}
    hint = "printables/ is stale: run `scorekeeper printables --lang en --out printables/`"
    assert sorted(committed) == sorted(fresh), hint
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert stale == [], f"{hint} (differs: {', '.join(stale)})"


# --- measured from the PDFs themselves ------------------------------------------------

# Short labels that may be smaller than the 9 pt rules text (headings over columns and
# sections, and the label at the top of a card face).
LABELS = {
    "PHASE 10",
    "PHASES 11 TO 20",
    "NOTES",
    "MASTERS",
    "MIXED-UP MASTERS",
    "MY ORDER OF THE PHASES",
    "1 2 3 4 5 6 7 8 9 10",
    "GROUPS",
    "WILD AND SKIP",
    "POINTS LEFT IN HAND",
    "Name",
    "Hand",
    "Hand and phase",
    "Dealer",
    "Phase",
    "Points",
    "Total",
}


def font_sizes(data: bytes) -> list[tuple[float, str]]:
    """(size in points, text) for every run of text, as drawn on the page."""
    found: list[tuple[float, str]] = []
    for page in PdfReader(BytesIO(data)).pages:

        def visit(text, cm, tm, font, size):
            if text.strip():
                found.append((size * abs(tm[3] or 1) * abs(cm[3] or 1), text.strip()))

        page.extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize(("name", "build"), STANDARD_SET, ids=[n for n, _ in STANDARD_SET])
def test_rules_text_is_at_least_9_pt_and_only_labels_are_smaller(name, build):
    sizes = font_sizes(build())
    assert sizes, name
    small = {word for size, text in sizes if size < 9 - 0.01 for word in text.split()}
    allowed = {word for label in LABELS for word in label.split()}
    assert small <= allowed, f"{name}: smaller than 9 pt: {sorted(small - allowed)}"
    assert min(size for size, _ in sizes) >= 6.5  # labels shrink to fit six players


def ink_box(data: bytes, tmp_path: Path, dpi: int = 50) -> tuple[float, ...]:
    """Distances in mm from the left, top, right and bottom edges to the nearest ink."""
    require("pdftoppm")
    source = tmp_path / "page.pdf"
    source.write_bytes(data)
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-gray", "-singlefile", str(source), str(tmp_path / "page")],
        check=True,
    )
    image = (tmp_path / "page.pgm").read_bytes()
    magic, width, height, maxval, pixels = image.split(maxsplit=4)
    assert magic == b"P5" and maxval == b"255"
    width, height = int(width), int(height)
    rows = [pixels[y * width : (y + 1) * width] for y in range(height)]
    inked = [y for y, row in enumerate(rows) if min(row) < 200]
    columns = [
        x for x in range(width) if any(row[x] < 200 for row in rows[inked[0] : inked[-1] + 1])
    ]
    px = 25.4 / dpi
    return (
        columns[0] * px,
        inked[0] * px,
        (width - 1 - columns[-1]) * px,
        (height - 1 - inked[-1]) * px,
    )


@pytest.mark.parametrize(("name", "build"), STANDARD_SET, ids=[n for n, _ in STANDARD_SET])
def test_everything_prints_at_least_6_mm_inside_the_page_edge(name, build, tmp_path):
    sides = ("left", "top", "right", "bottom")
    for side, gap in zip(sides, ink_box(build(), tmp_path), strict=True):
        assert gap >= 6, f"{name}: ink {gap:.1f} mm from the {side} edge"


@pytest.mark.parametrize("name", [n for n, _ in STANDARD_SET if n.startswith("phase-cards")])
def test_phase_cards_are_63_by_88_mm_as_drawn(name):
    """Four fold pairs to a page, cut 126 by 88 mm (the TrimBox: nothing is drawn on the
    cut, issue 42), each folded down its middle: front and back 63 mm each."""
    page = PdfReader(BytesIO(dict(STANDARD_SET)[name]())).pages[0]
    left, bottom, right, top = (float(value) for value in page["/TrimBox"])
    assert right - left == pytest.approx(2 * 2 * 63 * mm, abs=0.01)
    assert top - bottom == pytest.approx(2 * 88 * mm, abs=0.01)
    found = sorted(folds(page))
    assert len(found) == 4  # four fold pairs to a page
    corners = sorted(
        (left + column * 2 * 63 * mm + 63 * mm, bottom + row * 88 * mm)
        for column in (0, 1)
        for row in (0, 1)
    )
    assert found == [pytest.approx(corner, abs=0.01) for corner in corners]


def test_cards_ask_viewers_to_print_at_actual_size_and_show_a_50_mm_bar():
    data = reference_cards(make_rules(), pagesize="a4")
    reader = PdfReader(BytesIO(data))
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    assert "this bar is 50 mm long" in words(data)
    assert card_layout.CHECK_BAR == pytest.approx(50 * mm)


# --- a game's sheet as its record ------------------------------------------------------

FOUR_SCRIPTS = ["Zoë", "Δήμητρα", "Дмитрий", "李雷", "محمد", "דוד"]


def long_game(hands: int, players=FOUR_SCRIPTS) -> Game:
    """A game of ``hands`` hands on 30 phases: each player goes out in turn."""
    played = []
    for number in range(hands):
        out = players[number % len(players)]
        points = {name: 50 + 5 * ((number + seat) % 4) for seat, name in enumerate(players)}
        del points[out]
        played.append({"went_out": out, "made": [out], "points": points})
    options = {"custom_phases": "; ".join(["2 sets of 3"] * 30)}
    return load_game({"rules": "official", "options": options, "players": players, "hands": played})


def test_a_sheet_in_six_scripts_prints_every_name_every_hands_points_and_the_totals(cjk_font):
    game = long_game(12)
    text = PdfReader(BytesIO(game_sheet(game))).pages[0].extract_text()
    for name in FOUR_SCRIPTS:  # extraction puts right-to-left names back in reading order
        assert name in unicodedata.normalize("NFKC", text), name
    numbers = [word for word in text.split() if word.isdigit()]
    totals = dict.fromkeys(FOUR_SCRIPTS, 0)
    for played in played_hands(game)[0]:
        for name in FOUR_SCRIPTS:
            totals[name] += played.points[name]
            assert str(played.points[name]) in numbers
            assert str(totals[name]) in numbers
    assert totals == {p.name: p.score for p in replay(game).players}


def test_every_hand_row_reads_dealer_points_who_went_out_and_totals_in_order():
    game = load_game(
        {
            "players": ["Ann", "Bob"],
            "dealer": "Bob",
            "hands": [
                {"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 65}},
                {"went_out": "Bob", "made": ["Bob", "Ann"], "points": {"Ann": 20}},
            ],
        }
    )
    text = words(game_sheet(game))
    # Each row reads across: the hand, its dealer, then each player's phase, points, total.
    assert "1 Bob 1 out 0 0 1 65 65" in text  # Ann went out; Bob 65
    assert "2 Ann 2 20 20 1 out 0 65" in text  # both made a phase: ticks are drawn
    assert "In progress after 2 hands: hand 3 is next, dealt by Bob." in text
    assert "3 Bob 3 2" in text  # the next hand: its dealer and each player's phase


def test_a_finished_game_shows_the_winner_and_the_phase_each_player_reached():
    hands = [{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50, "Cy": 55}}] * 10
    game = load_game({"players": ["Ann", "Bob", "Cy"], "hands": hands})
    text = words(game_sheet(game, title="Friday"))
    assert "Ann won after 10 hands with 0 points." in text
    assert "End all made won 0 on 1 500 on 1 550" in text
    assert pages(game_sheet(game)) == 1


def test_a_tiebreak_is_printed_with_who_won_it():
    game = tied()
    assert replay(game).tiebreak == ("Ann", "Bob")
    text = words(game_sheet(game))
    assert "Ann and Bob are tied: they play a tiebreak hand" in text
    text = words(game_sheet(tied(50)))
    assert "Bob won the tiebreak after 11 hands." in text
    assert "Tie" in text.split("Carried")[-1]  # the tiebreak hand's row


@pytest.mark.parametrize("kept", [False, True], ids=["replayed", "kept"])
def test_the_tiebreak_row_prints_each_players_tiebreak_points(kept):
    game = tied(55)
    states = replay_from(game).kept if kept else None
    row = words(game_sheet(game, kept=states)).split(" Tie ")[-1].replace("out", " out ")
    # dealer, then Ann: phase 10, 55 points, total 25; Bob: went out, 0; Cy sat out
    assert " ".join(row.replace(" out ", " ").split()).startswith("Bob 10 55 25 10 0 25 -"), row
    assert " out " in row.split(" End ")[0]


def test_a_finished_game_never_leaves_a_hand_or_two_alone_on_a_last_page():
    """On Letter a finished game one row too long for a page used to put its last hand and
    the End row on a page of their own."""
    two_pages = 0
    for hands in range(20, 60):
        data = game_sheet(finished(hands))
        if pages(data) == 1:
            continue
        two_pages += 1
        last = PdfReader(BytesIO(data)).pages[-1].extract_text()
        hand_rows = re.findall(r"^\s*(\d+) (?:Ann|Bob) ", last, re.MULTILINE)
        assert len(hand_rows) >= 3, (hands, hand_rows)
    assert two_pages


def finished(hands: int) -> Game:
    """Ann and Bob: Ann makes her last phase in hand ``hands``; Bob went out before that."""
    phases = min(30, hands)  # Ann makes a phase a hand, Bob goes out in the other hands
    ann = [{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50}}] * phases
    bob = [{"went_out": "Bob", "made": ["Bob"], "points": {"Ann": 50}}] * (hands - phases)
    options = {"custom_phases": "; ".join(["2 sets of 3"] * phases)}
    return load_game({"players": ["Ann", "Bob"], "options": options, "hands": [*bob, *ann]})


def test_a_finished_game_a_row_too_long_squeezes_onto_one_page():
    squeezed = []
    for hands in range(20, 40):
        sheet = sheet_layout.ScoreSheet(make_rules(), game=finished(hands))
        if pages(sheet.build()) == 1 and sheet.row_height < sheet_page.REGULAR.row:
            squeezed.append(hands)
            assert sheet.row_height >= sheet_page.REGULAR.row * sheet_layout.SQUEEZE
    assert squeezed  # rather than a second page for the last hand and the End row


def test_names_in_other_scripts_are_bold_in_bold_headings_and_copied_in_reading_order(
    cjk_font, tmp_path
):
    """Hebrew, Arabic, Chinese, Japanese, Korean and emoji print in their own bold faces, not
    in regular letters stroked to look bold."""
    require("pdffonts")
    players = ["שרה", "محمد", "李雷", "さくら", "김민수", "Dana 🎲"]
    game = load_game({"players": players, "hands": []})
    data = game_sheet(game)
    reader = PdfReader(BytesIO(data))
    streams = b" ".join(
        xobject.get_data() for xobject in reader.pages[0]["/Resources"]["/XObject"].values()
    )
    assert b"2 Tr" not in streams  # nothing filled and stroked
    (tmp_path / "sheet.pdf").write_bytes(data)
    listed = subprocess.run(
        ["pdffonts", str(tmp_path / "sheet.pdf")], capture_output=True, text=True, check=True
    ).stdout
    if (fonts.NOTO / "NotoSansHebrew-Bold.ttf").is_file():
        assert "NotoSansHebrew-Bold" in listed and "NotoSansArabic-Bold" in listed
    for face in ("sc", "jp", "kr"):  # each in its own face: Chinese, Japanese, Korean
        assert f"+NotoSansCJK{face}-Bold " in listed
    assert "NotoEmoji-Bold" in listed
    text = unicodedata.normalize("NFKC", reader.pages[0].extract_text())
    assert "שרה" in text and "הרש" not in text


def page_texts(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(BytesIO(data)).pages]


def test_the_sheet_from_the_kept_standings_equals_the_sheet_from_a_replay(tmp_path):
    """The app prints from what the store kept with each version; a replay must agree.

    The game is changed the ways a table changes one (hands corrected, deleted,
    undone), so the kept states come from replays that started part-way through.
    """
    players = ["Zoë", "Дмитрий", "李雷", "דוד"]
    db = store.connection.connect(tmp_path / "games.sqlite3")
    try:
        created = actions.games.start_game(db, {"players": players, "dealer": "李雷", "hands": []})
        assert isinstance(created, actions.results.Saved)
        game_id = created.current.stored.id

        def hand(number: int, points: int = 55) -> HandRecord:
            out = players[number % len(players)]
            scores = {name: points + 5 * seat for seat, name in enumerate(players)}
            del scores[out]
            return HandRecord(out, (out,), scores)

        def version() -> int:
            return store.games.get_game(db, game_id).version

        def ok(result) -> None:
            assert isinstance(result, actions.results.Saved), result

        for number in range(1, 31):
            ok(actions.hands.record(db, game_id, number, hand(number)))
        ok(actions.hands.correct(db, game_id, version(), 3, hand(4, points=85)))
        ok(actions.hands.delete(db, game_id, version(), 5))
        ok(actions.undo.undo(db, game_id, version()))  # hand 5 is back
        ok(actions.hands.correct(db, game_id, version(), 8, hand(8, points=95)))
        ok(actions.undo.undo(db, game_id, version()))  # the correction is taken back
        ok(actions.hands.delete(db, game_id, version(), 30))
        ok(actions.hands.record(db, game_id, 30, hand(31)))

        stored = store.games.get_game(db, game_id)
        game = load_game(stored.state)
        assert stored.kept is not None and len(stored.kept) == len(game.hands) == 30
        url = "http://192.168.1.20:5010/v/AbCdEfGhIjKlMnOpQrStUv"
        kept = game_sheet(game, view_url=url, pagesize="a4", kept=stored.kept)
        replayed = game_sheet(game, view_url=url, pagesize="a4")
    finally:
        store.connection.close_all()
    assert page_texts(kept) == page_texts(replayed)
    assert kept == replayed
    assert game.hands[2] == hand(4, points=85)  # the correction stands
    assert game.hands[7] == hand(8)  # the undone correction does not
    text = words(kept)
    assert "3 Zoë 1 out 0 110 2 90 150 2 95 160 1 100 240" in text  # hand 3 as corrected
    assert "8 Дмитрий 3 out 0 275 3 60 390 3 65 420 2 70 520" in text  # the undo held
    assert "In progress after 30 hands: hand 31 is next" in text


def test_every_page_of_a_long_games_sheet_carries_its_qr_code_and_link(tmp_path):
    view_url = "http://192.168.1.20:5010/v/AbCdEfGhIjKlMnOpQrStUv"
    data = game_sheet(long_game(60), view_url=view_url, pagesize="a4")
    reader = PdfReader(BytesIO(data))
    assert len(reader.pages) >= 2
    for number, page in enumerate(reader.pages, start=1):
        assert view_url in "".join(page.extract_text().split()), number
    assert qr_codes(data, tmp_path, page=len(reader.pages)) == [view_url]


def test_a_150_hand_game_carries_its_totals_on_to_further_pages():
    game = long_game(150, players=["Ann", "Bob", "Cy", "Di", "Ed", "Flo"])
    reader = PdfReader(BytesIO(game_sheet(game, pagesize="a4")))
    assert len(reader.pages) >= 5
    played, _ = played_hands(game)
    for number, page in enumerate(reader.pages[1:], start=2):
        text = " ".join(page.extract_text().split())
        assert f"Page {number} of {len(reader.pages)}." in text
        after = text.split("Carried")[-1].split()  # the carried row, then the next hand
        next_hand = int(after[6])
        totals = played[next_hand - 2].totals
        assert after[:6] == [str(totals[name]) for name in game.players]
    final = " ".join(reader.pages[-1].extract_text().split())
    assert "In progress after 150 hands" in final and " 151 " in final


def test_large_print_rows_are_about_8_mm_with_bigger_numbers():
    assert 7.5 * mm <= sheet_page.LARGE.row <= 9 * mm
    game = long_game(3, players=["Ann", "Bob"])
    sizes = font_sizes(game_sheet(game, large=True))
    assert max(size for size, text in sizes if text.isdigit()) >= 14
    with pytest.raises(ValueError, match="at most 4 players"):
        game_sheet(long_game(3), large=True)
