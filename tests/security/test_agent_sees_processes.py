"""Threat: the agent lists, signals or traces other processes (the orchestrator, the app servers, other agents)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile import requires_bwrap, run_agent

pytestmark = requires_bwrap


@pytest.mark.slow
def test_agent_sees_only_its_own_processes(tmp_path: Path) -> None:
    command = (
        "echo pids: $(ls -d /proc/[0-9]* | wc -l); for p in /proc/[0-9]*; do echo \"proc $(tr '\\0' ' ' < $p/cmdline)\"; done; "
        "kill -0 $PPID && echo parent-signalled; echo attempted"
    )
    run = run_agent(tmp_path / "out", command, "--repeat", "2", "--parallel", "2")
    assert "attempted" in run.log
    seen = [line for line in run.log.splitlines() if line.startswith("proc ")]
    assert len(seen) <= 6, seen  # bwrap's init, the shell, and the listing itself
    assert not any("python" in line or "orchestrator" in line or "servers." in line for line in seen), seen
    pids = int(next(line for line in run.log.splitlines() if line.startswith("pids:")).split()[1])
    assert pids <= 6
