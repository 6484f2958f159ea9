"""Table backups built to hurt: each function returns the bytes of one zip.

The tests in test_table_archive.py check each is refused with a clear message;
bench/bench_hostile_backups.py times them. All are built here, from nothing.
"""

from __future__ import annotations

import io
import json
import struct
import zipfile

GAME = {
    "rules": "official",
    "options": {},
    "players": ["Ann", "Bob"],
    "dealer": "Ann",
    "hands": [{"went_out": "Ann", "made": ["Ann"], "points": {"Bob": 50}}],
}


def index(**changes) -> dict:
    """table.json of a one-game backup, with ``changes`` made to it."""
    return {
        "format": "phase10-table",
        "version": 1,
        "name": "The Smiths",
        "players": [{"name": "Ann", "retired": False}, {"name": "Bob", "retired": False}],
        "aliases": {},
        "games": [{"file": "games/001.json", "created": "2026-11-23T20:00:00"}],
        **changes,
    }


def backup(table: dict | str, files: dict[str, bytes] | None = None) -> bytes:
    """A zip holding ``table`` as table.json (text as given) and the game files."""
    if files is None:
        files = {"games/001.json": json.dumps(GAME).encode()}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("table.json", table if isinstance(table, str) else json.dumps(table))
        for name, data in files.items():
            zf.writestr(name, data)
    return out.getvalue()


def deep() -> bytes:
    """Players nested 100,000 arrays deep."""
    text = json.dumps(index(players=[]))
    return backup(text.replace('"players": []', '"players": ' + "[" * 100_000 + "]" * 100_000))


def huge_number() -> bytes:
    """A player retired 'since' a 5,000-digit number."""
    text = json.dumps(index(players=[{"name": "Ann", "retired": 7}]))
    return backup(text.replace("7", "1" + "0" * 4999))


def surrogate(where: str) -> bytes:
    """A lone surrogate (as JSON writes it, \\ud800) in the table's, a player's or an
    alias's name."""
    table = index(
        name="The Smiths" + ("@" if where == "table" else ""),
        players=[{"name": "Ann" + ("@" if where == "roster" else "")}, {"name": "Bob"}],
        aliases={"Bobby" + ("@" if where == "alias" else ""): "Bob"},
    )
    return backup(json.dumps(table).replace("@", "\\ud800"))


def unclosed_quotes(size: int = 1024 * 1024) -> bytes:
    """table.json of ``size`` bytes: one quote, then escaped quotes to the end. It packs to
    about a kilobyte; a check retried from every quote would cost hours (issue 32)."""
    return backup('"' + '\\"' * ((size - 1) // 2))


def big_roster(count: int = 2000) -> bytes:
    return backup(index(players=[{"name": f"Player {n}"} for n in range(count)]))


def many_references(count: int = 200, padding: int = 900_000) -> bytes:
    """Every game entry names one game file, padded with spaces to nearly a megabyte."""
    padded = json.dumps(GAME).encode() + b" " * padding
    games = [{"file": "games/001.json"} for _ in range(count)]
    return backup(index(games=games), {"games/001.json": padded})


def many_big_games(count: int = 25, padding: int = 900_000) -> bytes:
    """Each game its own file, each padded to nearly a megabyte: 22 MB in all."""
    padded = json.dumps(GAME).encode() + b" " * padding
    files = {f"games/{n:03d}.json": padded for n in range(count)}
    return backup(index(games=[{"file": name} for name in files]), files)


def lying_size(claimed: int) -> bytes:
    """The game file holds 5 MB of spaces but its headers claim ``claimed`` bytes."""
    data = backup(index(), {"games/001.json": json.dumps(GAME).encode() + b" " * 5_000_000})
    return with_size(data, "games/001.json", claimed)


def with_size(data: bytes, member: str, size: int) -> bytes:
    """The zip with ``member``'s uncompressed size rewritten in both of its headers."""
    data = bytearray(data)
    name = member.encode()
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while (start := data.find(signature, start)) >= 0:
            name_at = start + (30 if signature == b"PK\x03\x04" else 46)
            if data[name_at : name_at + len(name)] == name:
                struct.pack_into("<I", data, start + offset, size)
            start += 4
    return bytes(data)


HOSTILE = {
    "nested 100,000 deep": deep,
    "a 5,000-digit number": huge_number,
    "a surrogate in the table's name": lambda: surrogate("table"),
    "a surrogate in a player's name": lambda: surrogate("roster"),
    "a surrogate in an alias": lambda: surrogate("alias"),
    "1 MB of unclosed quotes": unclosed_quotes,
    "2,000 players": big_roster,
    "200 references to one file": many_references,
    "25 big games": many_big_games,
    "a size that says 100 bytes": lambda: lying_size(100),
    "a size that says 4 GB": lambda: lying_size(2**32 - 1),
}
