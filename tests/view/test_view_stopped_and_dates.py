"""The viewer on a suite stopped by fail-fast and on a copied run, made for real by `orchestrator run`.

- A suite whose first episode errored and whose other scenarios were never started (failed 0, errored 3) shows no
  red "failed" badge: it was stopped, nothing failed.
- Episodes that never started name the run's agent, so each scenario appears once in the pass-rate table.
- A run's date is the one its record states: a copy made later (a later mtime) shows the date it ran.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import time
from pathlib import Path

from helpers import SCENARIOS, TRAVEL_PATH
from starlette.testclient import TestClient
from typer.testing import CliRunner

from orchestrator.cli import app
from orchestrator.view.app import create_app

AGENT = "cmd:/nonexistent-clawgym-agent"


def text_of(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_a_suite_stopped_by_fail_fast_shows_no_failure_and_each_scenario_once(tmp_path: Path) -> None:
    files = [TRAVEL_PATH, SCENARIOS / "reschedule-conflict.yaml", SCENARIOS / "inbox-triage.yaml"]
    out = tmp_path / "runs" / "stopped"
    done = CliRunner().invoke(app, ["run", *map(str, files), "--agent", AGENT, "--out", str(out)])
    assert done.exit_code == 2, done.output
    client = TestClient(create_app([tmp_path / "runs"]), base_url="http://127.0.0.1")
    page = client.get("/group/stopped").text
    head = page.split("<h1>")[1].split("</p>")[0]
    assert 'badge bad">failed' not in head and "stopped" in text_of(head)
    scenarios_table = page.split('id="scenarios"')[1].split("</table>")[0]
    assert 'badge bad">failed' not in scenarios_table and 'class="failed"' not in scenarios_table
    listing = client.get("/").text
    rates = listing.split('id="pass-rates"')[1].split("</table>")[0]
    rows = [text_of(row) for row in rates.split("<tr>")[2:]]
    assert len(rows) == 3, rows  # one row per scenario, each under the run's agent
    assert all(AGENT in row for row in rows), rows


def test_a_copied_run_shows_the_date_it_ran(tmp_path: Path) -> None:
    out = tmp_path / "runs" / "as-run"
    done = CliRunner().invoke(app, ["run", str(TRAVEL_PATH), "--agent", "oracle", "--out", str(out)])
    assert done.exit_code == 0, done.output
    ran = time.strftime("%Y-%m-%d")
    copy = tmp_path / "runs" / "copied"
    shutil.copytree(out, copy)
    later = time.mktime((2031, 6, 1, 12, 0, 0, 0, 0, -1))  # copied years later
    os.utime(copy / "results.json", (later, later))
    client = TestClient(create_app([tmp_path / "runs"]), base_url="http://127.0.0.1")
    listing = text_of(client.get("/").text)
    assert "2031-06-01" not in listing and ran in listing
    assert ran in text_of(client.get("/run/copied").text)
    found = client.get("/", params={"since": "2031-01-01"}).text
    assert 'href="/run/copied"' not in found
