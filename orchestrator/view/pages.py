"""The viewer's pages as HTML strings: the list, a run, a suite or repeat, two runs side by side.

`link(kind, id)` decides where links point: URLs in the web app, anchors in a report file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from jinja2 import DictLoader, Environment, select_autoescape

from orchestrator.record import EPISODE
from orchestrator.view import records as rec
from orchestrator.view.templates import CSS, TEMPLATES

Link = Callable[..., str]


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _pretty(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def _summary(result: Any) -> str:
    """One line for a tool result: its text content, or its keys."""
    if isinstance(result, dict):
        content = result.get("content")
        if isinstance(content, list) and content and isinstance(content[0], dict) and content[0].get("text"):
            text = " ".join(str(content[0]["text"]).split())
            return text[:140] + ("…" if len(text) > 140 else "")
        return "{" + ", ".join(list(result)[:6]) + ("…" if len(result) > 6 else "") + "}"
    return _short(result, 140)


def _message_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    parts: list[str] = []
    if isinstance(content, str):
        parts.append(content)
    elif isinstance(content, list):
        for part in content:
            if isinstance(part, dict):
                if part.get("text"):
                    parts.append(str(part["text"]))
                elif part.get("type") in ("tool_use", "tool_call") or part.get("name"):
                    parts.append(f"→ {part.get('name')} {_short(part.get('input') or part.get('arguments') or {})}")
                else:
                    parts.append(_short(part))
            else:
                parts.append(str(part))
    elif content is not None:
        parts.append(_short(content))
    for call in message.get("tool_calls") or []:
        if isinstance(call, dict):
            fn = call.get("function") if isinstance(call.get("function"), dict) else call
            parts.append(f"→ {fn.get('name')} {fn.get('arguments') or ''}")
    return "\n".join(parts)


def seconds(value: Any) -> str:
    """A duration as a person reads it: `0.02 s`, `2.7 s`, `2 min 05 s`, `1 h 02 min`; `-` when not a number."""
    if not isinstance(value, int | float) or isinstance(value, bool) or value != value or value < 0:
        return "-"
    if value < 1:
        return f"{value:.2f} s"
    if value < 60:
        return f"{value:.1f} s"
    whole = round(value)
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


def count(value: Any) -> str:
    """A count written as a float (`12.0` tool calls) as a whole number; a mean (`7.5`) with one decimal."""
    if not isinstance(value, int | float) or isinstance(value, bool) or value != value:
        return "-"
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def usd(value: Any) -> str:
    """A cost in dollars: `$0.0123` (four decimals under a dollar, two above); `-` when not known."""
    if not isinstance(value, int | float) or isinstance(value, bool) or value != value:
        return "-"
    return f"${value:.4f}" if abs(value) < 1 else f"${value:,.2f}"


def when(value: Any, fallback: str = "") -> str:
    """An ISO 8601 time (`2026-03-02T09:15:42+0000`) as `2026-03-02 09:15`, in the zone it was written in;
    `fallback` when it does not read as one."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(str(value)).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return fallback


