"""`orchestrator run --backend inprocess --workers N`: episodes on forked worker processes, recorded as one process
records them (folders, verdicts, seals, summaries, exit codes), stopped as one process stops them, and leaving no
process behind. Real runs: the command line in a process of its own, the pool forked from the test process, a real
model agent against the fake model server."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers import ROOT, SCENARIOS, TRAVEL_PATH

from orchestrator.agents.base import OracleAgent
from orchestrator.agents.command import CommandAgent
from orchestrator.backends.base import BackendError
from orchestrator.record import verify_digest
from orchestrator.run.pool import EpisodePool, pool_for
from orchestrator.run.runner import RunOptions, run_many
from orchestrator.scenario import load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "agents"))
from fake_model import FakeModel, Served  # noqa: E402

THREE = [TRAVEL_PATH, SCENARIOS / "reschedule-conflict.yaml", SCENARIOS / "flaky-ticketing.yaml"]
ENV = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_"))} | {
    "OPENAI_API_KEY": "unused"
}
VOLATILE = {"duration_s", "sandbox", "written_at", "run", "wall_s", "digest", "folder", "p50_ms", "p99_ms", "max_ms"}


def orchestrator(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
        stdin=subprocess.DEVNULL,
    )


def steady(data: Any) -> Any:
    """A record without what differs from run to run anyway: times, sandbox ids, folders, seals."""
    if isinstance(data, dict):
        return {k: steady(v) for k, v in data.items() if k not in VOLATILE}
    if isinstance(data, list):
        return [steady(v) for v in data]
    return data


def records(out: Path) -> dict[str, Any]:
    """Every results.json under `out`, by its path below `out`, steadied."""
    return {str(f.relative_to(out)): steady(json.loads(f.read_text())) for f in sorted(out.rglob("results.json"))}


def children_of(pid: int) -> list[int]:
    """Live (not zombie) processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat[1]) == pid and stat[0] != "Z":
            found.append(int(entry.name))
    return found


