"""The `cmd:` agent's log copier ends even when a process outside the agent's tree keeps its output pipe open."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from orchestrator.agents.agent_process import LogCopier


def test_a_setsid_child_holding_the_pipe_does_not_hold_up_the_copier(tmp_path: Path) -> None:
    # Without isolation, a child that leaves the agent's session keeps the pipe's write end after the agent exits.
    agent = subprocess.Popen(
        ["/bin/sh", "-c", "setsid sleep 60 & echo started $!"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    log = tmp_path / "agent.log"
    copier = LogCopier(agent.stdout, log)  # type: ignore[arg-type]  # a pipe: started with stdout=PIPE
    agent.wait(10)
    started = time.monotonic()
    try:
        copier.finish(timeout=0.5)
        waited = time.monotonic() - started
        text = log.read_text()
    finally:
        for word in log.read_text().split():
            if word.isdigit():
                os.kill(int(word), signal.SIGKILL)  # the sleeper
    assert waited < 10, f"finish waited {waited:.1f} s for a pipe the agent no longer holds"
    assert text.startswith("started "), text
    assert agent.stdout is not None and agent.stdout.closed


def test_everything_the_agent_wrote_is_kept_up_to_the_end(tmp_path: Path) -> None:
    agent = subprocess.Popen(
        ["/bin/sh", "-c", "for i in 1 2 3; do echo line $i; sleep 0.1; done"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    log = tmp_path / "agent.log"
    copier = LogCopier(agent.stdout, log)  # type: ignore[arg-type]  # a pipe: started with stdout=PIPE
    agent.wait(10)
    copier.finish()
    assert log.read_text() == "line 1\nline 2\nline 3\n"
