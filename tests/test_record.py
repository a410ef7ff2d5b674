"""`orchestrator.record`, the run record every writer and reader shares: kinds, the tolerant reader, the digest, pass@k.

The folders are real runs (the runner and the suite runner against in-process app servers); the viewer and export
read them as they read any run folder.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import anyio
import pytest
from helpers import SCENARIOS, TRAVEL_PATH

from orchestrator import scenario as scenarios
from orchestrator.agents.base import NoopAgent, OracleAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.export import find_episodes
from orchestrator.record import (
    EPISODE,
    REPEAT,
    RESULTS,
    RUN_FILE,
    SUITE,
    TRACE,
    find_records,
    kind_of,
    parse_jsonl,
    pass_k_tables,
    read_jsonl,
    read_trace,
    verify_digest,
    with_kind,
    write_json,
    write_summary,
)
from orchestrator.run import suite
from orchestrator.run.runner import RunOptions, run_many
from orchestrator.view.records import Library

RESCHEDULE = SCENARIOS / "reschedule-conflict.yaml"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A single run, a repeat and a suite of repeats, as `orchestrator run` writes them."""
    root = tmp_path_factory.mktemp("runs")

    async def main() -> None:
        async with InProcessBackend() as backend:
            travel = scenarios.load(TRAVEL_PATH)
            await run_many(travel, backend, OracleAgent, RunOptions(out=root / "single", seed=1))
            await run_many(travel, backend, OracleAgent, RunOptions(out=root / "repeat", seed=2, repeat=2))
            loaded = suite.load_all([TRAVEL_PATH, RESCHEDULE])
            await suite.run_suite(
                loaded, backend, NoopAgent, suite.SuiteOptions(out=root / "suite", agent="noop", repeat=2)
            )

    anyio.run(main)
    return root


def expected_kind(folder: Path, root: Path) -> str:
    parts = folder.relative_to(root).parts
    if parts in (("repeat",), ("suite", "travel-berlin-offsite"), ("suite", "reschedule-conflict")):
        return REPEAT
    return SUITE if parts == ("suite",) else EPISODE


def test_every_results_json_says_its_kind(runs: Path) -> None:
    written = sorted(runs.rglob(RESULTS))
    assert len(written) == 1 + 3 + 7  # single; repeat + 2 episodes; suite + 2 repeats of 2 episodes
    for path in written:
        data = json.loads(path.read_text())
        assert data.get("kind") == expected_kind(path.parent, runs), path
        assert next(iter(data)) == "kind"  # first, where a reader of the file sees it
    assert not [p for p in runs.rglob("*") if p.name.endswith(".tmp")]  # atomic writes leave no scratch files


def test_viewer_and_export_agree_on_what_is_an_episode(runs: Path, tmp_path: Path) -> None:
    tree = tmp_path / "runs"
    shutil.copytree(runs, tree, symlinks=True)
    # Records written before `kind` existed: an episode, a repeat's summary, and a minimal older episode.
    for name in ("single", "repeat"):
        shutil.copytree(tree / name, tree / f"old-{name}")
        path = tree / f"old-{name}" / RESULTS
        path.write_text(json.dumps({k: v for k, v in json.loads(path.read_text()).items() if k != "kind"}))
    (tree / "older").mkdir()
    (tree / "older" / RESULTS).write_text(
        json.dumps({"scenario": "travel-berlin-offsite", "passed": False, "stages": []})
    )
    # A results.json a command agent left in its home is not a run of ours; neither is a file that is not one.
    shutil.copytree(tree / "single", tree / "single" / "home" / "planted")
    (tree / "junk").mkdir()
    (tree / "junk" / RESULTS).write_text('{"hello": 1}')

    viewed = {r.folder.resolve() for r in Library.scan([tree]).episodes()}
    exported = set(find_episodes([tree]))
    assert viewed == exported
    assert {p.name for p in exported if p.parent == tree.resolve()} == {"single", "old-single", "older"}
    assert {
        tree.resolve() / "old-repeat" / "episode-001",
        tree.resolve() / "suite" / "reschedule-conflict" / "episode-002",
    } <= exported
    assert len(exported) == 1 + 2 + 4 + 1 + 2 + 1
    assert kind_of(json.loads((tree / "old-repeat" / RESULTS).read_text())) == REPEAT
    assert [f.kind for f in find_records(tree / "junk")] == [None]


def test_a_bad_line_costs_only_itself(runs: Path, tmp_path: Path) -> None:
    folder = tmp_path / "episode"
    shutil.copytree(runs / "single", folder)
    whole = read_trace(folder)
    assert whole.skipped == 0 and len(whole.entries) > 5
    lines = (folder / TRACE).read_bytes().splitlines(keepends=True)
    (folder / TRACE).write_bytes(lines[0] + b'{"cut": \n' + b"\n" + b"\xff\xfe\n" + b"[1, 2]\n" + b"".join(lines[1:]))
    damaged = read_trace(folder)
    assert damaged.entries == whole.entries and damaged.skipped == 3  # the blank line is no loss
    assert read_jsonl(tmp_path / "missing.jsonl").entries == [] and parse_jsonl("").skipped == 0
    # The digest vouches for every line: there, a bad line is a problem to report, not one to skip.
    problems = verify_digest(folder)
    assert any("does not match" in p for p in problems) and any("not JSON lines: 3 line(s)" in p for p in problems)


