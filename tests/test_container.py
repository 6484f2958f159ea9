"""The container image, built from the Containerfile and run for real.

No Docker daemon runs here and `podman run` is refused, so the test does what a
container engine does, step by step: buildah builds the image (chroot isolation)
on a Debian base made with debootstrap (no base image can be pulled) from a
wheelhouse filled on this machine with `pip wheel` (the build reaches no index);
`podman image mount` gives the image's files, read-only; and the image's own
command, user, environment and working folder run in a chroot, in a mount and PID
namespace of their own (so the server is PID 1, as in a container), with only
`/data` bound to a folder here. The host's network is shared, so the test sets
SCOREKEEPER_PORT to a free port.

It needs root, buildah, podman and debootstrap (`./scripts/setup --test` installs
them): outside CI it skips without them, in CI it fails. The Debian base and the
wheelhouse are kept in `.cache/container/` (ignored by git) for the next run.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from servers import PLAYERS, call, free_port, hand
from tools import missing

pytestmark = pytest.mark.slow  # builds the container image with buildah and runs it

SOURCE = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("SCOREKEEPER_TEST_CACHE", SOURCE / ".cache")) / "container"
SUITE = "bookworm"  # Debian 12: python3 is 3.11, as the app needs
BASE = "localhost/scorekeeper-test-base:" + SUITE
IMAGE = "localhost/phase10-scorekeeper:test"
TOOLS = ("buildah", "podman", "debootstrap", "unshare", "chroot")


def missing_tools() -> str | None:
    if os.geteuid() != 0:
        return "the container test needs root (image mounts, chroot, namespaces)"
    absent = [tool for tool in TOOLS if not shutil.which(tool)]
    if absent:
        return f"{', '.join(absent)} not installed (./scripts/setup --test installs them)"
    return None


@pytest.fixture(scope="module")
def engine() -> list[str]:
    """The storage options buildah and podman share: images kept under .cache/ (podman
    remembers the runroot it first saw, so that stays the same too)."""
    reason = missing_tools()
    if reason:
        missing(reason)
    return ["--root", str(CACHE / "storage"), "--runroot", str(CACHE / "run")]


def run(*command: str | Path, **options) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [str(part) for part in command], capture_output=True, text=True, **options
    )
    if done.returncode != 0:
        pytest.fail(
            f"{command[0]} failed ({done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    return done


def debian_base(engine: list[str], scratch: Path) -> str:
    """A minimal Debian with python3 and its venv module, made once by debootstrap."""
    archive = CACHE / f"debian-{SUITE}-minbase.tar"
    if not archive.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        root = scratch / "rootfs"
        run(
            "debootstrap",
            "--variant=minbase",
            "--include=python3,python3-venv",
            SUITE,
            root,
            mirror(),
        )
        partial = archive.with_suffix(".partial")
        with tarfile.open(partial, "w") as tar:
            tar.add(root, arcname=".")
        partial.rename(archive)
        shutil.rmtree(root, ignore_errors=True)
    if subprocess.run(["podman", *engine, "image", "exists", BASE]).returncode != 0:
        run("podman", *engine, "import", archive, BASE)
    return BASE


def mirror() -> str:
    """The Debian mirror apt already uses here (debootstrap's default otherwise)."""
    for sources in Path("/etc/apt").glob("sources.list.d/*.sources"):
        for line in sources.read_text().splitlines():
            if line.startswith("URIs:") and "debian" in line and "security" not in line:
                return line.split()[1]
    return "http://deb.debian.org/debian"


def wheelhouse() -> Path:
    """Every wheel the image installs but the app's own, fetched here with pip wheel from the
    same lock files the image installs from (hashes checked)."""
    locks = [SOURCE / "requirements" / name for name in ("app.lock", "build.lock")]
    digest = hashlib.sha256(b"".join(lock.read_bytes() for lock in locks)).hexdigest()[:12]
    folder = CACHE / f"wheelhouse-{digest}"
    if not folder.exists():
        partial = folder.with_suffix(".partial")
        shutil.rmtree(partial, ignore_errors=True)
        requirements = [arg for lock in locks for arg in ("-r", str(lock))]
        run(
            sys.executable, "-m", "pip", "wheel", "-q", "--require-hashes", "--no-deps",
            "--wheel-dir", partial, *requirements,
        )  # fmt: skip
        partial.rename(folder)
    return folder


def build_context(folder: Path) -> Path:
    """The checkout's files (as git sees them, uncommitted ones too) and the wheelhouse."""
    listed = run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=SOURCE)
    for name in filter(None, listed.stdout.split("\0")):
        source = SOURCE / name
        if source.is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / name)
    shutil.copytree(wheelhouse(), folder / "wheelhouse")
    return folder


