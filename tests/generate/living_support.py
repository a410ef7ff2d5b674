"""What the living families' tests share: draw an edition-2 task of a family on a small train world, prove it
basic, and play a changed reference solution through the gateway in process."""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from orchestrator import scenario as scenarios
from orchestrator.agents import OracleAgent
from orchestrator.generate.build import build_organization
from orchestrator.generate.family import FAMILIES, canonical, dump_yaml
from orchestrator.prove.validate import _why, run_once, validate
from orchestrator.scenario.model import OracleStep


def family(name: str) -> Any:
    """The family registered as `name` (its module imported alone, so families being edited elsewhere don't matter)."""
    importlib.import_module(f"orchestrator.generate.families.{name.replace('-', '_')}")
    return FAMILIES[name]()


def draw(
    name: str,
    tmp_path: Path,
    pick: Callable[[dict[str, Any]], bool] = lambda p: True,
    *,
    seed: int = 11,
    split: str = "train",
) -> tuple[scenarios.Scenario, dict[str, Any]]:
    """The first task of `name` (edition 2, small organizations of `seed`) whose parameters `pick` accepts, loaded."""
    fam = family(name)
    for index in range(80):
        rng = random.Random(f"{seed}:{name}:{index}")
        org = build_organization(1_000_000 + seed * 1000 + rng.randrange(16), "small", edition=2, split=split)
        knobs = {k: rng.choice(v) for k, v in sorted(fam.knobs.items())}
        params = fam.sample(org, rng, knobs)
        if params is None:
            continue
        params = json.loads(canonical(params))
        if not pick(params):
            continue
        task_id = f"{name}-{seed}-{index:05d}"
        path = tmp_path / f"{task_id}.yaml"
        path.write_text(dump_yaml(fam.build(org, params).scenario(task_id, "medium")), encoding="utf-8")
        return scenarios.load(path), params
    raise AssertionError(f"no {name} task fits")


def step(tool: str, **args: Any) -> OracleStep:
    return OracleStep(tool=tool, args=args)


def steps_of(scenario: scenarios.Scenario) -> list[OracleStep]:
    return [x.model_copy(deep=True) for x in scenario.oracle]


async def proven(scenario: scenarios.Scenario, backend: Any) -> None:
    """The task passes its basic proofs: the reference scores 1.0 and doing nothing fails."""
    check = await validate(scenario, backend)
    assert check.valid, check.problems


async def fully_proven(scenario: scenarios.Scenario, backend: Any) -> None:
    """The task passes the full proofs a release samples: mutations and attacks fail, equivalents and 12 variations
    a side pass."""
    check = await validate(scenario, backend, mutate=True, attack=True, equivalents=True, variations=12)
    assert check.valid, check.problems


async def verdict(scenario: scenarios.Scenario, backend: Any, steps: list[OracleStep]) -> tuple[bool, str]:
    """Whether these steps pass, and why not."""
    result, report = await run_once(scenario, backend, OracleAgent(steps))
    assert report.errors == [], report.errors
    return result.passed, f"{scenario.id}: score {result.score:.2f}: {_why(result)}"


def without(steps: list[OracleStep], *tools: str) -> list[OracleStep]:
    return [x for x in steps if x.tool not in tools]


def first(steps: list[OracleStep], tool: str) -> OracleStep:
    return next(x for x in steps if x.tool == tool)
