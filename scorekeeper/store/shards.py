"""Ids that name their shard: beyond one machine, shards behind HAProxy, each link routed
by the shard its id names.

Games of different tables never interact, so a bigger service runs several
`scorekeeper serve` processes (or machines), each with its own games file and
Litestream replica, behind one HAProxy. A shard is named by one character of the
short codes' alphabet (``SCOREKEEPER_SHARD=A``), and everything it creates says so:
every id and key it makes is that character and 22 random ones (23 in all, where an
unsharded id has 22), and every short code starts with it. So the proxy needs no
table of games: it reads the shard from the link itself (``/g/A…``, ``/v/A…``,
``/t/A…``, ``/tv/A…``, ``/api/games/A…``, ``/A…`` for a code, and the ``table`` or
``code`` a form sends). A rematch or a table's next
game is made by the shard that holds the table, so it stays there, and so do the
phones that follow it. A request that names no shard (the start page, a new game
or table) goes to the shard the device used before (a cookie), or the next one in
turn; that is where its new games and tables land, for good.

Why the id, not a hash of it: HAProxy's consistent hashing would send a new game's
links to whichever shard the hash picks, so a game would have to be made where the
proxy will later look, which only the proxy knows. An id that names its shard is
decided once, by the shard that makes it, and needs no shared state at all. Adding
a shard adds a name; no link moves.

Every shard must sign devices' cookies with the same secret
(``SCOREKEEPER_SECRET_KEY``): a phone's cookie names its games and its CSRF token,
and the phone visits whichever shard holds the game it opens.
"""

from __future__ import annotations

from ..codes import ALPHABET

ID = "[A-Za-z0-9_-]{22}"  # what follows the shard's name in an id: 128 random bits


def new_id(shard: str, token: str) -> str:
    """An id made by ``shard`` (none: unsharded, as one server alone makes them)."""
    return shard + token


def valid_name(name: str) -> bool:
    """A shard is one character of the codes' alphabet, not 0 or 1 (which O, I and L read as:
    a code typed with a look-alike must still reach its shard)."""
    return len(name) == 1 and name in ALPHABET and name not in "01"
