"""`scorekeeper`: the rules engine on the command line, and the app's server.

Exit status: 0 = yes / valid, 1 = no / invalid, 2 = bad input (message on stderr).
It speaks the language of ``--lang``, else the shell's (LANGUAGE, LC_ALL, LANG);
``--json`` output is the same in every language.

One module per audience: `rule_commands` (settling a question at the table), `printing`
(paper), `serving` and `network` (running the app for phones), `database` (the games
file); `parser` joins them into one command line.

Layer: the top, beside ``serve``: imports ``serve``, the app factory, ``web``, ``printing``,
``actions``, ``reports``, ``backup``, ``store`` and what every layer may use.
"""

from __future__ import annotations

from .database import check_database, default_database
from .network import lan_address, phone_address, startup_message
from .parser import EXAMPLES, build_parser, main

__all__ = [
    "EXAMPLES",
    "build_parser",
    "check_database",
    "default_database",
    "lan_address",
    "main",
    "phone_address",
    "startup_message",
]
