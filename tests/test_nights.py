"""A night of several tables and rounds: table sizes, seating and the night's standings
(rule 11)."""

from __future__ import annotations

import itertools

import pytest

from scorekeeper.i18n import using
from scorekeeper.rules import nights
from scorekeeper.rules.game import Game
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.nights import (
    Mode,
    NightError,
    Result,
    Scheme,
    night_standings,
    placement_points,
    results,
    seat_round,
    table_counts,
    table_sizes,
    times_met,
)
from scorekeeper.rules.replay import replay
from scorekeeper.rules.ruleset import OFFICIAL
from scorekeeper.rules.seating_lines import rounds_of

FOURTEEN = [f"P{number:02}" for number in range(1, 15)]


def groups(seating: nights.Seating) -> list[tuple[str, ...]]:
    return [table.seats for table in seating.tables]


def repeated_pairs(tables, earlier) -> int:
    met = times_met(earlier)
    return sum(
        1 for table in tables for pair in itertools.combinations(table, 2) if met[frozenset(pair)]
    )


# --- table sizes ---------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 41))
def test_the_suggested_tables_seat_two_to_four_as_evenly_as_possible(players):
    sizes = table_sizes(players)
    assert sum(sizes) == players
    assert all(2 <= size <= 4 for size in sizes) or sizes == (players,)  # 2-4 at one table
    assert max(sizes) - min(sizes) <= 1
    assert list(sizes) == sorted(sizes, reverse=True)  # table 1 is the largest
    assert len(sizes) == max(1, -(-players // 4))  # one table fewer would seat five


@pytest.mark.parametrize(
    ("players", "tables", "sizes"),
    [
        (2, None, (2,)),
        (4, None, (4,)),
        (5, None, (3, 2)),
        (7, None, (4, 3)),
        (13, None, (4, 3, 3, 3)),
        (14, None, (4, 4, 3, 3)),  # the night
        (14, 3, (5, 5, 4)),  # the organiser asks for fewer tables
        (6, 1, (6,)),
        (12, 6, (2, 2, 2, 2, 2, 2)),
    ],
)
def test_the_rule_books_examples(players, tables, sizes):
    assert table_sizes(players, tables) == sizes


@pytest.mark.parametrize("players", range(2, 41))
def test_any_table_count_the_organiser_may_choose_keeps_tables_of_two_to_six(players):
    for tables in table_counts(players):
        sizes = table_sizes(players, tables)
        assert len(sizes) == tables and sum(sizes) == players
        assert all(2 <= size <= 6 for size in sizes) and max(sizes) - min(sizes) <= 1


def test_mixed_up_masters_nights_keep_tables_to_four():
    assert table_sizes(9, most=4) == (3, 3, 3)
    assert table_sizes(10, most=4) == (4, 3, 3)


@pytest.mark.parametrize("players", [0, 1])
def test_a_night_needs_at_least_two_players(players):
    with pytest.raises(NightError, match="a night needs at least 2 players, not"):
        table_sizes(players)


def test_a_table_count_that_cannot_seat_everyone_is_refused_with_the_choices():
    with pytest.raises(NightError) as refused:
        table_sizes(14, 8)
    (problem,) = refused.value.problems
    assert problem.message == "14 players sit at 3 to 7 tables, not 8"
    assert problem.field == "tables" and problem.rule.anchor == "night-tables"
    with pytest.raises(NightError, match="3 players play at one table"):
        table_sizes(3, 2)


def test_the_organiser_reads_the_refusal_in_their_language():
    with using("de"), pytest.raises(NightError) as refused:
        seat_round(["Ann"], Mode.RANDOM, seed=1)
    assert str(refused.value) == "ein Spieleabend braucht mindestens 2 Spieler, nicht 1"


def test_two_players_with_one_name_cannot_both_be_seated():
    with pytest.raises(NightError, match="two players have this name"):
        seat_round(["Ann", "Bob", "ann"], Mode.RANDOM, seed=1)


# --- seating -------------------------------------------------------------------------


@pytest.mark.parametrize("mode", list(Mode))
def test_the_same_seed_seats_the_same_way_whatever_order_the_names_came_in(mode):
    earlier = [FOURTEEN[:4], FOURTEEN[4:8], FOURTEEN[8:11], FOURTEEN[11:]]
    kwargs = {"tables": 4, "earlier": earlier, "standing": FOURTEEN[::-1]}
    first = seat_round(FOURTEEN, mode, seed=7, **kwargs)
    again = seat_round(list(reversed(FOURTEEN)), mode, seed=7, **kwargs)
    assert first == again
    other_seeds = {groups(seat_round(FOURTEEN, mode, seed=seed, **kwargs))[0] for seed in range(8)}
    assert len(other_seeds) > 1  # the seed, not the names' order, decides


@pytest.mark.parametrize("mode", list(Mode))
def test_everyone_present_gets_exactly_one_seat_and_seat_1_deals(mode):
    seating = seat_round(FOURTEEN, mode, seed=3, tables=4, standing=FOURTEEN)
    seated = [name for table in seating.tables for name in table.seats]
    assert sorted(seated) == FOURTEEN
    assert [len(table.seats) for table in seating.tables] == [4, 4, 3, 3]
    assert [table.number for table in seating.tables] == [1, 2, 3, 4]
    for table in seating.tables:
        game = Game(OFFICIAL, table.seats, table.dealer)  # each table starts its game as seated
        assert game.players == table.seats and game.dealer == table.seats[0]
        assert seating.table_of(table.seats[-1]) == table
    assert seating.table_of("Nobody") is None


def test_a_random_seating_draws_the_tables_and_the_seats():
    tables = {groups(seat_round(FOURTEEN, Mode.RANDOM, seed=seed))[0] for seed in range(30)}
    dealers = {seat_round(FOURTEEN, Mode.RANDOM, seed=seed).tables[0].dealer for seed in range(30)}
    assert len(tables) == 30 and len(dealers) > 5


@pytest.mark.parametrize("seed", range(10))
def test_round_2_of_fourteen_at_four_tables_seats_nobody_with_someone_met_in_round_1(seed):
    first = seat_round(FOURTEEN, Mode.RANDOM, seed=f"night/{seed}/1", tables=4)
    second = seat_round(
        FOURTEEN, Mode.NEW_OPPONENTS, seed=f"night/{seed}/2", tables=4, earlier=groups(first)
    )
    assert second.repeats == 0 == repeated_pairs(groups(second), groups(first))


def test_a_player_who_left_and_one_who_arrived_are_seated_from_who_is_here():
    first = seat_round(FOURTEEN, Mode.RANDOM, seed=1, tables=4)
    gone = first.tables[0].seats[0]
    here = [name for name in FOURTEEN if name != gone] + ["Late"]
    second = seat_round(here, Mode.NEW_OPPONENTS, seed=2, tables=4, earlier=groups(first))
    assert second.table_of(gone) is None and second.table_of("Late") is not None
    assert second.repeats == 0


def _best_repeats(players, sizes, earlier):
    """Brute force: the fewest repeated pairs over every way to seat ``players`` at tables
    of ``sizes`` (the oracle for the search's heuristic)."""
    met = times_met(earlier)

    def partitions(rest, sizes):
        """Every way to split ``rest`` into tables of ``sizes``, tables of one size unordered:
        the first player left joins a table of each size there is, with every choice of
        mates."""
        if not rest:
            yield []
            return
        first, *others = rest
        for size in set(sizes):
            left_sizes = list(sizes)
            left_sizes.remove(size)
            for mates in itertools.combinations(others, size - 1):
                left = [name for name in others if name not in mates]
                for more in partitions(left, left_sizes):
                    yield [(first, *mates), *more]

    best = None
    for option in partitions(list(players), list(sizes)):
        count = sum(
            1 for t in option for pair in itertools.combinations(t, 2) if met[frozenset(pair)]
        )
        best = count if best is None else min(best, count)
    return best


SMALL = [
    (8, None, 2),  # two tables of 4, two rounds: some pairs must meet again
    (8, 4, 2),  # four tables of 2
    (9, 3, 2),
    (10, 3, 2),
    (12, 3, 1),
    (12, 4, 3),  # after three rounds of tables of 3
    (7, 2, 3),
]


@pytest.mark.parametrize(("players", "tables", "rounds"), SMALL)
@pytest.mark.parametrize("seed", range(6))
def test_new_opponents_finds_the_fewest_repeats_a_full_search_finds(players, tables, rounds, seed):
    """Whenever a seating without repeats exists the heuristic finds one, and when none
    does it repeats no more pairs than the best seating there is."""
    names = [f"N{number}" for number in range(players)]
    earlier: list[tuple[str, ...]] = []
    for number in range(rounds):
        seating = seat_round(names, Mode.RANDOM, seed=f"{seed}/{number}", tables=tables)
        earlier += groups(seating)
    found = seat_round(names, Mode.NEW_OPPONENTS, seed=seed, tables=tables, earlier=earlier)
    assert found.repeats == _best_repeats(names, table_sizes(players, tables), earlier)


def test_when_pairs_must_meet_again_the_pair_met_most_is_spared():
    """Four players at two tables of 2, after seven tables of 2 in which every pair has met
    and Ann and Bob twice: any seating repeats two pairs, and Ann and Bob are not one."""
    earlier = [("Ann", "Bob"), ("Ann", "Bob"), ("Cy", "Dee"), ("Ann", "Cy"), ("Bob", "Dee")]
    earlier += [("Ann", "Dee"), ("Bob", "Cy")]
    for seed in range(10):
        seating = seat_round(
            ["Ann", "Bob", "Cy", "Dee"], Mode.NEW_OPPONENTS, seed=seed, tables=2, earlier=earlier
        )
        assert seating.repeats == 2
        assert seating.table_of("Ann") != seating.table_of("Bob")


def test_thirty_tables_are_seated_within_the_search_bound():
    names = [f"N{number}" for number in range(180)]
    earlier = groups(seat_round(names, Mode.RANDOM, seed=1, tables=30))
    seating = seat_round(names, Mode.NEW_OPPONENTS, seed=2, earlier=earlier, tables=30)
    assert len(seating.tables) == 30 and seating.repeats == 0


def _night(names, tables, rounds, seed):
    """Seat a night as actions/nights does: round 1 at random, then new opponents."""
    earlier: list[tuple[str, ...]] = []
    seatings = []
    for number in range(1, rounds + 1):
        mode = Mode.RANDOM if number == 1 else Mode.NEW_OPPONENTS
        seating = seat_round(names, mode, seed=f"{seed}/{number}", tables=tables, earlier=earlier)
        seatings.append(seating)
        earlier += groups(seating)
    return seatings


@pytest.mark.parametrize("seed", range(4))
def test_forty_at_seven_tables_meet_nobody_twice_in_five_rounds(seed):
    """The fewest tables for 40 (six at most at one): seated round by round, rounds 4 and
    5 used to repeat 1 and 5 to 7 pairs, though a night without a repeat exists."""
    names = [f"Player {number}" for number in range(40)]
    seatings = _night(names, 7, 5, seed)
    assert [seating.repeats for seating in seatings] == [0] * 5
    assert all(sorted(map(len, groups(s)), reverse=True) == [6] * 5 + [5] * 2 for s in seatings)


@pytest.mark.parametrize(("players", "tables", "rounds"), [(42, 7, 7), (20, 5, 5), (44, 11, 6)])
def test_a_prime_number_of_tables_seats_as_many_rounds_as_tables_without_a_repeat(
    players, tables, rounds
):
    names = [f"N{number}" for number in range(players)]
    everyone = [table for seating in _night(names, tables, rounds, 7) for table in groups(seating)]
    assert max(times_met(everyone).values()) == 1


def test_a_night_that_changes_who_is_here_is_still_seated_in_full():
    """A player leaves and another arrives after round 2 at seven tables: the plane no
    longer holds everyone, and the search seats the rest."""
    names = [f"N{number}" for number in range(40)]
    first, second = _night(names, 7, 2, 3)
    here = [*names[1:], "Late"]
    third = seat_round(
        here, Mode.NEW_OPPONENTS, seed=9, tables=7, earlier=groups(first) + groups(second)
    )
    assert sorted(name for table in groups(third) for name in table) == sorted(here)
    assert third.repeats == 0


def test_the_night_so_far_is_read_back_as_its_rounds():
    earlier = [("A", "B"), ("C", "D"), ("A", "C"), ("B", "D"), ("A", "D")]
    assert rounds_of(earlier) == [[("A", "B"), ("C", "D")], [("A", "C"), ("B", "D")], [("A", "D")]]


def test_by_standing_seats_the_leaders_together_at_table_1():
    standing = FOURTEEN[::-1]  # P14 leads
    seating = seat_round(FOURTEEN + ["Late"], Mode.BY_STANDING, seed=5, tables=4, standing=standing)
    assert [sorted(table.seats) for table in seating.tables] == [
        sorted(standing[:4]),
        sorted(standing[4:8]),
        sorted(standing[8:12]),
        sorted([*standing[12:], "Late"]),  # a late arrival, not in the standing yet, comes last
    ]


def test_by_standing_leaves_out_who_has_gone():
    seating = seat_round(
        ["Ann", "Bob", "Cy", "Dee"],
        Mode.BY_STANDING,
        seed=1,
        tables=2,
        standing=["Gone", "Dee", "Ann", "Cy", "Bob"],
    )
    assert [set(table.seats) for table in seating.tables] == [{"Dee", "Ann"}, {"Cy", "Bob"}]


# --- points for the night ------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "points"),
    [
        (2, [120, 0]),
        (3, [120, 60, 0]),
        (4, [120, 80, 40, 0]),
        (5, [120, 90, 60, 30, 0]),
        (6, [120, 96, 72, 48, 24, 0]),
    ],
)
def test_placement_points_give_the_winner_120_and_the_last_0_at_any_table(players, points):
    assert [placement_points(place, 1, players) for place in range(1, players + 1)] == points
    assert sum(points) == 60 * players  # every table gives 60 a player on average


@pytest.mark.parametrize(
    ("place", "sharing", "players", "points"),
    [
        (2, 2, 4, 60),  # 2nd and 3rd of 4: (80 + 40) / 2
        (1, 2, 5, 105),  # 1st and 2nd of 5: (120 + 90) / 2
        (1, 3, 3, 60),  # everyone tied
        (4, 3, 6, 24),  # 4th to 6th of 6: (48 + 24 + 0) / 3
        (1, 2, 2, 60),
    ],
)
def test_tied_players_share_the_points_of_the_places_they_span(place, sharing, players, points):
    assert placement_points(place, sharing, players) == points


def finished(players, hands, rules="official", **options):
    """A finished game, replayed by the engine."""
    data = {"rules": rules, "options": options, "players": players, "hands": hands}
    game = load_game(data)
    return results(replay(game), game.rules)


def first_phase_game(went_out, made, points, players=None):
    """A game played to the first phase only, over in one hand."""
    names = players or [went_out, *points]
    return finished(names, [{"went_out": went_out, "made": made, "points": points}], first="1")


def test_a_games_places_are_the_engines_final_order():
    game = first_phase_game("Bob", ["Bob", "Cy"], {"Ann": 50, "Cy": 20, "Dee": 60})
    assert [(r.name, r.place, r.players) for r in game] == [
        ("Bob", 1, 4),
        ("Cy", 2, 4),  # a phase made beats a lower total
        ("Ann", 3, 4),
        ("Dee", 4, 4),
    ]
    assert game[1].score == 20 and game[1].phases == 1


def test_a_ten_hands_game_is_ranked_by_its_total_not_its_phases():
    hands = [{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50, "Cy": 55}}] * 9
    hands.append({"went_out": "Cy", "made": ["Cy", "Bob"], "points": {"Ann": 60, "Bob": 5}})
    game = finished(["Ann", "Bob", "Cy"], hands, rules="ten-hands")
    assert [(r.name, r.place, r.score, r.phases) for r in game] == [
        ("Ann", 1, 60, 9),
        ("Bob", 2, 455, 1),
        ("Cy", 3, 495, 1),
    ]


