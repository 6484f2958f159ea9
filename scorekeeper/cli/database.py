"""The games file from the command line: `check-db`, `backup` and `restore`, and the check
`serve` makes before it opens the file."""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path

from babel.numbers import format_decimal

from .. import i18n
from ..i18n import _, ngettext
from ..reports import file_health
from .common import BadInput, Command, json_arg


def default_database() -> Path:
    """The games file the app opens when no --db is given."""
    from .. import instance_folder

    return instance_folder() / "scorekeeper.sqlite3"


def check_database(path: str | Path) -> None:
    """Refuse to serve a games file that is damaged, empty or cannot be written; name the
    games that cannot be read (they get their own page; the others are served)."""
    found = file_health.examine(path)
    refused = [finding_text(path, f) for f in found if f.kind != file_health.UNREADABLE]
    if [f.kind for f in found] == [file_health.READ_ONLY]:
        refused.append(_("Nothing is wrong with the file itself: SQLite's check found it whole."))
    if refused:
        raise BadInput("\n".join(refused))
    for finding in found:
        print(f"scorekeeper serve: {finding_text(path, finding)}", file=sys.stderr)


def finding_text(path: str | Path, finding: file_health.Finding) -> str:
    """One finding about the games file, in words for whoever runs the app."""
    if finding.kind == file_health.EMPTY:
        return _(
            "the games file %(path)s is empty (0 bytes): it holds no games. Nothing was "
            "changed. If it should hold games, restore it from a backup or a replica "
            "(scorekeeper restore); to start afresh, delete it and a new one is made.",
            path=path,
        )
    if finding.kind == file_health.READ_ONLY:
        return _(
            "the games file %(path)s is on storage this program cannot write to (read-only, "
            "or its folder is not writable): the app needs to write it. Serve it from storage "
            "that can be written, or copy it there.",
            path=path,
        )
    if finding.kind == file_health.UNREADABLE:
        return _(
            "game %(game)s in %(path)s cannot be read (%(reason)s). Restore it from a backup "
            "of the games file or a replica (scorekeeper restore), or import its game file "
            "again; the other games are not affected.",
            game=finding.game,
            path=path,
            reason=finding.detail,
        )
    return _(
        "the games file %(path)s is damaged (%(damage)s). Nothing was changed. Restore "
        "it from a backup or a replica (scorekeeper restore), or move it aside to start "
        "afresh.",
        path=path,
        damage=finding.detail,
    )


def cmd_check_db(args: argparse.Namespace) -> int:
    path = Path(args.db or default_database())
    if not path.exists():
        raise BadInput(_("there is no games file at %(path)s", path=path))
    found = file_health.examine(path, full=True, load=True)
    problems = [f for f in found if f.kind != file_health.READ_ONLY]
    if args.json:
        facts = [{"kind": f.kind, "game": f.game, "detail": f.detail} for f in found]
        print(json.dumps({"path": str(path), "whole": not problems, "findings": facts}))
        return 1 if problems else 0
    for finding in found:
        print(finding_text(path, finding), file=sys.stderr if finding in problems else sys.stdout)
    if not problems:
        print(_("The games file %(path)s is whole: every page and every game reads.", path=path))
    return 1 if problems else 0


def cmd_backup(args: argparse.Namespace) -> int:
    from ..backup.replicate import ReplicaError, backup

    try:
        backup(args.db or default_database(), args.copy)
    except (ReplicaError, sqlite3.Error, OSError) as error:
        raise BadInput(str(error)) from None
    print(_("Copied every game to %(path)s.", path=args.copy))
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from ..backup.replicate import ReplicaError, restore

    try:
        restore(args.url, args.db)
    except (ReplicaError, OSError) as error:
        raise BadInput(str(error)) from None
    found = file_health.damage(args.db)
    if found:
        raise BadInput(
            _("the restored file %(path)s is damaged (%(damage)s)", path=args.db, damage=found)
        )
    print(_("Restored the games from %(url)s into %(path)s.", url=args.url, path=args.db))
    return 0


