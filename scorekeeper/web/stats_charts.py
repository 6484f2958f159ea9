"""Geometry for the statistics plots, drawn as inline SVG by templates/_stats_charts.html.

Every line and bar carries its own text label and lines differ by dash
pattern, so the plots read without colour; colours come from CSS variables,
so they follow dark mode.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import _
from ..stats import TableStats
from .chart import DASHES

WIDTH, HEIGHT = 340, 190
LEFT, RIGHT, TOP, BOTTOM = 30, 78, 14, 24
BIN = 50  # points per bar of the score distribution


@dataclass(frozen=True)
class WinLine:
    name: str
    seat: int
    points: str
    label_y: float
    wins: int
    dash: str


@dataclass(frozen=True)
class WinsChart:
    width: int
    height: int
    lines: tuple[WinLine, ...]
    games: int
    most: int
    baseline: float
    end_x: float


def wins_chart(stats: TableStats) -> WinsChart | None:
    """Each player's wins added up game by game."""
    if stats.games < 1:
        return None
    names = list(stats.players)
    totals = {name: [0] for name in names}
    for _date, winner in stats.winners:
        for name in names:
            totals[name].append(totals[name][-1] + (name == winner))
    most = max(1, max(series[-1] for series in totals.values()))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def xy(game: int, wins: int) -> tuple[float, float]:
        return round(LEFT + plot_w * game / stats.games, 1), round(
            TOP + plot_h * (1 - wins / most), 1
        )

    lines = []
    for seat, name in enumerate(names):
        coords = [xy(i, w) for i, w in enumerate(totals[name])]
        lines.append((name, seat, " ".join(f"{x},{y}" for x, y in coords), coords[-1][1]))
    placed: list[WinLine] = []
    for name, seat, points, y in sorted(lines, key=lambda line: line[3]):
        if placed and y - placed[-1].label_y < 12:
            y = placed[-1].label_y + 12
        placed.append(WinLine(name, seat, points, y, totals[name][-1], DASHES[seat % len(DASHES)]))
    return WinsChart(
        WIDTH,
        HEIGHT,
        tuple(sorted(placed, key=lambda line: line.seat)),
        stats.games,
        most,
        TOP + plot_h,
        LEFT + plot_w,
    )


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    value: int
    label: str  # under the bar


@dataclass(frozen=True)
class BarChart:
    title: str
    width: int
    height: int
    bars: tuple[Bar, ...]
    baseline: float


def _bars(title: str, values: list[tuple[str, int]], height: int = 120) -> BarChart:
    top, bottom, side = 16, 20, 6
    plot_h = height - top - bottom
    most = max([1] + [v for _, v in values])
    step = min(48, (WIDTH - 2 * side) / max(len(values), 1))  # narrow bars for few phases
    bars = []
    for i, (label, value) in enumerate(values):
        h = round(plot_h * value / most, 1)
        bars.append(
            Bar(
                round(side + i * step + 2, 1),
                round(top + plot_h - h, 1),
                round(step - 4, 1),
                h,
                value,
                label,
            )
        )
    return BarChart(title, WIDTH, height, tuple(bars), top + plot_h)


def phase_charts(stats: TableStats) -> list[BarChart]:
    """Per player: hands spent on each phase over all their games."""
    charts = []
    for p in stats.players.values():
        if not p.hands_on_phase:
            continue
        last = max(p.hands_on_phase)
        values = [(str(n), p.hands_on_phase.get(n, 0)) for n in range(1, last + 1)]
        charts.append(_bars(p.name, values, height=100))
    return charts


def score_chart(stats: TableStats) -> BarChart | None:
    """How often a game ended with a final score in each band of 50 points."""
    scores = [s for p in stats.players.values() for s in p.scores]
    if not scores:
        return None
    bands = max(scores) // BIN + 1
    values = [(str(i * BIN), 0) for i in range(bands)]
    for score in scores:
        label, count = values[score // BIN]
        values[score // BIN] = (label, count + 1)
    title = _("Final scores, in bands of %(points)s points from the number shown", points=BIN)
    return _bars(title, values)
