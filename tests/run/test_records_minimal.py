"""`orchestrator run --records minimal`: no file per episode (training), the same verdicts and summaries as sealed
records; refused where episodes must write files. Real runs: the command line in a process of its own, in process
with one worker and with the worker pool."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import SCENARIOS, TRAVEL_PATH
from test_pool import orchestrator, steady  # the same command line and record comparison as the pool's tests

TWO = [TRAVEL_PATH, SCENARIOS / "reschedule-conflict.yaml"]


def files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and "logs" not in p.parts}


@pytest.mark.parametrize("workers", ["1", "2"])
def test_minimal_records_write_no_episode_file_and_the_same_summary(tmp_path: Path, workers: str) -> None:
    runs = {}
    for records in ("sealed", "minimal"):
        out = tmp_path / records
        options = ["--backend", "inprocess", "--repeat", "2", "--parallel", "2", "--workers", workers]
        done = orchestrator("run", *TWO, *options, "--records", records, "--out", out)
        assert done.returncode == 0, done.stderr[-2000:]
        runs[records] = out
    sealed, minimal = files(runs["sealed"]), files(runs["minimal"])
    assert any(name.endswith("trace.jsonl") for name in sealed)  # sealed records: every episode's folder
    assert not [n for n in minimal if n.endswith(("trace.jsonl", "messages.json", "agent.log"))], minimal
    assert not [n for n in minimal if "episode-" in n], minimal  # no folder per episode at all
    assert "results.json" in minimal  # the run's summary is still written
    summary = json.loads((runs["minimal"] / "results.json").read_text())
    assert summary["total"]["episodes"] == 4 and summary["total"]["passes"] == 4
    assert steady(summary) == steady(json.loads((runs["sealed"] / "results.json").read_text()))


@pytest.mark.parametrize(
    ("extra", "refusal"),
    [
        (["--resume", "--out", "{out}"], "nothing for --resume"),
        (["--agent", "cmd:true"], "cmd: agent"),
        (["--backend", "ray"], "--backend ray"),
        (["--records", "some"], "--records must be one of sealed, minimal"),
    ],
)
def test_minimal_records_are_refused_where_episodes_must_write_files(
    tmp_path: Path, extra: list[str], refusal: str
) -> None:
    args = [a.replace("{out}", str(tmp_path)) for a in extra]
    records = [] if "--records" in args else ["--records", "minimal"]
    done = orchestrator("run", TRAVEL_PATH, *records, *args, timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    assert refusal in done.stderr.replace("\n", " "), done.stderr
    assert not (tmp_path / "results.json").exists()
