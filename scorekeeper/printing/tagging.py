"""A tagged PDF in print colours, as far as reportlab allows: a screen reader reads each page
in order, a print shop finds black in black ink alone.

reportlab 5.1 writes no structure tree of its own. ``TaggedCanvas`` does the
least a reader needs: each page's content is one marked-content sequence,
referenced from a structure element (a section, in a Document) through the
page's /StructParents and the parent tree; the catalogue says /MarkInfo
<</Marked true>> and, as reportlab already does, the language (/Lang). Within
a page the content is in reading order (title, rules, then the table row by
row), names in other scripts carry their letters as /ActualText (``layout``).
What it does not do: tag headings, tables and cells one by one.
"""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

_BEGIN = "/Sect <</MCID 0>> BDC"


class TaggedCanvas(Canvas):
    """A canvas whose PDF has a structure tree: one section per page, in page order."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # black ink alone for black and greys, CMYK for colours (reportlab's tables and
        # paragraphs set their own black in RGB)
        kwargs["enforceColorSpace"] = "cmyk"
        super().__init__(*args, **kwargs)
        self._tagged_pages: list[str] = []  # each page's object name
        self._code.append(_BEGIN)

    def showPage(self) -> None:  # noqa: N802 (reportlab's name)
        self._code.append("EMC")
        name = self._doc.thisPageName()
        super().showPage()
        page = self._doc.Pages.pages[-1]
        page.__NoDefault__ = [*pdfdoc.PDFPage.__NoDefault__, "StructParents"]
        page.StructParents = len(self._tagged_pages)
        self._tagged_pages.append(name)
        self._code.append(_BEGIN)

    def save(self) -> None:
        if self._code == [_BEGIN]:  # nothing drawn since the last page: no page more
            self._code.clear()
        self._structure()
        super().save()

    def _structure(self) -> None:
        doc = self._doc
        root = pdfdoc.PDFObjectReference("StructTreeRoot")
        document = pdfdoc.PDFObjectReference("StructDocument")
        sections = []
        parents = []
        for index, page in enumerate(self._tagged_pages):
            section = pdfdoc.PDFDictionary(
                {
                    "Type": pdfdoc.PDFName("StructElem"),
                    "S": pdfdoc.PDFName("Sect"),
                    "P": document,
                    "Pg": pdfdoc.PDFObjectReference(page),
                    "K": 0,
                }
            )
            reference = doc.Reference(section, f"StructSect{index}")
            sections.append(reference)
            parents += [index, pdfdoc.PDFArray([reference])]
        doc.Reference(
            pdfdoc.PDFDictionary(
                {
                    "Type": pdfdoc.PDFName("StructElem"),
                    "S": pdfdoc.PDFName("Document"),
                    "P": root,
                    "K": pdfdoc.PDFArray(sections),
                }
            ),
            "StructDocument",
        )
        doc.Reference(
            pdfdoc.PDFDictionary(
                {
                    "Type": pdfdoc.PDFName("StructTreeRoot"),
                    "K": document,
                    "ParentTree": pdfdoc.PDFDictionary({"Nums": pdfdoc.PDFArray(parents)}),
                    "ParentTreeNextKey": len(self._tagged_pages),
                }
            ),
            "StructTreeRoot",
        )
        doc.Catalog.StructTreeRoot = root
        doc.Catalog.MarkInfo = pdfdoc.PDFDictionary({"Marked": "true"})  # a bare word
