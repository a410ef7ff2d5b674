"""Proving scenarios sound: the reference solution scores 1.0, doing nothing fails, and every step matters.

`validate` runs each scenario twice on fresh sandboxes (oracle, then noop).
`mutations` builds weakened reference solutions (one step left out, or one
argument of a state-changing step set to a wrong value); a mutation no check
catches points at a weak check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from orchestrator.agents.base import Agent, AgentReport, NoopAgent, OracleAgent
from orchestrator.backends.base import Backend
from orchestrator.episode.episode import Episode
from orchestrator.verify.results import Result
from orchestrator.scenario.model import SAVED_REF, OracleStep, Scenario, app_of
from servers import registry

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")


@dataclass
class Mutation:
    description: str
    steps: list[OracleStep]
    caught: bool | None = None
    score: float | None = None


@dataclass
class Validation:
    scenario: Scenario
    oracle: Result | None = None
    oracle_report: AgentReport | None = None
    noop: Result | None = None
    problems: list[str] = field(default_factory=list)
    mutations: list[Mutation] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def uncaught(self) -> list[Mutation]:
        return [m for m in self.mutations if m.caught is False]


async def run_once(
    scenario: Scenario, backend: Backend, agent: Agent, rng_seed: int = 0, schemas: dict[str, Any] | None = None
) -> tuple[Result, AgentReport]:
    """One episode; `schemas`, when given, receives the input schema of every tool the agent could see."""
    endpoints = await backend.start(scenario.apps)
    async with Episode(scenario, endpoints, rng_seed=rng_seed) as episode:
        if schemas is not None and episode.gateway is not None:
            schemas.update({name: tool.input_schema for name, (_, _, tool) in episode.gateway.tools.items()})
        report = await agent.run(episode)
        result = await episode.verify()
    result.episode["agent"] = report.as_dict()
    return result, report


async def validate(scenario: Scenario, backend: Backend, *, mutate: bool = False) -> Validation:
    check = Validation(scenario)
    schemas: dict[str, Any] = {}
    if not scenario.oracle:
        check.problems.append("no reference solution (oracle) to prove the scenario solvable")
    else:
        check.oracle, check.oracle_report = await run_once(scenario, backend, OracleAgent(), schemas=schemas)
        if check.oracle_report.errors:
            check.problems += [f"reference solution: {e}" for e in check.oracle_report.errors]
        if not check.oracle.passed or check.oracle.score < 1.0:
            failed = [f"{c.id} {c.description}: {c.reason}" for c in check.oracle.failed_checks()]
            failed += [f"{v.kind}: {v.detail} ({v.rule})" for v in check.oracle.violations]
            check.problems.append(
                f"reference solution scores {check.oracle.score:.2f}, not 1.0: " + "; ".join(failed)
            )
    check.noop, _ = await run_once(scenario, backend, NoopAgent())
    if check.noop.passed:
        check.problems.append("doing nothing passes: the checks do not require any change")
    if mutate and scenario.oracle:
        for mutation in mutations(scenario, schemas):
            result, _ = await run_once(scenario, backend, OracleAgent(mutation.steps))
            mutation.caught, mutation.score = not result.passed, result.score
            check.mutations.append(mutation)
    return check


def mutations(scenario: Scenario, schemas: dict[str, Any] | None = None) -> list[Mutation]:
    steps = scenario.oracle
    out: list[Mutation] = []
    for index, step in enumerate(steps):
        out.append(Mutation(f"oracle[{index}] {step.tool} left out", steps[:index] + steps[index + 1 :]))
        if _read_only(step.tool) or step.expect_error:
            continue  # reads change nothing, and a call meant to fail never changes state
        for name, value in step.args.items():
            if name in step.unchecked:
                continue
            wrong = wrong_value(value, enum_values((schemas or {}).get(step.tool), name))
            if wrong is None:
                continue
            changed = step.model_copy(update={"args": {**step.args, name: wrong}})
            out.append(
                Mutation(f"oracle[{index}] {step.tool} with {name}={_short(wrong)}", steps[:index] + [changed] + steps[index + 1 :])
            )
    return out


def _read_only(tool: str) -> bool:
    app, name = app_of(tool)
    definition = registry.load(app).tools.tools.get(name)
    return bool(definition and definition.annotations.read_only_hint)


def enum_values(schema: dict[str, Any] | None, name: str) -> list[Any]:
    """The allowed values of argument `name`, when its schema lists them."""
    if not schema:
        return []
    prop = schema.get("properties", {}).get(name, {})
    options = [prop, *prop.get("anyOf", [])]
    for option in options:
        if "$ref" in option:
            option = schema.get("$defs", {}).get(option["$ref"].rsplit("/", 1)[-1], {})
        if "enum" in option:
            return list(option["enum"])
    return []


def wrong_value(value: Any, choices: list[Any] | None = None) -> Any:
    """A plausible but wrong replacement, or None where there is none worth trying.

    Where the argument takes one of a few values, the wrong value is another
    valid one, so the mutation tests the checks rather than the tool's input validation."""
    if choices:
        return next((c for c in choices if c != value), None)
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, list):
        return value[:-1] if value else None
    if not isinstance(value, str) or SAVED_REF.fullmatch(value):
        return None
    try:
        if len(value) == 10:
            return (date.fromisoformat(value) + timedelta(days=1)).isoformat()
        if "T" in value:
            return (datetime.fromisoformat(value) + timedelta(days=1)).isoformat()
    except ValueError:
        pass
    if EMAIL.match(value):
        return "someone.else@example.test"
    return "MUTATED"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 40 else text[:39] + "…"
