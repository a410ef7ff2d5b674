"""What the record commands print, in process: `run --json` prints an episode's record as results.json holds it (its
kind first), and `export` says how many unreadable trace lines it skipped."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import ROOT
from typer.testing import CliRunner

from orchestrator.cli import app

TRAVEL = ROOT / "scenarios" / "travel.yaml"


def test_run_json_prints_the_episode_record_and_export_counts_the_trace_lines_it_skipped(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = CliRunner().invoke(
        app, ["run", str(TRAVEL), "--backend", "inprocess", "--agent", "oracle", "--out", str(out), "--json"]
    )
    assert done.exit_code == 0, done.output
    printed = json.loads(done.stdout)
    assert next(iter(printed)) == "kind" and printed["kind"] == "episode"
    assert printed == json.loads((out / "results.json").read_text())

    exported = tmp_path / "train.jsonl"
    done = CliRunner().invoke(app, ["export", str(out), "--out", str(exported)])
    assert done.exit_code == 0 and "1 of 1 episodes written" in done.stdout, done.output  # the answer: stdout
    assert "skipped" not in done.stderr, done.stderr

    trace = out / "trace.jsonl"
    lines = trace.read_bytes().splitlines(keepends=True)
    trace.write_bytes(lines[0] + b'{"source": "gateway", "meth\n' + b"\xff\xfe not json\n" + b"".join(lines[1:]))
    done = CliRunner().invoke(app, ["export", str(out), "--out", str(exported)])
    assert done.exit_code == 0 and "2 unreadable trace line(s) skipped" in done.stdout, done.output
