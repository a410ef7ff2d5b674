"""Threat: with `--repeat`, an agent reads an earlier episode's results and trace (a worked solution,
when another agent or the reference solution ran before), or earlier runs under `runs/`."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile import requires_bwrap, run_agent

pytestmark = requires_bwrap


@pytest.mark.slow
def test_agent_cannot_read_a_sibling_episode(tmp_path: Path) -> None:
    out = tmp_path / "out"
    command = (
        f"ls {out} {out}/episode-001; cat {out}/episode-001/results.json {out}/episode-001/trace.jsonl; "
        "ls runs | head -3; echo attempted"
    )
    run = run_agent(out, command, "--repeat", "2")
    second = (out / "episode-002" / "agent.log").read_text(errors="replace")
    assert "attempted" in second
    assert (
        '"scenario"' not in second
        and '"source"' not in second
        and "episode-001" not in second.replace(f"{out}/episode-001", "")
    )
    assert (out / "episode-001" / "results.json").exists()  # it was there to be read
    assert run.result["episodes"] == 2
