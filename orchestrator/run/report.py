"""What a run's episodes add up to: a repeat's summary, the agents' tool-call latency, the console lines for what
went wrong.

`summary` is the `results.json` at the top of a `--repeat` run (passes, failures, mean score, pass@k and pass^k over
the scored episodes, the errored ones apart); `call_latency` reads the gateway's trace of tool calls; `episode_problems`
says what went wrong besides the verdict. `orchestrator.run.runner` writes the records they read.

May import `orchestrator.record`, `orchestrator.scenario`, `orchestrator.verify` and `orchestrator.agents`.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orchestrator.record import is_errored, tally
from orchestrator.scenario.model import Scenario
from orchestrator.verify.results import Result

if TYPE_CHECKING:
    from orchestrator.run.runner import RunOptions, RunRecord


def is_call(entry: dict[str, Any]) -> bool:
    """Whether a trace entry is an agent's tool call as the gateway traced it."""
    return entry.get("source") == "gateway" and entry.get("method") == "tools/call"


def answered_with_error(entry: dict[str, Any]) -> bool:
    """Whether the gateway traced that call as answered with an error."""
    return bool(entry.get("error") or entry.get("is_error"))


def call_latency(folders: list[Path], results: list[Result] | None = None) -> dict[str, Any]:
    """The agents' tool calls of these episodes as the gateway traced them: how many, how many were answered with
    an error (errors a task expects included), and the median, 99th percentile and largest latency in ms. Read from
    each folder's trace.jsonl, or from its result when the episode ran in this run (`Result._calls`)."""
    latencies: list[float] = []
    errors = 0
    for index, folder in enumerate(folders):
        calls = results[index]._calls if results is not None and index < len(results) else None
        if calls is not None:
            latencies += [latency for latency, _ in calls]
            errors += sum(error for _, error in calls)
            continue
        with contextlib.suppress(OSError):
            for line in (folder / "trace.jsonl").read_text().splitlines():
                if '"tools/call"' not in line:  # read only the lines that can be a tool call
                    continue
                with contextlib.suppress(ValueError):
                    entry = json.loads(line)
                    if is_call(entry):
                        latencies.append(float(entry.get("latency_ms") or 0.0))
                        errors += answered_with_error(entry)
    latencies.sort()

    def at(q: float) -> float | None:
        return round(latencies[min(len(latencies) - 1, int(q * len(latencies)))], 3) if latencies else None

    return {"count": len(latencies), "errors": errors, "p50_ms": at(0.5), "p99_ms": at(0.99), "max_ms": at(1.0)}


def summary(scenario: Scenario, record: RunRecord, options: RunOptions) -> dict[str, Any]:
    """Several episodes of one scenario: passes, failures, mean score, pass@k and pass^k, mean scores per stage and
    pass rates per check, all over the scored episodes; the errored ones (`is_errored`) counted apart with their
    reasons (`orchestrator.record.tally`)."""
    counts = tally(record.results)
    scored = [r for r in record.results if not is_errored(r.status)]
    first = next((r for r in scored if r.stages), next((r for r in record.results if r.stages), record.results[0]))
    n = len(scored)

    def mean(values: list[float]) -> float | None:
        return round(sum(values) / n, 6) if n else None

    def stage_score(r: Result, i: int) -> float:
        return r.stages[i].score if len(r.stages) == len(first.stages) else 0.0

    def check_passed(r: Result, i: int) -> bool:
        return r.checks[i].passed if len(r.checks) == len(first.checks) else False

    statuses: dict[str, int] = {}
    for r in record.results:
        statuses[r.status] = statuses.get(r.status, 0) + 1
    return {
        "scenario": scenario.id,
        "title": scenario.title,
        "passed": record.passed,
        **counts.as_dict(),
        "statuses": statuses,
        "interrupted": record.interrupted,
        "stopped": record.stopped,
        "file": str(scenario.path) if scenario.path else None,
        "stages": [
            {"name": stage.name, "weight": stage.weight, "mean_score": mean([stage_score(r, i) for r in scored])}
            for i, stage in enumerate(first.stages)
        ],
        "checks": [
            {
                "id": check.id,
                "stage": check.stage,
                "description": check.description,
                "pass_rate": mean([float(check_passed(r, i)) for r in scored]),
            }
            for i, check in enumerate(first.checks)
        ],
        "results": [
            {
                "folder": str(d),
                "passed": r.passed,
                "score": r.score,
                "rng_seed": r.episode.get("rng_seed"),
                "status": r.status,
                "error": r.error,
            }
            for d, r in zip(record.dirs, record.results, strict=True)
        ],
        "calls": call_latency(record.dirs, record.results),
        "seed": options.seed,
        "written_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def episode_problems(record: RunRecord, tail: int = 5, *, whole_run: bool = True) -> list[str]:
    """Console lines for what went wrong besides the verdict: the agent's exit code, crash or timeout (with the
    end of its log), episodes that ended in error, and (`whole_run`) an interrupted or stopped run."""
    from orchestrator.agents.agent_process import describe_exit

    lines: list[str] = []
    many = len(record.results) > 1
    for index, (folder, result) in enumerate(zip(record.dirs, record.results, strict=True), 1):
        where = f"episode {index}: " if many else ""
        agent = result.episode.get("agent") or {}
        if result.status == "error":
            lines.append(f"{where}ERROR: {result.error}")
        if result.status == "agent_error":
            what = "MODEL API ERROR" if agent.get("api_error") else "AGENT ERROR"
            lines.append(f"{where}{what} (not scored): {result.error or agent.get('api_error')}")
        if agent.get("timed_out"):
            lines.append(f"{where}the agent was stopped by the timeout after {agent.get('duration_s', 0):g} s")
        elif agent.get("exit_code"):
            if result.status != "agent_error":  # (an agent that never started: said above)
                lines.append(f"{where}the agent {describe_exit(agent['exit_code'])}")
            log = folder / "agent.log"
            if log.exists():
                last = log.read_text(errors="replace").strip().splitlines()[-tail:]
                lines += [f"  agent.log: {line}" for line in last]
    if record.interrupted and whole_run:
        lines.append(
            f"interrupted by {record.interrupted}: the agent was stopped; results written with status interrupted"
        )
    elif record.stopped and whole_run:
        lines.append(f"stopped early by {record.stopped}; the episodes stopped are recorded with status interrupted")
    return lines
