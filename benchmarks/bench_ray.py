"""Episodes per second on `--backend ray` with 1 and 2 workers on this machine, side by side in one run.

    python benchmarks/bench_ray.py [--rounds 3] [--repeat 1] [--scenarios scenarios/]

For each worker count a local Ray is started on 127.0.0.1 with that many CPUs (one worker process per
CPU, each hosting the app servers in process), warmed up with one pass over the batch (worker
processes started, modules imported), then the oracle runs the whole batch `--rounds` times with
twice as many episodes in flight as workers, through the same suite runner `orchestrator run DIR`
uses (folders and results.json written). Printed: the median episodes/s per worker count, the ratio
2 workers / 1 worker, and beside them the in-process backend in this one process (no Ray), which is
what one worker can do at best; the CPU time this process spends per episode (for Ray: the driver's
cost per result, which bounds how many episodes/s one driver can take in) and the bytes a worker sends
back per episode (results.json + trace.jsonl).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orchestrator.agents.base import OracleAgent  # noqa: E402
from orchestrator.backends.base import Backend  # noqa: E402
from orchestrator.backends.inprocess import InProcessBackend  # noqa: E402
from orchestrator.run import suite  # noqa: E402


async def one_pass(
    backend: Backend, files: list[Path], out: Path, repeat: int, parallel: int
) -> tuple[int, float, int]:
    """Episodes run, seconds, and bytes of their folders."""
    runs = suite.load_all(files)
    options = suite.SuiteOptions(out=out, repeat=repeat, parallel=parallel)
    started = time.perf_counter()
    record = await suite.run_suite(runs, backend, OracleAgent, options)
    elapsed = time.perf_counter() - started
    results = [r for run in record.runs if run.record for r in run.record.results]
    failed = [r.scenario for r in results if not r.passed]
    if failed:
        raise SystemExit(f"the oracle failed {failed}: the batch must pass to be a fair measure")
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file() and p.name in ("results.json", "trace.jsonl"))
    return len(results), elapsed, size


def measure(make: callable, files: list[Path], rounds: int, repeat: int, parallel: int) -> tuple[float, float, float]:
    """Median episodes/s over `rounds` after one warm-up pass; bytes per episode; this process's CPU ms per episode."""

    async def main() -> tuple[list[float], float, float]:
        rates = []
        per_episode = cpu_ms = 0.0
        async with make() as backend:
            with tempfile.TemporaryDirectory(prefix="bench-ray-") as scratch:
                await one_pass(backend, files, Path(scratch) / "warm", repeat, parallel)
                total, cpu = 0, time.process_time()
                for index in range(rounds):
                    n, elapsed, size = await one_pass(
                        backend, files, Path(scratch) / f"round-{index}", repeat, parallel
                    )
                    rates.append(n / elapsed)
                    per_episode = size / n
                    total += n
                cpu_ms = (time.process_time() - cpu) * 1000 / total
        return rates, per_episode, cpu_ms

    rates, per_episode, cpu_ms = anyio.run(main)
    return statistics.median(rates), per_episode, cpu_ms


def driver_work_ms(files: list[Path]) -> float:
    """What the driver itself does per result, timed alone: unpickle a worker's payload, write the files, parse
    results.json (median over the batch's episodes, from an in-process pass)."""
    import json

    import ray.cloudpickle as pickle

    from orchestrator.verify.results import Result

    async def folders(out: Path) -> list[Path]:
        async with InProcessBackend() as backend:
            await one_pass(backend, files, out, 1, 1)
        return [p.parent for p in out.rglob("results.json") if (p.parent / "trace.jsonl").exists()]

    times = []
    with tempfile.TemporaryDirectory(prefix="bench-ray-") as scratch:
        for index, folder in enumerate(anyio.run(folders, Path(scratch) / "made")):
            payload = pickle.dumps({"files": {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}})
            started = time.process_time()
            target = Path(scratch) / "written" / str(index)
            target.mkdir(parents=True)
            for name, data in pickle.loads(payload)["files"].items():
                (target / name).write_bytes(data)
            Result.model_validate(json.loads((target / "results.json").read_text()))
            times.append((time.process_time() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=1, help="episodes per scenario per round")
    parser.add_argument("--scenarios", default=str(ROOT / "scenarios"))
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    from orchestrator.backends.ray import RayBackend

    files = [f for f in suite.expand([args.scenarios]) if suite.load_all([f])[0].scenario is not None]
    print(
        f"{len(files)} scenarios x {args.repeat} episode(s), oracle agent, {args.rounds} rounds, {os.cpu_count()} cores; "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    rows = []
    base, _, base_cpu = measure(InProcessBackend, files, args.rounds, args.repeat, 1)
    rows.append(("inprocess, this process (1 core, no Ray)", base, None, base_cpu))
    print(f"  inprocess: {base:.2f} episodes/s", flush=True)
    ray_rates = {}
    for workers in (1, 2):
        rate, per_episode, cpu_ms = measure(
            lambda w=workers: RayBackend(num_cpus=w), files, args.rounds, args.repeat, 2 * workers
        )
        ray_rates[workers] = rate
        rows.append((f"ray, {workers} worker{'s' if workers > 1 else ''}", rate, per_episode, cpu_ms))
        print(f"  ray {workers}: {rate:.2f} episodes/s", flush=True)
    print()
    print(f"{'backend':<44}{'episodes/s (median)':>22}{'CPU ms/episode here':>22}{'bytes back per episode':>26}")
    for name, rate, size, cpu_ms in rows:
        print(f"{name:<44}{rate:>22.2f}{cpu_ms:>22.1f}{'' if size is None else f'{size / 1024:.0f} KiB':>26}")
    print(
        f"the driver's own work per result (unpickle, write the files, parse results.json): {driver_work_ms(files):.1f} ms; "
        "the rest of its CPU per episode is Ray's client threads, a cost per second rather than per result"
    )
    print(
        f"ratio 2 workers / 1 worker: {ray_rates[2] / ray_rates[1]:.2f}x; "
        f"1 Ray worker / in process: {ray_rates[1] / base:.2f}x; load average now {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
