"""A finished game as a play for BG Stats: the push link that opens its import dialog.

BG Stats documents a link for other apps (bgstatsapp.com, "Push plays to BG Stats
from other apps or websites"): ``https://app.bgstatsapp.com/createPlay.html?data=``
followed by the play as URL-encoded JSON. Opened on a phone with BG Stats, it shows
the import dialog, matches the game and players to its own (remembering each
match) and may forward the play to BoardGameGeek.

What is sent, and where it comes from:

- ``game``: Phase 10 (BoardGameGeek id 1258), lowest score wins (``highestWins``
  false): each player's rank is the app's own final order (``rules.ranking``:
  the winner, then phases made, then the lower total).
- ``sourcePlayId``: a digest of the game's id, the same every time the game is
  pushed (so BG Stats recognises it) without giving away the game's link.
- ``sourcePlayerId``: in a table's game, the roster player's id (``tables.player_ids``),
  kept through renames and merges, so BG Stats matches each person once; outside
  a table, ``name:`` and the name in lower case, the same across games.
- ``startPlayer``: the first dealer's left-hand neighbour, who plays first.
- ``playDate``: when the game started, on the family's own clock (BG Stats reads it
  as local time: the web layer passes the zone, clock.py); ``durationMin``: its
  playing time, to the hand that ended it (``store.history.played_until``; left out when
  it was no time at all: a game imported whole).
- ``location``: the table's name; ``comments``: the rules, the phases each player
  made, and an early end.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from typing import Any
from urllib.parse import quote

from sqlite_utils import Database

from .. import clock, store
from ..i18n import _, isolate, join
from ..rules.game import Game, Standings
from ..rules.house_rules import profile_title, rules_line
from ..rules.names import clean_name
from ..rules.ranking import final_order
from ..store import tables

PUSH_URL = "https://app.bgstatsapp.com/createPlay.html"
BGG_ID = 1258  # Phase 10 on BoardGameGeek
SOURCE_NAME = "Phase 10 Scorekeeper"
SOURCE_GAME_ID = "phase10"
PLAY_DATE = "%Y-%m-%d %H:%M:%S"  # as BG Stats reads it


class NotFinished(ValueError):
    """A game still being played: BG Stats logs finished plays."""


@dataclass(frozen=True)
class PlayFacts:
    """What the store knows of a game beside its hands."""

    game_id: str
    started: str  # when it was created (ISO 8601, UTC)
    ended: str  # when its playing time ended (store.history.played_until)
    table: str | None = None  # the table's name
    player_ids: Mapping[str, str] = field(default_factory=dict)  # name -> roster player id
    zone: tzinfo = UTC  # the family's own clock, for playDate


def facts(db: Database, stored: store.games.StoredGame, zone: tzinfo = UTC) -> PlayFacts:
    """The facts of a stored game: its times, and its table's name and roster ids."""
    ended = store.history.played_until(db, stored)
    table_id = tables.table_of_game(db, stored.id)
    table = tables.get_table(db, table_id) if table_id else None
    if table is None:
        return PlayFacts(stored.id, stored.created, ended, zone=zone)
    ids = tables.player_ids(db, table.id)
    return PlayFacts(stored.id, stored.created, ended, table.name, ids, zone)


def play_id(game_id: str) -> str:
    """The same for every push of one game; the game's link cannot be read back from it."""
    return "phase10-" + hashlib.sha256(f"bgstats:{game_id}".encode()).hexdigest()[:24]


def player_id(name: str, ids: Mapping[str, str]) -> str:
    """The roster player's id in a table's game, else one made of the name."""
    return ids.get(name) or "name:" + clean_name(name).casefold()


def play(game: Game, standings: Standings, facts: PlayFacts) -> dict[str, Any]:
    """The play as BG Stats reads it; NotFinished while the game is being played."""
    if not standings.over:
        raise NotFinished(_("The game is not over yet: BG Stats logs finished games."))
    seats = game.players
    first_player = seats[(seats.index(game.dealer) + 1) % len(seats)]  # left of the dealer
    winners = {standings.winner} if standings.winner else set(standings.tied)
    players = [
        {
            "name": standing.name,
            "score": standing.score,
            "rank": place,
            "winner": standing.name in winners,
            "startPlayer": standing.name == first_player,
            "sourcePlayerId": player_id(standing.name, facts.player_ids),
            "role": "",
        }
        for place, standing in final_order(standings, game.rules)
    ]
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id(facts.game_id),
        "playDate": clock.local(facts.started, facts.zone).strftime(PLAY_DATE),
        "durationMin": clock.minutes(facts.started, facts.ended),
        "comments": comments(game, standings),
        "game": {
            "name": "Phase 10",
            "bggId": BGG_ID,
            "highestWins": False,
            "noPoints": False,
            "sourceGameId": SOURCE_GAME_ID,
        },
        "players": players,
    }
    if not data["durationMin"]:  # no playing time: a game imported whole
        del data["durationMin"]
    if facts.table:
        data["location"] = facts.table
    return _within_link(data, game, standings)


def _within_link(data: dict[str, Any], game: Game, standings: Standings) -> dict[str, Any]:
    """The play, its words shortened until its link fits LINK_MOST: six long names in a
    script of 4-byte letters and every house rule come near it. The players, scores and
    ranks are never left out."""
    shorter = (
        lambda: comments(game, standings, phases_made=False),
        lambda: profile_title(game.rules) + ".",
    )
    for comment in shorter:
        if len(push_link(data)) <= LINK_MOST:
            return data
        data["comments"] = comment()
    if len(push_link(data)) > LINK_MOST:
        data.pop("location", None)
    return data


def stored_play(
    db: Database,
    stored: store.games.StoredGame,
    game: Game,
    standings: Standings,
    zone: tzinfo = UTC,
) -> dict[str, Any]:
    """The play of a stored game, with its times, table and roster ids (``facts``)."""
    return play(game, standings, facts(db, stored, zone))


def comments(game: Game, standings: Standings, *, phases_made: bool = True) -> str:
    """The rules, the phases each player made, and an early end, in the current language."""
    parts = [rules_line(game.rules)]
    if phases_made:
        made = join(
            _("%(player)s %(count)s", player=isolate(p.name), count=len(p.phases_done))
            for p in standings.players
        )
        parts.append(_("Phases made: %(players)s.", players=made))
    if standings.ended_early:
        parts.append(_("Ended early after hand %(number)s.", number=standings.hands_played))
    return " ".join(parts)


# The link's longest: it opens BG Stats' web page, and many web servers refuse a request
# line (the link after its host, with "GET" and "HTTP/1.1") over 8 KB.
LINK_MOST = 8100


def push_link(data: Mapping[str, Any]) -> str:
    """The documented link: the play's JSON, URL-encoded, after ``?data=``."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"{PUSH_URL}?data={quote(text, safe='')}"
