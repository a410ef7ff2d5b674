"""Crafted or corrupt run records: every reader of `orchestrator.record` refuses JSON nested deeper than a run writes
(`MAX_DEPTH`) as unreadable, so export, verify-digest and the viewer report the line or file instead of crashing with a
RecursionError."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from helpers import TRAVEL_PATH
from typer.testing import CliRunner

from orchestrator import scenario as scenarios
from orchestrator.agents.base import OracleAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.cli import app
from orchestrator.record import MAX_DEPTH, RESULTS, TRACE, loads, parse_jsonl, read_json
from orchestrator.run.runner import RunOptions, run_many
from orchestrator.view import pages
from orchestrator.view.app import web_link
from orchestrator.view.records import Library


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.fixture(scope="module")
def episode(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("crafted")

    async def main() -> None:
        async with InProcessBackend() as backend:
            await run_many(scenarios.load(TRAVEL_PATH), backend, OracleAgent, RunOptions(out=root / "run", seed=1))

    anyio.run(main)
    with (root / "run" / TRACE).open("a") as trace:
        trace.write(f'{{"source": "app:mail", "tool": "mail__x", "arguments": {nested(100_000)}}}\n')
    return root / "run"


def test_json_nested_past_the_limit_is_not_json_to_a_reader(tmp_path: Path) -> None:
    assert loads(nested(MAX_DEPTH)) is not None
    for too_deep in (nested(MAX_DEPTH + 1), nested(100_000)):
        with pytest.raises(ValueError, match="nested too deeply"):
            loads(too_deep)
    lines = parse_jsonl(f'{{"a": 1}}\n{nested(100_000)}\n{{"b": {nested(MAX_DEPTH + 5)}}}\n')
    assert (lines.entries, lines.skipped) == ([{"a": 1}], 2)
    (tmp_path / RESULTS).write_text(f'{{"scenario": {nested(50_000)}}}')
    assert read_json(tmp_path / RESULTS) is None


def test_verify_digest_names_the_bad_line_instead_of_crashing(episode: Path) -> None:
    result = CliRunner().invoke(app, ["verify-digest", str(episode)])
    assert result.exit_code == 1, result.output
    assert "not JSON lines: 1 line(s)" in result.output
    assert not isinstance(result.exception, RecursionError)


def test_export_keeps_the_episode_without_the_bad_line(episode: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["export", str(episode.parent), "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 1 and rows[0]["messages"], rows


def test_the_viewer_shows_the_episode(episode: Path) -> None:
    library = Library.scan([episode.parent])
    record = next(iter(library.records.values()))
    page = pages.run_page(library, record, web_link)
    assert "travel-berlin-offsite" in page


def test_verify_digest_checks_every_episode_of_a_run_folder(episode: Path, tmp_path: Path) -> None:
    folder = episode.parent
    clean = tmp_path / "suite" / "clean"
    clean.parent.mkdir()

    async def main() -> None:
        async with InProcessBackend() as backend:
            await run_many(scenarios.load(TRAVEL_PATH), backend, OracleAgent, RunOptions(out=clean, seed=1, repeat=2))

    anyio.run(main)
    result = CliRunner().invoke(app, ["verify-digest", str(tmp_path / "suite")])
    assert result.exit_code == 0, result.output
    assert result.output.count("digest matches") == 3  # the repeat summary and its two episodes
    result = CliRunner().invoke(app, ["verify-digest", str(folder), str(tmp_path / "suite")])
    assert result.exit_code == 1 and result.output.count("digest matches") == 3, result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(app, ["verify-digest", str(empty)])
    assert result.exit_code == 1 and "no episode" in result.output
    result = CliRunner().invoke(app, ["verify-digest", str(tmp_path / "missing")])
    assert result.exit_code == 2 and "no such file or folder" in result.output
