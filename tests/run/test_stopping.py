"""A run stops for its errors the way a signal stops it: fail-fast when its first episodes all errored for the same
reason (an unreachable model endpoint, an agent command that does not exist), `--fail-on-error N|SHARE` once that
many episodes errored. The episodes it stops or never starts are recorded `interrupted` (errored: no task failure),
the exit code is 2. Real runs: the in-process backend, real model agents against a port nothing listens on, real
command agents, the command line in process."""

from __future__ import annotations

import json
import time
from pathlib import Path

import anyio
import pytest
from helpers import SCENARIOS, TRAVEL_PATH, free_port
from typer.testing import CliRunner

from orchestrator.agents.base import AgentReport, NoopAgent, OracleAgent
from orchestrator.agents.command import CommandAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.cli import app
from orchestrator.episode.episode import Episode
from orchestrator.run import suite
from orchestrator.run.runner import ErrorWatch
from orchestrator.verify.results import JournalSummary, Result

FOUR = [TRAVEL_PATH, *(SCENARIOS / f"{n}.yaml" for n in ("reschedule-conflict", "flaky-ticketing", "approval-wait"))]


def invoke(*args: str | Path):  # noqa: ANN201 (click's Result)
    return CliRunner().invoke(app, [str(a) for a in args])


def unreachable() -> str:
    return f"http://127.0.0.1:{free_port()}/v1"  # nothing listens: every request fails to connect


def ended(status: str, error: str | None = None, passed: bool = False) -> Result:
    return Result(
        scenario="s",
        title="s",
        passed=passed,
        score=float(passed),
        pass_mark=1.0,
        stages=[],
        checks=[],
        changes=[],
        violations=[],
        journal=JournalSummary(),
        status=status,
        error=error,
    )  # type: ignore[arg-type]  # a status name, passed as a plain str


def test_fail_fast_judges_the_first_wave() -> None:
    down = ended("agent_error", "connection refused")
    one_at_a_time = ErrorWatch(planned=10, wave=1)
    assert one_at_a_time.observe(down) == (
        "fail-fast: the first episode errored (agent_error: connection refused); the rest were not run "
        "(--no-fail-fast runs them all)"
    )
    three = ErrorWatch(planned=10, wave=8)  # at most FAIL_FAST_WAVE episodes are waited for
    assert three.observe(down) is None and three.observe(down) is None
    assert three.observe(down).startswith("fail-fast: the first 3 episodes all errored (agent_error: connection")
    differ = ErrorWatch(planned=10, wave=2)  # two reasons: nothing says the next episode fails the same way
    assert differ.observe(down) is None and differ.observe(ended("error", "app died")) is None
    assert differ.observe(down) is None  # past the first wave, errors never stop a run by themselves
    scored = ErrorWatch(planned=10, wave=2)
    assert scored.observe(ended("completed", passed=False)) is None and scored.observe(down) is None
    assert ErrorWatch(planned=1, wave=1).observe(down) is None  # nothing left to save
    assert ErrorWatch(planned=5, wave=1, fail_fast=False).observe(down) is None
    stopped = ErrorWatch(planned=10, wave=1)  # episodes the run stopped itself do not count
    assert stopped.observe(ended("interrupted", "stopped by SIGINT")) is None and stopped.first == []


def test_fail_on_error_counts_and_shares() -> None:
    count = ErrorWatch(planned=10, wave=1, fail_fast=False, fail_on_error=2)
    assert count.observe(ended("error", "a")) is None and count.observe(ended("completed", passed=True)) is None
    assert count.observe(ended("agent_error", "b")) == (
        "--fail-on-error 2: 2 of 10 episodes errored (the last agent_error: b)"
    )
    share = ErrorWatch(planned=10, wave=1, fail_fast=False, fail_on_error=0.25)  # 2.5 of 10: the third stops
    assert [share.observe(ended("error", "x")) is None for _ in range(3)] == [True, True, False]


