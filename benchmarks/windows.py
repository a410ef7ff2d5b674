"""One `orchestrator run` as a user runs it, measured from outside (shared by `bench_floor` and `bench_local`).

The command runs as a process of its own. Its episode window is from its first `starting` line (a suite's first
scenario, a repeat's first episode) to its exit: episodes per second over that window, and the CPU of its whole
process tree in it (worker processes, the local backend's launcher and servers). Every episode must pass.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any


def tree_cpu(pid: int) -> float:
    """CPU seconds of `pid` and all its live descendants (each one's own, and what its reaped children used)."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        cpu[int(entry.name)] = sum(int(v) for v in fields[11:15]) / ticks  # utime, stime, cutime, cstime
    inside = {pid}
    while found := {p for p, parent in parents.items() if parent in inside} - inside:
        inside |= found
    return sum(cpu.get(p, 0.0) for p in inside)


def run_window(args: list[str], tree: Path) -> dict[str, Any]:
    """`orchestrator ARGS --out TMP` of the checkout `tree`: its episodes, episodes per second and CPU ms per episode
    in the episode window, and the whole command's wall time and CPU ms per episode."""
    with tempfile.TemporaryDirectory() as out:
        command = [sys.executable, "-m", "orchestrator.cli", *args, "--out", out]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        proc = subprocess.Popen(
            command,
            cwd=tree,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(tree)},
        )
        window: dict[str, float] = {}
        lines: list[str] = []

        def read() -> None:
            assert proc.stderr is not None
            for line in proc.stderr:
                if "at" not in window and ": starting" in line:
                    window["cpu"], window["at"] = tree_cpu(proc.pid), time.perf_counter()
                lines.append(line)

        reader = threading.Thread(target=read)
        reader.start()
        proc.wait()
        ended = time.perf_counter()
        reader.join()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        summary = json.loads((Path(out) / "results.json").read_text())
    total = summary.get("total", summary)  # a suite's totals, or a repeat's summary itself
    if proc.returncode != 0 or total["passes"] != total["episodes"]:
        raise SystemExit(
            f"orchestrator run did not pass every episode (exit {proc.returncode}):\n{''.join(lines[-20:])}"
        )
    episodes = total["episodes"]
    return {
        "episodes": episodes,
        "per_s": episodes / (ended - window.get("at", started)),
        "cpu_ms": (cpu - window.get("cpu", 0.0)) * 1000 / episodes,
        "command_s": ended - started,
        "command_cpu_ms": cpu * 1000 / episodes,
    }
