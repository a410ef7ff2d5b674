"""offboard-handover: a leaver's work handed over, then a design review's open comments ticketed or today's inbox
sorted by the rules doc, in one request; both parts must be done, in any order, and a handover note is fine."""

from __future__ import annotations

from pathlib import Path

import pytest
from composite_support import chain_steps, draw, proven, step, verdict

from orchestrator.generate.families import composite
from orchestrator.generate.family import families

NAME = "offboard-handover"


def test_phrasings_reach_both_sides() -> None:
    fam = families()[NAME]
    assert fam.editions == (2,)
    assert composite.test_side_count(fam) >= 4
    assert len(composite.PARTS["offboard"].requests) * len(composite.PARTS["doc-comments"].requests) >= 20
    assert len(composite.PARTS["offboard"].requests) * len(composite.PARTS["inbox-rules"].requests) >= 20


def second(name: str):
    return lambda p: p["chain"][1]["family"] == name


@pytest.mark.slow
@pytest.mark.parametrize(
    ("split", "then"), [("train", "doc-comments"), ("test", "doc-comments"), ("train", "inbox-rules")]
)
async def test_drawn_task_is_proven_and_long(backend, tmp_path: Path, split: str, then: str) -> None:
    scenario, params, _ = draw(NAME, tmp_path, second(then), split=split)
    await proven(scenario, backend)
    assert len(scenario.oracle) >= 10
    assert len({s.tool.split("__")[0] for s in scenario.oracle}) >= 3
    if then == "doc-comments":
        assert params["chain"][0]["params"]["leaver"] not in params["chain"][1]["params"]["authors"]
    else:
        assert "Mail rules" in scenario.instruction and params["chain"][1]["params"]["in_doc"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("skipped", "then"),
    [(0, "doc-comments"), (1, "doc-comments"), (1, "inbox-rules")],
    ids=["no-handover", "comments-not-ticketed", "inbox-not-sorted"],
)
async def test_one_part_skipped_fails(backend, tmp_path: Path, skipped: int, then: str) -> None:
    scenario, params, world = draw(NAME, tmp_path, second(then))
    parts = chain_steps(scenario, params, world)
    steps = [x for n, part in enumerate(parts) if n != skipped for x in part]
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


@pytest.mark.slow
@pytest.mark.parametrize("then", ["doc-comments", "inbox-rules"])
async def test_the_second_part_first_and_a_handover_note_on_each_ticket_pass(
    backend, tmp_path: Path, then: str
) -> None:
    scenario, params, world = draw(NAME, tmp_path, second(then))
    handover, other = chain_steps(scenario, params, world)
    noted = []
    for x in handover:
        noted.append(x)
        if x.tool == "tickets__assign_ticket":
            noted.append(step("tickets__add_comment", key=x.args["key"], body="Handing this over; it's yours now."))
    passed, why = await verdict(scenario, backend, [*other, *noted])
    assert passed, why


async def test_a_review_ticket_for_the_leaver_fails(backend, tmp_path: Path) -> None:
    """The comments ticketed, but one of them handed to the person who is leaving instead of its author."""
    scenario, params, world = draw(NAME, tmp_path, second("doc-comments"))
    handover, comments = chain_steps(scenario, params, world)
    leaver = params["chain"][0]["params"]["leaver"]
    created = next(x for x in comments if x.tool == "tickets__create_ticket")
    created.args["assignee"] = leaver
    passed, why = await verdict(scenario, backend, [*handover, *comments])
    assert not passed, why
