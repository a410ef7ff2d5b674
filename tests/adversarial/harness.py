"""Scripted solutions, correct and wrong, run against a scenario's verifier through the gateway (in process)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import yaml

from orchestrator.agents import OracleAgent
from orchestrator.generate.drawing import draw as draw_task
from orchestrator.generate.family import families
from orchestrator.prove.validate import _why, run_once
from orchestrator.scenario import OracleStep, Scenario, relative_dates
from orchestrator.scenario import load as load_scenario
from orchestrator.verify.results import Result

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Case:
    """One scripted agent: `want` is the right verdict; `bug` says why the verifier currently gets it wrong.

    A wrong case (`want` False) names in `fails_on` what its verdict must fail on, in the words `failures` gives: a
    check's description (or its id), or a violation's kind, kind and row ("collateral OPS-45") or kind and rule
    ("forbidden: INC-42 stays resolved"). `refused` is how many of its own calls the apps refuse on purpose.
    """

    id: str
    want: bool
    steps: Callable[[Scenario], list[OracleStep]]
    bug: str | None = None
    fails_on: str | tuple[str, ...] = ()
    refused: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.fails_on, str):
            self.fails_on = (self.fails_on,)
        if not self.want and not self.fails_on:
            raise ValueError(f"case {self.id!r}: a wrong case names the check or violation it must fail on (fails_on)")
        if self.want and self.fails_on:
            raise ValueError(f"case {self.id!r}: a correct case fails on nothing; drop fails_on")


def failures(result: Result) -> set[str]:
    """What a verdict failed on, in the words a case's `fails_on` uses. A judge check left unjudged is no failure."""
    found: set[str] = set()
    for check in result.failed_checks():
        if check.kind != "unjudged":
            found |= {check.id, check.description}
    for v in result.violations:
        found |= {v.kind, f"{v.kind} {v.key}", f"{v.kind}: {v.rule}"}
    return found


def judge(label: str, case: Case, result: Result, errors: list[str], why: str) -> None:
    """The verdict is the one the case wants, for the reason it names, and only the calls it expects are refused."""
    assert len(errors) == case.refused, f"{label}: the apps refused {errors}, the case expects {case.refused}"
    verdict = "passed" if result.passed else "failed"
    assert result.passed == case.want, f"{label} {verdict} with score {result.score:.2f}: {why}"
    missing = [reason for reason in case.fails_on if reason not in failures(result)]
    assert not missing, f"{label} failed, but not on {missing}: {why}"


def parse(scenario: Scenario, text: str) -> list[OracleStep]:
    start = scenario.clock.start.astimezone(ZoneInfo(scenario.persona.timezone))
    data = yaml.safe_load(relative_dates.expand(text, start))
    return [OracleStep.model_validate(d) for d in data]


def script(text: str) -> Callable[[Scenario], list[OracleStep]]:
    """A whole solution written out as oracle steps (templates allowed)."""
    return lambda s: parse(s, text)


def oracle(*edits: Callable[[Scenario, list[OracleStep]], list[OracleStep]]) -> Callable[[Scenario], list[OracleStep]]:
    """The reference solution with edits applied in order."""

    def build(s: Scenario) -> list[OracleStep]:
        steps = [copy.deepcopy(x) for x in s.oracle]
        for edit in edits:
            steps = edit(s, steps)
        return steps

    return build


def append(text: str):
    return lambda s, steps: steps + parse(s, text)


def insert(index: int, text: str):
    return lambda s, steps: steps[:index] + parse(s, text) + steps[index:]


def drop(pred: Callable[[OracleStep], bool]):
    return lambda s, steps: [x for x in steps if not pred(x)]


def replace(pred: Callable[[OracleStep], bool], text: str):
    def edit(s, steps):
        out: list[OracleStep] = []
        for x in steps:
            out += parse(s, text) if pred(x) else [x]
        return out

    return edit


def setarg(pred: Callable[[OracleStep], bool], **args: Any):
    def edit(s, steps):
        for x in steps:
            if pred(x):
                for k, v in args.items():
                    x.args[k] = (
                        relative_dates.expand(v, s.clock.start.astimezone(ZoneInfo(s.persona.timezone)))
                        if isinstance(v, str)
                        else v
                    )
        return steps

    return edit


def tool(name: str) -> Callable[[OracleStep], bool]:
    return lambda x: x.tool == name


def nth(name: str, n: int) -> Callable[[OracleStep], bool]:
    seen = {"i": -1}

    def pred(x: OracleStep) -> bool:
        if x.tool == name:
            seen["i"] += 1
            return seen["i"] == n
        return False

    # counters reset per build: wrap to a factory
    return pred


Edit = Callable[[Scenario, list[OracleStep]], list[OracleStep]]


@dataclass
class Alt:
    """One changed reference solution: `want` is the right verdict. A wrong one names in `fails_on` what its verdict
    must fail on, as `failures` words it: a check's id or description (a drawn task's descriptions carry its drawn
    names) or a violation's kind."""

    id: str
    source: str  # a generated family, or "lib:NAME" (a library scenario)
    want: bool
    edit: Edit
    pick: Callable[[Scenario], bool] = lambda s: True
    fails_on: str = ""

    def __post_init__(self) -> None:
        if self.want == bool(self.fails_on):
            raise ValueError(f"alternative {self.id!r}: a wrong one (and only a wrong one) names what it fails on")


def load_alt_task(source: str, tmp_path: Path, pick: Callable[[Scenario], bool], edition: int = 1) -> Scenario:
    """The library scenario ("lib:NAME"), or the first task of a family (seed 7, this edition) that `pick` accepts."""
    if source.startswith("lib:"):
        return load_scenario(ROOT / "scenarios" / f"{source[4:]}.yaml")
    for index in range(80):
        task = draw_task(families()[source](), 7, "small", index, edition=edition)
        if task is None:
            continue
        path = tmp_path / f"{task.id}.yaml"
        path.write_text(task.yaml(), encoding="utf-8")
        scenario = load_scenario(path)
        if pick(scenario):
            return scenario
    raise AssertionError(f"no {source} task fits")


async def play_alt(alt: Alt, backend: Any, tmp_path: Path, edition: int = 1) -> None:
    """Plays the changed solution through the gateway and asserts its verdict (and what a wrong one fails on)."""
    scenario = load_alt_task(alt.source, tmp_path, alt.pick, edition)
    steps = alt.edit(scenario, [x.model_copy(deep=True) for x in scenario.oracle])
    result, report = await run_once(scenario, backend, OracleAgent(steps))
    assert report.errors == [], report.errors
    assert result.passed == alt.want, f"{scenario.id}: score {result.score:.2f}: {_why(result)}"
    if alt.fails_on:
        assert alt.fails_on in failures(result), f"{scenario.id} failed, but not on {alt.fails_on}: {_why(result)}"


def alt_params(alts: list[Alt], reader_gaps: dict[str, str]) -> list[Any]:
    """The alternatives as test parameters; one a reader does not read yet (its id in `reader_gaps`, with why) is a
    strict expected failure, so the mark goes once the reader does."""
    return [
        pytest.param(a, marks=pytest.mark.xfail(strict=True, reason=reader_gaps[a.id])) if a.id in reader_gaps else a
        for a in alts
    ]
