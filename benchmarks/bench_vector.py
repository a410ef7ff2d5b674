"""Batch stepping: `VectorEnv` with one worker process against one per core, on the same batch, interleaved.

    python benchmarks/bench_vector.py [--envs N] [--rounds R] [--scenario FILE]

Each measurement resets N envs (env i seeded i) and steps the scenario's reference solution in all of them at
once, one batch per step, then submits: a trainer's rollout of N episodes. Every episode must pass. It prints
episodes per second and CPU ms per episode of the whole process tree (workers included) for each worker count,
the medians over the rounds and their ratio; worker start-up is left out (a trainer starts its envs once).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orchestrator.agents.base import substitute  # noqa: E402
from orchestrator.env.vector import VectorEnv  # noqa: E402
from orchestrator.scenario.model import load  # noqa: E402


def _cpu(pids: list[int]) -> float:
    """CPU seconds of this process and the given ones (user + system)."""
    total = sum(os.times()[:2])
    tick = os.sysconf("SC_CLK_TCK")
    for pid in set(pids):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def rollout(envs: VectorEnv, path: Path, seed: int) -> tuple[float, float]:
    """One batch of episodes of the reference solution: (wall seconds, CPU seconds)."""
    scenario = load(path)
    n = envs.num_envs
    cpu, wall = _cpu(envs.pids), time.perf_counter()
    envs.reset(path, seeds=seed)
    saved: list[dict[str, Any]] = [{} for _ in range(n)]
    for step in scenario.oracle:
        outs = envs.step([{"name": step.tool, "arguments": substitute(step.args, saved[i])} for i in range(n)])
        if step.save:
            for i, out in enumerate(outs):
                assert out is not None
                saved[i][step.save] = out.structured_content if out.structured_content is not None else out.text
    envs.finish("done")
    wall, cpu = time.perf_counter() - wall, _cpu(envs.pids) - cpu
    failed = [i for i, r in enumerate(envs.results()) if r is None or not r.passed]
    if failed:
        raise SystemExit(f"envs {failed} did not pass: the benchmark measures passing episodes only")
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=16, help="envs in the batch (default 16)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--scenario", type=Path, default=ROOT / "scenarios" / "travel.yaml")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    counts = sorted({1, cores})
    figures: dict[int, list[tuple[float, float]]] = {w: [] for w in counts}
    vectors = {w: VectorEnv(args.envs, workers=w) for w in counts}
    try:
        for w in counts:
            rollout(vectors[w], args.scenario, 0)  # warm: scenario loaded, seed images built
        for r in range(args.rounds):
            for w in counts:
                figures[w].append(rollout(vectors[w], args.scenario, 1000 * (r + 1)))
    finally:
        for vector in vectors.values():
            vector.close()
    print(f"{args.envs} envs of {args.scenario.name}, reference solution, {args.rounds} rounds (medians):")
    rates = {}
    for w in counts:
        wall = statistics.median(f[0] for f in figures[w])
        cpu = statistics.median(f[1] for f in figures[w])
        rates[w] = args.envs / wall
        print(f"  {w} worker(s): {rates[w]:6.1f} episodes/s, {cpu / args.envs * 1000:5.1f} CPU ms per episode")
    if len(counts) > 1:
        print(f"  {cores} workers / 1 worker: {rates[cores] / rates[1]:.2f}x")


if __name__ == "__main__":
    main()
