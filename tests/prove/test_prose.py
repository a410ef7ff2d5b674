"""`validate` refuses pattern checks on prose and names the operator to use; ids, codes and references stay."""

from __future__ import annotations

from helpers import TRAVEL_PATH

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
