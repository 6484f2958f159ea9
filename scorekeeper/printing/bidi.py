"""Names as units in any script: isolated in sentences, put in drawing order line by line.

A name with right-to-left letters put into a sentence or a list is wrapped in
Unicode's first-strong isolate (FSI ... PDI): the bidirectional algorithm then orders the letters
inside the name by the name's own script, but never moves the words around
it, and two right-to-left names side by side keep their order. The
paragraph's direction comes from the language being spoken, never from the
first letter of the text, so "محمد won" stays an English sentence.

reportlab draws glyphs left to right, so each line is put in drawing order
(python-bidi) just before it is measured and drawn; Arabic letters are joined
and marks placed by the shaper (``shaping``). The isolate marks themselves are
never drawn.
"""

from __future__ import annotations

from collections.abc import Iterable

from bidi import get_display

from .. import i18n
from ..i18n import BIDI_CONTROLS, FSI, PDI, has_right_to_left, isolate

__all__ = [  # isolate is the one i18n has, for every layer
    "FSI",
    "PDI",
    "direction",
    "has_right_to_left",
    "isolate",
    "joined",
    "listed",
    "strip",
    "visual",
]
CONTROLS = frozenset(BIDI_CONTROLS)
_NO_CONTROLS = str.maketrans(dict.fromkeys(map(ord, CONTROLS)))
# None of ours yet ("ar", "he" would be). Adding one means i18n.isolate marks every name, since
# in a right-to-left sentence a left-to-right name moves too.
RIGHT_TO_LEFT_LANGUAGES: frozenset[str] = frozenset()


def joined(names: Iterable[str]) -> str:
    """'Ann, Bob and Cy' in the language, each name isolated: seat order, whatever the script."""
    return i18n.join(isolate(name) for name in names)


def listed(names: Iterable[str]) -> str:
    """'Ann, Bob, Cy' (a title's list), each name isolated."""
    return ", ".join(isolate(name) for name in names)


def direction() -> str:
    """The paragraph direction of the language being spoken: 'L' or 'R'."""
    return "R" if i18n.language() in RIGHT_TO_LEFT_LANGUAGES else "L"


def visual(line: str) -> str:
    """One line in the order its glyphs are drawn, no steering marks left (a right-to-left
    run's letters reversed; the shaper reverses them back to join and place them)."""
    if not has_right_to_left(line) and direction() == "L":
        return strip(line)
    return strip(get_display(line, base_dir=direction()))


def strip(text: str) -> str:
    """``text`` without the marks that steer the algorithm (they have no glyph)."""
    return text.translate(_NO_CONTROLS) if any(c in CONTROLS for c in text) else text
