"""What an app's tables look like, read back from its SQL.

An app declares its tables as plain `CREATE TABLE` statements. Two declared
column types carry meaning beyond SQLite's: `JSON` columns hold lists or
objects (encoded on write, decoded in rows and snapshots) and `BOOLEAN`
columns read back as `True`/`False`. Foreign keys declared with `REFERENCES`
are read into `Table.references`, so the core can tell which rows hang off
which without knowing the app. Tables whose names start with `_` are
the core's own (journal, metadata, change log) and never appear in snapshots.

Every app table gets three triggers (`Table.change_triggers`) that write each
row it inserts, updates or deletes into the core's `_changes` table, as JSON
of the row before and after; the sandbox attributes those rows to the tool
call that made them.
"""

from __future__ import annotations

import copy
import json
import re
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import orjson


@dataclass(frozen=True)
class Table:
    """One table of an app's schema, read from its SQL: columns, key, JSON and boolean columns, references."""

    name: str
    columns: tuple[str, ...]
    key: str
    json_columns: frozenset[str] = field(default_factory=frozenset)
    bool_columns: frozenset[str] = field(default_factory=frozenset)
    references: tuple[tuple[str, str, str], ...] = ()
    """Foreign keys declared with `REFERENCES`: (column, referenced table, referenced column)."""
    not_null: frozenset[str] = field(default_factory=frozenset)
    """Columns declared `NOT NULL` (a row whose foreign key is one cannot exist without its parent)."""
    rowid_key: bool = False
    """Whether the key is declared `INTEGER PRIMARY KEY`, SQLite's rowid itself: a row inserted with a key of its
    choosing may then take a rowid below the seeded rows' largest (see `servers.core.sandbox.Sandbox.snapshot`)."""

    def encode(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Python values to what SQLite stores, refusing unknown columns."""
        unknown = set(values) - set(self.columns)
        if unknown:
            raise KeyError(f"table {self.name!r} has no column(s) {', '.join(sorted(unknown))}")
        out: dict[str, Any] = {}
        for name, value in values.items():
            if name in self.json_columns and value is not None:
                value = json.dumps(value, sort_keys=True)
            elif name in self.bool_columns and value is not None:
                value = int(bool(value))
            out[name] = value
        return out

    def decode(self, row: sqlite3.Row | Mapping[str, Any]) -> dict[str, Any]:
        """A stored row back to Python values."""
        out = dict(row)
        for name in self.json_columns:
            if out.get(name) is not None:
                out[name] = _json(out[name])
        for name in self.bool_columns:
            if out.get(name) is not None:
                out[name] = bool(out[name])
        return out

    def frozen_rows(self, stored: Iterable[Sequence[Any]]) -> dict[int, FrozenDict]:
        """Stored rows (each its values in column order, then its rowid) decoded as `decode` does, by rowid, and
        read-only all the way down: a snapshot's rows, shared by every reader of the image they come from
        (`servers.core.sandbox.Sandbox.snapshot`)."""
        columns, json_columns, bool_columns = self.columns, self.json_columns, self.bool_columns
        rows: dict[int, FrozenDict] = {}
        for values in stored:
            row = FrozenDict(zip(columns, values, strict=False))  # the rowid, last, is past the columns
            for name in json_columns:
                value = row[name]
                if value is not None:
                    _set(row, name, _frozen(_json(value)))
            for name in bool_columns:
                value = row[name]
                if value is not None:
                    _set(row, name, bool(value))
            rows[values[-1]] = row
        return rows

    def change_triggers(self, log: str = "_changes") -> str:
        """SQL creating the AFTER INSERT/UPDATE/DELETE triggers that log this table's row changes into `log`.

        An update that leaves every column as it was logs nothing.
        """

        def row(alias: str) -> str:
            pairs = ", ".join(f"{_literal(c)}, {alias}.{_ident(c)}" for c in self.columns)
            return f"json_object({pairs})"

        table, key = _ident(self.name), _ident(self.key)
        changed = " OR ".join(f"OLD.{_ident(c)} IS NOT NEW.{_ident(c)}" for c in self.columns)
        insert = f"INSERT INTO {_ident(log)} (tbl, key, op, before, after) VALUES ({_literal(self.name)}"
        return (
            f"CREATE TRIGGER IF NOT EXISTS {_ident(f'{log}_{self.name}_insert')} AFTER INSERT ON {table} BEGIN "
            f"{insert}, NEW.{key}, 'insert', NULL, {row('NEW')}); END;\n"
            f"CREATE TRIGGER IF NOT EXISTS {_ident(f'{log}_{self.name}_update')} AFTER UPDATE ON {table} "
            f"WHEN {changed} BEGIN "
            f"{insert}, NEW.{key}, 'update', {row('OLD')}, {row('NEW')}); END;\n"
            f"CREATE TRIGGER IF NOT EXISTS {_ident(f'{log}_{self.name}_delete')} AFTER DELETE ON {table} BEGIN "
            f"{insert}, OLD.{key}, 'delete', {row('OLD')}, NULL); END;\n"
        )

    def undo_schema(self) -> str:
        """SQL creating this table's undo table and the triggers that fill it: the first state of each row an
        update or a delete touches, by rowid (`INSERT OR IGNORE`: a later change keeps the first), so that
        `servers.core.sandbox.Sandbox.restore_seeded` can put every row back where and as it was. Inserts need no
        trigger: a new row's rowid is past the seeded ones, or the rowid of a row whose delete was kept.
        """
        table, undo = _ident(self.name), _ident(f"_undo_{self.name}")
        columns = ", ".join(_ident(c) for c in self.columns)
        old = ", ".join(f"OLD.{_ident(c)}" for c in self.columns)
        changed = " OR ".join(f"OLD.{_ident(c)} IS NOT NEW.{_ident(c)}" for c in self.columns)
        keep = f"INSERT OR IGNORE INTO {undo} (_rid, _existed, {columns}) VALUES (OLD.rowid, 1, {old});"
        return (
            f"CREATE TABLE IF NOT EXISTS {undo} (_rid INTEGER PRIMARY KEY, _existed INTEGER NOT NULL, {columns});\n"
            f"CREATE TRIGGER IF NOT EXISTS {_ident(f'_undo_on_{self.name}_update')} AFTER UPDATE ON {table} "
            f"WHEN {changed} OR OLD.rowid IS NOT NEW.rowid BEGIN {keep} "
            f"INSERT OR IGNORE INTO {undo} (_rid, _existed) SELECT NEW.rowid, 0 WHERE NEW.rowid IS NOT OLD.rowid; END;\n"
            f"CREATE TRIGGER IF NOT EXISTS {_ident(f'_undo_on_{self.name}_delete')} AFTER DELETE ON {table} "
            f"BEGIN {keep} END;\n"
        )


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def read_schema(conn: sqlite3.Connection) -> dict[str, Table]:
    """The app tables of a database, keyed by name, in creation order."""
    tables: dict[str, Table] = {}
    names = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        )
    ]
    for name in names:
        if name.startswith("_"):
            continue
        info = conn.execute(f'PRAGMA table_info("{name}")').fetchall()
        columns = tuple(r[1] for r in info)
        keys = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5]]
        if len(keys) != 1:
            raise ValueError(f"table {name!r} must have exactly one primary-key column, found {keys or 'none'}")
        types = {r[1]: (r[2] or "").upper() for r in info}
        foreign = conn.execute(f'PRAGMA foreign_key_list("{name}")').fetchall()  # id, seq, table, from, to, …
        references = tuple(sorted((r[3], r[2], r[4] or "") for r in foreign))
        tables[name] = Table(
            name=name,
            columns=columns,
            key=keys[0],
            json_columns=frozenset(c for c, t in types.items() if t == "JSON"),
            bool_columns=frozenset(c for c, t in types.items() if t == "BOOLEAN"),
            references=references,
            not_null=frozenset(r[1] for r in info if r[3]),
            rowid_key=types[keys[0]] == "INTEGER",
        )
    for name, table in tables.items():  # `REFERENCES t` without a column names t's primary key
        if any(not column for _, _, column in table.references):
            resolved = tuple(
                (c, t, column or (tables[t].key if t in tables else "")) for c, t, column in table.references
            )
            tables[name] = replace(table, references=resolved)
    return tables


def _refused(self: Any, *args: Any, **kwargs: Any) -> Any:
    raise TypeError(
        "a snapshot's rows are read-only (every reader of the state shares them): "
        "copy.deepcopy(row) gives a copy of your own to change"
    )


class FrozenDict(dict[str, Any]):
    """A snapshot's row, or an object in one of its JSON columns: a dict that refuses every change.

    Equal to the dict of the same items, written as one by `json`, orjson and pydantic; `dict(row)`, `row.copy()`
    and `row | other` are plain (shallow) dicts, `copy.deepcopy(row)` a plain dict all the way down, and a pickled
    one comes back read-only."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refused
    clear = pop = popitem = setdefault = update = _refused

    def __reduce__(self) -> tuple[Any, ...]:
        return FrozenDict, (dict(self),)

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {key: copy.deepcopy(value, memo) for key, value in self.items()}


class FrozenList(list[Any]):
    """A list in a snapshot row's JSON column: a list that refuses every change (see `FrozenDict`)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refused
    append = extend = insert = remove = pop = clear = sort = reverse = _refused

    def __reduce__(self) -> tuple[Any, ...]:
        return FrozenList, (list(self),)

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return [copy.deepcopy(value, memo) for value in self]


_set = dict.__setitem__
"""Sets an item of a `FrozenDict` being built (its own `__setitem__` refuses)."""

_CONTAINERS = (list, dict)

_BIG_NUMBER = re.compile(r"\d{19}")
"""A run of digits that may be an integer past 64 bits, which orjson would read as a float."""


def _json(text: str) -> Any:
    """JSON text decoded as `json.loads` decodes it: by orjson (several times faster), except text it refuses (NaN,
    lone surrogates) or where it could decode a number otherwise (an integer past 64 bits)."""
    if _BIG_NUMBER.search(text) is None:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def _frozen(value: Any) -> Any:
    """A decoded JSON value with its lists and objects made read-only, all the way down."""
    if type(value) is list:
        return FrozenList([_frozen(v) if type(v) in _CONTAINERS else v for v in value])
    if type(value) is dict:
        return FrozenDict({k: _frozen(v) if type(v) in _CONTAINERS else v for k, v in value.items()})
    return value
