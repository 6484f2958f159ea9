"""The running-score chart: plain numbers for an inline SVG template."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.game import Game

WIDTH, HEIGHT, PAD_LEFT, PAD_RIGHT, PAD_Y = 340, 180, 34, 70, 14
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 5", "10 4")  # line style per seat, not only colour


@dataclass(frozen=True)
class Line:
    name: str
    seat: int
    points: str  # "x,y x,y ..." for <polyline>
    end_x: float
    end_y: float
    total: int
    dash: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[Line, ...]
    max_score: int
    hands: int
    baseline: float


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
    plot_w, plot_h = WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - 2 * PAD_Y
    # A long game has a few hundred points per line: every line shares the x of each hand,
    # and ":.1f" writes the same digits as round(v, 1) does, several times faster.
    xs = [PAD_LEFT + plot_w * hand / max(count, 1) for hand in range(count + 1)]

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
            )
        )
    # keep end labels from overlapping: at least 12 px apart, top to bottom
    placed: list[Line] = []
    for line in sorted(lines, key=lambda line: line.end_y):
        y = line.end_y
        if placed and y - placed[-1].end_y < 12:
            y = placed[-1].end_y + 12
        placed.append(Line(line.name, line.seat, line.points, line.end_x, y, line.total, line.dash))
    return Chart(
        WIDTH, HEIGHT, tuple(sorted(placed, key=lambda line: line.seat)), top, count, PAD_Y + plot_h
    )