def test_a_suite_against_an_unreachable_model_stops_after_its_first_episode(tmp_path: Path) -> None:
    started = time.perf_counter()
    done = invoke(
        "run",
        *FOUR,
        "--backend",
        "inprocess",
        "--agent",
        "openai:some-model",
        "--base-url",
        unreachable(),
        "--max-retries",
        "0",
        "--out",
        tmp_path,
    )
    assert done.exit_code == 2, done.output
    assert time.perf_counter() - started < 30
    summary = json.loads((tmp_path / "results.json").read_text())
    total = summary["total"]
    assert (total["episodes"], total["scored"], total["passed"], total["failed"], total["errored"]) == (4, 0, 0, 0, 4)
    assert summary["stopped"].startswith("fail-fast: the first episode errored (agent_error: openai:some-model: ")
    statuses = [row["status"] for row in summary["scenarios"]]
    assert statuses == ["agent_error", "interrupted", "interrupted", "interrupted"]
    later = json.loads((tmp_path / "reschedule-conflict" / "results.json").read_text())
    assert later["status"] == "interrupted" and later["error"] == "not started: the run was stopped by fail-fast"
    # one clear message, said once; no scenario is called FAILED
    assert done.stderr.count("stopped early by fail-fast") == 1 and "stopping: fail-fast" in done.stderr
    assert "FAILED" not in done.output and "0 failed" not in done.output
    assert "4 errored (not scored)" in done.stdout


def test_no_fail_fast_runs_every_episode(tmp_path: Path) -> None:
    done = invoke(
        "run",
        TRAVEL_PATH,
        "--repeat",
        "3",
        "--backend",
        "inprocess",
        "--agent",
        "openai:some-model",
        "--base-url",
        unreachable(),
        "--max-retries",
        "0",
        "--no-fail-fast",
        "--out",
        tmp_path,
    )
    assert done.exit_code == 2, done.output
    summary = json.loads((tmp_path / "results.json").read_text())
    assert [r["status"] for r in summary["results"]] == ["agent_error"] * 3 and summary["stopped"] is None


def test_a_repeat_stops_as_a_suite_does(tmp_path: Path) -> None:
    done = invoke(
        "run",
        TRAVEL_PATH,
        "--repeat",
        "4",
        "--parallel",
        "2",
        "--backend",
        "inprocess",
        "--agent",
        "cmd:no-such-binary",
        "--isolation",
        "none",
        "--out",
        tmp_path,
    )
    assert done.exit_code == 2, done.output
    summary = json.loads((tmp_path / "results.json").read_text())
    statuses = [r["status"] for r in summary["results"]]  # a third episode may start, even end, as the second ends
    assert statuses.count("agent_error") >= 2 and statuses[-1] == "interrupted"  # the 4th never starts
    assert set(statuses) == {"agent_error", "interrupted"} and summary["errored"] == 4 and summary["failed"] == 0
    assert summary["stopped"].startswith("fail-fast: the first 2 episodes all errored (agent_error: the agent exited")
    assert "stopped early by fail-fast" in done.stderr


class FailsOn(CommandAgent):
    """`cmd:no-such-binary` (never starts) on the scenarios named; the reference solution on travel, noop elsewhere."""

    def __init__(self, failing: set[str]) -> None:
        super().__init__("no-such-binary", isolation="none")
        self.failing = failing

    async def run(self, episode: Episode) -> AgentReport:
        if episode.scenario.id in self.failing:
            return await super().run(episode)
        if episode.scenario.id == "travel-berlin-offsite":
            return await OracleAgent().run(episode)
        return await NoopAgent().run(episode)


def run_four(out: Path, failing: set[str], **options: object) -> suite.SuiteRecord:
    runs = suite.load_all(FOUR)

    async def main() -> suite.SuiteRecord:
        async with InProcessBackend() as backend:
            return await suite.run_suite(
                runs, backend, lambda: FailsOn(failing), suite.SuiteOptions(out=out, **options)
            )

    return anyio.run(main)