def test_a_game_ended_early_is_ranked_by_its_leader():
    data = {
        "players": ["Ann", "Bob", "Cy"],
        "ended_early": True,
        "hands": [{"went_out": "Cy", "made": ["Cy", "Ann"], "points": {"Ann": 10, "Bob": 50}}],
    }
    game = load_game(data)
    ranked = results(replay(game), game.rules)
    assert [(r.name, r.place) for r in ranked] == [("Cy", 1), ("Ann", 2), ("Bob", 3)]


def test_an_unfinished_game_does_not_count_yet():
    game = load_game({"players": ["Ann", "Bob"], "hands": []})
    with pytest.raises(ValueError, match="finished"):
        results(replay(game), game.rules)


def result(name, place, players, score=0, phases=0, sharing=1):
    return Result(name, place, sharing, players, score, phases)


def test_placement_standings_add_points_from_tables_of_different_sizes():
    night = [
        first_phase_game("Ann", ["Ann"], {"Bob": 50, "Cy": 60}),  # 3 players: 120, 60, 0
        first_phase_game("Dee", ["Dee", "Eve"], {"Eve": 10, "Flo": 55, "Gus": 70}),  # 4 players
        first_phase_game("Eve", ["Eve"], {"Ann": 50, "Dee": 55}),
        first_phase_game("Bob", ["Bob"], {"Cy": 50, "Flo": 50, "Gus": 60}),  # Cy and Flo tie
    ]
    rows = night_standings(night, Scheme.PLACEMENT)
    assert [(r.place, r.name, r.points, r.games, r.score, r.tiebreak) for r in rows] == [
        (1, "Eve", 200, 2, 10, 10),  # 80 + 120
        (2, "Ann", 180, 2, 50, 50),  # 120 + 60
        (2, "Bob", 180, 2, 50, 50),  # 60 + 120: the same points and total share 2nd
        (4, "Dee", 120, 2, 55, 55),  # 120 + 0
        (5, "Flo", 100, 2, 105, 105),  # 40 + 60, shared 2nd-3rd of 4
        (6, "Cy", 60, 2, 110, 110),  # 0 + 60
        (7, "Gus", 0, 2, 130, 130),
    ]


