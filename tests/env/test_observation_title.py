"""The reset observation names the task as the gateway does ("Your task"), never by the scenario's own title: a
title is written for the scenario's readers and tells what is coming ("... after Sam declines", "... while the
tracker rate-limits"), which the gateway hides from MCP agents; an env's agent gets no more. Every library
scenario, reset on real in-process app servers, through the environment API and OpenEnv's observation."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from helpers import SCENARIOS

from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.env import ClawGymEnv
from orchestrator.episode.gateway import AGENT_TITLE
from orchestrator.scenario.model import load

FILES = sorted(p for p in SCENARIOS.glob("*.yaml"))


@pytest.fixture(scope="module")
def backend() -> Any:
    shared = InProcessBackend()
    yield shared
    anyio.run(shared.close)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_observation_does_not_carry_the_scenarios_title(backend: Any, path: Any) -> None:
    scenario = load(path)

    async def reset() -> dict[str, Any]:
        async with ClawGymEnv(backend) as env:
            return (await env.reset(scenario, seed=0)).model_dump(mode="json")

    obs = anyio.run(reset)
    assert obs["title"] == AGENT_TITLE
    shown = json.dumps({k: v for k, v in obs.items() if k not in ("tools", "openai_tools", "anthropic_tools")})
    if scenario.title not in scenario.instruction:  # a title the task itself says is no news
        assert scenario.title not in shown and json.dumps(scenario.title)[1:-1] not in shown


def test_openenvs_reset_observation_carries_no_title(backend: Any) -> None:
    pytest.importorskip("openenv")
    from orchestrator.env.openenv import ClawGymResetObservation

    scenario = load(SCENARIOS / "declined-meeting.yaml")

    async def reset() -> Any:
        async with ClawGymEnv(backend) as env:
            return await env.reset(scenario, seed=0)

    wire = ClawGymResetObservation(**anyio.run(reset).model_dump(), done=False, reward=None).model_dump(mode="json")
    assert wire["title"] == AGENT_TITLE and scenario.title not in json.dumps(wire)
