"""Charts as plain numbers for inline SVG templates: a game's running scores, a table's stats.

Text in an SVG is not measured before the page shows it, so the layout reserves
room from an estimate (``text_width``) that errs wide: the y-axis number and each
line's end label (name and total) always fit inside the picture; a long name is
shortened, a total never.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace

from ..i18n import isolate
from ..reports.statistics import TableStats
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


def end_label(name: str, total: int, widest: float = LABEL_MAX) -> str:
    """'Chloé 10795': the name shortened with '…' until the label fits, the total whole.

    The name is isolated (``i18n.isolate``): "محمد 300" would otherwise show as "300 محمد".
    """
    label, kept = f"{isolate(name)} {total}", name
    while text_width(label) > widest and len(kept) > 1:
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
    lines.sort(key=lambda line: line.end_y)
    ys = _spread([line.end_y for line in lines], HEIGHT)
    placed = [replace(line, end_y=y) for line, y in zip(lines, ys, strict=True)]
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


def _spread(wanted: list[float], height: int) -> list[float]:
    """End labels' heights (sorted top to bottom) at least LABEL_STEP apart and inside a
    picture ``height`` high."""
    ys: list[float] = []
    for y in wanted:
        ys.append(max(y, ys[-1] + LABEL_STEP) if ys else y)
    # a label's text runs from about 0.8 em above its line's end to 0.4 em below (the templates
    # draw it 4 units lower): pushed past the bottom, the whole column moves up
    lowest = height - EDGE - FONT * 0.4 - 4
    shift = max(0.0, ys[-1] - lowest) if ys else 0.0
    return [round(max(y - shift, EDGE + FONT * 0.8 - 4), 1) for y in ys]


# --- a table's statistics ---------------------------------------------------------------
# Every line and bar carries its own text label and lines differ by dash pattern, so
# the plots read without colour; colours come from CSS variables (dark mode too).

STATS_WIDTH, STATS_HEIGHT = 340, 190
LEFT, RIGHT, TOP, BOTTOM = 30, 78, 14, 24
BIN = 50  # points per bar of the score distribution
WIN_LINES = 6  # a club's wins chart draws the players with the most wins, one style each
WIN_POINTS = 400  # a line's points at most: past that, every game is not a point of its own


@dataclass(frozen=True)
class WinLine:
    name: str
    seat: int
    points: str
    label_y: float
    wins: int
    dash: str
    label: str  # name and wins, as drawn at the line's end


@dataclass(frozen=True)
class WinsChart:
    width: int
    height: int
    lines: tuple[WinLine, ...]
    games: int
    most: int
    baseline: float
    end_x: float
    players: int  # at the table: more than the lines drawn when only the winningest are


def wins_chart(stats: TableStats) -> WinsChart | None:
    """Each player's wins added up game by game: at a club's table, the WIN_LINES players
    with the most wins, each line at most WIN_POINTS points (a 340-pixel picture shows no
    more)."""
    if stats.games < 1:
        return None
    won = {name: p.wins for name, p in stats.players.items()}
    names = sorted(won, key=lambda name: -won[name])[:WIN_LINES]  # a tie: the earlier
    names.sort(key=list(stats.players).index)
    step = -(-stats.games // WIN_POINTS)  # every game a point, up to WIN_POINTS games
    shown = sorted({*range(0, stats.games + 1, step), stats.games})
    totals = {name: [0] for name in names}
    for _date, winner in stats.winners:
        if winner in totals:
            for name, series in totals.items():
                series.append(series[-1] + (name == winner))
        else:
            for series in totals.values():
                series.append(series[-1])
    most = max(1, max(series[-1] for series in totals.values()))
    plot_w, plot_h = STATS_WIDTH - LEFT - RIGHT, STATS_HEIGHT - TOP - BOTTOM

    def xy(game: int, wins: int) -> tuple[float, float]:
        return round(LEFT + plot_w * game / stats.games, 1), round(
            TOP + plot_h * (1 - wins / most), 1
        )

    lines = []
    for seat, name in enumerate(names):
        coords = [xy(i, totals[name][i]) for i in shown]
        wins = totals[name][-1]
        label = end_label(name, wins, widest=RIGHT - GAP - EDGE)
        points, dash = " ".join(f"{x},{y}" for x, y in coords), DASHES[seat % len(DASHES)]
        lines.append(WinLine(name, seat, points, coords[-1][1], wins, dash, label))
    lines.sort(key=lambda line: line.label_y)
    ys = _spread([line.label_y for line in lines], STATS_HEIGHT)
    placed = [replace(line, label_y=y) for line, y in zip(lines, ys, strict=True)]
    return WinsChart(
        STATS_WIDTH,
        STATS_HEIGHT,
        tuple(sorted(placed, key=lambda line: line.seat)),
        stats.games,
        most,
        TOP + plot_h,
        LEFT + plot_w,
        len(stats.players),
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
    step = min(48, (STATS_WIDTH - 2 * side) / max(len(values), 1))  # narrow bars for few phases
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
    return BarChart(title, STATS_WIDTH, height, tuple(bars), top + plot_h)


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


def final_scores_chart(stats: TableStats) -> BarChart | None:
    """How often a game ended with a final score in each band of 50 points (its title, in
    words, is the template's: the chart is kept for every language)."""
    scores = [s for p in stats.players.values() for s in p.scores]
    if not scores:
        return None
    bands = max(scores) // BIN + 1
    values = [(str(i * BIN), 0) for i in range(bands)]
    for score in scores:
        label, count = values[score // BIN]
        values[score // BIN] = (label, count + 1)
    return _bars("", values)
