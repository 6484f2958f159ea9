"""Reading back what the app prints: a PDF's words and where they sit, QR codes on a PDF
page or drawn as SVG on a web page, and the check that no word crosses a card's edge.

Reading word boxes and QR codes needs Debian's poppler-utils, zbar-tools and
librsvg2-bin (tools.require: skipped without them outside CI).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from io import BytesIO
from itertools import combinations
from pathlib import Path
from xml.etree import ElementTree

from pypdf import PdfReader
from tools import require

from scorekeeper.printing import cards as card_layout
from scorekeeper.printing.layout import page_size

SVG = re.compile(r"<svg\b.*?</svg>", re.S)
# Letters of scripts added to Unicode in 2021, which Debian's Noto fonts draw only in newer
# releases: the first one no installed font has stands for "a letter we cannot print".
NEWER_LETTERS = ("\U0001e290", "\U00010570", "\U00012f90", "\U00016a70", "\U00010f70")
# Blocks of 64 code points: Chinese characters (328 blocks), Korean syllables (175).
HAN_BLOCKS = range(0x4E00 // 64, 0xA000 // 64)
HANGUL_BLOCKS = range(0xAC00 // 64, 0xD7A4 // 64)
KANA = "あかさたなはまやらわアカサタナハマヤラワ"  # one in a Japanese name: its face is JP


def undrawn() -> str:
    """A letter no installed font has."""
    from scorekeeper.printing import fonts

    for letter in NEWER_LETTERS:
        if not fonts.printable(letter):
            return letter
    raise AssertionError("every letter of NEWER_LETTERS prints: name newer ones")


def scattered_names(count: int, skip: int = 0, length: int = 40) -> list[str]:
    """``count`` names of ``length`` letters, Chinese, Japanese and Korean by turns, every
    letter from a 64-code-point block no other letter uses: the most fonts CJK names could
    ask for. ``skip``: the names to leave out first, so that two calls share no block
    (twelve names in all at most: there are 175 blocks of Korean syllables)."""
    han, hangul = iter(HAN_BLOCKS), iter(HANGUL_BLOCKS)
    names = []
    for number in range(skip + count):
        script = number % 3
        if script == 2:
            letters = [chr(next(hangul) * 64 + 7) for _ in range(length)]
        else:
            letters = [chr(next(han) * 64 + 7) for _ in range(length)]
            if script == 1:
                letters[0] = KANA[number // 3 % len(KANA)]
        names.append("".join(letters))
    return names[skip:]


def words(data: bytes) -> str:
    """All the text of a PDF with white space squeezed, so wrapped lines still match, and no
    U+200B (what a hyphen added to break a word reads as: the word reads whole)."""
    reader = PdfReader(BytesIO(data))
    text = " ".join(page.extract_text() or "" for page in reader.pages).replace("\u200b", "")
    return " ".join(text.split())


def pages(data: bytes) -> int:
    return len(PdfReader(BytesIO(data)).pages)


def word_boxes(data: bytes, tmp_path: Path) -> list[list[tuple[float, float, float, float, str]]]:
    """Each page's words as (x0, top, x1, bottom, word) in points from the top left."""
    require("pdftotext")
    source = tmp_path / "boxes.pdf"
    source.write_bytes(data)
    html = subprocess.run(
        ["pdftotext", "-bbox", str(source), "-"], check=True, capture_output=True, text=True
    ).stdout
    html = re.sub(r"<!DOCTYPE[^>]*>", "", html).replace('xmlns="http://www.w3.org/1999/xhtml"', "")
    root = ElementTree.fromstring(html)
    return [
        [
            (
                float(word.get("xMin")),
                float(word.get("yMin")),
                float(word.get("xMax")),
                float(word.get("yMax")),
                word.text or "",
            )
            for word in page.iter("word")
        ]
        for page in root.iter("page")
    ]


