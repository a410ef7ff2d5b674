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
from orchestrator.view import details
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
            parts.append(f"→ {fn.get('name')} {fn.get('arguments') or ''}")  # type: ignore[union-attr]  # a dict: checked on the line above
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


def page_number(value: Any) -> int:
    """A `page` query parameter as a page number from 1 (anything else: 1)."""
    text = str(value or "").strip()
    return int(text) if text.isdigit() and 0 < len(text) < 10 else 1


def _pager(page: rec.Page, href: Callable[[int], str]) -> dict[str, Any]:
    """What the pager of a long table shows: which rows of how many, and links to the other pages."""
    last = page.first + len(page.rows) - 1
    near = sorted({1, page.pages, *range(max(1, page.number - 2), min(page.pages, page.number + 2) + 1)})
    return {"page": page, "last": last, "links": [(n, href(n)) for n in near]}


def _trust_of(records: list[rec.Record]) -> dict[str, rec.Trust]:
    """The trust of the records a page shows: episodes, and repeats and suites by their summaries' seals (each seal
    is checked once, then remembered until it changes)."""
    return {r.id: rec.trust(r) for r in records}


def list_page(
    library: rec.Library,
    link: Link,
    filters: dict[str, str] | None = None,
    *,
    embedded: bool = False,
    page: int | None = 1,
) -> str:
    """The list of runs: problems found, filters, pass rates, suites and repeats, and the episodes that match (a
    page of them at a time, every one `embedded` in a report), each flagged when its verdict is not to be trusted."""
    f = {k: (filters or {}).get(k, "") for k in ("scenario", "agent", "passed", "since", "until")}
    everything = library.episodes()
    episodes = rec.filter_episodes(everything, **f)
    groups = [g for g in library.groups() if (not f["scenario"] or g.scenario in ("", f["scenario"]))]
    shown = rec.paginate(episodes, None if embedded else page)
    query = {k: v for k, v in f.items() if v}
    return ENV.get_template("list.html").render(
        **_common(library, link, embedded),
        problems=library.problems,
        f=f,
        scenarios=sorted({r.scenario for r in everything if r.scenario}),
        agents=sorted({r.agent for r in everything if r.agent}),
        rates=rec.pass_rates(episodes),
        groups=groups,
        episodes=shown.rows,
        pager=_pager(shown, lambda n: link("list", **query, page=str(n))),
        trust=_trust_of([*shown.rows, *groups]),
        records=library.records,
    )


def _run_context(record: rec.Record, link: Link | None = None, page: int | None = None) -> dict[str, Any]:
    """What a run's page shows: its trust, stages with checks, violations with their calls, changes, the timeline
    (`page` of it, or all of it when None), messages, log. A violation's call links to the timeline page it is on."""
    rows = details.timeline(record)
    shown = rec.paginate(rows, page)
    on_page = {row["anchor"]: (i // rec.PER_PAGE) + 1 for i, row in enumerate(rows) if row.get("anchor")}
    violations = []
    for v in record.data.get("violations") or []:
        if isinstance(v, dict):
            call = details.violation_call(v)
            if call and call["anchor"]:
                where = on_page.get(call["anchor"], shown.number)
                same = shown.whole or where == shown.number or link is None
                call["href"] = ("" if same else link("run", record.id, page=str(where))) + "#" + call["anchor"]  # type: ignore[misc]  # not None when not `same`
            violations.append(v | {"call": call})
    pager = _pager(shown, lambda n: link("run", record.id, page=str(n)) + "#timeline") if link else None
    return {
        "r": record,
        "trust": rec.trust(record),
        "stages": details.stages_with_checks(record),
        "violations": violations,
        "causes": {v["call"]["anchor"] for v in violations if v["call"] and v["call"]["anchor"]},
        "changes": details.changes_by_table(record),
        "timeline": shown.rows,
        "pager": pager,
        "messages": record.messages(),
        "agent_log": record.agent_log(),
    }


def run_page(
    library: rec.Library, record: rec.Record, link: Link, *, embedded: bool = False, page: int | None = 1
) -> str:
    """One episode's page (its body only when `embedded` in a report, with its whole timeline; otherwise `page`
    of the timeline, so a flooded trace renders a page at a time)."""
    template = "run_body.html" if embedded else "run.html"
    context = _run_context(record, link, None if embedded else page)
    return ENV.get_template(template).render(**_common(library, link, embedded), **context)


def group_page(
    library: rec.Library, group: rec.Record, link: Link, *, embedded: bool = False, page: int | None = 1
) -> str:
    """A suite's or a repeat's page, with its scenarios or episodes (a page of them at a time, all of them
    `embedded` in a report); episodes whose verdict is not to be trusted are flagged."""
    child_records = [library.records[c] for c in group.children if c in library.records]
    children = {c.scenario: c for c in child_records}
    for c in child_records:  # a suite's scenario folder is named by its id even when it holds a repeat
        children.setdefault(c.folder.name, c)
    number = None if embedded else page
    episodes = rec.paginate(sorted(child_records, key=lambda c: c.id), number)
    rows = [r for r in group.data.get("scenarios") or [] if isinstance(r, dict)]
    scenarios = rec.paginate(rows, number)
    shown = scenarios if group.kind == "suite" else episodes
    listed = [children[r.get("id")] for r in scenarios.rows if r.get("id") in children] + episodes.rows
    return ENV.get_template("group.html").render(
        **_common(library, link, embedded),
        g=group,
        children=children,
        child_records=episodes.rows,
        scenario_rows=scenarios.rows,
        pager=_pager(shown, lambda n: link("group", group.id, page=str(n))),
        trust=_trust_of([*listed, group]),
    )


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
    calls = [[e for e in details.timeline(r) if e.get("tool")] for r in runs]
    return ENV.get_template("compare.html").render(
        **_common(library, link, False),
        runs=runs,
        error=error,
        check_rows=check_rows,
        trust=_trust_of(runs),
        call_lists=[c[:COMPARED_CALLS] for c in calls],
        calls_left=[max(0, len(c) - COMPARED_CALLS) for c in calls],
    )


COMPARED_CALLS = 500
"""Tool calls listed per run on the compare page (a flooded trace's others are counted, not listed)."""
