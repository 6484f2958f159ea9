"""A table brought back from its backup, as a new table: every game judged and counted
against the storage budget before anything is written, then written in bounded batches.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sqlite_utils import Database

from .. import store
from ..backup import purge
from ..backup.table_archive import ArchivedGame, TableArchive
from ..live.turns import let_others_run
from ..reports import table_figures
from ..reports.statistics import GameFigures
from ..rules.gamefile import game_to_json
from ..store import change_notes, nights, records, seasons, tables
from ..store.seasons import SeasonPlan
from . import games, results, saving


def import_table(
    db: Database, archive: TableArchive, time_zone: str | None = None
) -> tables.Table | results.Refused:
    """A table and all its games from a backup: all of it, or nothing. It keeps the backup's
    clock, or takes ``time_zone`` (the importing phone's) when the backup names none.

    Every game is judged by the engine and encoded, and their sizes estimated against the
    budget, before anything is written; what each batch adds to the file is measured and
    checked again before it commits. The games then go in by transactions of at most
    IMPORT_BATCH_BYTES each, so other tables' writers wait for one batch at most; the
    table stays hidden (deleted, docs/storage.md) until its last game is in, and goes
    again, with every game written, if a batch fails.
    """
    judged = judge(archive, time_zone)
    if isinstance(judged, results.Refused):
        return judged
    try:
        store.budget.room_for(db, None, [coming.size for coming in judged], new_table=True)
    except store.budget.OverBudget as over:
        return saving.over_budget(over, table=True)
    with store.connection.transaction(db):
        table = tables.create_table(db, archive.name, archive.time_zone or time_zone)
        tables.delete_table(db, table.id)  # hidden until every game is in
    game_ids: list[str] = []
    try:
        for batch in _batches(judged):
            let_others_run()  # between batches: other tables' Saves go first
            with store.connection.transaction(db):
                written = []
                for coming in batch:
                    found, entry = coming.found, coming.entry
                    stored = store.games.insert_game(db, found.new)
                    added = entry.created if entry.created and entry.updated else None
                    with store.budget.charging(db, stored.id):
                        tables.file_game(db, table.id, stored.id, list(found.game.players), added)
                    game_ids.append(stored.id)
                    written.append((stored, coming.figures))
                store.budget.check_room(db, game_ids[-len(batch) :])  # measured: the table's
            # so its statistics replay none of them; a transaction of their own, so that
            # other tables' Saves go between the two
            table_figures.keep_imported(db, written)
        with store.connection.transaction(db):
            tables.restore_roster(db, table.id, archive.players, archive.aliases)
            night_ids = []
            for night in archive.nights:
                played = [(r, [game_ids[index] for index in r.games]) for r in night.played]
                restored = nights.restore_night(db, table.id, night, night.players, played)
                night_ids.append(restored.id)
            for season in archive.seasons:
                plan = SeasonPlan(**records.values(season, SeasonPlan))
                kept = seasons.create_season(db, table.id, plan)
                for index in season.nights:
                    seasons.put_night(db, night_ids[index], kept.id)
            tables.restore_table(db, table.id)
    except store.budget.OverBudget as over:  # more than estimated: every game written goes again
        purge.remove_table(db, table.id)
        return saving.over_budget(over, table=True)
    except BaseException:
        purge.remove_table(db, table.id)
        raise
    return table


IMPORT_BATCH_BYTES = 512 * 1024  # one transaction of an import writes about this much


def judge(archive: TableArchive, time_zone: str | None = None) -> list[_Coming] | results.Refused:
    """Every game of the backup judged and encoded, with its figures, nothing written: what
    each will take in the file is ``_Coming.size``."""
    note = change_notes.note("table-import", table=archive.name)
    judged: list[_Coming] = []
    for entry in archive.games:
        let_others_run()
        found = _archived(entry, note, archive.time_zone or time_zone)
        if isinstance(found, results.Refused):
            return found
        figures = table_figures.before_import(found.new, found.game)
        size = found.new.size + table_figures.size_before_import(figures)
        judged.append(_Coming(found, entry, figures, size))
    return judged


def _archived(
    entry: ArchivedGame, note: str, time_zone: str | None
) -> games.NewGameJudged | results.Refused:
    """A backup's game as ``_judged`` makes it, reusing the replay done when it was read."""
    dates = (entry.created, entry.updated) if entry.created and entry.updated else None
    if entry.replayed is None:
        return games.judge_new_game(
            game_to_json(entry.game), action="import", note=note, dates=dates, time_zone=time_zone
        )
    new = store.games.new_game(
        game_to_json(entry.game),
        action="import",
        summary=note,
        standings=entry.replayed.standings.to_json(),
        kept=list(entry.replayed.kept),
        dates=dates,
        time_zone=time_zone,
    )
    return games.NewGameJudged(entry.game, entry.replayed, new, note)


@dataclass(frozen=True)
class _Coming:
    """A backup's game on its way in: judged, and its part of the table's statistics."""

    found: games.NewGameJudged
    entry: ArchivedGame
    figures: GameFigures | None
    size: int  # what it will take in the file, estimated: the game, and its figures kept


def _batches(judged: list[_Coming]) -> Iterator[list[_Coming]]:
    batch: list[_Coming] = []
    size = 0
    for coming in judged:
        batch.append(coming)
        size += coming.size
        if size >= IMPORT_BATCH_BYTES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch
