"""`export` of malformed run folders: each malformed folder or file is skipped with a line saying which and why,
the good episodes are still written, and nothing is a traceback or a hang. The folders are a real run of the
travel scenario (the reference solution), copied and then damaged as a crash, a full disk, an agent without
isolation or a hand edit leave them."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import anyio
import pytest
from helpers import TRAVEL_PATH
from typer.testing import CliRunner

from orchestrator import scenario as scenarios
from orchestrator.agents.base import OracleAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.cli import app
from orchestrator.run.runner import RunOptions, run_many


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("good")

    async def main() -> None:
        async with InProcessBackend() as backend:
            travel = scenarios.load(TRAVEL_PATH)
            await run_many(travel, backend, OracleAgent, RunOptions(out=root / "oracle", seed=1))
            await run_many(travel, backend, OracleAgent, RunOptions(out=root / "repeat", seed=2, repeat=2))

    anyio.run(main)
    return root


def damaged(good: Path, root: Path) -> dict[str, Path]:
    """The good run, and copies of it damaged one way each; returns where each is."""

    def copy(name: str) -> Path:
        shutil.copytree(good / "oracle", root / name)
        return root / name

    def results(name: str, change: object) -> None:
        path = root / name / "results.json"
        data = json.loads(path.read_text())
        path.write_text(change(data) if callable(change) else str(change))

    copy("fine")
    copy("garbled")
    (root / "garbled" / "results.json").write_text('{"scenario": "travel-berlin-offsite", "passed": tr')  # cut short
    copy("a-list")
    (root / "a-list" / "results.json").write_text("[1, 2, 3]")
    copy("no-results")
    (root / "no-results" / "results.json").unlink()  # stopped before its verdict
    copy("bad-messages")
    (root / "bad-messages" / "messages.json").write_text('{"api": "openai", "messages": [{"role": "us')
    copy("anthropic-without-messages")
    (root / "anthropic-without-messages" / "messages.json").write_text('{"api": "anthropic", "model": "x"}')
    copy("odd-fields")
    results("odd-fields", lambda d: json.dumps(d | {"episode": ["not", "a", "mapping"], "stages": "abc"}))
    copy("fifo-trace")
    (root / "fifo-trace" / "trace.jsonl").unlink()
    os.mkfifo(root / "fifo-trace" / "trace.jsonl")  # reading it would block for ever
    copy("deep-messages")
    (root / "deep-messages" / "messages.json").write_text(
        '{"api": "openai", "messages": ' + "[" * 5000 + "]" * 5000 + "}"
    )
    shutil.copytree(good / "repeat", root / "repeat")
    (root / "repeat" / "episode-002" / "results.json").unlink()  # a partial episode folder inside a repeat
    (root / "results-is-a-folder").mkdir()
    (root / "results-is-a-folder" / "results.json").mkdir()
    (root / "results-is-a-folder" / "trace.jsonl").write_text("")
    return {p.name: p for p in root.iterdir()}


def test_each_malformed_folder_is_skipped_with_why_and_the_rest_is_written(good: Path, tmp_path: Path) -> None:
    where = damaged(good, tmp_path / "runs")
    out = tmp_path / "data.jsonl"
    done = CliRunner().invoke(app, ["export", str(tmp_path / "runs"), "--out", str(out)], env={"COLUMNS": "400"})
    assert done.exit_code == 0, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    skipped = {
        line.split(": ", 1)[0].removeprefix("skipped "): line.split(": ", 1)[1]
        for line in done.stderr.splitlines()
        if line.startswith("skipped ")
    }
    why = {Path(path).relative_to(tmp_path / "runs").parts[0]: reason for path, reason in skipped.items()}
    assert "does not read as JSON" in why["garbled"]
    assert "holds a JSON list" in why["a-list"]
    assert "without results.json" in why["no-results"]
    assert "messages.json is not valid JSON" in why["bad-messages"]
    assert "no list of messages" in why["anthropic-without-messages"]
    assert "not a regular file" in why["fifo-trace"]
    assert "nested too deeply" in why["deep-messages"]
    assert "without results.json" in why["repeat"] and str(where["repeat"] / "episode-002") in skipped
    assert "not a regular file" in why["results-is-a-folder"]
    assert len(skipped) == 9, skipped
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    written = sorted(Path(line["folder"]).relative_to(tmp_path / "runs").as_posix() for line in lines)
    assert written == ["fine", "odd-fields", "repeat/episode-001"]  # odd fields cost only those fields
    summary = " ".join((done.stdout + done.stderr).split())  # what it wrote on stdout, what it skipped on stderr
    assert "3 of 7 episodes written" in summary and "9 malformed folder(s) or file(s) skipped" in summary


def test_a_folder_with_only_malformed_runs_says_what_it_skipped(good: Path, tmp_path: Path) -> None:
    shutil.copytree(good / "oracle", tmp_path / "runs" / "broken")
    (tmp_path / "runs" / "broken" / "results.json").write_text("{not json")
    done = CliRunner().invoke(
        app, ["export", str(tmp_path / "runs"), "--out", str(tmp_path / "x.jsonl")], env={"COLUMNS": "400"}
    )
    assert done.exit_code == 2, done.output
    text = " ".join(done.output.split())
    assert "holds no runs" in text and "broken/results.json: results.json does not read as JSON" in text


def test_a_score_that_is_not_a_number_is_skipped_by_min_score(good: Path, tmp_path: Path) -> None:
    shutil.copytree(good / "oracle", tmp_path / "runs" / "wordy")
    path = tmp_path / "runs" / "wordy" / "results.json"
    path.write_text(json.dumps(json.loads(path.read_text()) | {"score": "high"}))
    shutil.copytree(good / "oracle", tmp_path / "runs" / "fine")
    done = CliRunner().invoke(
        app,
        ["export", str(tmp_path / "runs"), "--out", str(tmp_path / "x.jsonl"), "--min-score", "0.5"],
        env={"COLUMNS": "400"},
    )
    assert done.exit_code == 0, done.output
    assert "wordy: its score is 'high', not a number" in done.stderr
    assert len((tmp_path / "x.jsonl").read_text().splitlines()) == 1
