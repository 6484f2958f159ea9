"""The points players send from their own phones: a suggestion for their line of the
current hand, judged as the scorekeeper's form would judge it; nothing reaches the game
until the scorekeeper saves the hand.
"""

from __future__ import annotations

from sqlite_utils import Database

from .. import store
from ..i18n import _
from ..reports import current_game
from ..rules.end_of_hand import laid_down_implied
from ..rules.game import HandRecord
from ..rules.reasons import CARD_POINTS
from ..rules.replay import entry_problems
from ..rules.scoring import card_worths
from ..store import sent_points
from . import results


def sending_closed(now: current_game.Current, hand_number: int | None) -> results.Conflict | None:
    """Why a player cannot send points for hand ``hand_number`` now (the game is over, a
    tiebreak, the hand already saved), or None."""
    standings = now.standings
    if standings.over:
        return results.Conflict(_("The game is over: there is nothing more to send."), now)
    if standings.tiebreak:
        return results.Conflict(
            _("This is a tiebreak: the scorekeeper records who went out first."), now
        )
    if hand_number != standings.hand_number:
        message = _(
            "That hand was already saved by the scorekeeper. "
            "This is hand %(number)s: send your points for it.",
            number=standings.hand_number,
        )
        return results.Conflict(message, now)
    return None


def send_points(
    db: Database,
    game_id: str,
    seat: int,
    hand_number: int | None,
    points: int,
    *,
    made: bool,
    went_out: bool,
) -> sent_points.Entry | results.Refused | results.Conflict:
    """Keep one player's line for the current hand until the scorekeeper saves it.

    The points are judged as the scorekeeper's form judges each total on its own
    (``entry_problems``): a total under 50 says the player made their phase.
    """
    now = current_game.load(db, game_id)
    if now is None or not 0 <= seat < len(now.game.players):
        return results.Refused(_(results.NO_GAME))
    if closed := sending_closed(now, hand_number):
        return closed
    if refused := judge_points(now, seat, points, made=made, went_out=went_out):
        return refused
    if went_out:
        points, made = 0, True
    entry = sent_points.Entry(seat, points, made, went_out, store.connection.now())
    sent_points.submit(db, game_id, now.standings.hand_number, entry)
    return entry


def judge_points(
    now: current_game.Current, seat: int, points: int, *, made: bool, went_out: bool
) -> results.Refused | None:
    """What is wrong with one player's points for the current hand, as the scorekeeper's
    form judges each total on its own (``entry_problems``), or None; saves nothing. A total
    under 50 says the player made their phase."""
    if went_out:
        return None
    name = now.game.players[seat]
    implied = made or laid_down_implied(points) is not None  # kept as the player ticked it
    hand = HandRecord(None, made=(name,) if implied else (), points={name: points})
    problems = entry_problems(now.game, hand, [name], now.kept)
    errors = [p for p in problems if not p.warning]
    if errors and errors[0].rule is CARD_POINTS:  # said as the player's page always said it
        message = _(
            "Points: %(points)s is not a multiple of 5. "
            "Every card is worth %(listed)s or %(most)s.",
            points=points,
            **card_worths(now.game.rules),
        )
        return results.Refused(message, tuple(problems), CARD_POINTS)
    if errors:
        return results.Refused(str(errors[0]), tuple(problems), errors[0].rule)
    return None
