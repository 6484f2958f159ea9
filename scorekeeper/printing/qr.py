"""The one QR renderer: vector rectangles on a PDF page, or an SVG for a web page.

Both draw the same matrix, with the error-correction level chosen by the
length of the link, so a printed code and a code on screen never disagree.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

import qrcode
from qrcode.constants import ERROR_CORRECT_H, ERROR_CORRECT_L, ERROR_CORRECT_M, ERROR_CORRECT_Q
from reportlab.pdfgen.canvas import Canvas

from .layout import INK, WHITE

QUIET_ZONE = 4  # modules of white around the code, as the QR standard asks

# Short links get more error correction (a smudged sheet still scans); long
# ones less, so the modules stay big enough to print.
_LEVELS = ((32, ERROR_CORRECT_H), (64, ERROR_CORRECT_Q), (160, ERROR_CORRECT_M))


def error_correction(data: str) -> int:
    """The qrcode error-correction constant for content of this length."""
    length = len(data.encode("utf-8"))
    for limit, level in _LEVELS:
        if length <= limit:
            return level
    return ERROR_CORRECT_L


def qr_matrix(data: str) -> list[list[bool]]:
    """The dark (True) and light modules, without the quiet zone."""
    code = qrcode.QRCode(error_correction=error_correction(data), border=0, box_size=1)
    code.add_data(data)
    code.make(fit=True)
    return [list(row) for row in code.get_matrix()]


@lru_cache(maxsize=256)
def _dark_runs_of(data: str) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """(modules per side, dark runs) of the code for ``data``.

    Kept for the links printed most (a game's view link, the app's home):
    choosing the best mask is most of a code's cost, and a sheet printed again
    would pay it again.
    """
    matrix = qr_matrix(data)
    return len(matrix), tuple(_dark_runs(matrix))


def _dark_runs(matrix: list[list[bool]]) -> list[tuple[int, int, int]]:
    """(row, first column, length) of each horizontal run of dark modules."""
    found = []
    for row_index, row in enumerate(matrix):
        column = 0
        while column < len(row):
            if not row[column]:
                column += 1
                continue
            start = column
            while column < len(row) and row[column]:
                column += 1
            found.append((row_index, start, column - start))
    return found


def qr_svg(data: str, label: str = "QR code") -> str:
    """An SVG of the code (quiet zone included) that scales to any size.

    ``data`` goes only into module positions, never into the markup, so the SVG
    is safe to inline whatever the link says.
    """
    width, runs = _dark_runs_of(data)
    side = width + 2 * QUIET_ZONE
    path = "".join(
        f"M{start + QUIET_ZONE} {row + QUIET_ZONE}h{length}v1h-{length}z"
        for row, start, length in runs
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" '
        f'width="{side * 4}" height="{side * 4}" shape-rendering="crispEdges" '
        f'role="img" aria-label="{escape(label, quote=True)}">'
        f'<rect width="{side}" height="{side}" fill="#fff"/><path d="{path}" fill="#000"/></svg>'
    )


def draw_qr(canvas: Canvas, data: str, x: float, y: float, size: float) -> None:
    """Draw the code with its quiet zone inside the square at (x, y) of side ``size``.

    Each horizontal run of dark modules is one rectangle: fewer objects, no
    hairline gaps between neighbouring modules in a viewer.
    """
    width, runs = _dark_runs_of(data)
    modules = width + 2 * QUIET_ZONE
    step = size / modules
    canvas.saveState()
    canvas.setFillColor(WHITE)
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    canvas.setFillColor(INK)
    path = canvas.beginPath()
    for row, start, length in runs:
        top = y + size - (row + QUIET_ZONE) * step
        path.rect(x + (start + QUIET_ZONE) * step, top - step, length * step, step)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()
