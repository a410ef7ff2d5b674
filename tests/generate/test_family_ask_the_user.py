"""ask-the-user: the choice must come from the user, and the final report must match what was done; how the
question is put and how the partner is told is free."""

from __future__ import annotations

from pathlib import Path

import pytest
from living_support import draw, first, fully_proven, proven, step, steps_of, verdict, without

from orchestrator.generate import phrasing
from orchestrator.generate.families import ask_the_user


def test_phrasings_reach_both_sides() -> None:
    sides = [
        phrasing.template_split(phrasing.part_id("ask-the-user", "choose", "request", i))
        for i in range(len(ask_the_user.REQUESTS))
    ]
    assert len(ask_the_user.REQUESTS) >= 20 and sides.count("test") >= 4


@pytest.mark.slow
@pytest.mark.parametrize("missing", [False, True])
async def test_drawn_task_is_proven(backend, tmp_path: Path, missing: bool) -> None:
    scenario, _ = draw("ask-the-user", tmp_path, lambda p: bool(p["missing"]) == missing)
    await proven(scenario, backend)
    assert len(scenario.oracle) >= 10
    assert len({s.tool.split("__")[0] for s in scenario.oracle} - {"world"}) >= 3


async def test_guessing_instead_of_asking_fails(backend, tmp_path: Path) -> None:
    """The right figure even, but never asked for: a lucky guess."""
    scenario, _ = draw("ask-the-user", tmp_path)
    passed, why = await verdict(scenario, backend, without(steps_of(scenario), "world__ask_user"))
    assert not passed, why


async def test_a_report_claiming_the_missing_link_fails(backend, tmp_path: Path) -> None:
    scenario, params = draw("ask-the-user", tmp_path, lambda p: bool(p["missing"]))
    steps = steps_of(scenario)
    amount = params["amounts"][params["chosen"]]
    first(steps, "world__report").args = {
        "status": "done",
        "summary": f"All done: budget EUR {amount:,}, partner told, kickoff booked with the link.",
    }
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


async def test_two_questions_a_new_mail_and_another_report_pass(backend, tmp_path: Path) -> None:
    scenario, params = draw("ask-the-user", tmp_path, lambda p: bool(p["missing"]))
    amount = params["amounts"][params["chosen"]]
    steps = []
    for x in steps_of(scenario):
        if x.tool == "world__ask_user":
            steps.append(step("world__ask_user", question="Is there anything I should know before I start?"))
            x.args["question"] = "Which of the two options do you want for the budget?"
        if x.tool == "mail__reply":
            x = step("mail__send_message", to=[params["partner"]], subject="Budget", body=f"Budget: €{amount:,}.")
        if x.tool == "world__report":
            x.args = {
                "status": "partly_done",
                "summary": f"Plan budget set to €{amount:,}; kickoff booked, partner "
                "informed. The document to link doesn't seem to exist, so I left it out.",
            }
        steps.append(x)
    passed, why = await verdict(scenario, backend, steps)
    assert passed, why


@pytest.mark.slow
@pytest.mark.parametrize("missing", [False, True])
async def test_full_proofs(backend, tmp_path: Path, missing: bool) -> None:
    scenario, _ = draw("ask-the-user", tmp_path, lambda p: bool(p["missing"]) == missing, seed=12)
    await fully_proven(scenario, backend)
