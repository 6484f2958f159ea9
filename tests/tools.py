"""Optional tools a test needs: Debian programs, Litestream, chromium, caddy, buildah.

Outside CI a missing tool skips the test, saying what is missing and how to get it; in
CI (CI=true) it fails the test, for CI must run every test.
"""

from __future__ import annotations

import os
import shutil
from typing import NoReturn

import pytest


def missing(reason: str) -> NoReturn:
    """Skip, saying `reason`; in CI, fail with it."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run this test, but {reason}")
    pytest.skip(reason)


def require(*programs: str) -> None:
    """Every one of `programs` on PATH, or the test skips (in CI: fails) naming the absent."""
    absent = [program for program in programs if not shutil.which(program)]
    if absent:
        missing(f"{', '.join(absent)} not installed (./scripts/test installs them)")
