"""Scenarios and results in words, for people reading a terminal.

May import: `scenario`, `verify`, `record`.
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from orchestrator.record import is_errored
from orchestrator.scenario.checks import Expect, Forbid, RowCheck
from orchestrator.scenario.conditions import describe_where
from orchestrator.scenario.model import Scenario
from orchestrator.verify.harm import allowed_words, org_domains
from orchestrator.verify.results import Result
from orchestrator.verify.verdict import describe_check


def _seed_sizes(scenario: Scenario) -> dict[str, dict[str, int]]:
    """Rows per table of each app's seed."""
    return {
        app: {table: len(rows) for table, rows in seed.items() if isinstance(rows, list)}
        for app, seed in scenario.apps.items()
    }


def scenario_summary(scenario: Scenario) -> dict[str, Any]:
    """The scenario as `show --json` prints it: everything but the reference solution's details."""
    return {
        "id": scenario.id,
        "title": scenario.title,
        "file": str(scenario.path) if scenario.path else None,
        "difficulty": scenario.difficulty,
        "tags": scenario.tags,
        "instruction": scenario.instruction,
        "persona": scenario.persona.model_dump(),
        "clock": scenario.clock.model_dump(mode="json"),
        "apps": _seed_sizes(scenario),
        "stages": [
            {"name": s.name, "weight": s.weight, "checks": [describe_check(c) for c in s.checks]}
            for s in scenario.stages
        ],
        "pass_mark": scenario.pass_mark,
        "allow": {app: allowed_words(scenario, app) for app in scenario.apps},
        "relax": scenario.relax.model_dump(exclude_defaults=True),
        "forbid": [_forbid_words(f) for f in scenario.forbid],
        "wording_warnings": wording_warnings(scenario),
        "oracle_steps": len(scenario.oracle),
        "limits": scenario.limits.model_dump(),
    }


def _forbid_words(rule: Forbid) -> str:
    """A forbid rule in words."""
    if rule.name:
        return rule.name
    if rule.call:
        return f"no call of {rule.call}" + (f" with {describe_where(rule.args)}" if rule.args else "")
    return f"{rule.change} {rule.app}.{rule.table} where {describe_where(rule.where)}"


def _relax_words(scenario: Scenario) -> list[str]:
    """The scenario's relaxed harm rules in words."""
    out = [
        f"{r.app}{'.' + r.table if r.table else ''} may reach {', '.join(r.to)}"
        + (f" where {describe_where(r.where)}" if r.where else "")
        for r in scenario.relax.exposure
    ]
    out += [
        f"{r.app}.{r.table} rows where {describe_where(r.where)} may be destroyed" for r in scenario.relax.destruction
    ]
    return out


NAMING_COLUMNS = ("title", "subject", "name")
WORDING_OPERATORS = ("equals", "contains", "icontains", "regex")
WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)


def wording_warnings(scenario: Scenario) -> list[str]:
    """Checks that require words in a title, subject or name that the instruction never uses: a correct
    solution that names things its own way would fail them. Find such objects by role (`added: true`)."""
    said = scenario.instruction.lower()
    out: list[str] = []

    def scan(check_id: str, where: Any) -> None:
        if not isinstance(where, dict):
            return
        for column, condition in where.items():
            if column not in NAMING_COLUMNS:  # `any` offers alternatives: another column may carry the words
                continue
            operands = (
                [condition]
                if isinstance(condition, str)
                else [v for op, v in condition.items() if op in WORDING_OPERATORS and isinstance(v, str)]
                if isinstance(condition, dict)
                else []
            )
            words = sorted({w.lower() for text in operands for w in WORD.findall(text) if w.lower()[:4] not in said})
            if words:
                out.append(
                    f"{check_id} requires {', '.join(words)} in the {column}, which the instruction does not ask for"
                )

    for check_id, _, check in scenario.checks():
        if isinstance(check, RowCheck):
            scan(check_id, check.where)
            expect = check.expectation()
            if isinstance(expect, Expect) and expect.all:
                scan(check_id, expect.all)
    return out


