"""A game as last written, as the engine sees it: its kept standings and the state after
each hand, read without replaying. The latest version of each game read or written is
kept per process, so the next request for it reads nothing.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from sqlite_utils import Database

from .. import store
from ..rules.game import Game, GameError, Standings
from ..rules.gamefile import load_game
from ..rules.phases import RulesError
from ..rules.replay import Kept, replay_from


@dataclass(frozen=True)
class Current:
    """A stored game as the engine sees it, with its kept standings (nothing replayed)."""

    stored: store.games.StoredGame
    game: Game
    standings: Standings
    kept: tuple[Kept, ...]

    @property
    def version(self) -> int:
        return self.stored.version


def current(stored: store.games.StoredGame) -> Current:
    """The game with its kept standings; replays only a game stored without them.

    A version never changes once written, so the latest version read of each game
    is kept (per process) and the next request for it skips reading it again. Only
    the latest: a long game's kept states are thousands of objects, and every
    object kept is one more for the garbage collector to walk (ready.py).
    """
    found = _recent.get(stored.id)
    if found is None or found.stored != stored:  # the same row, or read it afresh
        found = keep(_read(stored))
    return found


def keep(current: Current) -> Current:
    """Remember a version just read or written, for the requests that read it next."""
    with _recent_lock:
        _recent.pop(current.stored.id, None)
        _recent[current.stored.id] = current  # the most recent last
        while len(_recent) > RECENT_GAMES:
            del _recent[next(iter(_recent))]
    return current


RECENT_GAMES = 256
_recent: dict[str, Current] = {}  # game id -> the version of it read or written last
_recent_lock = threading.Lock()


def _read(stored: store.games.StoredGame) -> Current:
    """The stored version, loaded; store.UnreadableGame when its row no longer loads (a
    damaged byte can leave JSON that parses but is no game the engine can read)."""
    with store.games.reading(stored.id):
        try:
            game = load_game(stored.state)
            kept = stored.kept
            if stored.standings is not None and kept is not None and len(kept) == len(game.hands):
                return Current(stored, game, Standings.from_json(stored.standings), tuple(kept))
            replayed = replay_from(game)
        except (GameError, RulesError) as error:
            raise store.games.UnreadableGame(stored.id, str(error)) from error
    return Current(stored, game, replayed.standings, replayed.kept)


def played(stored: store.games.StoredGame) -> Game:
    """The stored version's game alone, for a table's statistics and backup: its kept states
    are not read, and it joins no recent games (a club's 2,000 would push out the games
    being played). store.games.UnreadableGame when it no longer loads."""
    found = _recent.get(stored.id)
    if found is not None and found.stored == stored:
        return found.game
    with store.games.reading(stored.id):
        try:
            return load_game(stored.state)
        except (GameError, RulesError) as error:
            raise store.games.UnreadableGame(stored.id, str(error)) from error


def load(db: Database, game_id: str) -> Current | None:
    stored = store.games.get_game(db, game_id)
    return None if stored is None else current(stored)
