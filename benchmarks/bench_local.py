"""The `local` backend and start-up as a user meets them: real `orchestrator` commands, interleaved in one run.

    python benchmarks/bench_local.py [--rounds N] [--repeat K] [--parallel P] [--before DIR]

Prints, from one run, the medians of `--rounds` interleaved rounds of:

- `orchestrator --help`: the command's wall time;
- a cold `orchestrator run scenarios/travel.yaml --backend local`: the command's wall time, from its start to its
  exit (the app servers' launcher, its imports, the servers, the episode, the verdict on the terminal, the servers
  stopped);
- `orchestrator run scenarios/ --backend local --repeat K --parallel P`: episodes per second and CPU ms per episode
  of its whole process tree (the orchestrator, the launcher and every app server) in the episode window, from its
  first `starting` line to its exit, and the whole command's CPU per episode (start-up included).

With `--before DIR` (another checkout, e.g. a `git worktree` of an older commit) each measurement is also made with
that checkout's code and library, in the same rounds, and the ratios are printed: the machine is shared and noisy,
so only figures from the same run compare. Every episode must pass (else the benchmark stops).

Targets (2 cores): `--help` under 0.3 s, a cold travel run under 2 s, at least 20 episodes/s on `local`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from windows import run_window  # beside this script

ROOT = Path(__file__).resolve().parent.parent


def command(args: list[str], tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", *args],
        cwd=tree,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tree)},
        timeout=600,
    )


def timed(args: list[str], tree: Path) -> dict[str, float]:
    """The wall time of one command that must succeed."""
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        done = command([a.replace("{out}", out) for a in args], tree)
        took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"orchestrator {' '.join(args)} failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return {"s": took}


def suite(tree: Path, repeat: int, parallel: int) -> dict[str, float]:
    """One `orchestrator run scenarios/ --backend local` of the checkout `tree` (`windows.run_window`)."""
    return run_window(
        ["run", "scenarios", "--backend", "local", "--repeat", str(repeat), "--parallel", str(parallel)], tree
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3; medians are printed)")
    parser.add_argument("--repeat", type=int, default=5, help="episodes of each scenario in the suite (default 5)")
    parser.add_argument("--parallel", type=int, default=8, help="the suite's episodes at once (default 8)")
    parser.add_argument("--before", type=Path, help="another checkout (e.g. a `git worktree` of an older commit)")
    args = parser.parse_args()
    trees = {"now": ROOT, **({"before": args.before.resolve()} if args.before else {})}
    measures: dict[str, Callable[[Path], dict[str, float]]] = {
        "orchestrator --help": lambda tree: timed(["--help"], tree),
        "cold run scenarios/travel.yaml --backend local": lambda tree: timed(
            ["run", "scenarios/travel.yaml", "--backend", "local", "--out", "{out}"], tree
        ),
        f"run scenarios/ --backend local --repeat {args.repeat} --parallel {args.parallel}": lambda tree: suite(
            tree, args.repeat, args.parallel
        ),
    }
    rows: dict[tuple[str, str], list[dict[str, float]]] = {}
    for round_ in range(args.rounds):
        for name, measure in measures.items():
            # every other round the other checkout goes first: the one after a suite meets its servers' last work
            for label, tree in list(trees.items())[:: -1 if round_ % 2 else 1]:
                rows.setdefault((name, label), []).append(measure(tree))

    def median(name: str, label: str, key: str) -> float:
        return statistics.median(r[key] for r in rows[(name, label)])

    print(f"medians of {args.rounds} interleaved rounds" + (f"; before = {args.before}" if args.before else ""))
    for name in measures:
        for label in trees:
            got: Any = rows[(name, label)][0]
            if "s" in got:
                figures = f"{median(name, label, 's'):.2f} s"
            else:
                figures = (
                    f"{median(name, label, 'per_s'):.1f} episodes/s, {median(name, label, 'cpu_ms'):.1f} CPU ms "
                    f"per episode in the window, {median(name, label, 'command_cpu_ms'):.1f} over the whole "
                    "command"
                )
            print(f"  {name} ({label}): {figures}")
        if args.before:
            key = "s" if "s" in rows[(name, "now")][0] else "per_s"
            print(
                f"    now / before: {median(name, 'now', key) / median(name, 'before', key):.2f}x "
                f"{'the time' if key == 's' else 'the rate'}"
            )


if __name__ == "__main__":
    main()