def in_group(pgid: int) -> list[int]:
    """Live (not zombie) processes of process group `pgid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[2]) == pgid and stat[0] != "Z":
                found.append(int(entry.name))
    return found


# -- which runs get workers ------------------------------------------------------------


def test_workers_go_to_in_process_agents_of_in_process_runs() -> None:
    oracle = OracleAgent()
    assert pool_for("inprocess", oracle, 2, episodes=10).size == 2  # type: ignore[union-attr]  # a pool is made for more than one episode
    assert pool_for("inprocess", oracle, 4, episodes=3).size == 3  # type: ignore[union-attr]  # never idle workers
    assert pool_for("inprocess", oracle, 2, episodes=1) is None  # one episode: this process runs it
    assert pool_for("inprocess", oracle, 1, episodes=10) is None
    assert pool_for("local", oracle, None, episodes=10) is None  # the default leaves other backends alone
    with pytest.raises(BackendError, match="--workers 2: worker processes run --backend inprocess episodes; the local"):
        pool_for("local", oracle, 2, episodes=10)
    from orchestrator.agents.models.options import ModelOptions
    from orchestrator.agents.spec import parse_agent

    model = parse_agent(
        "openai:some-model", model_options=ModelOptions(api_key="unused", base_url="http://127.0.0.1:9/v1")
    )
    assert pool_for("inprocess", model, None, episodes=10) is None  # it waits on its API: workers when asked for
    assert pool_for("inprocess", model, 8, episodes=10).size == 4  # type: ignore[union-attr]  # its 4 requests at once
    command = CommandAgent("true", isolation="none")
    assert pool_for("inprocess", command, None, episodes=10) is None  # a cmd: agent stays here by default
    with pytest.raises(BackendError, match="--workers 2: a cmd: agent's episodes run in this process"):
        pool_for("inprocess", command, 2, episodes=10)


def test_a_pool_runs_a_repeat_as_one_process_does(tmp_path: Path) -> None:
    """The pool forked from this process; the same episodes in one process; the same records, each sealed."""
    scenario = load(TRAVEL_PATH)
    pool = EpisodePool(2)
    pool.fork()
    pids = [w.pid for w in pool.workers]
    assert len(pids) == 2 and all(children_of(os.getpid()).count(pid) for pid in pids)
    stages: list[tuple[int, str]] = []

    async def on_workers() -> Any:
        async with pool:
            options = RunOptions(out=tmp_path / "pool", repeat=6, parallel=2)
            return await run_many(
                scenario, pool, OracleAgent, options, lambda i, s: stages.append((i, s)), run_one=pool.run_episode
            )

    async def here() -> Any:
        from orchestrator.backends.inprocess import InProcessBackend

        async with InProcessBackend() as backend:
            return await run_many(
                scenario, backend, OracleAgent, RunOptions(out=tmp_path / "here", repeat=6, parallel=2)
            )

    pooled, alone = anyio.run(on_workers), anyio.run(here)
    assert pooled.exit_code() == alone.exit_code() == 0 and len(pooled.results) == 6
    assert [r.model_dump(exclude={"episode", "digest"}) for r in pooled.results] == [
        r.model_dump(exclude={"episode", "digest"}) for r in alone.results
    ]
    assert records(tmp_path / "pool") == records(tmp_path / "here")
    for folder in pooled.dirs:
        assert verify_digest(folder) == [], folder  # sealed where it was written, under the same key
    # the workers' stages came back as the episodes moved, each episode's in order, then "done"
    for index in range(6):
        mine = [s for i, s in stages if i == index]
        assert mine[:2] == ["starting apps", "seeding sandboxes"] and mine[-2:] == ["verifying", "done"]
    assert not [pid for pid in pids if pid in children_of(os.getpid())]  # closed: every worker reaped


def test_a_worker_that_dies_takes_only_its_episodes(tmp_path: Path) -> None:
    """A worker killed mid-run: its episode in flight is recorded as errored, a new worker runs the rest."""
    scenario = load(TRAVEL_PATH)
    pool = EpisodePool(2)
    pool.fork()
    victim = pool.workers[0].pid
    killed: list[int] = []

    def on_stage(index: int, stage: str) -> None:
        if stage.startswith("running") and not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(index)

    async def main() -> Any:
        async with pool:
            options = RunOptions(out=tmp_path, repeat=6, parallel=2, fail_fast=False)
            return await run_many(scenario, pool, OracleAgent, options, on_stage, run_one=pool.run_episode)

    record = anyio.run(main)
    errored = [r for r in record.results if r.status == "error"]
    assert 1 <= len(errored) <= 2  # the one it was running (and one it had just been given)
    assert all(f"(pid {victim}) was killed by SIGKILL" in (r.error or "") for r in errored)
    assert sum(r.passed for r in record.results) == 6 - len(errored) and pool.started == 3
    assert record.exit_code() == 2
    assert all((d / "results.json").exists() for d in record.dirs)


# -- the command line --------------------------------------------------------------------


@pytest.mark.e2e
def test_a_suite_on_workers_writes_what_one_process_writes(tmp_path: Path) -> None:
    one = orchestrator(
        "run", *THREE, "--backend", "inprocess", "--repeat", "3", "--workers", "1", "--out", tmp_path / "one"
    )
    two = orchestrator(
        "run", *THREE, "--backend", "inprocess", "--repeat", "3", "--workers", "2", "--out", tmp_path / "two"
    )
    assert one.returncode == two.returncode == 0, two.stderr
    assert records(tmp_path / "one") == records(tmp_path / "two")

    def table(stdout: str) -> str:
        return re.sub(r"\d+\.\d s", "T s", stdout.split("total:")[0])  # episodes' durations differ anyway

    assert table(one.stdout) == table(two.stdout)  # the same table
    assert sorted(one.stderr.splitlines()) == sorted(two.stderr.splitlines())  # the same progress lines
    for folder in (tmp_path / "two").glob("*/episode-*"):
        assert verify_digest(folder) == []
    # The calls each summary counts, relayed from the workers, are the ones the traces hold, latencies included.
    from orchestrator.run.runner import call_latency

    for run in ("one", "two"):
        for summary in (tmp_path / run).glob("*/results.json"):
            calls = json.loads(summary.read_text())["calls"]
            assert calls == call_latency(sorted(summary.parent.glob("episode-*"))) and calls["count"] > 0


@pytest.mark.e2e
def test_workers_run_the_episodes_and_leave_no_process(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "orchestrator.cli",
            "run",
            str(TRAVEL_PATH),
            "--backend",
            "inprocess",
            "--repeat",
            "300",
            "--workers",
            "2",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    busy: dict[int, float] = {}
    ticks = os.sysconf("SC_CLK_TCK")
    while proc.poll() is None:
        for pid in children_of(proc.pid):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                busy[pid] = (int(fields[11]) + int(fields[12])) / ticks
            except OSError:
                pass
        time.sleep(0.05)
    assert proc.returncode == 0
    assert len(busy) == 2 and all(cpu > 0.2 for cpu in busy.values()), busy  # both workers worked
    assert not [pid for pid in busy if Path(f"/proc/{pid}").exists()]
    summary = json.loads((tmp_path / "results.json").read_text())
    assert summary["passes"] == 300 and len(list(tmp_path.glob("episode-*/results.json"))) == 300


@pytest.mark.e2e
def test_ctrl_c_stops_the_workers_episodes_and_records_every_one(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole process group: the workers ignore it, the orchestrator relays it; the episodes in
    flight are stopped, verified and written (interrupted), those done keep their verdict, the rest are recorded
    not started; nothing of the run is left running."""
    model = FakeModel(load(TRAVEL_PATH).oracle, delay_s=0.15)
    with Served(model) as served:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "orchestrator.cli",
                "run",
                str(TRAVEL_PATH),
                "--backend",
                "inprocess",
                "--agent",
                "openai:oracle",
                "--base-url",
                served.url,
                "--repeat",
                "8",
                "--workers",
                "2",
                "--out",
                str(tmp_path),
            ],
            cwd=ROOT,
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        while len(list(tmp_path.glob("episode-*/results.json"))) < 2:
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        workers = children_of(proc.pid)
        assert len(workers) == 2
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: to every process of the group
        _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "interrupted by SIGINT" in stderr
    results = [json.loads((tmp_path / f"episode-{i:03d}" / "results.json").read_text()) for i in range(1, 9)]
    statuses = [r["status"] for r in results]
    assert statuses.count("completed") >= 2 and all(r["passed"] for r in results if r["status"] == "completed")
    stopped = [r for r in results if r["status"] == "interrupted" and not (r["error"] or "").startswith("not started")]
    assert stopped and all(r["checks"] and r["episode"]["agent"]["errors"] == ["stopped by SIGINT"] for r in stopped)
    assert set(statuses) <= {"completed", "interrupted"}
    assert json.loads((tmp_path / "results.json").read_text())["interrupted"] == "SIGINT"
    time.sleep(0.2)
    assert in_group(proc.pid) == [] and not [pid for pid in workers if Path(f"/proc/{pid}").exists()]


