"""How a model agent's episode ends and what it counts: at the scenario's tool-call limit, not at `max_turns`; every
retry in `usage.retries`, those of a request that failed for good included.

The model is the fake server of `fake_model.py` over real HTTP; the SDK, the loop, the gateway and the apps are real
(in process)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_model import FakeModel, Served
from helpers import TRAVEL_PATH
from typer.testing import CliRunner

from orchestrator.agents.models import ModelOptions, make_model_agent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.cli import app
from orchestrator.episode.episode import Episode
from orchestrator.scenario import load


@pytest.fixture(scope="module")
def fake() -> Any:
    with Served(FakeModel(load(TRAVEL_PATH).oracle)) as served:
        yield served


async def episode_of(spec: str, options: ModelOptions, tmp_path: Path, max_tool_calls: int | None = None) -> Any:
    scenario = load(TRAVEL_PATH)
    if max_tool_calls is not None:
        scenario = scenario.model_copy(
            update={"limits": scenario.limits.model_copy(update={"max_tool_calls": max_tool_calls})}
        )
    agent = make_model_agent(spec, options)
    async with InProcessBackend() as backend:
        endpoints = await backend.start(scenario.apps)
        async with Episode(scenario, endpoints, workdir=tmp_path) as episode:
            report = await agent.run(episode)
            assert episode.gateway is not None
            return report, episode.gateway.calls


@pytest.mark.slow
async def test_a_model_that_never_stops_ends_at_the_scenarios_tool_call_limit(fake: Served, tmp_path: Path) -> None:
    before = len([r for r in fake.model.requests if r["body"]["model"] == "loop"])
    report, calls = await episode_of("openai:loop", ModelOptions(base_url=fake.url, max_turns=50), tmp_path, 4)
    asked = len([r for r in fake.model.requests if r["body"]["model"] == "loop"]) - before
    assert calls == 4 and report.tool_calls == 4 and asked == 4, (calls, report.tool_calls, asked)
    assert any("tool-call limit of 4" in e for e in report.errors), report.errors
    assert not any("--max-turns" in e for e in report.errors)


async def test_the_reference_model_under_the_limit_is_not_stopped(fake: Served, tmp_path: Path) -> None:
    report, calls = await episode_of("openai:oracle", ModelOptions(base_url=fake.url), tmp_path)
    assert calls == len(load(TRAVEL_PATH).oracle) and report.errors == []


@pytest.mark.parametrize("api", ["openai", pytest.param("anthropic", marks=pytest.mark.slow)])
async def test_usage_counts_the_retries_of_a_request_that_failed_for_good(
    fake: Served, tmp_path: Path, api: str
) -> None:
    url = fake.url if api == "openai" else fake.root
    options = ModelOptions(base_url=url, api_key="test", max_retries=3, backoff_s=0.01, max_backoff_s=0.01)
    report, _ = await episode_of(f"{api}:broken", options, tmp_path)
    assert report.api_error and "after 4 attempts" in report.api_error
    assert report.usage["retries"] == 3, report.usage


async def test_usage_counts_the_retries_of_turns_that_succeeded(fake: Served, tmp_path: Path) -> None:
    fake.model.counts.pop("flaky", None)
    options = ModelOptions(base_url=fake.url, backoff_s=0.01)
    report, _ = await episode_of("openai:flaky", options, tmp_path)
    assert report.usage["retries"] == 2 and report.turns[0]["retries"] == 2


def test_model_provider_slash_name_is_the_model_agent(fake: Served, tmp_path: Path) -> None:
    # inspect's spelling: --model openai/NAME is --agent openai:NAME.
    out = tmp_path / "run"
    args = ["run", str(TRAVEL_PATH), "--backend", "inprocess", "--base-url", fake.url, "--out", str(out)]
    done = CliRunner().invoke(app, [*args, "--model", "openai/oracle"])
    assert done.exit_code == 0, done.output
    agent = json.loads((out / "results.json").read_text())["episode"]["agent"]
    assert agent["agent"] == "openai:oracle" and agent["tool_calls"] == len(load(TRAVEL_PATH).oracle)
    for model, message in [
        ("gpt-4.1", "--model gpt-4.1: expected PROVIDER/NAME"),
        ("openai/", "--model openai/: expected PROVIDER/NAME"),
        ("vllm/llama", "--model vllm/llama: the providers are openai, anthropic"),
    ]:
        done = CliRunner().invoke(app, [*args, "--model", model])
        assert done.exit_code == 2 and message in " ".join(done.output.split()), done.output
    done = CliRunner().invoke(app, [*args, "--model", "openai/oracle", "--agent", "noop"])
    assert done.exit_code == 2 and "give one of them" in done.output
