"""A task's *program* (edition 3): what it asks an agent to do, apart from its wording and its organization.

The program is the reference solution's tool sequence (tool names in order, a run of calls of one tool kept once:
sharing a document with three people is one step kind), the structure of its checks and forbids (per stage, what
each check reads: a table and whether it looks at added rows, the columns it filters on, a `told` check's fact
kinds, a journal rule's kind), and how the world lives (its fault kinds, people who answer, events, the user).
Two tasks with equal programs differ only in names, values and wording; `digest` names a program in a manifest row,
so release stats can show that no train row shares a test-ood row's program.

May import: `orchestrator.generate.family` (digest).
"""

from __future__ import annotations

from typing import Any

from orchestrator.generate.family import digest


def steps(scenario: dict[str, Any]) -> list[str]:
    """The reference's tool names in order, a run of calls of the same tool kept once."""
    out: list[str] = []
    for step in scenario.get("oracle") or []:
        tool = str(step.get("tool", ""))
        if not out or out[-1] != tool:
            out.append(tool)
    return out


def _keys(value: Any) -> list[str]:
    """A mapping's keys (sorted), or a plain value as itself (`expect: none`)."""
    if isinstance(value, dict):
        return sorted(value)
    return [] if value is None else [str(value)]


def _check_kind(check: dict[str, Any]) -> str:
    if "told" in check:
        facts = sorted({key for fact in check["told"].get("facts", []) for key in fact})
        return "told:" + ",".join(facts)
    if "journal" in check:
        return "journal:" + ",".join(sorted(check["journal"]))
    if "judge" in check:
        return f"judge:{check['judge'].get('app')}.{check['judge'].get('table')}"
    where, expect = _keys(check.get("where")), _keys(check.get("expect"))
    added = ":added" if check.get("added") else ""
    change = f":{check['change']}" if check.get("change") else ""
    return f"{check.get('app')}.{check.get('table')}{added}{change}[{','.join(where)}]{{{','.join(expect)}}}"


def checks(scenario: dict[str, Any]) -> list[list[str]]:
    """Per stage, the kinds of its checks (sorted); the forbids as a last group."""
    stages = [sorted(_check_kind(c) for c in stage.get("checks", [])) for stage in scenario.get("stages") or []]
    return [*stages, sorted(_check_kind(f) for f in scenario.get("forbid") or [])]


def living(scenario: dict[str, Any]) -> list[str]:
    """How the world lives: fault kinds per app and tool, people who answer, events, the user."""
    out = []
    for app, plan in sorted((scenario.get("faults") or {}).items()):
        for rule in (plan or {}).get("rules") or []:
            out.append(f"fault:{app}__{rule.get('tool')}:{rule.get('kind', 'error')}")
    world = scenario.get("world") or {}
    out += ["people"] * bool(world.get("people")) + ["events"] * bool(world.get("events"))
    out += ["user"] * bool(world.get("user")) + ["report"] * bool(world.get("report"))
    return sorted(out)


def program(scenario: dict[str, Any], twists: list[str] | None = None) -> dict[str, Any]:
    """A manifest row's `program`: its digest (of the steps, the check structure and the living world), the step
    kinds, and the twists the generic layer added (see `twists`)."""
    shape = {"steps": steps(scenario), "checks": checks(scenario), "living": living(scenario)}
    return {"digest": digest(shape), "steps": shape["steps"], "twists": list(twists or [])}
