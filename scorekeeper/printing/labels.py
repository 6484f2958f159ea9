"""Labels: every cell, heading, name, title and caption, fitted to its box by one routine.

``fit_label`` finds the largest size, from the size a label is meant to have
down to the smallest we print, at which the text fits its box in the lines
allowed, breaking lines where each word's own script allows (ICU's line breaker:
at spaces, after a hyphen, between Chinese characters, between Thai, Lao, Khmer
and Myanmar words and syllables, after a Tibetan tsheg). A word is hyphenated
only when no size fits it whole, and only where the dictionary of its likely
language allows (Pyphen: Greek for Greek letters, the sheet's language for Latin);
failing that, it breaks between two letters without a hyphen (never inside a
letter and its marks). Only when even that is too big is it cut short with "…",
visibly.
Text is plain and in reading order, in any script, with names isolated
(``bidi.isolate``); each line is wrapped first and then put in drawing order,
as the bidirectional algorithm asks. ``Label.draw`` puts the lines into a
``TextRun``: letters the main font lacks are set in their script's font (its
bold in a bold label; filled and stroked only for a font with no bold, the
CJK one), shaped where the script needs it (``shaping``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

import pyphen
from icu4py.breakers import CharacterBreaker, LineBreaker
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth

from .. import i18n
from . import bidi, fonts, shaping
from .layout import FONT, FONT_BOLD, FONT_MONO, LEADING, MIN_FONT_SIZE, LayoutError, TextRun, plain
from .tagging import spoken

STEP = 0.25  # pt: how much smaller each try is
ELLIPSIS = "\u2026"
ASCENT = 0.75  # of the size: the top of capitals and accents above the baseline
DESCENT = 0.22  # of the size: the bottom of descenders below it
CLEAR = 0.08  # of the size: the least room between one line's letters and the next's
MIDDLE = 0.35  # of the size: a line's middle (half a capital's height) above its baseline
SOFT = "\u00ad"  # while wrapping: a line that ends with a hyphen added to break a word
# The dictionary for a word in a script other than Latin (first word of its letters' names);
# Latin words take the sheet's language's. A script without one is never hyphenated.
SCRIPT_LANGUAGES = {
    "GREEK": "el_GR",
    "CYRILLIC": "ru_RU",
    "GURMUKHI": "pa_IN",
    "ORIYA": "or_IN",
    "TELUGU": "te_IN",
    "KANNADA": "kn_IN",
}


@dataclass(frozen=True)
class Label:
    """Text fitted to a box: its lines (reading order), font, size and measures in points."""

    lines: tuple[str, ...]
    font: str
    size: float
    widths: tuple[float, ...]
    cut: bool = False
    soft: frozenset[int] = frozenset()  # the lines ending with a hyphen added to break a word

    @property
    def width(self) -> float:
        return max(self.widths, default=0.0)

    @cached_property
    def reach(self) -> tuple[float, float]:
        """How far the letters reach above and below a baseline, in ems: ``ASCENT`` and
        ``DESCENT`` (the main font's), or farther where a script's font draws farther
        (Arabic marks over marks and dots under letters, a Myanmar vowel under its
        consonant), measured from that font's glyphs (``shaping.reach``)."""
        above, below = ASCENT, DESCENT
        for line in self.lines:
            for piece in pieces(line, self.font):
                if piece.font in (self.font, FONT, FONT_BOLD, FONT_MONO) or not piece.text:
                    continue
                backwards = bidi.has_right_to_left(piece.text)
                up, down = shaping.reach(piece.font, piece.text, backwards)
                above, below = max(above, up), max(below, down)
        return above, below

    @property
    def leading(self) -> float:
        """From one baseline to the next: 1.2 ems, or more where the lines' letters would
        come closer than ``CLEAR`` (one line's reach below and the next's above)."""
        above, below = self.reach
        return self.size * max(LEADING, above + below + CLEAR)

    @property
    def height(self) -> float:
        """From the top of the first line's letters to the bottom of the last line's."""
        if not self.lines:
            return 0.0
        above, below = self.reach
        return (len(self.lines) - 1) * self.leading + (above + below) * self.size

    def draw(self, run: TextRun, x: float, top: float, align: str = "left") -> float:
        """Draw with the top of the letters at ``top``; ``align`` to ``x``: left, centre, right.

        Returns the y of the first baseline.
        """
        return self.at(run, x, top - self.reach[0] * self.size, align)

    def at(self, run: TextRun, x: float, baseline: float, align: str = "left") -> float:
        """Draw with the first line on ``baseline``; returns it."""
        last = len(self.lines) - 1
        for index, (line, width) in enumerate(zip(self.lines, self.widths, strict=True)):
            left = x - {"left": 0.0, "centre": width / 2, "right": width}[align]
            y = baseline - index * self.leading
            if index in self.soft:
                put(run, left, y, line, self.font, self.size, end=ADDED)
            elif index < last and line.endswith(("-", "\u2010")):
                put(run, left, y, line, self.font, self.size, end=KEPT)
            else:
                put(run, left, y, line, self.font, self.size)
        return baseline

    def draw_middle(
        self, run: TextRun, x: float, top: float, height: float, align: str = "left"
    ) -> float:
        """Draw in the middle of a box ``height`` tall whose top is ``top``: from the top of
        the first line's capitals to the last baseline, as a number in a cell sits.

        Returns the first baseline.
        """
        baseline = top - height / 2 - MIDDLE * self.size + (len(self.lines) - 1) * self.leading / 2
        return self.at(run, x, baseline, align)


def fit_label(
    text: str,
    font: str,
    width: float,
    *,
    size: float,
    min_size: float = MIN_FONT_SIZE,
    lines: int = 1,
    height: float | None = None,
    reserve: float = 0.0,
) -> Label:
    """``text`` at the largest size from ``size`` down to ``min_size`` that fits ``width``
    in at most ``lines`` lines (and ``height``).

    Lines break where the words' scripts allow (``_pieces``); only when no size fits so is
    a word hyphenated, by the dictionary of its likely language (``_language``), with "-"
    at the end of the line; failing that, it breaks between two letters, without a hyphen.
    "…" is the last resort, at ``min_size``.
    ``reserve``: room kept beside the text, in ems of the size tried (a tick's).
    Raises LayoutError only when not even "…" fits.
    """
    return _fit(
        plain(text),
        font,
        round(width, 3),
        size,
        min(size, min_size),
        lines,
        height,
        reserve,
        i18n.language(),
    )


def fit_whole(
    text: str,
    font: str,
    width: float,
    *,
    size: float,
    min_size: float = MIN_FONT_SIZE,
    lines: int,
    most_lines: int,
    height: float | None = None,
) -> Label:
    """``fit_label`` in ``lines``; a text they cannot hold whole takes up to ``most_lines``
    at ``min_size`` rather than be cut (cut only when even those do not hold it)."""
    label = fit_label(text, font, width, size=size, min_size=min_size, lines=lines, height=height)
    if not label.cut:
        return label
    return fit_label(
        text, font, width, size=min_size, min_size=min_size, lines=most_lines, height=height
    )


@lru_cache(maxsize=2048)
def _fit(
    text: str,
    font: str,
    width: float,
    size: float,
    min_size: float,
    lines: int,
    height: float | None,
    reserve: float,
    language: str,
) -> Label:
    # whole words; then syllables, each line as full as it goes, at a smaller size if need be;
    # then, at sizes where a full line leaves no room for its "-", a syllable less a line;
    # then a word too long for its line at the smallest size broken between two letters
    for hyphenate, give_back, between in (
        (False, False, False),
        (True, False, False),
        (True, True, False),
        (True, True, True),
    ):
        current = size
        while current >= min_size - 1e-9:
            room = width - reserve * current
            if _too_long(text, font, current, room, lines):
                current = round(current - STEP, 2)
                continue
            wrapped = _wrap(
                text, font, current, room, language if hyphenate else None, give_back, between
            )
            if (
                wrapped is not None
                and len(wrapped) <= lines
                and _tall_enough(wrapped, current, height)
            ):
                return _label(wrapped, font, current)
            current = round(current - STEP, 2)
    return _cut(text, font, width - reserve * min_size, min_size, lines)


def _too_long(text: str, font: str, size: float, width: float, lines: int) -> bool:
    """True when ``text`` at ``size`` cannot fit ``lines`` lines of ``width``, however it is
    cut: a cut takes away at most a space or a pair's kerning, far less than an em. Saves
    trying every cut at every size for a long name of ideographs (any character a break)."""
    return line_width(text, font, size) > lines * width + (lines - 1) * size


def _tall_enough(lines: list[str], size: float, height: float | None) -> bool:
    if height is None:
        return True
    return (len(lines) - 1) * size * LEADING + (ASCENT + DESCENT) * size <= height + 0.01


@dataclass(frozen=True)
class _Piece:
    """A part of a line that is never broken: a word, or a part of one."""

    text: str
    space: bool  # a space before it (a new word)
    hyphen: bool  # a line that ends before it ends with "-"


def _pieces(text: str, language: str | None) -> list[_Piece]:
    """The parts of ``text`` between the places a line may break, in reading order: at
    spaces, where the word's script allows a break (ICU: after its hyphen, between two
    Chinese characters, between two Thai words...), and, with ``language`` (the sheet's),
    where the dictionary of the word's likely language hyphenates it."""
    out = []
    for index, word in enumerate(text.split(" ")):
        parts: list[tuple[str, bool]] = []
        for chunk in _segments(word, i18n.language()):
            dictionary = _language(chunk, language) if language else None
            parts += _syllables(chunk, dictionary) if dictionary else [(chunk, False)]
        for number, (part, hyphen) in enumerate(parts):
            out.append(_Piece(part, index > 0 and number == 0, hyphen))
    return out


@lru_cache(maxsize=2048)
def _segments(word: str, language: str) -> tuple[str, ...]:
    """``word`` (no spaces) cut where a line may break by Unicode's rules for its script:
    ICU's line breaker, with its dictionaries for the scripts written without spaces."""
    if len(word) < 2:
        return (word,)
    return tuple(LineBreaker(word, language)) or (word,)


def _language(word: str, sheet: str) -> str | None:
    """The Pyphen dictionary of the likely language of ``word``: its script's, the sheet's
    for Latin letters, None for a script with none (never hyphenated)."""
    letter = next((char for char in word if char.isalpha()), "")
    script = unicodedata.name(letter, "").split(" ", 1)[0] if letter else ""
    if script == "LATIN":
        return pyphen.language_fallback(sheet) or "en_US"
    return SCRIPT_LANGUAGES.get(script)


def _syllables(word: str, language: str) -> list[tuple[str, bool]]:
    """``word`` cut where the language's hyphenation allows: (part, hyphen before it)."""
    positions = _hyphenation(language).positions(word) if len(word) > 4 else []
    cuts = [0, *positions, len(word)]
    return [
        (word[a:b], index > 0) for index, (a, b) in enumerate(zip(cuts, cuts[1:], strict=False))
    ]


@cache
def _hyphenation(language: str) -> pyphen.Pyphen:
    return pyphen.Pyphen(lang=language)


def _wrap(
    text: str,
    font: str,
    size: float,
    width: float,
    hyphenate: str | None,
    give_back: bool = False,
    between: bool = False,
) -> list[str] | None:
    """Lines that fit ``width`` at ``size``; None when a part is too wide (with ``between``,
    a part too wide is broken between two letters, without a hyphen). ``hyphenate``: the
    sheet's language, to hyphenate words by their own.

    Each line takes as many parts as fit. When the "-" it must end with (its last word
    goes on) does not fit, it is None; or, ``give_back``, the line gives back syllables
    until the "-" fits, and they go down a line. A line ending with an added "-" ends with
    ``SOFT`` instead."""
    if line_width(text, font, size) <= width:
        return [text] if text else []
    pieces = _pieces(text, hyphenate)
    lines: list[str] = []
    start = 0
    while start < len(pieces):
        end = _most_that_fit(pieces, start, font, size, width)
        while start < end < len(pieces) and pieces[end].hyphen:
            if line_width(_joined(pieces[start:end]) + "-", font, size) <= width:
                break
            if not give_back:
                return None
            end -= 1
        if end > start:
            going_on = end < len(pieces) and pieces[end].hyphen
            lines.append(_joined(pieces[start:end]) + (SOFT if going_on else ""))
            start = end
            continue
        # one part is too wide for a line of its own
        if not between:
            return None
        word, rest = pieces[start].text, pieces[start + 1 :]
        if line_width(word, font, size) <= width:
            # it fits, only not with the "-" its word goes on with: it breaks there without
            lines.append(word)
            pieces, start = rest, 0
            continue
        while line_width(word, font, size) > width:
            cut = _longest_between_letters(word, font, size, width)
            if cut == 0:
                return None
            lines.append(word[:cut])
            word = word[cut:]
        pieces = [_Piece(word, False, False), *rest]
        start = 0
    return lines


def _most_that_fit(pieces: list[_Piece], start: int, font: str, size: float, width: float) -> int:
    """Where the line from ``pieces[start]`` ends when it takes as many parts as fit (the
    first part it cannot take; ``start`` when not even one fits). A line is never narrower
    for a part more, so the end is found by halving: a name of 40 ideographs, each a part,
    is measured 6 times a line rather than up to 40."""
    low, high = start, len(pieces)
    while low < high:
        middle = (low + high + 1) // 2
        if line_width(_joined(pieces[start:middle]), font, size) <= width:
            low = middle
        else:
            high = middle - 1
    return low


def _joined(pieces: list[_Piece]) -> str:
    """Parts as one line (a space before each new word but the first)."""
    return "".join(
        (" " if piece.space and index else "") + piece.text for index, piece in enumerate(pieces)
    )


def _longest_between_letters(word: str, font: str, size: float, width: float) -> int:
    """Where to break ``word`` so its start fits: between two of its letters (never inside a
    letter with its marks, a conjunct or an emoji sequence); 0 when none fits."""
    ends = [end for _start, end in CharacterBreaker(word, i18n.language()).segments()]
    low, high = 0, len(ends) - 1  # the whole word is not a break: it did not fit
    while low < high:  # the most letters that fit, by halving
        middle = (low + high + 1) // 2
        if line_width(word[: ends[middle - 1]], font, size) <= width:
            low = middle
        else:
            high = middle - 1
    return ends[low - 1] if low else 0


def _cut(text: str, font: str, width: float, size: float, lines: int) -> Label:
    """The most of ``text`` that fits at ``size``: full lines, then the last cut with "…"."""
    kept: list[str] = []
    rest = text
    while len(kept) < lines - 1 and rest:
        line = _longest_start(rest, font, size, width, at_space=True)
        if not line:
            break
        if line != rest and not line.endswith(" "):  # inside a word: between two letters
            cut = _longest_between_letters(rest, font, size, width)
            if cut == 0:
                break
            kept.append(rest[:cut])
            rest = rest[cut:]
            continue
        kept.append(line.rstrip())
        rest = rest[len(line) :].lstrip(" ")
    if rest:
        start = _longest_start(rest, font, size, width, ellipsis=True)
        last = start.rstrip() + ELLIPSIS if start != rest else rest
        if line_width(last, font, size) > width:
            raise LayoutError(f"no room for {text[:20]!r} in its box")
        kept.append(last)
    return _label(kept, font, size, cut=True)


def _longest_start(
    text: str,
    font: str,
    size: float,
    width: float,
    *,
    at_space: bool = False,
    ellipsis: bool = False,
) -> str:
    """The longest beginning of ``text`` that fits (ending at a space, if asked and possible)."""
    if line_width(text, font, size) <= width:
        return text
    extra = ELLIPSIS if ellipsis else ""
    low, high = 0, len(text)
    while low < high:  # the longest that fits, by halving
        middle = (low + high + 1) // 2
        if line_width(text[:middle].rstrip() + extra, font, size) <= width:
            low = middle
        else:
            high = middle - 1
    start = text[:low]
    if at_space and " " in start.strip():
        return start[: start.rstrip().rindex(" ") + 1]
    return start


def _label(lines: list[str], font: str, size: float, cut: bool = False) -> Label:
    soft = frozenset(index for index, line in enumerate(lines) if line.endswith(SOFT))
    shown = tuple(line[:-1] + "-" if line.endswith(SOFT) else line for line in lines)
    widths = tuple(line_width(line, font, size) for line in shown)
    return Label(shown, font, size, widths, cut, soft)


@dataclass(frozen=True)
class Piece:
    """A part of one line in one font, in drawing order: shaped when its script needs it."""

    font: str
    text: str
    made_bold: bool  # a font with no bold of its own, filled and stroked
    shaped: shaping.Shaped | None

    def width(self, size: float) -> float:
        if self.shaped is not None:
            return self.shaped.width(size)
        return stringWidth(self.text, self.font, size)


@lru_cache(maxsize=4096)
def line_width(line: str, font: str, size: float) -> float:
    """How wide one line of text is drawn, in any script."""
    return sum(piece.width(size) for piece in pieces(line, font))


@lru_cache(maxsize=1024)
def pieces(line: str, font: str) -> tuple[Piece, ...]:
    """Each run of one line in drawing order, in the font that draws it (its real bold when
    the label is bold and the font has one)."""
    out = []
    bold = font == FONT_BOLD
    for fallback, part in fonts.runs(bidi.visual(line)):
        face = fallback or font
        if bold and fallback is not None and fonts.has_bold(fallback):
            face = f"{fallback}-Bold"
        shaped = None
        if shaping.needs_shaping(part):
            backwards = bidi.has_right_to_left(part)  # a right-to-left run, reversed for drawing
            shaped = shaping.shape(face, part[::-1] if backwards else part, backwards)
        else:
            if not part.isprintable():
                part = "".join(c for c in part if not fonts.attaches(c) or c.isprintable())
        made_bold = bold and fallback is not None and not fonts.has_bold(fallback)
        out.append(Piece(face, part, made_bold, shaped))
    return tuple(out)


ADDED, KEPT = "added", "kept"  # how a line that ends with a hyphen is read (``put``)


def put(
    run: TextRun,
    x: float,
    baseline: float,
    line: str,
    font: str,
    size: float,
    *,
    end: str | None = None,
) -> None:
    """One line, in its drawing order, at ``x`` (its left end) on ``baseline``.

    ``end``: the line ends with a hyphen that the next line goes on from. ``ADDED`` (added
    to break a word): it reads as nothing a reader keeps (``shaping.NO_LETTER``), so the
    word reads back whole. ``KEPT`` (the name's own, "Wolkenstein-"): it reads as itself
    and a line break, so that poppler, which joins a line ending with "-" to the next and
    drops the "-", keeps it."""
    if end is not None:
        hyphen = line[-1]
        put(run, x, baseline, line[:-1], font, size)
        x += line_width(line[:-1], font, size)
        if end == ADDED:
            run.put(x, baseline, _unread_hyphen(font), font, size)
        else:
            with spoken(run, hyphen + shaping.NO_LETTER):
                run.put(x, baseline, hyphen, font, size)
        return
    for piece in pieces(line, font):
        if piece.shaped is not None:
            run.put_shaped(x, baseline, piece.shaped, piece.font, size, bold=piece.made_bold)
        elif piece.made_bold:
            run.put_bold(x, baseline, piece.text, piece.font, size)
        else:
            run.put(x, baseline, piece.text, piece.font, size)
        x += piece.width(size)


@cache
def _unread_hyphen(font: str) -> str:
    """The character that draws "-" in ``font`` and reads back as no letter."""
    embedded = pdfmetrics.getFont(font)
    return str(embedded.code_for(embedded.face.charToGlyph[ord("-")], shaping.NO_LETTER))
