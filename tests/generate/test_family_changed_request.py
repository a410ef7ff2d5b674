"""changed-request: the end state follows the follow-up, not the first request; how the booking gets there (moved,
or cancelled and booked anew) and how the requester is told is free."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from living_support import draw, fully_proven, proven, step, steps_of, verdict

from orchestrator.generate import phrasing
from orchestrator.generate.families import changed_request


def test_phrasings_reach_both_sides() -> None:
    sides = [
        phrasing.template_split(phrasing.part_id("changed-request", "change", "request", i))
        for i in range(len(changed_request.REQUESTS))
    ]
    assert len(changed_request.REQUESTS) >= 20 and sides.count("test") >= 4


@pytest.mark.slow
@pytest.mark.parametrize("change", ["time", "time+guest"])
async def test_drawn_task_is_proven(backend, tmp_path: Path, change: str) -> None:
    scenario, _ = draw("changed-request", tmp_path, lambda p: p["change"] == change)
    await proven(scenario, backend)
    assert len(scenario.oracle) >= 10
    assert len({s.tool.split("__")[0] for s in scenario.oracle} - {"world"}) >= 3


async def test_acting_on_the_stale_request_fails(backend, tmp_path: Path) -> None:
    """Booked and noted as first asked, the requester told that time; the follow-up never looked at."""
    scenario, params = draw("changed-request", tmp_path)
    start = datetime.fromisoformat(params["start"])
    steps = steps_of(scenario)
    cut = [x.tool for x in steps].index("world__wait")  # booked, noted, then straight to the answer
    steps = steps[:cut] + [
        step(
            "mail__reply",
            message_id="${req.id}",
            body=f"Booked for {start:%A} at {start:%H:%M} and added to the schedule doc.",
        )
    ]
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


async def test_the_dropped_guest_kept_on_the_invite_fails(backend, tmp_path: Path) -> None:
    scenario, params = draw("changed-request", tmp_path, lambda p: p["change"] == "time+guest")
    steps = steps_of(scenario)
    for x in steps:
        if x.tool == "calendar__update_event":
            x.args.pop("remove_attendees")
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why
    assert "no longer invited" in why


async def test_cancel_and_rebook_with_a_new_mail_to_everyone_passes(backend, tmp_path: Path) -> None:
    scenario, params = draw("changed-request", tmp_path, lambda p: p["change"] == "time+guest")
    new = datetime.fromisoformat(params["new_start"])
    end = new + timedelta(minutes=params["minutes"])
    final = [params["guests"][0], params["new_guest"]]
    steps = []
    for x in steps_of(scenario):
        if x.tool == "calendar__update_event":
            steps += [
                step("calendar__cancel_event", event_id="${event.id}"),
                step(
                    "calendar__create_event",
                    title="Rebooked",
                    start=new.isoformat(),
                    end=end.isoformat(),
                    attendees=final,
                ),
            ]
            continue
        if x.tool == "mail__reply":
            x = step(
                "mail__send_message",
                to=[params["requester"]],
                cc=final,
                subject="Final time",
                body=f"Hi all, we're on for {new:%A %d %B} at {new:%H:%M} (moved per the latest request).",
            )
        steps.append(x)
    passed, why = await verdict(scenario, backend, steps)
    assert passed, why


@pytest.mark.slow
@pytest.mark.parametrize("value", ["time", "time+guest"])
async def test_full_proofs(backend, tmp_path: Path, value) -> None:
    scenario, _ = draw("changed-request", tmp_path, lambda p: p["change"] == value, seed=12)
    await fully_proven(scenario, backend)


@pytest.mark.slow
def test_release_candidates_once_dropped_are_proven(tmp_path: Path) -> None:
    """Candidates of release v2's run (seed 1, mixed sizes) that its proofs dropped: in large organizations the requester's
    newest mail was another one, so the reference solution read the wrong thread (221, 229, 956); and a stale-value
    attack wrote the old hour inside the new range ('09:00' of '09:00-09:30'), which still states the new one (285,
    proven in full). Each is proven now, through the generator's own prover."""
    from orchestrator.generate import prover

    worker = prover.Prover(prover.Plan(1, "mix", 2, None, (), "basic", 0.1, str(tmp_path)))
    try:
        outcomes = {index: worker.outcome("changed-request", index) for index in (221, 229, 285, 956)}
    finally:
        worker.close()
    assert {i: o.status for i, o in outcomes.items()} == dict.fromkeys(outcomes, "proven"), {
        i: o.problem for i, o in outcomes.items()
    }
    assert outcomes[285].full
