"""Every name prints, whole, in any script (issue 30): read back from the game's record.

A record for players named in Devanagari, Thai, Armenian, Georgian, Hebrew, Arabic with
its vowel marks, Chinese, a stacked accent, an emoji and 40 letters: each name's text
as poppler reads it equals the name, nothing prints as "?" or "…", no word is broken
without a hyphen, nothing overlaps, nothing is under 9 pt, and every font is embedded
with a subset tag of its own. Each record's pages are kept as pictures in
``test-artifacts/printing/`` to be looked at.
"""

from __future__ import annotations

import json
import re
import subprocess
import unicodedata
from io import BytesIO
from pathlib import Path

import pyphen
import pytest
from geometry import problems
from printed import undrawn, words
from pypdf import PdfReader
from pypdf.generic import DictionaryObject
from tools import missing, require

from scorekeeper import cli, i18n
from scorekeeper.printing import cjk, fonts, game_sheet, score_sheet
from scorekeeper.printing.layout import plain
from scorekeeper.printing.night_seating import seating_cards
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.nights import Mode, seat_round
from scorekeeper.rules.ruleset import make_rules

pytestmark = pytest.mark.printing  # prints names in every script

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "printing"
LONG = "Ana María de la Santísima Trinidad Rojas"  # 40 letters, the most a name may have
SCRIPTS = ["प्रिया", "สมชาย", "Գոհար", "ნინო", "מִרְיָם", "مُحَمَّد"]
OTHERS = [
    "王小明",
    "Mẽ̀o",
    "Dana 🎲👩\u200d👩\u200d👧🇩🇪👍🏽",  # a family, a flag and a skin tone: a glyph each
    LONG,
    "Wolfeschlegelsteinhausenbergerdorff",
    "Maria-Magdalena",
]
# Direction marks (poppler puts a right-to-left word between them) and U+200B, which a hyphen
# added to break a word reads as (and a glyph that draws no letter of its own): none is typed.
MARKS = dict.fromkeys(
    map(ord, "\u202a\u202b\u202c\u202d\u202e\u200e\u200f\u2066\u2067\u2068\u2069\u200b")
)
FONT_FILES = {
    fonts.NOTO_PACKAGE: fonts.NOTO / "NotoSansDevanagari-Regular.ttf",
    fonts.CJK_PACKAGE: cjk.FILES[True],
    fonts.SYMBOLS_PACKAGE: fonts.DEBIAN_FONTS / "ancient-scripts" / "Symbola_hint.ttf",
    fonts.SUITS_PACKAGE: fonts.SUITS_FILE,
}


@pytest.fixture(autouse=True)
def installed_fonts() -> None:
    absent = [package for package, path in FONT_FILES.items() if not path.is_file()]
    if absent:
        missing(f"{', '.join(absent)} not installed (./scripts/setup --test installs them)")
    require("pdftotext", "pdffonts", "pdftoppm")


def record(players: list[str], hands: int = 6) -> bytes:
    """A game's sheet: each player goes out in turn, so each deals and each name is a dealer."""
    played = [
        {
            "went_out": players[number % len(players)],
            "made": [players[number % len(players)]],
            "points": {name: 60 for name in players if name != players[number % len(players)]},
        }
        for number in range(hands)
    ]
    return game_sheet(load_game({"players": players, "hands": played}), pagesize="a4")


def read_back(data: bytes, tmp_path: Path, name: str) -> str:
    """The text poppler reads, white space squeezed and direction marks dropped (poppler puts
    a right-to-left word in reading order between marks); the pages kept as pictures."""
    source = tmp_path / f"{name}.pdf"
    source.write_bytes(data)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["pdftoppm", "-r", "100", "-png", str(source), str(ARTIFACTS / name)], check=True
    )
    text = subprocess.run(
        ["pdftotext", str(source), "-"], check=True, capture_output=True, text=True
    ).stdout
    return unicodedata.normalize("NFC", " ".join(text.translate(MARKS).split()))


