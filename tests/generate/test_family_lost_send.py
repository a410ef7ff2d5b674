"""lost-send: a fact mailed once while the mail server fails the first send; sending it again after a lost reply,
never sending it after an error, or the stale value fails; a look in Sent and a short check-in, or a new mail after
an error or a timeout, passes."""

from __future__ import annotations

from pathlib import Path

import pytest
from composite_support import draw, proven, step, steps_of, verdict

from orchestrator.generate import phrasing
from orchestrator.generate.families import lost_send

NAME = "lost-send"


def where(fault: str, kind: str | None = None):
    return lambda p: p["fault"] == fault and (kind is None or p["kind"] == kind)


def test_phrasings_reach_both_sides() -> None:
    sides = phrasing.sides(NAME, "send", "request", lost_send.REQUESTS)
    assert len(lost_send.REQUESTS) >= 20 and sides["test"] >= 4
    assert lost_send.LostSend.editions == (2, 3)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fault", "kind"), [("lost_reply", "venue"), ("error", "booking"), ("timeout", "bridge"), ("lost_reply", "bridge")]
)
async def test_drawn_task_is_proven(backend, tmp_path: Path, fault: str, kind: str) -> None:
    scenario, _, _ = draw(NAME, tmp_path, where(fault, kind))
    await proven(scenario, backend)
    assert {r.tool for r in scenario.faults["mail"].rules} == set(lost_send.SEND_TOOLS)


@pytest.mark.slow
async def test_sending_again_after_a_lost_reply_fails(backend, tmp_path: Path) -> None:
    scenario, params, _ = draw(NAME, tmp_path, where("lost_reply"))
    steps = steps_of(scenario)
    reply = next(x for x in steps if x.tool == "mail__reply")
    again = step("mail__send_message", to=[params["requester"]], subject="Resending", body=reply.args["body"])
    steps.insert(steps.index(reply) + 1, again)
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


async def test_never_sending_after_the_error_fails(backend, tmp_path: Path) -> None:
    scenario, _, _ = draw(NAME, tmp_path, where("error"))
    steps = steps_of(scenario)
    next(x for x in steps if x.tool == "mail__reply").expect_error = True
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


@pytest.mark.slow
async def test_the_stale_value_fails(backend, tmp_path: Path) -> None:
    scenario, params, _ = draw(NAME, tmp_path, where("error", "booking"))
    current, stale, *_ = lost_send.facts(params)
    steps = steps_of(scenario)
    reply = next(x for x in steps if x.tool == "mail__reply")
    reply.args["body"] = reply.args["body"].replace(current, stale)
    passed, why = await verdict(scenario, backend, steps)
    assert not passed, why


@pytest.mark.slow
async def test_a_look_in_sent_and_a_short_check_in_after_a_lost_reply_pass(backend, tmp_path: Path) -> None:
    scenario, params, _ = draw(NAME, tmp_path, where("lost_reply", "venue"))
    note = step(
        "mail__send_message",
        to=[params["requester"]],
        subject="Did it arrive?",
        body="Our mail server hiccuped: did my previous mail reach you? Shout if not.",
    )
    passed, why = await verdict(scenario, backend, [*steps_of(scenario), note])
    assert passed, why


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["error", "timeout"])
async def test_a_new_mail_after_the_failed_reply_passes(backend, tmp_path: Path, fault: str) -> None:
    """The reply fails; the agent looks in Sent and sends the fact as a new mail instead (another channel)."""
    scenario, params, _ = draw(NAME, tmp_path, where(fault))
    steps = steps_of(scenario)
    reply = next(x for x in steps if x.tool == "mail__reply")
    reply.expect_error = True
    look = step("mail__search_messages", query=f"in:sent to:{params['requester']}")
    new = step("mail__send_message", to=[params["requester"]], subject="What you asked for", body=reply.args["body"])
    steps[steps.index(reply) + 1 : steps.index(reply) + 1] = [look, new]
    passed, why = await verdict(scenario, backend, steps)
    assert passed, why


@pytest.mark.slow
async def test_full_proofs_played_side_by_side_find_what_one_at_a_time_finds(
    backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A task whose first send times out: its proof episodes wait on the gateway's deadline, so they are played four
    at a time; every mutation, attack and equivalent comes to the same outcome, in the same order, as one by one."""
    from orchestrator.prove import validate as proving

    scenario, _, _ = draw(NAME, tmp_path, where("timeout"))
    assert proving.side_by_side(scenario) == proving.SIDE_BY_SIDE > 1

    def outcomes(check: proving.Validation) -> list[tuple[str, object]]:
        return [(m.description, m.caught) for m in check.mutations] + [
            (t.description, t.outcome) for t in check.attacks + check.equivalents
        ]

    together = await proving.validate(scenario, backend, mutate=True, attack=True, equivalents=True)
    monkeypatch.setattr(proving, "SIDE_BY_SIDE", 1)
    alone = await proving.validate(scenario, backend, mutate=True, attack=True, equivalents=True)
    assert together.valid and alone.valid, together.problems + alone.problems
    assert outcomes(together) == outcomes(alone) and len(outcomes(alone)) >= 10
    assert together.episodes == alone.episodes