@pytest.fixture(scope="module")
def image(engine, tmp_path_factory) -> Iterator[dict]:
    """The image built from the Containerfile: its configuration and its files' root."""
    base = debian_base(engine, tmp_path_factory.mktemp("debootstrap"))
    context = build_context(tmp_path_factory.mktemp("context"))
    run(
        "buildah", *engine, "bud", "--isolation", "chroot", "--format", "docker",
        "--build-arg", f"BASE={base}", "--build-arg", "WHEELHOUSE=wheelhouse",
        "--tag", IMAGE, "--file", context / "Containerfile", context,
    )  # fmt: skip
    shutil.rmtree(context)
    (inspected,) = json.loads(run("podman", *engine, "image", "inspect", IMAGE).stdout)
    root = Path(run("podman", *engine, "image", "mount", IMAGE).stdout.strip())
    try:
        yield {**inspected, "root": root}
    finally:
        subprocess.run(["podman", *engine, "image", "unmount", IMAGE], capture_output=True)
        subprocess.run(["podman", *engine, "rmi", "--force", IMAGE], capture_output=True)


def user_ids(root: Path, user: str) -> tuple[int, int]:
    """The uid and gid of the image's USER, from the image's own /etc/passwd."""
    for line in (root / "etc" / "passwd").read_text().splitlines():
        name, _, uid, gid, *_ = line.split(":")
        if user in (name, uid):
            return int(uid), int(gid)
    raise AssertionError(f"the image has no user {user}")


class Container:
    """The image's command as a container engine runs it: PID 1 in its own PID and mount
    namespaces, chrooted into the read-only image, as its user, with its environment and
    working folder, and the folder ``data`` as the volume /data."""

    def __init__(self, image: dict, data: Path, env: dict[str, str], log: Path) -> None:
        self.image, self.data, self.log = image, data, log
        config = image["Config"]
        self.env = dict(item.split("=", 1) for item in config["Env"]) | env
        self.uid, self.gid = user_ids(image["root"], config["User"])
        self.process: subprocess.Popen | None = None

    def inside(self, command: list[str], pid_namespace: bool) -> list[str]:
        root = self.image["root"]
        mounts = (
            f"mount --bind {self.data} {root}/data && mount -t proc proc {root}/proc && "
            f'mount --rbind /dev {root}/dev && exec "$@"'
        )
        chrooted = [
            "chroot", f"--userspec={self.uid}:{self.gid}", f"--groups={self.gid}", str(root),
            "/usr/bin/env", "-i", "-C", self.image["Config"]["WorkingDir"],
            *(f"{key}={value}" for key, value in self.env.items()), *command,
        ]  # fmt: skip
        namespaces = ["--mount", "--propagation", "private"]
        if pid_namespace:
            namespaces += ["--pid", "--fork", "--kill-child"]
        return ["unshare", *namespaces, "sh", "-c", mounts, "container", *chrooted]

    def start(self) -> Container:
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                self.inside(self.image["Config"]["Cmd"], pid_namespace=True),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        while self.health() is None:
            assert self.process.poll() is None, f"the container exited: {self.log.read_text()}"
            assert time.monotonic() < deadline, f"no answer: {self.log.read_text()}"
            time.sleep(0.1)
        return self

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.env['SCOREKEEPER_PORT']}"

    def health(self) -> tuple[int, dict] | None:
        try:
            with urllib.request.urlopen(self.base + "/healthz", timeout=5) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())
        except OSError:
            return None

    def first_process(self) -> int:
        """The host's id of the container's PID 1 (unshare's only child)."""
        assert self.process is not None
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        (pid,) = children.read_text().split()
        return int(pid)

    def healthcheck(self) -> int:
        """Run the image's HEALTHCHECK command inside, as the engine would."""
        kind, *command = self.image["Healthcheck"]["Test"]
        assert kind == "CMD"
        return subprocess.run(self.inside(command, pid_namespace=False), timeout=60).returncode

    def stop(self) -> int:
        """`docker stop`: SIGTERM to PID 1, then wait for it to end."""
        assert self.process is not None
        os.kill(self.first_process(), signal.SIGTERM)
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            pytest.fail("the container did not stop on SIGTERM")


