"""incident-followup: an incident closed out, the meeting its review displaces moved, a customer answered, in one
request; every part must be done, in any order and through any channel."""

from __future__ import annotations

from pathlib import Path

import pytest
from composite_support import chain_steps, draw, proven, step, steps_of, verdict

from orchestrator.generate import phrasing
from orchestrator.generate.families import composite
from orchestrator.generate.family import families

NAME = "incident-followup"


def test_phrasings_reach_both_sides() -> None:
    fam = families()[NAME]
    assert fam.editions == (2, 3)
    assert composite.test_side_count(fam) >= 4
    combos = 1
    for part in fam.chain:
        combos *= len(composite.PARTS[part].requests)
    assert combos >= 20


@pytest.mark.slow
async def test_drawn_task_is_proven_and_long(backend, tmp_path: Path) -> None:
    for split in ("train", "test"):
        scenario, params, _ = draw(NAME, tmp_path, split=split)
        await proven(scenario, backend)
        assert len(scenario.oracle) >= 10
        assert len({s.tool.split("__")[0] for s in scenario.oracle}) >= 3
        assert [p["family"] for p in params["chain"]] == list(families()[NAME].chain)
        assert params["template"].split("+") == params["parts"][:3]
        assert {phrasing.template_split(p) for p in params["parts"]} == {split}
        assert scenario.instruction.count(".") >= 3


@pytest.mark.parametrize(
    "skipped", [1, pytest.param(2, marks=pytest.mark.slow)], ids=["meeting-not-moved", "customer-not-answered"]
)
async def test_one_part_skipped_fails(backend, tmp_path: Path, skipped: int) -> None:
    scenario, params, org = draw(NAME, tmp_path)
    parts = chain_steps(scenario, params, org)
    steps = [x for n, part in enumerate(parts) if n != skipped for x in part]
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


@pytest.mark.slow
async def test_another_order_a_new_mail_and_a_courtesy_note_pass(backend, tmp_path: Path) -> None:
    """The customer first (a new mail, not a reply), then the meeting, then the incident, and a sorry to the guests."""
    scenario, params, org = draw(NAME, tmp_path)
    incident, meeting, customer = chain_steps(scenario, params, org)
    who = params["chain"][2]["params"]["customer"]
    answered = [
        step("mail__send_message", to=[who], subject="Your issue", body=x.args["body"])
        if x.tool == "mail__reply"
        else x
        for x in customer
    ]
    guests = params["chain"][1]["params"]["guests"]
    sorry = step(
        "mail__send_message", to=guests, subject="Sorry for the shuffle", body="Sorry for moving things around!"
    )
    passed, why = await verdict(scenario, backend, [*answered, *meeting, sorry, *incident])
    assert passed, why


@pytest.mark.slow
async def test_a_new_meeting_instead_of_the_moved_one_fails(backend, tmp_path: Path) -> None:
    """The stand-in check, scoped to the meeting's guests in a composite, still catches a copy at the new time."""
    scenario, params, org = draw(NAME, tmp_path)
    incident, meeting, customer = chain_steps(scenario, params, org)
    moved = next(x for x in meeting if x.tool == "calendar__update_event")
    guests = params["chain"][1]["params"]["guests"]
    copy = step(
        "calendar__create_event",
        title="Our meeting (moved)",
        start=moved.args["start"],
        end=moved.args["end"],
        attendees=guests,
    )
    steps = [*incident, *(copy if x is moved else x for x in meeting), *customer]
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


def test_only_recipient_conditions_of_mail_forbids_are_widened() -> None:
    """The other parts' recipients join a forbid's `to`/`cc`/`bcc` lists, nothing else (a label list stays)."""
    rule = {
        "folder": "sent",
        "labels": {"has": {"not_one_of": ["x"]}},
        "any": [{"to": {"has": {"not_one_of": ["a@x.test"]}}}, {"cc": {"has": {"not_equals": "a@x.test"}}}],
    }
    wide = composite.widen(rule, ["b@x.test"])
    assert wide["labels"] == rule["labels"]
    assert wide["any"][0]["to"]["has"]["not_one_of"] == ["a@x.test", "b@x.test"]
    assert wide["any"][1]["cc"]["has"]["not_one_of"] == ["a@x.test", "b@x.test"]


@pytest.mark.slow
async def test_the_new_time_also_mailed_to_a_colleague_of_no_part_fails(backend, tmp_path: Path) -> None:
    """Widening lets each part's people through, nobody else: a copy of the meeting mail to a bystander fails."""
    scenario, params, org = draw(NAME, tmp_path)
    involved = {*params["chain"][1]["params"]["guests"], *params["chain"][0]["params"]["responders"]}
    bystander = next(p.email for p in org.people if p.email not in involved and p.email != org.persona.email)
    steps = steps_of(scenario)
    for x in steps:
        if x.tool == "mail__send_message" and set(x.args["to"]) <= set(params["chain"][1]["params"]["guests"]):
            x.args["cc"] = [bystander]
    passed, why = await verdict(scenario, backend, steps)
    assert not passed and "only to the meeting's guests" in why, why