def overlapping(boxes: list[tuple[float, float, float, float, str]]) -> list[tuple[str, str]]:
    """Pairs of words whose ink overlaps (boxes trimmed a little: fonts pad their height)."""
    clashes = []
    for a, b in combinations(boxes, 2):
        trim_a = (a[3] - a[1]) * 0.2
        trim_b = (b[3] - b[1]) * 0.2
        if (
            min(a[2], b[2]) - max(a[0], b[0]) > 0.5
            and min(a[3] - trim_a, b[3] - trim_b) - max(a[1] + trim_a, b[1] + trim_b) > 0.5
        ):
            clashes.append((a[4], b[4]))
    return clashes


def assert_cards_unclipped(data: bytes, tmp_path: Path) -> None:
    """Every word sits inside one card face, away from the cut, or wholly in the margin."""
    width, height = page_size("letter", turned=True)
    grid_width = card_layout.GRID_COLUMNS * card_layout.PAIR_WIDTH
    grid_height = card_layout.GRID_ROWS * card_layout.CARD_HEIGHT
    left, top = (width - grid_width) / 2, (height - grid_height) / 2
    pad = card_layout.PAD - 0.5
    faces = [
        (
            left + column * card_layout.CARD_WIDTH,
            top + row * card_layout.CARD_HEIGHT,
        )
        for column in range(2 * card_layout.GRID_COLUMNS)
        for row in range(card_layout.GRID_ROWS)
    ]
    for page in word_boxes(data, tmp_path):
        for x0, y0, x1, y1, word in page:
            outside = x1 < left or x0 > left + grid_width or y1 < top or y0 > top + grid_height
            inside = any(
                fx + pad <= x0
                and x1 <= fx + card_layout.CARD_WIDTH - pad
                and fy + pad - 1 <= y0
                and y1 <= fy + card_layout.CARD_HEIGHT - pad + 1
                for fx, fy in faces
            )
            assert outside or inside, f"{word!r} crosses a card edge or its margin"
        assert overlapping(page) == []


def folds(page) -> list[tuple[float, float]]:
    """The bottom (x, y) of every fold on a page of phase cards (pypdf's page): the line a
    card's height long between its front and back. With nothing drawn on the cut since
    issue 42, the folds are what says where the cards are."""
    from pypdf.generic import ContentStream

    found, start = [], None
    for operands, operator in ContentStream(page.get_contents(), page.pdf).operations:
        if operator == b"m":
            start = [float(value) for value in operands]
        elif operator == b"l" and start is not None:
            x, y = (float(value) for value in operands)
            if abs(x - start[0]) < 0.01 and abs(abs(y - start[1]) - card_layout.CARD_HEIGHT) < 0.01:
                found.append((x, min(y, start[1])))
            start = None
    return found


def qr_codes(data: bytes, tmp_path: Path, page: int = 1) -> list[str]:
    """What every QR code on one page of a PDF decodes to (zbarimg), read from the page drawn
    at 150 dpi, in a folder of its own below `tmp_path`."""
    require("pdftoppm", "zbarimg")
    with tempfile.TemporaryDirectory(dir=tmp_path) as scratch:
        source = Path(scratch) / "printed.pdf"
        source.write_bytes(data)
        subprocess.run(
            ["pdftoppm", "-r", "150", "-f", str(page), "-l", str(page), "-png", str(source)]
            + [str(Path(scratch) / "page")],
            check=True,
        )
        (image,) = Path(scratch).glob("page*.png")
        found = subprocess.run(
            ["zbarimg", "--quiet", "--raw", str(image)], capture_output=True, text=True
        )
    return found.stdout.split()


def svg_qr_codes(page: str, folder: Path) -> list[str]:
    """What each QR code drawn as SVG on a web page says, read back by zbarimg."""
    require("rsvg-convert", "zbarimg")
    found = []
    for number, svg in enumerate(SVG.findall(page)):
        source, png = folder / f"qr{number}.svg", folder / f"qr{number}.png"
        source.write_text(svg)
        subprocess.run(
            ["rsvg-convert", "-w", "400", "-b", "white", "-o", str(png), str(source)], check=True
        )
        read = subprocess.run(["zbarimg", "-q", "--raw", str(png)], capture_output=True, text=True)
        found += read.stdout.split()
    return found
