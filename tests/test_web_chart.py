"""The running-score chart: every number and name it draws fits inside the picture."""

from __future__ import annotations

import pytest
from flask import render_template
from games import game_with_totals
from webpage import read

from scorekeeper.reports.statistics import PlayerStats, TableStats
from scorekeeper.rules.game import Game
from scorekeeper.web.charts import FONT, WIN_LINES, WIN_POINTS, score_chart, text_width, wins_chart


def _drawn(svg: str) -> tuple[dict, list[tuple[float, float, str, bool, str]]]:
    """A chart's size (its viewBox) and each text it draws: (x, y, class, anchored at its
    end, words as read, without the marks that isolate a name, which have no width)."""
    page = read(svg)
    left, top, width, height = page.one("svg")["viewBox"].split()
    assert (left, top) == ("0", "0")
    texts = [
        (float(t["x"]), float(t["y"]), t["class"], t.get("text-anchor") == "end", t.text)
        for t in page.select("text")
    ]
    return {"width": int(width), "height": int(height)}, texts


def _drawn_text(app, game: Game) -> tuple[dict, list[tuple[float, float, str, bool, str]]]:
    chart = score_chart(game)
    with app.test_request_context():
        return _drawn(render_template("_chart.html", chart=chart))


@pytest.mark.parametrize(
    "players",
    [
        {"Grandma Rosemarie": 10865, "Chloé": 10795, "Bob": 7500},  # the walkthrough's game
        {"Ann": 95, "Bob": 60, "Cy": 0, "Dee": 0, "Eve": 0},  # labels crowd at the bottom
        {"Maximiliane-Sophie": 99995, "Wolfgang Amadeus": 99990},
    ],
)
def test_every_number_and_name_fits_inside_the_chart(app, players):
    size, texts = _drawn_text(app, game_with_totals(players))
    assert texts
    for x, y, _kind, anchored_end, words in texts:
        width = text_width(words)  # the estimate the layout itself uses
        start = x - width if anchored_end else x
        assert start >= 0 and start + width <= size["width"], (words, start, width)
        assert y - FONT * 0.8 >= 0 and y + FONT * 0.25 <= size["height"], (words, y)
    ticks = [words for *_, kind, _end, words in texts if kind == "tick"]
    assert str(max(max(players.values()), 50)) in ticks  # "10865", never ".0865"
    labels = [words for *_, kind, _end, words in texts if kind.startswith("label")]
    for name, total in players.items():  # each total whole, after its name or its start
        (label,) = [label for label in labels if label.startswith(name[:3])]
        assert label.endswith(f" {total}"), label
    ys = sorted(y for _x, y, kind, *_ in texts if kind.startswith("label"))
    assert all(b - a >= 12 - 0.1 for a, b in zip(ys, ys[1:], strict=False))  # no overlap


def test_a_chinese_name_is_estimated_a_full_em_a_letter():
    assert text_width("李雷") == pytest.approx(2 * FONT)
    assert text_width("\u2068Ann\u2069") == text_width("Ann")


def test_a_short_name_is_kept_whole_and_a_long_one_shortened_with_its_total():
    lines = {
        line.name: line.label
        for line in score_chart(
            game_with_totals({"Grandma Rosemarie of the Hill": 10865, "Chloé": 10795})
        ).lines
    }
    assert lines["Chloé"] == "Chloé 10795"  # no isolate marks: a left-to-right name cannot move
    assert lines["Grandma Rosemarie of the Hill"].endswith("… 10865")


@pytest.mark.parametrize(
    "winners",
    [
        ["Ann", "Ann", "Ann"],  # the three others at 0: their labels crowd at the bottom
        ["Grandma Rosemarie of the Hill", "Bob", "Cy"],
    ],
)
def test_every_label_of_the_wins_chart_fits_inside_it(app, winners):
    """Stacked labels at 0 wins ("Dee 0") were pushed out of the picture's bottom."""
    names = ["Ann", "Bob", "Cy", "Dee", "Grandma Rosemarie of the Hill"]
    stats = TableStats(
        players={name: PlayerStats(name) for name in names},
        games=len(winners),
        winners=[(f"2026-11-2{i}", name) for i, name in enumerate(winners)],
    )
    chart = wins_chart(stats)
    assert chart is not None
    with app.test_request_context():
        svg = render_template("_stats_charts.html", wins=chart)
    size, texts = _drawn(svg)
    width, height = size["width"], size["height"]
    labels = [(x, y, words) for x, y, kind, _end, words in texts if kind == "label"]
    assert len(labels) == len(names)
    for x, y, words in labels:
        assert x + text_width(words) <= width, words
        assert y - FONT * 0.8 >= 0 and y + FONT * 0.25 <= height, (words, y)
    ys = sorted(y for _x, y, _words in labels)
    assert all(b - a >= 12 - 0.1 for a, b in zip(ys, ys[1:], strict=False))  # no overlap
    for name in names:  # each count of wins whole, after the name or its start
        (label,) = [words for *_, words in labels if words.startswith(name[:3])]
        assert label.endswith(f" {winners.count(name)}"), label


def _club(players: int, games: int) -> TableStats:
    """``players`` at a table, player i winning every (i + 1)-th game of ``games`` it can."""
    names = [f"P{i}" for i in range(players)]
    winners = [
        names[max(i for i in range(players) if game % (i + 1) == 0)] for game in range(games)
    ]
    found = TableStats(players={name: PlayerStats(name) for name in names}, games=games)
    found.winners = [(f"day {game}", winner) for game, winner in enumerate(winners)]
    for winner in winners:
        found.players[winner].wins += 1
    return found


def test_a_family_s_wins_chart_draws_every_player_and_every_game():
    chart = wins_chart(_club(6, WIN_POINTS))
    assert chart is not None and [line.name for line in chart.lines] == [f"P{i}" for i in range(6)]
    assert all(len(line.points.split()) == WIN_POINTS + 1 for line in chart.lines)


def test_a_club_s_wins_chart_draws_the_players_with_the_most_wins_in_a_few_hundred_points():
    """300 lines of 2,000 points each made most of a 7.2 MB page."""
    club = _club(300, 2000)
    chart = wins_chart(club)
    assert chart is not None and chart.players == 300
    most = sorted(club.players, key=lambda name: -club.players[name].wins)[:WIN_LINES]
    assert [line.name for line in chart.lines] == sorted(most, key=list(club.players).index)
    for line in chart.lines:
        points = line.points.split()
        assert len(points) <= WIN_POINTS + 1
        assert line.wins == club.players[line.name].wins  # the last point: every game counted
        assert float(points[-1].split(",")[0]) == chart.end_x
