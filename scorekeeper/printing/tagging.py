"""A tagged PDF in print colours: a screen reader reads a record heading by heading, cell by
cell, in reading order; a print shop finds black in black ink alone.

reportlab 5.1 writes no structure tree of its own, so ``TaggedCanvas`` keeps one. Each page
is a section (/Sect) of the /Document. Drawing code opens a structure element around what it
draws, ``with tag(canvas, "H1"): ...``, nested as the page is (Table > TR > TH, L > LI >
LBody, a Figure with /Alt text for a QR code). Whatever is drawn inside an element is one
marked-content sequence with an MCID of its own (``/TD <</MCID 7>> BDC ... EMC``), found again
through the page's /StructParents and the parent tree; ``artifact`` marks what a reader skips
(cut marks, grid lines, shading, what a page repeats from the first). Text run together in one
``layout.TextRun`` is tagged inside the run (``tag(run, "TD")``); ``spoken`` gives part of a
run the words it reads as (a number with its tick, drawn as lines); ``read_last`` moves an
element drawn first (a page's foot) to the end of the reading order. A platypus table gets its
rows and cells tagged by ``TableTags`` (``ListTags`` for numbered lines), a flowable its
element by ``Tagged``.

A page drawn without tags is still a valid tagged page: what is drawn outside every element
belongs to the page's section, in drawing order. Nothing is marked inside a form XObject or
an artifact: a form is tagged where a page draws it. A sequence that paints nothing is left
out, so tags cost nothing where nothing is drawn. The catalogue says /MarkInfo <</Marked
true>> and, as reportlab already does, the language (/Lang); names in other scripts carry
their letters as /ActualText and their likely language as /Lang (``layout``). At ``save``
the document gets what PDF/UA-1 asks of it beside its tags (``metadata``) and the printing
condition of its colours (``press``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from functools import lru_cache
from types import TracebackType
from typing import Any, NamedTuple, Protocol

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from . import metadata, press

ARTIFACT = "Artifact"
# The operators that put ink on the page: a sequence without one is dropped.
_PAINTS = re.compile(r"(?<!\S)(?:Tj|TJ|'|\"|[SsfFBb]\*?|Do|sh|EI)(?!\S)")


class Run(Protocol):
    """A ``layout.TextRun``: its operators go on the page when it closes."""

    canvas: Canvas
    ops: list[str]


@dataclass(eq=False, slots=True)
class Element:
    """A structure element: its type, where it sits, and its content in reading order
    (structure elements, or MCIDs on its page)."""

    kind: str
    parent: Element | None
    page: int | None = None
    entries: str = ""  # more of its dictionary, as written: " /Alt <FEFF...>"
    kids: list[Element | int] = field(default_factory=list)
    ref: str = ""  # "12 0 R", once the document numbers its objects


class _Open(NamedTuple):
    """An element being drawn (``element`` None: an artifact, or a tag not marked at all) and
    the operators its content goes into (None: not marked)."""

    element: Element | None
    ops: list[str] | None


class _Sequence(NamedTuple):
    """A marked-content sequence to begin at ``ops[start]`` once something is drawn in it
    (``element`` None: an artifact, begun by ``opening``)."""

    start: int
    element: Element | None
    opening: str


def text_string(words: str) -> str:
    """A PDF text string for any words: UTF-16 in hex, so nothing in it needs escaping."""
    return f"<FEFF{words.encode('utf-16-be').hex().upper()}>"


@lru_cache(maxsize=256)
def entries(
    *,
    alt: str | None = None,
    actual: str | None = None,
    scope: str | None = None,
    rowspan: int = 1,
    colspan: int = 1,
    bbox: tuple[float, float, float, float] | None = None,
) -> str:
    """A structure element's own entries: /Alt (a figure's words), /ActualText (what its
    content reads as), a table cell's /Scope and spans, a figure's /BBox."""
    said = []
    if alt is not None:
        said.append(f"/Alt {text_string(alt)}")
    if actual is not None:
        said.append(f"/ActualText {text_string(actual)}")
    table = [f"/Scope /{scope}"] if scope else []
    table += [f"/RowSpan {rowspan}"] if rowspan != 1 else []
    table += [f"/ColSpan {colspan}"] if colspan != 1 else []
    owners = [f"<< /O /Table {' '.join(table)} >>"] if table else []
    if bbox is not None:
        owners.append(f"<< /O /Layout /BBox [{' '.join(f'{v:.2f}' for v in bbox)}] >>")
    if owners:
        said.append(f"/A {owners[0] if len(owners) == 1 else '[' + ' '.join(owners) + ']'}")
    return "".join(f" {entry}" for entry in said)


class TaggedCanvas(Canvas):
    """A canvas whose PDF has a structure tree: a section per page, in page order, with the
    elements its drawing code tags."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # black ink alone for black and greys, CMYK for colours (reportlab's tables and
        # paragraphs set their own black in RGB)
        kwargs["enforceColorSpace"] = "cmyk"
        super().__init__(*args, **kwargs)
        self.language: str = kwargs.get("lang") or "en"  # the document's (/Lang)
        self._document = Element("Document", None)
        self._pages: list[tuple[str, list[Element]]] = []  # each page's name, MCIDs' elements
        self._begin_page()

    # --- tags ------------------------------------------------------------------------

    def begin(self, kind: str, *, into: list[str] | None = None, said: str = "") -> Element | None:
        """Open an element of type ``kind`` (``ARTIFACT``: mark what follows as one) in the
        one open, its content drawn into ``into`` (a text run's operators) or on the page;
        ``said``: its ``entries``. Close it with ``end``. Returns the element, if one was
        opened (not inside a form or an artifact)."""
        if self._hidden or self._formData is not None:
            self._open.append(_Open(None, None))
            return None
        ops = self._code if into is None else into
        self._pause(ops)
        if ops is not self._code:  # the run goes on the page later, outside any sequence
            self._pause(self._code)
        if kind == ARTIFACT:
            self._hidden += 1
            self._open.append(_Open(None, ops))
            self._mark(ops, None, f"/Artifact <<{said} >> BDC" if said else "/Artifact BMC")
            return None
        parent = self._open[-1].element
        assert parent is not None
        element = Element(kind, parent, self._page, said)
        parent.kids.append(element)
        self._open.append(_Open(element, ops))
        self._mark(ops, element)
        return element

    def end(self) -> None:
        """Close the element (or artifact) opened last."""
        done = self._open.pop()
        if done.ops is None:
            return
        if done.element is None:
            self._hidden -= 1
        self._pause(done.ops)
        parent = self._open[-1]
        if parent.ops is done.ops and parent.element is not None:
            self._mark(done.ops, parent.element)  # what follows is the parent's again

    def _mark(self, ops: list[str], element: Element | None, opening: str = "") -> None:
        """Begin a sequence in ``ops``: its opening is put in when it ends, if it painted."""
        self._sequences[id(ops)] = _Sequence(len(ops), element, opening)

    def _pause(self, ops: list[str]) -> None:
        """End the sequence open in ``ops``: with an MCID if it painted, else left out."""
        sequence = self._sequences.pop(id(ops), None)
        if sequence is None:
            return
        start, element, opening = sequence
        if len(ops) == start or not _paints(ops, start):
            return
        if element is not None:
            mcid = len(self._mcids)
            self._mcids.append(element)
            element.kids.append(mcid)
            opening = f"/{element.kind} <</MCID {mcid}>> BDC"
        ops.insert(start, opening)
        ops.append("EMC")

    def beginForm(self, *args: Any, **kwargs: Any) -> None:  # noqa: N802 (reportlab's name)
        # reportlab would draw the form into the page's own list of operators when it is
        # empty: a sequence open on the page must stay in the page's list
        if not self._code and self._formData is None:
            self._pushAccumulators()
        super().beginForm(*args, **kwargs)

    # --- pages -----------------------------------------------------------------------

    def _begin_page(self) -> None:
        self._mcids: list[Element] = []  # the element of each MCID on this page
        self._sequences: dict[int, _Sequence] = {}  # the open one in each list of operators
        self._hidden = 0  # artifacts open
        self._page = len(self._pages)
        section = Element("Sect", self._document, self._page)
        self._document.kids.append(section)
        self._open = [_Open(self._document, None), _Open(section, self._code)]
        self._mark(self._code, section)

    def showPage(self) -> None:  # noqa: N802 (reportlab's name)
        if len(self._open) != 2:
            kinds = [each.element.kind if each.element else ARTIFACT for each in self._open[2:]]
            raise ValueError(f"tags left open at the end of a page: {kinds}")
        self._pause(self._code)
        name = self._doc.thisPageName()
        super().showPage()
        page = self._doc.Pages.pages[-1]
        page.__NoDefault__ = [*pdfdoc.PDFPage.__NoDefault__, "StructParents"]
        page.StructParents = len(self._pages)
        self._pages.append((name, self._mcids))
        self._begin_page()

    def save(self) -> None:
        if self._code:
            self.showPage()
        else:  # nothing drawn since the last page: no page more
            self._document.kids.pop()
        self._structure()
        metadata.describe(self, self.language)
        press.output_intent(self._doc)
        super().save()

    # --- the structure tree ---------------------------------------------------------

    def _structure(self) -> None:
        """Every element an object of its own (the parent tree refers to them), written out
        here: the document numbers them in tree order."""
        doc = self._doc
        root = doc.Reference(_Written(), "StructTreeRoot")
        numbers = doc.idToObjectNumberAndVersion
        elements = list(_walk(self._document))
        objects = [_Written() for _ in elements]
        for index, (element, written) in enumerate(zip(elements, objects, strict=True)):
            name = f"StructElem{index}"
            doc.Reference(written, name)
            element.ref = f"{numbers[name][0]} 0 R"
        pages = [f"{numbers[name][0]} 0 R" for name, _mcids in self._pages]
        for element, written in zip(elements, objects, strict=True):
            parent = element.parent.ref if element.parent else f"{numbers['StructTreeRoot'][0]} 0 R"
            said = [f"<< /S /{element.kind} /P {parent}"]
            if element.page is not None and any(isinstance(kid, int) for kid in element.kids):
                said.append(f" /Pg {pages[element.page]}")
            if element.kids:
                kids = (kid if isinstance(kid, int) else kid.ref for kid in element.kids)
                said.append(f" /K [{' '.join(map(str, kids))}]")
            written.data = f"{''.join(said)}{element.entries} >>".encode("latin-1")
        nums = " ".join(
            f"{index} [{' '.join(element.ref for element in mcids)}]"
            for index, (_name, mcids) in enumerate(self._pages)
        )
        doc.idToObject["StructTreeRoot"].data = (
            f"<< /Type /StructTreeRoot /K {self._document.ref}"
            f" /ParentTree << /Nums [{nums}] >> /ParentTreeNextKey {len(self._pages)} >>"
        ).encode("latin-1")
        doc.Catalog.StructTreeRoot = root
        doc.Catalog.MarkInfo = pdfdoc.PDFDictionary({"Marked": "true"})  # a bare word


