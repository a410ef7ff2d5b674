"""`orchestrator run ... --backend ray`: episodes on a real two-node Ray cluster on 127.0.0.1, through the CLI.

The verdicts are the verifier's own (the oracle passes, doing nothing fails), the folders are those of
every backend (results.json whose digest matches its trace.jsonl), both nodes take episodes, and a
worker process killed in the middle of an episode loses that episode only: Ray runs it again once,
and an episode whose worker dies twice is recorded with status error while the run finishes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT

from orchestrator.run.runner import verify_digest

BATCH = ["contract-review", "customer-escalation", "expense-followup", "inbox-triage", "meeting-notes-followup",
         "postmortem", "reschedule-conflict", "travel"]
"""A small batch of the library."""


def orchestrator(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "orchestrator.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=env)  # fmt: skip


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "orchestrator.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip


def episode_workers(raylets: list[int]) -> dict[int, str]:
    """Worker processes of these raylets that are running an episode now: pid -> process title."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            title = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) in raylets and title.startswith("ray::episode"):
            found[int(entry)] = title
    return found


def test_the_library_runs_on_two_nodes_with_real_verdicts_and_folders(ray_cluster, tmp_path: Path) -> None:
    out = tmp_path / "suite"
    run = orchestrator("run", *(f"scenarios/{name}.yaml" for name in BATCH), "--backend", "ray", "--address", ray_cluster.address, "--parallel", "2",
                       "--out", str(out), "--json")  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads(run.stdout)
    assert summary["total"]["run"] == len(BATCH) and summary["total"]["passed"] == len(BATCH)
    nodes, pids = set(), set()
    for row in summary["scenarios"]:
        folder = Path(row["folder"])
        result = json.loads((folder / "results.json").read_text())
        assert (result["status"], result["passed"], result["score"]) == ("completed", True, 1.0), (row["id"], result.get("error"))
        assert result["episode"]["backend"] == "ray"
        assert verify_digest(folder) == [], row["id"]
        trace = [json.loads(line) for line in (folder / "trace.jsonl").read_text().splitlines()]
        app_calls = [e for e in trace if str(e.get("source", "")).startswith("app:") and e.get("tool")]
        assert len(app_calls) >= result["journal"]["calls"] > 0, row["id"]  # the apps' journals came back with the verdict
        nodes.add(result["episode"]["ray"]["node"])
        pids.add(result["episode"]["ray"]["pid"])
    assert len(nodes) == 2, "both nodes should have run episodes"
    assert os.getpid() not in pids

    # Doing nothing fails on Ray as anywhere: the verdict is the verifier's, not a copy of the oracle's.
    noop = orchestrator("run", "scenarios/travel.yaml", "--backend", "ray", "--address", ray_cluster.address, "--agent", "noop",
                        "--out", str(tmp_path / "noop"), "--json")  # fmt: skip
    assert noop.returncode == 1, noop.stderr[-3000:]
    result = json.loads(noop.stdout)
    assert result["status"] == "completed" and not result["passed"] and result["score"] < result["pass_mark"]
    assert result["journal"]["calls"] == 0 and verify_digest(tmp_path / "noop") == []


def test_a_killed_worker_loses_only_its_episode(ray_cluster, tmp_path: Path) -> None:
    """Kill the worker of one episode once (Ray runs it again: it passes) and of another twice (status error)."""
    raylets = [ray_cluster.cluster.head_node.all_processes["raylet"][0].process.pid, ray_cluster.worker_raylet_pid]
    out = tmp_path / "kills"
    run = start("run", "scenarios/inbox-triage.yaml", "--backend", "ray", "--address", ray_cluster.address,
                "--repeat", "8", "--parallel", "2", "--out", str(out))  # fmt: skip
    killed: dict[int, str] = {}
    once: str | None = None
    twice: str | None = None
    deadline = time.monotonic() + 100
    try:
        while run.poll() is None and time.monotonic() < deadline:
            for pid, title in episode_workers(raylets).items():
                if pid in killed:
                    continue
                if once is None:
                    once = title
                elif twice is None and title != once:
                    twice = title
                elif title != twice or list(killed.values()).count(twice) >= 2:
                    continue
                os.kill(pid, signal.SIGKILL)
                killed[pid] = title
            time.sleep(0.01)
        stdout, stderr = run.communicate(timeout=max(1, deadline - time.monotonic()))
    finally:
        if run.poll() is None:
            run.kill()
    assert once and twice and list(killed.values()).count(twice) == 2, f"could not kill as planned: {killed}"
    assert run.returncode == 2, stderr[-3000:]  # an episode ended in error
    results = {int(json.loads((d / "results.json").read_text())["episode"]["rng_seed"]): json.loads((d / "results.json").read_text())
               for d in sorted(out.glob("episode-*"))}  # fmt: skip
    assert sorted(results) == list(range(8)), "every episode has its results.json"
    lost = [seed for seed, r in results.items() if r["status"] == "error"]
    assert len(lost) == 1 and f"seed {lost[0]}" in twice, (lost, twice)
    assert "died" in results[lost[0]]["error"] and "retry" in results[lost[0]]["error"], results[lost[0]]["error"]
    assert f"ERROR: {results[lost[0]]['error']}" in stderr
    for seed, result in results.items():
        if seed != lost[0]:
            assert (result["status"], result["passed"], result["score"]) == ("completed", True, 1.0), (seed, result.get("error"))
            assert result["episode"]["ray"]["pid"] not in killed, "a killed worker's episode was run again elsewhere"
    assert f"{len(results) - 1}/8 passed" in stdout
