"""A table's rows looked up by the plain equalities of a where, instead of matched one by one.

A where's condition on a column that is a bare value (`status: open`), `{equals: value}` or `{one_of: [values]}`
holds only for rows whose value equals the value (one of them). When every such value is one that only an equal value
matches (`exact`: text that is no date-time, an integer a float holds exactly, a boolean, null), the rows whose value
is equal are found in the column's index: a mapping from each value to the positions of the rows holding it, built once
per table and column (`RowIndex`) and kept while the context reads the same table. One equality is looked up, the
one on the table's key when the where has one. The rows found are a superset of
those that match, in the table's order; the caller still matches each against the whole where, so what matches, and in
which order, is what matching every row finds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

ANY = "any"
RELATED = "related"
EXACT_INT = 2**53
"""Integers below this in size are held exactly by a float: a number equal to one as a float equals it as a number."""

Rows = Sequence[Mapping[str, Any]]


def exact(value: Any) -> bool:
    """Whether only a value that is `==` to `value` (so has its hash) meets the equality `value` (`conditions._equal`:
    date-times are equal as instants, whatever their offsets; numbers as floats)."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int):
        return -EXACT_INT < value < EXACT_INT
    if isinstance(value, str):
        return not _instant(value)
    return False


def _instant(text: str) -> bool:
    """Whether `text` reads as a date-time with an offset (as `conditions._as_instant` reads it)."""
    if len(text) < 16 or "T" not in text and " " not in text:
        return False
    try:
        return datetime.fromisoformat(text).tzinfo is not None
    except ValueError:
        return False


def equal_values(condition: Any) -> list[Any] | None:
    """The values a column must equal (any of them) for `condition` to hold, when they are all `exact`; else None."""
    if isinstance(condition, Mapping):
        if "equals" in condition:
            values = [condition["equals"]]
        elif isinstance(condition.get("one_of"), list | tuple):
            values = list(condition["one_of"])
        else:
            return None
    else:
        values = [condition]
    return values if all(exact(v) for v in values) else None


class RowIndex:
    """The columns' indexes of one state's tables, each built when first asked for: (app, table, column) -> the table
    it was built from (kept to tell whether it is still the one read) and each value's row positions."""

    def __init__(self) -> None:
        self._columns: dict[tuple[str, str, str], tuple[Rows, int, dict[Any, list[int]]]] = {}

    def _positions(self, app: str, table: str, column: str, rows: Rows) -> dict[Any, list[int]]:
        kept = self._columns.get((app, table, column))
        if kept is not None and kept[0] is rows and kept[1] == len(rows):
            return kept[2]
        positions: dict[Any, list[int]] = {}
        for position, row in enumerate(rows):
            value = row.get(column)
            if value is None or isinstance(value, str | int | float):  # no other value equals an exact one
                positions.setdefault(value, []).append(position)
        self._columns[(app, table, column)] = (rows, len(rows), positions)
        return positions

    def candidates(
        self, app: str, table: str, rows: Rows, where: Mapping[str, Any], key: str = "id"
    ) -> list[Any] | None:
        """The rows of `rows` (`app.table`, whose key column is `key`) that meet one plain equality of `where`, in
        their order: every row that matches `where` is among them. The equality on the key is the one used when
        there is one (it leaves a row or a few), else the first written. None when `where` has no plain equality
        (every row is a candidate)."""
        plain = [
            (column, values)
            for column, condition in where.items()
            if column not in (ANY, RELATED) and (values := equal_values(condition)) is not None
        ]
        if not plain:
            return None
        column, values = next(((c, v) for c, v in plain if c == key), plain[0])
        positions = self._positions(app, table, column, rows)
        if len(values) == 1:
            return [rows[p] for p in positions.get(values[0], ())]
        return [rows[p] for p in sorted({p for value in values for p in positions.get(value, ())})]
