"""PDF/UA-1 on paper (issue 42, 6): every printable says what it is in XMP metadata with
``pdfuaid:part`` 1 and its title, shows that title in a viewer's title bar, keeps the title
plain, marks names in another script with their likely language, gives its QR codes words
that say what they open, and passes the Matterhorn Protocol's checks that a machine can make
and that apply (``matterhorn``: veraPDF is not to be had here; docs/printing.md).
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from datetime import datetime, timedelta, timezone
from io import BytesIO

import pytest
from matterhorn import CHECKPOINTS, XMP, failures
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject
from reportlab.pdfgen.canvas import Canvas
from tagged import read

from scorekeeper import i18n
from scorekeeper.printing import STANDARD_SET, deck_guide, game_sheet
from scorekeeper.printing.name_language import language_of
from scorekeeper.printing.night_seating import seating_cards
from scorekeeper.printing.night_standings import standings_sheet
from scorekeeper.printing.record import Played
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.nights import Mode, NightRow, Scheme, seat_round
from scorekeeper.rules.ruleset import make_rules

PRINTABLES = dict(STANDARD_SET)
LINK = "http://192.168.1.20:5010/v/AbCdEfGhIjKlMnOpQrStUv"
# a name in each of these scripts, and the language a reader is told to read it in
NAMES = {
    "Ann": None,
    "مُحَمَّد": "ar",
    "王小明": "zh",
    "דנה": "he",
    "Αλέξανδρος": "el",
    "Иван": "ru",
    "สมชาย": "th",
    "अनिल": "hi",
    "やまだ": "ja",
    "김민준": "ko",
    "སྒྲོལ་མ": "bo",
    "ᏣᎳᎩ": "chr",
}
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def record(players: list[str], view_url: str | None = None) -> bytes:
    points = {name: 50 for name in players[1:]}
    hands = [{"went_out": players[0], "made": [players[0]], "points": points}]
    return game_sheet(load_game({"players": players, "hands": hands}), view_url=view_url)


def night_cards() -> tuple[bytes, dict[int, str]]:
    seating = seat_round(["Ann", "Bob", "Cy", "مُحَمَّد", "王小明"], Mode.RANDOM, seed="one")
    links = {table.number: f"{LINK[:-3]}{table.number:03}" for table in seating.tables}
    return seating_cards("Club", 1, seating.tables, links=links), links


def standings() -> bytes:
    rows = [NightRow(1, "Ann", 10, 2, 100, 5, 100), NightRow(2, "王小明", 8, 2, 90, 4, 90)]
    return standings_sheet("Club", "Friday", rows, Scheme.PLACEMENT, rounds=2)


BUILT = {
    **{name: build for name, build in PRINTABLES.items()},
    "record": lambda: record(list(NAMES)[:6], view_url=LINK),
    "night cards": lambda: night_cards()[0],
    "night standings": standings,
}


def xmp(data: bytes) -> ElementTree.Element:
    catalogue = PdfReader(BytesIO(data)).trailer["/Root"]
    packet = catalogue["/Metadata"].get_object().get_data().decode("utf-8")
    return ElementTree.fromstring(packet[packet.index("<x:xmpmeta") : packet.rindex("<?xpacket")])


def xmp_text(root: ElementTree.Element, name: str) -> list[str]:
    prefix, local = name.split(":")
    found = []
    for element in root.iter(f"{{{XMP[prefix]}}}{local}"):
        items = list(element.iter(f"{{{XMP['rdf']}}}li"))
        found += [item.text or "" for item in items] if items else [element.text or ""]
    return found


@pytest.mark.parametrize("name", list(BUILT))
def test_every_printable_passes_the_matterhorn_checks_that_apply(name):
    assert failures(BUILT[name]()) == []


def test_the_matterhorn_checks_find_what_an_untagged_pdf_lacks():
    buffer = BytesIO()
    canvas = Canvas(buffer)
    canvas.drawString(72, 720, "Phase 10")
    canvas.line(72, 700, 200, 700)
    canvas.save()
    found = {failure.split(":")[0] for failure in failures_untagged(buffer.getvalue())}
    assert {"01-005", "01-007", "06-001", "07-001", "11-006"} <= found
    assert set(found) <= {*CHECKPOINTS, "01-003/01-004"}


def failures_untagged(data: bytes) -> list[str]:
    """``failures`` of a PDF with no structure tree: given an empty one to walk."""
    writer = PdfWriter(clone_from=BytesIO(data))
    document = DictionaryObject({NameObject("/S"): NameObject("/Document")})
    root = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/StructTreeRoot"),
            NameObject("/K"): writer._add_object(document),
            NameObject("/ParentTree"): DictionaryObject({NameObject("/Nums"): ArrayObject()}),
            NameObject("/ParentTreeNextKey"): NumberObject(0),
        }
    )
    writer._root_object[NameObject("/StructTreeRoot")] = writer._add_object(root)
    out = BytesIO()
    writer.write(out)
    return failures(out.getvalue())


@pytest.mark.parametrize("language", ["en", "de", "pl"])
def test_the_xmp_metadata_says_pdf_ua_1_and_repeats_the_documents_properties(language):
    with i18n.using(language):
        data = PRINTABLES["score-sheet-a4.pdf"]()
    info = PdfReader(BytesIO(data)).metadata
    root = xmp(data)
    assert xmp_text(root, "pdfuaid:part") == ["1"]
    assert xmp_text(root, "dc:title") == [info["/Title"]]
    assert xmp_text(root, "dc:description") == [info["/Subject"]]
    assert xmp_text(root, "dc:creator") == [info["/Author"]]
    assert xmp_text(root, "dc:language") == [language]
    assert xmp_text(root, "xmp:CreateDate") == ["2000-01-01T00:00:00+00:00"]  # the fixed date


def test_a_records_xmp_dates_are_its_games_start_as_the_information_gives_them():
    game = load_game({"players": ["Ann", "Bob"], "hands": []})
    started = datetime(2026, 11, 27, 19, 5, tzinfo=timezone(timedelta(hours=1)))
    data = game_sheet(game, played=Played(started, 85))
    assert PdfReader(BytesIO(data)).metadata["/CreationDate"] == "D:20261127190500+01'00'"
    assert xmp_text(xmp(data), "xmp:CreateDate") == ["2026-11-27T19:05:00+01:00"]


@pytest.mark.parametrize("name", list(BUILT))
def test_a_viewer_is_asked_to_show_the_title(name):
    catalogue = PdfReader(BytesIO(BUILT[name]())).trailer["/Root"]
    assert catalogue["/ViewerPreferences"]["/DisplayDocTitle"].value is True


def test_the_title_is_plain_without_the_marks_that_isolate_names():
    data = record(["שרה", "محمد", "Dana 🎲", "Ann 👨‍👩‍👧"])
    title = PdfReader(BytesIO(data)).metadata["/Title"]
    assert title == "Phase 10: שרה, محمد, Dana 🎲, Ann 👨‍👩‍👧"  # the family keeps its joiners
    assert not set(title) & set(BIDI_CONTROLS)
    assert xmp_text(xmp(data), "dc:title") == [title]
    night = PdfReader(BytesIO(night_cards()[0])).metadata["/Title"]
    assert night == "Club: seating for round 1"


def test_a_name_in_another_script_is_marked_with_its_likely_language():
    names = list(NAMES)
    tagged = read(record(names[:6]))
    spans = {text for page in tagged.pages for _language, text in page.languages}
    said = {language for page in tagged.pages for language, _text in page.languages}
    assert said == {"ar", "zh", "he", "el", "ru"}
    assert not any("Ann" in text for text in spans)  # Latin letters: the sheet's language
    for name, language in NAMES.items():
        assert language_of(name) == language, name


def test_a_german_sheet_marks_a_greek_and_a_korean_name_but_not_a_german_one():
    with i18n.using("de"):
        tagged = read(record(["Jürgen", "Αλέξανδρος", "김민준"]))
    said = {(language, text) for page in tagged.pages for language, text in page.languages}
    assert {language for language, _text in said} == {"el", "ko"}
    assert ("el", "Αλέξανδρος") in said and ("ko", "김민준") in said


def test_a_shaped_name_carries_its_language_beside_its_actual_text():
    tagged = read(record(["Ann", "สมชาย", "अनिल"]))
    said = {language for page in tagged.pages for language, _text in page.languages}
    assert said == {"th", "hi"}


def alts(data: bytes) -> list[str]:
    return [str(figure.entries["/Alt"]) for figure in read(data).root.find("Figure")]


def test_a_records_qr_code_says_it_opens_the_games_live_scores():
    assert alts(record(["Ann", "Bob"], view_url=LINK)) == [
        f"QR code to this game's live scores: {LINK}"
    ]
    with i18n.using("fr"):
        assert alts(record(["Ann", "Bob"], view_url=LINK)) == [
            f"QR code vers les scores en direct de cette partie\u00a0: {LINK}"
        ]


def test_a_seating_cards_qr_code_says_it_opens_the_tables_live_scores():
    data, links = night_cards()
    assert alts(data) == [
        f"QR code to this table's live scores: {link}" for _number, link in sorted(links.items())
    ]


def test_the_guides_qr_code_says_whether_it_opens_a_game_or_the_app():
    official = make_rules()
    assert alts(deck_guide(official, view_url=LINK)) == [
        f"QR code to this game's live scores: {LINK}"
    ]
    app = "http://192.168.1.20:5010/"
    assert alts(deck_guide(official, app_url=app)) == [
        f"QR code to keep score with the Phase 10 Scorekeeper: {app}"
    ]
    with i18n.using("de"):
        assert alts(deck_guide(official, app_url=app)) == [
            f"QR-Code, um mit dem Phase 10 Punktezähler Punkte zu zählen: {app}"
        ]
