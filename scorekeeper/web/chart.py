"""The running-score chart: plain numbers for an inline SVG template.

Text in an SVG is not measured before the page shows it, so the layout reserves
room from an estimate (``text_width``) that errs wide: the y-axis number and each
line's end label (name and total) always fit inside the picture; a long name is
shortened, a total never.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from ..i18n import isolate
from ..rules.game import Game

WIDTH, HEIGHT, PAD_Y = 340, 180, 14
FONT = 11  # px in the picture's units, as app.css sets .chart .tick and .chart .label
GAP = 4  # between a line's end and its label, and between a tick and the axis
EDGE = 2  # kept clear at the picture's edges
LABEL_MAX = 118  # the widest end label: a long name gives way to the plot
LABEL_STEP = 12  # end labels at least this far apart, top to bottom
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 5", "10 4")  # line style per seat, not only colour


def _em(character: str) -> float:
    """A character's width in ems, on the wide side of common sans fonts (DejaVu, Roboto)."""
    if unicodedata.category(character) == "Cf":  # the marks that isolate a name: no width
        return 0.0
    if unicodedata.east_asian_width(character) in "WF":  # 李, 王: a full em
        return 1.0
    if character in "MWmw@":
        return 0.95
    return 0.78 if character.isupper() else 0.64


def text_width(text: str) -> float:
    """The width ``text`` takes in the chart's font, estimated on the wide side."""
    return FONT * sum(_em(character) for character in text)


def end_label(name: str, total: int) -> str:
    """'Chloé 10795': the name shortened with '…' until the label fits, the total whole.

    The name is isolated (``i18n.isolate``): "محمد 300" would otherwise show as "300 محمد".
    """
    label, kept = f"{isolate(name)} {total}", name
    while text_width(label) > LABEL_MAX and len(kept) > 1:
        kept = kept[:-1]
        label = f"{isolate(kept.rstrip() + '…')} {total}"
    return label


@dataclass(frozen=True)
class Line:
    name: str
    seat: int
    points: str  # "x,y x,y ..." for <polyline>
    end_x: float
    end_y: float
    total: int
    dash: str
    label: str  # name and total, as drawn at the line's end


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[Line, ...]
    max_score: int
    hands: int
    baseline: float
    left: float  # where the plot (and the axis) starts: the y-axis number fits before it
    right: float  # where it ends: the end labels fit after it
    tick_x: float  # where the y-axis numbers end
    top_tick_y: float


def score_chart(game: Game) -> Chart:
    hands = [hand for hand in game.hands if not hand.tiebreak]
    count = len(hands)
    running = dict.fromkeys(game.players, 0)
    totals: dict[str, list[int]] = {name: [0] for name in game.players}
    for hand in hands:
        for name, points in hand.scores(game.rules).items():
            if name in running:
                running[name] += points
        for name, total in running.items():
            totals[name].append(total)
    top = max(50, max(series[-1] for series in totals.values()))
    labels = {name: end_label(name, totals[name][-1]) for name in game.players}
    left = EDGE + text_width(str(top)) + GAP
    right = WIDTH - EDGE - GAP - max(text_width(label) for label in labels.values())
    plot_w, plot_h = right - left, HEIGHT - 2 * PAD_Y
    # A long game has a few hundred points per line: every line shares the x of each hand,
    # and ":.1f" writes the same digits as round(v, 1) does, several times faster.
    xs = [left + plot_w * hand / max(count, 1) for hand in range(count + 1)]

    lines = []
    for seat, name in enumerate(game.players):
        ys = [PAD_Y + plot_h * (1 - score / top) for score in totals[name]]
        lines.append(
            Line(
                name,
                seat,
                " ".join([f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys, strict=True)]),
                round(xs[-1], 1),
                round(ys[-1], 1),
                totals[name][-1],
                DASHES[seat % len(DASHES)],
                labels[name],
            )
        )
    placed = _spread([line for line in sorted(lines, key=lambda line: line.end_y)])
    return Chart(
        WIDTH,
        HEIGHT,
        tuple(sorted(placed, key=lambda line: line.seat)),
        top,
        count,
        PAD_Y + plot_h,
        round(left, 1),
        round(right, 1),
        round(left - GAP, 1),
        PAD_Y,
    )


def _spread(lines: list[Line]) -> list[Line]:
    """End labels (sorted top to bottom) at least LABEL_STEP apart and inside the picture."""
    ys: list[float] = []
    for line in lines:
        ys.append(max(line.end_y, ys[-1] + LABEL_STEP) if ys else line.end_y)
    # a label's text runs from about 0.8 em above its line's end to 0.4 em below (the template
    # draws it 4 units lower): pushed past the bottom, the whole column moves up
    lowest = HEIGHT - EDGE - FONT * 0.4 - 4
    shift = max(0.0, ys[-1] - lowest) if ys else 0.0
    ys = [max(y - shift, EDGE + FONT * 0.8 - 4) for y in ys]
    return [
        Line(
            line.name,
            line.seat,
            line.points,
            line.end_x,
            round(y, 1),
            line.total,
            line.dash,
            line.label,
        )
        for line, y in zip(lines, ys, strict=True)
    ]