def _paints(ops: list[str], start: int) -> bool:
    """True when an operator from ``ops[start]`` on puts ink on the page (from the last: a
    cell's text ends with its Tj)."""
    return any(_PAINTS.search(ops[index]) for index in range(len(ops) - 1, start - 1, -1))


class _Written(pdfdoc.PDFObject):
    """An object whose PDF is written out beforehand: thousands of cells format fast."""

    data = b""

    def format(self, document: Any) -> bytes:
        return self.data


def _walk(element: Element) -> Iterator[Element]:
    yield element
    for kid in element.kids:
        if isinstance(kid, Element):
            yield from _walk(kid)


# --- for drawing code ---------------------------------------------------------------------


class _Tag:
    """``tag`` and ``artifact`` as a context manager (a class: cheaper than a generator, and
    a record tags thousands of cells)."""

    __slots__ = ("canvas", "into", "kind", "said")

    def __init__(self, canvas: TaggedCanvas, kind: str, into: list[str] | None, said: str):
        self.canvas, self.kind, self.into, self.said = canvas, kind, into, said

    def __enter__(self) -> Element | None:
        return self.canvas.begin(self.kind, into=self.into, said=self.said)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.canvas.end()


def _target(where: Canvas | Run) -> tuple[Canvas, list[str] | None]:
    if isinstance(where, Canvas):
        return where, None
    return where.canvas, where.ops


