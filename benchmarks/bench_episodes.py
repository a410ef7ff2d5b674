"""Episode throughput: the oracle over the whole library, in process and on the `local` backend, side by side.

    python benchmarks/bench_episodes.py [--rounds N] [--parallel P] [--quick | --no-scale | --scale-only]

Runs the reference solution of every scenario in `scenarios/` (each episode
verified; a verdict that is not a pass stops the benchmark) and prints, from
one run:

- oracle episodes per second in process (backend `inprocess`, gateway in
  memory) with one worker process, and with one worker process per core;
- the same on the `local` backend (app servers as local processes, the
  gateway in memory, `--parallel` episodes at once from one process);
- what the gateway adds to a tool call over a direct call to the app (median,
  interleaved, in process);
- the median time per episode of each phase: seed, connect, tool listing,
  calls, snapshot (final state and journals), verify, teardown;
- `--parallel` episodes at once through `orchestrator run`'s own runner on
  both backends: failed or dropped calls, p50/p99 call latency, and the app
  servers' memory and open file descriptors before and after.

Targets (2 cores): >= 50 episodes/s in process, >= 10/s on `local`, the
gateway <= 0.6 ms per call, zero failed calls at any `--parallel`.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orchestrator.agents.base import OracleAgent  # noqa: E402
from orchestrator.backends import make_backend  # noqa: E402
from orchestrator.backends.base import Backend, remember_output_validators  # noqa: E402
from orchestrator.backends.inprocess import InProcessEndpoint  # noqa: E402
from orchestrator.episode.episode import Episode  # noqa: E402
from orchestrator.scenario import load  # noqa: E402
from orchestrator.scenario.model import Scenario, ScenarioError  # noqa: E402
from servers.core.mcp import bind_sandbox  # noqa: E402

PHASES = ("seed", "connect", "tools", "calls", "snapshot", "verify", "teardown")


def library() -> list[Scenario]:
    """Every scenario of `scenarios/` that loads (one that does not is named on stderr and left out)."""
    scenarios = []
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        try:
            scenarios.append(load(path))
        except ScenarioError as exc:
            print(f"left out: {exc}", file=sys.stderr)
    return scenarios


async def one_episode(scenario: Scenario, backend: Backend, rng_seed: int) -> dict[str, float]:
    """One oracle episode, verified; its phases in seconds. Raises when the verdict is not a pass."""
    endpoints = await backend.start(scenario.apps)
    started = time.perf_counter()
    async with Episode(scenario, endpoints, rng_seed=rng_seed) as episode:
        calls_started = time.perf_counter()
        report = await OracleAgent().run(episode)
        calls = time.perf_counter() - calls_started
        journal = await episode.journal()
        result = await episode.verify(journal)
    if not result.passed or report.errors:
        raise SystemExit(
            f"{scenario.id} (seed {rng_seed}): the oracle did not pass: score {result.score}, {report.errors}"
        )
    return episode.phases | {"calls": calls, "total": time.perf_counter() - started, "tool_calls": report.tool_calls}


async def throughput(backend_name: str, scenarios: list[Scenario], rounds: int, parallel: int) -> dict[str, Any]:
    """`rounds` passes over the library, `parallel` episodes at once, after one pass to warm up."""
    phases: list[dict[str, float]] = []
    async with make_backend(backend_name) as backend:
        await backend.start(sorted({app for s in scenarios for app in s.apps}))
        for index, scenario in enumerate(scenarios):  # warm-up: imports, compiled schemas, connections
            await one_episode(scenario, backend, index)
        jobs = [(scenario, r) for r in range(rounds) for scenario in scenarios]
        slots = anyio.Semaphore(parallel)

        async def run(scenario: Scenario, rng_seed: int) -> None:
            async with slots:
                phases.append(await one_episode(scenario, backend, rng_seed))

        cpu = process_cpu(backend)
        started = time.perf_counter()
        async with anyio.create_task_group() as tg:
            for scenario, r in jobs:
                tg.start_soon(run, scenario, r)
        took = time.perf_counter() - started
        cpu = process_cpu(backend) - cpu
    return {
        "episodes": len(jobs),
        "seconds": took,
        "per_s": len(jobs) / took,
        "phases": phases,
        "cpu_ms": cpu * 1000 / len(jobs),
    }


def process_cpu(backend: Backend) -> float:
    """CPU seconds used so far by this process and the backend's app server processes."""
    total = time.process_time()
    ticks = os.sysconf("SC_CLK_TCK")
    for app in getattr(backend, "apps", {}).values():
        fields = Path(f"/proc/{app.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def _worker(args: tuple[int, int]) -> dict[str, Any]:
    rounds, parallel = args
    return anyio.run(throughput, "inprocess", library(), rounds, parallel)


def inprocess_on_cores(rounds: int, workers: int, parallel: int) -> dict[str, Any]:
    """`workers` processes each running the in-process loop, `parallel` episodes at once in each (so that one
    episode's waits, such as an injected latency or a retry's back-off, leave the core to another); episodes per
    second of all of them together."""
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        started = time.perf_counter()
        results = pool.map(_worker, [(rounds, parallel)] * workers)
        took = time.perf_counter() - started
    episodes = sum(r["episodes"] for r in results)
    # Each worker's own rate, summed: the pool's start-up and imports are not episodes.
    return {"episodes": episodes, "per_s": sum(r["per_s"] for r in results), "wall_s": took}


async def gateway_cost(n: int) -> tuple[float, float]:
    """Median ms of the same read-only call made directly on the app's sandbox and through the gateway, interleaved."""
    scenario = load(ROOT / "scenarios" / "travel.yaml")
    scenario = scenario.model_copy(update={"limits": scenario.limits.model_copy(update={"max_tool_calls": None})})
    step = next(s for s in scenario.oracle if s.tool.startswith("mail__search"))
    app, tool = step.tool.split("__", 1)
    direct: list[float] = []
    gated: list[float] = []
    async with make_backend("inprocess") as backend:
        endpoints = await backend.start(scenario.apps)
        endpoint = endpoints[app]
        assert isinstance(endpoint, InProcessEndpoint)
        async with Episode(scenario, endpoints) as episode:
            # The agent's own MCP client straight on the app's server, against the same client on the gateway.
            async with Client(endpoint.server) as raw, episode.connect() as agent:
                remember_output_validators(raw)
                await raw.list_tools()
                await agent.list_tools()
                for _ in range(20):
                    with bind_sandbox(episode.sandbox_id):
                        await raw.call_tool(tool, step.args)
                    await agent.call_tool(step.tool, step.args)
                for _ in range(n):
                    t = time.perf_counter()
                    with bind_sandbox(episode.sandbox_id):
                        assert not (await raw.call_tool(tool, step.args)).is_error
                    direct.append(time.perf_counter() - t)
                    t = time.perf_counter()
                    assert not (await agent.call_tool(step.tool, step.args)).is_error
                    gated.append(time.perf_counter() - t)
    return statistics.median(direct) * 1000, statistics.median(gated) * 1000


def server_usage(backend: Backend) -> dict[str, float]:
    """RSS (MiB) and open file descriptors of the local backend's app server processes, summed."""
    rss = fds = 0.0
    for app in getattr(backend, "apps", {}).values():
        pid = app.process.pid
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss += int(line.split()[1]) / 1024
        fds += len(os.listdir(f"/proc/{pid}/fd"))
    return {"rss_mib": rss, "fds": fds}


def own_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


async def many_at_once(backend_name: str, scenario_path: Path, episodes: int, parallel: int) -> dict[str, Any]:
    """`episodes` oracle episodes of one scenario, `parallel` at once, through the runner `orchestrator run` uses."""
    from orchestrator.run.runner import RunOptions, run_many

    scenario = load(scenario_path)
    with tempfile.TemporaryDirectory() as tmp:
        async with make_backend(backend_name) as backend:
            await backend.start(scenario.apps)
            before = server_usage(backend)
            fds_before = own_fds()
            # No agent timeout: when more run at once than the CPU keeps up with, episodes take longer, not fail.
            options = RunOptions(out=Path(tmp), repeat=episodes, parallel=parallel, timeout_s=24 * 3600)
            started = time.perf_counter()
            record = await run_many(scenario, backend, OracleAgent, options)
            took = time.perf_counter() - started
            after = server_usage(backend)
            fds_after = own_fds()
        latencies: list[float] = []
        failed_calls = 0  # calls the gateway could not deliver (an exception) or that no app journaled
        for folder in record.dirs:
            trace = [json.loads(line) for line in (folder / "trace.jsonl").read_text().splitlines()]
            asked = [e for e in trace if e.get("source") == "gateway" and e.get("method") == "tools/call"]
            answered = [e for e in trace if str(e.get("source", "")).startswith("app:")]
            latencies += [e["latency_ms"] for e in asked]
            failed_calls += sum(bool(e.get("error")) for e in asked) + max(0, len(asked) - len(answered))
    latencies.sort()
    return {
        "episodes": len(record.results),
        "passed": sum(r.passed for r in record.results),
        "errors": [r.error for r in record.errors][:3],
        "error_count": len(record.errors),
        "statuses": {
            status: sum(r.status == status for r in record.results) for status in {r.status for r in record.results}
        },
        "calls": len(latencies),
        "failed_calls": failed_calls,
        "p50": latencies[len(latencies) // 2] if latencies else 0.0,
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else 0.0,
        "per_s": len(record.results) / took,
        "before": before,
        "after": after,
        "fds": (fds_before, fds_after),
    }


def phase_medians(phases: list[dict[str, float]]) -> dict[str, float]:
    return {name: statistics.median(p.get(name, 0.0) for p in phases) * 1000 for name in (*PHASES, "total")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=4, help="passes over the library per measurement (default 4)")
    parser.add_argument("--parallel", type=int, default=64, help="episodes at once in the scale section (default 64)")
    parser.add_argument(
        "--scale-episodes", type=int, default=0, help="episodes in the scale section (default 4 x --parallel)"
    )
    parser.add_argument(
        "--local-parallel", type=int, default=4, help="episodes at once in the local throughput (default 4)"
    )
    parser.add_argument(
        "--worker-parallel",
        type=int,
        default=4,
        help="episodes at once in each in-process worker of the per-core measurement (default 4)",
    )
    parser.add_argument("--quick", action="store_true", help="one round, no scale section")
    parser.add_argument("--scale-only", action="store_true", help="only the --parallel section")
    parser.add_argument("--no-scale", action="store_true", help="leave out the --parallel section")
    args = parser.parse_args()
    if args.scale_only:
        scale_section(args)
        return
    rounds = 1 if args.quick else args.rounds
    scenarios = library()
    cores = os.cpu_count() or 1

    inproc = anyio.run(throughput, "inprocess", scenarios, rounds, 1)
    on_cores = inprocess_on_cores(rounds, cores, args.worker_parallel) if cores > 1 else None
    local = anyio.run(throughput, "local", scenarios, rounds, args.local_parallel)
    direct_ms, gated_ms = anyio.run(gateway_cost, 200 if args.quick else 1000)
    calls = statistics.median(p["tool_calls"] for p in inproc["phases"])

    def verdict(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    n = inproc["episodes"]
    print(
        f"oracle over {len(scenarios)} scenarios x {rounds} rounds ({n} episodes per measurement), median {calls:g} tool calls each"
    )
    print(
        f"in process, 1 worker                 {inproc['per_s']:8.1f} episodes/s   {inproc['cpu_ms']:6.1f} CPU-ms per episode"
    )
    best = inproc["per_s"]
    if on_cores is not None:
        best = on_cores["per_s"]
        print(
            f"in process, {cores} workers (1 per core, {args.worker_parallel} at once each)   {on_cores['per_s']:8.1f} episodes/s   "
            f"target >= 50   {verdict(best >= 50)}"
        )
    print(
        f"local backend, {args.local_parallel} at once            {local['per_s']:8.1f} episodes/s   {local['cpu_ms']:6.1f} CPU-ms per episode (servers included)   target >= 10   {verdict(local['per_s'] >= 10)}"
    )
    print(f"  ratio in process (1 worker) / local  {inproc['per_s'] / local['per_s']:8.2f} x")
    added = gated_ms - direct_ms
    print(f"tool call direct to the app           {direct_ms:8.3f} ms (median)")
    print(f"tool call through the gateway         {gated_ms:8.3f} ms (median)")
    print(f"  gateway adds                         {added:8.3f} ms per call  target <= 0.6  {verdict(added <= 0.6)}")
    print(f"  ratio gateway / direct               {gated_ms / direct_ms:8.2f} x")
    print("median ms per episode phase:")
    mi, ml = phase_medians(inproc["phases"]), phase_medians(local["phases"])
    print(f"  {'phase':10} {'in process':>11} {'local':>9}")
    for name in (*PHASES, "total"):
        print(f"  {name:10} {mi[name]:11.2f} {ml[name]:9.2f}")
    if not args.quick and not args.no_scale:
        scale_section(args)


def scale_section(args: argparse.Namespace) -> None:
    def verdict(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    episodes = args.scale_episodes or 4 * args.parallel
    for backend_name in ("inprocess", "local"):
        scale = anyio.run(many_at_once, backend_name, ROOT / "scenarios" / "travel.yaml", episodes, args.parallel)
        print(
            f"{backend_name}: {scale['episodes']} episodes, {args.parallel} at once (orchestrator run): "
            f"{scale['passed']} passed, statuses {scale['statuses']}, {scale['failed_calls']} failed or dropped of {scale['calls']} calls, "
            f"{scale['per_s']:.1f} episodes/s; call latency p50 {scale['p50']:.1f} ms, p99 {scale['p99']:.1f} ms"
            f"   zero failed   {verdict(scale['passed'] == scale['episodes'] and scale['failed_calls'] == 0)}"
        )
        if scale["errors"]:
            print(f"  first errors: {scale['errors']}")
        if backend_name == "local":
            b, a = scale["before"], scale["after"]
            print(
                f"  app servers: {b['rss_mib']:.0f} -> {a['rss_mib']:.0f} MiB, {b['fds']:.0f} -> {a['fds']:.0f} open fds"
            )
        print(f"  orchestrator open fds: {scale['fds'][0]} -> {scale['fds'][1]}")


if __name__ == "__main__":
    main()
