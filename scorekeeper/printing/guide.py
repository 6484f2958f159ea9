"""The two-deck guide: playing Phase 10 with two standard decks and their jokers.

One page that stands alone: what each playing card becomes, which suit stands
for which colour (this game's mapping, or the default), the points, a count
that shows the two decks really make the 108 cards of a Phase 10 deck, what to
do without enough jokers, how a hand is played, and the phases.

Its top corner carries a QR code when an address is known: a game's own guide
opens that game, and the guide the app serves opens the app (at the address
``serve`` announced), with the link printed for anyone without a camera. The
copy in ``printables/`` is built without a server, so it knows no address: it
says where to print a copy that has one.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO

from reportlab.lib.colors import CMYKColor
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from .. import i18n
from ..i18n import N_, _
from ..rules.cards import (
    COPIES_PER_NUMBER_AND_COLOUR,
    DECK_SIZE,
    DECK_SKIPS,
    DECK_WILDS,
    DEFAULT_SUIT_COLOURS,
    Colour,
    deck,
)
from ..rules.house_rules import progression_note, rules_line
from ..rules.ruleset import Rules
from . import fonts, text
from .labels import Label, fit_label
from .layout import (
    AUTHOR,
    FONT,
    FONT_BOLD,
    FONT_MONO,
    INK,
    LIGHT,
    SHADE,
    WHITE,
    LayoutError,
    TextRun,
    escape,
    page_size,
    plain,
    style,
)
from .link import printed_link
from .qr import draw_qr
from .tagging import ListTags, TableTags, Tagged, TaggedCanvas, tag

MARGIN = 13 * mm
BODY_SIZES = (11, 10.5, 10, 9.5, 9)  # the largest that keeps the guide to one page
HEADING_SCALE = 1.25
TITLE_SIZE = 20
SWATCH = 4.5 * mm

DECKS = 2
NUMBER_RANKS = 12  # Ace to Queen: the Kings are Wild
SUITS_PER_DECK = 4
JOKERS_PER_DECK = 2

# Ink for the colour swatches, in a print shop's process colours (CMYK); the word and letter
# are always printed beside them.
INKS = {
    Colour.RED: CMYKColor(0, 0.9, 0.85, 0.1),
    Colour.BLUE: CMYKColor(0.9, 0.6, 0, 0.05),
    Colour.GREEN: CMYKColor(0.85, 0.1, 0.95, 0.1),
    Colour.YELLOW: CMYKColor(0, 0.15, 0.95, 0),
}
QR_SIZE = 22 * mm
QR_COLUMN = QR_SIZE + 4 * mm  # the QR code and its caption, beside the opening
CAPTION_SIZE = 9
PLAY = N_(
    "Deal 10 cards each and turn one card up to start the discard pile. On your turn, draw "
    "one card (from the deck or the discard pile), lay down your phase if you can (once per "
    "hand), then add cards to groups already down (a hit), and end by discarding one card. "
    "The first player to get rid of every card goes out and ends the hand; everyone who "
    "laid down their phase moves on to the next one."
)
SUIT_GLYPHS = {"H": "\u2665", "D": "\u2666", "C": "\u2663", "S": "\u2660"}


@dataclass(frozen=True)
class CardCount:
    """The two-deck count, step by step, so the guide can show its working."""

    numbers: int
    wilds: int
    skips: int

    @property
    def total(self) -> int:
        return self.numbers + self.wilds + self.skips


def two_deck_count() -> CardCount:
    """Count what two decks with jokers give, and check it against a Phase 10 deck."""
    count = CardCount(
        numbers=DECKS * SUITS_PER_DECK * NUMBER_RANKS,
        wilds=DECKS * SUITS_PER_DECK,  # one King per suit
        skips=DECKS * JOKERS_PER_DECK,
    )
    expected = CardCount(
        numbers=NUMBER_RANKS * len(Colour) * COPIES_PER_NUMBER_AND_COLOUR,
        wilds=DECK_WILDS,
        skips=DECK_SKIPS,
    )
    if count != expected or count.total != DECK_SIZE or len(deck()) != DECK_SIZE:
        raise AssertionError(f"two decks give {count}, a Phase 10 deck needs {expected}")
    return count


class Swatch(Flowable):
    """A small square of the colour with its letter: never colour alone."""

    def __init__(self, colour: Colour):
        super().__init__()
        self.colour = colour
        self.width = self.height = SWATCH

    def draw(self) -> None:
        canvas = self.canv
        canvas.setFillColor(INKS[self.colour])
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.5)
        canvas.rect(0, 0, SWATCH, SWATCH, stroke=1, fill=1)
        canvas.setFillColor(INK if self.colour is Colour.YELLOW else WHITE)
        canvas.setFont(FONT_BOLD, 9)
        canvas.drawCentredString(SWATCH / 2, SWATCH / 2 - 2.8, self.colour.value)


class Code(Flowable):
    """The QR code, flush with the top right of its cell, and a word on what it opens
    centred under it: a figure whose words (``alt``) say what it opens and its link, read
    after the opening."""

    def __init__(self, url: str, caption: Label, width: float, alt: str):
        super().__init__()
        self.url, self.caption, self.alt = url, caption, alt
        self.width, self.height = width, QR_SIZE + 1.5 * mm + caption.height

    def draw(self) -> None:
        canvas = self.canv
        x, y = self.width - QR_SIZE, self.height - QR_SIZE
        with tag(canvas, "Figure", alt=self.alt):
            draw_qr(canvas, self.url, x, y, QR_SIZE)
        with tag(canvas, "P"):
            run = TextRun(canvas)
            self.caption.draw(run, x + QR_SIZE / 2, y - 1.5 * mm, "centre")
            run.close()


class DeckGuide:
    """The one-page guide; ``build()`` returns the PDF.

    ``view_url``: a game's view link (a game's own guide), with ``code`` its short
    code to print as the link to type; ``app_url``: the app's home page, for a
    guide printed from the app. Either puts a QR code in the top corner and a
    printed link in the opening; without either the guide says where to print a
    copy with one.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        pagesize: str = "letter",
        view_url: str | None = None,
        app_url: str | None = None,
        code: str | None = None,
    ):
        self.rules = rules
        self.view_url = view_url
        self.app_url = app_url
        self.code = code
        self.qr_url = view_url or app_url
        self.pagesize = page_size(pagesize)
        self.count = two_deck_count()
        self.size: float = BODY_SIZES[0]
        self.phase_list = True

    def build(self) -> bytes:
        """The largest type that keeps one page; a long phase list gives way first."""
        for self.phase_list in (True, False):
            for size in BODY_SIZES:
                self.size = size
                data, page_count = self._render()
                if page_count == 1:
                    return data
        raise LayoutError(_("the two-deck guide does not fit on one page"))

    def _render(self) -> tuple[bytes, int]:
        buffer = BytesIO()
        document = BaseDocTemplate(
            buffer,
            pagesize=self.pagesize,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=MARGIN,
            bottomMargin=MARGIN,
            title=_("Phase 10 with two regular decks"),
            subject=plain(rules_line(self.rules)),
            author=AUTHOR,
            creator=AUTHOR,
            invariant=1,
            initialFontName=FONT,
            lang=i18n.language(),
        )
        # No padding inside the frame: the text is as wide as the tables, the page centred.
        frame = Frame(
            MARGIN,
            MARGIN,
            document.width,
            document.height,
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
        )
        document.addPageTemplates([PageTemplate("guide", [frame])])
        document.build(self._story(document.width), canvasmaker=TaggedCanvas)
        return buffer.getvalue(), document.page

    def _caption(self) -> Label:
        words = _("Scan for this game") if self.view_url else _("Scan to keep score")
        return fit_label(words, FONT, QR_COLUMN, size=CAPTION_SIZE, lines=2)

    def _app_line(self) -> Flowable:
        """Where the scorekeeper is: its printed link, or where to print a copy with a code."""
        if self.view_url:
            link = printed_link(self.view_url, self.code)
            return self._p(
                _(
                    "<b>Live scores on your phones:</b> scan the code, or type %(link)s "
                    "into a phone's browser.",
                    link=f'<font name="{FONT_MONO}">{escape(link)}</font>',
                )
            )
        if self.app_url:
            link = f'<font name="{FONT_MONO}">{escape(self.app_url)}</font>'
            return self._p(
                _(
                    "<b>Keep score on your phones:</b> scan the code, or open %(link)s "
                    "in a phone's browser.",
                    link=link,
                )
            )
        return self._p(
            _(
                "<b>Keep score on your phones</b> with the Phase 10 Scorekeeper: print this "
                "guide from its <b>Print for the table</b> page, and your copy will carry a "
                "code that opens the scorekeeper."
            )
        )

    def _p(self, markup: str, paragraph_style=None, kind: str = "P") -> Flowable:
        """A paragraph, read as one (or as a heading: ``kind``)."""
        return Tagged(kind, Paragraph(markup, paragraph_style or style(self.size)))

    def _heading(self, words: str) -> list[Flowable]:
        return [
            Spacer(1, 2.5 * mm),
            self._p(escape(words), style(self.size * HEADING_SCALE, bold=True), "H2"),
            Spacer(1, 1.5 * mm),
        ]

    def _story(self, width: float) -> list[Flowable]:
        beside = QR_COLUMN + 4 * mm if self.qr_url else 0
        title_width = width - beside
        opening = [
            self._p(
                escape(_("Phase 10 with two regular decks")), style(TITLE_SIZE, bold=True), "H1"
            ),
            Spacer(1, 2 * mm),
            self._p(
                _(
                    "No Phase 10 deck? Shuffle two standard 52-card decks together with their "
                    "jokers: that makes the same 108 cards. Play by the usual rules."
                )
            ),
        ]
        opening += [Spacer(1, 1.5 * mm), self._app_line()]
        row: list = [opening]
        if self.qr_url:  # the code and its caption in the top corner
            alt = text.code_words("game" if self.view_url else "app", self.qr_url)
            row.append(Code(self.qr_url, self._caption(), beside, alt))
        story: list[Flowable] = [
            Table(
                [row],
                colWidths=[title_width, beside][: len(row)],
                hAlign="LEFT",
                style=TableStyle(
                    [
                        ("FONT", (0, 0), (-1, -1), FONT, self.size),  # not Helvetica
                        ("LEFTPADDING", (0, 0), (-1, -1), 0),
                        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                        ("TOPPADDING", (0, 0), (-1, -1), 0),
                        ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ]
                ),
            )
        ]
        story += self._heading(_("What each card becomes"))
        story.append(self._cards_table(width))
        story.append(Spacer(1, 2 * mm))
        story.append(
            self._p(_("Whoever goes out scores 0; everyone else scores the cards left in hand."))
        )
        story += self._heading(_("Each suit is a colour"))
        story.append(self._suits_table(width))
        story.append(Spacer(1, 2 * mm))
        if dict(self.rules.suit_colours) == dict(DEFAULT_SUIT_COLOURS):
            story.append(
                self._p(
                    _(
                        "A game may use another mapping: choose which suit is which colour "
                        "among the house rules when you start the game in the scorekeeper."
                    )
                )
            )
            story.append(Spacer(1, 1 * mm))
        story.append(
            self._p(
                _(
                    "<b>Careful:</b> hearts and diamonds both look red, clubs and spades both "
                    "black, yet each suit is its own colour: a colour group is one <b>suit</b>."
                )
            )
        )
        story += self._heading(_("Check the count: %(cards)s cards", cards=self.count.total))
        story.append(self._count_table(width))
        story.append(Spacer(1, 1.5 * mm))
        story.append(
            self._p(
                _(
                    "<b>Not two jokers in each deck?</b> You need exactly four Skips. Some "
                    "decks have a third joker or spare cards (a Rommé pack has 110 cards for "
                    "its two decks): put them away. Fewer than four jokers: mark a spare card "
                    "from a third deck (not a King) as a Skip, or play with fewer Skips and "
                    "tell everyone before the first deal."
                )
            )
        )
        story.append(self._play_and_phases(width))
        return story

    def _play_and_phases(self, width: float) -> Table:
        """How a hand goes (left) beside the phase list (right)."""
        left = [
            *self._heading(_("How a hand is played")),
            self._p(escape(_(PLAY))),
            *self._heading(_("Typing cards into the scorekeeper")),
            self._p(
                # Translators: keep the card codes (7H, 10S, QC, AD, KH, JOKER): they are typed.
                _(
                    "Rank then suit: <b>7H</b>, <b>10S</b>, <b>QC</b>, <b>AD</b>. "
                    "<b>KH</b> (any King) is a Wild and <b>JOKER</b> is a Skip."
                )
            ),
        ]
        right: list[Flowable] = []
        if self.rules.super_wild:
            right += [
                *self._heading(_("The marked cards")),
                self._p(
                    _(
                        "Mark one King as the Super Wild and one Joker as the Super Skip (a "
                        "sticker or a pen dot) before the first deal."
                    )
                ),
                self._p(
                    # Translators: keep SW and SS: they are typed.
                    _("The marked King is typed <b>SW</b>, the marked Joker <b>SS</b>.")
                ),
            ]
        right += self._heading(text.phase_list_title(self.rules))
        note = progression_note(self.rules)
        if note:
            right += [self._p(escape(note)), Spacer(1, 1 * mm)]
        if self.phase_list:
            right.append(self._phase_list(width * 0.5))
        else:
            right.append(self._p(_("The phases are listed on the phase reference cards.")))
        table = Table([[left, right]], colWidths=[width * 0.5, width * 0.5], hAlign="LEFT")
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), FONT, self.size),  # not Helvetica
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (0, 0), 4 * mm),
                    ("RIGHTPADDING", (1, 0), (1, 0), 0),  # the phase list's own width
                ]
            )
        )
        return table

    def _phase_list(self, width: float) -> Table:
        """The phases, each number right-aligned in a column of its own: 1. to 10. line up."""
        rows = text.phase_rows(self.rules)
        gutter = stringWidth(text.numbered(max(n for n, _words in rows)), FONT_BOLD, self.size)
        table = Table(
            [
                [text.numbered(number), Paragraph(escape(words), style(self.size))]
                for number, words in rows
            ],
            colWidths=[gutter + 1 * mm, width - gutter - 1 * mm],
            hAlign="LEFT",
            renderCB=ListTags(),
        )
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), FONT, self.size),  # not Helvetica
                    ("FONT", (0, 0), (0, -1), FONT_BOLD, self.size),
                    ("LEADING", (0, 0), (0, -1), self.size * 1.2),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("ALIGN", (0, 0), (0, -1), "RIGHT"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (0, -1), 1 * mm),
                    ("RIGHTPADDING", (1, 0), (1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        return table

    def _table(self, rows: list[list], widths: list[float], extra: list | None = None) -> Table:
        table = Table(rows, colWidths=widths, hAlign="LEFT", renderCB=TableTags())
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), FONT, self.size),
                    ("FONT", (0, 0), (-1, 0), FONT_BOLD, self.size),
                    ("BACKGROUND", (0, 0), (-1, 0), SHADE),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.5, LIGHT),
                    ("BOX", (0, 0), (-1, -1), 0.8, INK),
                    ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
                    *(extra or []),
                ]
            )
        )
        return table

    def _cards_table(self, width: float) -> Table:
        header = [_("Playing card"), _("Phase 10 card"), _("Points left in hand")]
        rows = [header] + [
            [cards, means, str(points)] for cards, means, points in self._card_rows()
        ]
        return self._table(
            rows,
            [width * 0.38, width * 0.32, width * 0.30],
            [("ALIGN", (2, 1), (2, -1), "CENTER"), ("FONT", (2, 1), (2, -1), FONT_BOLD, self.size)],
        )

    def _card_rows(self) -> list[tuple[str, str, int]]:
        low, high, skip, wild, *super_cards = text.regular_card_points(self.rules)
        rows = [
            (_("Ace"), "1", low[2]),
            (_("2 to 9"), _("2 to 9"), low[2]),
            ("10", "10", high[2]),
            (_("Jack"), "11", high[2]),
            (_("Queen"), "12", high[2]),
            (wild[0], wild[1], wild[2]),
            (skip[0], skip[1], skip[2]),
        ]
        rows += [(name[0].upper() + name[1:], means, points) for name, means, points in super_cards]
        return rows

    def _suits_table(self, width: float) -> Table:
        mapping = text.suit_mapping(self.rules)
        is_default = dict(self.rules.suit_colours) == dict(DEFAULT_SUIT_COLOURS)
        header = [
            _("Suit"),
            _("Colour (the default)") if is_default else _("Colour (this game's choice)"),
            "",
            _("Example"),
        ]
        rows: list[list] = [header]
        for suit, name, colour in mapping:
            rows.append(
                [
                    self._p(
                        f"<font name='{fonts.suits_font()}'>{SUIT_GLYPHS[suit]}</font>&nbsp; "
                        f"{name.capitalize()} ({suit})"
                    ),
                    Swatch(colour),
                    self._p(f"<b>{escape(colour.word)}</b> ({colour.value})"),
                    self._p(
                        escape(
                            # Translators: "7 of hearts = red 7"; German "Herz 7 = rote 7".
                            _(
                                "7 of %(suit)s = %(card)s",
                                suit=name,
                                card=colour.card(7),
                            )
                        )
                    ),
                ]
            )
        return self._table(
            rows,
            [width * 0.28, SWATCH + 4 * mm, width * 0.30, width * 0.42 - SWATCH - 4 * mm],
            [("SPAN", (1, 0), (2, 0))],
        )

    def _count_table(self, width: float) -> Table:
        count = self.count
        rows = [
            [_("From the two decks"), "", _("Phase 10 deck")],
            [
                self._p(
                    _(
                        "Ace to Queen: %(ranks)s ranks × %(suits)s suits × %(decks)s decks",
                        ranks=NUMBER_RANKS,
                        suits=SUITS_PER_DECK,
                        decks=DECKS,
                    )
                ),
                str(count.numbers),
                self._p(
                    _(
                        "numbers 1–12: %(numbers)s × %(colours)s colours × %(copies)s",
                        numbers=NUMBER_RANKS,
                        colours=len(Colour),
                        copies=COPIES_PER_NUMBER_AND_COLOUR,
                    )
                ),
            ],
            [
                self._p(
                    _(
                        "Kings: %(kings)s per deck × %(decks)s decks",
                        kings=SUITS_PER_DECK,
                        decks=DECKS,
                    )
                ),
                str(count.wilds),
                _("Wilds"),
            ],
            [
                self._p(
                    _(
                        "Jokers: %(jokers)s per deck × %(decks)s decks",
                        jokers=JOKERS_PER_DECK,
                        decks=DECKS,
                    )
                ),
                str(count.skips),
                _("Skips"),
            ],
            [_("Total"), str(count.total), _("cards, as in a Phase 10 deck")],
        ]
        return self._table(
            rows,
            [width * 0.54, width * 0.10, width * 0.36],
            [
                ("ALIGN", (1, 0), (1, -1), "CENTER"),
                ("FONT", (1, 1), (1, -1), FONT_BOLD, self.size),
                ("FONT", (0, -1), (-1, -1), FONT_BOLD, self.size),
                ("LINEABOVE", (0, -1), (-1, -1), 1, INK),
            ],
        )


def deck_guide(
    rules: Rules,
    *,
    pagesize: str = "letter",
    view_url: str | None = None,
    app_url: str | None = None,
    code: str | None = None,
) -> bytes:
    """The two-deck guide as PDF bytes, with these rules' suit mapping.

    ``view_url``: a QR code and printed link to a game (``code``: the game's short
    code, printed as the link to type); ``app_url``: a QR code and link to the app.
    """
    return DeckGuide(
        rules, pagesize=pagesize, view_url=view_url, app_url=app_url, code=code
    ).build()
