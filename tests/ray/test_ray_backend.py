"""`orchestrator run ... --backend ray`: episodes on a real two-node Ray cluster on 127.0.0.1, through the CLI.

The verdicts are the verifier's own (the oracle passes, doing nothing fails), the folders are those of
every backend (results.json whose digest matches its trace.jsonl), both nodes take episodes, and a
worker process killed in the middle of an episode loses that episode only: Ray runs it again once,
and an episode whose worker dies twice is recorded with status error while the run finishes."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, TRAVEL_PATH

sys.path.insert(0, str(ROOT / "tests" / "agents"))  # the scripted model server of the model-agent tests

from orchestrator.record import verify_digest

pytestmark = pytest.mark.ray

BATCH = ["customer-escalation", "inbox-triage", "meeting-notes-followup", "travel"]
"""A small batch of the library."""


def orchestrator(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "orchestrator.cli", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def episode_workers(raylets: list[int]) -> dict[int, str]:
    """Worker processes of these raylets that are running an episode now: pid -> process title.

    Read from the raylets' children lists, not by scanning every process: the test must not eat the CPU the
    episodes need."""
    found = {}
    for child in (c for raylet in raylets for c in children(raylet)):
        with contextlib.suppress(OSError):
            title = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
            if title.startswith("ray::episode"):
                found[child] = title
    return found


def test_the_library_runs_on_two_nodes_with_real_verdicts_and_folders(ray_cluster, tmp_path: Path) -> None:
    out = tmp_path / "suite"
    run = orchestrator(
        "run",
        *(f"scenarios/{name}.yaml" for name in BATCH),
        "--backend",
        "ray",
        "--address",
        ray_cluster.address,
        "--parallel",
        "2",
        "--out",
        str(out),
        "--json",
    )
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads(run.stdout)
    assert summary["total"]["run"] == len(BATCH) and summary["total"]["passed"] == len(BATCH)
    nodes, pids = set(), set()
    for row in summary["scenarios"]:
        folder = Path(row["folder"])
        result = json.loads((folder / "results.json").read_text())
        assert (result["status"], result["passed"], result["score"]) == ("completed", True, 1.0), (
            row["id"],
            result.get("error"),
        )
        assert result["episode"]["backend"] == "ray"
        assert verify_digest(folder) == [], row["id"]
        trace = [json.loads(line) for line in (folder / "trace.jsonl").read_text().splitlines()]
        app_calls = [e for e in trace if str(e.get("source", "")).startswith("app:") and e.get("tool")]
        assert len(app_calls) >= result["journal"]["calls"] > 0, row[
            "id"
        ]  # the apps' journals came back with the verdict
        nodes.add(result["episode"]["ray"]["node"])
        pids.add(result["episode"]["ray"]["pid"])
    assert len(nodes) == 2, "both nodes should have run episodes"
    assert os.getpid() not in pids


EPISODES = 3


def test_a_killed_worker_loses_only_its_episode(ray_cluster, tmp_path: Path) -> None:
    """A model agent (the tests' scripted model server) on Ray; the worker of one episode is killed once (Ray runs
    it again: it passes) and of another twice (status error)."""
    from fake_model import FakeModel, Served

    from orchestrator.scenario import load

    raylets = [ray_cluster.cluster.head_node.all_processes["raylet"][0].process.pid, ray_cluster.worker_raylet_pid]
    out = tmp_path / "kills"
    model = FakeModel(load(TRAVEL_PATH).oracle)
    with Served(model) as served:
        killed, once, twice, stdout, stderr, code = kill_during(
            raylets,
            "run",
            "scenarios/travel.yaml",
            "--backend",
            "ray",
            "--address",
            ray_cluster.address,
            "--agent",
            "openai:oracle",
            "--base-url",
            served.url,
            "--repeat",
            str(EPISODES),
            "--parallel",
            "2",
            "--out",
            str(out),
        )
    assert once and twice and list(killed.values()).count(twice) == 2, f"could not kill as planned: {killed}"
    assert code == 2, stderr[-3000:]  # an episode ended in error
    results = {
        int(json.loads((d / "results.json").read_text())["episode"]["rng_seed"]): json.loads(
            (d / "results.json").read_text()
        )
        for d in sorted(out.glob("episode-*"))
    }
    assert sorted(results) == list(range(EPISODES)), "every episode has its results.json"
    lost = [seed for seed, r in results.items() if r["status"] == "error"]
    assert len(lost) == 1 and f"seed {lost[0]}" in twice, (lost, twice)
    assert "died" in results[lost[0]]["error"] and "retry" in results[lost[0]]["error"], results[lost[0]]["error"]
    assert f"ERROR: {results[lost[0]]['error']}" in stderr
    for seed, result in results.items():
        if seed != lost[0]:
            assert (result["status"], result["passed"], result["score"]) == ("completed", True, 1.0), (
                seed,
                result.get("error"),
            )
            assert result["episode"]["ray"]["pid"] not in killed, "a killed worker's episode was run again elsewhere"
            assert (
                result["episode"]["agent"]["agent"] == "openai:oracle"
                and result["episode"]["agent"]["usage"]["turns"] > 5
            )
            assert (out / f"episode-{seed + 1:03d}" / "messages.json").exists()  # the model's transcript came back too
    assert f"{EPISODES - 1}/{EPISODES - 1} passed" in stdout and "1 errored (not scored)" in stdout, stdout


def kill_during(raylets: list[int], *args: str) -> tuple[dict[int, str], str | None, str | None, str, str, int]:
    """Run the orchestrator; kill the first episode's worker once, and another episode's worker twice (its retry too)."""
    run = start(*args)
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
    return killed, once, twice, stdout, stderr, run.returncode


def children(pid: int) -> list[int]:
    """The processes any thread of `pid` started (the kernel's own lists: no scan of every process)."""
    found = []
    with contextlib.suppress(OSError):
        for thread in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError):
                found += [int(c) for c in Path(f"/proc/{pid}/task/{thread}/children").read_text().split()]
    return found


