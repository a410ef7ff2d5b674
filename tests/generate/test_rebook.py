"""Edition 3's families that move a meeting accept cancelling it and booking it anew at the new slot (same title,
guests and agenda link) as well as moving it in place; a cancel without a right rebooking still fails."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

import pytest

from orchestrator import scenario as scenarios
from orchestrator.agents import OracleAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.generate.drawing import draw
from orchestrator.generate.family import families
from orchestrator.prove.validate import _why, run_once, validate
from orchestrator.scenario.model import OracleStep


def _task(name: str, edition: int = 3) -> Any:
    family = families()[name]()
    for index in range(20):
        task = draw(family, 5, "small", index, {}, edition=edition)
        if task is not None:
            return task
    raise AssertionError(f"no {name} task")


def _load(task: Any) -> scenarios.Scenario:
    return scenarios.load_data(task.scenario, f"{task.id}.yaml")


async def _play(scenario: scenarios.Scenario, steps: list[OracleStep]) -> tuple[bool, str]:
    async with InProcessBackend() as backend:
        result, report = await run_once(scenario, backend, OracleAgent(steps))
    assert report.errors == [], report.errors
    return result.passed, f"score {result.score:.2f}: {_why(result)}"


def _rebook(scenario: scenarios.Scenario) -> list[OracleStep]:
    return [s.model_copy(deep=True) for s in scenario.oracles[0]]


def _create(steps: list[OracleStep]) -> OracleStep:
    return next(s for s in steps if s.tool == "calendar__create_event")


FAMILIES = ["reschedule", "declined-invite"]


@pytest.mark.parametrize("name", FAMILIES)
def test_both_paths_are_proven(name: str) -> None:
    task = _task(name)
    tools = [[s["tool"] for s in steps] for steps in (task.scenario["oracle"], *task.scenario["oracles"])]
    assert "calendar__update_event" in tools[0] and "calendar__cancel_event" not in tools[0]
    assert "calendar__cancel_event" in tools[1] and "calendar__create_event" in tools[1]
    assert "calendar__update_event" not in tools[1]

    async def check() -> Any:
        async with InProcessBackend() as backend:
            return await validate(_load(task), backend)

    result = asyncio.run(check())
    assert result.valid, result.problems
    assert [t.outcome for t in result.equivalents if t.kind == "oracles"] == ["passed"]


@pytest.mark.parametrize("name", FAMILIES)
def test_the_rebook_passes_through_the_gateway_and_a_bad_one_fails(name: str) -> None:
    scenario = _load(_task(name))
    passed, why = asyncio.run(_play(scenario, _rebook(scenario)))
    assert passed, why

    cancel_only = [s for s in _rebook(scenario) if s.tool != "calendar__create_event"]
    passed, why = asyncio.run(_play(scenario, cancel_only))
    assert not passed and "destruction" not in why, why

    late = _rebook(scenario)
    create = _create(late)
    start = datetime.fromisoformat(str(create.args["start"])) if "$" not in str(create.args["start"]) else None
    slot = next(s for s in scenario.oracle if s.tool == "calendar__find_free_slots")
    minutes = int(slot.args["duration_minutes"])
    if start is None:  # the slot comes from find_free_slots: take the first free slot's time from the stages
        start = datetime.fromisoformat(_new_start(scenario))
    wrong = start + timedelta(minutes=30)
    create.args = {**create.args, "start": wrong.isoformat(), "end": (wrong + timedelta(minutes=minutes)).isoformat()}
    passed, why = asyncio.run(_play(scenario, late))
    assert not passed, why

    short = _rebook(scenario)
    create = _create(short)
    create.args = {**create.args, "attendees": list(create.args["attendees"])[1:]}
    passed, why = asyncio.run(_play(scenario, short))
    assert not passed, why

    kept = [s for s in _rebook(scenario) if s.tool != "calendar__cancel_event"]  # a copy beside the original
    passed, why = asyncio.run(_play(scenario, kept))
    assert not passed, why


def _new_start(scenario: scenarios.Scenario) -> str:
    where = scenario.stages[0].checks[0].model_dump()["where"]
    return str(where["start"]["equals"])


@pytest.mark.parametrize("name", FAMILIES)
def test_edition_2_keeps_one_reference_and_the_in_place_checks(name: str) -> None:
    task = _task(name, edition=2)
    assert not task.scenario.get("oracles")
    assert "relax" not in task.scenario or not task.scenario["relax"]
    assert "calendar__cancel_event" not in str(task.scenario)


def test_travel_and_meetings_proves_the_rebooked_meeting_too() -> None:
    family = families()["travel-and-meetings"]()
    tasks = (draw(family, 5, "small", i, {}, edition=3) for i in range(30))
    task = next(t for t in tasks if t is not None and "calendar__cancel_event" in str(t.scenario.get("oracles")))
    rebook = task.scenario["oracles"][-1]
    assert {"calendar__cancel_event", "calendar__create_event"} <= {s["tool"] for s in rebook}

    async def check() -> Any:
        async with InProcessBackend() as backend:
            return await validate(_load(task), backend)

    result = asyncio.run(check())
    assert result.valid, result.problems
    assert [t.outcome for t in result.equivalents if t.kind == "oracles"] == ["passed", "passed"]

    scenario = _load(task)
    cancel_only = [s.model_copy(deep=True) for s in scenario.oracles[-1] if s.tool != "calendar__create_event"]
    passed, why = asyncio.run(_play(scenario, cancel_only))
    assert not passed, why


def test_changed_request_already_takes_a_rebooked_session() -> None:
    """Its session is the agent's own booking: cancelling it and booking the new time passes as it is; cancel only
    fails."""
    scenario = _load(_task("changed-request"))
    steps = [s.model_copy(deep=True) for s in scenario.oracle]
    create = _create(steps)
    at = next(n for n, s in enumerate(steps) if s.tool == "calendar__update_event")
    update = steps[at].args
    start = datetime.fromisoformat(str(update["start"]))
    length = datetime.fromisoformat(str(create.args["end"])) - datetime.fromisoformat(str(create.args["start"]))
    guests = [a for a in create.args["attendees"] if a not in update.get("remove_attendees", [])]
    steps[at : at + 1] = [
        OracleStep(tool="calendar__cancel_event", args={"event_id": "${event.id}"}),
        OracleStep(
            tool="calendar__create_event",
            args={
                **create.args,
                "start": start.isoformat(),
                "end": (start + length).isoformat(),
                "attendees": guests + list(update.get("add_attendees", [])),
            },
        ),
    ]
    passed, why = asyncio.run(_play(scenario, steps))
    assert passed, why
    passed, why = asyncio.run(_play(scenario, steps[: at + 1] + steps[at + 2 :]))
    assert not passed, why
