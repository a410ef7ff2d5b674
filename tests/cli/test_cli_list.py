"""`orchestrator list`: a row per scenario (id, title, apps, stages, difficulty, file); broken files are named on
stderr with their first problem and make the exit code 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import ROOT, TRAVEL_PATH
from typer.testing import CliRunner

from orchestrator import scenario as scenarios
from orchestrator.cli import app


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_list_scenarios_shows_every_scenario_on_its_own_line(in_root: None) -> None:
    result = CliRunner().invoke(app, ["list", "scenarios/"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0].replace("┃", " ").split() == ["id", "title", "apps", "stages", "difficulty", "file"]
    files = scenarios.discover([Path("scenarios/")])
    assert len(files) > 3
    for file in files:
        loaded = scenarios.load(file)
        row = next(
            line.strip() for line in lines if line.rstrip().endswith(str(file))
        )  # piped: no path is cut or wrapped
        assert row.startswith(loaded.id + " ") and f" {len(loaded.stages)} " in row
        assert ", ".join(loaded.apps) in row


def test_list_json_has_the_same_scenarios(in_root: None) -> None:
    result = CliRunner().invoke(app, ["list", "scenarios/", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["invalid"] == []
    assert [row["file"] for row in data["scenarios"]] == [str(f) for f in scenarios.discover([Path("scenarios/")])]
    travel = next(row for row in data["scenarios"] if row["file"] == "scenarios/travel.yaml")
    assert travel["id"] == "travel-berlin-offsite" and set(travel["apps"]) == {"mail", "calendar", "docs", "tickets"}


def test_a_broken_file_is_named_and_fails_the_listing(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text((TRAVEL_PATH).read_text())
    (tmp_path / "broken.yaml").write_text("id: broken\n")
    result = CliRunner().invoke(app, ["list", str(tmp_path)], env={"COLUMNS": "400"})
    assert result.exit_code == 1
    assert "travel-berlin-offsite" in result.stdout and "broken.yaml" not in result.stdout
    assert result.stderr.startswith(f"invalid: {tmp_path / 'broken.yaml'} (")