def tag(
    where: Canvas | Run, kind: str, **attributes: Any
) -> AbstractContextManager[Element | None]:
    """What is drawn inside, on a canvas or into a text run, as a structure element of type
    ``kind`` ("H1", "P", "TD"...), which it gives (None where nothing is tagged: on a canvas
    that keeps no structure tree, in a form or an artifact); ``attributes`` as ``entries``
    takes them."""
    canvas, into = _target(where)
    if not isinstance(canvas, TaggedCanvas):
        return nullcontext()
    return _Tag(canvas, kind, into, entries(**attributes) if attributes else "")


def artifact(where: Canvas | Run, kind: str | None = None) -> AbstractContextManager[Any]:
    """What is drawn inside as an artifact, for a reader to skip; ``kind``: "Pagination"
    (what a page repeats) or "Layout" (rules and shading), when it is one of those."""
    canvas, into = _target(where)
    if not isinstance(canvas, TaggedCanvas):
        return nullcontext()
    return _Tag(canvas, ARTIFACT, into, f" /Type /{kind}" if kind else "")


@contextmanager
def spoken(run: Run, words: str) -> Iterator[None]:
    """What is drawn inside a text run read as ``words`` (/ActualText): a number with the tick
    beside it, which is drawn as lines."""
    run.ops.append(f"/Span <</ActualText {text_string(words)}>> BDC")
    yield
    run.ops.append("EMC")


