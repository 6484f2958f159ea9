"""A whole table in one zip file: every game file, a CSV of all hands, the roster, its nights
and its seasons.

Plain Python over the rules engine and the store's records, so a backup can be read and
written without the web app: a night is kept as the store declares it (``ArchivedNight``
extends ``store.nights.NightPlan``, ``ArchivedRound`` extends ``Round``, ``ArchivedSeason``
extends ``store.seasons.SeasonPlan``), so a field added there is kept here too. Reading
refuses anything that is not such a file with one clear message, and bounds what it
costs before anything is written: the limits below hold whatever the zip claims (a zip
can unpack to far more than it weighs, and its sizes can lie), every name meets the name
rule (``rules/names.py``), and the JSON is read by the one bounded parser
(``json_reader.parse_json``), so a hostile backup of a few kilobytes is refused
in milliseconds.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import MISSING, dataclass, field
from datetime import UTC, date, datetime, tzinfo
from enum import Enum
from typing import Any

from sqlite_utils import Database

from .. import clock
from ..i18n import N_, _
from ..live.turns import let_others_run
from ..rules.game import Game, GameError
from ..rules.gamefile import game_to_json, load_game
from ..rules.names import MAX_TABLE_NAME, NameRefused, valid_name
from ..rules.nights import MOST_AT_A_TABLE, Mode, Scheme, TableSeating
from ..rules.phases import RulesError
from ..rules.replay import Replayed, replay_from
from ..rules.ruleset import PROFILES
from ..rules.seasons import MOST_BEST
from ..store import nights, records, seasons
from ..store.nights import Attendee, Night, NightPlan, Round
from ..store.seasons import Season, SeasonPlan
from .json_reader import JsonError, parse_json

FORMAT = "phase10-table"
# What one backup may hold. Each is far beyond a real table and keeps one import cheap.
MAX_GAMES = 2000  # a weekly game for forty years; each game is replayed on import
MAX_PLAYERS = 300  # everyone a club has played with; the table page lists each one
MAX_ALIASES = 1000  # old spellings: each rename or merge leaves one
MAX_HANDS = 500  # a game ends once someone has made every phase: 6 x 30 phases is 180 hands
MAX_INDEX = 1024 * 1024  # table.json: 2,000 games, the roster and aliases take ~400 KB
MAX_GAME_FILE = 1024 * 1024  # one game file: 500 hands of 6 players take ~200 KB
MAX_NIGHTS = 500  # a club night a week for ten years
MAX_ROUNDS = 20  # a night's rounds (actions.MOST_ROUNDS)
MOST_CLOCK_MINUTES = 600  # a round clock's minutes (actions.nights.MOST_MINUTES)
MAX_NIGHT_PLAYERS = 200  # thirty tables of six, and some who came late
MAX_SEASONS = 200  # four seasons a year for fifty years
MAX_UNPACKED = 20 * 1024 * 1024  # bytes read in all, each file counted every time it is named
_READ_CHUNK = 64 * 1024
# What a damaged or hostile zip raises while it is read: bad headers, a wrong CRC, a
# size that lies, an unknown compression method, an encrypted member.
_ZIP_ERRORS = (
    *(zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError, ValueError),
    *(NotImplementedError, RuntimeError),
)


class ArchiveError(ValueError):
    """Why a file cannot be imported, in words for people."""


@dataclass(frozen=True)
class ArchivedGame:
    game: Game
    created: str
    updated: str
    replayed: Replayed | None = None  # the engine's replay when read (an import keeps it)


@dataclass(frozen=True, kw_only=True)
class ArchivedRound(Round):
    """A round of a night as a backup keeps it: the round, and its games, each the index of
    a game in ``TableArchive.games`` (table by table; none while only seated)."""

    games: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ArchivedNight(NightPlan):
    """A night as a backup keeps it: its plan (each field a key of its entry in table.json,
    read back by its type, or by ``_NIGHT_CHECKS``), who came, and its rounds."""

    players: tuple[Attendee, ...]
    played: tuple[ArchivedRound, ...]


@dataclass
class TableArchive:
    name: str
    players: list[tuple[str, bool]] = field(default_factory=list)  # (name, retired)
    aliases: dict[str, str] = field(default_factory=dict)  # old spelling -> roster name
    games: list[ArchivedGame] = field(default_factory=list)  # oldest first
    nights: list[ArchivedNight] = field(default_factory=list)  # its club nights
    seasons: list[ArchivedSeason] = field(default_factory=list)  # its seasons
    time_zone: str | None = None  # the table's clock (IANA name); None: not said


@dataclass(frozen=True, kw_only=True)
class ArchivedSeason(SeasonPlan):
    """A season as a backup keeps it: its plan, and its nights, each the index of a night in
    ``TableArchive.nights``."""

    nights: tuple[int, ...] = ()


def csv_cell(value: object) -> str:
    """Spreadsheets run cells starting with = + - @ as formulas: make them text."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def hands_csv(games: Sequence[ArchivedGame], zone: tzinfo = UTC) -> str:
    """One row per player per hand, across every game; a game's date is the day it was
    played on the family's clock (``zone``)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["game", "date", "hand", "player", "points", "went out", "made phase"])
    for number, entry in enumerate(games, start=1):
        let_others_run()
        game = entry.game
        played = clock.day(entry.created, zone)
        for hand_number, hand in enumerate(game.hands, start=1):
            scores = hand.scores(game.rules)
            label = "tiebreak" if hand.tiebreak else hand_number
            for name in game.players:
                writer.writerow(
                    [
                        number,
                        played.isoformat() if played else entry.created[:10],
                        label,
                        csv_cell(name),
                        scores.get(name, 0),
                        "yes" if name == hand.went_out else "no",
                        "yes" if name in hand.made else "no",
                    ]
                )
    return out.getvalue()


def build(archive: TableArchive, zone: tzinfo = UTC) -> bytes:
    """The zip: table.json, games/NNN.json (the app's game files) and hands.csv, whose dates
    are on the family's clock (``zone``; the files keep UTC, as stored)."""
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
        "nights": [_night_json(night) for night in archive.nights],
        "seasons": [
            {**records.plain(season, SeasonPlan), "nights": [i + 1 for i in season.nights]}
            for season in archive.seasons
        ],
        **({"time_zone": archive.time_zone} if archive.time_zone else {}),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("table.json", json.dumps(index, indent=2, ensure_ascii=False))
        for name, entry in zip(files, archive.games, strict=True):
            let_others_run()  # a club's 2,000 games: the other requests go on meanwhile
            zf.writestr(name, json.dumps(game_to_json(entry.game), indent=2, ensure_ascii=False))
        zf.writestr("hands.csv", hands_csv(archive.games, zone))
    return out.getvalue()


def _night_json(night: ArchivedNight) -> dict:
    """A night in table.json: its plan's fields, who came, its rounds with their games by
    their number in "games" (from 1)."""
    return {
        **records.plain(night, NightPlan),
        "players": [
            {key: value for key, value in records.plain(attendee).items() if value is not None}
            for attendee in night.players
        ],
        "played": [
            {
                "round": r.number,
                "seed": r.seed,
                "mode": r.mode.value,
                "tables": [list(table.seats) for table in r.tables],
                "started": r.started,
                "games": [index + 1 for index in r.games],
                **({"tables_asked": r.asked} if r.asked is not None else {}),
            }
            for r in night.played
        ],
    }


def archived_night(db: Database, night: Night, game_index: dict[str, int]) -> ArchivedNight:
    """The night as a table's backup keeps it; ``game_index``: game id -> its index among
    the backup's games (a game no longer in the table leaves its round without games)."""
    its_games = nights.games(db, night.id)
    played = []
    for found in nights.rounds(db, night.id):
        ids = [g.game_id for g in its_games if g.round == found.number]
        indexes = tuple(game_index[i] for i in ids) if all(i in game_index for i in ids) else ()
        kept = indexes if len(indexes) == len(found.tables) else ()
        played.append(ArchivedRound(**records.values(found), games=kept))
    return ArchivedNight(
        **records.values(night, NightPlan),
        players=tuple(nights.attendees(db, night.id)),
        played=tuple(played),
    )


def archived_season(db: Database, season: Season, night_index: dict[str, int]) -> ArchivedSeason:
    """The season as a table's backup keeps it; ``night_index``: night id -> its index
    among the backup's nights."""
    its = [
        night_index[n.id] for n in seasons.nights_of_season(db, season.id) if n.id in night_index
    ]
    return ArchivedSeason(**records.values(season, SeasonPlan), nights=tuple(its))


def read(data: bytes) -> TableArchive:
    """Parse and check a table zip; every game is replayed by the engine before use."""
    return opened(data).archive()


def opened(data: bytes) -> Backup:
    """A table zip with its index (table.json) read and checked, and none of its games yet:
    how many games it brings (``Backup.count``) is known before any is read or replayed,
    so an import counts them against what an address may import first."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except _ZIP_ERRORS as error:
        raise ArchiveError(_("This is not a table backup: it is not a zip file.")) from error
    try:
        with _unpacking():
            return Backup(zf)
    except ArchiveError:
        zf.close()
        raise


@contextmanager
def _unpacking() -> Iterator[None]:
    """A member the zip cannot unpack: the backup is damaged."""
    try:
        yield
    except ArchiveError:
        raise
    except _ZIP_ERRORS as error:
        raise ArchiveError(_("This backup is damaged: part of it cannot be read.")) from error


class Backup:
    """One backup being read, with what is left of its byte budget."""

    def __init__(self, zf: zipfile.ZipFile) -> None:
        self.zf = zf
        self.infos = {info.filename: info for info in zf.infolist()}
        self.left = MAX_UNPACKED
        if sum(info.file_size for info in self.infos.values()) > MAX_UNPACKED:
            raise _too_big()
        index = self.json("table.json", MAX_INDEX)
        if not isinstance(index, dict) or index.get("format") != FORMAT:
            raise ArchiveError(_("This zip is not a table backup made by this app."))
        self.index = index
        self.table = TableArchive(_table_name(index.get("name")))
        self.table.players = _players(_list(index, "players"))
        self.table.aliases = _aliases(index.get("aliases", {}))
        self.table.time_zone = _time_zone(index.get("time_zone"))
        self.entries = _games(_list(index, "games"))
        if any(entry["file"] not in self.infos for entry in self.entries):
            raise ArchiveError(_("This backup is incomplete: part of it is missing."))
        claimed = sum(self.infos[entry["file"]].file_size for entry in self.entries)
        if claimed > self.left:  # every reference counted, before any is read
            raise _too_big()

    @property
    def count(self) -> int:
        """The games it brings."""
        return len(self.entries)

    def archive(self) -> TableArchive:
        """Every game read and replayed, then the nights and seasons: the whole table, checked."""
        archive = self.table
        with self.zf, _unpacking():
            for number, entry in enumerate(self.entries, start=1):
                let_others_run()  # a big backup's replays must not hold up other tables' pages
                game, replayed = self.game(number, entry["file"])
                created = _when(entry.get("created"))
                updated = _when(entry.get("updated")) or created
                archive.games.append(ArchivedGame(game, created, updated, replayed))
            archive.nights = _nights(_list(self.index, "nights"), archive.games)
            archive.seasons = _seasons(_list(self.index, "seasons"), len(archive.nights))
        return archive

    def game(self, number: int, name: str) -> tuple[Game, Replayed]:
        data = self.json(name, MAX_GAME_FILE)
        hands = data.get("hands") if isinstance(data, dict) else None
        if isinstance(hands, list) and len(hands) > MAX_HANDS:
            raise ArchiveError(
                _(
                    "Game %(number)s in this backup has more than %(count)s hands.",
                    number=number,
                    count=MAX_HANDS,
                )
            )
        try:
            game = load_game(data, new=True)  # its names enter the app: the name rule
            replayed = replay_from(game)
        except (GameError, RulesError) as error:
            reason = _("Game %(number)s in this backup: %(reason)s", number=number, reason=error)
            raise ArchiveError(reason) from error
        return game, replayed

    def json(self, name: str, most: int) -> object:
        """A member's JSON, reading no more than ``most`` bytes of it or the budget left."""
        info = self.infos.get(name)
        if info is None:
            raise ArchiveError(_("This backup is incomplete: part of it is missing."))
        if info.file_size > most:
            raise _file_too_big()
        limit = min(most, self.left)
        chunks, size = [], 0
        with self.zf.open(info) as member:  # the real bytes, whatever the header says
            while chunk := member.read(min(_READ_CHUNK, limit + 1 - size)):
                chunks.append(chunk)
                size += len(chunk)
                if size > limit:
                    raise _too_big() if limit < most else _file_too_big()
        self.left -= size
        try:
            return parse_json(b"".join(chunks).decode("utf-8"))
        except UnicodeDecodeError as error:
            raise ArchiveError(_("This backup is damaged: part of it cannot be read.")) from error
        except JsonError as error:
            raise ArchiveError(
                _("This backup is damaged: part of it cannot be read (%(reason)s).", reason=error)
            ) from error


def _too_big() -> ArchiveError:
    return ArchiveError(_("This backup unpacks to more than this app accepts (20 MB)."))


def _file_too_big() -> ArchiveError:
    """table.json or a game file past its own limit (MAX_INDEX, MAX_GAME_FILE: 1 MB each)."""
    return ArchiveError(_("One file in this backup is larger than this app accepts (1 MB)."))


def _table_name(value: object) -> str:
    try:
        return valid_name(value, MAX_TABLE_NAME)
    except NameRefused as refused:
        raise ArchiveError(
            _("The table's name in this backup cannot be used: %(reason)s", reason=refused)
        ) from None


def _time_zone(value: object) -> str | None:
    """The table's clock, if the backup names one this machine knows (a zone newer than its
    time zone data is left out: the importing phone's clock is taken instead)."""
    if isinstance(value, str) and clock.zone(value) is not None:
        return value
    return None


def _players(entries: list) -> list[tuple[str, bool]]:
    if len(entries) > MAX_PLAYERS:
        raise ArchiveError(_("This backup lists more than %(count)s players.", count=MAX_PLAYERS))
    players = []
    for number, player in enumerate(entries, start=1):
        if not isinstance(player, dict):
            raise ArchiveError(_("The list of players in this backup is damaged."))
        try:
            name = valid_name(player.get("name"))
        except NameRefused as refused:
            raise ArchiveError(
                _(
                    "Player %(number)s in this backup cannot be used: %(reason)s",
                    number=number,
                    reason=refused,
                )
            ) from None
        players.append((name, bool(player.get("retired"))))
    return players


def _aliases(value: object) -> dict[str, str]:
    """Old spelling -> roster name, both held to the name rule."""
    if not isinstance(value, dict):
        raise ArchiveError(_("The merged names in this backup are damaged."))
    if len(value) > MAX_ALIASES:
        raise ArchiveError(
            _("This backup lists more than %(count)s merged names.", count=MAX_ALIASES)
        )
    try:
        return {valid_name(old): valid_name(new) for old, new in value.items()}
    except NameRefused as refused:
        raise ArchiveError(
            _("A merged name in this backup cannot be used: %(reason)s", reason=refused)
        ) from None


def _games(entries: list) -> list[dict]:
    """The game entries, each naming a file of its own (so no file is read twice)."""
    if len(entries) > MAX_GAMES:
        raise ArchiveError(_("This backup has more than %(count)s games.", count=MAX_GAMES))
    seen: dict[str, int] = {}
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            raise ArchiveError(_("Game %(number)s in this backup is damaged.", number=number))
        if (first := seen.setdefault(entry["file"], number)) != number:
            raise ArchiveError(
                _(
                    "Games %(first)s and %(second)s in this backup are the same file.",
                    first=first,
                    second=number,
                )
            )
    return entries


def _when(value: object) -> str:
    """A date and time as the app stores them (ISO 8601), or "" when it cannot be read."""
    text = str(value)[:40]
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return ""
    return text


def _nights(entries: list, games: Sequence[ArchivedGame]) -> list[ArchivedNight]:
    """The club nights, each game of each round a game of the backup (and one night's once);
    anything else: the night is damaged. (Older backups have none.)"""
    if len(entries) > MAX_NIGHTS:
        raise ArchiveError(_("This backup has more than %(count)s nights.", count=MAX_NIGHTS))
    used: set[int] = set()
    nights = []
    for number, entry in enumerate(entries, start=1):
        try:
            nights.append(_night(entry, games, used))
        except (KeyError, TypeError, ValueError, NameRefused) as error:
            raise ArchiveError(
                _("Night %(number)s in this backup is damaged.", number=number)
            ) from error
    return nights


def _night(entry: dict, games: Sequence[ArchivedGame], used: set[int]) -> ArchivedNight:
    players = entry["players"]
    rounds = entry["played"]
    if not (
        isinstance(players, list)
        and isinstance(rounds, list)
        and len(players) <= MAX_NIGHT_PLAYERS
        and len(rounds) <= MAX_ROUNDS
    ):
        raise ValueError("too many")
    played = []
    for number, found in enumerate(rounds, start=1):
        tables = tuple(
            TableSeating(table, tuple(valid_name(name) for name in seats))
            for table, seats in enumerate(found["tables"], start=1)
        )
        indexes = tuple(int(index) - 1 for index in found["games"])
        if int(found["round"]) != number or len(tables) > MAX_NIGHT_PLAYERS // 2:
            raise ValueError("rounds out of order")
        if any(not 2 <= len(table.seats) <= MOST_AT_A_TABLE for table in tables):
            raise ValueError("a table's size")
        if indexes and len(indexes) != len(tables):
            raise ValueError("a game for each table")
        for index, table in zip(indexes, tables, strict=False):
            if not 0 <= index < len(games) or index in used:
                raise ValueError("no such game")
            if games[index].game.players != table.seats:
                raise ValueError("not the game seated")
            used.add(index)
        started = _when(found["started"]) if found["started"] is not None else None
        asked = found.get("tables_asked")  # older backups do not say
        if asked is not None and not 1 <= int(asked) <= MAX_NIGHT_PLAYERS // 2:
            raise ValueError("tables asked")
        played.append(
            ArchivedRound(
                number,
                str(found["seed"])[:40],
                Mode(found["mode"]),
                tables,
                started,
                None if asked is None else int(asked),
                games=indexes,
            )
        )
    return ArchivedNight(
        **_plan(entry),
        players=tuple(
            Attendee(valid_name(p["name"]), bool(p["here"]), _kept_table(p.get("keeps")))
            for p in players
        ),
        played=tuple(played),
    )


def _seasons(entries: list, count: int) -> list[ArchivedSeason]:
    """The seasons, each night of each a night of the backup, in one season at most;
    anything else: the season is damaged. (Older backups have none.)"""
    if len(entries) > MAX_SEASONS:
        raise ArchiveError(_("This backup has more than %(count)s seasons.", count=MAX_SEASONS))
    used: set[int] = set()
    found = []
    for number, entry in enumerate(entries, start=1):
        try:
            found.append(_season(entry, count, used))
        except (KeyError, TypeError, ValueError, NameRefused) as error:
            raise ArchiveError(
                _("Season %(number)s in this backup is damaged.", number=number)
            ) from error
    return found


def _season(entry: dict, count: int, used: set[int]) -> ArchivedSeason:
    first, last = date.fromisoformat(str(entry["starts"])), date.fromisoformat(str(entry["ends"]))
    best = entry.get("best")
    if last < first or (best is not None and not 1 <= int(best) <= MOST_BEST):
        raise ValueError("days or best")
    its = [int(index) - 1 for index in entry["nights"]]
    if len(its) > count or any(not 0 <= i < count or i in used for i in its):
        raise ValueError("no such night")
    used.update(its)
    return ArchivedSeason(
        name=valid_name(entry["name"], MAX_TABLE_NAME),
        starts=first.isoformat(),
        ends=last.isoformat(),
        scheme=Scheme(entry["scheme"]),
        best=None if best is None else int(best),
        nights=tuple(its),
    )


def _plan(entry: dict) -> dict[str, Any]:
    """A night's own fields (``NightPlan``'s), each checked; one an older backup lacks
    takes its default."""
    plan = {}
    for found in records.fields(NightPlan):
        if found.name not in entry and found.default is not MISSING:
            continue
        value = entry[found.name]
        plan[found.name] = (
            None if value is None and found.optional else _NIGHT_CHECKS[found.name](value)
        )
    return plan


def _kept_table(value: Any) -> int | None:
    """The table a player keeps (older backups do not say)."""
    if value is None:
        return None
    if not 1 <= int(value) <= MAX_NIGHT_PLAYERS // 2:
        raise ValueError("table kept")
    return int(value)


def _round_minutes(value: Any) -> int:
    if not 1 <= int(value) <= MOST_CLOCK_MINUTES:
        raise ValueError("round clock")
    return int(value)


def _planned_rounds(value: Any) -> int:
    if not 1 <= int(value) <= MAX_ROUNDS:
        raise ValueError("rounds")
    return int(value)


def _profile(value: Any) -> str:
    if value not in PROFILES:
        raise ValueError("no such rules")
    return str(value)


def _by_type(found: records.Field) -> Callable[[Any], Any]:
    """How a field no check names is read from a backup: an Enum by its value, a number as
    a number, text as a name (the name rule, as long as a table's name)."""
    if isinstance(found.kind, type) and issubclass(found.kind, Enum):
        return found.kind
    if found.kind in (bool, int):
        return found.kind
    if found.kind is str:
        return lambda value: valid_name(value, MAX_TABLE_NAME)
    raise TypeError(f"a backup cannot read a night's {found.name}: give it a check")


# How a backup's night is read, field by field: these by a check of their own, the others
# by their type (``_by_type``; a type it cannot read stops this module loading at once).
_NIGHT_CHECKS: dict[str, Callable[[Any], Any]] = {
    "name": lambda value: valid_name(value, MAX_TABLE_NAME),
    "created": _when,
    "rounds": _planned_rounds,
    "profile": _profile,
    "ended": lambda value: _when(value) or None,
    "minutes": _round_minutes,
}
_NIGHT_CHECKS |= {
    found.name: _by_type(found)
    for found in records.fields(NightPlan)
    if found.name not in _NIGHT_CHECKS
}


DAMAGED_LISTS = {
    "players": N_("The list of players in this backup is damaged."),
    "games": N_("The list of games in this backup is damaged."),
    "nights": N_("The list of nights in this backup is damaged."),
    "seasons": N_("The list of seasons in this backup is damaged."),
}


def _list(index: dict, key: str) -> list:
    value = index.get(key, [])
    if not isinstance(value, list):
        raise ArchiveError(_(DAMAGED_LISTS[key]))
    return value
