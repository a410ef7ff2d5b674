"""The orchestrator's own agents reach the gateway in process without JSON-RPC (`InProcessSession`): over the whole
library, the oracle gets the same answers, the trace the same entries and the verdict the same score as through a
real MCP client session on the gateway; the call limit, unknown tools and the listing behave the same."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from helpers import SCENARIOS, TRAVEL_PATH
from mcp import Client

from orchestrator import scenario as scenarios
from orchestrator.agents.base import OracleAgent
from orchestrator.backends.base import trust_results
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.episode.episode import Episode
from orchestrator.episode.gateway import InProcessSession
from orchestrator.scenario import load

LIBRARY = sorted(scenarios.discover([SCENARIOS]))
VARYING = {"wall", "latency_ms", "duration_s"}


class OverMcp(Episode):
    """An episode whose trusted agents talk to the gateway through a real MCP client session, as before."""

    @contextlib.asynccontextmanager
    async def connect(self, *, trusted: bool = False) -> AsyncIterator[Any]:
        assert self.gateway is not None
        async with Client(self.gateway.server) as client:
            if trusted:
                trust_results(client)
            yield client


class Answers(OracleAgent):
    """The oracle, keeping every answer it got in the form the agent reads it."""

    def __init__(self) -> None:
        super().__init__()
        self.answers: list[dict[str, Any]] = []

    async def run(self, episode: Any) -> Any:
        outer = episode.connect

        @contextlib.asynccontextmanager
        async def connect(*, trusted: bool = False) -> AsyncIterator[Any]:
            async with outer(trusted=trusted) as client:
                call = client.call_tool

                async def keep(name: str, arguments: dict[str, Any] | None = None) -> Any:
                    result = await call(name, arguments)
                    self.answers.append(result.model_dump(mode="json", by_alias=True, exclude_none=True))
                    return result

                client.call_tool = keep
                yield client

        episode.connect = connect
        return await super().run(episode)


def steady(value: Any) -> Any:
    """`value` without what differs from run to run (wall times, latencies)."""
    if isinstance(value, dict):
        return {k: steady(v) for k, v in value.items() if k not in VARYING}
    if isinstance(value, list):
        return [steady(v) for v in value]
    return value


def by_source(trace: list[dict[str, Any]]) -> list[Any]:
    return sorted(steady(trace), key=lambda e: (e["source"], e["seq"]))


async def _run(cls: type[Episode], path: Any) -> tuple[list[Any], list[Any], dict[str, Any]]:
    scenario = load(path)
    agent = Answers()
    async with InProcessBackend() as backend:
        endpoints = await backend.start(scenario.apps)
        async with cls(scenario, endpoints, rng_seed=5, episode_id="same") as episode:
            report = await agent.run(episode)
            assert not report.errors, report.errors
            result, journal = await episode.finish()
            trace = await episode.merged_trace(journal)
    verdict = result.model_dump(mode="json")
    return agent.answers, trace, steady(verdict)


@pytest.mark.parametrize("path", LIBRARY, ids=[p.stem for p in LIBRARY])
def test_the_oracle_in_process_gets_the_answers_trace_and_verdict_an_mcp_session_gets(path: Any) -> None:
    answers, trace, verdict = anyio.run(_run, Episode, path)
    mcp_answers, mcp_trace, mcp_verdict = anyio.run(_run, OverMcp, path)
    assert answers == mcp_answers and len(answers) >= 3
    # the timeline is in wall-clock order, which can swap entries of the same millisecond: compare by source
    assert by_source(trace) == by_source(mcp_trace)
    assert [e["method"] for e in trace if e["source"] == "gateway"][0] == "server/discover"
    assert verdict == mcp_verdict and verdict["passed"]


def test_limits_unknown_tools_and_the_listing_are_the_same_as_over_mcp() -> None:
    scenario = load(TRAVEL_PATH).model_copy(deep=True)
    scenario.limits.max_tool_calls = 2

    async def run(cls: type[Episode]) -> tuple[list[Any], list[Any], list[str]]:
        async with InProcessBackend() as backend:
            async with cls(scenario, await backend.start(scenario.apps), rng_seed=1, episode_id="x") as episode:
                async with episode.connect(trusted=True) as client:
                    if cls is Episode:
                        assert isinstance(client, InProcessSession)
                    names = [t.name for t in (await client.list_tools()).tools]
                    answers = []
                    for name in ("nope__nothing", names[0], names[1], names[2], names[3]):
                        result = await client.call_tool(name, {})
                        answers.append(result.model_dump(mode="json", exclude={"meta"}))
                return answers, steady(episode.trace.entries), names

    direct = anyio.run(run, Episode)
    over_mcp = anyio.run(run, OverMcp)
    assert direct == over_mcp
    answers, entries, _ = direct
    assert "Unknown tool" in answers[0]["content"][0]["text"]
    assert "Tool-call limit reached" in answers[-1]["content"][0]["text"]
    assert entries[-1]["refused_calls"] == 2  # the refusals counted on one entry, as over MCP
