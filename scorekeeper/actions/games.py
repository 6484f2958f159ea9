"""Games: start one (new, imported, from a table, a night's round), the rematch, and ending
a game early.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlite_utils import Database

from .. import clock, store
from ..i18n import _
from ..reports import current_game
from ..rules.game import Game, GameError, Standings
from ..rules.gamefile import game_to_json, load_game
from ..rules.options import Progression
from ..rules.phases import RulesError
from ..rules.replay import Replayed, replay_from
from ..rules.ruleset import make_rules
from ..store import change_notes, tables
from . import results, saving


def start_game(
    db: Database,
    data: Mapping[str, Any],
    *,
    action: str = "create",
    note: str = "",
    table_id: str | None = None,
    follows: str | None = None,
    dates: tuple[str, str] | None = None,
    time_zone: str | None = None,
) -> results.Saved | results.Refused:
    """Every new game: started on the form, imported, from the API, a rematch, a backup's.

    ``data`` is its game file (hands may already be in it, as for an import). A new
    Mixed-up Masters game deals each player a shuffled order of the phases. Filed
    under ``table_id`` (its players join the roster) in the same transaction.
    ``follows``: the game it was started after, whose screens follow it here;
    ``dates``: when a game from a backup was first and last played. ``note``: how
    the history tells it (``notes.note``); "Game created" by default. ``time_zone``: the
    clock it is dated on while in no table (at a table, the table's is taken for it).
    """
    if table_id is not None:
        table = tables.get_table(db, table_id)
        time_zone = table.time_zone if table is not None and table.time_zone else time_zone
    judged = judge_new_game(
        data, action=action, note=note, follows=follows, dates=dates, time_zone=time_zone
    )
    if isinstance(judged, results.Refused):
        return judged
    try:
        with store.connection.transaction(db):  # refused for room: nothing of it is written
            store.budget.room_for(db, table_id, [judged.new.size])
            stored = store.games.insert_game(db, judged.new)
            if table_id is not None:
                added = dates[0] if dates else None
                with store.budget.charging(db, stored.id):
                    tables.file_game(db, table_id, stored.id, list(judged.game.players), added)
            store.budget.check_room(db, [stored.id])
    except store.budget.OverBudget as over:
        return saving.over_budget(over)
    current = current_game.Current(
        stored, judged.game, judged.replayed.standings, judged.replayed.kept
    )
    return results.Saved(current_game.keep(current), judged.note)


@dataclass(frozen=True)
class NewGameJudged:
    """A new game the engine has accepted, encoded for the store: nothing is left to do
    under the write lock but insert it."""

    game: Game
    replayed: Replayed
    new: store.games.NewGame
    note: str


def judge_new_game(
    data: Mapping[str, Any],
    *,
    action: str = "create",
    note: str = "",
    follows: str | None = None,
    dates: tuple[str, str] | None = None,
    time_zone: str | None = None,
) -> NewGameJudged | results.Refused:
    try:
        game = load_game(_dealt_orders(data), new=True)  # its names enter now: the name rule
        replayed = replay_from(game)
    except (GameError, RulesError) as error:
        problems = tuple(getattr(error, "problems", ()))
        return results.Refused(str(error), problems, getattr(error, "rule", None))
    summary = note or change_notes.note("create")
    new = store.games.new_game(
        game_to_json(game),
        action=action,
        summary=summary,
        standings=replayed.standings.to_json(),
        kept=list(replayed.kept),
        follows=follows,
        dates=dates,
        time_zone=time_zone,
    )
    return NewGameJudged(game, replayed, new, summary)


def _dealt_orders(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A new Mixed-up Masters game without phase orders: each player's, shuffled."""
    if not isinstance(data, Mapping) or data.get("orders") or data.get("hands"):
        return data  # an imported game keeps its own (or lacks them, and is refused)
    options = data.get("options") or {}
    players = data.get("players")
    if not isinstance(options, Mapping) or not isinstance(players, list):
        return data  # the engine says what is wrong
    try:
        rules = make_rules(
            str(data.get("rules", "official")), {str(k): str(v) for k, v in options.items()}
        )
    except RulesError:
        return data
    if rules.progression is not Progression.MIXED_UP:
        return data
    shuffle = secrets.SystemRandom().sample
    sequence = list(rules.sequence)
    return {**data, "orders": {str(name): shuffle(sequence, len(sequence)) for name in players}}


def rematch(db: Database, game_id: str) -> results.Saved | results.Refused:
    """The same players, rules and table; the player after the last game's first dealer deals.

    Tapped on two phones at once, it starts one game: the second finds the first.
    """
    with store.connection.transaction(db):
        now = current_game.load(db, game_id)
        if now is None:
            return results.Refused(_(results.NO_GAME))
        link = store.games.game_link(db, game_id)
        if link is not None and link.next_game is not None:
            started = current_game.load(db, link.next_game)
            if started is not None:
                return results.Saved(started, change_notes.note("rematch"), changed=False)
        game = now.game
        data = game_to_json(game)
        players = list(game.players)
        data.update(hands=[], dealer=players[(players.index(game.dealer) + 1) % len(players)])
        data.pop("orders", None)
        data.pop("ended_early", None)
        table_id = tables.table_of_game(db, game_id)
        return start_game(
            db,
            data,
            note=change_notes.note("rematch"),
            table_id=table_id,
            follows=game_id,
            time_zone=now.stored.time_zone,
        )


def set_time_zone(db: Database, game_id: str, time_zone: str) -> results.Refused | None:
    """Date a game in no table on another clock (an IANA name); None when done. A game at
    a table is dated on the table's, set on the table's page."""
    if clock.zone(time_zone) is None:
        return results.Refused(_(results.UNKNOWN_ZONE, zone=time_zone))
    if tables.table_of_game(db, game_id) is not None:
        return results.Refused(_(results.TABLES_ZONE))
    store.games.set_time_zone(db, game_id, time_zone)
    return None


def next_at_table(db: Database, table_id: str) -> str | None:
    """The game a new game at this table follows: the table's latest, if nothing followed it."""
    latest = tables.latest_game(db, table_id)
    link = store.games.game_link(db, latest) if latest else None
    return latest if link is not None and link.next_game is None else None


def end_early(db: Database, game_id: str, seen: int) -> results.Result:
    """End the game after the hands played: the leader by the game's own order wins.

    One more change in the log ({"end": "early"}), so Undo takes it back like any other.
    ``seen``: the version the phone showed when it named the winner it would declare.
    """
    now = current_game.load(db, game_id)
    if now is None:
        return results.Refused(_(results.NO_GAME))
    if now.standings.over:
        return results.Conflict(_("The game is over already."), now)
    standings = ending_now(now)
    if isinstance(standings, results.Refused):
        return standings
    game = replace(now.game, ended_early=True)
    state = game_to_json(game)
    summary = change_notes.note(
        "end-early",
        after=len(game.hands),
        winner=standings.winner,
        tied=list(standings.tied),
    )
    detail = {"end": "early"}
    return saving.save_or_conflict(db, now, seen, game, state, "end", summary, detail, now.kept)


def leave(db: Database, game_id: str, name: str) -> results.Result:
    """``name`` leaves the game after the hands played, and the others play on without them
    (rule 11, "Changes during the night": a night's organiser takes a player out of a round).

    One more change in the log ({"leave": name, "after": N}), so Undo takes it back.
    """
    now = current_game.load(db, game_id)
    if now is None:
        return results.Refused(_(results.NO_GAME))
    if now.standings.over:
        return results.Conflict(_("The game is over already."), now)
    if name not in now.game.players:
        return results.Refused(_("%(player)s is not a player in this game.", player=name))
    if name in now.game.left_after:
        return results.Refused(_("%(player)s has left this game already.", player=name))
    if name in now.standings.tiebreak:
        return results.Refused(
            _("%(player)s is in the tiebreak: let it be played first.", player=name)
        )
    after = len(now.game.hands)
    try:
        game = replace(now.game, left_after={**now.game.left_after, name: after})
    except GameError as error:
        return results.Refused(error.reason, rule=error.rule)
    summary = change_notes.note("leave", player=name, after=after)
    detail = {"leave": name, "after": after}
    return saving.save_or_conflict(
        db, now, now.version, game, game_to_json(game), "leave", summary, detail, now.kept
    )


def ending_now(now: current_game.Current) -> Standings | results.Refused:
    """The standings ending the game now would give (who it declares the winner), or why
    it cannot end yet."""
    if not now.game.hands:
        return results.Refused(_("A game can be ended early only after its first hand."))
    try:
        return replay_from(replace(now.game, ended_early=True), now.kept).standings
    except GameError as error:
        return results.Refused(str(error), rule=error.rule)
