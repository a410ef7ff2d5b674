"""offboard-handover: a leaver's work handed over and a design review's open comments ticketed, in one request; both
parts must be done, in any order, and a handover note on the way is fine."""

from __future__ import annotations

from pathlib import Path

import pytest
from composite_support import chain_steps, draw, proven, step, verdict

from orchestrator.generate import edition2
from orchestrator.generate.families import composite
from orchestrator.generate.family import families

NAME = "offboard-handover"


def test_phrasings_reach_both_sides() -> None:
    fam = families()[NAME]
    assert fam.editions == (2, 3)
    assert composite.test_side_count(fam) >= 4
    assert len(composite.PARTS["offboard"].requests) * len(composite.PARTS["doc-comments"].requests) >= 20


def test_no_composite_carries_a_family_held_out_of_family() -> None:
    """inbox-rules and lost-send are test-ood whole: a composite on a train organization must not ask for them."""
    for fam in families().values():
        if issubclass(fam, composite.Composite):
            carried = {name for place in fam.chain for name in composite.options(place)}
            assert not carried & set(edition2.OOD_FAMILIES), fam.name


@pytest.mark.slow
@pytest.mark.parametrize("split", ["train", "test"])
async def test_drawn_task_is_proven_and_long(backend, tmp_path: Path, split: str) -> None:
    scenario, params, _ = draw(NAME, tmp_path, split=split)
    await proven(scenario, backend)
    assert len(scenario.oracle) >= 10
    assert len({s.tool.split("__")[0] for s in scenario.oracle}) >= 3
    assert params["chain"][0]["params"]["leaver"] not in params["chain"][1]["params"]["authors"]


@pytest.mark.slow
@pytest.mark.parametrize("skipped", [0, 1], ids=["no-handover", "comments-not-ticketed"])
async def test_one_part_skipped_fails(backend, tmp_path: Path, skipped: int) -> None:
    scenario, params, org = draw(NAME, tmp_path)
    parts = chain_steps(scenario, params, org)
    steps = [x for n, part in enumerate(parts) if n != skipped for x in part]
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


@pytest.mark.slow
async def test_comments_first_and_a_handover_note_on_each_ticket_pass(backend, tmp_path: Path) -> None:
    scenario, params, org = draw(NAME, tmp_path)
    handover, comments = chain_steps(scenario, params, org)
    noted = []
    for x in handover:
        noted.append(x)
        if x.tool == "tickets__assign_ticket":
            noted.append(step("tickets__add_comment", key=x.args["key"], body="Handing this over; it's yours now."))
    passed, why = await verdict(scenario, backend, [*comments, *noted])
    assert passed, why


async def test_a_review_ticket_for_the_leaver_fails(backend, tmp_path: Path) -> None:
    """The comments ticketed, but one of them handed to the person who is leaving instead of its author."""
    scenario, params, org = draw(NAME, tmp_path)
    handover, comments = chain_steps(scenario, params, org)
    leaver = params["chain"][0]["params"]["leaver"]
    created = next(x for x in comments if x.tool == "tickets__create_ticket")
    created.args["assignee"] = leaver
    passed, why = await verdict(scenario, backend, [*handover, *comments])
    assert not passed, why
