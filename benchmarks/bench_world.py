"""The cost of a living world per tool call, beside the same calls without one.

    python benchmarks/bench_world.py [--calls N] [--rounds R]

One in-process episode of `scenarios/declined-meeting.yaml` as written (a
clock that moves with every call, an event waiting on a state trigger,
people's rules watching mail and calendar), and one of the same scenario with
its `world:` section removed. Through a real MCP client on the gateway, both
make the same calls, interleaved, and the benchmark prints the median per
call:

- a read (`mail__search_messages`): the engine's before/after hooks and the
  time in `_meta`;
- a write the world watches (`mail__star` / `mail__unstar`): the hooks plus
  reading the rows the call changed (the app's journal since the last look)
  for triggers and people's rules;
- applying one event with a new row (a colleague's mail through the seed
  loader), measured on its own.

The world's cost should stay small next to the call itself.
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
sys.path.insert(0, str(ROOT))

from orchestrator.backends.inprocess import InProcessBackend  # noqa: E402
from orchestrator.episode.episode import Episode  # noqa: E402
from orchestrator.scenario import load  # noqa: E402
from orchestrator.scenario.model import Scenario  # noqa: E402

CALLS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "read": [("mail__search_messages", {"query": "design review"})],
    "watched write": [("mail__star", {"message_ids": ["notes"]}), ("mail__unstar", {"message_ids": ["notes"]})],
}


def time_hooks(episode: Episode, spent: list[float]) -> None:
    """Record the time the world's hooks take per call (before + after), apart from the call."""
    engine = episode.gateway.world if episode.gateway else None
    if engine is None:
        return
    before, after = engine.before_call, engine.after_call
    pending: list[float] = []

    async def timed_before(tool: str) -> Any:
        started = time.perf_counter()
        try:
            return await before(tool)
        finally:
            pending.append(time.perf_counter() - started)

    async def timed_after(*args: Any) -> None:
        started = time.perf_counter()
        try:
            await after(*args)
        finally:
            spent.append((pending.pop() + time.perf_counter() - started) * 1000)

    engine.before_call, engine.after_call = timed_before, timed_after


async def interleaved(still: Episode, living: Episode, kind: str, n: int) -> tuple[list[float], list[float]]:
    """The same call on both episodes, alternating, so both see the same machine load."""
    calls = CALLS[kind]
    out: tuple[list[float], list[float]] = ([], [])
    async with still.connect() as a, living.connect() as b:
        for i in range(n + len(calls)):
            tool, args = calls[i % len(calls)]
            for times, client in zip(out, (a, b), strict=True):
                started = time.perf_counter()
                result = await client.call_tool(tool, args)
                if i >= len(calls):  # the first round warms up
                    times.append((time.perf_counter() - started) * 1000)
                assert not result.is_error, result
    return out


async def event_cost(scenario: Scenario, backend: InProcessBackend, n: int) -> list[float]:
    out = []
    async with Episode(scenario, await backend.start(scenario.apps)) as episode:
        endpoint = episode.endpoints["mail"]
        for i in range(n):
            change = {
                "event": f"bench-{i}",
                "add": {"messages": [{"from": "sam@acme.test", "subject": f"News {i}", "body": "x"}]},
            }
            started = time.perf_counter()
            await endpoint.apply_world(episode.sandbox_id, change)
            out.append((time.perf_counter() - started) * 1000)
    return out


async def main(calls: int, rounds: int) -> None:
    living = load(ROOT / "scenarios" / "declined-meeting.yaml")
    still = living.model_copy(update={"world": None})
    samples: dict[tuple[str, str], list[float]] = {}
    hooks: dict[str, list[float]] = {}
    async with InProcessBackend() as backend:
        for _ in range(rounds):
            for kind in CALLS:
                async with (
                    Episode(still, await backend.start(still.apps)) as a,
                    Episode(living, await backend.start(living.apps)) as b,
                ):
                    time_hooks(b, hooks.setdefault(kind, []))
                    without, with_world = await interleaved(a, b, kind, calls)
                samples.setdefault((kind, "without world"), []).extend(without)
                samples.setdefault((kind, "with world"), []).extend(with_world)
        events = await event_cost(living, backend, max(20, calls // 10))
    print(f"median per tool call through the gateway, in process ({rounds} x {calls} calls each)")
    for kind in CALLS:
        without = statistics.median(samples[(kind, "without world")])
        with_world = statistics.median(samples[(kind, "with world")])
        alone = statistics.median(hooks[kind][len(CALLS[kind]) :])
        print(
            f"  {kind:<14} without world {without:7.3f} ms   with world {with_world:7.3f} ms   "
            f"world adds {with_world - without:+.3f} ms   (the engine's hooks alone: {alone:.3f} ms)"
        )
    print(f"  applying one event with a new mail row: {statistics.median(events):.3f} ms (median of {len(events)})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    anyio.run(main, options.calls, options.rounds)
