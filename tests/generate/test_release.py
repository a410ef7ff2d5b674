"""Releases: a v2 release commits its manifest and `check` regenerates rows against it (failing without it);
`stats.py` measures a manifest against the set's targets."""

from __future__ import annotations

import gzip
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers import ROOT


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"releases_{name}", ROOT / "releases" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


release = _module("release")
stats = _module("stats")

SMALL = {
    "family": "customer-answer,inbox-rules",
    "edition": 2,
    "count": 3,
    "seed": 3,
    "size": "small",
    "prove": "basic",
}


def _release_file(folder: Path, options: dict[str, Any] = SMALL) -> Path:
    path = folder / "small.json"
    path.write_text(json.dumps({"release": "small", "options": options, "manifest": "small/tasks.jsonl.gz"}))
    return path


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small v2-style release written from the draws, with its committed (gzipped) manifest."""
    path = _release_file(tmp_path_factory.mktemp("release"))
    assert release.main(["write", "--release", str(path), "--drawn"]) == 0
    return path


def test_a_release_with_a_manifest_fails_its_check_when_the_manifest_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _release_file(tmp_path)
    with pytest.raises(SystemExit, match="manifest is missing"):
        release.main(["check", "--release", str(path), "--sample", "2"])


@pytest.mark.slow
def test_a_written_release_checks_its_rows_and_catches_a_changed_one(written: Path) -> None:
    record = json.loads(written.read_text())
    manifest = written.parent / record["manifest"]
    rows = release.read_manifest_file(manifest)
    assert record["total"]["tasks"] == len(rows) == 6 and record["digest_source"] == "drawn"
    assert manifest.read_bytes()[4:8] == b"\0\0\0\0"  # gzipped without a timestamp: the same rows, the same bytes
    assert record["edition2"]["test_ood_families"] and "--edition 2" in record["command"]
    assert release.main(["check", "--release", str(written), "--sample", "2", "--seed", "1"]) == 0
    # a row regenerated differently is named, field by field
    changed = [dict(rows[0], difficulty="hard" if rows[0]["difficulty"] != "hard" else "easy"), *rows[1:]]
    assert release.compare_rows(changed, rows) == [f"{rows[0]['id']}: differs in difficulty"]
    # a manifest edited behind the release's back fails its check
    text = gzip.decompress(manifest.read_bytes()).decode().replace(rows[0]["id"], rows[0]["id"] + "x")
    manifest.write_bytes(gzip.compress(text.encode(), mtime=0))
    assert release.main(["check", "--release", str(written), "--sample", "2"]) == 1


@pytest.mark.slow
def test_stats_measure_a_small_set_and_name_the_missed_targets(
    written: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = written.parent / json.loads(written.read_text())["manifest"]
    rows = release.read_manifest_file(manifest)
    figures = stats.measure(rows)
    assert figures["tasks"] == 6 and figures["organizations_shared"] == 0 and figures["templates_shared"] == 0
    assert set(figures["families"]) == {"customer-answer", "inbox-rules"}
    assert any(m.startswith("organizations is") for m in stats.missed(figures))  # a few, not a thousand
    assert stats.main([str(manifest)]) == 1 and stats.main([str(manifest), "--report-only"]) == 0
    assert "organizations" in capsys.readouterr().out
    # an organization on both sides, a template on both sides and repeated instructions are counted
    leak = [dict(rows[0], split="test" if rows[0]["split"] == "train" else "train"), *rows]
    assert stats.measure(leak)["organizations_shared"] == 1 and stats.measure(leak)["templates_shared"] == 1
    assert stats.measure([dict(r, shape="same") for r in rows])["same_normalized_instruction"] == 1.0


def test_stats_refuse_an_edition_one_manifest(tmp_path: Path) -> None:
    (tmp_path / "tasks.jsonl").write_text(json.dumps({"id": "a", "family": "f", "split": "train"}) + "\n")
    with pytest.raises(SystemExit, match="edition-2 manifest is needed"):
        stats.main([str(tmp_path)])


V2 = ROOT / "releases" / "v2.json"


def test_release_v2_is_the_manifest_its_record_names_and_meets_every_target() -> None:
    """The committed v2 manifest is the one v2.json records (whole and per family), generated with every task
    proven, and it meets every target stats.py measures."""
    record = json.loads(V2.read_text())
    rows = release.read_manifest_file(ROOT / "releases" / record["manifest"])
    found = release.summarize(rows)
    assert record["digest_source"] == "generated" and record["options"] == release.V2_OPTIONS
    assert found["manifest_sha256"] == record["manifest_sha256"]
    for name, family in record["families"].items():
        assert found["families"][name]["manifest_sha256"] == family["manifest_sha256"], name
        assert family["tasks"] == 1000, name
    assert stats.missed(stats.measure(rows)) == []


@pytest.mark.slow
def test_release_v2_rows_drawn_and_proven_again_equal_the_manifest() -> None:
    assert release.main(["check", "--release", "v2", "--sample", "3", "--seed", "7"]) == 0


DECOY_FAMILIES = ("lost-send", "approve-request", "ask-colleague")
"""The families whose decoys edition 3 words by content where edition 2 (release v2) labels them."""
SAMPLED_FAMILIES = (*DECOY_FAMILIES, "meeting-tz", "inbox-rules", "offboard", "travel-and-meetings")


def _v2_rows(families: tuple[str, ...]) -> list[dict[str, Any]]:
    """Of each family, release v2's first small-organization row, and for the decoy families the first with decoys planted."""
    record = json.loads(V2.read_text())
    picked: dict[tuple[str, bool], dict[str, Any]] = {}
    wanted = tuple(f'"family": "{name}"' for name in families)
    with gzip.open(ROOT / "releases" / record["manifest"], "rt", encoding="utf-8") as manifest:
        lines = [line for line in manifest if any(w in line for w in wanted)]  # parse only the sampled families' rows
    for row in map(json.loads, lines):
        if row["family"] in families and row["size"] == "small":
            decoys = row["family"] in DECOY_FAMILIES and bool(row["knobs"]["distractors"])
            picked.setdefault((row["family"], decoys), row)
    return list(picked.values())


def test_edition_two_draws_release_v2s_rows_again_byte_for_byte() -> None:
    """Edition 2 stays release v2's drawing (edition 3 has the neutral ids): a handful of the committed manifest's rows
    (the decoy families' with and without decoys, and families of every kind), drawn again (not proven: the slow
    check above proves), equal their rows byte for byte, the scenario's bytes included (`content_hash`)."""
    from orchestrator.generate import drawing  # noqa: PLC0415
    from orchestrator.generate.family import families  # noqa: PLC0415

    options = json.loads(V2.read_text())["options"]
    assert options["edition"] == 2
    rows = _v2_rows(SAMPLED_FAMILIES)
    assert len(rows) == len(SAMPLED_FAMILIES) + len(DECOY_FAMILIES)
    for row in rows:
        task = drawing.draw(families()[row["family"]](), options["seed"], options["size"], row["index"], edition=2)
        assert task is not None, row["id"]
        got = task.manifest_row()
        assert got == row, (
            f"{row['id']}: differs in {sorted(k for k in row.keys() | got.keys() if row.get(k) != got.get(k))}"
        )
