"""What does a season's page cost, worked out from its games on each new version? Prints
the figures.

Run: .venv/bin/python bench/bench_season.py [--nights 12] [--rounds 3] [--players 32]

A club meeting weekly for a season of three months has a dozen nights of a few rounds at
eight tables. The season's board and ratings are a read model (reports/season_view.py):
nothing is stored, everything is worked out from the games. This says what that costs:
the first reading (every game read), a hand saved tonight (one game read again, the
ratings and the board worked out again), a reading kept for the same version, the
ratings alone, and the season's page as a phone gets it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper import actions, create_app, store  # noqa: E402
from scorekeeper.reports import current_game, night_view, season_view, table_figures  # noqa: E402
from scorekeeper.reports.season_ratings import rate  # noqa: E402
from scorekeeper.rules.game import HandRecord  # noqa: E402
from scorekeeper.rules.nights import Mode, Scheme  # noqa: E402
from scorekeeper.store import nights, seasons  # noqa: E402


def play(db, game_id: str) -> None:
    """Ten hands: seat 1 goes out each time, seat n + 1 holds 50 + 10 n."""
    players = current_game.load(db, game_id).game.players
    for number in range(1, 11):
        points = {name: 50 + 10 * seat for seat, name in enumerate(players) if seat}
        hand = HandRecord(players[0], (players[0],), points)
        assert isinstance(actions.hands.record(db, game_id, number, hand), actions.results.Saved)


def build(db, table_id: str, nights_count: int, rounds: int, players: int) -> seasons.Season:
    season = actions.seasons.create_season(
        db, table_id, name="Bench", starts="2026-01-01", ends="2026-12-31", scheme=Scheme.PLACEMENT
    )
    assert isinstance(season, seasons.Season)
    names = [f"P{i:02}" for i in range(players)]
    for _ in range(nights_count):
        night = actions.nights.create_night(
            db,
            table_id,
            name="Night",
            players=names,
            rounds=rounds,
            profile="ten-hands",
            mode=Mode.NEW_OPPONENTS,
            scheme=Scheme.PLACEMENT,
        )
        assert isinstance(night, nights.Night)
        actions.seasons.put_night(db, table_id, night.id, season.id)
        for number in range(1, rounds + 1):
            if number > 1:
                actions.nights.seat_next(db, night)
            actions.nights.start_round(db, night)
            now = night_view.night_now(db, night)
            for (at, _table), game in now.games.items():
                if at == number:
                    play(db, game.stored.id)
    return season


def timed(work, repeat: int = 5) -> float:
    """The median of ``repeat`` runs, in milliseconds."""
    found = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        found.append((time.perf_counter() - started) * 1000)
    return statistics.median(found)


def forget() -> None:
    """Nothing kept in this process: every game read from the file again."""
    season_view._readings.clear()
    table_figures._games.clear()
    current_game._recent.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, default=32)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.sqlite3"
        app = create_app({"DATABASE": str(path), "SECRET_KEY": "bench", "TESTING": True})
        db = store.connection.connect(path)
        table = actions.tables.create_table(db, "Club")
        started = time.perf_counter()
        season = build(db, table.id, args.nights, args.rounds, args.players)
        made = time.perf_counter() - started
        games = seasons.games(db, season.id)
        print(
            f"season: {args.nights} nights x {args.rounds} rounds, {args.players} players, "
            f"{len(games)} games of ten hands (made in {made:.0f} s)"
        )
        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")

        def cold() -> None:
            forget()
            season_view.season_now(db, season)

        print(f"first reading, every game read:        {timed(cold):8.1f} ms")
        season_view.season_now(db, season)
        kept = timed(lambda: season_view.season_now(db, season), 50)
        print(f"the same version again (kept):          {kept:8.2f} ms")
        last = games[-1].game_id

        def correct_a_hand() -> None:
            current = current_game.load(db, last)
            hand = current.game.hands[-1]
            points = {name: value + 10 for name, value in hand.points.items()}
            changed = HandRecord(hand.went_out, hand.made, points)
            actions.hands.correct(db, last, current.version, len(current.game.hands), changed)

        after = []
        for _ in range(5):
            correct_a_hand()  # a hand corrected tonight: one game's new version
            after.append(timed(lambda: season_view.season_now(db, season), 1))
        print(f"after a hand tonight, read again:       {statistics.median(after):8.1f} ms")
        now = season_view.season_now(db, season)
        every = [game for night in now.nights for game in night.played.games]
        print(
            f"the ratings alone ({len(every)} games):          {timed(lambda: rate(every)):8.1f} ms"
        )
        client = app.test_client()
        link = f"/s/{season.view_id}"
        forget()
        first = timed(lambda: client.get(link), 1)
        again = timed(lambda: client.get(link), 20)
        size = len(client.get(link).data)
        print(
            f"the season's page, first / again:       {first:8.1f} / {again:.1f} ms, {size} bytes"
        )
        store.connection.close_all()


if __name__ == "__main__":
    main()