@pytest.mark.e2e
def test_model_agents_on_workers_share_the_endpoint_limit(tmp_path: Path) -> None:
    model = FakeModel(load(TRAVEL_PATH).oracle, delay_s=0.05)
    with Served(model) as served:
        done = orchestrator(
            "run",
            TRAVEL_PATH,
            "--backend",
            "inprocess",
            "--agent",
            "openai:oracle",
            "--base-url",
            served.url,
            "--repeat",
            "6",
            "--parallel",
            "6",
            "--workers",
            "2",
            "--max-concurrent-requests",
            "3",
            "--out",
            tmp_path,
        )
    assert done.returncode == 0, done.stderr
    assert 2 <= model.peak <= 3  # 2 + 1 across the two workers, never 3 each
    assert json.loads((tmp_path / "results.json").read_text())["passes"] == 6


def test_workers_is_refused_where_it_cannot_apply(tmp_path: Path) -> None:
    done = orchestrator(
        "run",
        TRAVEL_PATH,
        "--backend",
        "inprocess",
        "--agent",
        "cmd:true",
        "--isolation",
        "none",
        "--repeat",
        "2",
        "--workers",
        "2",
        "--out",
        tmp_path,
    )
    assert done.returncode == 2 and "--workers 2: a cmd: agent's episodes run in this process" in done.stderr
    assert not (tmp_path / "results.json").exists()


