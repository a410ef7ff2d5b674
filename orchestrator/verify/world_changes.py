"""The world's changes in a verdict: what events did is the world's, never the agent's harm or credit.

An app journals a world event's row changes under an entry with `world: <event>`
(servers.core.world); the gateway's own tools (`world__report`, `world__ask_user`,
`world__wait`) come as entries marked `gateway`. The verdict then:

- judges the agent against a *baseline*: the seeded state with every world
  change laid over it (rows the world added, columns it changed, rows it
  removed). A check that holds in the baseline earns nothing; a row the world
  added is not the agent's; a diff is taken from the baseline, so the world's
  changes are never collateral damage, and harm rules look only at the
  agent's calls;
- keeps the gateway's entries for journal checks that name those tools.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

Snapshot = Mapping[str, list[dict[str, Any]]]


def split(journal: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """(the agent's calls to apps, world events, the gateway's own tool calls)."""
    calls, world, own = [], [], []
    for entry in journal:
        if entry.get("gateway"):
            own.append(entry)
        elif entry.get("world") and not entry.get("tool"):
            world.append(entry)
        else:
            calls.append(entry)
    return calls, world, own


def baseline(
    seeded: Mapping[str, Snapshot], world: list[dict[str, Any]], keys: Mapping[tuple[str, str], str]
) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """The seeded state with the world's changes laid over it, in order; rows the world changed that are not
    there (the agent's own, or removed) are left alone. Each table is a list of its own; a row is copied only when a
    change is laid over it (the others are the seeded rows themselves, read-only)."""
    out = {app: {table: list(rows) for table, rows in tables.items()} for app, tables in seeded.items()}
    for entry in world:
        app = entry.get("app") or ""
        tables = out.setdefault(app, {})
        for change in entry.get("changes") or []:
            table, op = change["table"], change["op"]
            rows = tables.setdefault(table, [])
            key = keys.get((app, table), "id")
            index = next((i for i, r in enumerate(rows) if r.get(key) == change["key"]), None)
            if op == "insert":
                if index is None and change.get("after") is not None:
                    rows.append(dict(change["after"]))
            elif op == "delete":
                if index is not None:
                    rows.pop(index)
            elif index is not None and change.get("after") is not None:
                before, after = change.get("before") or {}, change["after"]
                row = rows[index] = dict(rows[index])
                for column, value in after.items():
                    if before.get(column) != value:
                        row[column] = _merge(row.get(column), before.get(column), value)
    return out


IDENTITY = ("email", "id", "key", "name")
"""What names an item of a list column (an attendee, a share) so a world change to one item is laid over
the baseline's list without carrying the agent's changes to the others along."""


def _identity(item: Any) -> Any:
    if isinstance(item, Mapping):
        for name in IDENTITY:
            if item.get(name) not in (None, ""):
                return (name, str(item[name]).lower())
    return ("item", repr(item))


def _merge(current: Any, before: Any, after: Any) -> Any:
    """A column the world changed from `before` to `after`, laid over the baseline's `current` value. When the
    world saw the baseline's value, its result stands. When the agent had changed the column first (the world
    answered on top of the agent's change), only the world's own delta is laid over: in a list, the items the
    world changed, added or removed; the agent's changes to other items stay visible in the diff (an attendee the
    agent removed is not put back into the baseline by Sam's answer on the same row)."""
    if current == before or not (isinstance(current, list) and isinstance(before, list) and isinstance(after, list)):
        return after
    was = {_identity(i): i for i in before}
    now = {_identity(i): i for i in after}
    out = list(current)
    for ident, item in now.items():
        if was.get(ident) == item:
            continue
        at = next((n for n, i in enumerate(out) if _identity(i) == ident), None)
        if at is not None:
            out[at] = item
        elif ident not in was:
            out.append(item)
    gone = set(was) - set(now)
    return [i for i in out if _identity(i) not in gone]


def clock_orders(scenario: Any) -> bool:
    """Whether the calls' sandbox times alone order them: a frozen clock that every call moves on (a living world
    whose clock steps are all positive), so each call is journaled at a later time than the one before."""
    world = getattr(scenario, "world", None)
    steps = getattr(world, "clock", None)
    return bool(
        steps is not None
        and getattr(scenario.clock, "mode", None) == "frozen"
        and steps.per_call > 0
        and all(v > 0 for v in steps.tools.values())
    )


def in_call_order(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The agent's calls in the order they were made, by the sandbox time each carries (wall times of a
    millisecond put a mail read and the calendar change right after it in either order); as given when some
    entry has no readable time."""
    try:
        times = [datetime.fromisoformat(str(e["clock"])) for e in calls]
    except (KeyError, ValueError):
        return calls
    if any(t.tzinfo is None for t in times):
        return calls
    return [e for _, _, e in sorted(zip(times, range(len(calls)), calls, strict=True), key=lambda x: (x[0], x[1]))]


def with_gateway(journal: list[dict[str, Any]], own: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The agent's calls and the gateway's own tool calls, in the order they happened. A gateway entry's
    `position` (per app, the calls forwarded to it before) places it exactly: before a call of app A when it
    had seen no more of A's calls than came before that call; without one, wall time places it."""
    if not own:
        return journal
    own = sorted(own, key=lambda e: int(e.get("seq") or 0))
    if not all(isinstance(e.get("position"), Mapping) for e in own):
        return sorted([*journal, *own], key=lambda e: str(e.get("wall") or ""))
    out: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    waiting = list(own)
    for entry in journal:
        app = str(entry.get("app") or "")
        while waiting and int(waiting[0]["position"].get(app, 0)) <= seen.get(app, 0):
            out.append(waiting.pop(0))
        out.append(entry)
        seen[app] = seen.get(app, 0) + 1
    return out + waiting
