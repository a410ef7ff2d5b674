"""Errored episodes in the viewer, the reports and export: kept apart from the scored ones, never in pass rates.
Real runs of the travel scenario (the reference solution, and a `cmd:` agent that never started) read back by
the viewer's app in process, `report` and `export` through the command line in process."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import anyio
import pytest
from helpers import TRAVEL_PATH
from starlette.testclient import TestClient
from typer.testing import CliRunner

from orchestrator import scenario as scenarios
from orchestrator.agents.base import OracleAgent
from orchestrator.agents.command import CommandAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.cli import app
from orchestrator.run.runner import RunOptions, run_many
from orchestrator.view.app import create_app
from orchestrator.view.records import Library, pass_rates

NEVER_STARTED = "cmd:no-such-binary"


def text_of(page: str) -> str:
    """The page as a reader sees it: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture(scope="module")
def errored_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("errored-runs")
    travel = scenarios.load(TRAVEL_PATH)

    async def main() -> None:
        async with InProcessBackend() as backend:
            await run_many(travel, backend, OracleAgent, RunOptions(out=root / "oracle", seed=1))
            await run_many(
                travel,
                backend,
                lambda: CommandAgent("no-such-binary", isolation="none"),
                RunOptions(out=root / "never-started", seed=2),
            )

    anyio.run(main)
    return root


def test_pass_rates_count_only_scored_episodes(errored_runs: Path) -> None:
    rows = {row["agent"]: row for row in pass_rates(Library.scan([errored_runs]).episodes())}
    assert (rows["oracle"]["passes"], rows["oracle"]["scored"]) == (1, 1)
    errored = rows[NEVER_STARTED]
    assert (errored["episodes"], errored["scored"], errored["passes"], errored["errored"]) == (1, 0, 0, 1)
    assert errored["rate"] is None and errored["score"] is None


def test_the_list_marks_errored_runs_and_filters_them(errored_runs: Path) -> None:
    client = TestClient(create_app([errored_runs]), base_url="http://127.0.0.1")
    body = client.get("/").text
    rates = text_of(body.split('id="pass-rates"')[1].split("</table>")[0])
    assert f"travel-berlin-offsite {NEVER_STARTED} 1 0/0 - - 1" in rates
    assert "travel-berlin-offsite oracle 1 1/1 100% 1.00" in rates
    assert 'class="errored"' in body and ">agent_error</span>" in body
    errored_only = client.get("/", params={"passed": "errored"}).text
    assert 'href="/run/never-started"' in errored_only and 'href="/run/oracle"' not in errored_only
    failed_only = client.get("/", params={"passed": "no"}).text
    assert 'href="/run/never-started"' not in failed_only


def test_report_md_lists_errored_runs_apart(errored_runs: Path) -> None:
    done = CliRunner().invoke(app, ["report", str(errored_runs), "--md", "-"])
    assert done.exit_code == 0, done.output
    assert f"| travel-berlin-offsite | {NEVER_STARTED} | 0/0 | - | - | 1 |" in done.stdout
    assert "**1/1 episodes passed** (100%); 1 errored, not scored" in done.stdout
    assert "| failed run |" not in done.stdout
    assert (
        "| never-started | agent_error | the agent exited with code 127 (command not found): it never started |"
        in done.stdout
    )


def test_export_leaves_errored_episodes_out_unless_asked(errored_runs: Path, tmp_path: Path) -> None:
    out = tmp_path / "data.jsonl"
    done = CliRunner().invoke(app, ["export", str(errored_runs), "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert (  # export answers on stdout
        "1 of 2 episodes written" in done.stdout and "1 errored left out (--include-errored keeps them)" in done.stdout
    )
    assert [json.loads(line)["agent"] for line in out.read_text().splitlines()] == ["oracle"]
    done = CliRunner().invoke(app, ["export", str(errored_runs), "--out", str(out), "--include-errored"])
    assert done.exit_code == 0, done.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(line["status"] for line in lines) == ["agent_error", "completed"]
