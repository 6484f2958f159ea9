"""The command line's parser and `main`: each command's module adds its own arguments."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import i18n
from ..i18n import _
from ..rules.cards import CardError
from ..rules.phases import RulesError
from . import database, printing, rule_commands, serving
from .common import BadInput, Handler, lang_arg

EXAMPLES = {
    "serve": "scorekeeper serve --port 5010 --db games.sqlite3",
    "check": 'scorekeeper check --phase 2 "R7 B7 W" "G3 G4 Y5 W"',
    "solve": 'scorekeeper solve --phase 4 "R1 B2 G3 W Y5 R6 B7 S S G12 G11"',
    "hit": 'scorekeeper hit --kind run "R3 R4 W R6" B7',
    "score": 'scorekeeper score "R7 B11 W S"',
    "standings": "scorekeeper standings game.json",
    "rate": 'scorekeeper rate "2 sets of 3; set of 3 + run of 4; run of 7" --turns 5',
    "printables": "scorekeeper printables --out printables/",
    "print": "scorekeeper print game.json --out sheet.pdf --link http://192.168.1.20:5010/v/CODE",
    "backup": "scorekeeper backup games-2026-11-23.sqlite3 --db games.sqlite3",
    "restore": "scorekeeper restore s3://my-bucket/games --db restored.sqlite3",
    "check-db": "scorekeeper check-db --db games.sqlite3",
    "biggest": "scorekeeper biggest --count 10 --db games.sqlite3",
    "purge": "scorekeeper purge --db games.sqlite3",
    "haproxy": "scorekeeper haproxy --shard A=10.0.0.2:5010 --shard B=10.0.0.3:5010 > haproxy.cfg",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorekeeper",
        description=_(
            "Phase 10 Scorekeeper: check phases and hits, score hands, replay games, "
            "print sheets, and serve the app. Exit 0 = yes/valid, 1 = no/invalid, "
            "2 = bad input."
        ),
    )
    lang_arg(parser, None)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help_text: str, handler: Handler) -> argparse.ArgumentParser:
        example = _("Example:")
        p = sub.add_parser(
            name,
            help=help_text,
            description=f"{help_text}\n\n{example}\n  {EXAMPLES[name]}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.set_defaults(handler=handler)
        lang_arg(p, argparse.SUPPRESS)  # after the command too: `scorekeeper print --lang de`
        return p

    for audience in (rule_commands, printing, serving, database):
        audience.add_commands(command)
    return parser


def chosen_language(argv: Sequence[str] | None) -> str:
    """``--lang`` wherever it is on the line, else the shell's language."""
    early = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    early.add_argument("--lang", choices=list(i18n.LANGUAGES))
    try:
        known, _rest = early.parse_known_args(argv)
    except argparse.ArgumentError:  # a wrong --lang: the full parser says so
        return i18n.from_environment()
    return known.lang or i18n.from_environment()


def main(argv: Sequence[str] | None = None) -> int:
    language = chosen_language(argv)
    with i18n.using(language):
        parser = build_parser()
        args = parser.parse_args(argv)
    args.language = language  # what is printed speaks it, whatever the answer's language
    # JSON answers are read by programs: the same keys and words in every language.
    with i18n.using(i18n.DEFAULT if getattr(args, "json", False) else language):
        try:
            return args.handler(args)
        except (BadInput, CardError, RulesError) as error:
            print(f"scorekeeper {args.command}: {error}", file=sys.stderr)
            return 2