def read_last(element: Element | None) -> None:
    """Move an element to the end of its parent: drawn first (the foot of a page, which the
    page's other parts are measured from), read last."""
    if element is not None and element.parent is not None:
        element.parent.kids.remove(element)
        element.parent.kids.append(element)


class Tagged(Flowable):
    """A platypus flowable drawn as a structure element of its own ("P", "H2", "Figure")."""

    def __init__(self, kind: str, flowable: Flowable, **attributes: Any):
        super().__init__()
        self.kind, self.flowable, self.attributes = kind, flowable, attributes

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width, self.height = self.flowable.wrap(available_width, available_height)
        return self.width, self.height

    def minWidth(self) -> float:  # noqa: N802 (reportlab's name)
        return self.flowable.minWidth()

    def getSpaceBefore(self) -> float:  # noqa: N802
        return self.flowable.getSpaceBefore()

    def getSpaceAfter(self) -> float:  # noqa: N802
        return self.flowable.getSpaceAfter()

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        parts = self.flowable.split(available_width, available_height)
        return [Tagged(self.kind, part, **self.attributes) for part in parts]

    def drawOn(self, canvas: Canvas, x: float, y: float, _sW: float = 0) -> None:  # noqa: N802, N803
        with tag(canvas, self.kind, **self.attributes):
            self.flowable.drawOn(canvas, x, y, _sW)


class TableTags:
    """A platypus table's ``renderCB``: the table tagged row by row and cell by cell, its
    shading and lines as artifacts. The first ``header_rows`` rows are headings (TH of their
    column), and so is each cell in ``header_columns`` (TH of its row)."""

    table, row = "Table", "TR"

    def __init__(self, header_rows: int = 1, header_columns: Collection[int] = ()):
        self.header_rows, self.header_columns = header_rows, frozenset(header_columns)

    def __call__(self, table: Any, event: str, *args: Any) -> None:
        canvas = table.canv
        if not isinstance(canvas, TaggedCanvas):
            return
        if event in ("startBG", "startLines"):
            canvas.begin(ARTIFACT)
        elif event == "startTable":
            canvas.begin(self.table)
        elif event == "startRow":
            canvas.begin(self.row)
        elif event == "startCell":
            kind, said = self._cell(table, args[0], args[1])
            canvas.begin(kind, said=said)
        elif event.startswith("end"):
            canvas.end()

    def _cell(self, table: Any, row: int, column: int) -> tuple[str, str]:
        spans = getattr(table, "_spanRanges", None) or {}
        first_column, first_row, last_column, last_row = spans.get(
            (column, row), (column, row, column, row)
        )
        span = {"rowspan": last_row - first_row + 1, "colspan": last_column - first_column + 1}
        if row < self.header_rows:
            return "TH", entries(scope="Column", **span)
        if column in self.header_columns:
            return "TH", entries(scope="Row", **span)
        return "TD", entries(**span)


class ListTags(TableTags):
    """A platypus table of numbered lines read as a list: a row an item, its first cell the
    label (the number), the rest its body."""

    table, row = "L", "LI"

    def __init__(self) -> None:
        super().__init__(header_rows=0)

    def _cell(self, table: Any, row: int, column: int) -> tuple[str, str]:
        return ("Lbl" if column == 0 else "LBody"), ""
