"""Shared fixtures; test modules import the shared constants and helpers from tests/helpers.py."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "servers" / "core"))  # tiny.py, the small test app
sys.path.append(str(Path(__file__).resolve().parent.parent))  # the packages, not tests/servers, also under bare `pytest`


@pytest.fixture
async def backend():
    """A fresh in-process backend (the four apps in this process, real SQLite), closed after the test."""
    from orchestrator.backends.inprocess import InProcessBackend

    async with InProcessBackend() as b:
        yield b
