"""ask-colleague: the expert's answer must be waited for and read before acting; how the requester is told, and
where the room is written, is free."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from living_support import draw, first, fully_proven, proven, step, steps_of, verdict, without

from orchestrator.generate import phrasing
from orchestrator.generate.families import ask_colleague


def test_phrasings_reach_both_sides() -> None:
    sides = [
        phrasing.template_split(phrasing.part_id("ask-colleague", "ask", "request", i))
        for i in range(len(ask_colleague.REQUESTS))
    ]
    assert len(ask_colleague.REQUESTS) >= 20 and sides.count("test") >= 4


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["room", "budget", "day"])
async def test_drawn_task_is_proven(backend, tmp_path: Path, kind: str) -> None:
    scenario, _ = draw("ask-colleague", tmp_path, lambda p: p["kind"] == kind)
    await proven(scenario, backend)
    assert len(scenario.oracle) >= 10
    assert len({s.tool.split("__")[0] for s in scenario.oracle} - {"world"}) >= 3


async def test_booking_the_usual_room_without_waiting_fails(backend, tmp_path: Path) -> None:
    scenario, params = draw("ask-colleague", tmp_path, lambda p: p["kind"] == "room")
    steps = without(steps_of(scenario), "world__wait", "mail__get_thread")
    first(steps, "calendar__create_event").args["location"] = f"{params['stale']} room"
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


async def test_guessing_the_figure_before_the_answer_fails(backend, tmp_path: Path) -> None:
    """The right figure, written before the expert's answer was read (it came from nowhere): the process check."""
    scenario, _ = draw("ask-colleague", tmp_path, lambda p: p["kind"] == "budget")
    steps = without(steps_of(scenario), "world__wait", "mail__get_thread")
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why
    assert "read" in why


async def test_room_in_the_description_and_a_new_mail_to_both_passes(backend, tmp_path: Path) -> None:
    scenario, params = draw("ask-colleague", tmp_path, lambda p: p["kind"] == "room")
    steps = []
    for x in steps_of(scenario):
        if x.tool == "world__wait":
            x.args = {"minutes": 60}
        if x.tool == "calendar__create_event":
            x.args["location"] = "3rd floor"
            x.args["description"] = f"We have the {params['room']} room."
        if x.tool == "mail__reply":
            x = step(
                "mail__send_message",
                to=[params["requester"], params["guest"]],
                subject="Workshop booked",
                body=x.args["body"],
            )
        steps.append(x)
    steps.append(step("mail__send_message", to=[params["expert"]], subject="Thanks", body="Thanks for the room!"))
    passed, why = await verdict(scenario, backend, steps)
    assert passed, why


@pytest.mark.slow
@pytest.mark.parametrize("value", ["room", "budget", "day"])
async def test_full_proofs(backend, tmp_path: Path, value) -> None:
    scenario, _ = draw("ask-colleague", tmp_path, lambda p: p["kind"] == value, seed=12)
    await fully_proven(scenario, backend)


async def test_booking_on_the_day_the_requester_guessed_fails(backend, tmp_path: Path) -> None:
    """The answer waited for and read, but the review booked on the weekday the request guessed, not the expert's."""
    scenario, params = draw("ask-colleague", tmp_path, lambda p: p["kind"] == "day")
    start = datetime.fromisoformat(params["start"])
    moved = start + timedelta(days=params["stale_day"] - params["day"])
    steps = steps_of(scenario)
    create = first(steps, "calendar__create_event")
    create.args.update(start=moved.isoformat(), end=(moved + timedelta(minutes=45)).isoformat())
    steps[-1].args["body"] = f"Booked for {moved:%A} at {moved:%H:%M}."
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why