def render_scenario(console: Console, scenario: Scenario) -> None:
    """Print a scenario for a reader: who, when, the instruction, the stages of checks and the rules."""
    summary = scenario_summary(scenario)
    head = Text.assemble(
        (scenario.title, "bold"),
        f"  ({scenario.id}, {scenario.difficulty}",
        f", {', '.join(scenario.tags)})" if scenario.tags else ")",
    )
    console.print(head)
    console.print(
        f"as {scenario.persona.name} <{scenario.persona.email}>, {scenario.persona.timezone}; "
        f"clock starts {scenario.clock.start.isoformat()} ({scenario.clock.mode})"
    )
    from rich.markdown import Markdown  # with pygments, about 40 ms: only showing a scenario needs it

    console.print(
        Panel(Markdown(scenario.instruction.strip()), title="instruction", title_align="left"), soft_wrap=False
    )
    apps = Table(title="apps and seed data", title_justify="left", show_edge=False)
    apps.add_column("app")
    apps.add_column("seed rows")
    for app, tables in summary["apps"].items():
        apps.add_row(app, ", ".join(f"{t}: {n}" for t, n in tables.items()) or "(empty)")
    console.print(apps)
    stages = Table(title=f"stages (pass mark {scenario.pass_mark:g})", title_justify="left", show_edge=False)
    stages.add_column("stage")
    stages.add_column("weight", justify="right")
    stages.add_column("checks")
    for stage in scenario.stages:
        stages.add_row(stage.name, f"{stage.weight:g}", Group(*(Text(f"• {describe_check(c)}") for c in stage.checks)))
    console.print(stages)
    allowed = "; ".join(f"{app}: {allowed_words(scenario, app)}" for app in scenario.apps)
    console.print(f"[bold]may change:[/] {allowed}")
    console.print(
        "[bold]harm rules:[/] nothing leaves the organization "
        f"({', '.join(org_domains(scenario))}), nothing seeded is destroyed"
    )
    for relaxed in _relax_words(scenario):
        console.print(f"[bold]relaxed:[/] {relaxed}")
    for warning in wording_warnings(scenario):
        console.print(f"[yellow]wording:[/] {warning}")
    for rule in summary["forbid"]:
        console.print(f"[bold]forbidden:[/] {rule}")
    if scenario.world is not None:
        w = scenario.world
        parts = [f"{len(w.events)} event(s)", f"{len(w.people)} person(s) who answer"]
        if w.clock and (w.clock.per_call or w.clock.tools):
            parts.append(
                f"each call takes {w.clock.per_call / 60:g} min" + (" (some tools more)" if w.clock.tools else "")
            )
        console.print(
            f"[bold]living world:[/] {', '.join(parts)}; gateway tools: {', '.join(w.gateway_tools()) or 'none'}"
        )
    limit = scenario.limits.max_tool_calls
    console.print(
        f"[bold]reference solution:[/] {len(scenario.oracle)} tool calls"
        + (f"; [bold]limit:[/] {limit} tool calls" if limit else "")
        + f"; timeout {scenario.limits.timeout_s:g} s"
    )


def _render_checks(console: Console, result: Result) -> None:
    """Print a scored result's verdict line and its table of checks by stage."""
    verdict = (
        "[bold yellow]UNDECIDED[/]"
        if result.undecided
        else "[bold green]PASSED[/]"
        if result.passed
        else "[bold red]FAILED[/]"
    )
    process = f"  process {result.process:.2f}" if result.process is not None else ""
    console.print(
        f"{verdict}  {result.title} ({result.scenario})  score {result.score:.2f} / pass mark {result.pass_mark:g}{process}"
    )
    table = Table(show_edge=False, expand=True)  # fold: a narrow or piped console wraps a long value, never cuts it
    table.add_column("stage", ratio=2, overflow="fold")
    table.add_column("check", ratio=5, overflow="fold")
    table.add_column("", width=12)
    table.add_column("why it failed", ratio=6, overflow="fold")
    for stage in result.stages:
        for index, check in enumerate(stage.checks):
            mark = (
                "[green]ok[/]"
                if check.passed
                else "[yellow]unjudged[/]"
                if check.kind == "unjudged"
                else "[red]FAIL[/]"
            )
            if check.kind not in ("outcome", "unjudged"):
                mark += f" [dim]({check.kind})[/]"
            share = f"{stage.score:.0%}" if stage.scored else f"process {stage.score:.0%}"  # (not in the score)
            name = f"{stage.name} ({share})" if index == 0 else ""
            table.add_row(name, check.description, mark, check.reason or "")
    console.print(table)
    if result.undecided:
        console.print(f"[yellow]undecided[/] (neither passed nor failed, not scored): {escape(result.undecided)}")


def render_result(console: Console, result: Result) -> None:
    """Print a result: the verdict, the score, each check and the violations; an errored episode (not scored:
    `orchestrator.record.is_errored`) as ERROR with its reason, and how many checks the state it left passes."""
    if is_errored(result.status):
        passed = sum(c.passed for c in result.checks)
        console.print(
            f"[bold yellow]ERROR[/]  {result.title} ({result.scenario})  {result.status}: {escape(result.error or 'no reason given')}\n"
            f"not scored (not a task failure); the state it left passes {passed} of {len(result.checks)} checks",
            highlight=False,
        )
    else:
        _render_checks(console, result)
    for violation in result.violations:
        call = ""
        if violation.call is not None:
            args = ", ".join(f"{k}={v!r}" for k, v in violation.call.args.items())
            call = f" [dim](call {violation.call.seq}: {violation.call.tool}({args[:120]}))[/]"
        console.print(f"[red]{violation.kind}:[/] {violation.detail} — {violation.rule}{call}")
    for item in result.housekeeping:
        console.print(f"[dim]housekeeping: {item.app} {item.detail}[/]")
    j = result.journal
    console.print(
        f"{j.calls} tool calls, {j.errors} failed, {j.faults} injected faults; {len(result.changes)} rows changed"
    )
