"""Threat: the agent reads the scenario file (its checks and reference solution), whose path is on the
orchestrator's command line, or a seed file it includes, or its sibling scenarios."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import ROOT, TRAVEL_PATH
from hostile import TIER, requires_bwrap, run_agent

pytestmark = requires_bwrap

# What only the scenario file holds: its reference solution and its checks.
SECRET = "oracle:"


def test_agent_cannot_read_the_scenario_or_its_siblings(tmp_path: Path) -> None:
    command = (
        f"cat {TRAVEL_PATH}; cat scenarios/travel.yaml; cat scenarios/*.yaml; ls -a scenarios | wc -l; "
        "cat /proc/1/cmdline /proc/$PPID/cmdline; echo; echo attempted"
    )
    run = run_agent(tmp_path / "out", command)
    assert "attempted" in run.log
    assert SECRET not in run.log and "stages:" not in run.log
    assert "No such file or directory" in run.log
    assert "orchestrator.cli" not in run.log  # the orchestrator's command line is not visible
    assert run.result["episode"]["isolation"] == TIER


@pytest.mark.slow
def test_agent_cannot_read_the_scenario_from_git_history(tmp_path: Path) -> None:
    """The repository's history holds every committed scenario: its git store is hidden too."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    command = "git show HEAD:scenarios/travel.yaml; cat .git/HEAD; echo attempted"
    run = run_agent(tmp_path / "out", command)
    assert "attempted" in run.log and SECRET not in run.log and "ref:" not in run.log
    control = run_agent(tmp_path / "control", command, isolation="none")
    assert SECRET in control.log  # the leak is real without isolation


@pytest.mark.slow
def test_the_same_agent_without_isolation_reads_it(tmp_path: Path) -> None:
    """The control: the attack above works when nothing stops it, so the test above can fail."""
    run = run_agent(tmp_path / "out", f"cat {TRAVEL_PATH}; echo attempted", isolation="none")
    assert SECRET in run.log and run.result["episode"]["isolation"] == "none"
    assert "WITHOUT isolation" in run.done.stderr


@pytest.mark.slow
def test_included_seed_files_are_hidden(tmp_path: Path) -> None:
    """A scenario outside the working directory, with its seed in a file of its own next to it."""
    folder = tmp_path / "suite"
    folder.mkdir()
    shutil.copy(TRAVEL_PATH, folder / "travel.yaml")
    run = run_agent(tmp_path / "out", f"cat {folder}/travel.yaml; ls {folder}; echo attempted")
    assert "attempted" in run.log and SECRET not in run.log
    assert not any(line.strip() == "travel.yaml" for line in run.log.splitlines())  # `ls` shows nothing


@pytest.mark.slow
def test_scenario_beside_the_agent_is_hidden_file_by_file(tmp_path: Path) -> None:
    """Run from inside the scenarios folder: the folder stays (it is the agent's), its scenario files do not."""
    scenarios = ROOT / "scenarios"
    run = run_agent(
        tmp_path / "out", "cat travel.yaml inbox-triage.yaml; wc -c README.md; echo attempted", cwd=scenarios
    )
    assert "attempted" in run.log and SECRET not in run.log
    assert "README.md" in run.log  # the agent's own directory is readable
