"""What this phone or tablet remembers: the games and tables it opened, and its start page.

Kept in the signed session cookie, so nothing is stored about a device on the
server and no device ever sees another's games. The newest come first; old ones
drop off so the cookie stays small. The cookie lasts a year and is signed afresh
whenever a remembered game or table is opened (security.py), so a family that
plays every few weeks keeps its links. Games are kept as one string of
``id~sealed`` words (``id.`` for a watched game): reading the cookie on every
request then costs next to nothing, and a key is unsealed only where it is used.

The cookie is signed, not encrypted, so each edit key is sealed in it: XORed with a
keystream drawn from the app's secret, the game's id and a random nonce (keyed
BLAKE2b). Whoever reads the cookie without the server learns no key (issue 32).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from flask import current_app, session
from markupsafe import Markup
from sqlite_utils import Database

from .. import clock, store
from ..reports.current_game import Current, current
from ..rules.game import Game, GameError, Standings
from ..rules.phases import RulesError
from ..store import tables
from .language import bdi_join, zone

KEY = "device"
MAX_GAMES = 24
MAX_TABLES = 12


SEALED = "~"  # between a game's id and its sealed edit key in the cookie
NONCE = 6  # random bytes before each sealed key: the same key never seals the same way


def _keystream(game_id: str, nonce: bytes, size: int) -> bytes:
    secret = current_app.secret_key
    key = secret.encode() if isinstance(secret, str) else bytes(secret or b"")
    stream = b""
    while len(stream) < size:
        block = hashlib.blake2b(
            nonce + bytes([len(stream) // 64]) + game_id.encode(),
            key=hashlib.blake2b(key, person=b"device key").digest(),
        )
        stream += block.digest()
    return stream[:size]


def _seal(game_id: str, edit_key: str) -> str:
    nonce, plain = secrets.token_bytes(NONCE), edit_key.encode()
    mixed = bytes(a ^ b for a, b in zip(plain, _keystream(game_id, nonce, len(plain)), strict=True))
    return base64.urlsafe_b64encode(nonce + mixed).decode().rstrip("=")


def _unseal(game_id: str, sealed: str) -> str:
    """The edit key, or "" when the seal cannot be read (a secret since replaced)."""
    try:
        raw = base64.urlsafe_b64decode(sealed + "=" * (-len(sealed) % 4))
        nonce, mixed = raw[:NONCE], raw[NONCE:]
        stream = _keystream(game_id, nonce, len(mixed))
        return bytes(a ^ b for a, b in zip(mixed, stream, strict=True)).decode("ascii")
    except (binascii.Error, ValueError):  # UnicodeDecodeError is a ValueError
        return ""


def _game_id(word: str) -> str:
    return word.split(SEALED, 1)[0] if SEALED in word else word.split(".", 1)[0]


def _edit_key(word: str) -> str:
    """The edit key a word holds, "" for a watched game."""
    if SEALED in word:
        return _unseal(*word.split(SEALED, 1))
    return word.split(".", 1)[1]  # a watched game, or a cookie kept from before sealing


def _word(game_id: str, edit_key: str) -> str:
    return f"{game_id}{SEALED}{_seal(game_id, edit_key)}" if edit_key else f"{game_id}."


def _memory() -> tuple[list[str], list[str]]:
    """(games as cookie words, table ids), newest first."""
    memory = session.get(KEY)
    if not isinstance(memory, dict):
        return [], []
    games, table_ids = memory.get("g", ""), memory.get("t", "")
    if isinstance(games, list):  # cookies written before 2026-11: [[id, key], ...]
        games = " ".join(f"{item[0]}.{item[1] or ''}" for item in games if len(item) == 2)
    if isinstance(table_ids, list):
        table_ids = " ".join(str(item) for item in table_ids)
    words = [word for word in str(games).split() if "." in word or SEALED in word]
    return words, str(table_ids).split()


def _keep(words: Iterable[str], table_ids: Iterable[str]) -> None:
    """Written back with every key sealed (a cookie from before sealing is sealed now)."""
    sealed = [
        word if SEALED in word or word.endswith(".") else _word(*word.split(".", 1))
        for word in list(words)[:MAX_GAMES]
    ]
    session[KEY] = {"g": " ".join(sealed), "t": " ".join(list(table_ids)[:MAX_TABLES])}
    session.permanent = True  # a year from now (security.py), renewed each time


def games() -> list[tuple[str, str | None]]:
    """(game id, edit key or None for a watched game), newest first."""
    return [(_game_id(word), _edit_key(word) or None) for word in _memory()[0]]


def remember_game(game_id: str, edit_key: str | None) -> None:
    """Put the game first; watching it later keeps a scorekeeper's key."""
    known, table_ids = _memory()
    kept = next((word for word in known if _game_id(word) == game_id), None)
    if kept is None or (edit_key and _edit_key(kept) != edit_key):
        kept = _word(game_id, edit_key or "")
    _keep([kept, *(word for word in known if _game_id(word) != game_id)], table_ids)