def process_ids(pid: int) -> tuple[list[str], list[str]]:
    status = dict(
        line.split(":\t", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return status["Uid"].split(), status["Gid"].split()


def test_the_image_runs_unprivileged_keeps_a_hand_across_a_restart_and_stops_on_sigterm(
    image, tmp_path
):
    config = image["Config"]
    assert config["User"] not in ("", "root", "0")
    assert "/data" in config["Volumes"] and image["Healthcheck"]["Test"][0] == "CMD"
    data, log = tmp_path / "data", tmp_path / "container.log"
    data.mkdir()
    env = {"SCOREKEEPER_PORT": str(free_port()), "SCOREKEEPER_REPLICATE": "/data/replica"}
    container = Container(image, data, env, log)
    os.chown(data, container.uid, container.gid)  # as a named volume takes the image's owner

    container.start()
    status, health = container.health()
    assert status == 200 and health["status"] == "ok" and health["version"] != "unknown"
    assert container.healthcheck() == 0
    uids, gids = process_ids(container.first_process())
    assert set(uids) == {str(container.uid)} and set(gids) == {str(container.gid)}
    assert container.uid != 0
    status, created = call(container.base + "/api/games", {"players": PLAYERS})
    assert status == 201
    status, _ = call(created["hands_url"].replace(created["hands_url"].split("/api/")[0],
                     container.base), {"hand_number": 1, "hand": hand(1)})  # fmt: skip
    assert status == 201
    deadline = time.monotonic() + 60
    while not any((data / "replica").rglob("*")):  # Litestream copies about once a second
        assert time.monotonic() < deadline, f"no replica: {log.read_text()}"
        time.sleep(0.1)
    assert container.stop() == 0

    # Everything it wrote is in /data, and its own: the image's root is read-only.
    with pytest.raises(OSError):
        (image["root"] / "tmp" / "written").write_text("")
    written = {path.relative_to(data).parts[0] for path in data.rglob("*")}
    assert {"scorekeeper.sqlite3", "secret_key", "replica"} <= written
    assert {path.stat().st_uid for path in data.rglob("*")} == {container.uid}

    again = Container(image, data, env, log).start()
    try:
        status, game = call(f"{again.base}/api/games/{created['id']}")
        assert status == 200 and game["game"]["hands"] == [hand(1)]
    finally:
        assert again.stop() == 0
    output = log.read_text()
    assert "Data folder: /data" in output and "Ctrl+C stops the server." in output
    assert "SCOREKEEPER_PUBLIC_URL" in output  # no public address was set: it says how
    assert "Traceback" not in output and "healthz" not in output  # health checks go unlogged


def test_the_containerfile_has_no_architecture_specific_step():
    text = (SOURCE / "Containerfile").read_text().lower()
    for word in ("amd64", "x86_64", "aarch64", "arm64", "--platform", "gcc", "build-essential"):
        lines = [line for line in text.splitlines() if word in line and not line.startswith("#")]
        assert not lines, lines
    # Debian's packages are fonts only (names in every script): nothing compiled in the image.
    installed = re.findall(r"apt-get install[^;]*", text.replace("\\\n", " "))
    assert installed and all(
        word.startswith(("fonts-", "-", ">")) for line in installed for word in line.split()[2:]
    ), installed


def test_compose_runs_the_image_with_its_volume_port_and_settings():
    service = yaml.safe_load((SOURCE / "compose.yaml").read_text())["services"]["scorekeeper"]
    assert service["build"] == "."
    # the image's EXPOSE and serve's default port, on every interface unless told otherwise
    assert service["ports"] == ["${SCOREKEEPER_PUBLISH:-5010}:5010"]
    assert [volume.split(":")[1] for volume in service["volumes"]] == ["/data"]
    settings = {"SCOREKEEPER_PUBLIC_URL", "SCOREKEEPER_TRUST_PROXY", "SCOREKEEPER_REPLICATE"}
    assert settings <= service["environment"].keys()
    assert service["read_only"] is True  # as the container test runs the image's root
