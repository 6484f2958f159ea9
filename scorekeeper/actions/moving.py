"""Moving a game from one table to another (only the table it is in can let it go); the
move is a change in the game's history, so Undo takes it back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from sqlite_utils import Database

from .. import store
from ..i18n import N_, _
from ..reports import current_game
from ..store import change_notes, tables
from . import results, saving

OTHER_TABLE = N_(
    "This game belongs to another table. Only that table can let it go: open that "
    "table's page, and move the game from there with this table's link."
)


def move_game(db: Database, game_id: str, to_table: str, from_table: str | None) -> results.Result:
    """Move a game into ``to_table`` from ``from_table``: the table it is in (None: none)."""
    now = current_game.load(db, game_id)
    if now is None:
        return results.Refused(_(results.NO_GAME))
    target = tables.get_table(db, to_table)
    if target is None:
        return results.Refused(_("There is no table at that link. Copy it from the table's page."))
    found = tables.table_of_game(db, game_id)
    if found == to_table:
        return results.Refused(_("The game is in this table already."))
    if found != from_table:
        return results.Refused(_(OTHER_TABLE))
    if full := saving.history_full(now):
        return full
    source = tables.get_table(db, from_table) if from_table else None
    summary = change_notes.note("move", origin=source.name if source else None, to=target.name)
    detail = {"moved": {"from": source.view_id if source else None, "to": target.view_id}}
    players = list(now.game.players)

    def file_it(db: Database) -> None:
        store.budget.room_for(db, to_table, [store.budget.game_size(db, game_id)])
        tables.file_game(db, to_table, game_id, players)

    try:
        stored = store.games.save_change(
            db,
            game_id,
            now.version,
            now.stored.state,
            action="move",
            summary=summary,
            detail=detail,
            standings=now.standings.to_json(),
            kept=list(now.kept),
            then=file_it,
        )
    except store.games.Conflict:
        return results.Conflict(_(results.STALE), current_game.load(db, game_id))
    except store.budget.OverBudget as over:
        return saving.over_budget(over)
    return results.Saved(current_game.keep(replace(now, stored=stored)), summary)


def moved_back(
    db: Database, game_id: str, version: int, players: Sequence[str]
) -> Callable[[Database], None] | results.Refused:
    """What undoing the move at ``version`` writes: the game back in the table it left."""
    detail = store.history.change_detail(db, game_id, version) or {}
    origin = detail.get("moved", {}).get("from")
    if origin is None:
        return lambda db: tables.unfile_game(db, game_id)
    table = tables.table_by_view(db, origin)
    if table is None:
        return results.Refused(
            _("The table this game came from is deleted: it cannot go back there.")
        )
    return lambda db: tables.file_game(db, table.id, game_id, list(players))
