"""Shared fixtures; test modules import the shared constants and helpers from tests/helpers.py."""

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "servers" / "core"))  # tiny.py, the small test app
# The packages themselves, not tests/servers, also under a bare `pytest` (which does not put the cwd on the path).
sys.path.append(str(Path(__file__).resolve().parent.parent))

# Seeded image files go to a folder of this test session's own (each xdist worker has one), never to the user's
# cache: a test of what is built, loaded or parked must not find images earlier runs or benchmarks left there.
_IMAGES = tempfile.mkdtemp(prefix="clawgym-test-images-")
os.environ["CLAWGYM_IMAGES"] = _IMAGES
# This machine's record key and its ledger ($XDG_DATA_HOME/clawgym) are this session's own too. A run whose agent
# has no isolation retires the key and marks every key file made while it ran as exposed: with one key folder for
# all xdist workers, a record another worker sealed meanwhile would read as untrusted.
_DATA = tempfile.mkdtemp(prefix="clawgym-test-data-")
os.environ["XDG_DATA_HOME"] = _DATA


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_IMAGES, ignore_errors=True)
    shutil.rmtree(_DATA, ignore_errors=True)


@pytest.fixture
async def backend():
    """A fresh in-process backend (the four apps in this process, real SQLite), closed after the test."""
    from orchestrator.backends.inprocess import InProcessBackend

    async with InProcessBackend() as b:
        yield b
