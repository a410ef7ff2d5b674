"""Released tasks load by id without regenerating their family: `orchestrator tasks get ID` prints the scenario file
the release wrote (its sha256 is the row's content hash), `export-tasks --release` and released ids export them, the
env API resets on an id, and `--split core` never holds test-ood."""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT
from typer.testing import CliRunner

from orchestrator.cli import app
from orchestrator.env import EnvError, SyncClawGymEnv
from orchestrator.integrations import releases

V2 = ROOT / "releases" / "v2" / "tasks.jsonl.gz"


def _v2_rows() -> list[dict]:
    with gzip.open(V2, "rt", encoding="utf-8") as manifest:
        return [json.loads(line) for line in manifest]


def _orchestrator(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", *args], cwd=ROOT, capture_output=True, timeout=120, check=False
    )


def test_tasks_get_prints_the_scenario_file_the_release_wrote_byte_for_byte() -> None:
    row = releases.load("v2").row("ambiguous-v2-1-00003")
    started = time.perf_counter()
    done = _orchestrator("tasks", "get", "ambiguous-v2-1-00003")
    took = time.perf_counter() - started
    assert done.returncode == 0, done.stderr.decode()
    assert hashlib.sha256(done.stdout).hexdigest() == row["content_hash"]
    assert done.stdout.startswith(b"id: ambiguous-v2-1-00003\n")
    assert took < 30, took  # the whole interpreter on a shared machine; releases/bench_get.py measures the draw


