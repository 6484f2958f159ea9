"""A club night's tables of rows over pages: the room list's and the standings'.

Every cell is a label (``labels.fit_label``): a long name takes a second or third line,
and its row grows for it; rows fill a page (or a column of one) and carry on to the next,
each page with the headings. No text reaches a ``Paragraph``, so nothing a player typed
is read as markup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from io import BytesIO

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..i18n import _
from .labels import Label, fit_label
from .layout import FONT, FONT_BOLD, INK, SHADE, TextRun, new_canvas, page_size
from .tagging import artifact, tag

MARGIN = 12 * mm
GAP = 3 * mm
ROW = 6.5 * mm  # a row of one line; a long name's row is taller
CELL_PAD = 1.2 * mm  # between a cell's edge and its words
BODY_SIZE = 11
HEADING_SIZE = 9.5
TITLE_SIZE = 18


@dataclass(frozen=True)
class Column:
    """A column of a printed table: its heading, width and how its cells line up."""

    heading: str
    width: float
    align: str = "right"  # numbers line up on the right
    bold: bool = False


@dataclass(frozen=True)
class Line:
    """One row of a printed table: each cell's text, and whether it is printed in bold."""

    cells: tuple[str, ...]
    bold: bool = False


@dataclass(frozen=True)
class FittedRow:
    """A row fitted to its columns: each cell's label, and the row's height."""

    labels: tuple[Label, ...]
    height: float


def fit_rows(lines: Sequence[Line], columns: Sequence[Column]) -> list[FittedRow]:
    rows = []
    for line in lines:
        labels = tuple(
            fit_label(
                words,
                FONT_BOLD if line.bold or column.bold else FONT,
                column.width - 2 * CELL_PAD,
                size=BODY_SIZE,
                lines=3,
            )
            for words, column in zip(line.cells, columns, strict=True)
        )
        height = max(ROW, max(label.height for label in labels) + 2 * CELL_PAD)
        rows.append(FittedRow(labels, height))
    return rows


def headings(columns: Sequence[Column]) -> FittedRow:
    labels = tuple(
        fit_label(
            column.heading, FONT_BOLD, column.width - 2 * CELL_PAD, size=HEADING_SIZE, lines=2
        )
        for column in columns
    )
    return FittedRow(labels, max(ROW, max(label.height for label in labels) + 2 * CELL_PAD))


def paginate(rows: Sequence[FittedRow], rooms: Callable[[int], float]) -> list[list[FittedRow]]:
    """The rows of each block (a page, or a column of one), in order: block ``n`` holds
    ``rooms(n)`` points of rows, and at least one row."""
    blocks: list[list[FittedRow]] = [[]]
    used = 0.0
    for row in rows:
        if blocks[-1] and used + row.height > rooms(len(blocks) - 1):
            blocks.append([])
            used = 0.0
        blocks[-1].append(row)
        used += row.height
    return blocks


def draw_table(
    canvas: Canvas,
    run: TextRun,
    left: float,
    top: float,
    columns: Sequence[Column],
    heads: FittedRow,
    rows: Sequence[FittedRow],
    row_heading: int = 0,
) -> None:
    """The headings and the rows under them, every other row shaded, in a box; to a
    reader, a table whose column ``row_heading`` (the player's) heads each row."""
    width = sum(column.width for column in columns)
    body = top - heads.height
    bottom = body - sum(row.height for row in rows)
    with tag(run, "Table"):
        with artifact(canvas, "Layout"):
            canvas.saveState()
            canvas.setFillColor(SHADE)
            y = body
            for index, row in enumerate(rows):
                if index % 2:
                    canvas.rect(left, y - row.height, width, row.height, stroke=0, fill=1)
                y -= row.height
            canvas.setStrokeColor(INK)
            canvas.setLineWidth(0.8)
            canvas.line(left, body, left + width, body)
            canvas.setLineWidth(1)
            canvas.rect(left, bottom, width, top - bottom, stroke=1, fill=0)
            canvas.restoreState()
        y = top
        for index, row in enumerate((heads, *rows)):
            x = left
            with tag(run, "TR"):
                for place, (label, column) in enumerate(zip(row.labels, columns, strict=True)):
                    at = {
                        "left": x + CELL_PAD,
                        "centre": x + column.width / 2,
                        "right": x + column.width - CELL_PAD,
                    }[column.align]
                    if index == 0:
                        cell = tag(run, "TH", scope="Column")
                    elif place == row_heading:
                        cell = tag(run, "TH", scope="Row")
                    else:
                        cell = tag(run, "TD")
                    with cell:
                        label.draw_middle(run, at, y, row.height, column.align)
                    x += column.width
            y -= row.height