def test_equal_placement_points_go_to_the_lower_total_score():
    night = [
        [result("Ann", 1, 2, score=0), result("Bob", 2, 2, score=80)],
        [result("Cy", 1, 2, score=0), result("Dee", 2, 2, score=40)],
        [result("Bob", 1, 2, score=0), result("Cy", 2, 2, score=90)],
        [result("Dee", 1, 2, score=0), result("Ann", 2, 2, score=50)],
    ]
    rows = night_standings(night, Scheme.PLACEMENT)
    assert [(r.place, r.name, r.points, r.tiebreak) for r in rows] == [
        (1, "Dee", 120, 40),
        (2, "Ann", 120, 50),
        (3, "Bob", 120, 80),
        (4, "Cy", 120, 90),
    ]


def test_cumulative_standings_add_the_game_scores_lowest_first_then_more_phases():
    night = [
        [
            result("Ann", 1, 3, score=100, phases=10),
            result("Bob", 2, 3, score=150, phases=9),
            result("Cy", 3, 3, score=90, phases=7),
        ],
        [
            result("Bob", 1, 3, score=20, phases=10),
            result("Cy", 2, 3, score=35, phases=8),
            result("Ann", 3, 3, score=70, phases=6),
        ],
    ]
    rows = night_standings(night, Scheme.CUMULATIVE)
    assert [(r.place, r.name, r.points, r.games, r.score, r.tiebreak) for r in rows] == [
        (1, "Cy", 125, 2, 125, 15),
        (2, "Bob", 170, 2, 170, 19),  # Bob and Ann both 170: more phases made first
        (3, "Ann", 170, 2, 170, 16),
    ]


