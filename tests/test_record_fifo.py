"""`verify-digest` of a folder where a FIFO stands in place of trace.jsonl or results.json (an agent without
isolation can leave one) says the record cannot be read, where it blocked for ever reading the FIFO. A real
sealed run of the travel scenario, damaged."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, TRAVEL_PATH


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("trace.jsonl", "its trace.jsonl is not a regular file"),
        ("results.json", "no episode (a results.json of an episode) in it"),
    ],
)
def test_verify_digest_refuses_a_fifo_at_once(tmp_path: Path, name: str, said: str) -> None:
    run = tmp_path / "run"
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "orchestrator.cli",
            "run",
            str(TRAVEL_PATH),
            "--backend",
            "inprocess",
            "--out",
            str(run),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    shutil.copy(run / name, tmp_path / "kept")
    (run / name).unlink()
    os.mkfifo(run / name)
    done = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", "verify-digest", str(run)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode != 0
    assert said in " ".join((done.stdout + done.stderr).split())
