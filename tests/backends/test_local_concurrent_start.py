"""Episodes of a suite start the local backend's servers concurrently; each gets the endpoints of its apps.

An episode that found an app already spawned by another used to go on before that app was ready and met
`KeyError: 'mail'` (`orchestrator run a.yaml b.yaml --parallel 2` on the default backend).
"""

from __future__ import annotations

from pathlib import Path

import anyio
from helpers import ROOT

from orchestrator.agents.base import OracleAgent
from orchestrator.backends.local import LocalBackend
from orchestrator.run import suite


async def test_concurrent_starts_each_get_every_app_they_asked_for() -> None:
    asked = [["calendar", "mail"], ["mail"], ["mail", "docs"], ["calendar"]]
    got: list[set[str]] = [set() for _ in asked]
    async with LocalBackend() as local:

        async def start(index: int) -> None:
            got[index] = set(await local.start(asked[index]))

        async with anyio.create_task_group() as tg:
            for index in range(len(asked)):
                tg.start_soon(start, index)
        for index, apps in enumerate(asked):
            assert set(apps) <= got[index], (apps, got[index])
        assert sorted(local.apps) == ["calendar", "docs", "mail"]  # each spawned once


async def test_a_parallel_suite_on_local_passes_every_scenario_with_the_oracle(tmp_path: Path) -> None:
    files = [ROOT / "scenarios" / name for name in ("travel.yaml", "changed-request.yaml", "contract-review.yaml")]
    runs = suite.load_all(files)
    async with LocalBackend() as local:
        record = await suite.run_suite(runs, local, OracleAgent, suite.SuiteOptions(out=tmp_path, parallel=3))
    outcomes = {run.file.name: (run.record.passed if run.record else run.problems) for run in record.runs}
    assert outcomes == {file.name: True for file in files}
