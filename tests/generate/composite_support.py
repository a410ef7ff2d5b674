"""What the composite and fault families' tests share: draw an edition-2 task on a small organization, prove it basic, and
play a changed reference solution through the gateway in process."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from orchestrator import scenario as scenarios
from orchestrator.agents import OracleAgent
from orchestrator.generate.build import Organization, build_organization
from orchestrator.generate.family import canonical, dump_yaml, families
from orchestrator.prove.validate import _why, run_once, validate
from orchestrator.scenario.model import OracleStep


def draw(
    name: str,
    tmp_path: Path,
    pick: Callable[[dict[str, Any]], bool] = lambda p: True,
    *,
    seed: int = 11,
    split: str = "train",
) -> tuple[scenarios.Scenario, dict[str, Any], Organization]:
    """The first task of `name` (edition 2, small organizations of `seed`) whose parameters `pick` accepts, loaded, with
    its parameters and a copy of the organization before the task was built on it."""
    fam = families()[name]()
    for index in range(60):
        rng = random.Random(f"{seed}:{name}:{index}")
        org = build_organization(seed * 1000 + rng.randrange(16), "small", edition=2, split=split)
        knobs = {k: rng.choice(v) for k, v in sorted(fam.knobs.items())}
        params = fam.sample(org, rng, {**knobs, "size": "small"})
        if params is None:
            continue
        params = json.loads(canonical(params))
        if not pick(params):
            continue
        before = org.copy()
        task_id = f"{name}-{seed}-{index:05d}"
        path = tmp_path / f"{task_id}.yaml"
        path.write_text(dump_yaml(fam.build(org, params).scenario(task_id, "hard")), encoding="utf-8")
        return scenarios.load(path), params, before
    raise AssertionError(f"no {name} task fits")


def step(tool: str, **args: Any) -> OracleStep:
    return OracleStep(tool=tool, args=args)


def steps_of(scenario: scenarios.Scenario) -> list[OracleStep]:
    return [x.model_copy(deep=True) for x in scenario.oracle]


async def proven(scenario: scenarios.Scenario, backend: Any) -> None:
    """The task passes its basic proofs: the reference scores 1.0 and doing nothing fails."""
    check = await validate(scenario, backend)
    assert check.valid, check.problems


async def verdict(scenario: scenarios.Scenario, backend: Any, steps: list[OracleStep]) -> tuple[bool, str]:
    """Whether these steps pass, and why not."""
    result, report = await run_once(scenario, backend, OracleAgent(steps))
    assert report.errors == [], report.errors
    return result.passed, f"{scenario.id}: score {result.score:.2f}: {_why(result)}"


def chain_steps(scenario: scenarios.Scenario, params: dict[str, Any], org: Organization) -> list[list[OracleStep]]:
    """A composite's reference split into its parts' steps, in the chain's order."""
    known, copy = families(), org.copy()
    sizes = [len(known[p["family"]]().build(copy, p["params"]).oracle) for p in params["chain"]]
    steps, out = steps_of(scenario), []
    for size in sizes:
        out.append(steps[:size])
        steps = steps[size:]
    assert not steps
    return out