def whole(name: str, text: str) -> bool:
    """``name`` is in ``text`` as written, its own hyphens kept and no hyphen added, on one
    line or on several (a line may break inside a word where its script allows, and a word
    too long for its line breaks: ``test_a_word_breaks_only_where_its_script_allows``)."""
    return "".join(unicodedata.normalize("NFC", name).split()) in "".join(text.split())


@pytest.mark.parametrize(("players", "artifact"), [(SCRIPTS, "scripts"), (OTHERS, "others")])
def test_every_name_prints_whole_in_its_own_script(players, artifact, tmp_path):
    data = record(players)
    text = read_back(data, tmp_path, f"record-{artifact}")
    for name in players:
        assert whole(name, text), name
        if max(map(len, name.split())) < 20:  # (a hyphenated heading reads back in pieces)
            # in the heading and over its column (a line may break between two emoji)
            assert squeezed(text).count(squeezed(name)) >= 2, name
    assert "?" not in text and "\u2026" not in text
    assert problems(data) == []  # nothing overlaps, is cut or is under 9 pt


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_names_in_every_script_print_whole_on_a_record_in_every_language(language, tmp_path):
    """The record in each of the app's languages, for a table of six scripts; its page is kept
    as ``record-<language>.png`` to be looked at."""
    players = ["प्रिया", "สมชาย", "مُحَمَّد", "王小明", "さくら 🇯🇵", LONG]
    with i18n.using(language):
        data = record(players)
    text = read_back(data, tmp_path, f"record-{language}")
    for name in players:
        assert whole(name, text), (language, name)
    assert "?" not in text and "\u2026" not in text
    assert problems(data) == []


@pytest.mark.parametrize(("players", "artifact"), [(SCRIPTS, "scripts"), (OTHERS, "others")])
def test_a_word_breaks_only_where_its_script_allows(players, artifact, tmp_path):
    """A word of a name on two lines breaks where Unicode's rules for its script allow (ICU)
    or where its language's dictionary hyphenates it; the hyphen added there reads as no
    letter, so its part on the line reads as it is (issue 42: "Donaudamp-fschiff")."""
    from icu4py.breakers import LineBreaker

    data = record(players)
    source = tmp_path / "record.pdf"
    source.write_bytes(data)
    lines = subprocess.run(
        ["pdftotext", "-layout", str(source), "-"], check=True, capture_output=True, text=True
    ).stdout.translate(MARKS)
    tokens = {token.rstrip(",") for line in lines.splitlines() for token in line.split()}
    english = pyphen.Pyphen(lang="en")
    for name in players:
        for word in unicodedata.normalize("NFC", name).split():
            legal = {end for _start, end in LineBreaker(word, "en").segments()}
            legal |= set(english.positions(word))
            broken = [t for t in tokens if t != word and word.startswith(t) and len(t) > 1]
            assert all(len(t) in legal for t in broken), (word, broken)


def test_every_font_is_embedded_with_a_subset_tag_of_its_own(tmp_path):
    source = tmp_path / "record.pdf"
    source.write_bytes(record(SCRIPTS + OTHERS[:0]))
    listed = subprocess.run(
        ["pdffonts", str(source)], check=True, capture_output=True, text=True
    ).stdout.splitlines()[2:]
    rows = [line.split() for line in listed]
    assert rows and all(row[-5] == "yes" for row in rows), listed  # emb
    tags = [row[0].split("+")[0] for row in rows]
    assert len(set(tags)) == len(tags), tags
    faces = " ".join(row[0] for row in rows)
    for script in ("Devanagari", "Thai", "Armenian", "Georgian"):
        assert f"NotoSans{script}-Bold" in faces  # a real bold in the bold heading


def glyph_texts(font: DictionaryObject) -> list[str]:
    """What each glyph of an embedded subset reads back as (its ToUnicode map)."""
    cmap = font["/ToUnicode"].get_data().decode("ascii")
    chars = cmap.split("beginbfchar", 1)[1].split("endbfchar", 1)[0]
    pairs = re.findall(r"<([0-9A-F]{2})> <([0-9A-F]+)>", chars)
    return [bytes.fromhex(text).decode("utf-16-be") for _code, text in pairs]


