"""Edition 3's held-out programs and its living and long knobs: drawn tasks carry their program and instruction in
their rows, test-ood tasks carry held-out twists no train task has (so no train task shares a test-ood program), the
twists' words fall on their task's side of the split, and twisted tasks are proven by their reference solutions and
judged by the twists' checks."""

from __future__ import annotations

import copy
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from orchestrator.generate import drawing, twists
from orchestrator.generate.family import Task, families
from orchestrator.generate.output import family_shares, share_lines
from orchestrator.generate.phrasing import template_split
from orchestrator.generate.program import program

FAST = ("meeting-tz", "approve-request", "customer-answer", "ambiguous")
"""Families whose small-organization tasks draw quickly."""


def _tasks(names: tuple[str, ...], count: int, seed: int = 7) -> list[Task]:
    out = []
    for name in names:
        family = families()[name]()
        for index in range(count):
            task = drawing.draw(family, seed, "small", index, edition=3)
            if task is not None:
                out.append(task)
    return out


@pytest.fixture(scope="module")
def drawn() -> list[Task]:
    return _tasks(FAST, 12)


def _row(task: Task) -> dict[str, Any]:
    """What a manifest row says of a task, without dumping its scenario (`manifest_row` hashes the whole YAML)."""
    return {"id": task.id, "family": task.family, "split": task.split, **task.extra}


def test_rows_carry_the_instruction_and_the_program(drawn: list[Task]) -> None:
    assert {"instruction", "program", "living", "long", "twists"} <= set(drawn[0].manifest_row())
    for task in drawn:
        row = _row(task)
        assert row["instruction"] == task.scenario["instruction"]
        assert row["program"] == program(task.scenario, row["twists"])
        assert row["program"]["steps"] and len(row["program"]["digest"]) == 16
        assert row["living"] == twists.is_living(row) and row["long"] == twists.is_long(row)


def test_test_ood_tasks_carry_held_out_twists_and_share_no_program_with_train(drawn: list[Task]) -> None:
    by_split: dict[str, set[str]] = defaultdict(set)
    for task in drawn:
        added = set(task.extra["twists"])
        if task.split == "test-ood":
            assert added & set(twists.HELD_OUT), task.id
        else:
            assert not added & set(twists.HELD_OUT), task.id
        by_split[task.split].add(task.extra["program"]["digest"])
    assert by_split["test-ood"] and by_split["train"]
    assert not by_split["test-ood"] & by_split["train"]
    assert len({t.family for t in drawn if t.split == "test-ood"}) >= 2  # spread over families, not whole ones


def test_no_organization_is_in_two_splits_and_test_ood_organizations_word_with_test_parts(drawn: list[Task]) -> None:
    splits: dict[str, set[str]] = defaultdict(set)
    for task in drawn:
        splits[task.extra["organization"]].add(task.split)
        side = "train" if task.split == "train" else "test"
        for part in task.params.get("parts", []):
            assert template_split(part) == side, (task.id, part)
        for part in task.extra["twist_parts"]:
            name = part.split("/")[1]
            assert name in twists.HELD_OUT or template_split(part) == side, (task.id, part)
    assert all(len(found) == 1 for found in splits.values()), splits


def test_every_family_is_living_and_long_a_quarter_of_the_time(drawn: list[Task]) -> None:
    shares = family_shares([_row(t) for t in drawn])
    assert set(shares) == set(FAST)
    for family, share in shares.items():
        assert share["living"] >= 0.25 and share["long"] >= 0.25, (family, share)
    lines = share_lines([_row(t) for t in drawn])
    assert lines[-1].startswith(f"all: {len(drawn)} tasks, living ")


def test_editions_one_and_two_rows_say_nothing_of_twists() -> None:
    family = families()["meeting-tz"]()
    two = next(t for i in range(10) if (t := drawing.draw(family, 7, "small", i, edition=2)) is not None)
    assert not {"program", "instruction", "twists", "living"} & set(two.manifest_row())
    assert two.split in ("train", "test")


def _with(drawn: list[Task], twist: str) -> Task:
    for task in drawn:
        if twist in task.extra["twists"]:
            return task
    raise AssertionError(f"no drawn task carries {twist}")


