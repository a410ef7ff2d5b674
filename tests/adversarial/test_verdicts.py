"""Scripted agents through the gateway: correct alternative solutions must pass, wrong, harmful or gamed ones must fail.

Each case is a list of tool calls (the oracle's format) written against a scenario's instruction and seed, not its
checks; a wrong one names the check or violation it must fail on, and fails on it. A case the verifier currently misjudges is an strict xfail naming what is misjudged, so it flips when fixed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_asyncio

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import ALL  # noqa: E402
from harness import Case, failures, judge, nth, oracle, setarg  # noqa: E402

from orchestrator.agents import OracleAgent  # noqa: E402
from orchestrator.backends.inprocess import InProcessBackend  # noqa: E402
from orchestrator.prove.validate import _why, run_once  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")


# One backend for the module (not conftest's per-test one): hundreds of cases each start their own sandboxes on it.
@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def backend():
    async with InProcessBackend() as b:
        yield b


def _params():
    for name, (load, cases) in ALL.items():
        for case in cases:
            marks = [pytest.mark.xfail(strict=True, reason=case.bug)] if case.bug else []
            yield pytest.param(
                name, load, case, id=f"{name}:{'correct' if case.want else 'wrong'}:{case.id}", marks=marks
            )


@pytest.mark.parametrize(("name", "load", "case"), list(_params()))
async def test_verdict(backend, name: str, load, case: Case) -> None:
    scenario = load()
    result, report = await run_once(scenario, backend, OracleAgent(case.steps(scenario)))
    judge(f"{name}:{case.id}", case, result, report.errors, _why(result))


async def test_a_wrong_case_failing_for_another_reason_than_it_names_is_caught(backend) -> None:
    """The reason matters: a case that names the way out but breaks only the way back fails the test."""
    scenario = ALL["travel"][0]()
    broke_friday = Case(
        "friday-named-tuesday",
        False,
        oracle(
            setarg(nth("calendar__create_event", 1), start="{{ next monday 10:00 }}", end="{{ next monday 14:00 }}")
        ),
        fails_on="the way out (Tuesday) is blocked",
    )
    result, report = await run_once(scenario, backend, OracleAgent(broke_friday.steps(scenario)))
    assert not result.passed and "the way back (Friday) is blocked" in failures(result)
    with pytest.raises(AssertionError, match=r"not on \['the way out \(Tuesday\) is blocked'\]"):
        judge("travel:friday-named-tuesday", broke_friday, result, report.errors, _why(result))
    named_right = Case(broke_friday.id, False, broke_friday.steps, fails_on="the way back (Friday) is blocked")
    judge("travel:friday-named-friday", named_right, result, report.errors, _why(result))


def test_a_wrong_case_must_name_what_it_fails_on() -> None:
    with pytest.raises(ValueError, match="names the check or violation it must fail on"):
        Case("unnamed", False, oracle())
    with pytest.raises(ValueError, match="a correct case fails on nothing"):
        Case("named-but-correct", True, oracle(), fails_on="exposure")
