"""The model agent loop's own cost per turn, beside a bare `mcp.Client` replay of the same tool calls.

    python benchmarks/bench_agent_loop.py [--episodes N]

Serves the tests' fake model (`tests/agents/fake_model.py`, the scripted model that emits the reference
solution of `scenarios/travel.yaml` as tool calls) on 127.0.0.1 and runs `openai:` and `anthropic:` agents
on in-process episodes of that scenario. Per turn it takes the time from the model's reply to the next
request (parsing the reply, running the tool call through the gateway, building the next request: all but
waiting for the model), and beside it the time a bare `mcp.Client` takes to make the same call on a fresh
episode. Prints the medians; their difference is what the loop adds to a tool call.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "agents")]

from fake_model import FakeModel, Served  # noqa: E402

from orchestrator.agents.base import substitute  # noqa: E402
from orchestrator.agents.models import ModelOptions, make_model_agent  # noqa: E402
from orchestrator.backends import make_backend  # noqa: E402
from orchestrator.episode.episode import Episode  # noqa: E402
from orchestrator.scenario import load  # noqa: E402

TRAVEL = ROOT / "scenarios" / "travel.yaml"


async def loop_gaps(api: str, url: str, scenario: Any, backend: Any) -> tuple[list[float], list[float]]:
    """Per turn of one episode: seconds between the model's reply and the next request, and of those, the
    seconds spent in the gateway's tool call."""
    agent = make_model_agent(f"{api}:oracle", ModelOptions(base_url=url))
    marks: list[tuple[float, float]] = []
    calls: list[float] = []
    request, execute = agent.request, agent._execute

    async def timed() -> Any:
        began = time.perf_counter()
        reply = await request()
        marks.append((began, time.perf_counter()))
        return reply

    async def timed_call(client: Any, call: Any) -> Any:
        began = time.perf_counter()
        outcome = await execute(client, call)
        calls.append(time.perf_counter() - began)
        return outcome

    agent.request = timed  # type: ignore[method-assign]  # timed wrappers around the agent's own
    agent._execute = timed_call  # type: ignore[method-assign]  # timed wrappers around the agent's own
    endpoints = await backend.start(scenario.apps)
    async with Episode(scenario, endpoints) as episode:
        report = await agent.run(episode)
        assert (await episode.verify()).passed, report.errors
    return [marks[i + 1][0] - marks[i][1] for i in range(len(marks) - 1)], calls


async def bare_replay(scenario: Any, backend: Any) -> list[float]:
    """Seconds per tool call of a bare `mcp.Client` making the reference calls on a fresh episode."""
    endpoints = await backend.start(scenario.apps)
    times = []
    saved: dict[str, Any] = {}
    async with Episode(scenario, endpoints) as episode, episode.connect() as client:
        for step in scenario.oracle:
            args = substitute(step.args, saved)
            began = time.perf_counter()
            result = await client.call_tool(step.tool, args)
            times.append(time.perf_counter() - began)
            if step.save:
                saved[step.save] = result.structured_content
    return times


async def main(episodes: int) -> None:
    scenario = load(TRAVEL)
    backend = make_backend("inprocess", None)
    gaps: dict[str, list[float]] = {"openai": [], "anthropic": []}
    own: dict[str, list[float]] = {"openai": [], "anthropic": []}
    in_loop: dict[str, list[float]] = {"openai": [], "anthropic": []}
    bare: list[float] = []
    with Served(FakeModel(scenario.oracle)) as served:
        async with backend:
            for _ in range(episodes):  # interleaved, so load on the machine falls on all columns alike
                for api, url in (("openai", served.url), ("anthropic", served.root)):
                    turn, calls = await loop_gaps(api, url, scenario, backend)
                    gaps[api] += turn
                    in_loop[api] += calls
                    own[api] += [t - c for t, c in zip(turn, calls, strict=False)]
                bare += await bare_replay(scenario, backend)
    ms = lambda xs: statistics.median(xs) * 1000  # noqa: E731
    print(f"{scenario.id}: {len(scenario.oracle)} tool calls per episode, {episodes} episodes each; medians in ms")
    print(
        f"{'':<12}{'per turn, no model wait':>24}{'tool call in it':>17}{'loop itself':>13}{'bare mcp.Client call':>22}"
    )
    for api in gaps:
        print(f"{api:<12}{ms(gaps[api]):>24.2f}{ms(in_loop[api]):>17.2f}{ms(own[api]):>13.2f}{ms(bare):>22.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=5)
    anyio.run(main, parser.parse_args().episodes)
