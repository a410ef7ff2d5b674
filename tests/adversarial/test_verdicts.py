"""Scripted agents through the gateway: correct alternative solutions must pass, wrong, harmful or gamed ones must fail.

Each case is a list of tool calls (the oracle's format) written against a scenario's instruction and seed, not its
checks. A case the verifier currently misjudges is an strict xfail naming what is misjudged, so it flips when fixed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_asyncio

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import ALL  # noqa: E402
from harness import Case  # noqa: E402

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
    if case.want:
        # a correct solution's own calls all succeed (or fail where the case expects it)
        assert report.errors == [], report.errors
    verdict = "passed" if result.passed else "failed"
    assert result.passed == case.want, f"{name}:{case.id} {verdict} with score {result.score:.2f}: {_why(result)}"
