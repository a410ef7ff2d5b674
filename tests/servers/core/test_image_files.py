"""Seeded images as files (`CLAWGYM_IMAGES`): a world one process built is loaded by another process instead of
built again, and a sandbox made from the file is the one a fresh seed makes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_empty_databases import comparable, seed

from servers.calendar import APP
from servers.core import SandboxSpec, SandboxStore
from servers.core import images as images_module
from servers.core.images import EMPTY_DATABASES, IMAGES_ENV, SEED_IMAGES, WARM_DATABASES, code_digest

ROOT = Path(__file__).resolve().parents[3]
SPEC = SandboxSpec(seed=seed(40, "World"), clock={"start": "2026-03-02T09:00:00+01:00"}, rng_seed=3)

OTHER_PROCESS = textwrap.dedent(
    """
    import json, sys
    sys.path[:0] = [sys.argv[1], sys.argv[1] + "/tests/servers/core", sys.argv[1] + "/tests"]
    from test_empty_databases import comparable, seed
    from test_image_files import SPEC
    from servers.calendar import APP
    from servers.core import SandboxStore

    def refuse(*args):
        raise AssertionError("the seed was loaded again")

    APP.load_seed = APP.validate_seed = refuse
    sandbox = SandboxStore(APP).create("x", SPEC)
    print(json.dumps(comparable(sandbox), default=str))
    """
)


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(IMAGES_ENV, str(tmp_path))
    monkeypatch.setattr(images_module, "DISK_MIN_COST_S", 0.0)
    SEED_IMAGES.clear()
    WARM_DATABASES.clear()
    EMPTY_DATABASES.clear()
    return tmp_path


def test_another_process_loads_the_world_instead_of_building_it(folder: Path) -> None:
    fresh = SandboxStore(APP).create("x", SPEC)
    files = list(folder.glob("*.db"))
    assert [f.name.split("-")[:2] for f in files] == [["calendar", code_digest(APP)]]
    env = {**os.environ, IMAGES_ENV: str(folder), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", OTHER_PROCESS, str(ROOT)], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded == json.loads(json.dumps(comparable(fresh), default=str))


def test_a_file_is_read_when_this_process_has_no_image(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = SandboxStore(APP).create("x", SPEC)
    SEED_IMAGES.clear()
    monkeypatch.setattr(APP, "load_seed", lambda *a: pytest.fail("the seed was loaded again"))
    loaded = SandboxStore(APP).create("y", SPEC)
    assert comparable(loaded) == comparable(fresh)


def test_no_file_when_off_or_cheap_and_a_damaged_file_is_not_used(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(IMAGES_ENV, "off")
    SandboxStore(APP).create("x", SPEC)
    assert not list(folder.iterdir())
    monkeypatch.setenv(IMAGES_ENV, str(folder))
    monkeypatch.setattr(images_module, "DISK_MIN_COST_S", 60.0)
    SEED_IMAGES.clear()
    SandboxStore(APP).create("x", SPEC)
    assert not list(folder.iterdir())  # it took less than a minute to seed: not worth a file
    monkeypatch.setattr(images_module, "DISK_MIN_COST_S", 0.0)
    SEED_IMAGES.clear()
    fresh = SandboxStore(APP).create("x", SPEC)
    (path,) = folder.glob("*.db")
    path.write_bytes(b"not a database")
    SEED_IMAGES.clear()
    assert comparable(SandboxStore(APP).create("y", SPEC)) == comparable(fresh)  # seeded again
    assert path.read_bytes().startswith(b"SQLite format 3\0")  # and written again
