"""Threat: the agent leaves a `setsid` child that outlives it and rewrites results.json to a pass after
verification (or writes it during the run)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from hostile import marker, processes_matching, requires_bwrap, run_agent, wait_until

pytestmark = requires_bwrap


def forger(out: Path, mark: str) -> str:
    """A child in a session of its own that waits for the verifier's results.json, then overwrites it.

    The agent exits only once the child is in its own session (it says so in the agent's TMPDIR, which both see,
    isolated or not): an agent that exits first can be gone, and its process group killed, before the child has left it."""
    ready = f"$TMPDIR/ready-{mark}"
    return (
        f"setsid sh -c 'touch {ready}; until grep -qs scenario {out}/results.json; do sleep 0.1; done; sleep 0.5; "
        f"echo FORGED > {out}/results.json; echo FORGED > {out}/forged.json # {mark}' "
        f"</dev/null >/dev/null 2>&1 & i=0; until [ -e {ready} ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i+1)); done; "
        f"[ -e {ready} ] && echo child-started; rm -f {ready}; exit 0"
    )


@pytest.mark.slow
def test_setsid_child_dies_with_the_agent_and_results_are_the_verifiers(tmp_path: Path) -> None:
    out, mark = tmp_path / "out", f"forger-{marker()}"
    run = run_agent(out, forger(out, mark))
    assert "child-started" in run.log
    assert processes_matching(mark) == []  # the child did not outlive the agent
    time.sleep(2)
    result = json.loads((out / "results.json").read_text())
    assert result == run.result and result["passed"] is False and result["checks"]
    assert not (out / "forged.json").exists()
    from orchestrator.record import verify_digest

    assert verify_digest(out) == []


def test_the_same_agent_without_isolation_forges_results(tmp_path: Path) -> None:
    """The control: without isolation the agent kills the reaper that would end its child (it runs as the same
    user), the child survives and the record is rewritten."""
    out, mark = tmp_path / "out", f"forger-{marker()}"
    keys = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}  # the unisolated run retires the key it finds
    run = run_agent(out, forger(out, mark).replace("; exit 0", "; kill -9 $PPID; exit 0"), isolation="none", env=keys)
    assert "child-started" in run.log
    assert wait_until(lambda: (out / "forged.json").exists(), 30)  # a loaded machine is slow to schedule it
    assert wait_until(lambda: (out / "results.json").read_text() == "FORGED\n", 5)
