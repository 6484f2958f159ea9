"""Games for tests, built in code: a tie and its tiebreak, a game ending on given totals,
every house rule changed, games played from a shuffled deck (hypothesis), a games file
damaged on purpose, finished games by seed and a table's backup of many of them."""

from __future__ import annotations

import io
import json
import random
import sqlite3
import zipfile
from collections.abc import Sequence
from contextlib import closing
from datetime import UTC, datetime, timedelta

from hypothesis import strategies as st

from scorekeeper.backup.table_archive import ArchivedGame, TableArchive, build
from scorekeeper.rules.cards import deck
from scorekeeper.rules.game import Game, HandRecord
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.options import OPTIONS
from scorekeeper.rules.ruleset import OFFICIAL, make_rules
from scorekeeper.rules.scoring import hand_points

# The value each option takes in EVERY_HOUSE_RULE where its first other choice will not do:
# Masters says the most on a sheet (a phase chosen each hand), and free text has no choices.
_CHANGED_TO = {"progression": "masters", "first": "4", "suits": "H=B,D=G,C=R,S=Y"}
# A list of one's own is another game, not a house rule on top of Phase 10 + 10.
_LEFT_AS_IT_IS = {"custom_phases"}


def every_house_rule() -> dict[str, str]:
    """Every option of the engine's OPTIONS changed from the official profile: the most a
    card or sheet must say. A new option is in it as soon as it is in OPTIONS."""
    changed = {}
    for key, option in OPTIONS.items():
        if key in _LEFT_AS_IT_IS:
            continue
        if key in _CHANGED_TO:
            changed[key] = _CHANGED_TO[key]
        elif option.choices is None:
            raise LookupError(f"say in tests/games.py what the free-text option {key} becomes")
        else:
            changed[key] = next(value for value in option.choices if value != option.default)
    return changed


EVERY_HOUSE_RULE = every_house_rule()


def tied(tiebreak_points: int | None = None) -> Game:
    """Ann and Bob tie after ten hands, Cy far behind; given the points Ann holds, Bob
    has won the tiebreak."""
    both = [
        {"went_out": "Ann", "made": ["Ann", "Bob"], "points": {"Bob": 5, "Cy": 60}},
        {"went_out": "Bob", "made": ["Ann", "Bob"], "points": {"Ann": 5, "Cy": 60}},
    ] * 5
    if tiebreak_points is not None:
        points = {"Ann": tiebreak_points}
        both.append({"went_out": "Bob", "made": ["Bob"], "points": points, "tiebreak": True})
    return load_game({"players": ["Ann", "Bob", "Cy"], "hands": both})


def game_with_totals(players: dict[str, int], hands: int = 150) -> Game:
    """`hands` hands where player i scores so that they end on players[name] points."""
    names = list(players)
    game = Game(make_rules("official", {}), (*names, "Out"), names[0])
    for number in range(1, hands + 1):
        points = {}
        for name, total in players.items():
            each = total // hands // 5 * 5
            points[name] = each if number < hands else total - each * (hands - 1)
        game = game.with_hand(HandRecord(went_out="Out", points=points))
    return game


NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
RULES = {
    "official": OFFICIAL,
    "even": make_rules("even"),
    "first 3": make_rules("official", {"first": "3"}),
    "wild 20": make_rules("official", {"wild_points": "20"}),
}


@st.composite
def played_games(draw):
    """A game dealt from a real shuffled deck each hand, played to its end (or 25 hands)."""
    rules_name = draw(st.sampled_from(sorted(RULES)))
    rules = RULES[rules_name]
    players = NAMES[: draw(st.integers(2, 6))]
    done = dict.fromkeys(players, 0)
    scores = dict.fromkeys(players, 0)
    shuffle = random.Random(draw(st.integers(0, 2**32)))
    hands = []
    winner = tiebreak = None
    for _ in range(25):
        made = [p for p in players if draw(st.booleans())] or [players[0]]
        went_out = draw(st.sampled_from(made))
        cards = deck()
        shuffle.shuffle(cards)
        points = {}
        for player in players:
            if player == went_out:
                continue
            if player in made:
                phase = rules.sequence[done[player]]
                count = shuffle.randint(1, 10 - rules.phase(phase).min_cards)
            else:
                count = 10
            held, cards = cards[:count], cards[count:]
            points[player] = hand_points(rules, held)
            scores[player] += points[player]
        hands.append({"went_out": went_out, "made": made, "points": points})
        for player in made:
            done[player] += 1
        finishers = [p for p in made if done[p] == len(rules.sequence)]
        if finishers:
            lowest = min(scores[p] for p in finishers)
            best = [p for p in finishers if scores[p] == lowest]
            if len(best) == 1:
                winner = best[0]
            else:
                winner = draw(st.sampled_from(best))
                hands.append({"went_out": winner, "made": [winner], "points": {}, "tiebreak": True})
                tiebreak = best
            break
    data = {
        "rules": rules.profile,
        "options": dict(rules.changed_options()),
        "players": players,
        "dealer": draw(st.sampled_from(players)),
        "hands": hands,
    }
    return data, scores, done, winner, tiebreak


