"""Field conditions: the `where` language of checks.

    where:
      title: {icontains: berlin}            # operators in a mapping; all must hold
      all_day: true                         # a bare value means equals
      start: {same_date: "{{ next tuesday | date }}"}
      attendees: {has: {email: priya@acme.test, response: accepted}}
      body: {contains: {from: {app: docs, table: documents, where: {title: {icontains: itinerary}}, field: url}}}

An operand written as `{from: {...}}` is read from the final state of any
app: the condition holds when it holds for any of the values found. It skips
discarded rows (trashed documents, mail in the trash) unless it says
`discarded: true`, and `added: true` keeps only the rows the agent added.
Date-times are compared as instants, whatever offset they were written with.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from orchestrator.scenario.row_index import RowIndex
from orchestrator.scenario.text.operators import (
    PRIMARY,
    TEXT_OPERATORS,
    explain,
    operator_holds,
    spec_of,
)
from orchestrator.scenario.yamlpaths import Path_

Snapshots = Mapping[str, Mapping[str, list[dict[str, Any]]]]

OPERATORS = {
    "equals": "equals",
    "not_equals": "does not equal",
    "contains": "contains",
    "not_contains": "does not contain",
    "icontains": "contains (any case)",
    "not_icontains": "does not contain (any case)",
    "one_of": "is one of",
    "same_set": "holds exactly (in any order)",
    "not_one_of": "is not one of",
    "gt": "is after / greater than",
    "gte": "is at or after / at least",
    "lt": "is before / less than",
    "lte": "is at or before / at most",
    "same_date": "falls on",
    "within": "falls within",
    "regex": "matches the pattern",
    "has": "has an item where",
    "exists": "exists",
    "empty": "is empty",
    "length": "has length",
    "not": "does not satisfy",
    **TEXT_OPERATORS,
}
RELATED = "related"
ANY = "any"
REF_KEYS = {"app", "table", "field", "where", "added", "discarded"}
"""A reference `{from: {...}}`: the `field` of `app.table` rows matching `where`; `added: true` keeps
only rows the agent added, `added: false` only seeded ones; discarded (trashed) rows count only with
`discarded: true`."""


class Problem(Exception):
    """A problem of a condition, found at load time: the YAML path and what is wrong."""

    def __init__(self, path: Path_, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


# -- static checking ------------------------------------------------------------


def related_spec(spec: Any) -> Any:
    """`related` with its `on` key restored: YAML 1.1 reads a bare `on:` as the boolean true."""
    if isinstance(spec, Mapping) and True in spec and "on" not in spec:
        return {("on" if k is True else k): v for k, v in spec.items()}
    return spec


def _ref_of(value: Any) -> Any:
    return value["from"] if _is_ref(value) else None


def _is_ref(operand: Any) -> bool:
    return isinstance(operand, Mapping) and set(operand) == {"from"}


class Context:
    """What conditions can look at besides the row: every app's final state.

    `seeded` holds the keys of the seeded rows per (app, table), so references can tell rows the
    agent added (`added: true`) from seeded ones; `discarded(app, table, row)` says whether a row
    is thrown away (trashed, in the bin), which references skip unless they say `discarded: true`.
    With an `index` (a verdict's, over states that do not change while it reads them), rows are looked up by the
    plain equalities of a where (`candidates`) instead of matched one by one.
    """

    def __init__(
        self,
        snapshots: Snapshots,
        keys: Mapping[tuple[str, str], str],
        app: str = "",
        seeded: Mapping[tuple[str, str], set[Any]] | None = None,
        discarded: Callable[[str, str, Mapping[str, Any]], bool] | None = None,
        *,
        timezone: str = "UTC",
        now: datetime | None = None,
        index: RowIndex | None = None,
    ) -> None:
        self.snapshots = snapshots
        self.keys = keys
        self.app = app
        self.seeded = seeded
        self.discarded = discarded
        self.timezone = timezone  # the persona's: text operators read times in it
        self.now = now  # the scenario clock: "Thursday" in a text is the next Thursday from here
        self.index = index

    def rows(self, app: str, table: str) -> list[dict[str, Any]]:
        return list(self.snapshots.get(app, {}).get(table, []))

    def for_app(self, app: str) -> Context:
        return Context(
            self.snapshots,
            self.keys,
            app,
            self.seeded,
            self.discarded,
            timezone=self.timezone,
            now=self.now,
            index=self.index,
        )

    def is_added(self, app: str, table: str, row: Mapping[str, Any]) -> bool:
        """Whether the agent added this row (it was not in the seeded state)."""
        if self.seeded is None:
            return False
        return row.get(self.keys.get((app, table), "id")) not in self.seeded.get((app, table), set())

    def is_discarded(self, app: str, table: str, row: Mapping[str, Any]) -> bool:
        return bool(self.discarded and self.discarded(app, table, row))

    def in_role(
        self, app: str, table: str, row: Mapping[str, Any], added: bool | None = None, discarded: bool = False
    ) -> bool:
        """Whether `select` keeps `row`."""
        return (added is None or self.is_added(app, table, row) == added) and (
            discarded or not self.is_discarded(app, table, row)
        )

    def select(self, app: str, table: str, added: bool | None = None, discarded: bool = False) -> list[dict[str, Any]]:
        """Rows of a table by role: `added` true (the agent's), false (seeded) or None (both);
        discarded rows only when `discarded` is true."""
        rows = self.rows(app, table)
        drop = None if discarded else self.discarded
        if added is None and drop is None:
            return rows
        # `in_role` for each row, inline: a world's tables hold thousands of rows, and checks select them often
        seeded = None if self.seeded is None else self.seeded.get((app, table), set())
        key = self.keys.get((app, table), "id")
        kept = []
        for row in rows:
            if added is not None and (seeded is not None and row.get(key) not in seeded) != added:
                continue
            if drop is not None and drop(app, table, row):
                continue
            kept.append(row)
        return kept

    def candidates(self, app: str, table: str, where: Mapping[str, Any]) -> list[dict[str, Any]] | None:
        """The rows of `app.table`, in their order, among which are all that match `where`: those meeting one of its
        plain equalities, found in the context's index (`row_index`). None without an index or such equalities (every
        row is a candidate)."""
        if self.index is None:
            return None
        rows = self.snapshots.get(app, {}).get(table, [])
        return self.index.candidates(app, table, rows, where, self.keys.get((app, table), "id"))


def row_matches(row: Mapping[str, Any], where: Mapping[str, Any], ctx: Context, table: str = "") -> bool:
    """Whether `row` meets every condition of `where`: `failures` is empty, found without wording any failure.
    The cheap conditions are tried first (`by_cost`), so a row that fails one is never read as text."""
    return all(_meets(row, column, condition, ctx, table) for column, condition in by_cost(where))


def failure_count(
    row: Mapping[str, Any], where: Mapping[str, Any], ctx: Context, table: str = "", stop: int | None = None
) -> int:
    """How many conditions of `where` `row` does not meet (`len(failures(...))`, without wording them), the cheap
    ones first; once the count reaches `stop` the rest are not tried and `stop` is returned."""
    count = 0
    for column, condition in by_cost(where):
        if stop is not None and count >= stop:
            return stop
        if not _meets(row, column, condition, ctx, table):
            count += 1
    return count


def by_cost(where: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The conditions of `where`, those on plain values first, then those that read a text, another table or a
    reference (`any`, `related`, `_reads_more`), each group in its written order. All of a where must hold, so the
    order changes no outcome, only how soon a row that fails is set aside.

    A check asks it once per row of its table with the same where: the order found is kept (`_ORDERS`) and given
    again while that where holds the same conditions (the same keys, each the same object)."""
    kept = _ORDERS.get(id(where))
    if (
        kept is not None
        and kept[0] is where
        and len(kept[1]) == len(where)
        and all(where.get(column, _ORDERS) is condition for column, condition in kept[1])
    ):
        return kept[1]
    items = list(where.items())
    costly = [column in (ANY, RELATED) or _reads_more(condition) for column, condition in items]
    order = [i for i, c in zip(items, costly, strict=True) if not c] + [
        i for i, c in zip(items, costly, strict=True) if c
    ]
    if len(_ORDERS) >= MAX_ORDERS:
        _ORDERS.clear()
    _ORDERS[id(where)] = (where, order)
    return order


MAX_ORDERS = 4096
"""How many wheres' orders `by_cost` keeps (all are dropped past it)."""

_ORDERS: dict[int, tuple[Mapping[str, Any], list[tuple[str, Any]]]] = {}
"""`by_cost`'s orders by the id of their where, each kept with its where (so no other takes its id meanwhile)."""


def _reads_more(condition: Any) -> bool:
    """Whether a condition reads a text, or the rows of a reference (`from`), anywhere in it."""
    if isinstance(condition, Mapping):
        return any(op in TEXT_OPERATORS or op == "from" or _reads_more(v) for op, v in condition.items())
    if isinstance(condition, list):
        return any(_reads_more(c) for c in condition)
    return False


def _meets(row: Mapping[str, Any], column: str, condition: Any, ctx: Context, table: str) -> bool:
    """Whether `row` meets the one condition of its where on `column` (an alternative of `any`, a related row, or
    its value)."""
    if column == ANY and ANY not in row:
        return any(row_matches(row, alternative, ctx, table) for alternative in condition)
    if column == RELATED:
        return _related(row, condition, ctx, table)
    return holds(row.get(column), condition, ctx)


def failures(row: Mapping[str, Any], where: Mapping[str, Any], ctx: Context, table: str = "") -> list[str]:
    """The conditions of `where` that `row` does not meet, in words."""
    failed = []
    for column, condition in where.items():
        if _meets(row, column, condition, ctx, table):
            continue
        if column == ANY and ANY not in row:
            failed.append(f"none of: {describe_where({ANY: condition})}")
        elif column == RELATED:
            failed.append(f"no related {condition['table']} row where {describe_where(condition.get('where', {}))}")
        else:
            value = row.get(column)
            failed.append(
                f"{column}: expected {describe_condition(condition)}, found {_short(value)}{_text_notes(value, condition, ctx)}"
            )
    return failed


def _related(row: Mapping[str, Any], spec: Mapping[str, Any], ctx: Context, table: str) -> bool:
    spec = related_spec(spec)
    app = spec.get("app") or ctx.app
    key = ctx.keys.get((ctx.app, table), "id")
    for other in ctx.rows(app, spec["table"]):
        if other.get(spec["on"]) == row.get(key) and row_matches(
            other, spec.get("where", {}), ctx.for_app(app), spec["table"]
        ):
            return True
    return False


def holds(value: Any, condition: Any, ctx: Context) -> bool:
    """Whether `value` satisfies `condition` (a bare value means equals; every operator of a mapping must hold)."""
    if not isinstance(condition, Mapping):
        return _equal(value, condition)
    return all(_apply(op, value, operand, ctx) for op, operand in condition.items())


def _operands(operand: Any, ctx: Context) -> list[Any]:
    if not _is_ref(operand):
        return [operand]
    ref = operand["from"]
    app, table, where = ref["app"], ref["table"], ref.get("where", {})
    added, discarded = ref.get("added"), bool(ref.get("discarded", False))
    app_ctx = ctx.for_app(app)
    pool = ctx.candidates(app, table, where)
    rows = (
        ctx.select(app, table, added, discarded)
        if pool is None
        else [r for r in pool if ctx.in_role(app, table, r, added, discarded)]
    )
    return [r.get(ref["field"]) for r in rows if row_matches(r, where, app_ctx, table)]


def _text_spec(op: str, operand: Any, ctx: Context) -> tuple[dict[str, Any], list[Any], datetime]:
    """A text operator's options, its wanted values (read from the final state for `from`) and the clock."""
    spec = spec_of(op, operand)
    wanted = _operands({"from": spec["from"]}, ctx) if "from" in spec else [spec[PRIMARY[op]]]
    if _is_ref(spec.get("public")):
        spec["public"] = "\n".join(str(v) for v in _operands(spec["public"], ctx) if v)
    return spec, wanted, ctx.now or datetime.now(UTC)


def _text_holds(op: str, value: Any, operand: Any, ctx: Context) -> bool:
    spec, wanted, now = _text_spec(op, operand, ctx)
    return any(operator_holds(op, value, w, spec, ctx.timezone, now) for w in wanted)


def _text_notes(value: Any, condition: Any, ctx: Context) -> str:
    """What a text says that bears on the text operators of `condition`, for failure reports."""
    if not isinstance(condition, Mapping):
        return ""
    notes = []
    for op, operand in condition.items():
        if op in TEXT_OPERATORS:
            spec, wanted, now = _text_spec(op, operand, ctx)
            note = explain(op, value, wanted[0] if wanted else None, spec, ctx.timezone, now)
            if note:
                notes.append(note)
        elif op == "not" and _text_notes(value, operand, ctx):
            notes.append(_text_notes(value, operand, ctx)[2:-1])
    return f" ({'; '.join(notes)})" if notes else ""


def _apply(op: str, value: Any, operand: Any, ctx: Context) -> bool:
    if op in TEXT_OPERATORS:
        return _text_holds(op, value, operand, ctx)
    if op == "not":
        return not holds(value, operand, ctx)
    if op == "has":
        if not isinstance(value, list):
            return False
        if isinstance(operand, Mapping) and not set(operand) <= set(OPERATORS):
            return any(isinstance(item, Mapping) and row_matches(item, operand, ctx) for item in value)
        return any(holds(item, operand, ctx) for item in value)
    if op == "same_set":
        return isinstance(value, list) and _as_set(value) == _as_set(operand)
    if op == "exists":
        return (value is not None) == operand
    if op == "empty":
        return (not value) == operand
    if op == "length":
        return hasattr(value, "__len__") and holds(len(value), operand, ctx)
    negate = op.startswith("not_")
    base = op[4:] if negate else op
    result = any(_compare(base, value, candidate, ctx.timezone) for candidate in _operands(operand, ctx))
    return not result if negate else result


def _as_set(values: list[Any]) -> set[Any]:
    """A list as a set for `same_set`: text in any case and without outer spaces."""
    return {v.strip().casefold() if isinstance(v, str) else json.dumps(v, sort_keys=True) for v in values}


def _compare(op: str, value: Any, operand: Any, tz: str = "UTC") -> bool:
    if op == "equals":
        return _equal(value, operand)
    if op == "contains":
        if isinstance(value, list):
            return any(_equal(item, operand) for item in value)
        return isinstance(value, str) and operand is not None and str(operand) in value
    if op == "icontains":
        needle = str(operand).lower()
        if isinstance(value, list):
            return any(isinstance(item, str) and needle in item.lower() for item in value)
        return isinstance(value, str) and needle in value.lower()
    if op == "one_of":
        return any(_equal(value, o) for o in operand)
    if op in ("gt", "gte", "lt", "lte"):
        return _ordered(op, value, operand, tz)
    if op == "same_date":
        found, wanted = _as_date(value), _as_date(operand)
        return found is not None and found == wanted
    if op == "within":
        return _ordered("gte", value, operand["start"], tz) and _ordered("lte", value, operand["end"], tz)
    if op == "regex":
        return isinstance(value, str) and re.search(str(operand), value) is not None
    raise ValueError(f"unknown operator {op!r}")


def _equal(value: Any, operand: Any) -> bool:
    if value == operand:
        return True
    a, b = _as_instant(value), _as_instant(operand)
    if a is not None and b is not None:
        return a == b
    if isinstance(value, int | float) and isinstance(operand, int | float) and not isinstance(value, bool):
        return float(value) == float(operand)
    return False


def _ordered(op: str, value: Any, operand: Any, tz: str = "UTC") -> bool:
    a: Any
    b: Any
    if isinstance(value, int | float) and isinstance(operand, int | float):
        a, b = value, operand
    else:
        a, b = _as_instant(value), _as_instant(operand)
        day = _as_date(value) if a is None and b is not None else None
        if day is not None:  # an all-day date against an instant: the whole day, midnight to midnight in `tz`
            first, after = _day_bounds(day, tz)
            return {"gt": first > b, "gte": first >= b, "lt": after <= b, "lte": after <= b}[op]
        if a is None or b is None:
            a, b = _as_date(value), _as_date(operand)
            if a is None or b is None:
                return False
    return {"gt": a > b, "gte": a >= b, "lt": a < b, "lte": a <= b}[op]


def _day_bounds(day: date, tz: str) -> tuple[datetime, datetime]:
    """An all-day date as the instants it runs between in the persona's zone `tz` (an all-day event's days are hers)."""
    zone = ZoneInfo(tz)
    return datetime.combine(day, time(), zone), datetime.combine(day + timedelta(days=1), time(), zone)


def _as_instant(value: Any) -> datetime | None:
    if not isinstance(value, str) or len(value) < 16 or "T" not in value and " " not in value:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


def _as_date(value: Any) -> date | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value).date() if len(value) > 10 else date.fromisoformat(value)
    except ValueError:
        return None