def test_fail_on_error_stops_a_suite_after_that_many_errors(tmp_path: Path) -> None:
    record = run_four(tmp_path / "count", {"reschedule-conflict", "flaky-ticketing"}, fail_on_error=2)
    statuses = [row["status"] for row in record.summary["scenarios"]]
    assert statuses == ["completed", "agent_error", "agent_error", "interrupted"]
    assert record.summary["stopped"].startswith("--fail-on-error 2: 2 of 4 episodes errored")
    assert record.exit_code() == 2 and record.summary["total"]["passed"] == 1
    # the same errors under the threshold: every episode runs
    record = run_four(tmp_path / "under", {"reschedule-conflict", "flaky-ticketing"}, fail_on_error=3)
    assert [row["status"] for row in record.summary["scenarios"]][-1] == "completed" and not record.stopped


def test_fail_on_error_takes_a_share(tmp_path: Path) -> None:
    record = run_four(tmp_path, {"travel-berlin-offsite"}, fail_on_error=0.25, fail_fast=False)
    assert [row["status"] for row in record.summary["scenarios"]] == ["agent_error"] + ["interrupted"] * 3
    assert record.summary["stopped"].startswith("--fail-on-error 0.25: 1 of 4 episodes errored")


@pytest.mark.parametrize("value", ["0", "1.5", "-1", "many", "nan"])
def test_fail_on_error_refuses_what_is_neither_a_count_nor_a_share(value: str, tmp_path: Path) -> None:
    done = invoke("run", TRAVEL_PATH, "--fail-on-error", value, "--out", tmp_path)
    assert done.exit_code == 2 and "--fail-on-error" in done.output
    assert not (tmp_path / "results.json").exists()


@pytest.mark.e2e
def test_a_suite_against_an_unreachable_model_ends_within_a_minute(tmp_path: Path) -> None:
    """The whole scenarios/ folder, default retries, the default local backend, the real command."""
    import subprocess
    import sys

    from helpers import ROOT

    started = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "orchestrator.cli",
            "run",
            str(SCENARIOS),
            "--agent",
            "openai:gpt-4.1",
            "--base-url",
            unreachable(),
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "unused"},
    )
    took = time.perf_counter() - started
    assert done.returncode == 2, done.stderr
    assert took < 60, took
    total = json.loads((tmp_path / "results.json").read_text())["total"]
    assert total["failed"] == 0 and total["scored"] == 0 and total["errored"] == total["episodes"] == 19
    assert "stopped early by fail-fast: the first episode errored (agent_error: openai:gpt-4.1: " in done.stderr
    print(f"a suite against an unreachable model: {took:.1f} s")


class AppsThatDoNotStart(InProcessBackend):
    """The in-process backend, except that its apps fail to start (as an app server that dies at once)."""

    async def start(self, apps):  # noqa: ANN001, ANN201
        from orchestrator.backends.base import BackendError

        raise BackendError("the calendar app server exited at start (code 1)")


def test_apps_that_do_not_start_stop_a_suite_by_fail_fast(tmp_path: Path) -> None:
    runs = suite.load_all(FOUR)

    async def main() -> suite.SuiteRecord:
        async with AppsThatDoNotStart() as backend:
            return await suite.run_suite(runs, backend, NoopAgent, suite.SuiteOptions(out=tmp_path))

    record = anyio.run(main)
    assert [row["status"] for row in record.summary["scenarios"]] == [
        "error",
        "interrupted",
        "interrupted",
        "interrupted",
    ]
    assert record.stopped == (
        "fail-fast: the first episode errored (error: the calendar app server exited at start (code 1)); the rest were "
        "not run (--no-fail-fast runs them all)"
    )
    assert suite.episodes_verdict(record.runs[1].record.results) == (  # type: ignore[union-attr]  # that run has a record
        "not run (not started: the run was stopped by fail-fast)"
    )
