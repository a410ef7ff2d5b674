"""`release check --sample N` names the rows it drew and proved again, and the seed that drew them (also when it
chose one), so the same check can be run again and a difference traced to its row."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from helpers import ROOT


def _release_module():  # noqa: ANN202
    spec = importlib.util.spec_from_file_location("releases_release_names", ROOT / "releases" / "release.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


release = _release_module()


@pytest.mark.slow
def test_a_sample_check_names_its_rows_and_its_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "small.json"
    options = {"family": "customer-answer", "edition": 2, "count": 3, "seed": 3, "size": "small", "prove": "basic"}
    path.write_text(json.dumps({"release": "small", "options": options, "manifest": "small/tasks.jsonl.gz"}))
    assert release.main(["write", "--release", str(path), "--drawn"]) == 0
    rows = release.read_manifest_file(path.parent / "small" / "tasks.jsonl.gz")
    capsys.readouterr()
    assert release.main(["check", "--release", str(path), "--sample", "2"]) == 0
    said = capsys.readouterr().err
    found = re.search(r"2 random row\(s\) \(--seed (\d+)\) drawn and proven again: (\S+), (\S+)\n", said)
    assert found, said
    seed, named = int(found.group(1)), {found.group(2), found.group(3)}
    assert named <= {row["id"] for row in rows}
    # the seed it names draws the same rows again
    assert release.main(["check", "--release", str(path), "--sample", "2", "--seed", str(seed)]) == 0
    assert f"(--seed {seed}) drawn and proven again: {found.group(2)}, {found.group(3)}\n" in capsys.readouterr().err
