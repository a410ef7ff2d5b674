"""Scripted solutions, correct and wrong, run against a scenario's verifier through the gateway (in process)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

import yaml

from orchestrator.scenario import OracleStep, Scenario, relative_dates


@dataclass
class Case:
    """One scripted agent: `want` is the right verdict; `bug` says why the verifier currently gets it wrong."""

    id: str
    want: bool
    steps: Callable[[Scenario], list[OracleStep]]
    bug: str | None = None


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
