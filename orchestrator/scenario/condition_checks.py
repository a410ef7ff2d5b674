"""The `where` language checked before a run: each condition's operator and operand, references to other tables,
text operators' operands and dates (`conditions` evaluates them)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from orchestrator.scenario.conditions import (
    ANY,
    OPERATORS,
    REF_KEYS,
    RELATED,
    Problem,
    _as_date,
    _as_instant,
    _is_ref,
    _ref_of,
    related_spec,
)
from orchestrator.scenario.text.operators import TEXT_OPERATORS, operand_problems, spec_of
from orchestrator.scenario.yamlpaths import Path_

__all__ = ["check_condition", "check_where"]


def check_where(
    where: Any,
    path: Path_,
    columns: Mapping[str, Any] | None,
    resolve_table: Callable[[str, str], Mapping[str, Any] | None],
    table_key: str | None = None,
) -> list[Problem]:
    """Problems in a `where` mapping: unknown columns, unknown operators, bad operands, bad references.

    `columns` maps the table's columns (None when unknown, e.g. inside `has`);
    `resolve_table(app, table)` gives another table's columns for `from` and `related`.
    """
    if not isinstance(where, Mapping):
        return [Problem(path, f"expected a mapping of column: condition, found {type(where).__name__}")]
    problems: list[Problem] = []
    for column, condition in where.items():
        here = (*path, column)
        if column == RELATED and columns is not None:
            problems += _check_related(condition, here, resolve_table)
            continue
        if column == ANY and columns is not None and not (columns and ANY in columns):
            if not isinstance(condition, list) or not condition:
                problems.append(Problem(here, "expected a list of where-mappings, any one of which must match"))
                continue
            for index, alternative in enumerate(condition):
                problems += check_where(alternative, (*here, index), columns, resolve_table, table_key)
            continue
        if columns is not None and column not in columns:
            problems.append(Problem(here, f"unknown column {column!r}; columns are: {', '.join(columns)}"))
            continue
        problems += check_condition(condition, here, resolve_table)
    return problems


def _check_related(
    spec: Any, path: Path_, resolve_table: Callable[[str, str], Mapping[str, Any] | None]
) -> list[Problem]:
    spec = related_spec(spec)
    if not isinstance(spec, Mapping) or not {"table", "on"} <= set(spec) or set(spec) - {"app", "table", "on", "where"}:
        return [
            Problem(
                path,
                "expected {table: T, on: COLUMN, where: {...}} (and optionally app), naming rows of T whose COLUMN holds this row's key",
            )
        ]
    columns = resolve_table(spec.get("app", ""), spec["table"])
    if columns is None:
        return [Problem((*path, "table"), f"unknown table {spec['table']!r}")]
    if spec["on"] not in columns:
        return [Problem((*path, "on"), f"unknown column {spec['on']!r} in table {spec['table']!r}")]
    return check_where(spec.get("where", {}), (*path, "where"), columns, resolve_table)


def check_condition(
    condition: Any, path: Path_, resolve_table: Callable[[str, str], Mapping[str, Any] | None]
) -> list[Problem]:
    """The problems of one column's condition (unknown operators, bad operands, references to tables that do not
    exist)."""
    if not isinstance(condition, Mapping):
        return []  # a bare value: equals
    problems: list[Problem] = []
    for op, operand in condition.items():
        here = (*path, op)
        if op not in OPERATORS:
            problems.append(Problem(here, f"unknown operator {op!r}; operators are: {', '.join(OPERATORS)}"))
            continue
        if op == "has":
            if isinstance(operand, Mapping) and not set(operand) <= set(OPERATORS):
                problems += check_where(operand, here, None, resolve_table)
            else:
                problems += check_condition(operand, here, resolve_table)
        elif op == "not":
            problems += check_condition(operand, here, resolve_table)
        elif op == "length":
            if not isinstance(operand, int | Mapping):
                problems.append(Problem(here, "expected a number or a condition such as {gte: 2}"))
            elif isinstance(operand, Mapping):
                problems += check_condition(operand, here, resolve_table)
        elif op in ("exists", "empty"):
            if not isinstance(operand, bool):
                problems.append(Problem(here, "expected true or false"))
        elif op in ("one_of", "not_one_of", "same_set"):
            if not isinstance(operand, list):
                problems.append(Problem(here, "expected a list of values"))
        elif op == "within":
            if not (isinstance(operand, Mapping) and set(operand) == {"start", "end"}):
                problems.append(Problem(here, "expected {start: ..., end: ...}"))
            else:
                problems += [p for key in ("start", "end") for p in _check_instant(operand[key], (*here, key))]
        elif op == "same_date":
            if isinstance(operand, str) and _as_date(operand) is None:
                problems.append(Problem(here, f"expected a date such as 2026-03-10, found {operand!r}"))
        elif op in ("gt", "gte", "lt", "lte"):
            if not (isinstance(operand, int | float) or _is_ref(operand) or _as_instant(operand) or _as_date(operand)):
                problems.append(Problem(here, f"expected a number, a date or a date-time, found {operand!r}"))
        elif op == "regex":
            try:
                re.compile(str(operand))
            except re.error as exc:
                problems.append(Problem(here, f"invalid regular expression: {exc}"))
        elif op in TEXT_OPERATORS:
            problems += _check_text(op, operand, here, resolve_table)
            continue
        if _is_ref(operand):
            problems += _check_ref(operand["from"], (*here, "from"), resolve_table)
    return problems


def _check_text(
    op: str, operand: Any, path: Path_, resolve_table: Callable[[str, str], Mapping[str, Any] | None]
) -> list[Problem]:
    problems = [Problem((*path, *sub), message) for sub, message in operand_problems(op, operand)]
    spec = spec_of(op, operand)
    for at, ref in ((("from",), spec.get("from")), (("public", "from"), _ref_of(spec.get("public")))):
        if ref is not None:
            problems += _check_ref(ref, (*path, *at), resolve_table)
    return problems


def _check_instant(value: Any, path: Path_) -> list[Problem]:
    if _as_instant(value) is None and _as_date(value) is None:
        return [Problem(path, f"expected a date or date-time, found {value!r}")]
    return []


def _check_ref(ref: Any, path: Path_, resolve_table: Callable[[str, str], Mapping[str, Any] | None]) -> list[Problem]:
    if not isinstance(ref, Mapping) or not {"app", "table", "field"} <= set(ref) or set(ref) - REF_KEYS:
        return [
            Problem(
                path,
                "expected {app: A, table: T, field: F, where: {...}} (and optionally added: true/false, discarded: true)",
            )
        ]
    for flag in ("added", "discarded"):
        if flag in ref and not isinstance(ref[flag], bool):
            return [Problem((*path, flag), "expected true or false")]
    columns = resolve_table(ref["app"], ref["table"])
    if columns is None:
        return [Problem(path, f"unknown table {ref['app']}.{ref['table']}")]
    if ref["field"] not in columns:
        return [Problem((*path, "field"), f"unknown column {ref['field']!r} in {ref['app']}.{ref['table']}")]
    return check_where(ref.get("where", {}), (*path, "where"), columns, resolve_table)


# -- evaluation -----------------------------------------------------------------
