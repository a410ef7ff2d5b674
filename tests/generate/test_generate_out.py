"""`generate --out` never removes a set generated before unless asked (`--replace`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from orchestrator.cli import app


def generate(out: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, ["generate", "meeting-tz", "--count", "1", "--seed", "3", "--out", str(out), *extra]
    )
    return result.exit_code, result.output


@pytest.mark.slow
def test_a_second_generate_into_the_same_folder_is_refused_and_keeps_the_first(tmp_path: Path) -> None:
    out = tmp_path / "gen"
    code, output = generate(out)
    assert code == 0, output
    first = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert any(p.suffix == ".yaml" for p in first)

    code, output = generate(out, "--knob", "distractors=2")
    assert code == 2, output
    assert "already holds 1 generated task(s)" in output and "--replace" in output
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == first

    code, output = generate(out, "--replace")
    assert code == 0, output
    assert {
        p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()
    } == first  # same command, same bytes


def test_a_folder_of_other_files_is_refused_even_with_replace(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    code, output = generate(tmp_path, "--replace")
    assert code == 2 and "not empty and holds no tasks.jsonl" in output
    assert (tmp_path / "notes.txt").read_text() == "mine"
