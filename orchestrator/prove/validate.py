"""Proving scenarios sound: the reference solutions score 1.0, doing nothing fails, every step matters,
every generic attack fails and every equivalent rewrite passes.

`validate` runs each scenario on fresh sandboxes: the reference solution
(`oracle`) and every alternative (`oracles`), then the noop agent; with
`mutate`, weakened solutions (a state-changing step left out, or one of its
arguments set to a wrong value), each of which must fail; with `attack`, the
reference solution plus a generic harmful addition (see `derive.attacks`),
each of which must fail; with `equivalents`, correct rewrites of it (see
`derive.equivalents`), each of which must pass.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, TypeVar

import anyio

from orchestrator.agents.base import Agent, AgentReport, NoopAgent, OracleAgent
from orchestrator.backends.base import Backend
from orchestrator.episode.driver import EpisodeDriver
from orchestrator.prove import derive
from orchestrator.prove.prose import prose_patterns
from orchestrator.prove.script import ScriptAgent
from orchestrator.scenario.model import SAVED_REF, OracleStep, Scenario
from orchestrator.scenario.worldspec import WAIT_TOOL
from orchestrator.verify.judge import Judge
from orchestrator.verify.results import Result
from servers.core.probes import Probe, Skip

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")
SIDE_BY_SIDE = 4
"""Proof episodes played at once for a scenario whose injected faults make calls hang (see `side_by_side`)."""
T = TypeVar("T")
Snapshot = dict[str, list[dict[str, Any]]]
Progress = Callable[[str], None]


@dataclass
class Mutation:
    """A weakened reference solution (a step left out or an argument changed), and whether a check caught it."""

    description: str
    steps: list[OracleStep]
    caught: bool | None = None
    score: float | None = None


@dataclass
class Trial:
    """One derived trajectory and how it went: `outcome` is passed, failed, or not applied (a call the probe
    added or changed failed, so the run tests nothing)."""

    kind: str
    description: str
    outcome: str = "not run"
    score: float | None = None
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "description": self.description,
            "outcome": self.outcome,
            "score": self.score,
            "reason": self.reason,
        }


@dataclass
class Validation:
    """What validating one scenario found: the reference and noop results, mutations, attacks, equivalents, problems."""

    scenario: Scenario
    oracle: Result | None = None
    oracle_report: AgentReport | None = None
    noop: Result | None = None
    problems: list[str] = field(default_factory=list)
    mutations: list[Mutation] = field(default_factory=list)
    attacks: list[Trial] = field(default_factory=list)
    equivalents: list[Trial] = field(default_factory=list)
    skipped: dict[str, list[Skip]] = field(default_factory=dict)
    episodes: int = 0

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def uncaught(self) -> list[Mutation]:
        return [m for m in self.mutations if m.caught is False]

    @property
    def attacks_passed(self) -> list[Trial]:
        return [t for t in self.attacks if t.outcome == "passed"]

    @property
    def equivalents_failed(self) -> list[Trial]:
        return [t for t in self.equivalents if t.outcome == "failed"]


@dataclass
class Run:
    """One episode played for a proof: its result, the agent's report, seeded and final state, and journal."""

    result: Result
    report: AgentReport
    seeded: dict[str, Snapshot]
    final: dict[str, Snapshot]
    journal: list[dict[str, Any]] = field(default_factory=list)


async def run_episode(
    scenario: Scenario,
    backend: Backend,
    agent: Agent,
    rng_seed: int = 0,
    schemas: dict[str, Any] | None = None,
    *,
    judge: Judge | None = None,
) -> Run:
    """One episode, keeping the seeded and final states; `schemas`, when given, receives every tool's input schema;
    `judge` is asked about the scenario's `judge` checks (None: they are unjudged)."""
    async with EpisodeDriver(scenario, backend, rng_seed=rng_seed, judge=judge) as driver:
        episode = await driver.prepare()
        if schemas is not None and episode.gateway is not None:
            schemas.update({name: tool.input_schema for name, (_, _, tool) in episode.gateway.tools.items()})
        async with driver.connect():
            report = (await driver.run_agent(lambda: agent.run(episode))).value
        result, journal = await driver.finish()
        final = episode.final  # the state the verdict read: nothing ran since
    assert report is not None  # no timeout and no guard: the agent ran to its end
    result.episode["agent"] = report.as_dict()
    return Run(result, report, episode.seeded, final, journal)


async def run_once(
    scenario: Scenario,
    backend: Backend,
    agent: Agent,
    rng_seed: int = 0,
    schemas: dict[str, Any] | None = None,
    *,
    judge: Judge | None = None,
) -> tuple[Result, AgentReport]:
    """One episode; `schemas`, when given, receives the input schema of every tool the agent could see."""
    run = await run_episode(scenario, backend, agent, rng_seed, schemas, judge=judge)
    return run.result, run.report


