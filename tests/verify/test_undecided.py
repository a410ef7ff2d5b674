"""An episode whose verdict rests on a judge check no judge answered is undecided: neither passed nor failed.

A judge check beside decided checks in its stage adds to the verdict; left unjudged, the others decide. A stage
whose only outcome check is a judge check is the judge's to decide: without an answer the episode is undecided, in
results.json, the console, the exit code, the suite summary, the Markdown report and the env API's reward (none, as
for an errored episode). Runs go through the real CLI or the env, a real gateway and real app servers (in process);
the judge is a fake OpenAI-compatible server on 127.0.0.1.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from fake_judge import SCENARIO, FakeJudge
from helpers import ROOT

from orchestrator.record import is_undecided, tally

ORCHESTRATOR = [sys.executable, "-m", "orchestrator.cli"]
APPROVED = "Hi Priya, good news: your Berlin trip is approved. Dana"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeJudge]:
    with FakeJudge() as judge:
        yield judge


def carried(tmp_path: Path, body: str = APPROVED, name: str = "carried") -> Path:
    """The judge scenario with its judge check in a stage of its own: the judge alone decides that stage."""
    data = yaml.safe_load(SCENARIO.replace("BODY", body))
    row, judged = data["stages"][0]["checks"]
    data["id"] = f"judge-{name}"
    data["stages"] = [
        {"name": "reply", "checks": [row]},
        {"name": "says it is approved", "checks": [judged]},
    ]
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def beside(tmp_path: Path, body: str = APPROVED) -> Path:
    path = tmp_path / "beside.yaml"
    path.write_text(SCENARIO.replace("BODY", body))
    return path


def run(*args: str, cache: Path, codes: tuple[int, ...] = (0, 1, 2)) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "CLAWGYM_JUDGE_CACHE": str(cache), "HOME": str(cache.parent), "COLUMNS": "200"}
    done = subprocess.run(
        [*ORCHESTRATOR, "run", *args, "--backend", "inprocess"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert done.returncode in codes, done.stderr
    return done


def test_a_stage_the_judge_alone_decides_is_undecided_without_a_judge(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = run(str(carried(tmp_path)), "--out", str(out), cache=tmp_path / "cache")
    assert done.returncode == 2, (done.stdout, done.stderr)  # not a pass (0), not a failure (1)
    assert "UNDECIDED" in done.stdout and "PASSED" not in done.stdout and "FAILED" not in done.stdout
    result = json.loads((out / "results.json").read_text())
    assert result["passed"] is False and result["status"] == "completed"
    assert result["undecided"].startswith("1 check(s) that alone decide their stage need a judge")
    assert "no judge configured" in result["undecided"] and "stages[1].checks[0]" in result["undecided"]
    assert is_undecided(result)
    counts = tally([result]).as_dict()
    assert (counts["passes"], counts["failed"], counts["undecided"], counts["scored"]) == (0, 0, 1, 0)
    assert counts["score"] is None  # not in the mean score

    report = subprocess.run(
        [*ORCHESTRATOR, "report", str(out), "--md", "-"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert report.returncode == 0, report.stderr
    assert "1 undecided" in report.stdout and "| undecided run (not scored) |" in report.stdout
    assert "| failed run |" not in report.stdout
    page = tmp_path / "report.html"
    html = subprocess.run(
        [*ORCHESTRATOR, "report", str(out), "--html", str(page)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert html.returncode == 0, html.stderr
    assert ">undecided</span>" in page.read_text() and 'class="badge bad">failed' not in page.read_text()


def test_a_wrong_decided_fact_fails_whatever_the_judge_would_say(tmp_path: Path) -> None:
    """Doing nothing leaves the decided stage at 0: failed, not undecided."""
    out = tmp_path / "out"
    done = run(str(carried(tmp_path)), "--agent", "noop", "--out", str(out), cache=tmp_path / "cache")
    result = json.loads((out / "results.json").read_text())
    assert done.returncode == 1 and result["passed"] is False and result["undecided"] is None


def test_a_judge_decides_the_stage_it_carries(tmp_path: Path, fake: FakeJudge) -> None:
    judge = ("--judge", f"judge-model@{fake.url}")
    yes = run(str(carried(tmp_path)), "--out", str(tmp_path / "yes"), *judge, "--json", cache=tmp_path / "cache")
    result = json.loads(yes.stdout)
    assert yes.returncode == 0 and result["passed"] and result["undecided"] is None
    path = carried(tmp_path, "Hi Priya, the trip is not approved yet, sorry. Dana", name="refused")
    no = run(str(path), "--out", str(tmp_path / "no"), *judge, "--json", cache=tmp_path / "cache")
    result = json.loads(no.stdout)
    assert no.returncode == 1 and not result["passed"] and result["undecided"] is None


def test_a_judge_check_beside_decided_ones_leaves_the_verdict_decided(tmp_path: Path) -> None:
    done = run(str(beside(tmp_path)), "--out", str(tmp_path / "out"), "--json", cache=tmp_path / "cache")
    result = json.loads(done.stdout)
    assert done.returncode == 0 and result["passed"] and result["undecided"] is None


def test_a_suite_counts_undecided_episodes_apart(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    carried(suite)
    beside(suite)
    out = tmp_path / "out"
    done = run(str(suite), "--out", str(out), cache=tmp_path / "cache")
    assert done.returncode == 2, (done.stdout, done.stderr)
    summary = json.loads((out / "results.json").read_text())
    rows = {row["id"]: row for row in summary["scenarios"]}
    assert rows["judge-carried"]["undecided"] == 1 and rows["judge-carried"]["scored"] == 0
    assert rows["judge-carried"]["status"] == "undecided" and not rows["judge-carried"]["passed"]
    assert rows["judge-approval"]["passes"] == 1 and rows["judge-approval"]["undecided"] == 0
    total = summary["total"]
    assert (total["passed"], total["failed"], total["undecided"]) == (1, 0, 1) and not summary["passed"]
    assert "1 undecided" in done.stdout


async def test_the_env_pays_no_reward_for_an_undecided_episode(tmp_path: Path) -> None:
    from orchestrator.env import SUBMIT, ClawGymEnv

    async with ClawGymEnv() as env:
        await env.reset(carried(tmp_path), seed=0)
        reply = {"message_id": "ask", "body": APPROVED}
        assert not (await env.step({"name": "mail__reply", "arguments": reply})).is_error
        end = await env.step({"name": SUBMIT, "arguments": {"message": "told her"}})
        assert end.done and end.reward is None
        assert end.info["passed"] is None and end.info["undecided"].startswith("1 check(s)")
        assert env.result is not None and env.result.undecided and not env.result.passed

        await env.reset(beside(tmp_path), seed=0)
        await env.step({"name": "mail__reply", "arguments": reply})
        end = await env.step({"name": SUBMIT, "arguments": {"message": "told her"}})
        assert end.reward == pytest.approx(1.0) and end.info["passed"] is True