def test_cumulative_ties_on_total_and_phases_share_a_place():
    night = [
        [
            result("Ann", 1, 2, score=50, phases=3, sharing=2),
            result("Bob", 1, 2, score=50, phases=3, sharing=2),
        ]
    ]
    rows = night_standings(night, Scheme.CUMULATIVE, players=["Cy"])
    assert [(r.place, r.name, r.games) for r in rows] == [
        (1, "Ann", 1),
        (1, "Bob", 1),
        (3, "Cy", 0),
    ]


@pytest.mark.parametrize("scheme", list(Scheme))
def test_a_player_who_left_after_round_1_stays_in_the_standings_with_fewer_games(scheme):
    round_1 = [
        first_phase_game("Ann", ["Ann"], {"Bob": 50, "Cy": 60}),
        first_phase_game("Dee", ["Dee"], {"Eve": 50, "Gone": 55}),
    ]
    round_2 = [
        first_phase_game("Cy", ["Cy"], {"Ann": 50, "Eve": 60}),
        first_phase_game("Bob", ["Bob"], {"Dee": 50}),
    ]
    rows = {row.name: row for row in night_standings(round_1 + round_2, scheme)}
    assert rows["Gone"].games == 1 and rows["Gone"].score == 55
    assert all(row.games == 2 for name, row in rows.items() if name != "Gone")
    if scheme is Scheme.CUMULATIVE:  # 55 is the lowest total, but from one game only
        assert rows["Gone"].place == len(rows)


