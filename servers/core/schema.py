"""What an app's tables look like, read back from its SQL.

An app declares its tables as plain `CREATE TABLE` statements. Two declared
column types carry meaning beyond SQLite's: `JSON` columns hold lists or
objects (encoded on write, decoded in rows and snapshots) and `BOOLEAN`
columns read back as `True`/`False`. Tables whose names start with `_` are
the core's own (journal, metadata) and never appear in snapshots.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    key: str
    json_columns: frozenset[str] = field(default_factory=frozenset)
    bool_columns: frozenset[str] = field(default_factory=frozenset)

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
                out[name] = json.loads(out[name])
        for name in self.bool_columns:
            if out.get(name) is not None:
                out[name] = bool(out[name])
        return out


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
        tables[name] = Table(
            name=name,
            columns=columns,
            key=keys[0],
            json_columns=frozenset(c for c, t in types.items() if t == "JSON"),
            bool_columns=frozenset(c for c, t in types.items() if t == "BOOLEAN"),
        )
    return tables
