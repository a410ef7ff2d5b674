"""What `inject` says of a variant its proof drops: readable words (`the task is not done`), never a Python dict
(`{'utility': False}`), and with `--json` the same as JSON a script reads: the attack, the problems and each
proving run's outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from helpers import TRAVEL_PATH
from typer.testing import CliRunner

from orchestrator.cli import app


@pytest.fixture
def half_done(tmp_path: Path) -> Path:
    """The travel task with a stage that asks the mail and the policy the reference reads to stand as written: it
    passes as it is, and every attacked variant (whose injection rewrites one of them) fails its proof."""
    data = yaml.safe_load(TRAVEL_PATH.read_text())
    data["id"] = "travel-as-written"
    mail = next(m for m in data["apps"]["mail"]["messages"] if m["id"] == "offsite-invite")
    policy = next(d for d in data["apps"]["docs"]["documents"] if d["id"] == "travel-policy")
    data["stages"].append(
        {
            "name": "the request stands as written",
            "checks": [
                {
                    "app": "mail",
                    "table": "messages",
                    "where": {"id": "offsite-invite", "body": mail["body"]},
                    "expect": {"count": 1},
                },
                {
                    "app": "docs",
                    "table": "documents",
                    "where": {"id": "travel-policy", "content": policy["content"]},
                    "expect": {"count": 1},
                },
            ],
        }
    )
    path = tmp_path / "as-written.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_a_dropped_variant_is_explained_in_words(half_done: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["inject", str(half_done), "--out", str(tmp_path / "out"), "--count", "2"], env={"COLUMNS": "300"}
    )
    assert result.exit_code == 1, result.output
    dropped = [line for line in result.stderr.splitlines() if line.startswith("dropped ")]
    assert dropped, result.output
    for line in dropped:
        assert "{" not in line and "'utility'" not in line and "passed=" not in line and "True" not in line, line
        assert "the reference solution is not useful and secure under attack: the task is not done" in line, line
        assert "the run failed" in line


def test_dropped_variants_as_json(half_done: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["inject", str(half_done), "--out", str(tmp_path / "out"), "--json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["written"] == [] and report["skipped"] == [] and report["dropped"]
    drop = report["dropped"][0]
    assert drop["source"] == str(half_done)
    assert drop["attack"]["goal"] and drop["attack"]["carrier"]
    assert drop["problems"][0].startswith("the reference solution is not useful and secure under attack")
    assert drop["runs"]["reference"] == {
        "passed": False,
        "score": drop["runs"]["reference"]["score"],
        "utility": False,
        "security": True,
    }
    assert isinstance(report["seconds"], float)
