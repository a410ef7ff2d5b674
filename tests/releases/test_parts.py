"""A release generated family by family (`release.py part`, then `write --parts`) is the release `generate all`
writes: the same rows, byte for byte, and the proofs of every part."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

pytestmark = pytest.mark.slow

OPTIONS = {
    "family": "meeting-tz,travel",
    "families": ["meeting-tz", "travel"],
    "edition": 3,
    "count": 2,
    "seed": 1,
    "size": "small",
    "prove": "basic",
    "full_sample": 0.5,
}


def _release(*args: str | Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(ROOT / "releases" / "release.py"), *map(str, args)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_parts_make_the_same_release_as_one_run(tmp_path: Path) -> None:
    release = tmp_path / "tiny-preview.json"
    release.write_text(
        json.dumps({"release": "tiny-preview", "options": OPTIONS, "manifest": "tiny-preview/tasks.jsonl.gz"})
    )
    early = _release("write", "--release", release, "--parts")
    assert early.returncode == 1 and "no part yet for 2 of 2 families: meeting-tz, travel" in early.stderr

    for family in OPTIONS["families"]:
        done = _release("part", "--release", release, "--family", family, "--out", tmp_path / family)
        assert done.returncode == 0, done.stderr
        assert f"kept {family}: 2 tasks" in done.stdout
    kept = tmp_path / "tiny-preview" / "parts"
    assert sorted(p.name for p in kept.iterdir()) == ["meeting-tz", "travel"]
    sampled = _release("check", "--release", release, "--parts", "--sample", "2", "--seed", "3")
    assert sampled.returncode == 0 and "2 of 2 families kept; matches" in sampled.stdout, sampled.stderr

    written = _release("write", "--release", release, "--parts")
    assert written.returncode == 0, written.stderr
    record = json.loads(release.read_text())
    assert record["digest_source"] == "generated" and record["total"]["tasks"] == 4
    reports = [json.loads((kept / family / "report.json").read_text()) for family in OPTIONS["families"]]
    assert record["proofs"]["episodes"]["reference"] == sum(r["proofs"]["reference"] for r in reports) >= 4
    assert record["proofs"]["tasks_proven_in_full"] == sum(r["full"] for r in reports)

    whole = tmp_path / "whole"
    checked = _release("check", "--release", release, "--out", whole)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "matches the release" in checked.stdout
    one_run = (whole / "tasks.jsonl").read_bytes()
    assert gzip.decompress((tmp_path / "tiny-preview" / "tasks.jsonl.gz").read_bytes()) == one_run


def test_a_part_of_another_count_is_refused(tmp_path: Path) -> None:
    release = tmp_path / "tiny-preview.json"
    release.write_text(
        json.dumps({"release": "tiny-preview", "options": OPTIONS, "manifest": "tiny-preview/tasks.jsonl.gz"})
    )
    out = tmp_path / "travel"
    out.mkdir()
    row = {"family": "travel", "index": 0, "id": "travel-v3-1-00000"}
    (out / "tasks.jsonl").write_text(json.dumps(row) + "\n")
    (out / "report.json").write_text(json.dumps({"families": [{"family": "travel", "written": 1}], "seconds": 1}))
    refused = _release("part", "--release", release, "--family", "travel", "--out", out, "--existing")
    assert refused.returncode == 1 and "1 rows of family 'travel', the release has 2" in refused.stderr
    unknown = _release("part", "--release", release, "--family", "nope", "--out", out)
    assert unknown.returncode == 1 and "one of: meeting-tz, travel" in unknown.stderr
