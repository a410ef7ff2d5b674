"""The language and policy check of edition-3 tasks (`orchestrator.generate.coherence`), the prover dropping what it
finds, and the generators it made coherent (travel's policy, composite forbids, topic casing, 'yesterday')."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from orchestrator.generate import coherence
from orchestrator.generate.drawing import draw
from orchestrator.generate.family import families
from orchestrator.generate.prover import Plan, Prover

HELDOUT6_TRAVEL = (
    Path(__file__).resolve().parents[1]
    / "adversarial/heldout6/tasks/travel-and-meetings/travel-and-meetings-v3-71946-00000.yaml"
)


def _scenario(instruction: str = "Please do it.", **apps: Any) -> dict[str, Any]:
    return {"instruction": instruction, "clock": {"start": "2026-06-01T15:30:00+02:00"}, "apps": apps}


def test_repeated_opening_phrase_of_adjacent_sentences_is_found() -> None:
    seam = "The quarterly business review has landed on my meeting. The quarterly business review can't move."
    assert coherence.repeated_phrases(seam) == ["quarterly business review"]
    assert coherence.repeated_phrases("The quarterly business review has landed. It can't move.") == []
    # list items and separate paragraphs are not adjacent sentences of prose
    assert coherence.repeated_phrases("- The ad server is part of it.\n- The ad server is part of it.") == []


def test_capitalized_topic_inside_a_sentence_is_found() -> None:
    found = coherence.problems(_scenario("Ali wrote again about Adult job training course. Please reply."))
    assert found == ["casing in the instruction: 'Adult job training course' inside a sentence"]
    assert coherence.problems(_scenario("Ali wrote again about adult job training course. Please reply.")) == []
    assert coherence.problems(_scenario("Adult job training course: Ali wrote again.")) == []


def test_this_morning_asked_for_in_the_afternoon_is_found() -> None:
    found = coherence.problems(_scenario("Could you handle these for me this morning?"))
    assert found == ["relative time in the instruction: 'this morning' at 15:30"]
    assert coherence.problems(_scenario("Nancy sent me two bug reports this morning. File them.")) == []
    morning = _scenario("Could you handle these for me this morning?")
    morning["clock"]["start"] = "2026-06-01T09:30:00+02:00"
    assert coherence.problems(morning) == []


def test_yesterday_about_rows_of_three_days_before_is_found() -> None:
    thread = {"id": "m1", "subject": "ledger-api outage", "body": "It is down.", "sent_at": "2026-05-29T10:00:00+02:00"}
    monday = _scenario("Close out yesterday's ledger-api outage, please.", mail={"messages": [thread]})
    assert coherence.problems(monday) == [
        "relative time in the instruction: 'yesterday' on Monday about rows of Friday 29 May"
    ]
    thread["sent_at"] = "2026-05-31T10:00:00+02:00"
    assert coherence.problems(monday) == []


def test_a_policy_doc_cited_but_not_seeded_is_found() -> None:
    mail = {"id": "m1", "subject": "Trip", "body": "Approval works as the travel policy doc says."}
    assert coherence.problems(_scenario(mail={"messages": [mail]})) == [
        "missing row in mail messages m1 body: no document 'travel policy'"
    ]
    seeded = _scenario(mail={"messages": [mail]}, docs={"documents": [{"id": "d", "title": "Travel policy"}]})
    assert coherence.problems(seeded) == []


def test_a_share_outside_the_policy_s_domains_is_a_contradiction() -> None:
    policy = {"id": "p", "title": "Travel policy", "content": "Never share them outside acme.test.\n"}
    scenario = _scenario(docs={"documents": [policy]})
    check = {"name": "Ann can edit it", "app": "docs", "table": "documents", "added": True}
    check["where"] = {"shared_with": {"has": {"email": "ann@acme-group.test", "role": "editor"}}}
    scenario["stages"] = [{"name": "itinerary", "checks": [check]}]
    assert coherence.share_contradictions(scenario) == [
        "'Ann can edit it' shares with ann@acme-group.test, outside ['acme.test']"
    ]
    policy["content"] = "Never share them outside acme.test and acme-group.test.\n"
    assert coherence.share_contradictions(scenario) == []


def _only_to(name: str, *addresses: str) -> dict[str, Any]:
    branches = [{f: {"has": {"not_one_of": list(addresses)}}} for f in ("to", "cc", "bcc")]
    return {"name": name, "app": "mail", "table": "messages", "change": "added", "where": {"any": branches}}


def test_one_forbid_letting_mail_through_that_another_forbids_is_a_contradiction() -> None:
    scenario = _scenario()
    scenario["forbid"] = [
        _only_to("guests only", "g@x.test"),
        _only_to("customer and engineer", "c@y.test", "e@x.test"),
    ]
    found = coherence.forbid_contradictions(scenario)
    assert "'customer and engineer' lets mail through to e@x.test, forbidden by 'guests only'" in found
    widened = (
        "g@x.test",
        "c@y.test",
        "e@x.test",
    )  # what a composite merge makes of both: each lets the other's through
    scenario["forbid"] = [_only_to("guests only", *widened), _only_to("customer and engineer", *widened)]
    assert coherence.forbid_contradictions(scenario) == []
    told = {"name": "the guest is told", "app": "mail", "table": "messages", "where": {"to": {"contains": "z@x.test"}}}
    scenario["stages"] = [{"name": "told", "checks": [told]}]
    assert coherence.forbid_contradictions(scenario) == [
        "check 'the guest is told' needs mail to z@x.test, forbidden by 'guests only'",
        "check 'the guest is told' needs mail to z@x.test, forbidden by 'customer and engineer'",
    ]


def _draws(name: str, count: int, edition: int = 3, knobs: dict[str, Any] | None = None) -> list[Any]:
    family = families()[name]()
    found = [draw(family, 7, "small", i, knobs or {}, edition=edition) for i in range(count)]
    return [t for t in found if t is not None]


def test_travel_cites_its_policy_only_when_seeded_and_the_policy_admits_every_domain() -> None:
    old = [p for t in _draws("travel", 12, edition=2, knobs={"steps": 3}) for p in coherence.problems(t.scenario)]
    assert any("no document 'travel policy'" in p for p in old)  # edition 2 cites a doc it does not seed
    for steps in (3, 4):
        for task in _draws("travel", 6, knobs={"steps": steps}):
            assert coherence.problems(task.scenario) == [], task.id


def test_incident_followup_forbids_no_mail_another_part_lets_through() -> None:
    old = [p for t in _draws("incident-followup", 4, edition=2) for p in coherence.forbid_contradictions(t.scenario)]
    assert any("lets mail through" in p for p in old)
    for task in _draws("incident-followup", 4):
        assert coherence.problems(task.scenario) == [], task.id


@pytest.mark.parametrize("name", ["customer-answer", "ambiguous", "incident", "travel-and-meetings"])
def test_a_few_edition_3_draws_read_right(name: str) -> None:
    for task in _draws(name, 4):
        assert coherence.problems(task.scenario) == [], task.id


def test_the_prover_drops_an_edition_3_task_the_check_finds_wrong(tmp_path: Any) -> None:
    def seam(task: Any) -> Any:
        task.scenario = copy.deepcopy(task.scenario)
        task.scenario["instruction"] += " Ali wrote again about Adult job training course."
        return task

    plan = Plan(7, "small", 3, None, (), "basic", 0.0, str(tmp_path), transform=seam)
    prover = Prover(plan)
    try:
        done = prover.outcome("customer-answer", 0)
    finally:
        prover.close()
    assert done.status == "dropped"
    assert done.problem == "coherence: casing in the instruction: 'Adult job training course' inside a sentence"
    assert done.episodes == 0


@pytest.mark.slow
def test_many_edition_3_draws_per_family_hold_no_contradiction_and_few_seams() -> None:
    for name in families():
        tasks = _draws(name, 25)
        policy = [p for t in tasks for p in coherence.problems(t.scenario) if p.startswith("policy")]
        assert policy == [], name
        seams = [t.id for t in tasks if coherence.problems(t.scenario)]
        assert len(seams) <= len(tasks) // 10, (name, seams[:3])


def test_a_repeated_opening_is_said_as_it_and_reschedule_uses_it() -> None:
    seam = "The quarterly business review has landed, at the worst time. The quarterly business review can't move."
    fixed = coherence.pronouns(seam)
    assert fixed == "The quarterly business review has landed, at the worst time. It can't move."
    assert coherence.repeated_phrases(fixed) == []
    mine = "The security incident review takes priority. My security incident review problem: it overlaps a meeting."
    assert coherence.pronouns(mine) == "The security incident review takes priority. My problem: it overlaps a meeting."
    for task in _draws("reschedule", 30):
        assert coherence.repeated_phrases(task.scenario["instruction"]) == [], task.id


def test_a_living_request_of_today_is_not_said_to_be_from_yesterday() -> None:
    family = families()["ask-colleague"]()
    old, new = (draw(family, 11, "small", 1, {}, edition=e) for e in (2, 3))  # its opener: "Following up on ..."
    assert old is not None and new is not None
    assert "Following up on something from yesterday:" in old.scenario["instruction"]
    assert "Following up on something from earlier:" in new.scenario["instruction"]
    assert coherence.problems(new.scenario) == []


def _clash(instruction: str, start: str = "2026-12-10T11:00:00+01:00") -> dict[str, Any]:
    review = {"id": "e1", "title": "Security incident review", "start": start, "end": start.replace("11:00", "12:30")}
    scenario = _scenario(instruction, calendar={"events": [review]})
    scenario["clock"]["start"] = "2026-12-08T14:30:00+01:00"
    return scenario


def test_my_meeting_on_a_day_no_named_event_is_on_is_found() -> None:
    ask = (
        "Can you sort out the clash between the security incident review (there's a mail) and my meeting? "
        "Move my meeting on Friday 11 December to when all of us are free."
    )
    assert coherence.problems(_clash(ask)) == [
        "meeting day in the instruction: 'my meeting on Friday 11 December' but the security incident review is on "
        "Thursday 10 December"
    ]
    assert coherence.problems(_clash(ask.replace("Friday 11", "Thursday 10"))) == []
    assert coherence.problems(_clash(ask, "2026-12-11T11:00:00+01:00")) == []  # the review is on that Friday
    assert coherence.problems(_clash(ask.replace(" on Friday 11 December", " to Friday 11 December"))) == []
    assert coherence.problems(_clash(ask.replace("security incident review", "budget talk"))) == []  # none named
    assert coherence.problems(
        _clash("Move the meeting on Friday, please: it clashes with the security incident review.")
    )


@pytest.mark.slow
def test_the_committed_travel_and_meetings_task_of_seed_71946_is_found_incoherent() -> None:
    # tests/adversarial/heldout6 left it out: it moves "my meeting on Friday 11 December", the clash is on Thursday.
    with HELDOUT6_TRAVEL.open() as f:
        scenario = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    assert (
        "meeting day in the instruction: 'my meeting on Friday 11 December' but the security incident review is on "
        "Thursday 10 December"
    ) in coherence.problems(scenario)


def test_a_move_to_another_day_is_said_as_the_day_it_goes_to() -> None:
    ask = "Move my meeting on Friday 11 December to when all of us are free."
    assert coherence.moved_to(ask, "on Friday 11 December") == (
        "Move my meeting to Friday 11 December, to when all of us are free."
    )
    assert coherence.moved_to("Move mine on Friday 11 December, same length.", "on Friday 11 December") == (
        "Move mine to Friday 11 December, same length."
    )
    same = "Find a time on Friday 11 December when all are free."
    assert coherence.moved_to(same, "on Friday 11 December") == same
    assert coherence.moved_to(ask, "the same day") == ask
    for name in ("reschedule", "travel-and-meetings", "incident-followup"):
        for task in _draws(name, 12):
            assert not [p for p in coherence.problems(task.scenario) if p.startswith("meeting day")], task.id
    old = [t for t in _draws("travel-and-meetings", 12, edition=2) if " meeting on " in t.scenario["instruction"]]
    assert old  # edition 2 keeps release v2's words


@pytest.mark.slow
def test_the_travel_and_meetings_task_of_seed_71946_now_reads_right() -> None:
    task = draw(families()["travel-and-meetings"](), 71946, "mix", 0, {}, edition=3)
    assert task is not None and "Move my meeting to Friday 11 December, to when" in task.scenario["instruction"]
    assert coherence.problems(task.scenario) == []
