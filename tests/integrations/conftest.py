"""A generated set as `generate` writes it, made of library scenarios (cheap): <family>/<id>.yaml and tasks.jsonl."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import SCENARIOS

from orchestrator.run.select import stated_id

SET = [
    ("travel", "trips", "train", False),
    ("reschedule-conflict", "meetings", "test", True),
    ("declined-meeting", "meetings", "train", False),
    ("approval-wait", "approvals", "test", False),
]


@pytest.fixture
def generated(tmp_path: Path) -> Path:
    """Four tasks in three families, two in the test split; manifest rows carry an extra field as generate's do."""
    out = tmp_path / "gen"
    rows = []
    for index, (name, family, split, core) in enumerate(SET):
        source = SCENARIOS / f"{name}.yaml"
        scenario_id = stated_id(source)
        (out / family).mkdir(parents=True, exist_ok=True)
        shutil.copy(source, out / family / f"{scenario_id}.yaml")
        rows.append(
            {"id": scenario_id, "family": family, "index": index, "split": split, "core": core, "knobs": {"steps": 2}}
        )
    (out / "tasks.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return out
