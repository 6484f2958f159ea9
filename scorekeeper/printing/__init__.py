"""Printables: score sheets, phase reference cards and the two-deck guide (PDF).

Each renderer returns PDF bytes built with ``invariant=1``, so the standard
set in ``printables/`` is reproducible byte for byte and a test can tell when
it is stale. That set is built without a server, so it knows no address for
the app; the app serves the same set with its own address (``app_url``) on the
printables that link to it. Every word is printed in the language being spoken
when the renderer runs (a request's, or ``i18n.using(...)`` around it); each other
language's set lives in ``printables/<language>/`` (``printables/de/``, ``printables/fr/``, ...).

Layer: imports only what every layer may use: the engine (``rules``), ``i18n``, ``clock``
and ``codes``. A renderer is given what it prints; it reads no file of games.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from .. import i18n
from ..rules.ruleset import make_rules
from .cards import reference_cards
from .guide import deck_guide
from .layout import PAGE_SIZES, LayoutError
from .sheets import game_sheet, score_sheet

__all__ = [
    "PAGE_SIZES",
    "STANDARD_SET",
    "LayoutError",
    "deck_guide",
    "game_sheet",
    "reference_cards",
    "score_sheet",
    "standard_set",
    "write_standard_set",
]

Builder = Callable[[], bytes]


def standard_set(app_url: str | None = None) -> list[tuple[str, Builder]]:
    """(file name, builder) for every standard printable, in name order.

    ``app_url``: the app's address, for a QR code and link on the printables that
    point to it (the two-deck guide); without it they say where to print a copy
    that has one.
    """
    official = make_rules()
    items: list[tuple[str, Builder]] = []
    for size in PAGE_SIZES:
        items += [
            (f"score-sheet-{size}.pdf", partial(score_sheet, official, pagesize=size)),
            (
                f"score-sheet-large-{size}.pdf",
                partial(score_sheet, official, pagesize=size, player_columns=4, large=True),
            ),
            (
                f"score-sheet-ten-hands-{size}.pdf",
                partial(score_sheet, make_rules("ten-hands"), pagesize=size),
            ),
            (f"phase-cards-official-{size}.pdf", partial(reference_cards, official, pagesize=size)),
            (
                f"phase-cards-plus10-{size}.pdf",
                partial(reference_cards, make_rules("plus10"), pagesize=size),
            ),
            (
                f"phase-cards-even-{size}.pdf",
                partial(reference_cards, make_rules("even"), pagesize=size),
            ),
            (
                f"phase-cards-super-wild-{size}.pdf",
                partial(reference_cards, make_rules("super-wild"), pagesize=size),
            ),
            (
                f"phase-cards-masters-{size}.pdf",
                partial(reference_cards, make_rules("masters"), pagesize=size),
            ),
            (
                f"phase-cards-mixed-up-{size}.pdf",
                partial(reference_cards, make_rules("mixed-up"), pagesize=size),
            ),
            (
                f"two-deck-guide-{size}.pdf",
                partial(deck_guide, official, pagesize=size, app_url=app_url),
            ),
        ]
    return sorted(items)


# (file name, builder) for every file in printables/, in name order.
STANDARD_SET: list[tuple[str, Builder]] = standard_set()


def write_standard_set(
    out_dir: Path, language: str | None = None, app_url: str | None = None
) -> list[Path]:
    """Build every standard printable into ``out_dir``, in ``language`` (else the one being
    spoken); returns the paths written.

    ``app_url``: the app's address to print on the guide (``printables/`` has none).
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with i18n.using(language or i18n.language()):
        for name, build in standard_set(app_url) if app_url else STANDARD_SET:
            path = out_dir / name
            path.write_bytes(build())
            written.append(path)
    return written
