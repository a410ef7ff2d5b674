"""Edition 3's tasks with several right answers: a meeting-tz day with two free slots, whose checks accept either and
whose proofs replay a reference for each; and its reference that reads free/busy itself in some tasks."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

import pytest

from orchestrator import scenario as scenarios
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.generate.drawing import draw
from orchestrator.generate.family import families
from orchestrator.generate.scheduling import second_slot
from orchestrator.prove.validate import validate


def _meetings(count: int, edition: int = 3) -> list[Any]:
    family = families()["meeting-tz"]()
    found = [draw(family, 7, "small", i, {}, edition=edition) for i in range(count)]
    return [t for t in found if t is not None]


def test_second_slot_is_two_meetings_away_from_the_first() -> None:
    day = datetime(2026, 6, 2, 9, 0)
    starts = [day + timedelta(minutes=30 * k) for k in range(10)]  # 09:00 ... 13:30
    assert second_slot(starts, day, 60) == starts[7]  # 12:30, the middle of 11:00 ... 13:30
    assert second_slot(starts[:4], day, 60) is None  # nothing two hours from 09:00 before 11:00
    for task in _meetings(10):
        if task.params.get("also"):
            slot, also = (datetime.fromisoformat(t) for t in (task.params["slot"], task.params["also"][0]))
            assert abs(also - slot) >= timedelta(minutes=2 * task.params["minutes"])
            assert task.params["also"][0] not in task.params["suggestions"]


def test_meeting_tz_draws_two_slots_in_some_tasks_and_edition_2_never() -> None:
    three = _meetings(10)
    assert 0 < sum(1 for t in three if t.params.get("also")) < len(three)
    assert not any(t.params.get("also") for t in _meetings(10, edition=2))
    tools = {s["tool"] for t in three for s in t.scenario["oracle"]}
    assert {"calendar__get_free_busy", "calendar__find_free_slots"} <= tools  # zone reasoning left to the agent too


def _episode_results(task: Any) -> Any:
    async def run() -> Any:
        async with InProcessBackend() as backend:
            loaded = scenarios.load_data(task.scenario, f"{task.id}.yaml")
            return await validate(loaded, backend)

    return asyncio.run(run())


def test_both_slots_pass_and_the_reference_for_each_is_replayed() -> None:
    task = next(t for t in _meetings(10) if t.params.get("also") and t.params["via"] == "mail")
    assert len(task.scenario["oracles"]) == 1
    booked = [
        [s["args"]["start"] for s in steps if s["tool"] == "calendar__create_event"]
        for steps in (task.scenario["oracle"], *task.scenario["oracles"])
    ]
    assert booked == [[task.params["slot"]], task.params["also"]]
    check = _episode_results(task)
    assert check.valid, check.problems
    assert [t.outcome for t in check.equivalents if t.kind == "oracles"] == ["passed"]


def test_a_third_time_fails_the_two_slot_meeting() -> None:
    task = next(t for t in _meetings(10) if t.params.get("also") and t.params["via"] == "direct")
    minutes = task.params["minutes"]
    wrong = datetime.fromisoformat(task.params["slot"]) + timedelta(minutes=30)
    steps = [dict(s) for s in task.scenario["oracle"]]
    for step in steps:
        if step["tool"] == "calendar__create_event":
            step["args"] = {
                **step["args"],
                "start": wrong.isoformat(),
                "end": (wrong + timedelta(minutes=minutes)).isoformat(),
            }
    task.scenario["oracles"] = [steps]
    check = _episode_results(task)
    assert [t.outcome for t in check.equivalents if t.kind == "oracles"] == ["failed"]


@pytest.mark.slow
def test_many_meeting_tz_draws_prove_every_slot() -> None:
    tasks = [t for t in _meetings(30) if t.params.get("also")]
    assert len(tasks) >= 8
    for task in tasks[:8]:
        check = _episode_results(task)
        assert check.valid, (task.id, check.problems)
