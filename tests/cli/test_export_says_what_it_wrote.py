"""`export` and `export-tasks` answer on stdout with what they wrote (their summary is the command's answer, as
generate's is), where a script or a user who sends stderr away would see nothing."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, SCENARIOS, TRAVEL_PATH

ORCHESTRATOR = [sys.executable, "-m", "orchestrator.cli"]


def command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ORCHESTRATOR, *args], cwd=ROOT, capture_output=True, text=True, timeout=180)


@pytest.mark.slow
def test_export_tasks_says_what_it_wrote_on_stdout(tmp_path: Path) -> None:
    out = tmp_path / "tasks.jsonl"
    done = command("export-tasks", str(SCENARIOS), "--format", "jsonl", "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = out.read_text().splitlines()
    assert re.fullmatch(rf"{len(rows)} task\(s\) written to {re.escape(str(out))} \(jsonl\)\n", done.stdout), (
        done.stdout
    )


@pytest.mark.e2e
def test_export_says_what_it_wrote_on_stdout(tmp_path: Path) -> None:
    run = command(
        "run", str(TRAVEL_PATH), "--backend", "inprocess", "--agent", "oracle", "--out", str(tmp_path / "run")
    )
    assert run.returncode == 0, run.stderr
    out = tmp_path / "episodes.jsonl"
    done = command("export", str(tmp_path / "run"), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"1 of 1 episodes written to {out}\n", done.stdout
    assert len(out.read_text().splitlines()) == 1
