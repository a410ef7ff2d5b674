"""A run of many episodes starts them as slots free up: a huge --repeat holds the running episodes' tasks only,
not one waiting task per planned episode."""

from __future__ import annotations

import asyncio
from pathlib import Path

from helpers import TRAVEL_PATH

from orchestrator.agents.base import NoopAgent
from orchestrator.run.runner import RunOptions, failed_result, run_many
from orchestrator.scenario import load


async def test_a_large_repeat_keeps_only_the_running_episodes_as_tasks(backend, tmp_path: Path) -> None:
    scenario = load(TRAVEL_PATH)
    seen: list[int] = []

    async def one_episode(scenario, backend, agent, *, folder, rng_seed, **_):  # noqa: ANN001, ANN202
        await asyncio.sleep(0)
        seen.append(len(asyncio.all_tasks()))
        return failed_result(scenario, "completed", "", {"rng_seed": rng_seed})  # not played: the test counts tasks

    options = RunOptions(out=tmp_path / "many", repeat=3000, parallel=4, seed=0)
    record = await run_many(scenario, backend, NoopAgent, options, run_one=one_episode, watch=None)
    assert len(record.results) == 3000 and len(seen) == 3000
    assert max(seen) < 40, f"{max(seen)} tasks alive while 4 episodes run at once"