def _prove(task: Task, tmp_path: Path) -> Any:
    from orchestrator.generate.prover import Plan, Prover

    prover = Prover(Plan(7, "small", 3, None, (), "basic", 0.0, str(tmp_path)))
    try:
        return prover.loop.run_until_complete(prover._prove(task))
    finally:
        prover.close()


def _without(task: Task, drop: Any) -> Task:
    """The task with the reference's steps `drop(step)` picks left out (and no alternative reference)."""
    broken = copy.deepcopy(task)
    broken.scenario["oracle"] = [s for s in broken.scenario["oracle"] if not drop(s)]
    broken.scenario.pop("oracles", None)
    return broken


UNDONE = {
    "colleague": lambda s: s["args"].get("subject") == "Done",  # the note to whoever the colleague names
    "ask-user": lambda s: s["args"].get("subject") == "Done",
    "wrap-up": lambda s: s["tool"] == "docs__share_document" and s["args"]["document_id"] == "${tw_doc.id}",
    "wrap-up-linked": lambda s: s["tool"] == "tickets__link_tickets",
}


@pytest.mark.slow
@pytest.mark.parametrize("twist", ["colleague", "wrap-up", "ask-user", "wrap-up-linked", "outage"])
def test_a_twisted_task_is_proven_and_its_checks_catch_the_twist_left_undone(
    drawn: list[Task], twist: str, tmp_path: Path
) -> None:
    task = _with(drawn, twist)
    proven = _prove(task, tmp_path / "ok")
    assert proven.status == "proven", proven.problem
    if twist == "outage":  # the reference recovers by itself: one that gives up after the 503 must fail
        faulted = {f"{app}__{r['tool']}" for app, plan in task.scenario["faults"].items() for r in plan["rules"]}
        broken = copy.deepcopy(task)
        broken.scenario["oracle"] = [
            {**s, "retry": {"max": 0}} if s["tool"] in faulted else s for s in broken.scenario["oracle"]
        ]
        broken.scenario.pop("oracles", None)
    else:
        broken = _without(task, UNDONE[twist])
    assert broken.scenario["oracle"] != task.scenario["oracle"]
    failed = _prove(broken, tmp_path / "broken")
    assert failed.status == "dropped" and failed.problem.startswith("reference solution"), failed.problem


@pytest.mark.slow
def test_every_family_draws_living_long_and_test_ood_tasks_and_no_train_task_has_a_test_ood_program() -> None:
    """40 drawn tasks of every edition-3 family (small worlds, unproven): living and long each at least a quarter of
    every family, test-ood at least a quarter of all, and no train program among the test-ood ones."""
    names = tuple(name for name, cls in families().items() if 3 in cls.editions)
    drawn = _tasks(names, 40)
    rows = [_row(t) for t in drawn]
    for family, share in family_shares(rows).items():
        assert share["living"] >= 0.25 and share["long"] >= 0.25, (family, share)
    assert sum(r["split"] == "test-ood" for r in rows) >= 0.25 * len(rows)
    train = {r["program"]["digest"] for r in rows if r["split"] == "train"}
    assert not train & {r["program"]["digest"] for r in rows if r["split"] == "test-ood"}


def test_composite_step_texts_fall_on_one_side_and_edition_two_keeps_release_v2s_words() -> None:
    """Edition 3 words a composite part's steps (a trip's to-do, a booking, the agenda, note and resolve sentences)
    with texts of its organization's side only; editions 1 and 2 keep the one text release v2 used on both sides."""
    from orchestrator.generate.families import composite_parts as parts
    from orchestrator.generate.phrasing import part_id

    tables = {"agenda": parts.AGENDA, "note": parts.NOTE, "resolve": parts.RESOLVE}
    tables |= {f"trip-{n}": texts for n, texts in parts.TRAVEL_STEPS.items()}
    tables |= {f"booking-{via}": texts for via, texts in parts.MEETING_STEPS.items()}
    assert (
        parts.TRAVEL_STEPS[3][0] == parts.TRAVEL_TODO[3]
        and parts.MEETING_STEPS["mail"][0] == parts.MEETING_TODO["mail"]
    )

    class Org:
        def __init__(self, edition: int, split: str | None) -> None:
            self.edition, self.split = edition, split

    for key, texts in tables.items():
        sides = {i: template_split(part_id("composite", key, "step", i)) for i in range(len(texts))}
        assert set(sides.values()) == {"train", "test"}, key
        for n in range(12):
            params = {"n": n}
            assert parts.step(Org(2, "test"), params, key, texts) == texts[0]
            for side in ("train", "test"):
                picked = texts.index(parts.step(Org(3, side), params, key, texts))
                assert sides[picked] == side, (key, side, picked)


