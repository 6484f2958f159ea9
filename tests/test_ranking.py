"""The order of players at the end of a game."""

from scorekeeper.rules.game import PlayerStanding, Standings
from scorekeeper.rules.ranking import final_order
from scorekeeper.rules.ruleset import make_rules


def standings(*players: tuple[str, int, int], winner=None, tied=()) -> Standings:
    """players: (name, phases made, score) in seating order."""
    return Standings(
        players=tuple(
            PlayerStanding(name, made + 1, score, tuple(range(1, made + 1)), made == 10)
            for name, made, score in players
        ),
        dealer=players[0][0],
        hand_number=12,
        over=True,
        winner=winner,
        tied=tuple(tied),
    )


def names(order):
    return [(place, player.name) for place, player in order]


def test_the_winner_comes_first_then_more_phases_then_the_lower_total():

    end = standings(("Ann", 8, 200), ("Bob", 10, 300), ("Cy", 9, 150), ("Dee", 9, 90), winner="Bob")
    assert names(final_order(end, make_rules("official"))) == [
        (1, "Bob"),
        (2, "Dee"),
        (3, "Cy"),
        (4, "Ann"),
    ]


def test_the_lowest_total_house_rule_ranks_by_total_alone():

    end = standings(("Ann", 8, 100), ("Bob", 10, 120), ("Cy", 9, 150), winner="Ann")
    rules = make_rules("official", {"winner": "lowest"})
    assert names(final_order(end, rules)) == [(1, "Ann"), (2, "Bob"), (3, "Cy")]


def test_players_who_cannot_be_told_apart_share_a_place():

    end = standings(("Ann", 10, 80), ("Bob", 10, 80), ("Cy", 6, 300), tied=("Ann", "Bob"))
    rules = make_rules("ten-hands")
    assert names(final_order(end, rules)) == [(1, "Ann"), (1, "Bob"), (3, "Cy")]
