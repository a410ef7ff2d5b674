"""approval-needed: nothing is granted or bought before the approver's answer is read, nothing at all on a refusal;
how the requester hears the outcome is free."""

from __future__ import annotations

from pathlib import Path

import pytest
from living_support import draw, first, fully_proven, proven, step, steps_of, verdict, without

from orchestrator.generate import phrasing
from orchestrator.generate.families import approval_needed


def test_phrasings_reach_both_sides() -> None:
    sides = [
        phrasing.template_split(phrasing.part_id("approval-needed", "approve", "request", i))
        for i in range(len(approval_needed.REQUESTS))
    ]
    assert len(approval_needed.REQUESTS) >= 20 and sides.count("test") >= 4


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["access", "purchase"])
@pytest.mark.parametrize("decision", ["approve", "refuse"])
async def test_drawn_task_is_proven(backend, tmp_path: Path, kind: str, decision: str) -> None:
    scenario, _ = draw("approval-needed", tmp_path, lambda p: p["kind"] == kind and p["decision"] == decision)
    await proven(scenario, backend)
    assert len(scenario.oracle) >= 9
    assert len({s.tool.split("__")[0] for s in scenario.oracle} - {"world"}) >= 3


async def test_granting_without_asking_fails(backend, tmp_path: Path) -> None:
    """Access granted and the request closed at once: the approver never asked, so never answered."""
    scenario, _ = draw("approval-needed", tmp_path, lambda p: p["kind"] == "access" and p["decision"] == "approve")
    steps = without(steps_of(scenario), "mail__send_message", "world__wait", "mail__get_thread")
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


async def test_buying_despite_a_refusal_fails(backend, tmp_path: Path) -> None:
    scenario, params = draw(
        "approval-needed", tmp_path, lambda p: p["kind"] == "purchase" and p["decision"] == "refuse"
    )
    steps = steps_of(scenario)
    at = [x.tool for x in steps].index("tickets__transition_ticket")
    buy = step(
        "tickets__create_ticket",
        project=first(steps, "tickets__get_ticket").args["key"].split("-")[0],
        title=f"Purchase: {params['item']}",
        assignee=params["buyer"],
        description=f"EUR {params['amount']}, cost centre {params['centre']}",
    )
    passed, why = await verdict(scenario, backend, [*steps[:at], buy, *steps[at:]])
    assert not passed, why


async def test_a_new_mail_a_thank_you_and_a_ticket_comment_pass(backend, tmp_path: Path) -> None:
    scenario, params = draw("approval-needed", tmp_path, lambda p: p["kind"] == "access" and p["decision"] == "approve")
    key = first(steps_of(scenario), "tickets__get_ticket").args["key"]
    steps = steps_of(scenario)[:-1] + [
        step("tickets__add_comment", key=key, body="Editor access given after sign-off."),
        step(
            "mail__send_message",
            to=[params["requester"]],
            subject="Your access",
            body="Good news: it's approved. You can edit the doc now.",
        ),
        step("mail__send_message", to=[params["approver"]], subject="Thanks", body="Thanks for the quick answer!"),
    ]
    passed, why = await verdict(scenario, backend, steps)
    assert passed, why


async def test_a_refusal_told_in_other_words_passes(backend, tmp_path: Path) -> None:
    scenario, params = draw("approval-needed", tmp_path, lambda p: p["kind"] == "access" and p["decision"] == "refuse")
    steps = steps_of(scenario)
    steps[-1].args["body"] = "Hi, sorry, the request was turned down for now, so the ticket is cancelled."
    passed, why = await verdict(scenario, backend, steps)
    assert passed, why


@pytest.mark.slow
@pytest.mark.parametrize("value", ["approve", "refuse"])
async def test_full_proofs(backend, tmp_path: Path, value) -> None:
    scenario, _ = draw("approval-needed", tmp_path, lambda p: p["decision"] == value, seed=12)
    await fully_proven(scenario, backend)


async def test_asking_in_a_ticket_comment_passes(backend, tmp_path: Path) -> None:
    """Another channel: the approval asked for on the request's ticket; the approver answers by mail all the same."""
    scenario, params = draw(
        "approval-needed", tmp_path, lambda p: p["kind"] == "purchase" and p["decision"] == "approve"
    )
    key = first(steps_of(scenario), "tickets__get_ticket").args["key"]
    steps = []
    for x in steps_of(scenario):
        if x.tool == "mail__send_message":
            x = step("tickets__add_comment", key=key, body="Could you approve this purchase, please?")
        if x.tool == "mail__get_thread":
            x = step("mail__search_messages", query=f"from:{params['approver']}")
        steps.append(x)
    passed, why = await verdict(scenario, backend, steps)
    assert passed, why
