"""Paper from the command line: `print` a game file's score sheet, and the standard set of
`printables`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .. import i18n
from ..i18n import _
from .common import BadInput, Command, game_arg, json_arg, read_game


def cmd_print(args: argparse.Namespace) -> int:
    from ..codes import normalise
    from ..printing import LayoutError, fonts, game_sheet

    game = read_game(args.game)[0]
    if args.link and urlsplit(args.link).scheme not in ("http", "https"):
        raise BadInput(
            _("--link must be a web address (http:// or https://), not %(link)r", link=args.link)
        )
    code = normalise(args.code) if args.code else None
    if args.code and (code is None or not args.link):
        raise BadInput(
            _(
                "--code must be a game's 16-letter code, given with its --link, not %(code)r",
                code=args.code,
            )
        )
    played = _played(args)
    try:
        with i18n.using(args.language):  # the sheet in --lang, even when answering in JSON
            data = game_sheet(
                game,
                title=args.title,
                view_url=args.link,
                code=code,
                pagesize=args.size,
                large=args.large,
                played=played,
            )
    except (LayoutError, ValueError) as error:
        raise BadInput(str(error)) from None
    try:
        Path(args.out).write_bytes(data)
    except OSError as error:
        raise BadInput(
            _("cannot write %(path)s: %(error)s", path=args.out, error=error.strerror)
        ) from None
    missing = fonts.missing_packages([*game.players, args.title or ""])
    for package, letters in missing.items():
        if package is None:
            note = _(
                "Note: %(letters)s printed as code points (U+...): no font installed here "
                "draws them.",
                letters=" ".join(letters),
            )
        else:
            note = _(
                "Note: %(letters)s printed as code points (U+...): install Debian's %(package)s "
                "to print them (sudo apt-get install %(package)s).",
                letters=" ".join(letters),
                package=package,
            )
        print(note, file=sys.stderr)
    if args.json:
        print(json.dumps({"file": args.out, "bytes": len(data)}))
    else:
        print(args.out)
    return 0


def _played(args: argparse.Namespace) -> Any:
    """When, how long and where the game was played, from --started, --minutes, --table and
    --time-zone (None without --started)."""
    from ..clock import moment
    from ..printing.record import Played, time_zone

    try:
        zone = time_zone(args.time_zone)
    except ValueError as error:
        raise BadInput(str(error)) from None
    if not args.started:
        if args.minutes is not None or args.table:
            raise BadInput(_("--minutes and --table need --started"))
        return None
    try:
        started = moment(args.started).astimezone(zone)
    except ValueError:
        raise BadInput(
            _(
                "--started must be a date and time, e.g. 2026-11-27T19:05, not %(value)r",
                value=args.started,
            )
        ) from None
    if args.minutes is not None and args.minutes < 0:
        raise BadInput(_("--minutes cannot be negative"))
    return Played(started, args.minutes or 0, args.table)


def cmd_printables(args: argparse.Namespace) -> int:
    from ..printing import write_standard_set

    if args.app_url and urlsplit(args.app_url).scheme not in ("http", "https"):
        raise BadInput(
            _(
                "--app-url must be a web address (http:// or https://), not %(url)r",
                url=args.app_url,
            )
        )
    paths = write_standard_set(Path(args.out), args.language, app_url=args.app_url)
    if args.json:
        print(json.dumps({"files": [str(p) for p in paths]}))
    else:
        print("\n".join(str(p) for p in paths))
    return 0


def add_commands(command: Command) -> None:
    """`print` and `printables`, with their arguments."""
    p = command(
        "print",
        _("Print a game file's score sheet: every hand, the result, rows for hands to come."),
        cmd_print,
    )
    game_arg(p)
    p.add_argument("--out", default="sheet.pdf", help=_("PDF to write (default sheet.pdf)"))
    p.add_argument("--size", choices=("letter", "a4"), default="letter", help=_("paper size"))
    p.add_argument("--large", action="store_true", help=_("large print (2 to 4 players)"))
    p.add_argument("--title", default="", help=_("the heading (default: the players' names)"))
    p.add_argument("--link", help=_("the game's watch link, printed with a QR code"))
    p.add_argument(
        "--started",
        help=_("when the game started (2026-11-27T19:05, UTC unless it says its offset)"),
    )
    p.add_argument("--minutes", type=int, help=_("how long the game took, in minutes"))
    p.add_argument("--table", help=_("the table (family or club) the game was played at"))
    p.add_argument(
        "--time-zone",
        help=_(
            "the time zone the record gives times in (default: SCOREKEEPER_TIME_ZONE, "
            "else this machine's)"
        ),
    )
    p.add_argument(
        "--code", help=_("the game's short code, printed with the app's address to read aloud")
    )
    json_arg(p)

    p = command("printables", _("Write the standard set of PDFs."), cmd_printables)
    p.add_argument(
        "--out", default="printables", help=_("folder to write to (default printables/)")
    )
    p.add_argument(
        "--app-url",
        help=_(
            "the app's address, for a QR code and link on the two-deck guide "
            "(default: none; the guide says where to print a copy with one)"
        ),
    )
    json_arg(p)
