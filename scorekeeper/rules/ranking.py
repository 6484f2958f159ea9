"""Who came where at the end of a game: the winner first, then everyone else."""

from __future__ import annotations

from .game import PlayerStanding, Standings
from .options import Progression
from .ruleset import Rules


def final_order(standings: Standings, rules: Rules) -> list[tuple[int, PlayerStanding]]:
    """(place, player) from first to last; players who cannot be told apart share a place.

    The winner (or the tied players) come first. Then, where the lowest total wins
    (ten hands, or the "lowest total" house rule), lower totals come first; otherwise
    more phases made comes first and, among equals, the lower total. Players who left
    the game part way come after everyone who stayed, in the same order among themselves.
    """
    first = {standings.winner, *standings.tied} - {None}
    by_total = rules.progression is Progression.TEN_HANDS or rules.lowest_total_wins

    def key(player: PlayerStanding) -> tuple[int, ...]:
        made = 0 if by_total else -len(player.phases_done)
        return (player.name not in first, player.left_after is not None, made, player.score)

    ordered = sorted(standings.players, key=key)
    places: list[tuple[int, PlayerStanding]] = []
    for i, player in enumerate(ordered):
        same = i and key(player) == key(ordered[i - 1])
        places.append((places[-1][0] if same else i + 1, player))
    return places