def _why(result: Result) -> str:
    """What failed: violations first, then outcome checks, then process checks (which alone never fail a run)."""
    failed = [f"{v.kind}: {v.detail} ({v.rule})" for v in result.violations]
    checks = result.failed_checks()
    process = [c for c in checks if getattr(c, "kind", "outcome") == "process"]
    failed += [f"{c.id} {c.description}: {c.reason}" for c in checks if c not in process]
    failed += [f"process check {c.id} {c.description}: {c.reason}" for c in process]
    return "; ".join(failed)


async def validate(
    scenario: Scenario,
    backend: Backend,
    *,
    mutate: bool = False,
    attack: bool = False,
    equivalents: bool = False,
    progress: Progress | None = None,
    judge: Judge | None = None,
    variations: int | None = None,
) -> Validation:
    """Prove a scenario sound on fresh sandboxes: the reference solutions pass, doing nothing fails, and (when
    asked) mutations and attacks fail and equivalents pass. Every episode asks `judge` about `judge` checks;
    with `variations`, attacks and equivalents also prove by variation, capped at that many episodes a side
    (0: all; None, the default here, none: `orchestrator validate` passes its `--variations`, 30)."""
    check = Validation(scenario)
    check.problems += prose_patterns(scenario)
    note = progress or (lambda _: None)
    schemas: dict[str, Any] = {}
    oracle_run = await _references(check, scenario, backend, note, schemas, judge)
    note("doing nothing")
    check.noop, _ = await run_once(scenario, backend, NoopAgent(), judge=judge)
    check.episodes += 1
    if check.noop.passed:
        check.problems.append("doing nothing passes: the checks do not require any change")
    if mutate and scenario.oracle:
        found = mutations(scenario, schemas)
        jobs = [functools.partial(run_once, scenario, backend, OracleAgent(m.steps), judge=judge) for m in found]
        played = await _in_order(jobs, side_by_side(scenario), note, "mutation")  # type: ignore[arg-type]  # a partial of a coroutine function: called, it returns an awaitable
        for mutation, (result, _) in zip(found, played, strict=True):
            check.episodes += 1
            mutation.caught, mutation.score = not result.passed, result.score
            check.mutations.append(mutation)
        check.problems += [f"mutation passes (score {m.score:.2f}): {m.description}" for m in check.uncaught]
    if (attack or equivalents) and oracle_run is not None:
        ctxs = derive.contexts(scenario, oracle_run.seeded, oracle_run.final, oracle_run.journal)
        for side, asked in (("attacks", attack), ("equivalents", equivalents)):
            if asked:
                await _prove_side(check, scenario, backend, ctxs, side, variations, note, judge)
        check.problems += [
            f"attack passes (score {t.score:.2f}): {t.kind}: {t.description}" for t in check.attacks_passed
        ]
    check.problems += [
        f"equivalent fails (score {t.score:.2f}): {t.kind}: {t.description}: {t.reason}"
        for t in check.equivalents_failed
    ]
    check.problems += [
        f"equivalent could not be played: {t.kind}: {t.description}: {t.reason}"
        for t in check.equivalents
        if t.outcome == "not applied" and t.kind == "oracles"
    ]
    return check


async def _references(
    check: Validation,
    scenario: Scenario,
    backend: Backend,
    note: Progress,
    schemas: dict[str, Any],
    judge: Judge | None,
) -> Run | None:
    """Play the reference solution (it must score 1.0) and the alternative ones (equivalents); the reference's run."""
    oracle_run: Run | None = None
    if not scenario.oracle:
        check.problems.append("no reference solution (oracle) to prove the scenario solvable")
    else:
        note("reference solution")
        oracle_run = await run_episode(scenario, backend, OracleAgent(), schemas=schemas, judge=judge)
        check.episodes += 1
        check.oracle, check.oracle_report = oracle_run.result, oracle_run.report
        if check.oracle_report.errors:
            check.problems += [f"reference solution: {e}" for e in check.oracle_report.errors]
        if not check.oracle.passed or check.oracle.score < 1.0:
            check.problems.append(f"reference solution scores {check.oracle.score:.2f}, not 1.0: {_why(check.oracle)}")
    for index, steps in enumerate(scenario.oracles):
        note(f"alternative reference solution {index}")
        run = await run_episode(scenario, backend, OracleAgent(steps), judge=judge)
        check.episodes += 1
        trial = Trial("oracles", f"oracles[{index}] ({len(steps)} steps)")
        _judge_equivalent(trial, run, [f"oracles[{index}]: {e}" for e in run.report.errors])
        check.equivalents.append(trial)
    return oracle_run


async def _prove_side(
    check: Validation,
    scenario: Scenario,
    backend: Backend,
    ctxs: dict[str, Any],
    side: str,
    variations: int | None,
    note: Progress,
    judge: Judge | None,
) -> None:
    """Play the attacks (each must fail) or the equivalents (each must pass) derived from the reference."""
    probes, check.skipped[side] = _derived(scenario, ctxs, side, variations)
    play, into = (_attack, check.attacks) if side == "attacks" else (_equivalent, check.equivalents)
    word = "attack" if side == "attacks" else "equivalent"
    jobs = [functools.partial(play, scenario, backend, probe, judge) for probe in probes]
    into += await _in_order(jobs, side_by_side(scenario), note, word)  # type: ignore[arg-type]  # a partial of a coroutine function: called, it returns an awaitable
    check.episodes += len(probes)