def anchor(rid: str) -> str:
    """An HTML id made of a record's id (letters, digits, - and _)."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", rid).strip("-") or "run"


def environment() -> Environment:
    """The Jinja2 environment of the pages: the templates, autoescaping, and the filters they use."""
    env = Environment(loader=DictLoader(TEMPLATES), autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters["tojson_short"] = _short
    env.filters["tojson_pretty"] = _pretty
    env.filters["summary"] = _summary
    env.filters["message_text"] = _message_text
    env.filters["seconds"] = seconds
    env.filters["count"] = count
    env.filters["usd"] = usd
    env.filters["when"] = when
    env.globals["css"] = CSS
    env.globals["anchor"] = anchor
    return env


ENV = environment()


def _common(library: rec.Library, link: Link, embedded: bool) -> dict[str, Any]:
    return {"link": link, "embedded": embedded, "roots": ", ".join(str(r) for r in library.roots)}


def list_page(
    library: rec.Library, link: Link, filters: dict[str, str] | None = None, *, embedded: bool = False
) -> str:
    """The list of runs: problems found, filters, pass rates, suites and repeats, and the episodes that match."""
    f = {k: (filters or {}).get(k, "") for k in ("scenario", "agent", "passed", "since", "until")}
    everything = library.episodes()
    episodes = rec.filter_episodes(everything, **f)
    groups = [g for g in library.groups() if (not f["scenario"] or g.scenario in ("", f["scenario"]))]
    return ENV.get_template("list.html").render(
        **_common(library, link, embedded),
        problems=library.problems,
        f=f,
        scenarios=sorted({r.scenario for r in everything if r.scenario}),
        agents=sorted({r.agent for r in everything if r.agent}),
        rates=rec.pass_rates(episodes),
        groups=groups,
        episodes=episodes,
        records=library.records,
    )


def run_context(record: rec.Record) -> dict[str, Any]:
    """What a run's page shows: stages with checks, violations with their calls, changes, timeline, messages, log."""
    violations = []
    for v in record.data.get("violations") or []:
        if isinstance(v, dict):
            violations.append(v | {"call": rec.violation_call(v)})
    return {
        "r": record,
        "stages": rec.stages_with_checks(record),
        "violations": violations,
        "causes": {v["call"]["anchor"] for v in violations if v["call"] and v["call"]["anchor"]},
        "changes": rec.changes_by_table(record),
        "timeline": rec.timeline(record),
        "messages": record.messages(),
        "agent_log": record.agent_log(),
    }


def run_page(library: rec.Library, record: rec.Record, link: Link, *, embedded: bool = False) -> str:
    """One episode's page (its body only when `embedded` in a report)."""
    template = "run_body.html" if embedded else "run.html"
    return ENV.get_template(template).render(**_common(library, link, embedded), **run_context(record))


def group_page(library: rec.Library, group: rec.Record, link: Link, *, embedded: bool = False) -> str:
    """A suite's or a repeat's page, with its scenarios or episodes."""
    child_records = [library.records[c] for c in group.children if c in library.records]
    children = {c.scenario: c for c in child_records}
    for c in child_records:  # a suite's scenario folder is named by its id even when it holds a repeat
        children.setdefault(c.folder.name, c)
    return ENV.get_template("group.html").render(
        **_common(library, link, embedded), g=group, children=children,
        child_records=sorted(child_records, key=lambda c: c.id),
    )  # fmt: skip


def compare_page(library: rec.Library, ids: list[str], link: Link) -> str:
    """Episodes side by side: their checks row by row and their tool calls (an error unless two are picked)."""
    runs = [library.records[i] for i in ids if i in library.records and library.records[i].kind == EPISODE]
    error = None
    if len(runs) < 2:
        error = "Pick two runs (episodes) to compare: check two boxes on the list of runs."
    check_rows: list[dict[str, Any]] = []
    if not error:
        order: dict[str, dict[str, Any]] = {}
        for r in runs:
            for c in r.data.get("checks") or []:
                if isinstance(c, dict):
                    order.setdefault(
                        str(c.get("id") or c.get("description")),
                        {"stage": c.get("stage"), "description": c.get("description")},
                    )
        for cid, row in order.items():
            cells = []
            for r in runs:
                cells.append(
                    next(
                        (
                            c
                            for c in r.data.get("checks") or []
                            if isinstance(c, dict) and str(c.get("id") or c.get("description")) == cid
                        ),
                        None,
                    )
                )
            check_rows.append(row | {"cells": cells})
    call_lists = [[e for e in rec.timeline(r) if e.get("tool")] for r in runs]
    return ENV.get_template("compare.html").render(
        **_common(library, link, False), runs=runs, error=error, check_rows=check_rows, call_lists=call_lists
    )
