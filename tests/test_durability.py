"""Durability: the real server killed mid-write loses nothing it confirmed, and racing
phones (separate processes, even separate servers on one database) record a hand once.

Every hand the client was told was saved (201, or 200 for a re-send) must be
there after a restart; nothing half-written may be (each game's row, its
history and its hands agree, and SQLite's integrity check passes).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest
from servers import PLAYERS, Server, call, hand, wait_until

from scorekeeper import store
from scorekeeper.rules.game import Standings
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.replay import replay

pytestmark = pytest.mark.slow  # kills real servers mid-write and counts what survived

HANDS_PER_GAME = 28  # Ann makes her tenth phase in hand 28 and the game is over


def check_database(db: Path) -> dict[str, list[dict]]:
    """Every game's row, history and hands agree; returns each game's hands."""
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        games = {}
        rows = conn.execute("SELECT id, version, state, standings FROM games").fetchall()
        for game_id, version, state, standings in rows:
            changes = conn.execute(
                "SELECT version, action FROM changes WHERE game_id = ? ORDER BY version",
                [game_id],
            ).fetchall()
            assert [v for v, _ in changes] == list(range(1, version + 1)), "a gap in history"
            data = json.loads(state)
            rebuilt = store.history.state_at(store.connection.Database(conn), game_id, version)
            assert rebuilt == data, "the game row and its change log disagree"
            kept = replay(load_game(data))  # the stored game is whole and valid
            assert Standings.from_json(json.loads(standings)) == kept, "stale kept standings"
            recorded = sum(1 for _, action in changes if action == "record")
            assert recorded == len(data["hands"]), "a hand was recorded twice (or lost)"
            games[game_id] = data["hands"]
    return games


@pytest.mark.parametrize("workers", [1, 2])
def test_a_server_killed_while_hands_are_recorded_keeps_every_confirmed_hand(tmp_path, workers):
    db = tmp_path / "games.sqlite3"
    server = Server(db, workers=workers).start()
    rng = random.Random(6)
    games = []
    for _ in range(40):  # more hands than the phones can send before the last kill
        status, created = call(server.base + "/api/games", {"players": PLAYERS})
        assert status == 201
        games.append("/api/games/" + created["hands_url"].split("/api/games/", 1)[1])
    confirmed = dict.fromkeys(games, 0)
    stop = threading.Event()
    errors: list[str] = []

    def phone(mine: list[str]) -> None:
        """Record each game's hands in order; after a failure, send the same hand again."""
        while not stop.is_set():
            pending = [g for g in mine if confirmed[g] < HANDS_PER_GAME]
            if not pending:
                return
            for game in pending:
                number = confirmed[game] + 1
                try:
                    status, _ = call(
                        server.base + game, {"hand_number": number, "hand": hand(number)}, 2
                    )
                except (OSError, http.client.HTTPException, ValueError):
                    time.sleep(0.02)  # the server is down: try again when it is back
                    continue
                if status in (200, 201):
                    confirmed[game] = number
                else:
                    errors.append(f"hand {number}: {status}")

    threads = [threading.Thread(target=phone, args=(games[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    at_kill: list[int] = []
    try:
        for _ in range(4):
            # kill at a moment picked at random, counted in hands confirmed since the last
            # start, not in seconds: a loaded machine restarts slowly, and hands must flow
            kill_at = (at_kill[-1] if at_kill else 0) + rng.randint(5, 40)
            wait_until(lambda n=kill_at: sum(confirmed.values()) >= n, 60, "no hands confirmed")
            at_kill.append(sum(confirmed.values()))
            server.kill()
            server.start()
        wait_until(lambda: sum(confirmed.values()) > at_kill[-1], 60, "nothing after a restart")
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        server.stop()
    assert errors == []
    # hands were being recorded at every kill, and after the last restart
    assert at_kill == sorted(set(at_kill)) and 0 < at_kill[0]
    assert sum(confirmed.values()) > at_kill[-1], f"{at_kill} {sum(confirmed.values())}"
    stored = check_database(db)
    for game in games:
        game_id = game.split("/")[3]
        hands = stored[game_id]
        assert len(hands) >= confirmed[game], "a confirmed hand is missing"
        assert len(hands) <= confirmed[game] + 1  # at most the one in flight at the kill
        assert hands == [hand(n) for n in range(1, len(hands) + 1)]


CLIENT = r"""
import json, sys, urllib.error, urllib.request
plan = json.loads(sys.argv[1])
print("ready", flush=True)
for url, body in plan:
    if not sys.stdin.readline():  # "go": every phone sends its hand at the same moment
        break
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            print(answer.status, flush=True)
    except urllib.error.HTTPError as error:
        print(error.code, flush=True)
"""


def race(processes: list[subprocess.Popen], rounds: int) -> list[list[str]]:
    """Once every phone is ready, let them all send each hand at once; the next hand goes
    when every phone has its answer. Returns each phone's answers."""
    for process in processes:
        assert process.stdout.readline().strip() == "ready"
    answers: list[list[str]] = [[] for _ in processes]
    for _ in range(rounds):
        for process in processes:
            process.stdin.write("go\n")
        for process in processes:
            process.stdin.flush()
        for process, answered in zip(processes, answers, strict=True):
            answered.append(process.stdout.readline().strip())
    return answers


@pytest.mark.parametrize("workers", [1, 2])
def test_racing_phones_on_two_servers_record_each_hand_exactly_once(tmp_path, workers):
    """Six client processes against two servers (of one or two processes each) on one file."""
    db = tmp_path / "games.sqlite3"
    servers = [Server(db, workers=workers).start(), Server(db, workers=workers).start()]
    try:
        status, created = call(servers[0].base + "/api/games", {"players": PLAYERS})
        assert status == 201
        path = "/api/games/" + created["hands_url"].split("/api/games/", 1)[1]
        clients, rounds = 6, 8
        plans: list[list] = [[] for _ in range(clients)]
        for number in range(1, rounds + 1):
            for c in range(clients):
                body = {"hand_number": number, "hand": hand(number)}
                if number % 4 == 0 and c % 2:  # half the phones disagree about this hand
                    body["hand"] = {**hand(number), "points": dict.fromkeys(PLAYERS, 60)}
                    body["hand"]["points"].pop(hand(number)["went_out"])
                plans[c].append([servers[c % 2].base + path, body])
        processes = [
            subprocess.Popen(
                [sys.executable, "-c", CLIENT, json.dumps(plan)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            for plan in plans
        ]
        try:
            answers = race(processes, rounds)
        finally:
            for process in processes:
                process.communicate(timeout=60)  # closes its stdin: it ends
    finally:
        for server in servers:
            server.stop()
    for number in range(rounds):
        statuses = sorted(int(a[number]) for a in answers)
        assert statuses.count(201) == 1, f"hand {number + 1}: {statuses}"
        if (number + 1) % 4:
            assert statuses == [200] * 5 + [201], f"hand {number + 1}: {statuses}"
        else:  # the first to arrive wins; those who disagree with it are told so
            assert set(statuses) <= {200, 201, 409} and 409 in statuses
    stored = check_database(db)
    assert len(stored[created["id"]]) == rounds
    assert os.path.getsize(db) > 0


def test_sigterm_during_a_burst_of_hands_stops_cleanly_and_keeps_every_acknowledged_hand(
    tmp_path,
):
    """`docker stop`, systemd and `kill` send SIGTERM: the server exits 0, soon, and every
    hand a phone was told was saved is there after the restart."""
    db = tmp_path / "games.sqlite3"
    server = Server(db).start()
    games = []
    for _ in range(8):
        status, created = call(server.base + "/api/games", {"players": PLAYERS})
        assert status == 201
        games.append("/api/games/" + created["hands_url"].split("/api/games/", 1)[1])
    confirmed = dict.fromkeys(games, 0)

    def phone(mine: list[str]) -> None:
        """Record hands until the server goes away."""
        while True:
            for game in mine:
                number = confirmed[game] + 1
                if number > HANDS_PER_GAME:
                    return
                try:
                    status, _ = call(
                        server.base + game, {"hand_number": number, "hand": hand(number)}, 10
                    )
                except (OSError, http.client.HTTPException, ValueError):
                    return  # stopped: what was acknowledged before is what counts
                assert status in (200, 201)
                confirmed[game] = number

    threads = [threading.Thread(target=phone, args=(games[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    try:
        # a burst is under way
        wait_until(lambda: sum(confirmed.values()) >= 24, 60, "no hands were recorded")
        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)
        code = server.process.wait(timeout=30)
    finally:
        for thread in threads:
            thread.join(timeout=60)
        server.stop()
    assert code == 0, f"SIGTERM should stop the server cleanly, not with {code}"
    at_stop = dict(confirmed)
    server.start()
    try:
        for game in games:
            status, answer = call(server.base + "/api/games/" + game.split("/")[3])
            assert status == 200
            assert len(answer["game"]["hands"]) >= at_stop[game], "an acknowledged hand is lost"
    finally:
        server.stop()
    check_database(db)
