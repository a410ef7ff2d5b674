"""`generate --split X --count N` writes N tasks of the split, drawing until it has them; it fails at once, naming
the families, when a family never draws a task of that split, and otherwise only when the draws run out
(`--max-draws`), saying what they came to and how to draw further."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from orchestrator.cli import app
from orchestrator.generate.drawing import draw, in_split
from orchestrator.generate.family import families
from orchestrator.generate.options import Options, attempts
from orchestrator.generate.pipeline import family_names


def generate(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(app, ["generate", *args], env={"COLUMNS": "400"})
    return done.exit_code, done.output


@pytest.mark.slow
def test_a_split_whose_first_seventy_draws_are_all_of_other_splits_still_gets_its_tasks(tmp_path: Path) -> None:
    # ambiguous's first seven organizations (70 candidates) are all train: the old budget wrote none of them.
    code, output = generate("ambiguous", "--split", "test", "--count", "2", "--workers", "1", "--out", str(tmp_path))
    assert code == 0, output
    rows = [json.loads(line) for line in (tmp_path / "tasks.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and {r["split"] for r in rows} == {"test"}
    assert all((tmp_path / "ambiguous" / f"{r['id']}.yaml").is_file() for r in rows)


@pytest.mark.slow
def test_running_out_of_draws_says_what_they_came_to_and_how_to_draw_further(tmp_path: Path) -> None:
    code, output = generate("ambiguous", "--split", "test", "--count", "2", "--max-draws", "70", "--out", str(tmp_path))
    assert code == 1, output
    assert "ambiguous: 0 of 2 test tasks after 70 draws (70 of other splits, 0 duplicates" in output
    assert "its test split supplies no more within them; --max-draws 280 draws further" in output


def test_a_family_that_never_draws_the_split_is_refused_at_once(tmp_path: Path) -> None:
    code, output = generate("inbox-rules,travel", "--split", "test", "--count", "2", "--out", str(tmp_path))
    assert code == 2 and "--split test: family inbox-rules never draws a test task" in " ".join(output.split())
    code, output = generate("travel", "--split", "test-ood", "--count", "2", "--edition", "2", "--out", str(tmp_path))
    assert code == 2 and "--split test-ood: family travel never draws a test-ood task" in " ".join(output.split())
    assert Options(["travel"], 2, split="test-ood", edition=3).never_in_split() == []  # edition 3: every family
    code, output = generate("travel", "--split", "test", "--count", "3", "--max-draws", "2", "--out", str(tmp_path))
    assert code == 2 and "--max-draws must be at least --count (3), got 2" in output
    assert not (tmp_path / "tasks.jsonl").exists()


def test_all_with_a_split_leaves_out_the_families_that_never_draw_it() -> None:
    options = Options(family_names("all", 2), 2, split="test", edition=2)
    assert options.never_in_split() == ["inbox-rules", "lost-send"]
    for edition in (2, 3):  # the held-out families are all test-ood: never core
        core = Options(family_names("all", edition), 2, split="core", edition=edition)
        assert core.never_in_split() == ["inbox-rules", "lost-send"]


def test_core_never_takes_a_test_ood_task_whatever_its_core_flag() -> None:
    # Task 90 of inbox-rules (seed 1) is test-ood on an organization whose hash marks it core: --split core took it.
    for edition in (2, 3):
        task = draw(families()["inbox-rules"](), 1, "small", 90, {}, edition=edition)
        assert task is not None and task.split == "test-ood" and task.core
        assert not in_split("core", task.split, task.core)
        assert in_split("test-ood", task.split, task.core) and in_split(None, task.split, task.core)
    assert in_split("core", "test", True) and not in_split("core", "test", False)


def test_generate_split_core_refuses_a_held_out_family(tmp_path: Path) -> None:
    code, output = generate("lost-send", "--split", "core", "--count", "1", "--out", str(tmp_path))
    assert code == 2 and "--split core: family lost-send never draws a core task" in " ".join(output.split())


def test_the_budget_without_a_split_is_unchanged_and_a_split_draws_fifty_times_it() -> None:
    # Without a split the budget decides release v1's and v2's bytes: it stays 6 per task and 20.
    assert attempts(Options(["travel"], 10)) == 80
    assert attempts(Options(["travel"], 2, split="test")) == (2 * 25 + 20) * 50
    assert attempts(Options(["travel"], 2, split="test", max_draws=500)) == 500
    assert "max_draws" not in Options(["travel"], 2).signature()
