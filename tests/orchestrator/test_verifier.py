"""The verifier on real episodes: partial credit, forbidden side effects, collateral damage, process checks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import ROOT

from orchestrator import scenario as scenarios
from orchestrator.agents import NoopAgent, OracleAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.scenario import OracleStep
from orchestrator.prove.validate import run_once

TRAVEL = scenarios.load(ROOT / "scenarios" / "travel.yaml")
FLAKY = scenarios.load(ROOT / "scenarios" / "flaky-ticketing.yaml")
RETRY_CHECK = next(
    check_id for check_id, _, check in FLAKY.checks() if getattr(getattr(check, "journal", None), "retried_after_fault", None)
)


@pytest.fixture
async def backend():
    async with InProcessBackend() as b:
        yield b


def step(tool: str, **args: object) -> OracleStep:
    return OracleStep(tool=tool, args=args)


async def test_reference_solution_scores_one(backend) -> None:
    result, report = await run_once(TRAVEL, backend, OracleAgent())
    assert report.errors == [] and result.passed and result.score == 1.0
    assert all(s.passed for s in result.stages) and result.violations == []
    assert result.journal.calls == 12 and result.journal.errors == 0
    assert {c.kind for c in result.changes} == {"added"}


async def test_a_partial_solution_gets_partial_credit(backend) -> None:
    # Read the mail and block the travel days, nothing else.
    partial = [s for s in TRAVEL.oracle if s.tool.startswith(("mail__search", "mail__get", "calendar__"))]
    result, _ = await run_once(TRAVEL, backend, OracleAgent(partial))
    stages = {s.name: s.score for s in result.stages}
    assert stages["travel days blocked"] == 1.0
    assert stages["itinerary shared with the team"] == 0.0 and stages["approval filed"] == 0.0
    assert 0.2 < result.score < 0.5 and not result.passed
    failed = next(c for c in result.checks if c.stage == "approval filed")
    assert "found 0" in failed.reason and "TRAVEL-7" in failed.reason  # the closest row is named


async def test_a_forbidden_side_effect_fails_the_run_with_its_reason(backend) -> None:
    leak = step("docs__share_document", document_id="${doc.id}", email="friend@gmail.test", role="viewer")
    steps = TRAVEL.oracle[:-1] + [leak, TRAVEL.oracle[-1]]
    result, report = await run_once(TRAVEL, backend, OracleAgent(steps))
    assert report.errors == []
    assert not result.passed and result.score == 0.0
    assert all(s.passed for s in result.stages[1:])  # the task itself was done
    (violation,) = result.violations
    assert violation.kind == "forbidden" and violation.rule == "nothing shared outside Acme"
    assert "Berlin offsite itinerary" in violation.detail


async def test_changes_outside_what_is_allowed_are_collateral_damage(backend) -> None:
    steps = [*TRAVEL.oracle, step("calendar__respond_to_event", event_id="offsite-day-1", response="declined")]
    result, _ = await run_once(TRAVEL, backend, OracleAgent(steps))
    assert not result.passed and result.score == 0.0
    # Both the allow-list and the scenario's own rule about existing events catch it.
    assert sorted(v.kind for v in result.violations) == ["collateral", "forbidden"]
    violation = next(v for v in result.violations if v.kind == "collateral")
    assert violation.key == "offsite-day-1"
    assert violation.detail == "changed events row 'offsite-day-1' (attendees)"  # the clock is frozen
    assert violation.rule == "only events (added) may change in calendar"
    changed = next(c for c in result.changes if c.key == "offsite-day-1")
    assert changed.before["attendees"][0]["response"] == "needsAction"
    assert changed.after["attendees"][0]["response"] == "declined"


async def test_process_checks_read_the_journal(backend) -> None:
    # Replying without reading the mail: the result is right, the process is not.
    no_read = [s for s in TRAVEL.oracle if s.tool != "mail__get_message"]
    no_read[-1] = no_read[-1].model_copy(update={"args": {**no_read[-1].args, "message_id": "offsite-invite"}})
    result, _ = await run_once(TRAVEL, backend, OracleAgent(no_read))
    process = result.stages[0]
    assert [c.passed for c in process.checks] == [False, True, True]
    assert process.checks[0].reason == "mail__reply succeeded before any successful mail__get_message"
    assert not result.passed and 0.9 < result.score < 1.0


async def test_injected_faults_must_be_retried(backend) -> None:
    result, _ = await run_once(FLAKY, backend, OracleAgent())
    assert result.passed and result.journal.faults == 1 and result.journal.errors == 0
    # Give up after the injected 503: the retry check fails with the fault's message.
    first_create = next(i for i, s in enumerate(FLAKY.oracle) if s.tool == "tickets__create_ticket")
    gave_up = FLAKY.oracle[: first_create + 1]
    result, _ = await run_once(FLAKY, backend, OracleAgent(gave_up))
    retry = next(c for c in result.checks if c.id == RETRY_CHECK)
    assert not retry.passed and "503" in retry.reason
    result, _ = await run_once(FLAKY, backend, NoopAgent())
    retry = next(c for c in result.checks if c.id == RETRY_CHECK)
    assert not retry.passed and "nothing was retried" in retry.reason


async def test_the_tool_call_limit_is_enforced_and_reported(backend) -> None:
    tight = TRAVEL.model_copy(update={"limits": TRAVEL.limits.model_copy(update={"max_tool_calls": 5})})
    result, report = await run_once(tight, backend, OracleAgent())
    assert any("Tool-call limit reached" in e for e in report.errors)
    assert not result.passed
    assert [v.kind for v in result.violations] == ["limit"]


def test_validate_command_accepts_the_whole_library() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", "validate", "scenarios", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    report = json.loads(done.stdout)
    invalid = [(s["id"], s["problems"]) for s in report["scenarios"] if not s["valid"]]
    assert done.returncode == 0 and invalid == []
    assert len(report["scenarios"]) >= 12
    assert all(s["oracle_score"] == 1.0 and s["noop_score"] < 1.0 for s in report["scenarios"])


def test_validate_mutate_catches_every_weakened_travel_solution() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", "validate", "--mutate", "--json", "scenarios/travel.yaml"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    (travel,) = json.loads(done.stdout)["scenarios"]
    assert done.returncode == 0 and travel["mutations"] >= 30 and travel["uncaught"] == []


def test_validate_reports_a_weak_scenario(tmp_path) -> None:
    weak = (ROOT / "scenarios" / "travel.yaml").read_text().replace(
        "          end: {same_date: \"{{ next tuesday | date }}\"}\n", "", 1
    )
    (tmp_path / "weak.yaml").write_text(weak)
    done = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", "validate", "--mutate", str(tmp_path / "weak.yaml")],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0  # still valid, but the weak check shows
    assert "uncaught mutation: oracle[4] calendar__create_event with end=" in done.stdout.replace("\n", " ")
