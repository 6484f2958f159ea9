"""A change's line in the game's history: the facts are stored, the words made when shown.

Each change keeps a small JSON note of what happened ({"note": "record", "number": 3,
"went_out": "Ann", "made": ["Ann"]}), so the History page, the flash after Undo and
anything else reads it in the language of whoever looks, not of whoever typed.
Games saved before notes existed keep their English lines; those are shown as stored.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from ..i18n import _, join, ngettext

Facts = dict[str, Any]


def note(kind: str, **facts: Any) -> str:
    """The stored form of one change: its kind and its facts, as compact JSON."""
    return json.dumps({"note": kind, **facts}, separators=(",", ":"), ensure_ascii=False)


def read(text: str) -> Facts | None:
    """The facts of a stored note; None for a line stored as words (older games)."""
    if not text.startswith('{"note":'):
        return None
    try:
        facts = json.loads(text)
    except ValueError:
        return None
    return facts if isinstance(facts, dict) and isinstance(facts.get("note"), str) else None


def words(text: str) -> str:
    """The note in the current language (an older line in words is returned as it is)."""
    facts = read(text)
    if facts is None:
        return text
    say = _SAYINGS.get(facts["note"])
    try:
        return text if say is None else say(facts)
    except (KeyError, TypeError, ValueError):
        return text  # a note this version cannot read: show it rather than fail the page


def _names(names: Sequence[str]) -> str:
    return ", ".join(names) if names else _("nobody")


def _record(f: Facts) -> str:
    return _(
        "Hand %(number)s: %(player)s went out; made: %(names)s",
        number=f["number"],
        player=f["went_out"],
        names=_names(f["made"]),
    )


def _delete(f: Facts) -> str:
    if f.get("tiebreak"):
        return _(
            "Hand %(number)s deleted (the tiebreak %(player)s won)",
            number=f["number"],
            player=f["went_out"],
        )
    return _(
        "Hand %(number)s deleted (%(player)s had gone out)",
        number=f["number"],
        player=f["went_out"],
    )


def _correct(f: Facts) -> str:
    parts = [_change(change) for change in f["changes"]]
    return _(
        "Hand %(number)s corrected: %(changes)s",
        number=f["number"],
        changes="; ".join(parts) or _("details"),
    )


def _change(change: Facts) -> str:
    if "went_out" in change:
        old, new = change["went_out"]
        return _("went out %(old)s → %(new)s", old=old, new=new)
    return f"{change['player']} {_player(*change['was'])} → {_player(*change['now'])}"


def _player(points: int | None, made: bool, attempt: int | None) -> str:
    """'15 ✓' (✓: made their phase), '– (phase 4)'."""
    text = "–" if points is None else str(points)
    if attempt is not None:
        text = _("%(points)s (phase %(phase)s)", points=text, phase=attempt)
    return text + (" ✓" if made else "")


def _end_early(f: Facts) -> str:
    if f.get("winner"):
        return _(
            "Game ended early after hand %(number)s: %(player)s wins",
            number=f["after"],
            player=f["winner"],
        )
    return _(
        "Game ended early after hand %(number)s: a tie between %(names)s",
        number=f["after"],
        names=join(f["tied"]),
    )


def _move(f: Facts) -> str:
    if f.get("origin") is None:
        return _("Moved into the table %(table)s", table=f["to"])
    return _("Moved from the table %(origin)s to %(table)s", origin=f["origin"], table=f["to"])


_SAYINGS: dict[str, Callable[[Facts], str]] = {
    "create": lambda f: _("Game created"),
    "import": lambda f: ngettext(
        "Game imported with %(num)s hand", "Game imported with %(num)s hands", f["hands"]
    ),
    "api-create": lambda f: ngettext(
        "Game created through the API with %(num)s hand",
        "Game created through the API with %(num)s hands",
        f["hands"],
    ),
    "table-import": lambda f: _("Game imported with the table %(table)s", table=f["table"]),
    "rematch": lambda f: _("Rematch"),
    "night": lambda f: _(
        "Round %(round)s of the night %(night)s", round=f["round"], night=f["night"]
    ),
    "record": _record,
    "tiebreak": lambda f: _("Tiebreak hand: %(player)s went out", player=f["went_out"]),
    "already": lambda f: _(
        "Hand %(number)s was already entered: it is recorded once.", number=f["number"]
    ),
    "unchanged": lambda f: _("Hand %(number)s is unchanged.", number=f["number"]),
    "correct": _correct,
    "delete": _delete,
    "end-early": _end_early,
    "leave": lambda f: _(
        "%(player)s left the game after hand %(number)s; the others play on",
        player=f["player"],
        number=f["after"],
    ),
    "undo": lambda f: _("Undone: %(change)s", change=words(f["undone"])),
    "move": _move,
    "restore": lambda f: _(
        "Restored the game as it was after change %(version)s", version=f["version"]
    ),
}
