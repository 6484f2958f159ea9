"""The lock files: every install reads them, so they must hold every package, pinned."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

SOURCE = Path(__file__).resolve().parent.parent
LOCKS = SOURCE / "requirements"
PINNED = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^ ;\\]+)(?: ; ([^\\]+?))? *\\?$")


def locked(name: str) -> dict[str, str]:
    """Package -> version of one lock file (markers dropped: one version per package here)."""
    found: dict[str, str] = {}
    lines = (LOCKS / name).read_text().splitlines()
    for number, line in enumerate(lines):
        if not line or line[0] in "# ":
            continue
        match = PINNED.match(line)
        assert match, f"{name}: not pinned with ==: {line!r}"
        if name.endswith(".lock"):
            assert lines[number + 1].strip().startswith("--hash=sha256:"), f"{name}: {line!r}"
        found.setdefault(canonicalize_name(match[1]), match[2])
    return found


def declared() -> list[Requirement]:
    project = tomllib.loads((SOURCE / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"]]
    for extra in ("test", "replicate"):
        wanted += project["optional-dependencies"][extra]
    return [Requirement(text) for text in wanted]


def test_the_test_lock_holds_every_declared_dependency_within_its_range():
    lock = locked("test.lock")
    for requirement in declared():
        version = lock.get(canonicalize_name(requirement.name))
        assert version is not None, f"{requirement.name} is not in requirements/test.lock"
        assert requirement.specifier.contains(version, prereleases=True), (requirement, version)


def test_pipx_constraints_are_the_app_lock_without_hashes():
    assert locked("pipx-constraints.txt") == locked("app.lock")


def test_the_app_lock_is_the_test_lock_for_every_package_they_share():
    app, test = locked("app.lock"), locked("test.lock")
    assert {name: test[name] for name in app if name in test} == app


@pytest.mark.parametrize("name", ["flask", "babel", "reportlab", "gevent", "pytest", "playwright"])
def test_this_environment_runs_the_locked_versions(name):
    """scripts/setup installs from the lock: what the tests import is what the lock says."""
    assert metadata.version(name) == locked("test.lock")[name]