# -- a suite's episode slots -----------------------------------------------------------


def test_a_suite_starts_the_next_scenario_when_an_episode_slot_is_free(tmp_path: Path) -> None:
    """`--parallel 3 --repeat 2`: the slow scenario's two episodes hold two slots; the next scenario starts on the
    third at once instead of waiting for both (the suite used to run one scenario at a time here); never more
    than three episodes at once."""
    from orchestrator.backends.inprocess import InProcessBackend
    from orchestrator.run import suite

    runs = suite.load_all([SCENARIOS / "rate-limited-triage.yaml", TRAVEL_PATH])  # the first waits out rate limits
    events: list[tuple[str, str]] = []
    running: set[tuple[str, int]] = set()
    peak = [0]

    def on_event(kind: str, run: suite.ScenarioRun, index: int, text: str) -> None:
        assert run.scenario is not None
        if kind == "stage" and text == "starting apps":
            running.add((run.scenario.id, index))
            peak[0] = max(peak[0], len(running))
        elif kind == "stage" and text == "done":
            running.discard((run.scenario.id, index))
        elif kind in ("start", "done"):
            events.append((kind, run.scenario.id))

    async def main() -> suite.SuiteRecord:
        async with InProcessBackend() as backend:
            options = suite.SuiteOptions(out=tmp_path, repeat=2, parallel=3)
            return await suite.run_suite(runs, backend, OracleAgent, options, on_event)

    record = anyio.run(main)
    assert record.exit_code() == 0 and record.summary["total"]["passes"] == 4
    assert events[:2] == [("start", "rate-limited-triage"), ("start", "travel-berlin-offsite")]
    assert events.index(("done", "travel-berlin-offsite")) < events.index(("done", "rate-limited-triage"))
    assert peak[0] == 3


def test_a_scenarios_episodes_are_spread_over_the_workers(tmp_path: Path) -> None:
    """Each episode goes to the worker with the fewest episodes of its scenario in flight: a scenario whose episodes
    wait (rate-limited-triage waits out a 429) does not have them gathered on one worker while the other works."""
    from orchestrator.run import suite

    runs = suite.load_all([SCENARIOS / "rate-limited-triage.yaml", *THREE])
    pool = EpisodePool(2)
    pool.fork()
    placed: list[tuple[str, list[int], int]] = []  # (scenario, its episodes on each worker before, the worker chosen)
    choose = pool._worker

    async def watched(scenario: str) -> Any:
        before = [sum(j.scenario == scenario for j in w.jobs.values()) for w in pool.workers]
        worker = await choose(scenario)
        placed.append((scenario, before, pool.workers.index(worker)))
        return worker

    pool._worker = watched  # type: ignore[method-assign]  # the worker start watched by the test

    async def main() -> suite.SuiteRecord:
        async with pool:
            options = suite.SuiteOptions(out=tmp_path, repeat=8, parallel=8)
            return await suite.run_suite(runs, pool, OracleAgent, options, run_one=pool.run_episode)

    record = anyio.run(main)
    assert record.exit_code() == 0 and record.summary["total"]["passes"] == 32 and len(placed) == 32
    assert all(before[chosen] == min(before) for _, before, chosen in placed), placed
    waiting = [before for scenario, before, _ in placed if scenario == "rate-limited-triage"]
    assert any(max(before) > 0 for before in waiting)  # placed while others of its own were in flight