def test_a_joined_emoji_prints_as_its_one_glyph_in_bold_and_reads_back_as_written(tmp_path):
    family, flag, thumb = "👩\u200d👩\u200d👧", "🇩🇪", "👍🏽"
    players = [f"Eve {family}", f"Flo {flag}", f"Gus {thumb}"]
    data = record(players, hands=0)  # names in the bold title and headings
    reader = PdfReader(BytesIO(data))
    fonts_used = {
        font["/BaseFont"].split("+")[1]: font
        for page in reader.pages
        for xobject in page["/Resources"]["/XObject"].values()
        for font in xobject["/Resources"]["/Font"].values()
    }
    # one glyph draws each sequence and reads back as all of its characters (a skin tone is
    # a colour, so in black ink the hand is drawn without its swatch, but reads with it)
    glyphs = glyph_texts(fonts_used["NotoEmoji-Bold"])
    for sequence in (family, flag, thumb):
        assert glyphs.count(sequence) == 1, sequence
    assert not {"👩", "👧", "🇩", "🏽"} & set(glyphs)  # no glyph draws a part of one
    text = read_back(data, tmp_path, "record-emoji")
    for name in players:
        assert name in text


# The 30 scripts of issue 42's print review and six more, each with a name and the font that
# draws it (None: the sheet's own Fira Sans); Tibetan has only a Noto Serif.
REVIEW = {
    "Latin": ("Zoë Kovačević", None),
    "Vietnamese": ("Nguyễn Thị Hương", None),
    "Greek": ("Αλέξανδρος", None),
    "Cyrillic": ("Светлана", None),
    "Armenian": ("Գոհար", "NotoSansArmenian"),
    "Georgian": ("ნინო", "NotoSansGeorgian"),
    "Hebrew": ("מִרְיָם", "NotoSansHebrew"),
    "Arabic": ("عَلِيّ", "NotoSansArabic"),
    "Devanagari": ("प्रिया", "NotoSansDevanagari"),
    "Bengali": ("সুস্মিতা", "NotoSansBengali"),
    "Gurmukhi": ("ਹਰਪ੍ਰੀਤ", "NotoSansGurmukhi"),
    "Gujarati": ("ભાવના", "NotoSansGujarati"),
    "Oriya": ("ସୁଭଦ୍ରା", "NotoSansOriya"),
    "Tamil": ("கார்த்திக்", "NotoSansTamil"),
    "Telugu": ("శ్రీనివాస్", "NotoSansTelugu"),
    "Kannada": ("ಸುಧಾ", "NotoSansKannada"),
    "Malayalam": ("അനിൽ", "NotoSansMalayalam"),
    "Sinhala": ("කුමාරි", "NotoSansSinhala"),
    "Thai": ("สมชาย", "NotoSansThai"),
    "Lao": ("ສົມພອນ", "NotoSansLao"),
    "Khmer": ("សុខា", "NotoSansKhmer"),
    "Myanmar": ("အောင်ဆန်း", "NotoSansMyanmar"),
    "Ethiopic": ("ሰላም", "NotoSansEthiopic"),
    "Chinese": ("王小明", "NotoSansCJKSC"),
    "Japanese": ("さくら", "NotoSansCJKJP"),
    "Korean": ("김민준", "NotoSansCJKKR"),
    "Canadian Syllabics": ("ᐊᓂᐅ", "NotoSansCanadianAboriginal"),
    "Tifinagh": ("ⵜⵉⴼⵉⵏⴰⵖ", "NotoSansTifinagh"),
    "Mongolian": ("ᠪᠠᠲᠤ", "NotoSansMongolian"),
    "Emoji": ("Dana 🎲", "NotoEmoji"),
    "Tibetan": ("བསྟན་འཛིན", "NotoSerifTibetan"),
    "Syriac": ("ܡܪܝܡ", "NotoSansSyriac"),
    "Thaana": ("އަޙްމަދު", "NotoSansThaana"),
    "N'Ko": ("ߛߎߡߊ", "NotoSansNKo"),
    "Ol Chiki": ("ᱥᱟᱱᱛᱟᱲ", "NotoSansOlChiki"),
    "Cherokee": ("ᏣᎳᎩ", "NotoSansCherokee"),
}
TABLES = [list(REVIEW)[start : start + 6] for start in range(0, len(REVIEW), 6)]


