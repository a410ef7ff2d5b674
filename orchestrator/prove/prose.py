"""Pattern checks on prose, refused: `validate` reports every `regex`, `contains` or `icontains` (and their
negations) on a column people write in (a body, a description, a title), with the operator to use instead.

A pattern on prose passes or fails on wording: "is approved already" misses `already approved|was approved`,
"4pm" misses `16[:.]00`, and the word "which" in an aside satisfies a check for a question. Patterns stay
available for what is not prose: ids, codes, addresses and links (a literal without spaces that holds a digit,
`@`, `/`, `-`, `_` or `.`, such as `OPS-142` or `priya@acme.test`), and values read from the final state (`from`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from orchestrator.scenario.checks import Expect, JudgeCheck, RowCheck, ToldCheck
from orchestrator.scenario.model import Scenario

PROSE_COLUMNS = {"body", "content", "description", "text", "subject", "title", "summary", "notes", "location", "reply"}
PATTERN_OPERATORS = {"regex", "contains", "icontains", "not_contains", "not_icontains"}
CODE_LIKE = re.compile(r"^\S*[\d@/_.-]\S*$")
INSTEAD = (
    "use a text operator instead: says (a name or fixed phrase), mentions_date, mentions_time, mentions_amount, "
    "mentions_count, mentions_person, mentions_code (ids and codes), links; a told check for what someone must be "
    "told; a judge check for an idea people put in many words"
)


def _literal(operand: Any) -> bool:
    """A pattern operand that is written out (not read from the final state) and not an id, code or address."""
    if isinstance(operand, Mapping):
        return "from" not in operand
    return isinstance(operand, str) and not CODE_LIKE.match(operand.strip())


def _conditions(where: Mapping[str, Any], path: str) -> Iterator[tuple[str, str, Any]]:
    """(path, column, condition) of every column condition in `where`, `any` alternatives included."""
    for column, condition in where.items():
        if column == "any" and isinstance(condition, list):
            for i, alternative in enumerate(condition):
                if isinstance(alternative, Mapping):
                    yield from _conditions(alternative, f"{path}.any[{i}]")
        elif column == "related" and isinstance(condition, Mapping):
            yield from _conditions(condition.get("where") or {}, f"{path}.related.where")
        else:
            yield f"{path}.{column}", column, condition


def _patterns(condition: Any, path: str) -> Iterator[tuple[str, str, Any]]:
    if not isinstance(condition, Mapping):
        return
    for op, operand in condition.items():
        if op in PATTERN_OPERATORS:
            yield f"{path}.{op}", op, operand
        elif op in ("not", "has") and isinstance(operand, Mapping):
            yield from _patterns(operand, f"{path}.{op}")


def _wheres(scenario: Scenario) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for check_id, _, check in scenario.checks():
        if isinstance(check, RowCheck):
            yield f"{check_id}.where", check.where
            expect = check.expectation()
            if isinstance(expect, Expect) and expect.all:
                yield f"{check_id}.expect.all", expect.all
        elif isinstance(check, ToldCheck):
            for i, fact in enumerate(check.told.facts):
                for j, alternative in enumerate(fact["any"] if set(fact) == {"any"} else [fact]):
                    yield f"{check_id}.told.facts[{i}]" + (f".any[{j}]" if "any" in fact else ""), {"text": alternative}
        elif isinstance(check, JudgeCheck):
            yield f"{check_id}.judge.where", check.judge.where
    for i, rule in enumerate(scenario.forbid):
        yield f"forbid[{i}].where", rule.where


def prose_patterns(scenario: Scenario) -> list[str]:
    """Every pattern check on prose in the scenario's checks and forbid rules, each with what to use instead."""
    out = []
    for at, where in _wheres(scenario):
        for path, column, condition in _conditions(where, at):
            if column not in PROSE_COLUMNS:
                continue
            for where_, op, operand in _patterns(condition, path):
                if _literal(operand):
                    out.append(f"{where_}: {op} {operand!r} checks the wording of prose; {INSTEAD}")
    return out
