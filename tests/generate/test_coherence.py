"""The language and policy check of edition-3 tasks (`orchestrator.generate.coherence`), the prover dropping what it
finds, and the generators it made coherent (travel's policy, composite forbids, topic casing, 'yesterday')."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from orchestrator.generate import coherence
from orchestrator.generate.drawing import draw
from orchestrator.generate.family import families
from orchestrator.generate.prover import Plan, Prover


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
