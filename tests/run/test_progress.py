"""Progress that tells the truth: each episode's state as it changes, a model request retried after a 429 with
the wait it was given, an episode that errored, a model agent's turns and tokens so far; plain lines when piped,
and retries and errors as lines above a terminal's bar too. A real model agent (the OpenAI SDK) against the fake
model server of tests/agents, through the command line in process (its stderr is not a terminal)."""

from __future__ import annotations

import importlib.util
import io
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import ROOT, TRAVEL_PATH, free_port
from rich.console import Console
from typer.testing import CliRunner

from orchestrator.cli import app
from orchestrator.run import suite
from orchestrator.scenario import load


def _fake_model() -> Any:
    spec = importlib.util.spec_from_file_location("fake_model", ROOT / "tests" / "agents" / "fake_model.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]  # the file exists: its spec is not None
    spec.loader.exec_module(module)  # type: ignore[union-attr]  # a source file's spec has a loader
    return module


@pytest.fixture
def served() -> Iterator[Any]:
    fake = _fake_model()
    with fake.Served(fake.FakeModel(load(TRAVEL_PATH).oracle)) as running:
        yield running


def invoke(*args: Any):  # noqa: ANN201 (click's Result)
    return CliRunner().invoke(app, [str(a) for a in args], env={"OPENAI_API_KEY": "unused"})


def test_a_run_piped_shows_each_state_the_retries_with_their_wait_and_the_tokens(served: Any, tmp_path: Any) -> None:
    done = invoke(
        "run",
        TRAVEL_PATH,
        "--backend",
        "inprocess",
        "--agent",
        "openai:flaky",
        "--base-url",
        served.url,
        "--out",
        tmp_path,
    )
    assert done.exit_code == 0, done.output
    lines = [line for line in done.stderr.splitlines() if line.startswith("travel-berlin-offsite #1: ")]
    states = [line.split(": ", 1)[1] for line in lines]
    assert states[:3] == ["starting apps", "seeding sandboxes", "running openai:flaky"]
    assert states[3].startswith("retrying in 0.05 s (retry 1 of 5) after HTTP 429: ") and "rate limited" in states[3]
    assert states[4].startswith("retrying in 0.05 s (retry 2 of 5) after HTTP 429")
    assert states[5].startswith("turn 1, ") and " tokens in, " in states[5]
    assert states[-2:] == ["verifying", "done"]


def test_a_suite_piped_says_when_agents_run_retry_and_error(served: Any, tmp_path: Any) -> None:
    done = invoke(
        "run",
        TRAVEL_PATH,
        "--tags",
        "travel",
        "--backend",
        "inprocess",
        "--agent",
        "openai:flaky",
        "--base-url",
        served.url,
        "--price",
        "2,8",
        "--out",
        tmp_path / "ok",
    )
    assert done.exit_code == 0, done.output
    lines = done.stderr.splitlines()
    assert "travel-berlin-offsite: running openai:flaky" in lines
    retries = [line for line in lines if line.startswith("travel-berlin-offsite: retrying in ")]
    assert len(retries) == 2 and all("after HTTP 429" in line for line in retries)
    assert not any(" turn " in line for line in lines)  # turns and tokens are for the bar, not a line each
    url = f"http://127.0.0.1:{free_port()}/v1"
    done = invoke(
        "run",
        TRAVEL_PATH,
        "--tags",
        "travel",
        "--backend",
        "inprocess",
        "--agent",
        "openai:gone",
        "--base-url",
        url,
        "--max-retries",
        "1",
        "--out",
        tmp_path / "down",
    )
    assert done.exit_code == 2
    assert "travel-berlin-offsite: retrying in " in done.stderr and "(retry 1 of 1) after " in done.stderr
    assert "travel-berlin-offsite: error: agent_error: openai:gone: the API failed after 2 attempts" in done.stderr


def test_on_a_terminal_retries_and_errors_are_lines_and_the_bar_shows_the_rest() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=200)
    runs = suite.load_all([TRAVEL_PATH])
    with suite.SuiteProgress(console, runs, 2) as progress:
        progress("start", runs[0], 0, "")
        progress("stage", runs[0], 0, "running openai:m")
        progress("stage", runs[0], 0, "turn 3, 1,200 tokens in, 90 out")
        assert "turn 3, 1,200 tokens in" in progress.progress.tasks[0].description
        progress("stage", runs[0], 1, "retrying in 4 s (retry 1 of 5) after 429 Too Many Requests")
        progress("stage", runs[0], 1, "error: agent_error: the API failed")
    text = out.getvalue()
    assert "travel-berlin-offsite #2: retrying in 4 s (retry 1 of 5) after 429 Too Many Requests" in text
    assert "travel-berlin-offsite #2: error: agent_error: the API failed" in text
    assert "travel-berlin-offsite #1: running" not in text  # the bar says it