def test_the_schemes_and_modes_have_words_for_the_organisers_form():
    assert Mode.NEW_OPPONENTS.label == "New opponents"
    assert "120" in Scheme.PLACEMENT.explained
    with using("de"):
        assert Mode.BY_STANDING.label != "By standing"
    assert Mode("new_opponents") is Mode.NEW_OPPONENTS and Scheme("cumulative") is Scheme.CUMULATIVE


# --- issue 40: fewer games never help; a player taken out; tables kept; swaps and moves -----


def test_equal_points_from_fewer_games_come_after_more_games():
    """Issue 40, 6: 2 games and 180 points (total 515) was placed above 3 games and 180
    points (total 1,125), its lower total coming only from a game fewer."""
    night = [
        [result("Two", 1, 3, score=15), result("X", 2, 3, score=200), result("Y", 3, 3, 300)],
        [result("Three", 1, 2, score=25), result("Z", 2, 2, score=400)],
        [result("Two", 2, 3, score=500), result("Three", 3, 3, 600), result("W", 1, 3, 0)],
        [result("Three", 2, 3, score=500), result("V", 1, 3, 0), result("U", 3, 3, 700)],
    ]
    rows = {row.name: row for row in night_standings(night, Scheme.PLACEMENT)}
    assert (rows["Two"].points, rows["Two"].games, rows["Two"].score) == (180, 2, 515)
    assert (rows["Three"].points, rows["Three"].games, rows["Three"].score) == (180, 3, 1125)
    assert rows["Three"].place < rows["Two"].place


