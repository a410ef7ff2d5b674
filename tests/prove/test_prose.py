"""`validate` refuses pattern checks on prose and names the operator to use; ids, codes and references stay."""

from __future__ import annotations

from helpers import ROOT, TRAVEL_PATH

from orchestrator import scenario as scenarios
from orchestrator.prove.prose import prose_patterns
from orchestrator.prove.validate import validate
from orchestrator.scenario.checks import RowCheck, Stage, ToldCheck, ToldSpec


def _with(check) -> scenarios.Scenario:
    base = scenarios.load(TRAVEL_PATH)
    return base.model_copy(update={"stages": [*base.stages, Stage(name="extra", checks=[check])]})


def _found(check) -> list[str]:
    return [
        p for p in prose_patterns(_with(check)) if p.startswith(f"stages[{len(scenarios.load(TRAVEL_PATH).stages)}]")
    ]


def test_a_regex_on_a_body_is_refused_with_the_operator_to_use() -> None:
    found = _found(RowCheck(app="mail", table="messages", added=True, where={"body": {"regex": "(?i)approved"}}))
    assert len(found) == 1 and "regex '(?i)approved'" in found[0] and "says" in found[0] and "told" in found[0]


def test_negated_nested_and_alternative_patterns_are_found() -> None:
    where = {"any": [{"body": {"not": {"icontains": "instead of"}}}, {"subject": {"contains": "Berlin trip"}}]}
    assert len(_found(RowCheck(app="mail", table="messages", added=True, where=where))) == 2
    told = ToldCheck(told=ToldSpec(who=["priya@acme.test"], facts=[{"regex": "fix (ships|is out)"}]))
    assert len(_found(told)) == 1


def test_ids_codes_addresses_references_and_non_prose_columns_stay_allowed() -> None:
    link = {"from": {"app": "docs", "table": "documents", "added": True, "field": "url"}}
    where = {
        "body": {"contains": link, "icontains": "OPS-142"},
        "description": {"contains": "https://docs.example.test/d/1"},
        "to": {"contains": "priya@acme.test"},
        "labels": {"contains": "urgent"},
    }
    assert _found(RowCheck(app="mail", table="messages", added=True, where=where)) == []


async def test_validate_reports_a_prose_pattern_as_a_problem(backend) -> None:
    scenario = _with(RowCheck(app="mail", table="messages", added=True, where={"body": {"icontains": "thanks"}}))
    check = await validate(scenario, backend)
    assert not check.valid and any("icontains 'thanks'" in p for p in check.problems), check.problems


def test_a_pattern_without_spaces_is_still_prose_when_it_holds_words_or_numbers() -> None:
    """Writing a pattern without spaces does not make it a code: words, amounts, times and versions are prose."""
    for pattern in (
        "(?is)^(?=.*(approv|sign.?off|\\bok(ay)?\\b))(?=.*(\\?|\\bplease\\b))",
        "(?s)180[.,]30.*324|324.*180[.,]30",
        "(?i)^(?=.*2\\.8)(?=.*release)(?=.*notes)",
        "16[:.]00",
    ):
        where = {"body": {"regex": pattern}}
        assert len(_found(RowCheck(app="mail", table="messages", added=True, where=where))) == 1, pattern
    for pattern in ("(?s)(?=.*OPS-41)(?=.*OPS-42)", "@acme\\.test$", "^[A-Z]+-\\d+$", "(?i)docs\\.example\\.test/d/"):
        where = {"body": {"regex": pattern}}
        assert _found(RowCheck(app="mail", table="messages", added=True, where=where)) == [], pattern


def test_patterns_in_journal_arguments_and_in_the_rules_of_people_who_answer_are_found() -> None:
    from orchestrator.scenario.checks import JournalCheck

    journal = JournalCheck(journal={"called": "world__report", "args": {"summary": {"regex": "(?i)could not"}}})
    assert len(_found(journal)) == 1
    base = scenarios.load(ROOT / "scenarios" / "approval-wait.yaml")
    world = base.world.model_copy(deep=True)
    world.people[0].tickets[0].match = {"ticket_key": "OPS-41", "body": {"regex": "(?i)approv"}}
    found = prose_patterns(base.model_copy(update={"world": world}))
    assert any(p.startswith("world.people[0].tickets[0].match.body.regex") for p in found), found


def test_no_library_scenario_holds_a_prose_pattern() -> None:
    problems = {p.name: prose_patterns(scenarios.load(p)) for p in sorted((ROOT / "scenarios").glob("*.yaml"))}
    assert {name: found for name, found in problems.items() if found} == {}
