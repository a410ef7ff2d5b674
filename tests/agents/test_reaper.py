"""`orchestrator/agents/reaper.py`, the `none` tier's child subreaper: nothing the command starts outlives it."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import time
from pathlib import Path

import pytest

from orchestrator.agents.isolation import reaper_command


def alive(mark: str) -> list[int]:
    """Live processes with `mark` as an argument of their own (the sleepers, not the shells naming them)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (
                    mark.encode() in (entry / "cmdline").read_bytes().split(b"\0")
                    and "\nState:\tZ" not in (entry / "status").read_text()
                ):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_setsid_and_double_forked_children_die_with_the_command() -> None:
    mark = f"{600 + secrets.randbelow(10**6) / 10**7:.7f}"
    command = f"setsid sleep {mark} & (sleep {mark} &); (setsid sh -c 'sleep {mark}' &); sleep 0.3; exit 7"
    try:
        done = subprocess.run(reaper_command(command), capture_output=True, timeout=30, start_new_session=True)
        assert done.returncode == 7  # the command's own status
        assert alive(mark) == []
    finally:
        for pid in alive(mark):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
def test_sigterm_stops_a_command_that_ignores_it_and_its_children() -> None:
    mark = f"{600 + secrets.randbelow(10**6) / 10**7:.7f}"
    command = f"trap '' TERM; setsid sleep {mark} & sleep {mark}; sleep {mark}"
    process = subprocess.Popen(reaper_command(command), start_new_session=True)
    try:
        # both sleepers up and exec'd (a `setsid` not yet replaced by its sleep names the mark too); slow under load
        deadline = time.monotonic() + 30
        while len(alive(mark)) != 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(alive(mark)) == 2
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(15)
        assert time.monotonic() - started < 10
        assert alive(mark) == []
    finally:
        process.kill()
        for pid in alive(mark):
            os.kill(pid, signal.SIGKILL)
