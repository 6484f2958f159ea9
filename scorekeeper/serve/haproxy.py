"""HAProxy's configuration in front of several shards, each link routed by the shard its
id names (``scorekeeper haproxy``, docs/scaling.md; ``store.shards`` says how ids name
them).
"""

from __future__ import annotations

from ..store.shards import ID


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