# -- words ------------------------------------------------------------------------


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe_condition(condition: Any) -> str:
    """One column's condition in words, for reports ("contains 'Berlin'")."""
    if not isinstance(condition, Mapping):
        return f"= {_short(condition)}"
    parts = []
    for op, operand in condition.items():
        if _is_ref(operand):
            ref = operand["from"]
            role = {True: "a row the agent added to ", False: "a seeded row of "}.get(ref.get("added"), "")
            text = (
                f"the {ref['field']} of {role}{ref['app']}.{ref['table']} where {describe_where(ref.get('where', {}))}"
            )
        elif op in OPERATORS and op in _TEXT_WORDS and isinstance(operand, Mapping):
            text = _describe_text_operand(op, operand)
        elif op == "has" and isinstance(operand, Mapping) and not set(operand) <= set(OPERATORS):
            text = describe_where(operand)
        elif op in ("has", "not", "length") and isinstance(operand, Mapping):
            text = describe_condition(operand)
        else:
            text = _short(operand)
        parts.append(f"{OPERATORS.get(op, op)} {text}")
    return " and ".join(parts)


_TEXT_WORDS = TEXT_OPERATORS


def _describe_text_operand(op: str, operand: Mapping[str, Any]) -> str:
    spec = spec_of(op, operand)
    main_key = PRIMARY[op]
    main = describe_condition({"": {"from": spec["from"]}}).strip() if "from" in spec else _short(spec.get(main_key))
    extras = [
        f"{key} {describe_condition({'': value}).strip() if _is_ref(value) else _short(value)}"
        for key, value in spec.items()
        if key not in ("from", main_key)
    ]
    return main + (f" ({', '.join(extras)})" if extras else "")


def describe_where(where: Mapping[str, Any]) -> str:
    """A `where` mapping in words, for reports."""
    if not where:
        return "any row"
    parts = []
    for column, condition in where.items():
        if column == ANY and isinstance(condition, list):
            parts.append("either " + " or ".join(f"({describe_where(alternative)})" for alternative in condition))
        elif column == RELATED:
            condition = related_spec(condition)
            parts.append(f"a related {condition['table']} row where {describe_where(condition.get('where', {}))}")
        else:
            parts.append(f"{column} {describe_condition(condition)}")
    return ", ".join(parts)
