"""Word of a commit to the other processes that serve the same database file.

``serve`` runs a process per core (serve/workers.py), each with pages of its own waiting for
their games (live/in_process.py); a commit in one must wake the pages of its game in the others.
Each process that has pages waiting keeps a Unix datagram socket in a folder named after
the database file (in the system's temporary folder, private to its user), and every
commit, in any process, sends one byte to each socket there but its own. The receiver
then reads what changed, as for its own commits (store/games_file.py).

So an idle server wakes for nothing: before this, each process looked at SQLite's
``data_version`` once a second, about a fifth of an idle table's CPU. Where there are no
such sockets (Windows), or the folder is not the user's alone, a process hears nothing
and store/games_file.py looks every second as before. A socket left by a process that died is
removed by the first commit that finds nobody behind it, and, at start, by ``clear_left``:
``serve`` clears every folder of its user's, a process that starts to listen its own.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import itertools
import os
import re
import socket
import stat
import tempfile
from pathlib import Path

WORD = b"!"
_ears = itertools.count(1)  # the sockets of one process: one per database file it serves
_EAR_NAME = re.compile(r"([1-9][0-9]{0,8})\.[0-9]{1,10}")  # <pid>.<n>, as ``listen`` names them


class Neighbours:
    """The other processes serving one database file, as this one hears and tells them."""

    def __init__(self, database: str) -> None:
        self._place = _place_for(database)
        self._own: Path | None = None
        self._ear: socket.socket | None = None
        self._mouth: socket.socket | None = None

    def listen(self) -> bool:
        """Start hearing other processes' commits; False if this system cannot."""
        if self._ear is not None:
            return True
        try:
            ear = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        except OSError:
            return False
        name = f"{os.getpid()}.{next(_ears)}"  # short: macOS allows 104 bytes for the path
        _clear_sockets(self._place)  # what processes before this one left (the folder stays)
        for _try in range(3):
            folder = _ours(self._place, create=True)
            if folder is None:
                break
            own = folder / name
            try:
                ear.bind(str(own))
            except FileNotFoundError:
                continue  # the last process to leave removed the folder meanwhile
            except OSError as error:
                if error.errno != errno.EADDRINUSE:
                    break
                with contextlib.suppress(OSError):
                    own.unlink()  # left by a process of the same number that died
                continue
            self._own, self._ear = own, ear
            return True
        ear.close()
        return False

    def hear(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for word of a commit; True if some came (all of
        it is taken at once). Without an ear (``listen`` False), just waits."""
        ear = self._ear
        if ear is None:
            return False
        try:
            ear.settimeout(timeout)
            ear.recv(16)
            ear.settimeout(0)
            while True:
                ear.recv(16)
        except (BlockingIOError, InterruptedError):
            return True
        except (TimeoutError, OSError):
            return False

    def tell(self) -> None:
        """Tell every other process serving this file that a commit happened. Never waits:
        a process whose queue is full has word already."""
        folder = _ours(self._place, create=False)
        if folder is None:
            return  # nobody listens yet
        try:
            mouth = self._mouth_socket()
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in entries:
            if self._own is not None and entry.path == str(self._own):
                continue
            try:
                mouth.sendto(WORD, entry.path)
            except (ConnectionRefusedError, FileNotFoundError):
                with contextlib.suppress(OSError):  # nobody behind it: a process that died
                    os.unlink(entry.path)
            except OSError:
                pass  # its queue is full (it has word already), or not a socket of ours

    def wake(self) -> None:
        """Wake this process's own ``hear`` (it is stopping)."""
        if self._own is not None:
            with contextlib.suppress(OSError):
                self._mouth_socket().sendto(WORD, str(self._own))

    def _mouth_socket(self) -> socket.socket:
        if self._mouth is None:
            self._mouth = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._mouth.setblocking(False)  # never wait for a full queue
        return self._mouth

    def close(self) -> None:
        for sock in (self._ear, self._mouth):
            if sock is not None:
                sock.close()
        if self._own is not None:
            with contextlib.suppress(OSError):
                self._own.unlink()
                self._own.parent.rmdir()  # the last to leave: nothing left in the folder
        self._ear = self._mouth = self._own = None


def clear_left(place: Path | None = None) -> int:
    """Remove what processes that no longer run left in the folder at ``place`` (None:
    every folder of this user's in the temporary folder): each socket whose process is
    gone and that nobody is bound to, then the folder if that leaves it empty. A live
    process's socket is never touched: its process runs, or (its number seen from another
    PID namespace) a probe finds it bound. How many sockets went."""
    if place is None:
        if not hasattr(os, "getuid"):
            return 0
        try:
            found = list(Path(tempfile.gettempdir()).glob(f"{_PREFIX}{os.getuid()}-*"))
        except OSError:
            return 0  # a temporary folder this user cannot list: nothing of ours to clear
        return sum(clear_left(folder) for folder in found)
    gone = _clear_sockets(place)
    if _ours(place, create=False) is not None:
        with contextlib.suppress(OSError):
            place.rmdir()  # only if empty: a process listening keeps its socket in it
    return gone


def _clear_sockets(place: Path | None) -> int:
    folder = _ours(place, create=False)
    if folder is None:
        return 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    gone = 0
    for entry in entries:
        if _left(entry):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                gone += 1
    return gone


def _left(entry: os.DirEntry[str]) -> bool:
    """A socket of ours whose process no longer runs, with nobody bound to it."""
    named = _EAR_NAME.fullmatch(entry.name)
    if named is None or int(named.group(1)) == os.getpid():
        return False
    try:
        if not stat.S_ISSOCK(entry.stat(follow_symlinks=False).st_mode):
            return False
        os.kill(int(named.group(1)), 0)  # signal 0: only asks whether it runs
        return False  # its process runs (or one of another user's has its number now)
    except ProcessLookupError:
        pass
    except (OSError, OverflowError):
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(entry.path)  # sends nothing: a live ear is not woken
        except ConnectionRefusedError:
            return True
        except OSError:
            return False
    return False  # bound: a process of another PID namespace sharing the folder


_PREFIX = "scorekeeper-"


def _place_for(database: str) -> Path | None:
    """Where the processes serving ``database`` keep their sockets; None where there are no
    Unix datagram sockets (Windows) or no file."""
    if not hasattr(socket, "AF_UNIX") or not hasattr(os, "getuid") or database == ":memory:":
        return None
    name = hashlib.blake2b(os.path.realpath(database).encode(), digest_size=6).hexdigest()
    return Path(tempfile.gettempdir()) / f"{_PREFIX}{os.getuid()}-{name}"


def _ours(place: Path | None, *, create: bool) -> Path | None:
    """The folder at ``place`` (made if ``create``) if it is this user's alone, else None."""
    if place is None:
        return None
    try:
        if create:
            place.mkdir(mode=0o700, exist_ok=True)
        info = place.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None  # not a folder, or one others could read or write
    return place
