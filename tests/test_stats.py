"""Lifetime statistics against a small history worked out by hand.

Three finished games of the first two phases (``first=2``) and one still going:

    game 1  Ann, Bob, Cy   Ann out twice; Bob makes both phases too; Cy none
            final Ann 0, Bob 30, Cy 115: Ann wins; order Ann, Bob, Cy
    game 2  Ann, Bob, Cy   Cy out twice; Ann makes phase 1 only; Bob none
            final Cy 0, Ann 85, Bob 130: Cy wins; order Cy, Ann, Bob
    game 3  Bobby, Cy      (Bobby is Bob, merged on the roster) Cy out twice
            final Cy 0, Bob 60: Cy wins; order Cy, Bob
    game 4  Ann, Cy        one hand, not over: not counted
"""

from __future__ import annotations

import pytest

from scorekeeper.reports.statistics import GameFigures, PlayedGame, add_up, table_stats
from scorekeeper.rules.gamefile import load_game


def game(players, dealer, hands):
    return load_game(
        {
            "rules": "official",
            "options": {"first": "2"},
            "players": players,
            "dealer": dealer,
            "hands": [
                {"went_out": out, "made": made, "points": points} for out, made, points in hands
            ],
        }
    )


HISTORY = [
    PlayedGame(
        game(
            ["Ann", "Bob", "Cy"],
            "Ann",
            [
                ("Ann", ["Ann", "Bob"], {"Bob": 20, "Cy": 60}),
                ("Ann", ["Ann", "Bob"], {"Bob": 10, "Cy": 55}),
            ],
        ),
        "2026-01-02",
    ),
    PlayedGame(
        game(
            ["Ann", "Bob", "Cy"],
            "Bob",
            [
                ("Cy", ["Cy", "Ann"], {"Ann": 5, "Bob": 70}),
                ("Cy", ["Cy"], {"Ann": 80, "Bob": 60}),
            ],
        ),
        "2026-01-09",
    ),
    PlayedGame(
        game(
            ["Bobby", "Cy"],
            "Bobby",
            [("Cy", ["Cy"], {"Bobby": 50}), ("Cy", ["Cy", "Bobby"], {"Bobby": 10})],
        ),
        "2026-01-16",
    ),
    PlayedGame(game(["Ann", "Cy"], "Ann", [("Ann", ["Ann"], {"Cy": 70})]), "2026-01-23"),
]


@pytest.fixture
def stats():
    return table_stats(HISTORY, {"Bobby": "Bob"})


def test_only_finished_games_count(stats):
    assert stats.games == 3
    assert stats.hands == 6
    assert stats.average_hands == 2.0
    assert stats.winners == [("2026-01-02", "Ann"), ("2026-01-09", "Cy"), ("2026-01-16", "Cy")]


@pytest.mark.parametrize(
    ("name", "games", "wins", "percent", "average", "to_finish", "streak", "best"),
    [
        ("Ann", 2, 1, 50, 42.5, 2.0, 1, (0, "2026-01-02")),
        ("Bob", 3, 0, 0, 73.3, 2.0, 0, (30, "2026-01-02")),
        ("Cy", 3, 2, 67, 38.3, 2.0, 2, (0, "2026-01-09")),
    ],
)
def test_games_wins_averages_streaks_and_best_game(
    stats, name, games, wins, percent, average, to_finish, streak, best
):
    p = stats.players[name]
    assert (p.games, p.wins, p.win_percent) == (games, wins, percent)
    assert p.average_score == average
    assert p.average_hands_to_finish == to_finish
    assert p.longest_streak == streak
    assert (p.best_score, p.best_date) == best


def test_a_merged_spelling_counts_for_the_roster_name(stats):
    assert set(stats.players) == {"Ann", "Bob", "Cy"}
    assert stats.players["Bob"].scores == [30, 130, 60]


