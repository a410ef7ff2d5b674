"""The generation pipeline: proving from memory on workers, a resumable output folder, edition-2 drawing and its
manifest rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from orchestrator.generate import drawing, edition2, pipeline, scheduler
from orchestrator.generate.family import families
from orchestrator.generate.prover import in_full_sample

CHEAP = ["customer-answer", "inbox-rules"]


def _files(out: Path) -> dict[str, bytes]:
    """Every file of a generated folder (hidden ones too) by relative path."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _options(**changes: Any) -> pipeline.Options:
    return pipeline.Options(changes.pop("families", CHEAP), changes.pop("count", 3), seed=4, edition=1, **changes)


class _Stop(Exception):
    """Raised from the progress callback: a crash in the middle of a run."""


def _crash_after(kept: int):
    seen: list[int] = []

    def progress(name: str, written: int, total: int) -> None:
        if written:
            seen.append(written)
        if len(seen) >= kept:
            raise _Stop

    return progress


@pytest.mark.slow
def test_a_run_stopped_midway_continues_to_the_same_bytes_and_keeps_what_it_proved(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    scheduler.run(_options(), whole)
    cut = tmp_path / "cut"
    with pytest.raises(_Stop):
        scheduler.run(_options(), cut, _crash_after(2))
    journal = cut / pipeline.WORK / pipeline.JOURNAL
    kept = sorted(p for p in cut.glob("*/*.yaml"))
    assert journal.exists() and len(kept) == 2 and not (cut / pipeline.MANIFEST).exists()
    inodes = {p: p.stat().st_ino for p in kept}
    with journal.open("a", encoding="utf-8") as file:
        file.write('{"family": "customer-answer", "index": 9, "sta')  # the line a crash cut short
    # another command into the unfinished folder is refused, naming what it holds
    with pytest.raises(pipeline.GenerateError, match="unfinished run of other options"):
        scheduler.run(_options(count=4), cut)
    reports = scheduler.run(_options(), cut)
    assert _files(cut) == _files(whole) and not (cut / pipeline.WORK).exists()
    assert all(p.stat().st_ino == inode for p, inode in inodes.items())  # kept, not proven and written again
    assert [r.written for r in reports] == [3, 3]


def test_replace_removes_an_unfinished_run(tmp_path: Path) -> None:
    with pytest.raises(_Stop):
        scheduler.run(_options(families=CHEAP[:1]), tmp_path, _crash_after(1))
    scheduler.run(_options(families=CHEAP[1:], count=1), tmp_path, replace=True)
    rows = pipeline.read_manifest(tmp_path)
    assert [r["family"] for r in rows] == [CHEAP[1]] and not (tmp_path / CHEAP[0]).exists()


@pytest.mark.slow
def test_two_worker_processes_write_the_bytes_one_process_writes(tmp_path: Path) -> None:
    scheduler.run(_options(count=4), tmp_path / "one")
    scheduler.run(_options(count=4, workers=2), tmp_path / "two")
    assert _files(tmp_path / "one") == _files(tmp_path / "two")


def test_edition_two_splits_by_organization_and_measures_its_tasks() -> None:
    known = families()
    orgs: dict[str, set[str]] = {"train": set(), "test": set(), "test-ood": set()}
    for name in ("customer-answer", "inbox-rules"):
        for index in range(0, 40, 4):
            task = drawing.draw(known[name](), 2, "small", index, edition=2)
            if task is None:
                continue
            row = task.manifest_row()
            assert row["edition"] == 2 and row["organization"] == f"org-{row['world']['seed']}"
            assert row["size"] == "small" and row["calls"] == len(task.scenario["oracle"]) and row["apps"]
            assert row["difficulty"] == edition2.difficulty(row, "small") == task.scenario["difficulty"]
            if name in edition2.OOD_FAMILIES:
                assert row["split"] == "test-ood"
            orgs[row["split"]].add(row["organization"])
    assert orgs["train"] and orgs["test"] and orgs["test-ood"]
    assert not (orgs["train"] & (orgs["test"] | orgs["test-ood"]))
    # ten tasks share an organization; the next ten another
    first = {edition2.organization(2, "customer-answer", i)[0] for i in range(edition2.GROUP)}
    second = edition2.organization(2, "customer-answer", edition2.GROUP)[0]
    assert len(first) == 1 and second not in first


def test_the_size_mix_and_the_full_sample_are_spread_by_hash() -> None:
    sizes = [edition2.org_size(edition2.org_seed(1, "x", g)) for g in range(2000)]
    shares = {name: sizes.count(name) / len(sizes) for name, _ in edition2.SIZE_MIX}
    assert all(abs(shares[name] - share / 100) < 0.04 for name, share in edition2.SIZE_MIX)
    picked = [i for i in range(5000) if in_full_sample(f"task-{i}", 0.1)]
    assert 400 < len(picked) < 600 and not in_full_sample("task-1", 0.0)
    assert pipeline.parse_share("10%") == pipeline.parse_share("0.1") == 0.1
    with pytest.raises(pipeline.GenerateError, match="--full-sample"):
        pipeline.parse_share("lots")


def test_difficulty_follows_what_the_task_holds_not_its_knobs() -> None:
    plain = {"calls": 4, "apps": ["mail"], "planted": 1, "events": 0, "responders": 0, "ask_user": False, "faults": 0}
    assert edition2.difficulty(plain, "small") == "easy"
    longer = {**plain, "calls": 12, "apps": ["mail", "calendar", "docs"], "responders": 1}
    assert edition2.difficulty(longer, "small") == "medium"
    assert edition2.difficulty({**longer, "faults": 1, "ask_user": True}, "large") == "hard"


def test_edition_one_options_refuse_edition_two_families_and_bad_values() -> None:
    only_two = [name for name, cls in families().items() if 1 not in cls.editions]
    if only_two:
        with pytest.raises(pipeline.GenerateError, match="draws no edition-1 tasks"):
            pipeline.Options(only_two[:1], 1, edition=1).check()
        assert only_two[0] not in pipeline.family_names("all", 1)
    for bad, message in (
        (dict(workers=0), "--workers"),
        (dict(backend="cloud"), "--backend"),
        (dict(size="mix"), "--size"),
        (dict(split="test-ood"), "--split"),
    ):
        with pytest.raises(pipeline.GenerateError, match=message):
            pipeline.Options(["travel"], 1, edition=1, **bad).check()
    pipeline.Options(["inbox-rules"], 1, edition=2, size="mix", split="test-ood").check()


@pytest.mark.slow
def test_a_full_sample_proves_that_share_in_full_and_counts_the_proofs_by_kind(tmp_path: Path) -> None:
    reports = scheduler.run(_options(families=["customer-answer"], count=1, full_sample=1.0), tmp_path)
    report = reports[0]
    assert report.full == 1 and report.proofs["mutations"] == report.proofs["mutations_caught"] > 0
    assert report.proofs["reference"] == report.proofs["noop"] == 1
    assert json.loads((tmp_path / pipeline.MANIFEST).read_text())["id"].startswith("customer-answer-4-")


@pytest.mark.ray
def test_ray_actors_write_the_bytes_one_process_writes(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    scheduler.run(_options(count=2), tmp_path / "one")
    scheduler.run(_options(count=2, workers=2, backend="ray"), tmp_path / "ray")
    assert _files(tmp_path / "one") == _files(tmp_path / "ray")


def test_the_generate_command_names_a_bad_edition_share_or_backend(tmp_path: Path) -> None:
    from typer.testing import CliRunner  # noqa: PLC0415

    from orchestrator.cli import app  # noqa: PLC0415

    runner = CliRunner()
    for args, message in (
        (["--edition", "4"], "--edition must be 1, 2 or 3"),
        (["--full-sample", "lots"], "--full-sample 'lots'"),
        (["--backend", "cloud"], "--backend must be one of local, ray"),
        (["--split", "test-ood", "--edition", "1"], "--split must be one of train, test, core"),
    ):
        result = runner.invoke(app, ["generate", "travel", "--out", str(tmp_path / "x"), *args])
        assert result.exit_code == 2 and message in result.output, (args, result.output)