def squeezed(text: str) -> str:
    return "".join(unicodedata.normalize("NFC", text.translate(MARKS)).split())


def printed(printable: str, players: list[str]) -> list[tuple[bytes, list[str]]]:
    """The printable named for six players, with the names each PDF holds (large print has
    room for four a sheet: the first four, then the last four)."""
    if printable == "record":
        return [(record(players), players)]
    if printable == "sheet":
        return [(score_sheet(make_rules(), players=players, pagesize="a4"), players)]
    if printable == "large":
        return [
            (score_sheet(make_rules(), players=four, pagesize="a4", large=True), four)
            for four in (players[:4], players[2:])
        ]
    seating = seat_round(players, Mode.RANDOM, seed="round 1", tables=1)
    return [(seating_cards("Club", 1, seating.tables, room_list=True), players)]


@pytest.mark.parametrize("scripts", TABLES, ids=lambda scripts: scripts[0])
@pytest.mark.parametrize("printable", ["record", "sheet", "large", "seating"])
def test_every_script_of_the_review_prints_in_its_font_and_reads_back_as_typed(
    scripts, printable, tmp_path
):
    """Six tables of six names, 36 scripts, on a record, a score sheet, large print and a
    night's seating card and room list: each name is drawn in its script's font, never as
    a code point or cut with "…", and pdftotext and pypdf both read it back as typed (issue
    42: Tibetan printed as "[U+0F56 …]", Arabic read back with its shadda in front)."""
    by_name = {REVIEW[script][0]: script for script in scripts}
    for data, names in printed(printable, list(by_name)):
        read_every_name(data, [by_name[name] for name in names], tmp_path)


def read_every_name(data: bytes, scripts: list[str], tmp_path: Path) -> None:
    """Each script's name is in its font and reads back as typed with both extractors."""
    source = tmp_path / "names.pdf"
    source.write_bytes(data)
    poppler = subprocess.run(
        ["pdftotext", str(source), "-"], check=True, capture_output=True, text=True
    ).stdout
    pypdf = " ".join(page.extract_text() or "" for page in PdfReader(BytesIO(data)).pages)
    embedded = subprocess.run(
        ["pdffonts", str(source)], check=True, capture_output=True, text=True
    ).stdout
    for text in (poppler, pypdf):
        assert "[U+" not in text and "\u2026" not in text
        for script in scripts:
            assert squeezed(REVIEW[script][0]) in squeezed(text), script
    for script in scripts:
        font = REVIEW[script][1]
        assert font is None or re.search(rf"\+{font}(-\w+)? ", embedded, re.I), (script, font)


def test_arabic_keeps_its_vowel_marks_and_devanagari_its_conjunct(tmp_path):
    text = read_back(record(SCRIPTS), tmp_path, "record-marks")
    assert "مُحَمَّد" in text and "محمد" not in text.replace("مُحَمَّد", "")
    assert "प्रिया" in text


def test_a_letter_no_font_has_prints_as_its_code_point_and_the_package_is_named(tmp_path, capsys):
    newer = undrawn()
    assert plain(f"Ann {newer}") == f"Ann [U+{ord(newer):04X}]"
    assert plain(f"Bob {newer}") != plain(f"Ann {newer}")  # two such names still differ
    # fonts-noto-core is installed: no package is named (it was, though installed: issue 42)
    assert fonts.missing_packages([f"Ann {newer}", "Bob"]) == {None: newer}
    game = tmp_path / "game.json"
    game.write_text(json.dumps({"players": [f"Ann {newer}", "Bob"], "hands": []}), "utf-8")
    with i18n.using("en"):
        status = cli.main(["print", str(game), "--out", str(tmp_path / "sheet.pdf")])
    assert status == 0
    said = capsys.readouterr().err
    assert "no font installed here draws them" in said and newer in said
    assert "install Debian" not in said


