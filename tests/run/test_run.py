"""`orchestrator run` end to end: real app processes, the gateway over HTTP, real agents."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import ROOT, TRAVEL_PATH

ORCHESTRATOR = [sys.executable, "-m", "orchestrator.cli"]


def orchestrator(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ORCHESTRATOR, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def servers_of(pid: int) -> list[int]:
    """App-server processes started on behalf of orchestrator `pid` that are still alive."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").split()  # a set title is one string
        except OSError:
            continue
        if b"--parent-pid" in cmdline and cmdline[cmdline.index(b"--parent-pid") + 1] == str(pid).encode():
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()


def test_oracle_passes_and_writes_results_and_trace(tmp_path: Path) -> None:
    done = orchestrator("run", str(TRAVEL_PATH), "--agent", "oracle", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr + done.stdout
    assert "PASSED" in done.stdout
    result = json.loads((tmp_path / "results.json").read_text())
    assert {"scenario", "passed", "score", "stages", "checks"} <= set(result)
    assert result["passed"] is True and result["score"] == 1.0
    assert result["episode"]["backend"] == "local" and result["episode"]["agent"]["errors"] == []
    trace = [json.loads(line) for line in (tmp_path / "trace.jsonl").read_text().splitlines()]
    sources = {t["source"] for t in trace}
    assert {"gateway", "app:mail", "app:calendar", "app:docs", "app:tickets"} <= sources
    assert [t["wall"] for t in trace] == sorted(t["wall"] for t in trace)
    gateway_calls = [t["params"]["name"] for t in trace if t["source"] == "gateway" and t["method"] == "tools/call"]
    app_calls = [t["tool"] for t in trace if t["source"].startswith("app:")]
    assert gateway_calls == app_calls and gateway_calls[0] == "mail__search_messages"
    assert all(t["latency_ms"] >= 0 for t in trace)


@pytest.mark.e2e
def test_noop_fails_with_exit_code_1(tmp_path: Path) -> None:
    done = orchestrator("run", str(TRAVEL_PATH), "--agent", "noop", "--out", str(tmp_path), "--json")
    assert done.returncode == 1
    result = json.loads(done.stdout)
    assert result["passed"] is False and result["score"] < 0.1
    failed = [c for c in result["checks"] if not c["passed"]]
    assert any("found 0" in c["reason"] for c in failed)


@pytest.mark.e2e
def test_command_agent_gets_task_url_and_config(tmp_path: Path) -> None:
    agent = f"cmd:{sys.executable} {ROOT / 'examples' / 'agent.py'}"
    done = orchestrator("run", str(TRAVEL_PATH), "--agent", agent, "--out", str(tmp_path))
    assert done.returncode == 1, done.stderr  # it only looks around
    result = json.loads((tmp_path / "results.json").read_text())
    assert result["episode"]["agent"]["exit_code"] == 0 and result["episode"]["agent"]["tool_calls"] >= 5
    log = (tmp_path / "agent.log").read_text()
    assert "task: Priya emailed me about the Berlin offsite." in log
    assert "mail__search_messages" in log
    config = json.loads((tmp_path / "mcp.json").read_text())
    assert config["mcpServers"]["clawgym"]["url"].startswith("http://127.0.0.1:")
    methods = [
        json.loads(line)["method"]
        for line in (tmp_path / "trace.jsonl").read_text().splitlines()
        if '"gateway"' in line
    ]
    assert "prompts/get" in methods and "tools/list" in methods


@pytest.mark.e2e
def test_environment_reaches_the_command(tmp_path: Path) -> None:
    command = 'cmd:printf "%s\\n%s\\n%s\\n" "$CLAWGYM_TASK" "$CLAWGYM_MCP_URL" "$CLAWGYM_MCP_CONFIG"; cat "$CLAWGYM_MCP_CONFIG"'
    assert orchestrator("run", str(TRAVEL_PATH), "--agent", command, "--out", str(tmp_path)).returncode == 1
    lines = (tmp_path / "agent.log").read_text().splitlines()
    lines = [line for line in lines if not line.startswith("[the working directory")]  # isolation's note on what it hid
    task, url, config = lines[:3]
    assert task.endswith("reply to Priya with the doc link.")
    assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
    assert tmp_path.resolve() not in Path(config).parents  # the agent's own copy, outside the run folder
    assert json.loads("\n".join(lines[3:]))["mcpServers"]["clawgym"]["url"] == url


def marker() -> str:
    """A `sleep` argument no other process has: finds the agent's processes from outside its namespaces."""
    return f"{600 + secrets.randbelow(10**6) / 10**7:.7f}"


def processes_with(argument: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if argument.encode() in (entry / "cmdline").read_bytes().split(b"\0") and alive(int(entry.name)):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def wait_for(predicate: Callable[[], object], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.1)


@pytest.mark.e2e
def test_timeout_stops_the_agent_and_leaves_nothing_running(tmp_path: Path) -> None:
    mark = marker()
    proc = subprocess.Popen(
        [
            *ORCHESTRATOR,
            "run",
            str(TRAVEL_PATH),
            "--agent",
            f"cmd:exec sleep {mark}",
            "--out",
            str(tmp_path),
            "--timeout",
            "3",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 1, stderr
    result = json.loads((tmp_path / "results.json").read_text())
    assert result["episode"]["agent"]["timed_out"] is True and result["status"] == "timeout"
    assert result["checks"]  # a timed-out agent is still verified
    assert "stopped by the timeout" in stderr
    assert processes_with(mark) == []
    assert servers_of(proc.pid) == []


@pytest.mark.e2e
def test_ctrl_c_tears_everything_down(tmp_path: Path) -> None:
    mark = marker()
    proc = subprocess.Popen(
        [*ORCHESTRATOR, "run", str(TRAVEL_PATH), "--agent", f"cmd:exec sleep {mark}", "--out", str(tmp_path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for(lambda: processes_with(mark))
    servers = servers_of(proc.pid)
    assert len(servers) == 4
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    assert proc.returncode == 130
    time.sleep(0.5)
    assert processes_with(mark) == []
    assert [pid for pid in servers if alive(pid)] == []
    assert json.loads((tmp_path / "results.json").read_text())["status"] == "interrupted"


@pytest.mark.parametrize(
    ("stop", "inherit_ignored"), [(signal.SIGTERM, False), (signal.SIGINT, True), (signal.SIGTERM, True)]
)
@pytest.mark.e2e
def test_stop_signals_write_interrupted_results_and_leave_no_agent(
    tmp_path: Path, stop: int, inherit_ignored: bool
) -> None:
    """SIGTERM or SIGINT stop the run cleanly, also when the run inherited them ignored (a CI background job)."""
    mark = marker()

    def ignore() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)

    # An agent that also leaves a setsid child behind: it must not survive the stop either.
    agent = f"cmd:setsid sleep {mark} & exec sleep {mark}"
    proc = subprocess.Popen(
        [
            *ORCHESTRATOR,
            "run",
            str(TRAVEL_PATH),
            "--agent",
            agent,
            "--out",
            str(tmp_path),
            "--repeat",
            "2",
            "--parallel",
            "2",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ignore if inherit_ignored else None,
    )
    wait_for(lambda: len(processes_with(mark)) == 4)
    servers = servers_of(proc.pid)
    proc.send_signal(stop)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + stop, stderr
    assert f"interrupted by {signal.Signals(stop).name}" in stderr
    for episode in ("episode-001", "episode-002"):
        result = json.loads((tmp_path / episode / "results.json").read_text())
        assert result["status"] == "interrupted" and result["checks"], result.get("error")
    assert json.loads((tmp_path / "results.json").read_text())["interrupted"] == signal.Signals(stop).name
    time.sleep(0.5)
    assert processes_with(mark) == []
    assert [pid for pid in servers if alive(pid)] == []


@pytest.mark.e2e
def test_readme_example_agent_runs_as_written(tmp_path: Path) -> None:
    """`--agent "cmd:python examples/agent.py"` from the repository root, with no venv on the caller's PATH."""
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"} | {"PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [
            *ORCHESTRATOR,
            "run",
            "scenarios/travel.yaml",
            "--agent",
            "cmd:python examples/agent.py",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 1, done.stderr  # it only looks around
    result = json.loads((tmp_path / "results.json").read_text())
    assert result["episode"]["agent"]["exit_code"] == 0, (tmp_path / "agent.log").read_text()
    assert result["status"] == "completed"
    trace = [json.loads(line) for line in (tmp_path / "trace.jsonl").read_text().splitlines()]
    calls = [t for t in trace if t["source"] == "gateway" and t["method"] == "tools/call"]
    assert len(calls) >= 5 and not any(t["is_error"] for t in calls)  # a clean example: no failed calls
    assert "task: Priya emailed me" in (tmp_path / "agent.log").read_text()


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("cmd:no-such-agent-binary --go", "the agent exited with code 127 (command not found)"),
        ("cmd:echo almost; exit 3", "the agent exited with code 3"),
        ("cmd:kill -SEGV $$", "the agent crashed"),
    ],
)
@pytest.mark.e2e
def test_agent_failures_are_on_the_console(tmp_path: Path, command: str, said: str) -> None:
    done = orchestrator("run", str(TRAVEL_PATH), "--agent", command, "--out", str(tmp_path))
    assert done.returncode == (2 if "127" in said else 1), done.stderr  # an agent that never started is an error
    assert said in done.stderr
    if "127" in said:
        assert "no-such-agent-binary: not found" in done.stderr  # the end of agent.log


@pytest.mark.e2e
def test_an_app_server_dying_ends_episodes_in_error_and_the_others_finish(tmp_path: Path) -> None:
    mark = marker()
    agent = f"cmd:sleep {mark} & wait"
    proc = subprocess.Popen(
        [
            *ORCHESTRATOR,
            "run",
            str(TRAVEL_PATH),
            "--agent",
            agent,
            "--out",
            str(tmp_path),
            "--repeat",
            "3",
            "--parallel",
            "2",
            "--timeout",
            "6",
            "--no-fail-fast",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # both first errors alike would stop the third
    wait_for(lambda: len(processes_with(mark)) == 2)
    mail = [pid for pid in servers_of(proc.pid) if b"servers.mail" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert len(mail) == 1
    os.kill(mail[0], signal.SIGKILL)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 2, stderr
    results = [json.loads((tmp_path / f"episode-00{i}" / "results.json").read_text()) for i in (1, 2, 3)]
    assert [r["status"] for r in results] == ["error"] * 3
    assert all("mail" in r["error"] and r["passed"] is False and r["score"] == 0 for r in results)
    summary = json.loads((tmp_path / "results.json").read_text())
    assert summary["statuses"] == {"error": 3} and summary["passes"] == 0
    assert "ERROR:" in stderr and "mail" in stderr
    assert servers_of(proc.pid) == [] and processes_with(mark) == []


@pytest.mark.e2e
def test_results_carry_a_digest_of_trace_and_journal(tmp_path: Path) -> None:
    assert orchestrator("run", str(TRAVEL_PATH), "--out", str(tmp_path)).returncode == 0
    result = json.loads((tmp_path / "results.json").read_text())
    trace = (tmp_path / "trace.jsonl").read_bytes()
    assert result["digest"]["trace"] == hashlib.sha256(trace).hexdigest()
    done = orchestrator("verify-digest", str(tmp_path), timeout=60)
    assert done.returncode == 0, done.stderr + done.stdout
    # One journal entry edited (the verdict would now rest on other calls): caught.
    lines = trace.decode().splitlines()
    index = next(i for i, line in enumerate(lines) if '"source": "app:' in line)
    entry = json.loads(lines[index])
    entry["tool"] = "mail__send_message"
    lines[index] = json.dumps(entry)
    (tmp_path / "trace.jsonl").write_text("\n".join(lines) + "\n")
    done = orchestrator("verify-digest", str(tmp_path), timeout=60)
    assert done.returncode == 1 and "trace.jsonl does not match" in done.stdout + done.stderr


@pytest.mark.e2e
def test_repeat_reports_pass_at_k_and_seeds_drive_ids(tmp_path: Path) -> None:
    done = orchestrator(
        "run", str(TRAVEL_PATH), "--repeat", "3", "--parallel", "2", "--seed", "10", "--out", str(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "results.json").read_text())
    assert summary["episodes"] == 3 and summary["passes"] == 3
    assert summary["pass_at_k"] == {"1": 1.0, "2": 1.0, "3": 1.0} and summary["pass_hat_k"]["3"] == 1.0
    assert [r["rng_seed"] for r in summary["results"]] == [10, 11, 12]
    episodes = [json.loads((tmp_path / f"episode-00{i}" / "results.json").read_text()) for i in (1, 2, 3)]
    assert len({e["episode"]["sandbox"] for e in episodes}) == 3
    ids = [sorted(str(c["key"]) for c in e["changes"] if c["kind"] == "added") for e in episodes]
    assert ids[0] != ids[1]  # other seed, other generated ids
    again = orchestrator("run", str(TRAVEL_PATH), "--seed", "10", "--out", str(tmp_path / "again"))
    assert again.returncode == 0
    same = json.loads((tmp_path / "again" / "results.json").read_text())
    strip = lambda changes: [{k: v for k, v in c.items()} for c in changes]  # noqa: E731
    assert strip(same["changes"]) == strip(episodes[0]["changes"])  # same seed, same final state


def test_config_claude_desktop_uses_absolute_paths() -> None:
    done = orchestrator("config", "claude-desktop", "scenarios/travel.yaml", timeout=60)
    assert done.returncode == 0, done.stderr
    entry = json.loads(done.stdout)["mcpServers"]["clawgym-travel-berlin-offsite"]
    assert Path(entry["command"]).is_absolute()
    serve = entry["args"].index("serve")
    assert entry["args"][serve : serve + 2] == ["serve", str(TRAVEL_PATH)] and "--transport" in entry["args"]
    assert Path(entry["args"][entry["args"].index("--out") + 1]).is_absolute()


@pytest.mark.e2e
def test_list_shows_scenarios(tmp_path: Path) -> None:
    done = orchestrator("list", "scenarios", "--json", timeout=60)
    assert done.returncode == 0, done.stderr
    listed = {s["id"]: s for s in json.loads(done.stdout)["scenarios"]}
    assert listed["travel-berlin-offsite"]["apps"] == ["mail", "calendar", "docs", "tickets"]
    assert listed["travel-berlin-offsite"]["stages"] == 5
