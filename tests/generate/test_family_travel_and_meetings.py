"""travel-and-meetings: a trip to an offsite planned and a clashing meeting moved, in one request; both parts must
be done, in any order, and one mail per guest is as good as one for all."""

from __future__ import annotations

from pathlib import Path

import pytest
from composite_support import chain_steps, draw, proven, step, verdict

from orchestrator.generate.families import composite
from orchestrator.generate.family import families

NAME = "travel-and-meetings"


def test_phrasings_reach_both_sides() -> None:
    fam = families()[NAME]
    assert fam.editions == (2, 3)
    assert composite.test_side_count(fam) >= 4
    assert len(composite.PARTS["travel"].requests) * len(composite.PARTS["reschedule"].requests) >= 20
    assert len(composite.PARTS["travel"].requests) * len(composite.PARTS["meeting-tz"].requests) >= 20


def second(name: str):
    return lambda p: p["chain"][1]["family"] == name


@pytest.mark.slow
@pytest.mark.parametrize(
    ("split", "meeting"), [("train", "reschedule"), ("test", "meeting-tz"), ("train", "meeting-tz")]
)
async def test_drawn_task_is_proven_and_long(backend, tmp_path: Path, split: str, meeting: str) -> None:
    scenario, params, _ = draw(NAME, tmp_path, second(meeting), split=split)
    await proven(scenario, backend)
    assert len(scenario.oracle) >= 10
    assert len({s.tool.split("__")[0] for s in scenario.oracle}) >= 3
    trip, booked = (p["params"] for p in params["chain"])
    assert not set(booked["guests"]) & {trip["organizer"], *trip["team"]}


@pytest.mark.slow
async def test_the_new_meeting_booked_without_its_guests_fails(backend, tmp_path: Path) -> None:
    """With the trip's two new events beside it, the booking checks still look at the meeting itself."""
    scenario, params, org = draw(NAME, tmp_path, second("meeting-tz"))
    trip, meeting = chain_steps(scenario, params, org)
    booked = next(x for x in meeting if x.tool == "calendar__create_event")
    booked.args["attendees"] = booked.args["attendees"][:1]
    passed, why = await verdict(scenario, backend, [*trip, *meeting])
    assert not passed, why


@pytest.mark.parametrize("skipped", [0, pytest.param(1, marks=pytest.mark.slow)], ids=["no-trip", "meeting-not-moved"])
async def test_one_part_skipped_fails(backend, tmp_path: Path, skipped: int) -> None:
    scenario, params, org = draw(NAME, tmp_path)
    parts = chain_steps(scenario, params, org)
    steps = [x for n, part in enumerate(parts) if n != skipped for x in part]
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


@pytest.mark.slow
async def test_the_meeting_first_and_one_mail_per_guest_pass(backend, tmp_path: Path) -> None:
    scenario, params, org = draw(NAME, tmp_path, second("reschedule"))
    trip, meeting = chain_steps(scenario, params, org)
    each = []
    for x in meeting:
        if x.tool == "mail__send_message" and len(x.args["to"]) > 1:
            each += [
                step("mail__send_message", to=[to], subject=x.args["subject"], body=x.args["body"])
                for to in x.args["to"]
            ]
        else:
            each.append(x)
    passed, why = await verdict(scenario, backend, [*each, *trip])
    assert passed, why


@pytest.mark.slow
async def test_the_meeting_moved_onto_a_travel_day_fails(backend, tmp_path: Path) -> None:
    """The meeting moved to the way out's afternoon (no free slot of the request) instead of the free slot."""
    scenario, params, org = draw(NAME, tmp_path, second("reschedule"))
    trip, meeting = chain_steps(scenario, params, org)
    out = next(x for x in trip if x.tool == "calendar__create_event")
    moved = next(x for x in meeting if x.tool == "calendar__update_event")
    moved.args.update(start=out.args["start"], end=out.args["end"])
    passed, why = await verdict(scenario, backend, [*trip, *meeting])
    assert not passed, why
