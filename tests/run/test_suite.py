"""`orchestrator run` over many scenarios (a folder, a glob, several files), and the CLI's messages as a user meets
them: `list`, `show`, `config claude-desktop`, bad arguments and bad files. Real processes, in-process app servers."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, SCENARIOS

TWO = ("travel.yaml", "reschedule-conflict.yaml")


def orchestrator(
    *args: str, cwd: Path = ROOT, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def library(tmp_path: Path) -> Path:
    folder = tmp_path / "library"
    (folder / "more").mkdir(parents=True)
    shutil.copy(SCENARIOS / TWO[0], folder / TWO[0])
    shutil.copy(SCENARIOS / TWO[1], folder / "more" / TWO[1])
    return folder


def test_a_folder_runs_every_scenario_with_repeats(library: Path, tmp_path: Path) -> None:
    (library / "broken.yaml").write_bytes(b"id: broken\ntitle: \xff\xfe\n")  # not UTF-8: reported, the rest still run
    out = tmp_path / "out"
    done = orchestrator(
        "run", str(library), "--backend", "inprocess", "--repeat", "2", "--parallel", "2", "--out", str(out)
    )
    assert done.returncode == 2, done.stderr  # a file did not load
    assert "Traceback" not in done.stderr
    assert re.search(r"invalid: .*broken.yaml:2: \(file\): not UTF-8", done.stderr)
    # piped: plain progress lines, one per scenario started and finished
    assert re.search(r"^\[1/2\] \S+: starting$", done.stderr, re.M)
    assert re.search(r"^\[2/2\] \S+: 2/2 passed, score 1.00$", done.stderr, re.M)
    summary = json.loads((out / "results.json").read_text())
    assert summary["kind"] == "suite" and summary["repeat"] == 2 and summary["agent"] == "oracle"
    rows = {row["id"]: row for row in summary["scenarios"] if row["id"]}
    assert set(rows) == {"travel-berlin-offsite", "reschedule-conflict"}
    for sid, row in rows.items():
        assert row["episodes"] == 2 and row["passes"] == 2 and row["passed"] is True
        assert row["pass_at_k"] == {"1": 1.0, "2": 1.0} and row["pass_hat_k"] == {"1": 1.0, "2": 1.0}
        assert (
            row["calls"] > 0
            and row["duration_s"] > 0
            and row["stages"]
            and all(s["mean_score"] == 1.0 for s in row["stages"])
        )
        folder = Path(row["folder"])
        assert folder == out / sid
        repeat = json.loads((folder / "results.json").read_text())
        assert repeat["episodes"] == 2 and [Path(r["folder"]).name for r in repeat["results"]] == [
            "episode-001",
            "episode-002",
        ]
        assert (folder / "episode-002" / "trace.jsonl").exists()
    invalid = [row for row in summary["scenarios"] if row.get("status") == "invalid"]
    assert [Path(row["file"]).name for row in invalid] == ["broken.yaml"]
    total = summary["total"]
    assert total["run"] == 2 and total["passed"] == 2 and total["episodes"] == 4 and total["invalid"] == 1
    assert total["pass_at_k"] == {"1": 1.0, "2": 1.0} and summary["passed"] is False  # one file did not run
    # the table: one row per scenario, stage scores, calls, time, and the total
    for sid in rows:
        assert re.search(rf"^ {sid}\s+│\s+2/2 │  1.00 │ ([^│]+ 1\.00,? )+", done.stdout, re.M), done.stdout
    assert (
        "total: 2/2 scenarios passed, 4/4 episodes, mean score 1.00, pass@1 1.00, pass@2 1.00, pass^2 1.00"
        in done.stdout
    )
    assert f"results: {out / 'results.json'}" in done.stdout


@pytest.mark.e2e
def test_a_glob_and_several_files(library: Path, tmp_path: Path) -> None:
    glob_run = orchestrator(
        "run",
        str(library / "**" / "r*.yaml"),
        "--backend",
        "inprocess",
        "--agent",
        "noop",
        "--out",
        str(tmp_path / "glob"),
        "--json",
    )
    assert glob_run.returncode == 1, glob_run.stderr  # noop fails every scenario
    summary = json.loads(glob_run.stdout)
    assert [row["id"] for row in summary["scenarios"]] == ["reschedule-conflict"]
    row = summary["scenarios"][0]
    assert row["passed"] is False and row["pass_at_k"] == {"1": 0.0} and row["calls"] == 0
    assert summary["agent"] == "noop" and summary["total"]["passed"] == 0

    files = orchestrator(
        "run",
        str(library / TWO[0]),
        str(library / "more" / TWO[1]),
        "--backend",
        "inprocess",
        "--out",
        str(tmp_path / "files"),
    )
    assert files.returncode == 0, files.stderr
    assert sorted(p.name for p in (tmp_path / "files").iterdir() if p.is_dir()) == [
        "reschedule-conflict",
        "travel-berlin-offsite",
    ]

    nothing = orchestrator("run", str(library / "zz*.yaml"), "--backend", "inprocess")
    assert (
        nothing.returncode == 2 and "zz*.yaml: no file matches" in nothing.stderr and "Traceback" not in nothing.stderr
    )


def test_one_file_is_still_a_single_run(tmp_path: Path) -> None:
    done = orchestrator("run", str(SCENARIOS / TWO[1]), "--backend", "inprocess", "--out", str(tmp_path / "one"))
    assert done.returncode == 0, done.stderr
    result = json.loads((tmp_path / "one" / "results.json").read_text())
    assert result["scenario"] == "reschedule-conflict" and result["kind"] == "episode"
    assert re.search(r"^reschedule-conflict #1: verifying$", done.stderr, re.M)  # plain progress when piped


@pytest.mark.e2e
def test_list_keeps_ids_and_paths_whole_and_reports_bad_files(tmp_path: Path) -> None:
    folder = tmp_path / ("a-rather-long-folder-name-" * 3).rstrip("-")
    folder.mkdir()
    long_file = folder / "a-very-long-scenario-file-name-that-goes-on-for-a-while.yaml"
    shutil.copy(SCENARIOS / TWO[0], long_file)
    (folder / "nul.yaml").write_bytes(b"id: nul\x00\n")
    (folder / "latin.yaml").write_bytes(b"id: latin\ntitle: caf\xe9\n")
    env = os.environ | {"COLUMNS": "80"}
    done = orchestrator("list", str(folder), env=env)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert str(long_file) in done.stdout and "travel-berlin-offsite" in done.stdout  # not cut at 80 columns
    assert re.search(r"invalid: .*nul.yaml \(1 problem\): .*nul.yaml:1: \(file\): holds a NUL byte", done.stderr)
    assert re.search(r"invalid: .*latin.yaml \(1 problem\): .*latin.yaml:2: \(file\): not UTF-8 text", done.stderr)
    as_json = json.loads(orchestrator("list", str(folder), "--json").stdout)
    assert [s["id"] for s in as_json["scenarios"]] == ["travel-berlin-offsite"] and len(as_json["invalid"]) == 2
    shown = orchestrator("show", str(folder / "nul.yaml"))
    assert shown.returncode == 2 and "NUL byte" in shown.stderr and "Traceback" not in shown.stderr


def test_show_wraps_the_instruction(tmp_path: Path) -> None:
    done = orchestrator("show", str(SCENARIOS / TWO[0]), env=os.environ | {"COLUMNS": "60"})
    assert done.returncode == 0, done.stderr
    panel = done.stdout.split("instruction")[1].split("╰")[0]
    words = " ".join(line.strip("│ ") for line in panel.splitlines()[1:])
    assert "reply to Priya with the doc link." in " ".join(words.split())
    assert all(len(line) <= 60 for line in done.stdout.splitlines()[2:8])


def test_config_names_this_installation(tmp_path: Path) -> None:
    decoy = tmp_path / "bin"
    decoy.mkdir()
    (decoy / "orchestrator").write_text("#!/bin/sh\necho decoy\n")
    (decoy / "orchestrator").chmod(0o755)
    env = os.environ | {"PATH": f"{decoy}:{os.environ['PATH']}"}
    done = orchestrator("config", "claude-desktop", "scenarios/travel.yaml", env=env)
    assert done.returncode == 0, done.stderr
    entry = json.loads(done.stdout)["mcpServers"]["clawgym-travel-berlin-offsite"]
    assert entry["command"] == str(Path(sys.executable).absolute()) and os.access(entry["command"], os.X_OK)
    assert entry["args"][:3] == ["-m", "orchestrator.cli", "serve"] and entry["args"][3] == str(SCENARIOS / TWO[0])
    # the command it names really is this installation's orchestrator
    check = subprocess.run(
        [entry["command"], *entry["args"][:2], "--help"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert check.returncode == 0 and "serve" in check.stdout and "decoy" not in check.stdout


def test_validate_reports_a_bad_file_and_goes_on(tmp_path: Path) -> None:
    shutil.copy(SCENARIOS / TWO[1], tmp_path / TWO[1])
    (tmp_path / "nul.yaml").write_bytes(b"id: nul\x00\n")
    done = orchestrator("validate", str(tmp_path), "--json")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    reports = {Path(r["file"]).name: r for r in json.loads(done.stdout)["scenarios"]}
    assert reports[TWO[1]]["valid"] is True
    assert reports["nul.yaml"]["valid"] is False and "NUL byte" in " ".join(reports["nul.yaml"]["problems"])


@pytest.mark.e2e
def test_sigterm_stops_the_suite_and_writes_what_ran(library: Path, tmp_path: Path) -> None:
    import signal

    out = tmp_path / "out"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "orchestrator.cli",
            "run",
            str(library),
            "--backend",
            "inprocess",
            "--agent",
            "cmd:sleep 60",
            "--isolation",
            "none",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for line in proc.stderr:
            if "starting" in line:
                break
        time.sleep(3)  # the agent is running
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM, stderr
    assert "interrupted by SIGTERM" in stderr and "Traceback" not in stderr
    summary = json.loads((out / "results.json").read_text())
    assert summary["interrupted"] == "SIGTERM"
    assert [row["status"] for row in summary["scenarios"]] == ["interrupted", "interrupted"]
    assert all((Path(row["folder"]) / "results.json").exists() for row in summary["scenarios"])
    assert "interrupted │" in stdout  # the passed column says why nothing was scored


def test_a_scenario_whose_episodes_wait_gets_its_slots_first_and_leaves_the_others_half(tmp_path: Path) -> None:
    """The suite's episode slots go first to every scenario's first episode, then to the scenario whose episodes take
    longest (here the agent waits 0.5 s in every episode of one scenario), so its waits overlap the others' work
    instead of ending the suite alone; once the others are done it takes more than half of the slots. Never more
    than --parallel at once. (tests/run/test_slots.py checks each slot's grant.)"""
    import anyio

    from orchestrator.agents.base import AgentReport, OracleAgent
    from orchestrator.backends.inprocess import InProcessBackend
    from orchestrator.run import suite

    slow_id = "reschedule-conflict"
    running: list[str] = []
    log: list[tuple[str, str, list[str]]] = []  # (event, scenario, who runs after it)

    class Waits(OracleAgent):
        async def run(self, episode: object) -> AgentReport:
            sid = episode.scenario.id  # type: ignore[attr-defined]  # the episode the runner passes has its scenario
            running.append(sid)
            log.append(("start", sid, list(running)))
            try:
                if sid == slow_id:
                    await anyio.sleep(0.5)
                return await super().run(episode)  # type: ignore[arg-type]  # the runner's episode, passed on as it came
            finally:
                running.remove(sid)
                log.append(("end", sid, list(running)))

    files = [SCENARIOS / name for name in ("travel.yaml", "inbox-triage.yaml", "reschedule-conflict.yaml")]
    runs = suite.load_all(files)
    options = suite.SuiteOptions(out=tmp_path / "suite", repeat=8, parallel=4)

    async def main() -> suite.SuiteRecord:
        async with InProcessBackend() as backend:
            return await suite.run_suite(runs, backend, Waits, options)

    record = anyio.run(main)
    assert record.summary["total"]["passes"] == 24 and max(len(after) for _, _, after in log) <= 4
    starts = [sid for event, sid, _ in log if event == "start"]
    assert set(starts[:3]) == {slow_id, "travel-berlin-offsite", "inbox-triage"}  # every scenario's first one first
    # while the others still start episodes the slow one runs two of its own (its half), never more
    last_fast_start = max(i for i, (event, sid, _) in enumerate(log) if event == "start" and sid != slow_id)
    assert max(after.count(slow_id) for _, _, after in log[:last_fast_start]) == 2
    # the others done, the slow one took more than half of the slots
    assert max(after.count(slow_id) for _, _, after in log) > 2
