"""Resuming and retrying runs into their own folder: `run ... --out DIR --resume` keeps the episodes recorded complete
(same scenario and seed, not errored) and runs the others; `orchestrator retry RUN` re-runs only the errored and
interrupted episodes of a run, a repeat or a suite, with what the record says made it, and rewrites the totals.
Through the command line in process, on the in-process backend, with real agents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import SCENARIOS, TRAVEL_PATH, free_port
from typer.testing import CliRunner

from orchestrator.cli import app

RESCHEDULE = SCENARIOS / "reschedule-conflict.yaml"
APPROVAL = SCENARIOS / "approval-wait.yaml"
NOT_ON_RESCHEDULE = 'cmd:case "$CLAWGYM_TASK" in *all-hands*) exec no-such-binary;; *) exit 0;; esac'


def invoke(*args: str | Path):  # noqa: ANN201 (click's Result)
    return CliRunner().invoke(app, [str(a) for a in args])


def read(path: Path) -> dict:
    return json.loads(path.read_text())


def test_retry_reruns_only_the_errored_episodes_of_a_suite(tmp_path: Path) -> None:
    out = tmp_path / "suite"
    done = invoke(
        "run",
        TRAVEL_PATH,
        RESCHEDULE,
        APPROVAL,
        "--backend",
        "inprocess",
        "--agent",
        NOT_ON_RESCHEDULE,
        "--isolation",
        "none",
        "--no-fail-fast",
        "--out",
        out,
    )
    assert done.exit_code == 2, done.output
    assert read(out / "results.json")["total"]["errored"] == 1
    kept = (out / "travel-berlin-offsite" / "results.json").read_bytes()
    done = invoke("retry", out, "--backend", "inprocess", "--agent", "oracle")
    assert done.exit_code == 1, done.output  # travel and approval-wait still fail as the do-nothing agent left them
    assert (out / "travel-berlin-offsite" / "results.json").read_bytes() == kept
    again = read(out / "reschedule-conflict" / "results.json")
    assert again["status"] == "completed" and again["passed"] and again["episode"]["agent"]["agent"] == "oracle"
    total = read(out / "results.json")["total"]
    assert (total["episodes"], total["scored"], total["errored"], total["passed"], total["failed"]) == (3, 3, 0, 1, 2)
    assert "resumed: 2 of 3 episode(s) kept as recorded complete, 1 run again" in done.stderr


def test_retry_after_fail_fast_runs_what_was_never_started(tmp_path: Path) -> None:
    out = tmp_path / "suite"
    url = f"http://127.0.0.1:{free_port()}/v1"
    done = invoke(
        "run",
        TRAVEL_PATH,
        RESCHEDULE,
        APPROVAL,
        "--backend",
        "inprocess",
        "--agent",
        "openai:some-model",
        "--base-url",
        url,
        "--max-retries",
        "0",
        "--out",
        out,
    )
    assert done.exit_code == 2 and read(out / "results.json")["stopped"].startswith("fail-fast")
    done = invoke("retry", out, "--backend", "inprocess", "--agent", "oracle")
    assert done.exit_code == 0, done.output
    summary = read(out / "results.json")
    assert summary["stopped"] is None and summary["total"]["passed"] == 3 and summary["total"]["errored"] == 0


def test_retry_takes_a_single_runs_scenario_seed_and_agent_from_its_record(tmp_path: Path) -> None:
    done = invoke(
        "run",
        TRAVEL_PATH,
        "--backend",
        "inprocess",
        "--agent",
        "cmd:no-such-binary",
        "--seed",
        "7",
        "--isolation",
        "none",
        "--out",
        tmp_path,
    )
    assert done.exit_code == 2
    done = invoke("retry", tmp_path, "--backend", "inprocess", "--isolation", "none")  # the same agent: still errored
    assert done.exit_code == 2 and "AGENT ERROR" in done.stderr
    done = invoke("retry", tmp_path, "--backend", "inprocess", "--agent", "oracle")
    assert done.exit_code == 0, done.output
    result = read(tmp_path / "results.json")
    assert result["passed"] and result["episode"]["rng_seed"] == 7 and result["status"] == "completed"
    done = invoke("retry", tmp_path, "--backend", "inprocess", "--agent", "noop")  # nothing errored: nothing runs
    assert done.exit_code == 0 and read(tmp_path / "results.json")["passed"]
    assert "resumed: 1 of 1 episode(s) kept as recorded complete, 0 run again" in done.stderr


@pytest.mark.slow
def test_resume_keeps_only_complete_episodes_of_the_same_scenario_and_seed(tmp_path: Path) -> None:
    done = invoke("run", TRAVEL_PATH, "--repeat", "3", "--backend", "inprocess", "--agent", "noop", "--out", tmp_path)
    assert done.exit_code == 1
    first = (tmp_path / "episode-001" / "results.json").read_bytes()
    (tmp_path / "episode-002" / "results.json").unlink()  # never written: a run killed midway
    third = read(tmp_path / "episode-003" / "results.json")
    third["status"], third["error"] = "interrupted", "stopped by SIGINT"
    (tmp_path / "episode-003" / "results.json").write_text(json.dumps(third))
    done = invoke(
        "run",
        TRAVEL_PATH,
        "--repeat",
        "3",
        "--backend",
        "inprocess",
        "--agent",
        "oracle",
        "--out",
        tmp_path,
        "--resume",
    )
    assert done.exit_code == 1, done.output
    assert (tmp_path / "episode-001" / "results.json").read_bytes() == first
    summary = read(tmp_path / "results.json")
    assert [r["passed"] for r in summary["results"]] == [False, True, True] and summary["passes"] == 2
    assert summary["file"].endswith("travel.yaml")
    # another seed: what is recorded is of other episodes, so every one runs
    done = invoke(
        "run", TRAVEL_PATH, "--repeat", "3", "--seed", "5", "--backend", "inprocess", "--out", tmp_path, "--resume"
    )
    assert done.exit_code == 0 and read(tmp_path / "results.json")["passes"] == 3
    # another scenario's records in the folder are not this one's
    done = invoke(
        "run",
        RESCHEDULE,
        "--repeat",
        "3",
        "--seed",
        "5",
        "--backend",
        "inprocess",
        "--agent",
        "noop",
        "--out",
        tmp_path,
        "--resume",
    )
    assert done.exit_code == 1 and read(tmp_path / "results.json")["scenario"] == "reschedule-conflict"


def test_retry_of_a_repeat(tmp_path: Path) -> None:
    done = invoke(
        "run",
        TRAVEL_PATH,
        "--repeat",
        "2",
        "--backend",
        "inprocess",
        "--agent",
        "cmd:no-such-binary",
        "--isolation",
        "none",
        "--no-fail-fast",
        "--out",
        tmp_path,
    )
    assert done.exit_code == 2
    done = invoke("retry", tmp_path, "--backend", "inprocess", "--agent", "oracle")
    assert done.exit_code == 0, done.output
    summary = read(tmp_path / "results.json")
    assert summary["passes"] == 2 and summary["errored"] == 0


def test_retry_and_resume_usage_errors(tmp_path: Path) -> None:
    done = invoke("retry", tmp_path)
    assert done.exit_code == 2 and "no run record here" in done.output
    (tmp_path / "results.json").write_text(json.dumps({"scenario": "x", "passed": False, "checks": []}))
    done = invoke("retry", tmp_path)
    assert done.exit_code == 2 and "does not say which scenario file and agent made it" in done.output
    done = invoke("run", TRAVEL_PATH, "--resume")
    assert done.exit_code == 2 and "--resume continues the run in --out DIR" in done.output
    moved = tmp_path / "moved"
    done = invoke("run", TRAVEL_PATH, "--backend", "inprocess", "--agent", "noop", "--out", moved)
    assert done.exit_code == 1
    record = read(moved / "results.json")
    record["episode"]["scenario_file"] = "elsewhere/travel.yaml"  # made from another folder
    (moved / "results.json").write_text(json.dumps(record))
    done = invoke("retry", moved)
    assert done.exit_code == 2 and "elsewhere/travel.yaml are not found from here" in done.output.replace("\n", "")


def test_resume_runs_again_a_record_edited_to_pass(tmp_path: Path) -> None:
    """A results.json edited after the run (a pass forged in place of a failure) is not kept: its seal fails."""
    done = invoke("run", TRAVEL_PATH, "--repeat", "2", "--backend", "inprocess", "--agent", "noop", "--out", tmp_path)
    assert done.exit_code == 1
    forged = read(tmp_path / "episode-001" / "results.json")
    forged["passed"], forged["score"] = True, 1.0
    (tmp_path / "episode-001" / "results.json").write_text(json.dumps(forged))
    done = invoke(
        "run", TRAVEL_PATH, "--repeat", "2", "--backend", "inprocess", "--agent", "noop", "--out", tmp_path, "--resume"
    )
    assert done.exit_code == 1
    assert read(tmp_path / "episode-001" / "results.json")["passed"] is False
    assert read(tmp_path / "results.json")["passes"] == 0
    assert "resumed: 1 of 2 episode(s) kept as recorded complete, 1 run again" in done.stderr


def test_a_run_with_every_episode_kept_starts_no_app(tmp_path: Path) -> None:
    """Nothing to run again: the apps are not started (here they could not be), and the record stands."""
    import anyio

    from orchestrator.agents.base import NoopAgent
    from orchestrator.backends.base import BackendError
    from orchestrator.backends.inprocess import InProcessBackend
    from orchestrator.run.runner import RunOptions, run_many
    from orchestrator.scenario import load

    starts = []

    class AppsThatDoNotStart(InProcessBackend):
        async def start(self, apps):  # noqa: ANN001, ANN202
            starts.append(apps)
            raise BackendError("the calendar app server exited at start (code 1)")

    assert invoke("run", TRAVEL_PATH, "--repeat", "2", "--backend", "inprocess", "--out", tmp_path).exit_code == 0

    async def main():  # noqa: ANN202
        async with AppsThatDoNotStart() as backend:
            return await run_many(load(TRAVEL_PATH), backend, NoopAgent, RunOptions(tmp_path, repeat=2, resume=True))

    record = anyio.run(main)
    assert record.kept == 2 and record.passed and record.exit_code() == 0 and starts == []
    assert read(tmp_path / "results.json")["passes"] == 2
