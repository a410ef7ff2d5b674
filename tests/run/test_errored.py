"""Errored episodes are not task failures: an agent command that never started, a model endpoint that cannot be
reached, a run stopped midway end `agent_error`, `error` or `interrupted`, are reported apart on the console, in
results.json totals of repeats and suites and in the exit code (2), and never count in scores or pass@k.
Real runs: the in-process backend, real command agents, the real command line in process."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import anyio
import pytest
from helpers import SCENARIOS, TRAVEL_PATH, free_port
from rich.console import Console
from typer.testing import CliRunner

from orchestrator.agents.base import AgentReport, NoopAgent, OracleAgent
from orchestrator.agents.command import CommandAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.cli import app
from orchestrator.episode.episode import Episode
from orchestrator.record import ERRORED, is_errored, tally
from orchestrator.run import suite

RESCHEDULE = SCENARIOS / "reschedule-conflict.yaml"
FLAKY = SCENARIOS / "flaky-ticketing.yaml"
NOT_STARTED = "the agent exited with code 127 (command not found): it never started"


def invoke(*args: str | Path):  # noqa: ANN201 (click's Result)
    return CliRunner().invoke(app, [str(a) for a in args])


class ByScenario(CommandAgent):
    """A command agent (`cmd:no-such-binary`) except on two scenarios: the reference solution passes travel and
    doing nothing fails reschedule-conflict; on any other scenario the command runs, and never starts."""

    def __init__(self) -> None:
        super().__init__("no-such-binary", isolation="none")

    async def run(self, episode: Episode) -> AgentReport:
        if episode.scenario.id == "travel-berlin-offsite":
            return await OracleAgent().run(episode)
        if episode.scenario.id == "reschedule-conflict":
            return await NoopAgent().run(episode)
        return await super().run(episode)


def test_one_definition_of_errored() -> None:
    assert ERRORED == ("error", "agent_error", "interrupted")
    assert all(is_errored(s) for s in ERRORED) and not any(is_errored(s) for s in ("completed", "timeout", None))
    counts = tally(
        [
            {"status": "completed", "passed": True, "score": 1.0},
            {"status": "timeout", "passed": False, "score": 0.5},
            {"status": "agent_error", "passed": False, "score": 0.0, "error": "boom"},
            {"status": "agent_error", "passed": False, "score": 0.0, "error": "boom"},
        ]
    )
    assert (counts.episodes, counts.scored, counts.passes, counts.failed, counts.errored) == (4, 2, 1, 1, 2)
    assert counts.score == 0.75 and counts.reasons == {"agent_error: boom": 2}
    assert counts.as_dict()["pass_at_k"] == {"1": 0.5, "2": 1.0}


def test_a_suite_counts_errored_episodes_apart(tmp_path: Path) -> None:
    runs = suite.load_all([TRAVEL_PATH, RESCHEDULE, FLAKY])
    options = suite.SuiteOptions(out=tmp_path / "suite", agent="by-scenario")

    async def main() -> suite.SuiteRecord:
        async with InProcessBackend() as backend:
            return await suite.run_suite(runs, backend, ByScenario, options)

    record = anyio.run(main)
    total = record.summary["total"]
    assert (total["run"], total["passed"], total["failed"], total["errored"]) == (3, 1, 1, 1)
    assert (total["episodes"], total["scored"], total["passes"]) == (3, 2, 1)
    assert total["pass_at_k"] == {"1": 0.5} and total["score"] < 1
    assert total["errors"] == {f"agent_error: {NOT_STARTED}": 1}
    rows = {row["id"]: row for row in record.summary["scenarios"]}
    flaky = rows["flaky-ticketing"]
    assert (
        flaky["status"] == "agent_error" and flaky["scored"] == 0 and flaky["errored"] == 1 and flaky["passed"] is False
    )
    assert flaky["score"] is None and flaky["pass_at_k"] == {} and all(s["mean_score"] is None for s in flaky["stages"])
    assert rows["travel-berlin-offsite"]["passed"] and not rows["reschedule-conflict"]["passed"]
    assert record.summary["passed"] is False and record.exit_code() == 2
    written = json.loads((tmp_path / "suite" / "results.json").read_text())
    assert written["total"] == total
    episode = json.loads((tmp_path / "suite" / "flaky-ticketing" / "results.json").read_text())
    assert episode["status"] == "agent_error" and episode["error"] == NOT_STARTED

    console = Console(record=True, width=200)
    suite.render_suite(console, record.summary)
    shown = console.export_text()
    assert "total: 1/2 scenarios passed, 1 errored (not scored), mean score" in shown and "pass@1 0.50" in shown
    assert f"errored: agent_error: {NOT_STARTED}" in shown
    assert suite.episodes_verdict(record.runs[2].record.results) == f"ERROR (agent_error: {NOT_STARTED})"  # type: ignore[union-attr]  # that run has a record


def test_a_command_that_never_started_is_an_error_not_a_failure(tmp_path: Path) -> None:
    done = invoke("run", TRAVEL_PATH, "--backend", "inprocess", "--agent", "cmd:no-such-binary", "--out", tmp_path)
    assert done.exit_code == 2, done.output
    assert done.stdout.startswith(
        "ERROR  Plan the Berlin offsite trip (travel-berlin-offsite)  agent_error: " + NOT_STARTED
    )
    assert "FAILED" not in done.stdout and "FAIL" not in done.stdout
    assert f"AGENT ERROR (not scored): {NOT_STARTED}" in done.stderr and "no-such-binary: not found" in done.stderr
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["status"] == "agent_error" and results["error"] == NOT_STARTED
    assert results["episode"]["agent"]["exit_code"] == 127


def test_a_repeat_against_an_unreachable_model_scores_nothing(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens: every request fails to connect
    done = invoke(
        "run",
        TRAVEL_PATH,
        "--backend",
        "inprocess",
        "--agent",
        "openai:any-model",
        "--base-url",
        url,
        "--max-retries",
        "0",
        "--repeat",
        "2",
        "--no-fail-fast",
        "--out",
        tmp_path,
    )
    assert done.exit_code == 2, done.output
    summary = json.loads((tmp_path / "results.json").read_text())
    assert (summary["episodes"], summary["scored"], summary["passes"], summary["failed"], summary["errored"]) == (
        2,
        0,
        0,
        0,
        2,
    )
    assert summary["score"] is None and summary["pass_at_k"] == {} and summary["passed"] is False
    assert [r["status"] for r in summary["results"]] == ["agent_error", "agent_error"]
    assert list(summary["errors"].values()) == [2] and "Connection error" in next(iter(summary["errors"]))
    assert "0 of 2 episodes scored; 2 errored (not scored): agent_error:" in done.stdout
    assert "mean score" not in done.stdout and "0/2" not in done.stdout


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a shell")
def test_a_suite_on_the_command_line_says_errored_apart(tmp_path: Path) -> None:
    library = tmp_path / "library"
    library.mkdir()
    for path in (TRAVEL_PATH, RESCHEDULE):
        shutil.copy(path, library / path.name)
    agent = 'cmd:case "$CLAWGYM_TASK" in *all-hands*) exec no-such-binary;; *) exit 0;; esac'
    done = invoke(
        "run", library, "--backend", "inprocess", "--agent", agent, "--no-fail-fast", "--out", tmp_path / "out"
    )
    assert done.exit_code == 2, done.output
    assert "total: 0/1 scenarios passed, 1 errored (not scored), mean score 0.00, pass@1 0.00" in done.stdout
    assert "[1/2] reschedule-conflict: ERROR (agent_error: " in done.stderr
    assert "[2/2] travel-berlin-offsite: FAILED, score 0.00" in done.stderr
    total = json.loads((tmp_path / "out" / "results.json").read_text())["total"]
    assert (total["passed"], total["failed"], total["errored"], total["scored"]) == (0, 1, 1, 1)
