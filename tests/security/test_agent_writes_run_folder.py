"""Threat: the agent writes into the run folder (its own results, log or trace) or into the directory it runs from."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT
from hostile import requires_bwrap, run_agent

pytestmark = requires_bwrap


@pytest.mark.slow
def test_agent_cannot_write_the_run_folder_or_its_working_directory(tmp_path: Path) -> None:
    out = tmp_path / "out"
    command = (
        f"mkdir -p {out}; echo forged > {out}/results.json; echo forged >> {out}/agent.log; touch {out}/planted; "
        "touch planted-in-cwd; echo scratch > $HOME/note && cat $HOME/note; echo attempted"
    )
    run = run_agent(out, command)
    assert "attempted" in run.log
    assert "scratch" in run.log  # its own HOME is writable
    assert not (out / "planted").exists() and not (ROOT / "planted-in-cwd").exists()
    assert "forged" not in (out / "agent.log").read_text().replace("echo forged", "")
    assert (
        run.result["scenario"] == "travel-berlin-offsite" and run.result["checks"]
    )  # the verifier's record, not "forged"
