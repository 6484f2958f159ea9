"""The checks of the Matterhorn Protocol 1.1 (PDF/UA-1's failure conditions) that a machine
can make and that apply to what we print, run on a PDF read back (``tagged`` and pypdf):
veraPDF, which makes them all, is a Java program no registry this project uses carries.

``failures(data)`` gives each failed condition as "<checkpoint>: what is wrong". The checks,
by checkpoint (docs/printing.md lists them with what each means for our PDFs):

- 01-003, 01-004: tagged content inside an artifact, or an artifact inside tagged content
- 01-005: content that is neither tagged nor an artifact
- 02-001: a structure type that is not one of PDF's standard types (we map none)
- 01-007: /MarkInfo with /Suspects true (and PDF/UA's 7.1: /Marked true)
- 06-001, 06-002, 06-003: no XMP metadata, no ``pdfuaid:part`` 1 in it, no ``dc:title``
- 07-001, 07-002: no /DisplayDocTitle true in the viewer preferences
- 09-004: a table's rows and cells outside Table > (THead | TBody | TFoot) > TR > (TH | TD)
- 09-005: a list's items outside L > LI > (Lbl | LBody)
- 10-001: a character whose Unicode the font's /ToUnicode does not give
- 11-006, 11-001..005: no document language, or a /Lang that is not a language tag
- 13-004: a Figure without /Alt (or /ActualText)
- 14-002, 14-003: numbered headings that do not start at H1 or skip a level
- 15-003: a TH without /Scope (we never use /Headers and IDs)
- 20-001: optional content (none is expected)
- 26-001: encryption (none is expected)
- 28-002: an annotation (none is expected: nothing is tagged as one)
- 31 (fonts): a font not embedded, or without a /ToUnicode map
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from io import BytesIO

from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject
from tagged import Node, Tagged, read

STANDARD_TYPES = frozenset(
    """Document Part Art Sect Div BlockQuote Caption TOC TOCI Index NonStruct Private P H H1 H2
    H3 H4 H5 H6 L LI Lbl LBody Table TR TH TD THead TBody TFoot Span Quote Note Reference
    BibEntry Code Link Annot Ruby RB RT RP Warichu WT WP Figure Formula Form""".split()
)
TABLE_PARTS = {"THead", "TBody", "TFoot"}
LANGUAGE_TAG = re.compile(r"^(?:[A-Za-z]{2,3}|und)(?:-[A-Za-z0-9]{2,8})*$")
XMP = {
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "dc": "http://purl.org/dc/elements/1.1/",
    "pdfuaid": "http://www.aiim.org/pdfua/ns/id/",
    "xmp": "http://ns.adobe.com/xap/1.0/",
}
CHECKPOINTS = (
    "01-003 01-004 01-005 01-007 02-001 06-001 06-002 06-003 07-001 07-002 09-004 "
    "09-005 10-001 11-006 11-001 13-004 14-002 14-003 15-003 20-001 26-001 28-002 31"
).split()


def failures(data: bytes) -> list[str]:
    """Every failed checkpoint of the PDF, in words."""
    reader = PdfReader(BytesIO(data))
    catalogue = reader.trailer["/Root"]
    tagged = read(data)
    found: list[str] = []
    found += _content(tagged)
    found += _catalogue(reader, catalogue)
    found += _tree(tagged)
    found += _fonts(reader)
    return found


def _content(tagged: Tagged) -> list[str]:
    found = []
    for number, page in enumerate(tagged.pages, start=1):
        found += [f"01-003/01-004: page {number}: {problem}" for problem in page.problems]
        found += [
            f"01-005: page {number}: {what} neither tagged nor an artifact"
            for what in page.untagged
        ]
        if any("\ufffd" in text for text in page.text.values()):
            found.append(f"10-001: page {number}: a character without Unicode")
        found += [
            f"11-001: page {number}: /Lang {language!r} is no language tag"
            for language, _text in page.languages
            if not LANGUAGE_TAG.match(language)
        ]
    return found


def _catalogue(reader: PdfReader, catalogue: DictionaryObject) -> list[str]:
    found = []
    marks = catalogue.get("/MarkInfo") or {}
    if not _true(marks.get("/Marked")) or _true(marks.get("/Suspects")):
        found.append("01-007: /MarkInfo does not say /Marked true (or says /Suspects true)")
    language = str(catalogue.get("/Lang", ""))
    if not LANGUAGE_TAG.match(language):
        found.append(f"11-006: the document's /Lang is {language!r}")
    preferences = catalogue.get("/ViewerPreferences") or {}
    if "/DisplayDocTitle" not in preferences:
        found.append("07-001: no /DisplayDocTitle")
    elif not _true(preferences["/DisplayDocTitle"]):
        found.append("07-002: /DisplayDocTitle is not true")
    found += _metadata(catalogue)
    if "/OCProperties" in catalogue:
        found.append("20-001: optional content")
    if "/Encrypt" in reader.trailer:
        found.append("26-001: encrypted")
    for number, page in enumerate(reader.pages, start=1):
        if page.get("/Annots"):
            found.append(f"28-002: page {number} has annotations")
    return found


def _true(value) -> bool:
    """A PDF boolean that says true (pypdf's BooleanObject)."""
    return getattr(value, "value", value) is True


def _metadata(catalogue: DictionaryObject) -> list[str]:
    if "/Metadata" not in catalogue:
        return ["06-001: no XMP metadata"]
    packet = catalogue["/Metadata"].get_object().get_data().decode("utf-8")
    root = ElementTree.fromstring(packet[packet.index("<x:xmpmeta") : packet.rindex("<?xpacket")])
    found = []
    parts = [element.text for element in root.iter(f"{{{XMP['pdfuaid']}}}part")]
    if parts != ["1"]:
        found.append(f"06-002: pdfuaid:part is {parts}")
    titles = [
        element.text
        for title in root.iter(f"{{{XMP['dc']}}}title")
        for element in title.iter(f"{{{XMP['rdf']}}}li")
    ]
    if not any(titles):
        found.append("06-003: no dc:title")
    return found


def _tree(tagged: Tagged) -> list[str]:
    found = []
    headings: list[int] = []
    for node, parent in _with_parents(tagged.root, None):
        kind, above = node.kind, parent.kind if parent else None
        if kind not in STANDARD_TYPES:
            found.append(f"02-001: /{kind} is no standard structure type")
        if kind == "TR" and above not in {"Table", *TABLE_PARTS}:
            found.append(f"09-004: TR in {above}")
        if kind in TABLE_PARTS and above != "Table":
            found.append(f"09-004: {kind} in {above}")
        if kind in ("TH", "TD") and above != "TR":
            found.append(f"09-004: {kind} in {above}")
        if kind == "LI" and above != "L":
            found.append(f"09-005: LI in {above}")
        if kind in ("Lbl", "LBody") and above != "LI":
            found.append(f"09-005: {kind} in {above}")
        entries = node.entries
        if kind == "Figure" and not (entries.get("/Alt") or entries.get("/ActualText")):
            found.append("13-004: a Figure without /Alt")
        if kind == "TH" and not _scope(entries):
            found.append("15-003: a TH without /Scope")
        if "/Lang" in entries and not LANGUAGE_TAG.match(str(entries["/Lang"])):
            found.append(f"11-001: /{kind}'s /Lang is {entries['/Lang']!r}")
        if re.fullmatch(r"H[1-6]", kind):
            headings.append(int(kind[1]))
    if headings and headings[0] != 1:
        found.append(f"14-002: the first heading is H{headings[0]}")
    found += [
        f"14-003: H{before} then H{after}"
        for before, after in zip(headings, headings[1:], strict=False)
        if after > before + 1
    ]
    return found


def _with_parents(node: Node, parent: Node | None):
    yield node, parent
    for kid in node.kids:
        yield from _with_parents(kid, node)


def _scope(entries: DictionaryObject) -> bool:
    attributes = entries.get("/A")
    owners = attributes if isinstance(attributes, ArrayObject) else [attributes]
    return any(
        isinstance(owner, DictionaryObject) and "/Scope" in owner for owner in owners if owner
    )


def _fonts(reader: PdfReader) -> list[str]:
    found = []
    seen: set[int] = set()
    for page in reader.pages:
        for font in _page_fonts(page["/Resources"]):
            ref = font.indirect_reference
            if ref is not None and ref.idnum in seen:
                continue
            if ref is not None:
                seen.add(ref.idnum)
            name = str(font.get("/BaseFont", "?"))
            descriptor = _descriptor(font)
            if descriptor is None or not any(
                key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")
            ):
                found.append(f"31: {name} is not embedded")
            if "/ToUnicode" not in font:
                found.append(f"31: {name} has no /ToUnicode")
    return found


def _page_fonts(resources: DictionaryObject):
    for font in (resources.get("/Font") or {}).values():
        yield font.get_object()
    for form in (resources.get("/XObject") or {}).values():
        form = form.get_object()
        if form.get("/Subtype") == "/Form" and "/Resources" in form:
            yield from _page_fonts(form["/Resources"].get_object())


def _descriptor(font: DictionaryObject) -> DictionaryObject | None:
    if "/DescendantFonts" in font:
        font = font["/DescendantFonts"][0].get_object()
    descriptor = font.get("/FontDescriptor")
    return descriptor.get_object() if descriptor is not None else None