def test_the_hint_names_a_font_package_only_when_it_is_not_installed(monkeypatch):
    newer = undrawn()
    monkeypatch.setattr(fonts, "installed", lambda package: package != fonts.NOTO_PACKAGE)
    assert fonts.missing_packages([f"Ann {newer}"]) == {fonts.NOTO_PACKAGE: newer}


LONG_NAMES = [
    "Ana María de la Santísima Trinidad Rojas",
    "Ana María de la Santísima Trinidad Ruiz",
    "Bartholomäus Konstantin von Hohenzollern",
    "Wolfeschlegelsteinhausenbergerdorffvoral",
]


@pytest.mark.parametrize(
    ("players", "large"),
    [
        (LONG_NAMES, True),
        ([*LONG_NAMES, "王小明" * 13 + "王", "देवनागरी नाम बहुत लंबा है और भी लंबा"], False),
    ],
    ids=["large-print", "six-of-40"],
)
@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_every_long_name_heads_its_column_whole_however_many_lines_it_takes(
    players, large, language, tmp_path
):
    """Several names of 40 letters: headings were cut to "…Trinidad R…" (two players looked
    the same) and hyphens put between Chinese characters."""
    with i18n.using(language):
        data = game_sheet(load_game({"players": players, "hands": []}), large=large)
    text = read_back(data, tmp_path, f"long-names-{language}-{'large' if large else 'a4'}")
    assert "\u2026" not in text
    # in drawing order (pypdf), where a heading's lines follow each other
    letters = "".join(words(data).replace("-", "").split())
    for name in players:
        assert letters.count("".join(name.replace("-", "").split())) >= 2, name  # title, heading
    assert "王-" not in text and "小-" not in text and "明-" not in text
    assert problems(data, 14 if large else 9) == []


def test_a_line_gives_a_syllable_back_when_its_hyphen_does_not_fit():
    """At the smallest size allowed, "Wolfeschle" fit a line but "Wolfeschle-" did not, and
    the name was cut between any two letters ("Wolfeschle-", "gelsteinha-", ...)."""
    from scorekeeper.printing.fonts import FONT_BOLD
    from scorekeeper.printing.labels import fit_label

    with i18n.using("de"):
        label = fit_label(
            "Wolfeschlegelsteinhausenbergerdorff", FONT_BOLD, 76.5, size=18, min_size=14, lines=4
        )
    assert label.lines == ("Wolfeschle-", "gelstein-", "hausenber-", "gerdorff")
    assert not label.cut


def test_a_long_one_word_name_is_hyphenated_by_the_language_not_cut():
    from scorekeeper.printing.fonts import FONT
    from scorekeeper.printing.labels import fit_label

    with i18n.using("pl"):
        label = fit_label("komplet", FONT, 24, size=9, lines=2)
    assert label.lines == ("kom-", "plet")  # Polish rules, not "komp" / "let"
    with i18n.using("fr"):
        label = fit_label("Geneviève", FONT, 27, size=9, lines=2)
    assert label.lines == ("Gene-", "viève")
    assert re.fullmatch(r"[^…]+", "".join(label.lines))


