"""A whole table in one zip file: every game file, a CSV of all hands, the roster.

Plain Python over the rules engine, so a backup can be read and written
without the web app. Reading refuses anything that is not such a file with
one clear message, and is careful with sizes (a zip can unpack to far more
than it weighs).
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from .i18n import N_, _
from .rules.game import Game, GameError
from .rules.gamefile import game_to_json, load_game
from .rules.phases import RulesError
from .rules.replay import replay

FORMAT = "phase10-table"
MAX_GAMES = 2000
MAX_UNPACKED = 20 * 1024 * 1024
MAX_NAME = 60


class ArchiveError(ValueError):
    """Why a file cannot be imported, in words for people."""


@dataclass(frozen=True)
class ArchivedGame:
    game: Game
    created: str
    updated: str


@dataclass
class TableArchive:
    name: str
    players: list[tuple[str, bool]] = field(default_factory=list)  # (name, retired)
    aliases: dict[str, str] = field(default_factory=dict)  # old spelling -> roster name
    games: list[ArchivedGame] = field(default_factory=list)  # oldest first


def csv_cell(value: object) -> str:
    """Spreadsheets run cells starting with = + - @ as formulas: make them text."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def hands_csv(games: Sequence[ArchivedGame]) -> str:
    """One row per player per hand, across every game."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["game", "date", "hand", "player", "points", "went out", "made phase"])
    for number, entry in enumerate(games, start=1):
        game = entry.game
        for hand_number, hand in enumerate(game.hands, start=1):
            scores = hand.scores(game.rules)
            label = "tiebreak" if hand.tiebreak else hand_number
            for name in game.players:
                writer.writerow(
                    [
                        number,
                        entry.created[:10],
                        label,
                        csv_cell(name),
                        scores.get(name, 0),
                        "yes" if name == hand.went_out else "no",
                        "yes" if name in hand.made else "no",
                    ]
                )
    return out.getvalue()


def build(archive: TableArchive) -> bytes:
    """The zip: table.json, games/NNN.json (the app's game files) and hands.csv."""
    files = [f"games/{i:03d}.json" for i in range(1, len(archive.games) + 1)]
    index = {
        "format": FORMAT,
        "version": 1,
        "name": archive.name,
        "players": [{"name": n, "retired": r} for n, r in archive.players],
        "aliases": archive.aliases,
        "games": [
            {"file": f, "created": e.created, "updated": e.updated}
            for f, e in zip(files, archive.games, strict=True)
        ],
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("table.json", json.dumps(index, indent=2, ensure_ascii=False))
        for name, entry in zip(files, archive.games, strict=True):
            zf.writestr(name, json.dumps(game_to_json(entry.game), indent=2, ensure_ascii=False))
        zf.writestr("hands.csv", hands_csv(archive.games))
    return out.getvalue()


def read(data: bytes) -> TableArchive:
    """Parse and check a table zip; every game is replayed by the engine before use."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as error:
        raise ArchiveError(_("This is not a table backup: it is not a zip file.")) from error
    with zf:
        infos = {info.filename: info for info in zf.infolist()}
        if sum(info.file_size for info in infos.values()) > MAX_UNPACKED:
            raise ArchiveError(_("This backup unpacks to more than this app accepts (20 MB)."))
        index = _json(zf, infos, "table.json")
        if not isinstance(index, dict) or index.get("format") != FORMAT:
            raise ArchiveError(_("This zip is not a table backup made by this app."))
        name = index.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise ArchiveError(_("The table in this backup has no usable name."))
        archive = TableArchive(" ".join(name.split()))
        for player in _list(index, "players"):
            if not isinstance(player, dict) or not isinstance(player.get("name"), str):
                raise ArchiveError(_("The list of players in this backup is damaged."))
            archive.players.append((player["name"], bool(player.get("retired"))))
        aliases = index.get("aliases", {})
        if not isinstance(aliases, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in aliases.items()
        ):
            raise ArchiveError(_("The merged names in this backup are damaged."))
        archive.aliases = dict(aliases)
        entries = _list(index, "games")
        if len(entries) > MAX_GAMES:
            raise ArchiveError(_("This backup has more than %(count)s games.", count=MAX_GAMES))
        for number, entry in enumerate(entries, start=1):
            if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
                raise ArchiveError(_("Game %(number)s in this backup is damaged.", number=number))
            try:
                game = load_game(_json(zf, infos, entry["file"]))
                replay(game)
            except (GameError, RulesError) as error:
                reason = _(
                    "Game %(number)s in this backup: %(reason)s", number=number, reason=error
                )
                raise ArchiveError(reason) from error
            created = _when(entry.get("created"))
            updated = _when(entry.get("updated")) or created
            archive.games.append(ArchivedGame(game, created, updated))
    return archive


def _when(value: object) -> str:
    """A date and time as the app stores them (ISO 8601), or "" when it cannot be read."""
    text = str(value)[:40]
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return ""
    return text


DAMAGED_LISTS = {
    "players": N_("The list of players in this backup is damaged."),
    "games": N_("The list of games in this backup is damaged."),
}


def _list(index: dict, key: str) -> list:
    value = index.get(key, [])
    if not isinstance(value, list):
        raise ArchiveError(_(DAMAGED_LISTS[key]))
    return value


def _json(zf: zipfile.ZipFile, infos: dict, name: str) -> object:
    if name not in infos:
        raise ArchiveError(_("This backup is incomplete: part of it is missing."))
    try:
        return json.loads(zf.read(infos[name]).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, zipfile.BadZipFile) as error:
        raise ArchiveError(_("This backup is damaged: part of it cannot be read.")) from error