def forget_watched(game_id: str) -> None:
    """Drop a watched game from this device; a game it keeps score of stays."""
    known, table_ids = _memory()
    kept = [word for word in known if _game_id(word) != game_id or _edit_key(word)]
    if kept != known:
        _keep(kept, table_ids)


def remember_table(table_id: str, instead_of: str | None = None) -> None:
    """Put the table first; ``instead_of``: its old link, renewed, which no longer opens it."""
    known, table_ids = _memory()
    others = (other for other in table_ids if other not in (table_id, instead_of))
    _keep(known, [table_id, *others])


# --- the start page -------------------------------------------------------------------


@dataclass(frozen=True)
class GameSummary:
    """One game as a list shows it: who, how far, who won, and the link to open."""

    stored: store.games.StoredGame
    game: Game
    standings: Standings
    played_until: str  # when its playing time ends (store.history.played_until)
    edit_key: str | None = None  # known to this device: open the scorekeeper page

    @property
    def label(self) -> Markup:
        """The players in seat order, each name a unit (``<bdi>``)."""
        return bdi_join(self.game.players)

    @property
    def hands_played(self) -> int:
        return len(self.game.hands)

    @property
    def started(self) -> date | None:
        """The day the game was played (it started), on the family's own clock, for the
        pages' ``day_of``; None if the stored date cannot be read."""
        return clock.day(self.stored.created, zone())

    @property
    def minutes(self) -> int | None:
        """Its playing time (so far): from its start to the hand that ended it (or the
        latest); None when they were one moment (a game imported whole). A game played in
        less than a minute took 0 minutes, and counts in the table's average."""
        if self.played_until == self.stored.created:
            return None
        return clock.minutes(self.stored.created, self.played_until)


def summarise(
    db: Database, stored: store.games.StoredGame, edit_key: str | None = None
) -> GameSummary | None:
    """None for a game that can no longer be read (it is skipped, never shown broken)."""
    try:
        found: Current = current(stored)
        played_until = store.history.played_until(db, stored)
    except (GameError, RulesError, store.games.UnreadableGame):
        return None
    return GameSummary(stored, found.game, found.standings, played_until, edit_key)


def device_games(db: Database) -> list[GameSummary]:
    """The games this device created or opened, newest first, each finished one after the
    game its table started next (with the same rights: a watcher stays a watcher)."""
    result: list[GameSummary] = []
    seen: set[str] = set()
    for game_id, key in games():
        stored = readable(db, game_id)
        if stored is None or stored.id in seen:
            continue
        if key and not store.games.edit_key_matches(stored, key):
            key = None
        summary = summarise(db, stored, key)
        if summary is None:
            continue
        following = _next(db, summary) if summary.standings.over else None
        if following is not None and following.stored.id not in seen:
            result.append(following)
            seen.add(following.stored.id)
        result.append(summary)
        seen.add(stored.id)
    return result


def _next(db: Database, summary: GameSummary) -> GameSummary | None:
    """The game started after this one (a rematch, the table's next), if there is one."""
    link = store.games.game_link(db, summary.stored.id)
    stored = readable(db, link.next_game) if link and link.next_game else None
    if stored is None:
        return None
    return summarise(db, stored, stored.edit_key if summary.edit_key else None)


def readable(db: Database, game_id: str) -> store.games.StoredGame | None:
    """The game's row, or None when it is gone or damaged: a list skips it (the game's own
    page names the damage)."""
    try:
        return store.games.get_game(db, game_id)
    except store.games.UnreadableGame:
        return None


def known_table(db: Database, game_id: str) -> tables.Table | None:
    """The table the game belongs to, when this device has opened that table: a game's page
    links back to it then. A table's link lets its holder keep score of every game and
    delete them, so a game's own link (shared with a second scorekeeper or a watcher) never
    shows it to a device that was not given it."""
    table_id = tables.table_of_game(db, game_id)
    if table_id is None or table_id not in _memory()[1]:
        return None
    return tables.get_table(db, table_id)


def device_tables(db: Database) -> list[tables.Table]:
    found = (tables.get_table(db, table_id) for table_id in _memory()[1])
    return [table for table in found if table is not None]


def home(db: Database) -> dict[str, object]:
    """The start page's lists: games this device keeps score of, games it watches, tables."""
    found = device_games(db)
    keeping = [s for s in found if s.edit_key]
    return {
        "continuing": [s for s in keeping if not s.standings.over],
        "watching": [s for s in found if not s.edit_key],
        "finished": [s for s in keeping if s.standings.over][:6],
        "my_tables": device_tables(db),
    }


def suggested_names(db: Database) -> list[str]:
    """Names from this device's tables only: never another family's."""
    names: dict[str, None] = {}
    for table in device_tables(db):
        for player in tables.roster(db, table.id):
            if not player.retired:
                names.setdefault(player.name)
    return list(names)
