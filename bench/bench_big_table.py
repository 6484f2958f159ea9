"""A club's big table on a one-worker server: what its pages and its backup cost.

Not a test: it prints figures (docs/benchmarks.md has them). A real `scorekeeper serve`
(one process, gevent) imports a club's backup of 2,000 games among 300 players
(tests/games.py ``club_backup``), then the server's CPU time (from /proc) is read
around each request:

- a refused import: the same backup with a bad last game, answered 422, and again once the
  day's allowance is spent (its games were counted: 429);
- the statistics for each new version of the table (a game started there), their page's
  size, the same figures in another language, and a repeat view;
- the backup zip;
- a Save at another game while another table is imported (refused, then accepted) and its
  statistics and zip are first worked out: how long it waited (the server is one
  process: long work must let others run).

    .venv/bin/python bench/bench_big_table.py               # about three minutes
    .venv/bin/python bench/bench_big_table.py --games 500   # a smaller club
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from games import club_backup  # noqa: E402
from servers import PLAYERS, Phone, Server, call, hand  # noqa: E402

VERSIONS = 3  # new versions of the table measured


class Client(Phone):
    """A phone that reads pages too: status, body and headers, redirects not followed."""

    def __init__(self, base: str, language: str = "en") -> None:
        super().__init__(base)
        self.opener.addheaders = [("Accept-Language", language)]

    def get(self, path: str) -> tuple[int, bytes]:
        try:
            with self.opener.open(self.base + path, timeout=300) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def import_table(self, backup: bytes) -> tuple[int, str]:
        """The answer's status and, for a table made, its path."""
        boundary = "bench-boundary"
        body = b"".join(
            [
                f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
                f"{self.token()}\r\n".encode(),
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                f'filename="t.zip"\r\nContent-Type: application/zip\r\n\r\n'.encode(),
                backup,
                f"\r\n--{boundary}--\r\n".encode(),
            ]
        )
        request = urllib.request.Request(
            self.base + "/tables/import",
            data=body,
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        try:
            with self.opener.open(request, timeout=300) as answer:
                return answer.status, ""
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Location", "")

    def new_game_at(self, table_id: str, players: list[str]) -> int:
        """Start a game at the table: a new version of it."""
        form = {"csrf_token": self.token(), "table": table_id, "profile": "official"}
        form.update({f"player-{i}": name for i, name in enumerate(players)})
        form["dealer"] = "0"
        data = urllib.parse.urlencode(form).encode()
        try:
            with self.opener.open(self.base + "/new", data=data, timeout=60) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code


def cpu_seconds(pid: int) -> float:
    """The server's CPU time so far (every thread), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def costs(pid: int, work) -> tuple[float, object]:
    """Server CPU seconds spent while ``work()`` runs, and what it returned."""
    before = cpu_seconds(pid)
    found = work()
    return cpu_seconds(pid) - before, found


class Saves:
    """A scorekeeper saving hands at another game, one after another, while work goes on."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.waits: list[float] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run)
        self.url = self.new_game()

    def new_game(self) -> str:
        status, created = call(self.base + "/api/games", {"players": PLAYERS}, 60)
        assert status == 201, created
        return f"{self.base}/api/games/{created['id']}/{created['key']}/hands"

    def run(self) -> None:
        number = 1
        while not self.stop.is_set():
            if number == 20:  # before anyone has made every phase: another game
                self.url, number = self.new_game(), 1
            start = time.perf_counter()
            status, answer = call(self.url, {"hand_number": number, "hand": hand(number)}, 60)
            self.waits.append(time.perf_counter() - start)
            assert status == 201, answer
            number += 1
            time.sleep(0.05)

    def __enter__(self) -> Saves:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=300)
    args = parser.parse_args()
    backup = club_backup(args.games, args.players)
    refused = club_backup(args.games, args.players, bad_last=True)
    print(f"{args.games} games among {args.players} players; backup {len(backup) // 1024} KB")
    with tempfile.TemporaryDirectory() as tmp:
        env = {  # three imports and a half: the fourth is refused for the day's allowance
            "SCOREKEEPER_RATE_LIMIT_IMPORTED_GAMES": f"{args.games * 7 // 2} per day",
            "SCOREKEEPER_MAX_TABLE_BYTES": str(1024**3),
        }
        server = Server(Path(tmp) / "games.sqlite3", env=env).start()
        try:
            run(server, backup, refused)
        finally:
            server.stop()


def run(server: Server, backup: bytes, refused: bytes) -> None:
    assert server.process is not None
    pid = server.process.pid
    english, german = Client(server.base), Client(server.base, "de")
    with Saves(server.base) as idle:
        time.sleep(3)
    print(
        f"a Save, nothing beside:    longest wait {max(idle.waits):5.2f} s, median "
        f"{statistics.median(idle.waits) * 1000:4.0f} ms, of {len(idle.waits)} Saves"
    )
    seconds, (status, _where) = costs(pid, lambda: english.import_table(refused))
    print(f"refused import ({status}):   {seconds:6.2f} s of server CPU")
    seconds, (status, where) = costs(pid, lambda: english.import_table(backup))
    assert status == 303, status
    table = where.rsplit("/", 1)[1]
    print(f"import ({status}):           {seconds:6.2f} s of server CPU")
    stats = f"/t/{table}/stats"
    seconds, (status, page) = costs(pid, lambda: english.get(stats))
    assert status == 200, status
    print(f"statistics, first view:    {seconds:6.2f} s, page {len(page) / 1024:7.1f} KB")
    per_version, other_language, again = [], [], []
    for number in range(VERSIONS):
        assert english.new_game_at(table, ["Ann A.", "Bob A.", f"Guest {number}"]) in (302, 303)
        seconds, (status, page) = costs(pid, lambda: english.get(stats))
        per_version.append(seconds)
        other_language.append(costs(pid, lambda: german.get(stats))[0])
        again.append(costs(pid, lambda: english.get(stats))[0])
    print(
        f"statistics, new version:   {statistics.median(per_version) * 1000:6.0f} ms "
        f"(median of {VERSIONS}), page {len(page) / 1024:7.1f} KB"
    )
    print(f"  in another language:     {statistics.median(other_language) * 1000:6.0f} ms")
    print(f"  the same page again:     {statistics.median(again) * 1000:6.0f} ms")
    seconds, (status, zipped) = costs(pid, lambda: english.get(f"/t/{table}/export.zip"))
    assert status == 200, status
    print(f"backup zip:                {seconds:6.2f} s, {len(zipped) / 1024:7.1f} KB")
    # the same long pieces again, for another table, with a scorekeeper saving meanwhile
    with Saves(server.base) as saves:
        status, where = english.import_table(backup)
        other = where.rsplit("/", 1)[1]
        english.get(f"/t/{other}/stats")
        english.get(f"/t/{other}/export.zip")
    print(
        f"a Save beside them:        longest wait {max(saves.waits):5.2f} s, median "
        f"{statistics.median(saves.waits) * 1000:4.0f} ms, of {len(saves.waits)} Saves"
    )
    seconds, (status, _where) = costs(pid, lambda: english.import_table(refused))
    print(f"refused import again ({status}): {seconds * 1000:5.0f} ms of server CPU")


if __name__ == "__main__":
    main()
