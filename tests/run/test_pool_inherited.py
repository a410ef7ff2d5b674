"""Worker processes have the scenarios loaded before they were forked: an episode of one names it, the scenario is
never pickled to a worker; a scenario made after the fork still goes pickled. Real forked workers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers import SCENARIOS, TRAVEL_PATH

from orchestrator.agents.base import OracleAgent
from orchestrator.run.pool import EpisodePool
from orchestrator.run.runner import RunOptions, run_many
from orchestrator.scenario import load
from orchestrator.scenario.model import Scenario


def run_on_pool(pool: EpisodePool, scenario: Scenario, out: Path) -> Any:
    async def main() -> Any:
        async with pool:
            options = RunOptions(out=out, repeat=4, parallel=2)
            return await run_many(scenario, pool, OracleAgent, options, run_one=pool.run_episode)

    return anyio.run(main)


def test_a_scenario_loaded_before_the_fork_is_named_not_pickled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = load(TRAVEL_PATH)
    pool = EpisodePool(2)
    pool.fork(scenario.apps, [scenario])
    pickled: list[str] = []

    def refuse(self: Scenario, protocol: Any) -> Any:
        pickled.append(self.id)
        raise AssertionError("a scenario the workers have was pickled")

    monkeypatch.setattr(Scenario, "__reduce_ex__", refuse, raising=False)  # in this process, after the fork
    record = run_on_pool(pool, scenario, tmp_path)
    assert not pickled
    assert record.exit_code() == 0 and len(record.results) == 4 and all(r.passed for r in record.results)
    assert {r.episode.get("rng_seed") for r in record.results} == {0, 1, 2, 3}


def test_a_scenario_loaded_after_the_fork_is_sent_to_the_workers(tmp_path: Path) -> None:
    pool = EpisodePool(2)
    pool.fork((), [load(TRAVEL_PATH)])
    later = load(SCENARIOS / "reschedule-conflict.yaml")
    record = run_on_pool(pool, later, tmp_path)
    assert record.exit_code() == 0 and all(r.passed and r.scenario == later.id for r in record.results)