def test_a_player_with_no_game_is_never_above_one_who_played():
    """Issue 40, 6: a late arrival with no game was printed above a player who had played
    one and come last (0 points each, and 0 is the lower total)."""
    night = [[result("Ann", 1, 2, score=0), result("Last", 2, 2, score=300)]]
    rows = night_standings(night, Scheme.PLACEMENT, players=["Very Late"])
    assert [(r.place, r.name, r.games) for r in rows] == [
        (1, "Ann", 1),
        (2, "Last", 1),
        (3, "Very Late", 0),
    ]


def taken_out_game():
    """Four players; Dee leaves after hand 1 and the others play the first phase out."""
    data = {
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "options": {"first": 2},
        "left_after": {"Dee": 1},
        "hands": [
            {"went_out": "Ann", "made": ["Ann", "Dee"], "points": {"Bob": 50, "Cy": 60, "Dee": 5}},
            {"went_out": "Bob", "made": ["Bob", "Ann"], "points": {"Ann": 20, "Cy": 70}},
        ],
    }
    return load_game(data)


def test_a_player_taken_out_of_a_game_is_placed_after_everyone_who_stayed():
    game = taken_out_game()
    standings = replay(game)
    assert standings.over and standings.winner == "Ann"
    assert standings.player("Dee").left_after == 1
    ranked = results(standings, game.rules)
    assert [(r.name, r.place, r.left) for r in ranked] == [
        ("Ann", 1, False),
        ("Bob", 2, False),
        ("Cy", 3, False),
        ("Dee", 4, True),  # a phase made as Bob, a lower total, but left after hand 1
    ]