def side_by_side(scenario: Scenario) -> int:
    """How many proof episodes of `scenario` to play at once: `SIDE_BY_SIDE` when its faults make calls hang or
    wait (the episodes wait on the gateway's deadline, not on the CPU), else one."""
    waits = any(rule.kind in ("timeout", "latency") for plan in scenario.faults.values() for rule in plan.rules)
    return SIDE_BY_SIDE if waits else 1


async def _in_order(jobs: list[Callable[[], Awaitable[T]]], at_once: int, note: Progress, word: str) -> list[T]:
    """Run `jobs`, at most `at_once` at a time, noting each as it starts; their results in the jobs' order."""
    results: list[Any] = [None] * len(jobs)
    limit = anyio.CapacityLimiter(at_once)

    async def one(index: int) -> None:
        async with limit:
            note(f"{word} {index + 1}/{len(jobs)}")
            results[index] = await jobs[index]()

    async with anyio.create_task_group() as group:
        for index in range(len(jobs)):
            group.start_soon(one, index)
    return results


def _derived(
    scenario: Scenario, ctxs: dict[str, Any], side: str, variations: int | None
) -> tuple[list[Probe], list[Skip]]:
    """The attacks or equivalents (`side`) derived from the reference solution, with the variations when asked."""
    if side == "attacks":
        generic, varied = derive.attacks, derive.varied_attacks
    else:
        generic, varied = derive.equivalents, derive.varied_equivalents
    probes, skips = generic(scenario, ctxs)
    if variations is not None:
        more, skipped = varied(scenario, ctxs, variations)
        probes, skips = probes + more, skips + skipped
    return probes, skips


async def _attack(scenario: Scenario, backend: Backend, probe: Probe, judge: Judge | None = None) -> Trial:
    agent = ScriptAgent(derive.plan(scenario.oracle, probe))
    run = await run_episode(scenario, backend, agent, judge=judge)
    trial = Trial(probe.kind, probe.description, score=run.result.score)
    if agent.probe_failures:
        trial.outcome, trial.reason = "not applied", "; ".join(agent.probe_failures)
    elif run.result.passed:
        trial.outcome, trial.reason = "passed", "no check or rule caught it"
    else:
        trial.outcome, trial.reason = "failed", _why(run.result)
    return trial


async def _equivalent(scenario: Scenario, backend: Backend, probe: Probe, judge: Judge | None = None) -> Trial:
    agent = ScriptAgent(derive.plan(scenario.oracle, probe))
    run = await run_episode(scenario, backend, agent, judge=judge)
    trial = Trial(probe.kind, probe.description)
    _judge_equivalent(trial, run, [text for _, _, text in agent.failed])
    if trial.outcome == "passed" and probe.kind.startswith("extra-") and probe.kind != "extra-reads":
        kept = [h.detail for h in run.result.housekeeping]
        trial.reason = "; ".join(filter(None, ["; ".join(kept) or "allowed by the scenario", trial.reason]))
    return trial


def _judge_equivalent(trial: Trial, run: Run, errors: list[str]) -> None:
    trial.score = run.result.score
    if errors:
        trial.outcome, trial.reason = "not applied", "; ".join(errors)
    elif run.result.passed and run.result.score >= 1.0:
        trial.outcome = "passed"
        trial.reason = _why(run.result)  # process checks that failed, if any: reported, never failing
    else:
        trial.outcome, trial.reason = "failed", _why(run.result) or f"score {run.result.score:.2f}"


def mutations(scenario: Scenario, schemas: dict[str, Any] | None = None) -> list[Mutation]:
    """The weakened variants of the reference solution: each state-changing step left out, each checked argument
    changed."""
    steps = scenario.oracle
    out: list[Mutation] = []
    for index, step in enumerate(steps):
        if derive.read_only(step.tool) or step.tool == WAIT_TOOL or step.expect_error:
            # Reads change nothing, a call meant to fail never changes state, and a wait changes no app's state by
            # itself: what the agent does after it is judged by the checks on those acts (a script that skips the
            # wait still knows the answer it was waiting for, which no agent does). Leaving one out is no mutation.
            continue
        out.append(Mutation(f"oracle[{index}] {step.tool} left out", steps[:index] + steps[index + 1 :]))
        for name, value in step.args.items():
            if name in step.unchecked:
                continue
            wrong = wrong_value(value, enum_values((schemas or {}).get(step.tool), name))
            if wrong is None:
                continue
            changed = step.model_copy(update={"args": {**step.args, name: wrong}})
            out.append(
                Mutation(
                    f"oracle[{index}] {step.tool} with {name}={_short(wrong)}",
                    steps[:index] + [changed] + steps[index + 1 :],
                )
            )
    return out


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
