"""What every command shares: the refusal of bad input, numbers in words, the common options,
and reading a game file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from babel.numbers import format_decimal

from .. import i18n
from ..backup.json_reader import JsonError, parse_json
from ..i18n import _

Handler = Callable[[argparse.Namespace], int]


class BadInput(Exception):
    """Input the command cannot use: exit 2 with this message."""


class Command(Protocol):
    """Adds a command (its help, example and ``--lang``) and returns its parser."""

    def __call__(self, name: str, help_text: str, handler: Handler) -> argparse.ArgumentParser: ...


def number(value: int) -> str:
    """A number in running text, as the language writes it."""
    return format_decimal(value, locale=i18n.language())


def json_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", action="store_true", help=_("print one JSON object (the same in every language)")
    )


def lang_arg(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument(
        "--lang",
        choices=list(i18n.LANGUAGES),
        default=default,
        help=_("language of the answers and printed sheets (default: the shell's, else en)"),
    )


def game_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help=_("GAME.json in the interchange format (- for stdin)"))


def read_game(path: str):
    """The game in a game file (``-`` for stdin), replayable; BadInput if not."""
    from ..rules.game import GameError
    from ..rules.gamefile import load_game
    from ..rules.replay import replay

    try:
        text = Path(path).read_text(encoding="utf-8") if path != "-" else sys.stdin.read()
        data = parse_json(text)
    except OSError as error:
        raise BadInput(
            _("cannot read %(path)s: %(error)s", path=path, error=error.strerror)
        ) from None
    except (JsonError, UnicodeDecodeError) as error:
        raise BadInput(_("%(path)s cannot be read: %(error)s", path=path, error=error)) from None
    try:
        game = load_game(data)
        return game, replay(game)
    except GameError as error:
        raise BadInput(f"{error} [{error.rule}]" if error.rule else str(error)) from None
