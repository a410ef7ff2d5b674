"""Running episodes for `orchestrator run`: serve the gateway, run the agent, verify, write the record.

Each episode writes into its own folder:

    results.json   the verdict (scenario, passed, score, stages, checks, changes, violations, journal, episode)
    trace.jsonl    the gateway's trace and the app journals, one timeline
    agent.log      what a command agent printed (cmd: agents only)
    mcp.json       the MCP config handed to a command agent

With `--repeat K`, episodes go to `episode-001/` … and `results.json` at the
top summarizes them with pass@k and pass^k.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import Any

import anyio

from orchestrator.agents.base import Agent, AgentReport
from orchestrator.backends.base import Backend
from orchestrator.episode.episode import Episode
from orchestrator.verify.results import Result
from orchestrator.scenario.model import Scenario
from orchestrator.episode.serving import serve_http


@dataclass
class RunOptions:
    out: Path
    seed: int = 0
    repeat: int = 1
    parallel: int = 1
    timeout_s: float | None = None


@dataclass
class RunRecord:
    results: list[Result] = field(default_factory=list)
    dirs: list[Path] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.results) and all(r.passed for r in self.results)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Chance that at least one of k episodes passes, estimated from c passes in n."""
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Chance that all of k episodes pass, estimated from c passes in n."""
    return comb(c, k) / comb(n, k)


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_suffix(path.suffix + ".tmp")
    scratch.write_text(json.dumps(data, indent=2, default=str) + "\n")
    scratch.replace(path)


def write_episode(folder: Path, result: Result, trace: list[dict[str, Any]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "trace.jsonl").open("w") as out:
        for entry in trace:
            out.write(json.dumps(entry, default=str) + "\n")
    write_json(folder / "results.json", result.model_dump(mode="json"))


async def run_episode(
    scenario: Scenario,
    backend: Backend,
    agent: Agent,
    *,
    folder: Path,
    rng_seed: int,
    timeout_s: float | None = None,
    on_stage: Callable[[str], None] = lambda _: None,
) -> Result:
    on_stage("starting apps")
    endpoints = await backend.start(scenario.apps)
    on_stage("seeding sandboxes")
    async with Episode(scenario, endpoints, rng_seed=rng_seed, workdir=folder) as episode:
        assert episode.gateway is not None
        async with serve_http(episode.gateway) as url:
            episode.gateway_url = url
            on_stage(f"running {agent.name}")
            timeout = timeout_s or scenario.limits.timeout_s
            with anyio.move_on_after(timeout) as scope:
                report = await agent.run(episode)
            if scope.cancelled_caught:
                report = AgentReport(agent=agent.name, timed_out=True, errors=[f"stopped after the {timeout:g} s timeout"])
        on_stage("verifying")
        journal = await episode.journal()
        result = await episode.verify(journal)
        result.episode.update({"agent": report.as_dict(), "backend": backend.name, "gateway": url})
        write_episode(folder, result, await episode.merged_trace(journal))
    return result


async def run_many(
    scenario: Scenario,
    backend: Backend,
    make_agent: Callable[[], Agent],
    options: RunOptions,
    on_stage: Callable[[int, str], None] = lambda _k, _s: None,
) -> RunRecord:
    record = RunRecord()
    slots = anyio.Semaphore(max(1, options.parallel))
    results: dict[int, Result] = {}

    async def one(index: int) -> None:
        folder = options.out if options.repeat == 1 else options.out / f"episode-{index + 1:03d}"
        async with slots:
            results[index] = await run_episode(
                scenario, backend, make_agent(), folder=folder, rng_seed=options.seed + index,
                timeout_s=options.timeout_s, on_stage=lambda stage: on_stage(index, stage),
            )  # fmt: skip
        on_stage(index, "done")

    await backend.start(scenario.apps)  # once, before episodes race to start the same servers
    async with anyio.create_task_group() as tg:
        for index in range(options.repeat):
            tg.start_soon(one, index)
    for index in sorted(results):
        record.results.append(results[index])
        record.dirs.append(options.out if options.repeat == 1 else options.out / f"episode-{index + 1:03d}")
    if options.repeat > 1:
        write_json(options.out / "results.json", summary(scenario, record, options))
    return record


def summary(scenario: Scenario, record: RunRecord, options: RunOptions) -> dict[str, Any]:
    """Several episodes of one scenario: pass@k, pass^k, mean scores per stage and pass rates per check."""
    n = len(record.results)
    c = sum(r.passed for r in record.results)
    first = record.results[0]
    return {
        "scenario": scenario.id,
        "title": scenario.title,
        "passed": c == n,
        "score": round(sum(r.score for r in record.results) / n, 6),
        "episodes": n,
        "passes": c,
        "pass_at_k": {str(k): round(pass_at_k(n, c, k), 6) for k in range(1, n + 1)},
        "pass_hat_k": {str(k): round(pass_hat_k(n, c, k), 6) for k in range(1, n + 1)},
        "stages": [
            {"name": stage.name, "weight": stage.weight, "mean_score": round(sum(r.stages[i].score for r in record.results) / n, 6)}
            for i, stage in enumerate(first.stages)
        ],
        "checks": [
            {"id": check.id, "stage": check.stage, "description": check.description,
             "pass_rate": round(sum(r.checks[i].passed for r in record.results) / n, 6)}
            for i, check in enumerate(first.checks)
        ],  # fmt: skip
        "results": [
            {"folder": str(d), "passed": r.passed, "score": r.score, "rng_seed": r.episode.get("rng_seed")}
            for d, r in zip(record.dirs, record.results, strict=True)
        ],
        "seed": options.seed,
        "written_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