def _open_existing(args: argparse.Namespace):
    from .. import store

    path = Path(args.db or default_database())
    if not path.exists():
        raise BadInput(_("there is no games file at %(path)s", path=path))
    try:
        return store.connection.connect(path)
    except sqlite3.Error as error:
        raise BadInput(
            _("cannot open the database %(path)s: %(error)s", path=path, error=error)
        ) from None


def _megabytes(size: int) -> str:
    return _("%(count)s MB", count=format_decimal(round(size / 1024**2, 1), locale=i18n.language()))


def cmd_biggest(args: argparse.Namespace) -> int:
    from ..backup.sizes import biggest

    if args.count < 1:
        raise BadInput(_("--count must be 1 or more"))
    found = biggest(_open_existing(args), args.count)
    if args.json:
        print(json.dumps([holder.__dict__ for holder in found]))
        return 0
    if not found:
        print(_("There are no games yet."))
    for holder in found:
        games = ngettext("%(num)s game", "%(num)s games", holder.games)
        size = _megabytes(holder.size)
        if holder.table_id is None:
            print(_("%(size)s  %(games)s in no table", size=size, games=games))
            continue
        line = _(
            "%(size)s  %(games)s  table %(name)s, last played %(day)s, link /t/%(id)s",
            size=size,
            games=games,
            name=holder.name,
            day=(holder.last_played or "-")[:10],
            id=holder.table_id,
        )
        if holder.deleted:
            line += " " + _("(deleted %(day)s)", day=holder.deleted[:10])
        print(line)
    return 0


def cmd_purge(args: argparse.Namespace) -> int:
    from .. import actions
    from ..backup.purge import PURGE_AFTER_DAYS

    db = _open_existing(args)
    try:
        done = actions.trash.purge_deleted(db)
        if args.vacuum:  # an older file: rewrite it once, so later purges give room back
            db.execute("PRAGMA auto_vacuum=INCREMENTAL")
            db.execute("VACUUM")
    except sqlite3.Error as error:
        raise BadInput(str(error)) from None
    print(
        _(
            "Removed for good %(games)s games and %(tables)s tables deleted more than "
            "%(days)s days ago.",
            games=done.games,
            tables=done.tables,
            days=PURGE_AFTER_DAYS,
        )
    )
    return 0


def database_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help=_("SQLite file (default: instance/scorekeeper.sqlite3)"))


def add_commands(command: Command) -> None:
    """`backup`, `restore`, `check-db`, `biggest` and `purge`, with their arguments."""
    p = command("backup", _("Copy every game to a new file while the app runs."), cmd_backup)
    p.add_argument("copy", metavar="FILE", help=_("the new file to write"))
    database_arg(p)

    p = command("restore", _("Rebuild the games file from a Litestream replica."), cmd_restore)
    p.add_argument("url", metavar="URL", help=_("the replica: a folder or an s3:// URL"))
    p.add_argument("--db", required=True, help=_("the new SQLite file to write"))

    p = command(
        "check-db",
        _(
            "Check the whole games file: SQLite's full integrity check, and every game read "
            "as the app reads it. Exit 0 when whole, 1 when not."
        ),
        cmd_check_db,
    )
    database_arg(p)
    json_arg(p)

    p = command(
        "biggest",
        _(
            "The tables that take the most room in the games file, biggest first (deleted "
            "games count until they are purged), then the games in no table."
        ),
        cmd_biggest,
    )
    p.add_argument("--count", type=int, default=10, help=_("how many tables (default 10)"))
    database_arg(p)
    json_arg(p)

    p = command(
        "purge",
        _(
            "Remove for good the games and tables deleted more than a week ago, and give "
            "their room back (the app also does this at start and every hour)."
        ),
        cmd_purge,
    )
    p.add_argument(
        "--vacuum",
        action="store_true",
        help=_("rewrite the whole file once, so a file made before 2026-11 shrinks too"),
    )
    database_arg(p)