def descendants(root: int) -> set[int]:
    found, todo = set(), [root]
    while todo:
        for child in children(todo.pop()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def listening(pids: set[int]) -> set[str]:
    """The addresses (hex, as /proc/net/tcp* writes them) these processes listen on."""
    inodes = set()
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if link.startswith("socket:["):
                        inodes.add(link[8:-1])
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # LISTEN
                found.add(fields[1].rsplit(":", 1)[0])
    return found


LOOPBACK = {"0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000"}
"""127.0.0.1, ::ffff:127.0.0.1 and ::1 as /proc/net/tcp{,6} spell them."""


def test_without_an_address_a_local_ray_runs_on_loopback_only_and_stops(ray_installed, tmp_path: Path) -> None:
    run = start(
        "run",
        "scenarios/travel.yaml",
        "--backend",
        "ray",
        "--agent",
        "noop",
        "--out",
        str(tmp_path / "local"),
        "--json",
    )
    seen: set[int] = set()
    addresses: set[str] = set()
    try:
        while run.poll() is None:
            pids = descendants(run.pid)
            seen |= pids
            addresses |= listening(pids)
            time.sleep(0.1)
        stdout, stderr = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
    # Doing nothing fails on Ray as anywhere: the verdict is the verifier's, not a copy of the oracle's.
    assert run.returncode == 1, stderr[-3000:]
    result = json.loads(stdout)
    assert result["status"] == "completed" and not result["passed"] and result["score"] < result["pass_mark"]
    assert result["journal"]["calls"] == 0 and verify_digest(tmp_path / "local") == []
    assert result["episode"]["backend"] == "ray" and result["episode"]["ray"]["pid"] in seen
    assert addresses, "the local Ray's servers were not seen listening"
    assert addresses <= LOOPBACK, f"listening beyond loopback: {addresses - LOOPBACK}"
    deadline = time.monotonic() + 15
    while (alive := {pid for pid in seen if Path(f"/proc/{pid}").exists()}) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive, "the local Ray's processes outlived the run"


def test_without_ray_the_backend_names_the_install_command(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow" / "ray"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError(\"No module named 'ray'\")\n")  # as if it were not installed
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "shadow")}
    run = orchestrator("run", "scenarios/travel.yaml", "--backend", "ray", "--out", str(tmp_path / "out"), env=env)
    assert run.returncode == 2
    assert "pip install 'clawgym[ray]'" in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert not (tmp_path / "out").exists()
