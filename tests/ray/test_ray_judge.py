"""The LLM judge on Ray: an episode run on a Ray worker asks the judge the run was given (its `JudgeConfig` goes with
the task; the worker makes its own `Judge`), so a `judge` check is judged there as in process, not left unjudged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_judge import SCENARIO, FakeJudge

pytestmark = pytest.mark.ray


async def test_a_judge_check_is_judged_on_a_ray_worker(ray_cluster, tmp_path: Path) -> None:
    from orchestrator.agents.base import OracleAgent
    from orchestrator.cluster import RayBackend, run_episode_on_ray
    from orchestrator.record import verify_digest
    from orchestrator.run.runner import RunOptions, run_many
    from orchestrator.scenario import load
    from orchestrator.verify.judge import Judge, JudgeConfig

    path = tmp_path / "approval.yaml"
    path.write_text(SCENARIO.replace("BODY", "Hi Priya, good news: your Berlin trip is approved. Dana"))
    loaded = load(path)
    out = tmp_path / "out"
    with FakeJudge() as fake:
        judge = Judge(JudgeConfig("judge-model", fake.url, cache_dir=tmp_path / "cache"))
        async with RayBackend(ray_cluster.address) as cluster:
            record = await run_many(
                loaded, cluster, OracleAgent, RunOptions(out=out), judge=judge, run_one=run_episode_on_ray
            )
        assert [r["model"] for r in fake.requests] == ["judge-model"], "the worker did not ask the judge"
    [result] = record.results
    assert result.status == "completed" and result.episode["backend"] == "ray", result.error
    written = json.loads((out / "results.json").read_text())
    check = next(c for c in written["checks"] if c["description"].startswith("a judge says"))
    assert check["kind"] == "outcome" and check["passed"], check
    assert check["found"][0]["verdict"] == "yes" and check["found"][0]["model"] == "judge-model"
    assert written["passed"] and written["score"] == 1.0 and written["episode"]["ray"]["pid"]
    assert verify_digest(out) == []
