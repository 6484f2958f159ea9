"""Beyond one machine: shards behind HAProxy, each link routed by the shard its id names.

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

Plain Python: ``haproxy_config`` writes the proxy's configuration
(``scorekeeper haproxy``, docs/scaling.md).
"""

from __future__ import annotations

from .codes import ALPHABET

ID = "[A-Za-z0-9_-]{22}"  # what follows the shard's name in an id: 128 random bits


def new_id(shard: str, token: str) -> str:
    """An id made by ``shard`` (none: unsharded, as one server alone makes them)."""
    return shard + token


def valid_name(name: str) -> bool:
    """A shard is one character of the codes' alphabet, not 0 or 1 (which O, I and L read as:
    a code typed with a look-alike must still reach its shard)."""
    return len(name) == 1 and name in ALPHABET and name not in "01"


def haproxy_config(
    shards: dict[str, str], listen: str, *, check_every: str = "2s", timeout: str = "60s"
) -> str:
    """HAProxy's configuration for these shards ({name: "host:port"}), listening on
    ``listen`` ("host:port"). Polls are held up to 30 s: the server timeout is longer."""
    lines = [
        "global",
        "    maxconn 8000  # two open files each: raise it with the system's open-files limit",
        "defaults",
        "    mode http",
        "    timeout connect 5s",
        "    timeout client 75s",
        f"    timeout server {timeout}",
        "    timeout http-request 10s",
        "    option forwardfor",
        "    option http-buffer-request  # read a form's table or code to route it",
        "frontend scorekeeper",
        f"    bind {listen}",
        "    http-request set-header X-Forwarded-Proto https if { ssl_fc }",
    ]
    for name in shards:
        shard = f"shard_{name}"
        lines += [
            f"    acl {shard} path_reg ^(/api)?/[^/]+/{name}{ID}(/|$)",
            f"    acl {shard} url_param(table) -m reg ^{name}{ID}$",
            f"    acl {shard} req.body_param(table) -m reg ^{name}{ID}$",
            f"    acl {shard} path_reg -i ^/{name}[-0-9A-Z]{{15,}}$",
            f"    acl {shard} req.body_param(code) -m beg -i {name}",
            f"    use_backend {shard} if {shard}",
        ]
    lines += ["    default_backend any_shard"]
    for name, address in shards.items():
        lines += [
            f"backend shard_{name}",
            "    option httpchk GET /healthz",
            f"    server {name} {address} check inter {check_every} fall 2 rise 1",
        ]
    lines += [
        "backend any_shard  # no shard named: the device's shard, else the next in turn",
        "    balance roundrobin",
        "    option httpchk GET /healthz",
        "    cookie SHARD insert indirect nocache httponly",
    ]
    lines += [
        f"    server {name} {address} check inter {check_every} fall 2 rise 1 cookie {name}"
        for name, address in shards.items()
    ]
    return "\n".join(lines) + "\n"