def draw_page_label(run: TextRun, number: int, pages: int, width: float) -> None:
    """'Page 2 of 5.' at the foot of the page, when there is more than one."""
    if pages > 1:
        words = _("Page %(number)s of %(pages)s.", number=number, pages=pages)
        label = fit_label(words, FONT, width - 2 * MARGIN, size=9)
        with artifact(run, "Pagination"):
            label.at(run, width / 2, MARGIN - 3 * mm, "centre")


def stack(
    run: TextRun, labels: Sequence[Label], left: float, top: float, kinds: Sequence[str] = ()
) -> float:
    """Labels one under another from ``top``, each a paragraph or what ``kinds`` says (a
    heading: "H1"; an artifact, for a reader to skip: "Artifact"); returns the y under the
    last."""
    for index, label in enumerate(labels):
        kind = kinds[index] if index < len(kinds) else "P"
        with artifact(run, "Pagination") if kind == "Artifact" else tag(run, kind):
            label.draw(run, left, top)
        top -= label.height + 1.5 * mm
    return top


def stacked(labels: Sequence[Label]) -> float:
    """The height ``stack`` takes for ``labels``."""
    return sum(label.height + 1.5 * mm for label in labels)


def board_pdf(
    pagesize: str,
    title: str,
    subject: str,
    lines: Sequence[Line],
    parts: Callable[[float], tuple[Sequence[Column], Sequence[Label], Sequence[Label]]],
) -> bytes:
    """A board as PDF bytes (``draw_board``); ``parts(inner)``: its columns and the first and
    later pages' headers, for a page whose margins leave ``inner`` points."""
    width, height = page_size(pagesize)
    buffer = BytesIO()
    canvas = new_canvas(buffer, (width, height), title, subject)
    columns, first, later = parts(width - 2 * MARGIN)
    draw_board(canvas, (width, height), columns, lines, first, later)
    canvas.save()
    return buffer.getvalue()


def draw_board(
    canvas: Canvas,
    size: tuple[float, float],
    columns: Sequence[Column],
    lines: Sequence[Line],
    first: Sequence[Label],
    later: Sequence[Label],
) -> None:
    """A board over as many pages as it needs: the first page under ``first`` (its first
    two labels the headings), every later one under ``later`` (for a reader to skip), each
    page's table repeating the column heads, and "Page 2 of 5." at each foot."""
    width, height = size
    heads = headings(columns)
    bottom = MARGIN + 2 * mm  # the page label sits under it
    rooms = [
        height - MARGIN - stacked(header) - GAP - heads.height - bottom for header in (first, later)
    ]
    pages = paginate(fit_rows(lines, columns), lambda page: rooms[min(page, 1)])
    for index, page_rows in enumerate(pages):
        header = first if index == 0 else later
        run = TextRun(canvas)
        stack(run, header, MARGIN, height - MARGIN, ("H1", "H2") if index == 0 else ("Artifact",))
        top = height - MARGIN - stacked(header) - GAP
        draw_table(canvas, run, MARGIN, top, columns, heads, page_rows, row_heading=1)
        draw_page_label(run, index + 1, len(pages), width)
        run.close()
        canvas.showPage()
