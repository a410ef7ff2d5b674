"""Running a hostile `cmd:` agent through `orchestrator run` on the local backend, and reading what it saw."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, TRAVEL_PATH

ORCHESTRATOR = [sys.executable, "-m", "orchestrator.cli"]


@dataclass
class Run:
    done: subprocess.CompletedProcess[str]
    out: Path
    log: str
    result: dict[str, Any]


REQUESTED = os.environ.get("CLAWGYM_ISOLATION", "bwrap")
"""The `--isolation` the attacks ask for: bwrap, unshare (CLAWGYM_ISOLATION=unshare), or auto (CI's pass on a PATH
without bwrap, where auto must take unshare)."""


def _tier(requested: str) -> str:
    if requested != "auto":
        return requested
    from orchestrator.agents.isolation import resolve_isolation

    return resolve_isolation("auto")[0]


TIER = _tier(REQUESTED)
"""The tier the attacks run under (what auto resolves to here), as results.json records it."""


def tier_problem() -> str | None:
    """Why `TIER` cannot isolate an agent here, or None."""
    from orchestrator.agents.isolation import bwrap_problem, unshare_problem

    return bwrap_problem() if TIER == "bwrap" else unshare_problem()


def bwrap_works() -> bool:
    """Whether the tier under test (bwrap unless CLAWGYM_ISOLATION says otherwise) works here."""
    return tier_problem() is None


requires_bwrap = pytest.mark.skipif(
    not bwrap_works() and not os.environ.get("CLAWGYM_REQUIRE_BWRAP"),
    reason=f"--isolation {TIER} cannot run here: {tier_problem()}",
)


def run_agent(
    out: Path,
    command: str,
    *args: str,
    scenario: Path = TRAVEL_PATH,
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
    isolation: str = REQUESTED,
) -> Run:
    """`orchestrator run SCENARIO --agent cmd:COMMAND --isolation TIER`; the agent's output is in `Run.log`."""
    done = subprocess.run(
        [
            *ORCHESTRATOR,
            "run",
            str(scenario),
            "--agent",
            f"cmd:{command}",
            "--out",
            str(out),
            "--isolation",
            isolation,
            *args,
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode in (0, 1), done.stderr + done.stdout
    assert (out / "results.json").exists(), done.stderr + done.stdout
    try:
        result = json.loads((out / "results.json").read_text())
    except ValueError:  # rewritten by someone else (only possible without isolation)
        result = {}
    log_path = out / "agent.log" if (out / "agent.log").exists() else out / "episode-001" / "agent.log"
    return Run(done, out, log_path.read_text(errors="replace") if log_path.exists() else "", result)


def marker() -> str:
    """A `sleep` argument no other process has, to find the agent's processes from outside its namespaces."""
    return f"{600 + secrets.randbelow(10**6) / 10**7:.7f}"


def processes_with(argument: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if argument.encode() in (entry / "cmdline").read_bytes().split(b"\0"):
                    if "\nState:\tZ" not in (entry / "status").read_text():
                        found.append(int(entry.name))
            except OSError:
                continue
    return found


def processes_matching(text: str) -> list[int]:
    """Live processes whose command line contains `text`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and entry.name != str(os.getpid()):
            try:
                if (
                    text.encode() in (entry / "cmdline").read_bytes()
                    and "\nState:\tZ" not in (entry / "status").read_text()
                ):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def wait_until(predicate: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return bool(predicate())