def test_hands_spent_on_each_phase_and_the_phase_stuck_on_most(stats):
    assert dict(stats.players["Ann"].hands_on_phase) == {1: 2, 2: 2}
    assert dict(stats.players["Bob"].hands_on_phase) == {1: 5, 2: 1}
    assert dict(stats.players["Cy"].hands_on_phase) == {1: 4, 2: 2}
    assert stats.players["Bob"].stuck_on == 1
    assert stats.players["Ann"].stuck_on == 1  # a tie goes to the earlier phase


def test_head_to_head_counts_who_finished_ahead(stats):
    assert stats.head_to_head("Ann", "Bob") == (2, 0, 2)
    assert stats.head_to_head("Ann", "Cy") == (1, 1, 2)
    assert stats.head_to_head("Cy", "Bob") == (2, 1, 3)
    assert stats.rivals() == [
        ("Ann", "Bob", 2, 0, 2),
        ("Ann", "Cy", 1, 1, 2),
        ("Bob", "Cy", 1, 2, 3),
    ]


def test_no_games_no_figures():
    empty = table_stats([])
    assert (empty.games, empty.average_hands, empty.players) == (0, 0.0, {})


def test_night_figures_count_nights_played_best_place_and_placement_points_a_night():
    from scorekeeper.reports.statistics import night_figures
    from scorekeeper.rules.nights import NightRow, Scheme

    def row(place, name, points, games=1):
        return NightRow(place, name, points, games, 100, 3, 100)

    boards = [
        (Scheme.PLACEMENT, [row(1, "Ann", 240), row(2, "Bob", 120), row(3, "Cy", 0, games=0)]),
        (Scheme.PLACEMENT, [row(1, "Robert", 200), row(2, "Ann", 100)]),
        (Scheme.CUMULATIVE, [row(1, "Ann", 310), row(2, "Bob", 400)]),
    ]
    figures = night_figures(boards, {"Robert": "Bob"})
    assert [(f.name, f.nights, f.best_place, f.points) for f in figures] == [
        ("Ann", 3, 1, (240, 100)),
        ("Bob", 3, 1, (120, 200)),
    ]  # Cy played no game that night; Robert is Bob's old spelling
    assert figures[0].points_per_night == 170


def _two(a: str, b: str, winner: str) -> GameFigures:
    """A finished game of two, ``winner`` ahead."""
    other = b if winner == a else a
    return GameFigures(
        "2026-01-01", None, (a, b), 10, False, winner, ((a, 0), (b, 50)), ((winner,), (other,)),
        (), (),
    )  # fmt: skip


CLUB = [
    *[_two("Ann", "Bob", "Ann")] * 3,
    *[_two("Ann", "Cy", "Cy")] * 2,
    _two("Ann", "Di", "Di"),
    _two("Bob", "Cy", "Bob"),
    *[_two("Di", "Ed", "Ed")] * 2,
]


def test_a_family_s_head_to_head_is_every_pair_that_played_together():
    assert [pair[:2] for pair in add_up(CLUB).rivals()] == [
        ("Ann", "Bob"), ("Ann", "Cy"), ("Ann", "Di"), ("Bob", "Cy"), ("Di", "Ed")
    ]  # fmt: skip


def test_a_club_s_head_to_head_is_each_player_against_those_they_played_most():
    """Hundreds of players make thousands of pairs: a page lists its players, each against
    the ``most`` they played most games with, a pair both list once."""
    club = add_up(CLUB)
    opponents = club.opponents(2)
    assert opponents["Ann"] == ("Bob", "Cy")  # 3 and 2 games; Di, 1, is left out
    assert opponents["Di"] == ("Ann", "Ed")  # in the players' order
    assert club.rivals_of(list(club.players), opponents) == [
        ("Ann", "Bob", 3, 0, 3),
        ("Ann", "Cy", 0, 2, 2),
        ("Bob", "Cy", 1, 0, 1),
        ("Di", "Ann", 1, 0, 1),  # Ann's two are Bob and Cy: Di lists her
        ("Di", "Ed", 0, 2, 2),
    ]
    assert club.rivals_of(["Di", "Ed"], opponents) == [
        ("Di", "Ann", 1, 0, 1),
        ("Di", "Ed", 0, 2, 2),
    ]
