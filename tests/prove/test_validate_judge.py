"""`orchestrator validate --judge` gives its judge to every episode it plays: a reference solution whose reply the
judge rejects is not proven, while without a judge the same claim is unjudged and the scenario is valid."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fake_judge import SCENARIO, FakeJudge
from helpers import ROOT


def validate(path: Path, cache: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    env = {"PATH": "/usr/bin:/bin", "CLAWGYM_JUDGE_CACHE": str(cache), "HOME": str(cache.parent)}
    done = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", "validate", str(path), "--json", *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert done.returncode in (0, 1), done.stderr
    [report] = json.loads(done.stdout)["scenarios"]
    return done.returncode, report


@pytest.mark.slow
def test_validate_asks_the_judge_it_was_given(tmp_path: Path) -> None:
    refused = tmp_path / "refused.yaml"
    refused.write_text(SCENARIO.replace("BODY", "Hi Priya, the trip is not approved yet, sorry. Dana"))
    approved = tmp_path / "approved.yaml"
    approved.write_text(SCENARIO.replace("BODY", "Hi Priya, good news: your Berlin trip is approved. Dana"))
    cache = tmp_path / "cache"
    with FakeJudge() as fake:
        code, report = validate(refused, cache, "--judge", f"judge-model@{fake.url}")
        assert code == 1 and not report["valid"] and report["oracle_score"] == 0.5, report
        assert any("the judge said no" in p for p in report["problems"]), report["problems"]
        asked = len(fake.requests)
        assert asked >= 1 and {r["model"] for r in fake.requests} == {"judge-model"}

        code, report = validate(approved, cache, "--judge", f"judge-model@{fake.url}")
        assert code == 0 and report["valid"] and report["oracle_score"] == 1.0, report
        assert len(fake.requests) > asked, "the judge was not asked about the approving reply"

        asked = len(fake.requests)
        code, report = validate(refused, cache)  # no judge: the claim is unjudged and does not count
        assert code == 0 and report["valid"] and report["oracle_score"] == 1.0, report
        assert len(fake.requests) == asked