def test_a_word_no_dictionary_hyphenates_breaks_between_letters_without_a_hyphen():
    """French has no hyphen in "toutes": it was cut "tou-" / "tes" anywhere with a hyphen
    (issue 42: "Donaudamp-fschiff", "Αλέξανδρ-ος"); now only a dictionary adds a hyphen."""
    from scorekeeper.printing.fonts import FONT
    from scorekeeper.printing.labels import fit_label

    with i18n.using("fr"):
        label = fit_label("toutes", FONT, 20, size=9, lines=2)
    assert label.lines == ("tout", "es") and not label.soft
    with i18n.using("en"):  # Greek by Greek rules on an English sheet
        label = fit_label("Παπαδόπουλος", FONT, 40, size=9, lines=3)
    assert label.lines == ("Παπα-", "δόπου-", "λος")  # not "Παπαδόπ-ουλος"


@pytest.mark.parametrize(
    ("name", "width", "lines"),
    [
        ("สมเด็จพระเจ้าอยู่หัว", 45, ("สมเด็จ", "พระเจ้าอยู่หัว")),  # not "สมเด็จพระเ-" / "จ้า..."
        ("สมเด็จพระเจ้า", 30, ("สมเด็จ", "พระเจ้า")),
        ("ພະເຈົ້າຢູ່ຫົວ", 25, ("ພະເຈົ້າ", "ຢູ່ຫົວ")),
        ("សម្ដេចព្រះមហាក្សត្រ", 45, ("សម្ដេចព្រះ", "មហាក្សត្រ")),
        ("အောင်ဆန်းစုကြည်", 40, ("အောင်", "ဆန်းစု", "ကြည်")),  # not "အောင်ဆ-" / "န်း"
    ],
)
def test_thai_lao_khmer_and_myanmar_break_between_words_without_a_hyphen(name, width, lines):
    """Issue 42: Thai broke inside a syllable with a hyphen, stranding a leading vowel, and
    Myanmar split "ဆန်း"; ICU's dictionaries break them between words and syllables."""
    from scorekeeper.printing.fonts import FONT
    from scorekeeper.printing.labels import fit_label

    with i18n.using("en"):
        label = fit_label(name, FONT, width, size=9, lines=4)
    assert label.lines == lines and not label.soft and not label.cut


CHINESE_40 = "万乇亇仇伇佇侇俇倇假傇僇儇兇冇凇切則劇勇匇升厇叇吇呇咇哇唇啇喇嗇嘇噇嚇囇圇均垇埇"
KOREAN_40 = "갇걇겇곇괇굇궇귇긇깇꺇껇꼇꽇꾇꿇뀇끇낇냇넇녇놇뇇눇뉇늇닇댇덇뎇돇됇둇뒇듇딇땇떇뗇"


@pytest.mark.parametrize(
    ("name", "font", "lines"),
    [
        (CHINESE_40, "FiraSans", 2),
        (KOREAN_40, "FiraSans-Bold", 3),
        (LONG, "FiraSans", 2),
        ("Wolfeschlegelsteinhausenbergerdorff", "FiraSans-Bold", 2),
    ],
    ids=["chinese", "korean", "spanish", "german"],
)
def test_a_name_is_not_cut_every_way_at_sizes_too_small_for_it(name, font, lines, monkeypatch):
    """A 40-letter name of ideographs may break after any letter: trying every break at
    every size from 20 pt down cost a 180-player night's seating cards seconds. A size at
    which the name is longer than all its lines together is passed over, and the name
    lands where trying every size put it."""
    from scorekeeper.printing import labels

    tried: list[float] = []
    wrap = labels._wrap

    def counted(text, font, size, *rest):
        tried.append(size)
        return wrap(text, font, size, *rest)

    def fitted() -> tuple[labels.Label, int]:
        tried.clear()
        labels._fit.cache_clear()
        with i18n.using("en"):
            return labels.fit_label(name, font, 180, size=20, lines=lines), len(tried)

    monkeypatch.setattr(labels, "_wrap", counted)
    label, sizes = fitted()
    monkeypatch.setattr(labels, "_too_long", lambda *_args: False)
    every_label, every_size = fitted()
    labels._fit.cache_clear()
    assert label == every_label
    assert sizes <= every_size
    if name == CHINESE_40:  # 20 pt down to 9.5 pt passed over
        assert sizes <= 2 and every_size >= 10
