"""What the console prints, piped as a CI log or Claude Desktop's log of a served episode keeps it: the verdict's
"why it failed" in full (rich folds a long value at the column's width, never cuts it with '…'); `serve` over stdio
writes it to stderr, never stdout; a suite's stage scores are named and leave out the unscored process stage."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, SCENARIOS, TRAVEL_PATH

ORCHESTRATOR = [sys.executable, "-m", "orchestrator.cli"]


def why_column(text: str) -> str:
    """The "why it failed" column of a verdict table, its cells run together without white space."""
    cells = [line.split("│")[-1] for line in text.splitlines() if line.count("│") == 3]
    return re.sub(r"\s+", "", "".join(cells))


def assert_every_reason_whole(text: str, results: dict) -> None:
    assert "…" not in text, text
    column = why_column(text)
    reasons = [c["reason"] for c in results["checks"] if not c["passed"] and c.get("reason")]
    assert reasons
    for reason in reasons:
        assert re.sub(r"\s+", "", reason) in column, reason


@pytest.mark.e2e
def test_a_piped_verdict_keeps_every_reason_whole(tmp_path: Path) -> None:
    done = subprocess.run(
        [*ORCHESTRATOR, "run", str(TRAVEL_PATH), "--agent", "noop", "--backend", "inprocess", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "80"},
    )
    assert done.returncode == 1, done.stderr[-2000:]
    assert_every_reason_whole(done.stdout, json.loads((tmp_path / "results.json").read_text()))


@pytest.mark.e2e
def test_serve_over_stdio_writes_the_verdict_to_stderr_whole_and_nothing_to_stdout(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            *ORCHESTRATOR,
            "serve",
            str(TRAVEL_PATH),
            "--transport",
            "stdio",
            "--backend",
            "inprocess",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr[-2000:]
    assert done.stdout == ""
    assert "why it failed" in done.stderr
    assert_every_reason_whole(done.stderr, json.loads((tmp_path / "latest" / "results.json").read_text()))


@pytest.mark.e2e
def test_a_suites_stage_scores_are_named_and_leave_out_the_process_stage(tmp_path: Path) -> None:
    files = [str(TRAVEL_PATH), str(SCENARIOS / "declined-meeting.yaml")]
    done = subprocess.run(
        [
            *ORCHESTRATOR,
            "run",
            *files,
            "--agent",
            "noop",
            "--backend",
            "inprocess",
            "--out",
            str(tmp_path),
            "--no-fail-fast",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 1, done.stderr[-2000:]
    summary = json.loads((tmp_path / "results.json").read_text())
    row = next(r for r in summary["scenarios"] if r["id"] == "travel-berlin-offsite")
    process = [s["name"] for s in row["stages"] if not s["scored"]]
    outcome = [s["name"] for s in row["stages"] if s["scored"]]
    assert process and outcome
    line = next(line for line in done.stdout.splitlines() if line.lstrip().startswith("travel-berlin-offsite"))
    assert all(f"{name} 0.00" in line for name in outcome), line
    assert not any(name in line for name in process), line
