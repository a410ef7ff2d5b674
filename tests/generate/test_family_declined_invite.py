"""declined-invite: the meeting leaves the declined slot for the one time everyone is free, after the decline was
read; how each guest hears of it (a reply to the decline, one mail each, the time in UTC) is free."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from living_support import draw, fully_proven, proven, step, steps_of, verdict, without

from orchestrator.generate import phrasing
from orchestrator.generate.families import declined_invite


def test_phrasings_reach_both_sides() -> None:
    sides = [
        phrasing.template_split(phrasing.part_id("declined-invite", "move", "request", i))
        for i in range(len(declined_invite.REQUESTS))
    ]
    assert len(declined_invite.REQUESTS) >= 20 and sides.count("test") >= 4


@pytest.mark.slow
async def test_drawn_tasks_are_proven(backend, tmp_path: Path) -> None:
    for count in (2, 3):
        scenario, _ = draw("declined-invite", tmp_path, lambda p, c=count: p["guests_count"] == c)
        await proven(scenario, backend)
        assert len(scenario.oracle) >= 10
        assert len({s.tool.split("__")[0] for s in scenario.oracle} - {"world"}) >= 3


async def test_keeping_the_declined_slot_fails(backend, tmp_path: Path) -> None:
    scenario, params = draw("declined-invite", tmp_path)
    old = datetime.fromisoformat(params["old"])
    steps = [x for x in steps_of(scenario) if x.tool not in ("calendar__update_event", "docs__edit_document")]
    steps[-1].args["body"] = f"Hi all, we stay at {old:%H:%M} as planned."
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


async def test_moving_before_the_decline_came_in_fails(backend, tmp_path: Path) -> None:
    """The right slot, but picked before anyone declined (nothing waited for, the decline never read)."""
    scenario, _ = draw("declined-invite", tmp_path)
    steps = without(steps_of(scenario), "world__wait", "mail__search_messages", "mail__get_message")
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why
    assert "decline was read" in why


async def test_a_reply_to_the_decline_and_one_mail_each_in_utc_passes(backend, tmp_path: Path) -> None:
    scenario, params = draw("declined-invite", tmp_path, lambda p: p["guests_count"] == 3)
    new = datetime.fromisoformat(params["new"]).astimezone(UTC)
    text = f"The meeting now starts at {new:%H:%M} UTC on {new:%A %d %B}."
    steps = steps_of(scenario)[:-1]
    steps.append(step("mail__reply", message_id="${news.messages.0.id}", body=f"No problem. {text}"))
    steps += [
        step("mail__send_message", to=[e], subject="New time", body=f"Hi, {text}")
        for e in params["guests"]
        if e != params["decliner"]
    ]
    passed, why = await verdict(scenario, backend, steps)
    assert passed, why


@pytest.mark.slow
@pytest.mark.parametrize("value", [2, 3])
async def test_full_proofs(backend, tmp_path: Path, value) -> None:
    scenario, _ = draw("declined-invite", tmp_path, lambda p: p["guests_count"] == value, seed=12)
    await fully_proven(scenario, backend)
