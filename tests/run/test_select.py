"""Choosing what `orchestrator run` plays: scenario ids (looked up in scenarios/ or the folders given), `--tags`,
`--family` and `--split` (a generated set's tasks.jsonl), `--limit`, `--sample` with `--seed`. Through the command
line in process, with the oracle on the in-process backend; a generated set laid out as `generate` writes one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import SCENARIOS, TRAVEL_PATH
from typer.testing import CliRunner

from orchestrator.cli import app
from orchestrator.run.select import Selection, SelectionError, narrow, resolve_ids, stated_id


def invoke(*args: str | Path):  # noqa: ANN201 (click's Result)
    return CliRunner().invoke(app, [str(a) for a in args])


def ran(out: Path) -> list[str]:
    """The scenario ids a suite folder's summary holds, in order."""
    return [row["id"] for row in json.loads((out / "results.json").read_text())["scenarios"]]


@pytest.fixture
def generated(tmp_path: Path) -> Path:
    """A generated set as `generate` writes it: <family>/<id>.yaml and tasks.jsonl with family, split and core."""
    out = tmp_path / "gen"
    rows = []
    for index, (name, family, split, core) in enumerate(
        [
            ("travel", "trips", "train", False),
            ("reschedule-conflict", "meetings", "test", True),
            ("declined-meeting", "meetings", "train", False),
            ("approval-wait", "approvals", "test", False),
        ]
    ):
        source = SCENARIOS / f"{name}.yaml"
        scenario_id = stated_id(source)
        (out / family).mkdir(parents=True, exist_ok=True)
        shutil.copy(source, out / family / f"{scenario_id}.yaml")
        rows.append({"id": scenario_id, "family": family, "index": index, "split": split, "core": core})
    (out / "tasks.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return out


def test_a_scenario_id_runs_that_scenario(tmp_path: Path) -> None:
    done = invoke("run", "travel-berlin-offsite", "--backend", "inprocess", "--out", tmp_path)
    assert done.exit_code == 0, done.output
    result = json.loads((tmp_path / "results.json").read_text())
    assert result["kind"] == "episode" and result["scenario"] == "travel-berlin-offsite" and result["passed"]
    assert result["episode"]["scenario_file"].endswith("scenarios/travel.yaml")


def test_several_ids_are_a_suite(tmp_path: Path) -> None:
    done = invoke("run", "reschedule-conflict", "travel-berlin-offsite", "--backend", "inprocess", "--out", tmp_path)
    assert done.exit_code == 0, done.output
    assert ran(tmp_path) == ["reschedule-conflict", "travel-berlin-offsite"]


def test_an_unknown_id_is_a_usage_error_naming_where_it_looked(tmp_path: Path) -> None:
    done = invoke("run", "travel-berlin", "--out", tmp_path / "out")
    assert done.exit_code == 2
    assert "travel-berlin: not a scenario file, folder or glob, and no scenario has this id in " in done.output
    assert str(SCENARIOS.resolve()) in done.output.replace("\n", "")
    assert not (tmp_path / "out").exists()
    library = tmp_path / "library"
    library.mkdir()
    shutil.copy(TRAVEL_PATH, library)
    with pytest.raises(SelectionError, match=f"reschedule-conflict: .* in {library}$"):
        resolve_ids([library, "reschedule-conflict"])  # a folder given: only it is searched
    assert resolve_ids([library, "travel-berlin-offsite"]) == [library / "travel.yaml"]


def test_ids_in_a_generated_set_come_from_its_manifest(generated: Path, tmp_path: Path) -> None:
    done = invoke("run", generated, "approval-wait", "--backend", "inprocess", "--out", tmp_path)
    assert done.exit_code == 0, done.output
    assert json.loads((tmp_path / "results.json").read_text())["scenario"] == "approval-wait"


def test_tags_keep_scenarios_with_any_of_them(tmp_path: Path) -> None:
    done = invoke("run", SCENARIOS, "--tags", "rate-limit,waiting", "--backend", "inprocess", "--out", tmp_path)
    assert done.exit_code == 0, done.output
    assert ran(tmp_path) == ["approval-wait", "rate-limited-triage"]
    done = invoke("run", SCENARIOS, "--tags", "no-such-tag", "--out", tmp_path / "none")
    assert done.exit_code == 2 and "--tags no-such-tag: no scenario has any of these tags" in done.output


def test_family_and_split_read_the_manifest(generated: Path, tmp_path: Path) -> None:
    done = invoke("run", generated, "--family", "meetings", "--backend", "inprocess", "--out", tmp_path / "family")
    assert done.exit_code == 0, done.output
    assert sorted(ran(tmp_path / "family")) == ["declined-meeting", "reschedule-conflict"]
    done = invoke("run", generated, "--split", "test", "--backend", "inprocess", "--out", tmp_path / "test")
    assert sorted(ran(tmp_path / "test")) == ["approval-wait", "reschedule-conflict"]
    done = invoke("run", generated, "--split", "core", "--backend", "inprocess", "--out", tmp_path / "core")
    assert ran(tmp_path / "core") == ["reschedule-conflict"]  # a suite, even of one scenario
    done = invoke(
        "run",
        generated,
        "--family",
        "meetings",
        "--split",
        "test",
        "--out",
        tmp_path / "x",
        "--limit",
        "1",
        "--backend",
        "inprocess",
    )
    assert ran(tmp_path / "x") == ["reschedule-conflict"]


def test_family_of_hand_written_scenarios_says_only_generated_sets_have_them(tmp_path: Path) -> None:
    done = invoke("run", SCENARIOS, "--family", "meetings", "--out", tmp_path)
    assert done.exit_code == 2
    assert "--family meetings: no scenario of 19 file(s) matches (no tasks.jsonl" in done.output.replace("\n", " ")


def test_limit_and_a_seeded_sample(tmp_path: Path) -> None:
    files = sorted(SCENARIOS.glob("*.yaml"))
    assert narrow(files, Selection(limit=3)) == files[:3]
    first = narrow(files, Selection(sample=5, seed=7))
    assert first == narrow(files, Selection(sample=5, seed=7)) and len(first) == 5
    assert first == [f for f in files if f in first]  # in the files' order
    assert {tuple(narrow(files, Selection(sample=5, seed=s))) for s in range(5)} != {tuple(first)}
    assert narrow(files, Selection(sample=50)) == files
    done = invoke("run", SCENARIOS, "--sample", "2", "--seed", "7", "--backend", "inprocess", "--out", tmp_path)
    assert done.exit_code == 0, done.output
    assert len(ran(tmp_path)) == 2
    for bad in (["--limit", "0"], ["--sample", "0"]):
        assert invoke("run", SCENARIOS, *bad).exit_code == 2
