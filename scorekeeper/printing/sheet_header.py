"""The top of a score sheet's page: the title, the rules, when and where the game was
played, the result so far, and the game's QR code with its link to type (a blank sheet
has lines for the date and the place instead).

The table of hands starts under it (``bottom``), at the same height on every page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..i18n import _
from .labels import ASCENT, DESCENT, Label, fit_label, fit_whole
from .layout import FONT, FONT_BOLD, FONT_MONO, GREY, Fitted, TextRun, escape, fit
from .link import printed_link
from .qr import draw_qr
from .record import Played, Record
from .sheet_page import GAP, MARGIN, SheetPage
from .tagging import tag
from .text import code_words

QR_SIZE = 25 * mm
TITLE_SIZE = 18
# Six names of 40 letters each, whole, in 4 lines; of the widest letters (40 W's, or 40
# Chinese characters) more, at the floor: 7 lines, 9 for four names in large print.
TITLE_LINES, MOST_TITLE_LINES = 4, 9
RULES_SIZE = 9
# Every option changed, beside the QR code, in the longest language: 9 lines at 9 pt (13 at
# 14 pt in large print, whose box grows with the square of its type: longer lines, taller).
RULES_HEIGHT = 35 * mm
FACTS_GAP = 0.8 * mm  # between the rules and when the game was played
FACTS_LINES, MOST_FACTS_LINES = 3, 4  # 4: a table name of 60 W's, in large print
SUMMARY_SIZE = 11
SUMMARY_HEIGHT = 2 * SUMMARY_SIZE * 1.2  # at least two lines at 11 pt, the same on every page
# A tiebreak for the widest names, at the floor: 9 lines for six, 12 for four in large print.
SUMMARY_LINES, MOST_SUMMARY_LINES = 4, 12
LINK_HEIGHT = 1 * mm + 2 * 10 * 1.25  # the caption and the link under the summary
ACCENTS = 0.2  # of the size: how far accents reach above capitals, kept inside the margin


def page_label(number: int, pages: int) -> str:
    return _("Page %(number)s of %(pages)s.", number=number, pages=pages)


@dataclass
class SheetHeader:
    """The top of each page. ``rules_words``: the rules in a line (``rules_line``);
    ``players``: the names at the head of the columns (a sheet with none, and no link, has
    lines to write the date and the place on); ``record``: a game's, whose sentence says
    the result so far."""

    page: SheetPage
    rules_words: str
    title: str
    players: Sequence[str]
    view_url: str | None
    code: str | None
    played: Played | None
    record: Record | None

    @property
    def width(self) -> float:
        """The words' width: the page's, less the QR code's corner."""
        width = self.page.width - 2 * MARGIN
        return width - QR_SIZE - GAP if self.view_url else width

    @cached_property
    def title_label(self) -> Label:
        return fit_whole(
            self.title,
            FONT_BOLD,
            self.width,
            size=TITLE_SIZE,
            min_size=self.page.type_size(11),
            lines=TITLE_LINES,
            most_lines=MOST_TITLE_LINES,
        )

    @property
    def title_height(self) -> float:
        return self.title_label.height + ACCENTS * self.title_label.size

    @cached_property
    def rules_box(self) -> Fitted:
        return fit(
            _("<b>Rules:</b> ") + escape(self.rules_words),
            self.width,
            RULES_HEIGHT * self.page.grow**2,
            size=self.page.type_size(RULES_SIZE),
            min_size=self.page.floor,
        )

    @cached_property
    def facts(self) -> Label | None:
        """When the game was played (in the table's time zone), how long it took, where."""
        if self.played is None:
            return None
        return fit_whole(
            self.played.words(),
            FONT,
            self.width,
            size=self.page.type_size(RULES_SIZE),
            min_size=self.page.floor,
            lines=FACTS_LINES,
            most_lines=MOST_FACTS_LINES,
        )

    @property
    def rules_height(self) -> float:
        """The rules and, for a game, when and where it was played."""
        facts = self.facts
        return self.rules_box.height + (FACTS_GAP + facts.height if facts is not None else 0.0)

    def summary(self, label: str, height: float | None = None) -> Label:
        """The result so far, with the page's label (``page_label``) after it."""
        words = " ".join(filter(None, (self.record.summary if self.record else "", label)))
        return fit_whole(
            words,
            FONT_BOLD,
            self.width,
            size=self.page.type_size(SUMMARY_SIZE),
            min_size=self.page.floor,
            lines=SUMMARY_LINES,
            most_lines=MOST_SUMMARY_LINES,
            height=height or self.summary_height,
        )

    @cached_property
    def summary_height(self) -> float:
        """Room for the sentence under the title on every page: two lines, or what long
        names need (with the longest page label)."""
        longest = self.summary(page_label(99, 99), height=10_000)
        return max(SUMMARY_HEIGHT * self.page.grow, longest.height + DESCENT * longest.size)

    def bottom(self) -> float:
        """The y where the table may start (the same on every page)."""
        height = self.page.height
        y = height - MARGIN - self.title_height - 1 * mm - self.rules_height
        if self.record is not None:
            y -= 1.5 * mm + self.summary_height
        if self.view_url:
            y -= LINK_HEIGHT * self.page.grow
        elif not self.players:
            y -= 7 * mm
        qr_bottom = height - MARGIN - QR_SIZE if self.view_url else height
        return min(y, qr_bottom)

    def continued_label(self, label: str) -> Label:
        """A page after a first page the top fills alone (``SheetHeader.fills_page``): its
        label only, the table under it."""
        return fit_whole(
            label,
            FONT_BOLD,
            self.page.width - 2 * MARGIN,
            size=self.page.type_size(SUMMARY_SIZE),
            min_size=self.page.floor,
            lines=SUMMARY_LINES,
            most_lines=SUMMARY_LINES,
        )

    def continued_bottom(self) -> float:
        """The y where the table may start on such a page (the longest page label)."""
        longest = self.continued_label(page_label(99, 99))
        return self.page.height - MARGIN - longest.height - DESCENT * longest.size

    def draw_continued(self, canvas: Canvas, label: str) -> None:
        """The top of a page after a first page the top fills alone: the page's label."""
        with tag(canvas, "P"):
            run = TextRun(canvas)
            self.continued_label(label).draw(run, MARGIN, self.page.height - MARGIN)
            run.close()

    def draw(self, canvas: Canvas, label: str, *, first: bool) -> None:
        """Title, rules, the result so far and (for a game) the QR link: the title a
        heading, each other part a paragraph, the code a figure; ``label``: the page's."""
        form, repeated = self.page.form, self.page.repeated
        left, top = MARGIN, self.page.height - MARGIN
        below_rules = top - self.title_height - 1 * mm - self.rules_height
        with repeated(canvas, first):
            with tag(canvas, "H1"):
                form(canvas, "title", self._draw_title)
            with tag(canvas, "P"):
                form(canvas, "rules", self._draw_rules)
            if self.facts is not None:
                with tag(canvas, "P"):
                    form(canvas, "facts", self._draw_facts)
        if self.record is not None:
            with tag(canvas, "P"):
                run = TextRun(canvas)
                self.summary(label).draw(run, left, below_rules - 1.5 * mm)
                run.close()
            below_rules -= 1.5 * mm + self.summary_height
        with repeated(canvas, first):
            if self.view_url:
                with tag(canvas, "P"):
                    form(
                        canvas,
                        "link",
                        lambda c: self._link(c, left, below_rules - 1 * mm, self.width),
                    )
                right = self.page.width - MARGIN
                corner = (right - QR_SIZE, top - QR_SIZE, right, top)
                alt = code_words("game", self.view_url)
                with tag(canvas, "Figure", alt=alt, bbox=corner):
                    form(
                        canvas,
                        "qr",
                        lambda c: draw_qr(c, self.view_url or "", *corner[:2], QR_SIZE),
                    )
            elif not self.players:
                with tag(canvas, "P"):
                    form(
                        canvas,
                        "date",
                        lambda c: self._date_and_place(c, left, below_rules - 6 * mm, self.width),
                    )

    def _draw_title(self, canvas: Canvas) -> None:
        run = TextRun(canvas)
        title = self.title_label
        title.draw(run, MARGIN, self.page.height - MARGIN - ACCENTS * title.size)
        run.close()

    def _draw_rules(self, canvas: Canvas) -> None:
        self.rules_box.draw(canvas, MARGIN, self.page.height - MARGIN - self.title_height - 1 * mm)

    def _draw_facts(self, canvas: Canvas) -> None:
        if self.facts is None:
            return
        top = self.page.height - MARGIN - self.title_height - 1 * mm - self.rules_box.height
        run = TextRun(canvas)
        self.facts.draw(run, MARGIN, top - FACTS_GAP)
        run.close()

    def _date_and_place(self, canvas: Canvas, left: float, line: float, width: float) -> None:
        """A blank sheet's lines to write the date and the place on."""
        size, floor = self.page.type_size(9), self.page.floor
        run = TextRun(canvas)
        date = fit_label(_("Date"), FONT, 20 * mm, size=size, min_size=floor)
        where = fit_label(_("Where"), FONT, 20 * mm, size=size, min_size=floor)
        date.draw(run, left, line + ASCENT * date.size)
        where.draw(run, left + 70 * mm, line + ASCENT * where.size)
        run.close()
        canvas.setStrokeColor(GREY)
        canvas.setLineWidth(0.5)
        canvas.line(left + date.width + 2 * mm, line - 1, left + 62 * mm, line - 1)
        canvas.line(left + 70 * mm + where.width + 2 * mm, line - 1, left + width, line - 1)

    def _link(self, canvas: Canvas, left: float, top: float, width: float) -> None:
        """The link for anyone without a camera, to read aloud and type.

        In a monospaced font whose 0/O and 1/l/I differ: with the game's short
        code, the app's address and the code in groups of four.
        """
        run = TextRun(canvas)
        caption = fit_label(
            _("Live scores: scan the code, or type this link:"),
            FONT_BOLD,
            width,
            size=self.page.type_size(9),
            min_size=self.page.floor,
        )
        caption.draw(run, left, top)
        link = fit_label(
            printed_link(self.view_url or "", self.code),
            FONT_MONO,
            width,
            size=self.page.type_size(10),
            min_size=self.page.floor,
        )
        link.draw(run, left, top - caption.height - 2)
        run.close()
