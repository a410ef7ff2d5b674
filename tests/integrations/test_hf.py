"""`orchestrator export-tasks`: the task set as a Hugging Face dataset or JSON lines, loaded back with `datasets`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import SCENARIOS, TRAVEL_PATH
from typer.testing import CliRunner

from orchestrator.cli import app

datasets = pytest.importorskip("datasets")


def invoke(*args: object):  # type: ignore[no-untyped-def]  # returns click's result object
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.slow  # about 2.7 s here: datasets writes and reads back the library's 19 scenarios
def test_the_library_saves_to_disk_and_loads_back_with_datasets(tmp_path: Path) -> None:
    out = tmp_path / "tasks-hf"
    done = invoke("export-tasks", SCENARIOS, "--format", "hf", "--out", out)
    assert done.exit_code == 0, done.output
    loaded = datasets.load_from_disk(str(out))
    files = sorted(SCENARIOS.glob("*.yaml"))
    assert loaded.num_rows == len(files) and f"{len(files)} task(s) written" in done.output
    row = next(r for r in loaded if r["id"] == "travel-berlin-offsite")
    assert row["scenario_yaml"] == TRAVEL_PATH.read_text()
    assert row["instruction"].startswith("Priya emailed me about the Berlin offsite")
    assert row["apps"] == ["calendar", "docs", "mail", "tickets"]
    assert {"mail__search_messages", "docs__share_document", "tickets__create_ticket"} <= set(row["tools"])
    assert row["family"] is None and row["split"] is None and row["metadata"] is None
    # exporting again into the same folder replaces the dataset
    again = invoke("export-tasks", TRAVEL_PATH, "--format", "hf", "--out", out)
    assert again.exit_code == 0, again.output
    assert datasets.load_from_disk(str(out))["id"] == ["travel-berlin-offsite"]


def test_a_generated_split_keeps_family_split_and_manifest_as_json_lines(generated: Path, tmp_path: Path) -> None:
    out = tmp_path / "test.jsonl"
    done = invoke("export-tasks", generated, "--split", "test", "--format", "jsonl", "--out", out)
    assert done.exit_code == 0, done.output
    loaded = datasets.load_dataset("json", data_files=str(out), split="train")
    assert sorted(loaded["id"]) == ["approval-wait", "reschedule-conflict"]
    assert set(loaded["split"]) == {"test"}
    manifest = {r["id"]: r for r in map(json.loads, (generated / "tasks.jsonl").read_text().splitlines())}
    for row in loaded:
        assert json.loads(row["metadata"]) == manifest[row["id"]]
        assert row["family"] == manifest[row["id"]]["family"]
    family = invoke("export-tasks", generated, "--family", "meetings", "--format", "hf", "--out", tmp_path / "m")
    assert family.exit_code == 0, family.output
    assert sorted(datasets.load_from_disk(str(tmp_path / "m"))["family"]) == ["meetings", "meetings"]


def test_errors_name_the_input(tmp_path: Path) -> None:
    missing = invoke("export-tasks", tmp_path / "nowhere", "--out", tmp_path / "o")
    assert missing.exit_code == 2 and "nowhere" in missing.output
    no_split = invoke("export-tasks", TRAVEL_PATH, "--split", "test", "--out", tmp_path / "o")
    assert no_split.exit_code == 2 and "--split test" in no_split.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("id: broken-one\ntitle: [unclosed\n")
    bad = invoke("export-tasks", broken, "--out", tmp_path / "o")
    assert bad.exit_code == 2 and "broken.yaml" in bad.output
    fmt = invoke("export-tasks", TRAVEL_PATH, "--format", "parquet", "--out", tmp_path / "o")
    assert fmt.exit_code == 2 and "--format 'parquet'" in fmt.output
    # a folder holding someone's files is never overwritten by a dataset
    precious = tmp_path / "mine"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me")
    clobber = invoke("export-tasks", TRAVEL_PATH, "--out", precious)
    assert clobber.exit_code == 2 and str(precious) in clobber.output
    assert (precious / "notes.txt").read_text() == "keep me"
    onto_folder = invoke("export-tasks", TRAVEL_PATH, "--format", "jsonl", "--out", precious)
    assert onto_folder.exit_code == 2 and "is a folder" in onto_folder.output
    assert not (tmp_path / "o").exists()