def test_the_digest_catches_an_edited_journal(runs: Path, tmp_path: Path) -> None:
    folder = tmp_path / "episode"
    shutil.copytree(runs / "single", folder)
    assert verify_digest(folder) == []
    trace = folder / TRACE
    entries = [json.loads(line) for line in trace.read_text().splitlines()]
    first_app = next(e for e in entries if str(e.get("source", "")).startswith("app:"))
    first_app["tool"] = "mail__send_message"
    trace.write_text("".join(json.dumps(e) + "\n" for e in entries))
    assert verify_digest(folder) == [
        f"{TRACE} does not match the digest in {RESULTS}",
        f"the journal in {TRACE} does not match the digest in {RESULTS}",
    ]
    (folder / RESULTS).write_text("{}")
    assert verify_digest(folder) == [f"{folder / RESULTS} has no digest"]


def test_kinds_are_stamped_and_recognised(tmp_path: Path) -> None:
    episode = {"scenario": "s", "passed": True, "checks": []}
    assert (
        kind_of(episode) == EPISODE
        and kind_of({"kind": SUITE}) == SUITE
        and kind_of({"x": 1}) is None
        and kind_of([]) is None
    )
    assert kind_of({"scenario": "s", "passed": True, "episodes": 2, "results": []}) == REPEAT
    assert kind_of({"scenarios": [], "total": {}}) == SUITE
    assert with_kind(episode) == {"kind": EPISODE, **episode} and with_kind({"x": 1}) == {"x": 1}
    with pytest.raises(ValueError, match="unknown record kind"):
        with_kind(episode, "batch")
    write_json(tmp_path / "a" / RESULTS, episode)  # any writer's results.json gets its kind
    write_json(tmp_path / "a" / "other.json", episode)  # other files are written as given
    assert json.loads((tmp_path / "a" / RESULTS).read_text())["kind"] == EPISODE
    assert "kind" not in json.loads((tmp_path / "a" / "other.json").read_text())
    path = write_summary(tmp_path / "b", {"scenarios": [], "total": {}, "kind": "stale"}, SUITE)
    assert json.loads(path.read_text())["kind"] == SUITE
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b", "other.json", RESULTS, RESULTS, RUN_FILE]


def test_pass_at_k_and_pass_hat_k() -> None:
    tables = pass_k_tables(3, 1)
    assert tables["pass_at_k"] == {"1": 0.333333, "2": 0.666667, "3": 1.0}
    assert tables["pass_hat_k"] == {"1": 0.333333, "2": 0.0, "3": 0.0}
    assert pass_k_tables(2, 2) == {"pass_at_k": {"1": 1.0, "2": 1.0}, "pass_hat_k": {"1": 1.0, "2": 1.0}}
    assert pass_k_tables(0, 0) == {"pass_at_k": {}, "pass_hat_k": {}}


def test_an_episodes_results_json_is_what_the_standard_encoder_writes(runs: Path, tmp_path: Path) -> None:
    """An episode's results.json is encoded by pydantic-core: the same lines as `json.dumps(indent=2)`, ASCII only,
    the same values (a number may be spelled otherwise), and a seal that verifies, also for text beyond ASCII."""
    from orchestrator.record import _indented

    episode = runs / "single" / "episode-001" if (runs / "single" / "episode-001").exists() else runs / "single"
    written = (episode / RESULTS).read_text()
    data = json.loads(written)
    assert written == json.dumps(data, indent=2) + "\n" and verify_digest(episode) == []
    odd = {"text": 'café … 😀 \u2028 \x01 "q" \\ /', "numbers": [1e-05, 1e16, 0.1, -0.0, 2**70], "none": {}}
    text = _indented(odd).decode()
    assert text.isascii() and json.loads(text) == odd
    assert [line for line in text.splitlines() if "0.00001" not in line] == [
        line for line in (json.dumps(odd, indent=2)).splitlines() if "1e-05" not in line
    ]
    # a verdict whose texts go beyond ASCII seals and verifies
    copy = tmp_path / "episode"
    shutil.copytree(episode, copy)
    from orchestrator.record import write_episode
    from orchestrator.run.runner import failed_result

    result = failed_result(scenarios.load(TRAVEL_PATH), "error", "naïve — 😀 failed", {"note": "Zürich"})
    write_episode(copy, result, read_trace(copy).entries)
    assert verify_digest(copy) == [] and json.loads((copy / RESULTS).read_text())["error"] == "naïve — 😀 failed"
    assert (copy / RESULTS).read_text().isascii()
