"""`orchestrator run --fresh test` and the env API's `fresh`: tasks drawn at run time from the held-out split under a
secret seed, each proven, played from the run's own folder; the seed is in the run's summary and draws the same tasks
again; no drawn task is in a committed file. Real runs of the command line, real generator, real app servers."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

from orchestrator.env import EnvError, fresh
from orchestrator.run.fresh import FOLDER, FreshError, pass_line, plan

FAMILY = "travel"  # draws test tasks quickly


def orchestrator(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )


def fresh_run(out: Path, *more: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    done = orchestrator(
        "run",
        "--fresh",
        "test",
        "--count",
        "2",
        "--family",
        FAMILY,
        "--agent",
        "oracle",
        "--backend",
        "inprocess",
        "--workers",
        "1",
        "--json",
        "--out",
        str(out),
        *more,
    )
    summary = json.loads((out / "results.json").read_text()) if (out / "results.json").is_file() else {}
    return done, summary


def drawn_files(out: Path) -> dict[str, bytes]:
    return {p.stem: p.read_bytes() for p in sorted((out / FOLDER).glob("*/*.yaml"))}


def committed_files_naming(ids: list[str]) -> str:
    args = [a for i in ids for a in ("-e", i)]
    found = subprocess.run(["git", "grep", "-l", "-F", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    assert found.returncode in (0, 1), found.stderr
    return found.stdout


@pytest.fixture(scope="module")
def first(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str], dict]:
    out = tmp_path_factory.mktemp("fresh") / "run"
    done, summary = fresh_run(out)
    return out, done, summary


@pytest.mark.slow
def test_a_fresh_run_passes_and_its_summary_holds_the_seed(first) -> None:
    out, done, summary = first
    assert done.returncode == 0, done.stderr
    record = summary["fresh"]
    assert record["split"] == "test" and record["count"] == 2 and record["families"] == [FAMILY]
    assert isinstance(record["seed"], int)
    assert [row["id"] for row in summary["scenarios"]] == record["tasks"]
    assert len(record["tasks"]) == 2 and all(row["passed"] for row in summary["scenarios"])
    assert sorted(drawn_files(out)) == sorted(record["tasks"])  # the drawn files are in the run's own folder
    assert f"fresh test draws (seed {record['seed']}): 2/2 tasks passed" in done.stderr
    manifest = [json.loads(line) for line in (out / FOLDER / "tasks.jsonl").read_text().splitlines()]
    assert {row["split"] for row in manifest} == {"test"}


@pytest.mark.slow
def test_the_seed_is_sealed_in_the_summary(first, tmp_path: Path) -> None:
    out, _, summary = first
    sealed = orchestrator("verify-digest", str(out))
    assert sealed.returncode == 0 and f"{out}: suite sealed, digest matches" in sealed.stdout + sealed.stderr
    edited = tmp_path / "edited"
    shutil.copytree(out, edited)
    changed = summary | {"fresh": summary["fresh"] | {"seed": summary["fresh"]["seed"] + 1}}
    (edited / "results.json").write_text(json.dumps(changed, indent=2))
    refused = orchestrator("verify-digest", str(edited))
    assert refused.returncode == 1 and "edited after it was sealed" in refused.stdout + refused.stderr


@pytest.mark.slow
def test_the_sealed_seed_draws_the_same_tasks_again(first, tmp_path: Path) -> None:
    out, _, summary = first
    seed = str(summary["fresh"]["seed"])
    again, summary_again = fresh_run(tmp_path / "again", "--fresh-seed", seed, "--released", str(out / "results.json"))
    assert again.returncode == 0, again.stderr
    assert f"(seed {seed}): 2/2 tasks passed (100%); released split: 2/2 tasks passed (100%)" in again.stderr
    assert summary_again["fresh"]["tasks"] == summary["fresh"]["tasks"]
    assert drawn_files(tmp_path / "again") == drawn_files(out)


@pytest.mark.slow
def test_no_drawn_task_is_in_a_committed_file(first) -> None:
    _, _, summary = first
    ids = summary["fresh"]["tasks"]
    assert ids
    assert committed_files_naming(ids) == ""


@pytest.mark.slow
def test_the_env_api_draws_what_the_run_drew_for_its_seed(first, tmp_path: Path) -> None:
    out, _, summary = first
    draw = fresh("test", count=2, seed=summary["fresh"]["seed"], families=[FAMILY], folder=tmp_path / "env")
    assert draw.ids == summary["fresh"]["tasks"] == [s.id for s in draw.scenarios]
    assert {p.stem: p.read_bytes() for p in sorted(draw.folder.glob("*/*.yaml"))} == drawn_files(out)


@pytest.mark.slow
def test_fresh_without_a_seed_draws_under_a_new_secret_one(tmp_path: Path) -> None:
    one = fresh("test", count=1, families=[FAMILY], folder=tmp_path / "one")
    assert len(one.scenarios) == 1 and one.seed.bit_length() > 20
    assert committed_files_naming(one.ids) == ""
    assert str(tmp_path) in str(one.folder)


def test_fewer_tasks_than_families_draws_one_from_each_of_a_seeded_choice() -> None:
    families, each = plan("test", 3, seed=7)
    assert each == 1 and len(families) == 3
    assert plan("test", 3, seed=7) == (families, 1)
    assert plan("test", 5, seed=7, families=[FAMILY]) == ([FAMILY], 5)


def test_a_bad_split_or_family_is_refused_by_name() -> None:
    with pytest.raises(FreshError, match="--fresh nonsense"):
        plan("nonsense", 2, seed=1)
    with pytest.raises(EnvError, match="no-such-family"):
        fresh("test", count=1, families=["no-such-family"])
    with pytest.raises(FreshError, match="inbox-rules"):  # a held-out family of edition 2 never draws test tasks
        plan("test", 1, seed=1, families=["inbox-rules"])


@pytest.mark.slow
def test_the_command_line_refuses_fresh_with_scenarios_and_a_run_with_neither() -> None:
    both = orchestrator("run", "scenarios/travel.yaml", "--fresh", "test")
    assert both.returncode == 2 and "--fresh draws its own tasks" in both.stderr
    neither = orchestrator("run")
    assert neither.returncode == 2 and "--fresh SPLIT" in neither.stderr


@pytest.mark.slow
def test_the_pass_line_sets_the_released_rate_beside_the_fresh_one(first) -> None:
    _, _, summary = first
    released = summary | {"scenarios": [*summary["scenarios"], {"id": "a-released-task", "passed": False}]}
    seed = summary["fresh"]["seed"]
    assert pass_line(summary) == f"fresh test draws (seed {seed}): 2/2 tasks passed (100%)"
    assert pass_line(summary, released).endswith("; released split: 2/3 tasks passed (67%)")


@pytest.mark.slow
def test_a_resumed_fresh_run_plays_its_sealed_draw_again(first, tmp_path: Path) -> None:
    out, _, summary = first
    resumed = tmp_path / "resumed"
    shutil.copytree(out, resumed)
    again, summary_again = fresh_run(resumed, "--resume")
    assert again.returncode == 0, again.stderr
    assert summary_again["fresh"] == summary["fresh"]
    assert "resumed: 2 of 2 episode(s) kept" in again.stderr
    (resumed / "results.json").unlink()
    unknown, _ = fresh_run(resumed, "--resume")
    assert unknown.returncode == 2 and "give --fresh-seed" in unknown.stderr
    other, _ = fresh_run(resumed, "--resume", "--fresh-seed", str(summary["fresh"]["seed"] + 1))
    assert other.returncode == 2 and "drawn under another seed" in other.stderr