def test_tasks_get_writes_the_file_with_out_and_finds_the_release_by_the_ids_edition(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "travel.yaml"
    result = CliRunner().invoke(app, ["tasks", "get", "travel-v2-1-00001", "--out", str(out), "--release", "v2"])
    assert result.exit_code == 0, result.output
    row = releases.load("v2").row("travel-v2-1-00001")
    assert hashlib.sha256(out.read_bytes()).hexdigest() == row["content_hash"]
    assert not list(out.parent.glob(".*part"))


def test_tasks_get_names_close_ids_for_an_unknown_id_and_the_known_releases_for_an_unknown_release() -> None:
    unknown = CliRunner().invoke(app, ["tasks", "get", "ambigous-v2-1-00003"])
    assert unknown.exit_code == 2
    assert "no such task in release v2" in unknown.output and "ambiguous-v2-1-00003" in unknown.output
    release = CliRunner().invoke(app, ["tasks", "get", "ambiguous-v2-1-00003", "--release", "v9"])
    assert release.exit_code == 2
    assert "release 'v9': no such release" in release.output and "v2" in release.output
    shape = CliRunner().invoke(app, ["tasks", "get", "travel.yaml"])
    assert shape.exit_code == 2 and "not a released task id" in shape.output


def test_a_draw_that_differs_from_its_row_is_an_error_naming_the_row() -> None:
    release = releases.load("v2")
    row = dict(release.row("ambiguous-v2-1-00003"))
    row["content_hash"] = "0" * 64
    with pytest.raises(releases.ReleaseError, match=r"ambiguous-v2-1-00003: .* differs .* in content_hash"):
        releases.scenario_text(release, row)
    row = {**release.row("ambiguous-v2-1-00003"), "calls": 99}
    with pytest.raises(releases.ReleaseError, match=r"differs .* in calls"):
        releases.scenario(release, row)


def _first_of_size(size: str) -> dict:
    return next(row for row in _v2_rows() if row["size"] == size)


@pytest.mark.parametrize("size", ["small", pytest.param("medium", marks=pytest.mark.slow)])
def test_the_fast_dump_is_the_generators_dump_byte_for_byte(size: str) -> None:
    from orchestrator.generate.family import dump_yaml

    release = releases.load("v2")
    task = releases.draw(release, _first_of_size(size))
    assert releases.dump_yaml(task.scenario) == dump_yaml(task.scenario)
    odd = {"a": 1.5, "b": [None, True, "yes", "1e3", "multi\nline", {}], "c": "0755", "d": "", "e": "x: y", "f": []}
    assert releases.dump_yaml(odd) == dump_yaml(odd)


def test_the_env_resets_on_a_released_tasks_id() -> None:
    release = releases.load("v2")
    scenario = releases.scenario(release, release.row("ambiguous-v2-1-00003"))
    with SyncClawGymEnv() as env:
        obs = env.reset("ambiguous-v2-1-00003", seed=0)
        assert env.state.scenario == "ambiguous-v2-1-00003"
        assert scenario.instruction.strip() in obs.task
        assert env.step({"name": "submit", "arguments": {"message": "done"}}).terminated
        with pytest.raises(EnvError, match=r"ambigous-v2-1-00003.*no such task in release v2.*ambiguous-v2-1-00003"):
            env.reset("ambigous-v2-1-00003", seed=0)


def test_export_tasks_release_split_and_ids_load_rows_by_id(tmp_path: Path) -> None:
    out = tmp_path / "train.jsonl"
    args = ["export-tasks", "--release", "v2", "--split", "train", "--family", "ambiguous", "--limit", "2"]
    result = CliRunner().invoke(app, [*args, "--format", "jsonl", "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    wanted = [r for r in _v2_rows() if r["family"] == "ambiguous" and r["split"] == "train"][:2]
    assert {r["size"] for r in wanted} == {"small"}  # kept fast
    assert [r["id"] for r in rows] == [r["id"] for r in wanted]
    for got, row in zip(rows, wanted, strict=True):
        assert got["split"] == "train" and got["path"] == f"v2:{row['id']}"
        assert hashlib.sha256(got["scenario_yaml"].encode()).hexdigest() == row["content_hash"]
        assert json.loads(got["metadata"]) == row
        assert got["instruction"] and got["tools"]
    by_id = tmp_path / "one.jsonl"
    result = CliRunner().invoke(app, ["export-tasks", wanted[1]["id"], "--format", "jsonl", "--out", str(by_id)])
    assert result.exit_code == 0, result.output
    assert json.loads(by_id.read_text()) == rows[1]


def test_split_core_never_holds_test_ood() -> None:
    release = releases.load("v2")
    core = releases.select(release, split="core")
    assert core and all(r["split"] == "test" and r["core"] for r in core)
    assert any(r["core"] and r["split"] == "test-ood" for r in release.rows())  # the manifest marks some
    result = CliRunner().invoke(
        app,
        [
            "export-tasks",
            "--release",
            "v2",
            "--split",
            "core",
            "--family",
            "inbox-rules",
            "--format",
            "jsonl",
            "--out",
            "unused.jsonl",
        ],
    )
    assert result.exit_code == 2 and "no released task is of this split and family" in result.output


def test_run_selection_of_a_generated_set_keeps_test_ood_out_of_core(tmp_path: Path) -> None:
    from orchestrator.run.select import Selection, narrow

    files = []
    rows = [
        {"id": "fam-v2-1-00000", "family": "fam", "split": "test", "core": True},
        {"id": "fam-v2-1-00001", "family": "fam", "split": "test-ood", "core": True},
    ]
    for row in rows:
        path = tmp_path / "fam" / f"{row['id']}.yaml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"id: {row['id']}\n")
        files.append(path)
    (tmp_path / "tasks.jsonl").write_text(
        "".join(json.dumps({**r, "path": f"fam/{r['id']}.yaml"}) + "\n" for r in rows)
    )
    kept = narrow(files, Selection(split="core"))
    assert [f.stem for f in kept] == ["fam-v2-1-00000"]


@pytest.mark.slow
def test_a_small_row_of_every_family_loads_by_id_byte_for_byte() -> None:
    """Every family's first small row of v2, drawn again by id, is the release's file byte for byte."""
    release = releases.load("v2")
    firsts: dict[str, dict] = {}
    for row in _v2_rows():
        if row["size"] == "small":
            firsts.setdefault(row["family"], row)
    assert len(firsts) == 20
    for row in firsts.values():
        text = releases.scenario_text(release, row)
        assert hashlib.sha256(text.encode()).hexdigest() == row["content_hash"], row["id"]


def test_a_v3_preview_row_loads_by_id_from_the_preview_when_v3_is_not_written() -> None:
    if "v3" in releases.names():
        pytest.skip("release v3 is written: its rows are looked up there")
    release = releases.release_of("ambiguous-v3-1-00000")
    assert release.name == "v3-preview"
    row = release.row("ambiguous-v3-1-00000")
    assert row["instruction"] and row["program"]["steps"]
    text = releases.scenario_text(release, row)
    assert hashlib.sha256(text.encode()).hexdigest() == row["content_hash"]
