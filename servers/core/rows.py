"""What an app's tools use of a sandbox: its row helpers, clock, ids, transactions and time budget.

`SandboxRows` is the base of `servers.core.sandbox.Sandbox`, which builds, resets, journals and closes the
sandbox; the methods here are the ones a tool calls on the sandbox it is given (`get`, `require`, `select`,
`insert`, `update`, `delete`, `now`, `new_id`, `checkpoint` …).

May import `servers.core.app`, `clock`, `errors` and `limits`; never the sandbox's building, the store or a transport.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from servers.core.app import App, Persona, SandboxSpec
from servers.core.clock import Clock, isoformat


class SandboxRows:
    """The part of a sandbox its app's tools use: rows of the app's tables, decoded; the sandbox's clock; fresh ids
    and numbered sequences; transactions; and the running call's time budget."""

    app: App
    db: sqlite3.Connection
    spec: SandboxSpec
    clock: Clock
    deadline: float | None
    """`budget_clock()` by which the running tool call must end (None outside a call)."""
    budget_clock: Callable[[], float]
    _ids_drawn: bool
    """Whether `new_id` was called."""

    @property
    def persona(self) -> Persona:
        """The person the agent works for."""
        return self.spec.persona

    def now(self) -> datetime:
        """The sandbox's time."""
        return self.clock.now()

    def now_iso(self) -> str:
        """The sandbox's time as ISO 8601 text."""
        return isoformat(self.clock.now())

    def over_budget(self) -> bool:
        """Whether the running call is past its time budget."""
        return self.deadline is not None and self.budget_clock() > self.deadline

    def checkpoint(self) -> None:
        """Stop the running call if it is past its time budget. The row helpers call it; tools call it too
        inside long Python loops that do not touch rows."""
        if self.over_budget():
            from servers.core.limits import CallTimeout

            raise CallTimeout("the call ran past its time budget")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Run the block in one transaction, rolled back when it raises."""
        self.db.execute("BEGIN")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def rollback(self) -> None:
        """Roll back the open transaction, if any."""
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")

    def new_id(self, prefix: str) -> str:
        """A fresh id such as `evt_3f9a0c21b7`: the same for the same episode seed and call order."""
        self._ids_drawn = True
        n = self.db.execute(
            "INSERT INTO _counters (prefix, n) VALUES (?, 1) ON CONFLICT (prefix) DO UPDATE SET n = n + 1 RETURNING n",
            (prefix,),
        ).fetchone()[0]
        digest = hashlib.blake2s(f"{self.spec.rng_seed}/{prefix}/{n}".encode(), digest_size=5).hexdigest()
        return f"{prefix}_{digest}"

    def next_number(self, counter: str) -> int:
        """The next value of a named sequence (1, 2, 3 …), for human-facing numbers such as ticket keys."""
        return int(
            self.db.execute(
                "INSERT INTO _counters (prefix, n) VALUES (?, 1) ON CONFLICT (prefix) DO UPDATE SET n = n + 1 RETURNING n",
                (counter,),
            ).fetchone()[0]
        )

    def reserve_numbers(self, counter: str, up_to: int) -> None:
        """Mark 1..`up_to` of a sequence as taken, so `next_number` continues after them."""
        self.db.execute(
            "INSERT INTO _counters (prefix, n) VALUES (?, ?) ON CONFLICT (prefix) DO UPDATE SET n = max(n, excluded.n)",
            (counter, up_to),
        )

    def get(self, table: str, key: Any) -> dict[str, Any] | None:
        """The row of `table` with key `key`, decoded, or None."""
        self.checkpoint()
        t = self.app.tables[table]
        row = self.db.execute(f'SELECT * FROM "{table}" WHERE "{t.key}" = ?', (key,)).fetchone()
        return None if row is None else t.decode(row)

    def require(self, table: str, key: Any, what: str | None = None) -> dict[str, Any]:
        """The row, or a `ToolError` naming what was not found."""
        row = self.get(table, key)
        if row is None:
            from servers.core.errors import ToolError

            raise ToolError(f"No {what or table.rstrip('s')} with {self.app.tables[table].key} {key!r}.")
        return row

    def select(
        self, table: str, where: str = "", params: tuple[Any, ...] | list[Any] = (), order: str = "rowid"
    ) -> list[dict[str, Any]]:
        """The rows of `table` matching the SQL condition `where` (with `params`), in `order`, decoded."""
        self.checkpoint()
        t = self.app.tables[table]
        sql = f'SELECT * FROM "{table}"' + (f" WHERE {where}" if where else "") + f" ORDER BY {order}"
        return [t.decode(r) for r in self.db.execute(sql, tuple(params))]

    def insert(self, table: str, values: Mapping[str, Any]) -> dict[str, Any]:
        """Insert a row; returns it as stored."""
        self.checkpoint()
        t = self.app.tables[table]
        encoded = t.encode(values)
        columns = ", ".join(f'"{c}"' for c in encoded)
        marks = ", ".join("?" for _ in encoded)
        self.db.execute(f'INSERT INTO "{table}" ({columns}) VALUES ({marks})', tuple(encoded.values()))
        return self.require(table, values[t.key]) if t.key in values else dict(values)

    def update(self, table: str, key: Any, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Change some columns of a row; returns it as stored (a `ToolError` when there is none)."""
        self.checkpoint()
        t = self.app.tables[table]
        if changes:
            encoded = t.encode(changes)
            assignments = ", ".join(f'"{c}" = ?' for c in encoded)
            self.db.execute(f'UPDATE "{table}" SET {assignments} WHERE "{t.key}" = ?', (*encoded.values(), key))
        return self.require(table, key)

    def delete(self, table: str, key: Any) -> None:
        """Delete a row, if it is there."""
        self.checkpoint()
        t = self.app.tables[table]
        self.db.execute(f'DELETE FROM "{table}" WHERE "{t.key}" = ?', (key,))
