"""A stage of process checks only is not in the score, and says so: for an agent that did nothing it shows the share
of its process checks that pass, never "passed, score 1.00", on the console, in results.json, in export and in the
viewer; report --md never names a process check as the reason a run failed. A real run of the travel scenario
(its first stage is process checks only) with the noop agent, through the command line in process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import TRAVEL_PATH
from typer.testing import CliRunner

from orchestrator.cli import app
from orchestrator.view.pages import run_page
from orchestrator.view.records import Library

PROCESS_STAGE = "read the request first"


def invoke(*args: str | Path):  # noqa: ANN201 (click's Result)
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def noop_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("noop") / "run"
    done = invoke("run", TRAVEL_PATH, "--backend", "inprocess", "--agent", "noop", "--out", out)
    assert done.exit_code == 1, done.output
    return out, done.stdout


def test_a_process_stage_shows_its_share_not_a_free_score(noop_run: tuple[Path, str]) -> None:
    out, stdout = noop_run
    results = json.loads((out / "results.json").read_text())
    stage = results["stages"][0]
    assert stage["name"] == PROCESS_STAGE and all(c["kind"] == "process" for c in stage["checks"])
    assert stage["scored"] is False and stage["score"] < 1.0
    assert all(s["scored"] for s in results["stages"][1:]) and results["score"] == 0.0
    rows = [line.split("│")[0].strip() for line in stdout.splitlines() if "│" in line]
    first_column = " ".join(rows[: rows.index("travel")])  # the stage's name is wrapped in its column
    assert first_column.strip() == f"{PROCESS_STAGE} (process {stage['score']:.0%})", stdout


def test_export_and_the_viewer_show_the_process_stage_apart(noop_run: tuple[Path, str], tmp_path: Path) -> None:
    out, _ = noop_run
    data = tmp_path / "data.jsonl"
    assert invoke("export", out, "--out", data).exit_code == 0
    stages = json.loads(data.read_text().splitlines()[0])["stages"]
    assert stages[0]["name"] == PROCESS_STAGE and stages[0]["scored"] is False and stages[0]["score"] < 1.0
    library = Library.scan([out])
    page = run_page(library, library.episodes()[0], lambda kind, rid=None, **_: f"/{kind}/{rid}")
    assert f'{PROCESS_STAGE} <span class="muted">process checks only, not in the score: ' in page


def test_report_md_never_names_a_process_check_as_why_a_run_failed(noop_run: tuple[Path, str]) -> None:
    out, _ = noop_run
    done = invoke("report", out, "--md", "-")
    assert done.exit_code == 0, done.output
    failed = done.stdout.split("| failed run |")[1].splitlines()[2]
    assert "read Priya's mail before answering it" not in failed and "never succeeded" not in failed
    results = json.loads((out / "results.json").read_text())
    first_outcome = next(c for c in results["checks"] if not c["passed"] and c["kind"] == "outcome")
    assert first_outcome["description"] in failed
