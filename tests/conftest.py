"""Shared fixtures; test modules import the shared constants and helpers from tests/helpers.py."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "servers" / "core"))  # tiny.py, the small test app
# The packages themselves, not tests/servers, also under a bare `pytest` (which does not put the cwd on the path).
sys.path.append(str(Path(__file__).resolve().parent.parent))


@pytest.fixture
async def backend():
    """A fresh in-process backend (the four apps in this process, real SQLite), closed after the test."""
    from orchestrator.backends.inprocess import InProcessBackend

    async with InProcessBackend() as b:
        yield b
