"""An episode's details as its page shows them: the timeline of its calls, the call behind each violation, its
changes by table and its stages with their checks. Every field of the record is optional.

May import: `orchestrator.view.records` (the record being shown), besides the standard library.
"""

from __future__ import annotations

from typing import Any

from orchestrator.view.records import Record


def timeline(record: Record) -> list[dict[str, Any]]:
    """The trace as rows: each gateway request, with the app's journal entry of a tool call attached (its fault,
    its own latency, its sequence number); journal entries no request matches appear on their own."""
    trace = record.trace()
    journal: dict[str, list[dict[str, Any]]] = {}
    for entry in trace:
        source = str(entry.get("source") or "")
        if source.startswith("app:") and entry.get("tool"):
            journal.setdefault(str(entry["tool"]), []).append(entry)
    used: set[int] = set()
    rows: list[dict[str, Any]] = []
    for entry in trace:
        source = str(entry.get("source") or "")
        if source.startswith("app:"):
            continue
        params = found if isinstance(found := entry.get("params"), dict) else {}
        row = {
            "kind": "request",
            "method": entry.get("method"),
            "wall": entry.get("wall"),
            "latency_ms": entry.get("latency_ms"),
            "error": entry.get("error"),
            "is_error": bool(entry.get("is_error")),
            "tool": None,
            "arguments": None,
            "result": entry.get("result"),
            "fault": None,
            "app": None,
            "seq": None,
            "anchor": None,
        }
        if entry.get("method") == "tools/call":
            row["tool"] = params.get("name")
            row["arguments"] = params.get("arguments") or {}
            for candidate in journal.get(str(row["tool"]), []):
                if id(candidate) not in used:
                    used.add(id(candidate))
                    _attach(row, candidate)
                    break
        else:
            row["arguments"] = params or None
        rows.append(row)
    for entries in journal.values():
        for entry in entries:
            if id(entry) not in used:
                row = {
                    "kind": "journal",
                    "method": "tools/call",
                    "wall": entry.get("wall"),
                    "latency_ms": entry.get("latency_ms"),
                    "error": entry.get("error"),
                    "is_error": bool(entry.get("is_error") or entry.get("error")),
                    "tool": entry.get("tool"),
                    "arguments": entry.get("arguments"),
                    "result": entry.get("result"),
                }
                _attach(row, entry)
                rows.append(row)
    rows.sort(key=lambda r: str(r.get("wall") or ""))
    for number, row in enumerate(rows, 1):
        row["n"] = number
    return rows


def _attach(row: dict[str, Any], entry: dict[str, Any]) -> None:
    app = str(entry.get("app") or str(entry.get("source", "")).removeprefix("app:"))
    row["app"] = app
    row["seq"] = entry.get("seq")
    row["fault"] = entry.get("fault")
    row["app_latency_ms"] = entry.get("latency_ms")
    row["anchor"] = _call_anchor(app, entry.get("seq"))
    if entry.get("error") and not row.get("error"):
        row["error"] = entry.get("error")
        row["is_error"] = True


def _call_anchor(app: str | None, seq: Any) -> str | None:
    """The HTML anchor of an app's call number `seq` on the run page (None without both)."""
    return f"call-{app}-{seq}" if app and seq is not None else None


def violation_call(violation: dict[str, Any]) -> dict[str, Any] | None:
    """The call that caused a violation (`call: {seq, tool, args}`), with the anchor of its timeline row."""
    call = violation.get("call")
    if not isinstance(call, dict):
        return None
    tool = str(call.get("tool") or "")
    app = violation.get("app") or (tool.split("__", 1)[0] if "__" in tool else None)
    return {
        "tool": tool,
        "seq": call.get("seq"),
        "args": call.get("args") or call.get("arguments") or {},
        "anchor": _call_anchor(app, call.get("seq")),
    }


def changes_by_table(record: Record) -> list[dict[str, Any]]:
    """`changes` grouped per app and table; each row with its fields seeded and final, the changed ones marked
    (every field of an added or removed row)."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for change in record.data.get("changes") or []:
        if not isinstance(change, dict):
            continue
        kind = change.get("kind")
        before = old if isinstance(old := change.get("before"), dict) else {}
        after = new if isinstance(new := change.get("after"), dict) else {}
        changed = set(change.get("fields") or []) or {k for k in {*before, *after} if before.get(k) != after.get(k)}
        fields = [
            {
                "name": n,
                "before": before.get(n, ""),
                "after": after.get(n, ""),
                "changed": kind != "changed" or n in changed,
            }
            for n in dict.fromkeys([*before, *after])
        ]
        groups.setdefault((str(change.get("app")), str(change.get("table"))), []).append(
            {"key": change.get("key"), "kind": kind, "allowed": change.get("allowed", True), "fields": fields}
        )
    return [{"app": app, "table": table, "rows": rows} for (app, table), rows in groups.items()]


def stages_with_checks(record: Record) -> list[dict[str, Any]]:
    """Stages with their checks; checks found only in `checks` (or only in stages) are not lost."""
    stages = [s for s in record.data.get("stages") or [] if isinstance(s, dict)]
    if stages and any(s.get("checks") for s in stages):
        return stages
    checks = [c for c in record.data.get("checks") or [] if isinstance(c, dict)]
    by_stage: dict[str, list[dict[str, Any]]] = {}
    for check in checks:
        by_stage.setdefault(str(check.get("stage") or ""), []).append(check)
    if stages:
        return [s | {"checks": by_stage.get(str(s.get("name")), [])} for s in stages]
    return [{"name": name, "checks": items} for name, items in by_stage.items()]
