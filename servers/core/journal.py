"""A sandbox's journal: every tool call (and world event) in order, with the row changes each made.

The journal lives in the sandbox's own database: `_journal` holds one row per call, `_changes` the rows the app's
tables gained, changed or lost (written by triggers, see `servers.core.images`), each tagged with the call that
made it once the call is recorded. `Sandbox.record`, `Sandbox.journal` and `Sandbox.hide_recent_changes` are these
functions on the sandbox's connection.

May import `servers.core.app` (for the app's tables), nothing else of the core.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from servers.core.app import App

JOURNAL_JSON = ("arguments", "result", "fault")
"""Journal columns stored as JSON text."""


def record(
    db: sqlite3.Connection,
    *,
    clock: str,
    tool: str,
    arguments: Mapping[str, Any],
    result: Any,
    error: str | None,
    is_error: bool,
    latency_ms: float,
    wall: datetime,
    fault: Mapping[str, Any] | None = None,
) -> int:
    """Journal a call made at sandbox time `clock`; the row changes logged since the last call become this call's
    (dropped when it failed: it was rolled back). Returns the call's position."""
    cursor = db.execute(
        "INSERT INTO _journal (clock, wall, tool, arguments, result, error, is_error, latency_ms, fault)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            clock,
            wall.isoformat(
                timespec="microseconds"
            ),  # microseconds: calls to two apps in one millisecond keep their order
            tool,
            json.dumps(arguments, default=str),
            None if result is None else json.dumps(result, default=str),
            error,
            int(is_error),
            round(latency_ms, 3),
            None if fault is None else json.dumps(fault),
        ),
    )
    seq = int(cursor.lastrowid or 0)
    # The triggers logged this call's row changes without a call; they are this call's.
    # A call whose result is an error was rolled back and changed nothing.
    if is_error:
        db.execute("DELETE FROM _changes WHERE call IS NULL")
    else:
        db.execute("UPDATE _changes SET call = ? WHERE call IS NULL", (seq,))
    return seq


def entries(db: sqlite3.Connection, app: App, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
    """The journal after position `after` (at most `limit` entries), each with the row changes it made."""
    rows = db.execute(
        "SELECT * FROM _journal WHERE seq > ? ORDER BY seq LIMIT ?", (after, -1 if limit is None else limit)
    )
    out = [_entry(row) for row in rows]
    if out:
        by_seq = {entry["seq"]: entry["changes"] for entry in out}
        for change in db.execute(
            "SELECT call, tbl, key, op, before, after FROM _changes WHERE call BETWEEN ? AND ? ORDER BY id",
            (out[0]["seq"], out[-1]["seq"]),
        ):
            if change["call"] in by_seq:
                by_seq[change["call"]].append(decode_change(app, change))
    return out


def _entry(row: sqlite3.Row) -> dict[str, Any]:
    """A `_journal` row as a journal entry: JSON columns decoded, its changes still to be filled in."""
    entry = dict(row)
    for key in JOURNAL_JSON:
        if entry[key] is not None:
            entry[key] = json.loads(entry[key])
    entry["is_error"] = bool(entry["is_error"])
    entry["changes"] = []
    if (
        entry["tool"] == ""
        and not entry["is_error"]
        and isinstance(entry["arguments"], dict)
        and "event" in entry["arguments"]
    ):
        entry["world"] = entry["arguments"]["event"]  # a world event's changes (servers.core.world), not a call
    return entry


def decode_change(app: App, change: sqlite3.Row) -> dict[str, Any]:
    """A `_changes` row as a journal entry shows it: rows decoded like snapshot rows."""
    table = app.tables[change["tbl"]]
    return {
        "table": change["tbl"],
        "key": change["key"],
        "op": change["op"],
        "before": None if change["before"] is None else table.decode(json.loads(change["before"])),
        "after": None if change["after"] is None else table.decode(json.loads(change["after"])),
    }


def hide_recent_changes(db: sqlite3.Connection, app: App, now: datetime, seconds: float) -> int:
    """Undo, inside the running call's transaction, the row changes of calls made less than `seconds` ago
    (in sandbox time, `now` being the sandbox's, and in real time), so a read sees the state as it was; the
    caller rolls the transaction back afterwards. Returns how many row changes were hidden."""
    recent = _recent_calls(db, now, seconds)
    if not recent:
        return 0
    marks = ", ".join("?" for _ in recent)
    changes = db.execute(
        f"SELECT tbl, key, op, before FROM _changes WHERE call IN ({marks}) ORDER BY id DESC", recent
    ).fetchall()
    for change in changes:
        _undo(db, app, change)
    return len(changes)


def _recent_calls(db: sqlite3.Connection, now: datetime, seconds: float) -> list[int]:
    """The positions of the calls that changed rows less than `seconds` ago, in sandbox time and in real time."""
    now_wall = datetime.now(UTC)
    recent: list[int] = []
    for row in db.execute(
        "SELECT seq, clock, wall FROM _journal WHERE seq IN (SELECT DISTINCT call FROM _changes) ORDER BY seq DESC"
    ):
        clock_age = (now - datetime.fromisoformat(row["clock"])).total_seconds()
        wall_age = (now_wall - datetime.fromisoformat(row["wall"])).total_seconds()
        if clock_age >= seconds or wall_age >= seconds:
            break
        recent.append(row["seq"])
    return recent


def _undo(db: sqlite3.Connection, app: App, change: sqlite3.Row) -> None:
    """Put one changed row back as it was before the change."""
    table = app.tables[change["tbl"]]
    where = f'"{table.key}" = ?'
    if change["op"] == "insert":
        db.execute(f'DELETE FROM "{change["tbl"]}" WHERE {where}', (change["key"],))
        return
    before = json.loads(change["before"])
    columns = ", ".join(f'"{c}"' for c in before)
    if change["op"] == "update":
        assignments = ", ".join(f'"{c}" = ?' for c in before)
        db.execute(f'UPDATE "{change["tbl"]}" SET {assignments} WHERE {where}', (*before.values(), change["key"]))
    else:
        marks = ", ".join("?" for _ in before)
        db.execute(f'INSERT INTO "{change["tbl"]}" ({columns}) VALUES ({marks})', tuple(before.values()))


def calls_so_far(db: sqlite3.Connection, tool: str) -> int:
    """How many calls of `tool` the journal holds."""
    return int(db.execute("SELECT count(*) FROM _journal WHERE tool = ?", (tool,)).fetchone()[0])