@pytest.mark.parametrize("scheme", list(Scheme))
def test_the_night_counts_a_player_taken_out_as_last_or_as_a_missed_game(scheme):
    game = taken_out_game()
    rows = {row.name: row for row in night_standings([results(replay(game), game.rules)], scheme)}
    if scheme is Scheme.PLACEMENT:  # the last place's points, a game played
        assert (rows["Dee"].points, rows["Dee"].games, rows["Dee"].place) == (0, 1, 4)
        assert rows["Cy"].points == 40  # beat one player at a table of four
    else:  # 5 points would be the lowest total: the game counts as missed
        assert (rows["Dee"].games, rows["Dee"].score, rows["Dee"].place) == (0, 0, 4)


def test_a_player_who_keeps_a_table_sits_at_it_in_every_mode():
    earlier = [FOURTEEN[i : i + 4] for i in range(0, 14, 4)]
    for mode in Mode:
        for seed in range(8):
            seating = seat_round(
                FOURTEEN,
                mode,
                seed=seed,
                earlier=earlier,
                standing=FOURTEEN,
                keep={"P09": 2, "P14": 4},
            )
            assert "P09" in seating.tables[1].seats and "P14" in seating.tables[3].seats
            assert [len(t.seats) for t in seating.tables] == [4, 4, 3, 3]
            assert sorted(n for t in seating.tables for n in t.seats) == FOURTEEN


def test_new_opponents_still_avoids_repeats_around_a_kept_table():
    first = seat_round(FOURTEEN, Mode.RANDOM, seed=1)
    keeper = first.tables[2].seats[0]
    second = seat_round(
        FOURTEEN, Mode.NEW_OPPONENTS, seed=2, earlier=groups(first), keep={keeper: 3}
    )
    assert keeper in second.tables[2].seats and second.repeats == 0


def test_a_kept_table_not_set_up_this_round_is_the_last_and_too_many_are_refused():
    seating = seat_round(FOURTEEN[:6], Mode.RANDOM, seed=3, keep={"P01": 4})
    assert "P01" in seating.tables[-1].seats  # two tables for six players
    with pytest.raises(NightError, match="3 players keep table 2, which seats 2 this round"):
        seat_round(FOURTEEN[:4], Mode.RANDOM, seed=3, tables=2, keep=dict.fromkeys(FOURTEEN[:3], 2))


def test_swapping_two_players_trades_their_tables_and_seats():
    seating = seat_round(FOURTEEN, Mode.RANDOM, seed=5).tables
    a, b = seating[0].seats[0], seating[3].seats[2]
    after = nights.swapped(seating, a, b)
    assert after[0].seats[0] == b and after[3].seats[2] == a
    assert [t.seats for t in after[1:3]] == [t.seats for t in seating[1:3]]
    with pytest.raises(NightError, match="not seated"):
        nights.swapped(seating, a, "Nobody")


def test_moving_a_player_takes_the_last_seat_of_a_table_that_has_room():
    seating = seat_round(FOURTEEN, Mode.RANDOM, seed=5).tables  # 4, 4, 3, 3
    mover = seating[0].seats[0]
    after = nights.moved(seating, mover, 3)
    assert [len(t.seats) for t in after] == [3, 4, 4, 3] and after[2].seats[-1] == mover
    assert after[0].dealer == seating[0].seats[1]  # seat 2 now deals first
    with pytest.raises(NightError, match="there is no table 5"):
        nights.moved(seating, mover, 5)
    with pytest.raises(NightError, match="already sits at table 1"):
        nights.moved(seating, mover, 1)
    pair = seat_round(FOURTEEN[:5], Mode.RANDOM, seed=1).tables  # 3, 2
    with pytest.raises(NightError, match="table 2 would keep only one player"):
        nights.moved(pair, pair[1].seats[0], 1)
    full = seat_round(FOURTEEN[:8], Mode.RANDOM, seed=1, tables=2, most=4).tables
    with pytest.raises(NightError, match="table 2 seats 4 already"):
        nights.moved(full, full[0].seats[0], 2, most=4)
