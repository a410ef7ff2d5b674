"""flaky-triage: bug reports filed by the triage guide while the tracker fails one create; a blind retry after a
lost reply (a duplicate), giving up after an error, or hammering a rate limit fails; looking the ticket up, another
order, a reworded retry and a new mail with the keys pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from composite_support import draw, proven, step, steps_of, verdict

from orchestrator.generate import phrasing
from orchestrator.generate.families import flaky_triage

NAME = "flaky-triage"


def fault(kind: str):
    return lambda p: p["fault"] == kind


def creates(steps) -> list:
    return [x for x in steps if x.tool == "tickets__create_ticket"]


def test_phrasings_reach_both_sides() -> None:
    sides = phrasing.sides(NAME, "file", "request", flaky_triage.REQUESTS)
    assert len(flaky_triage.REQUESTS) >= 20 and sides["test"] >= 4
    assert flaky_triage.FlakyTriage.editions == (2, 3)


@pytest.mark.slow
@pytest.mark.parametrize("kind", flaky_triage.FAULTS)
async def test_drawn_task_is_proven(backend, tmp_path: Path, kind: str) -> None:
    scenario, params, _ = draw(NAME, tmp_path, fault(kind))
    await proven(scenario, backend)
    assert scenario.faults["tickets"].rules[0].tool == "create_ticket"
    assert len({s.tool.split("__")[0] for s in scenario.oracle}) >= 3


@pytest.mark.slow
async def test_a_blind_retry_after_a_lost_reply_files_a_duplicate_and_fails(backend, tmp_path: Path) -> None:
    scenario, params, _ = draw(NAME, tmp_path, fault("lost_reply"))
    steps = steps_of(scenario)
    lost = creates(steps)[params["at"] - 1]
    again = lost.model_copy(deep=True)
    again.save = None
    steps.insert(steps.index(lost) + 1, again)
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


async def test_giving_up_after_the_error_fails(backend, tmp_path: Path) -> None:
    scenario, params, _ = draw(NAME, tmp_path, fault("error"))
    steps = steps_of(scenario)
    failed = creates(steps)[params["at"] - 1]
    failed.expect_error = True
    steps = [x for x in steps if x.tool != "mail__reply"]
    steps.append(step("mail__send_message", to=[params["reporter"]], subject="Bugs", body="Filed what I could."))
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


@pytest.mark.slow
async def test_hammering_the_rate_limit_fails(backend, tmp_path: Path) -> None:
    scenario, params, _ = draw(NAME, tmp_path, fault("rate_limit"))
    steps = steps_of(scenario)
    limited = creates(steps)[params["at"] - 1]
    first = limited.model_copy(deep=True)
    first.expect_error, first.save = True, None
    steps.insert(steps.index(limited), first)  # the same create again at once, inside the window the 429 named
    steps.insert(steps.index(limited), first.model_copy(deep=True))
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


@pytest.mark.slow
async def test_looking_up_the_lost_ticket_another_order_and_a_new_mail_pass(backend, tmp_path: Path) -> None:
    """After the lost reply the agent searches the tracker for the ticket instead of filing again; it files the
    reports last-first and mails the keys as a new message."""
    scenario, params, _ = draw(NAME, tmp_path, fault("lost_reply"))
    steps = [x for x in steps_of(scenario) if x.tool not in ("mail__reply", "tickets__search_tickets")]
    made = creates(steps)
    reads = steps[: steps.index(made[0])]
    lookup = step("tickets__search_tickets", project=params["project"], text=params["components"][0])
    keys = ", ".join(f"${{t{n + 1}.key}}" for n in range(len(made)))
    tell = step("mail__send_message", to=[params["reporter"]], subject="Your bug reports", body=f"Filed as {keys}.")
    passed, why = await verdict(scenario, backend, [*reads, *reversed(made), lookup, tell])
    assert passed, why


@pytest.mark.slow
async def test_a_reworded_retry_after_the_error_passes(backend, tmp_path: Path) -> None:
    scenario, params, _ = draw(NAME, tmp_path, fault("error"))
    steps = steps_of(scenario)
    failed = creates(steps)[params["at"] - 1]
    retry = failed.model_copy(deep=True)
    failed.expect_error, failed.save = True, None
    retry.args["title"] = f"Broken: {params['components'][params['at'] - 1]}"
    steps.insert(steps.index(failed) + 1, retry)
    passed, why = await verdict(scenario, backend, steps)
    assert passed, why