def damaged_file(path) -> None:
    """A games file with garbage written over pages SQLite's quick check reads."""
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE t (x TEXT)")
        conn.executemany("INSERT INTO t VALUES (?)", [("hand " * 50,)] * 2000)
        conn.commit()
    with open(path, "r+b") as file:
        file.seek(4096 * 3)
        file.write(b"\xff" * 4096 * 4)


def finished_game(seed: int, players: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> dict:
    """A game file played to its end: someone goes out each hand, and others make their phase
    now and then, until a player has made all ten (seeded: the same seed, the same game)."""
    return played_to_the_end(random.Random(seed), players, most_left=150)


def played_to_the_end(rng: random.Random, players: Sequence[str], most_left: int) -> dict:
    """A game file whose hands ``rng`` picks until a player has made all ten phases: someone
    goes out each hand, each other player makes their phase 2 times in 5 and then keeps 5 or
    10 points, or else keeps 50 to ``most_left``."""
    done = dict.fromkeys(players, 0)
    hands = []
    while max(done.values()) < 10:
        out = rng.choice(players)
        made = [out] + [p for p in players if p != out and rng.random() < 0.4]
        points = {
            p: rng.choice((5, 10)) if p in made else rng.randint(10, most_left // 5) * 5
            for p in players
            if p != out
        }
        hands.append({"went_out": out, "made": made, "points": points})
        for p in made:
            done[p] += 1
    return {"rules": "official", "players": list(players), "dealer": players[0], "hands": hands}


START = datetime(2020, 1, 1, 19, tzinfo=UTC)  # a backup's first game (then one an hour)


def table_backup(count: int, name: str = "The Smiths", in_progress: bool = False) -> bytes:
    """A table backup (the app's own zip) of ``count`` finished games, built in code; with
    ``in_progress``, each game stops after its first hand."""
    games = []
    for seed in range(count):
        data = finished_game(seed)
        if in_progress:
            data["hands"] = data["hands"][:1]
        day = (START + timedelta(hours=seed)).isoformat()
        games.append(ArchivedGame(load_game(data), day, day))
    return build(TableArchive(name, [], {}, games))


def fill_table(db, table_id: str, count: int, hands: int | None = None) -> list[str]:
    """``count`` copies of one finished game (or its first ``hands`` hands) filed under the
    table, written straight to the store in one transaction (nothing replayed but once); the
    games' ids, the first written first."""
    from scorekeeper import store
    from scorekeeper.rules.gamefile import game_to_json
    from scorekeeper.rules.replay import replay_from
    from scorekeeper.store import tables

    data = finished_game(1)
    if hands is not None:
        data["hands"] = data["hands"][:hands]
    game = load_game(data)
    replayed = replay_from(game)
    state, standings = game_to_json(game), replayed.standings.to_json()
    ids = []
    with store.connection.transaction(db):
        for number in range(count):
            day = (START + timedelta(hours=number)).isoformat()
            stored = store.games.create_game(
                db, state, standings=standings, kept=list(replayed.kept), dates=(day, day)
            )
            ids.append(stored.id)
            tables.file_game(db, table_id, ids[-1], list(game.players), day)
    return ids


FIRST_NAMES = (
    "Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou", "Max",
    "Ned", "Ola", "Pat", "Quin", "Ros", "Sam", "Tess", "Uma", "Vic", "Wes", "Xena", "Yves",
    "Zoe", "Abe", "Bea", "Cal", "Dot",
)  # fmt: skip


def club_names(count: int) -> list[str]:
    """``count`` distinct players' names: "Ann A.", "Bob A.", ... then "Ann B.", ..."""
    return [
        f"{FIRST_NAMES[i % len(FIRST_NAMES)]} {chr(ord('A') + i // len(FIRST_NAMES) % 26)}."
        + (str(i // (26 * len(FIRST_NAMES))) if i >= 26 * len(FIRST_NAMES) else "")
        for i in range(count)
    ]


def club_game(rng: random.Random, players: list[str]) -> dict:
    """A game of 4 to 6 played to its end, with totals one deck can hold at a big table: a
    player who made their phase keeps a card or two, one who did not keeps 50 to 65."""
    return played_to_the_end(rng, players, most_left=65)


def club_backup(games: int = 2000, players: int = 300, bad_last: bool = False) -> bytes:
    """A club's table backup: ``games`` finished games, each of 4 to 6 of ``players`` people
    picked at random (seeded), one a day. With ``bad_last``, its last game has a hand the
    engine refuses, so the whole backup is refused, after every game before it is replayed."""
    rng = random.Random(38)
    names = club_names(players)
    archived = []
    for number in range(games):
        data = club_game(rng, rng.sample(names, rng.randint(4, 6)))
        day = (START + timedelta(days=number)).isoformat()
        archived.append(ArchivedGame(load_game(data), day, day))
    backup = build(TableArchive("The club", [(name, False) for name in names], {}, archived))
    return _bad_last_game(backup, games) if bad_last else backup


def _bad_last_game(backup: bytes, games: int) -> bytes:
    """The backup with its last game's first hand gone out by nobody at the table."""
    last = f"games/{games:03d}.json"
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(backup)) as old, zipfile.ZipFile(out, "w") as new:
        for info in old.infolist():
            data = old.read(info)
            if info.filename == last:
                game = json.loads(data)
                game["hands"][0]["went_out"] = "Nobody here"
                data = json.dumps(game).encode()
            new.writestr(info, data)
    return out.getvalue()