def _edited(task: Task, edit: Any) -> Task:
    """The task with every reference step passed through `edit(step)` (and no alternative reference)."""
    changed = copy.deepcopy(task)
    changed.scenario["oracle"] = [edit(copy.deepcopy(s)) for s in changed.scenario["oracle"]]
    changed.scenario.pop("oracles", None)
    return changed


def _set_args(tool: str, when: Any, **args: Any) -> Any:
    def edit(step: dict[str, Any]) -> dict[str, Any]:
        if step["tool"] == tool and when(step["args"]):
            step["args"] = {**step["args"], **args}
        return step

    return edit


@pytest.mark.slow
def test_a_linked_wrap_up_is_judged_by_the_key_stated_the_second_ticket_and_the_link_either_way(
    drawn: list[Task], tmp_path: Path
) -> None:
    task = _with(drawn, "wrap-up-linked")
    review = next(s for s in task.scenario["oracle"] if s.get("save") == "tw_review")["args"]["title"]
    told = next(s for s in task.scenario["oracle"] if s["tool"] == "mail__send_message" and "tw_ticket" in str(s))
    reversed_link = _set_args(
        "tickets__link_tickets", lambda a: True, source="${tw_ticket.key}", target="${tw_review.key}"
    )
    assert _prove(_edited(task, reversed_link), tmp_path / "reversed").status == "proven"
    for name, edit in {
        "hedged key": _set_args(
            "mail__send_message",
            lambda a: a == told["args"],
            body=told["args"]["body"].replace("${tw_ticket.key}", "probably ${tw_ticket.key}"),
        ),
        "second ticket titled otherwise": _set_args(
            "tickets__create_ticket", lambda a: a.get("title") == review, title="Something else entirely"
        ),
    }.items():
        failed = _prove(_edited(task, edit), tmp_path / name.replace(" ", "-"))
        assert failed.status == "dropped" and failed.problem.startswith("reference solution"), (name, failed.problem)


@pytest.mark.slow
def test_the_comment_listing_the_tickets_and_each_reply_must_give_the_keys(tmp_path: Path) -> None:
    family = families()["doc-comments"]()
    task = next(
        t
        for i in range(60)
        if (t := drawing.draw(family, 7, "small", i, edition=3)) is not None
        and any(s["tool"] == "docs__add_comment" for s in t.scenario["oracle"])
        and any(s["tool"] == "docs__reply_to_comment" for s in t.scenario["oracle"])
    )
    assert _prove(task, tmp_path / "ok").status == "proven"
    for tool in ("docs__add_comment", "docs__reply_to_comment"):
        vague = _set_args(tool, lambda a: True, body="Thanks, tickets are filed.")
        failed = _prove(_edited(task, vague), tmp_path / tool)
        assert failed.status == "dropped" and failed.problem.startswith("reference solution"), (tool, failed.problem)


@pytest.mark.slow
def test_with_two_free_slots_the_requester_must_be_told_the_one_booked(tmp_path: Path) -> None:
    """Either free slot may be booked; telling the requester the other one tells a wrong time."""
    from datetime import datetime

    family = families()["meeting-tz"]()
    task = next(
        t
        for i in range(80)
        if (t := drawing.draw(family, 7, "small", i, edition=3)) is not None
        and t.params.get("also")
        and t.params.get("via") == "mail"
    )
    assert _prove(task, tmp_path / "ok").status == "proven"
    booked, other = datetime.fromisoformat(task.params["slot"]), datetime.fromisoformat(task.params["also"][0])
    reply = next(s for s in task.scenario["oracle"] if s["tool"] in ("mail__reply", "mail__send_message"))
    body = reply["args"]["body"]
    assert f"{booked:%H:%M}" in body
    wrong = _set_args(
        reply["tool"], lambda a: a == reply["args"], body=body.replace(f"{booked:%H:%M}", f"{other:%H:%M}")
    )
    failed = _prove(_edited(task, wrong), tmp_path / "wrong")
    assert failed.status == "dropped" and failed.problem.startswith("reference solution"), failed.problem
