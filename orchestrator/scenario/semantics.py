"""The load-time checks of a scenario against the apps it names: apps, tables, columns, tools and saved values
that exist, conditions that parse, seeds the apps accept. `orchestrator.scenario.model.load` reports what they find
with the file's lines.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from orchestrator.scenario import condition_checks
from orchestrator.scenario.checks import AllowRule, Expect, JournalCheck, JudgeCheck, RowCheck, TableAllow, ToldCheck
from orchestrator.scenario.worldspec import GATEWAY_APP
from orchestrator.scenario.worldspec import problems as world_problems
from orchestrator.scenario.yamlpaths import Path_
from servers import registry
from servers.core import App, SeedError
from servers.core.sandbox import check_seed

if TYPE_CHECKING:
    from orchestrator.scenario.model import OracleStep, Scenario

GATEWAY_SEPARATOR = "__"
SAVED_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\}")


def app_of(tool: str) -> tuple[str, str]:
    """(app, tool) of a gateway tool name `app__tool`; ("", name) for a name without an app."""
    app, sep, name = tool.partition(GATEWAY_SEPARATOR)
    return (app, name) if sep else ("", tool)


def semantic_problems(s: Scenario) -> list[tuple[Path_, str]]:
    """What the models cannot see: apps, tables, columns, tools and saved values that do not exist."""
    found = _Semantics(s)
    found.stages()
    found.forbidden()
    found.allowed()
    found.relaxed()
    found.faults()
    found.world()
    found.solutions()
    return found.out


class _Semantics:
    """The load-time checks of one scenario against the apps it names; each method adds its problems to `out`."""

    def __init__(self, s: Scenario) -> None:
        self.s = s
        self.out: list[tuple[Path_, str]] = []
        self.apps: dict[str, App] = {}
        known = registry.available()
        for name in s.apps:
            if name not in known:
                self.out.append((("apps", name), f"unknown app {name!r}; apps are: {', '.join(sorted(known))}"))
                continue
            self.apps[name] = registry.load(name)
            try:
                check_seed(self.apps[name], s.apps[name], persona=s.persona, clock=s.clock)
            except SeedError as exc:
                for p in exc.problems:
                    self.out.append((("apps", name, *(p.parts or [])), f"{name} seed: {p.message}"))

    # -- what names resolve to --

    def columns(self, app: str, table: str) -> Mapping[str, Any] | None:
        if app not in self.apps or table not in self.apps[app].tables:
            return None
        return dict.fromkeys(self.apps[app].tables[table].columns)

    def table_problem(self, at: Path_, app: str, table: str) -> bool:
        """Reports an app or table that does not exist; True when the rows cannot be checked further."""
        if app not in self.s.apps:
            self.out.append(((*at, "app"), f"app {app!r} is not in this scenario's apps ({', '.join(self.s.apps)})"))
            return True
        if app in self.apps and table not in self.apps[app].tables:
            tables = ", ".join(self.apps[app].tables)
            self.out.append(((*at, "table"), f"app {app!r} has no table {table!r}; tables are: {tables}"))
            return True
        return app not in self.apps

    def where_problems(self, at: Path_, app: str, table: str, where: dict[str, Any]) -> None:
        def scoped(other_app: str, other_table: str) -> Mapping[str, Any] | None:
            return self.columns(other_app or app, other_table)

        for p in condition_checks.check_where(where, at, self.columns(app, table), scoped):
            self.out.append((p.path, p.message))

    def tool_problem(self, at: Path_, spec: str, alternatives: bool = True) -> None:
        s = self.s
        for tool in spec.split("|") if alternatives else [spec]:
            app, name = app_of(tool)
            if app == GATEWAY_APP and s.world is not None and tool in s.world.gateway_tools():
                continue  # a tool the gateway itself offers in this scenario
            if not app or app not in s.apps:
                self.out.append(
                    (
                        at,
                        f"tool {tool!r} must be named app{GATEWAY_SEPARATOR}tool with an app of this scenario ({', '.join(s.apps)})",
                    )
                )
            elif app in self.apps and name not in self.apps[app].tools.tools:
                tools = ", ".join(sorted(self.apps[app].tools.tools))
                self.out.append((at, f"app {app!r} has no tool {name!r}; tools are: {tools}"))

    # -- the parts of a scenario --

    def stages(self) -> None:
        for s_index, stage in enumerate(self.s.stages):
            for c_index, check in enumerate(stage.checks):
                at: Path_ = ("stages", s_index, "checks", c_index)
                if isinstance(check, JudgeCheck):
                    self.judge_check(at, check)
                elif isinstance(check, RowCheck):
                    self.row_check(at, check)
                elif isinstance(check, ToldCheck):
                    self.told_check(at, check)
                else:
                    self.journal_check(at, check)

    def judge_check(self, at: Path_, check: JudgeCheck) -> None:
        spec = check.judge
        if not self.table_problem((*at, "judge"), spec.app, spec.table):
            self.where_problems((*at, "judge", "where"), spec.app, spec.table, spec.where)
            if spec.app in self.apps and spec.field not in self.apps[spec.app].tables[spec.table].columns:
                self.out.append(((*at, "judge", "field"), f"unknown column {spec.field!r} in {spec.app}.{spec.table}"))

    def told_check(self, at: Path_, check: ToldCheck) -> None:
        spec, here = check.told, (*at, "told")
        if self.table_problem(here, spec.app, spec.table):
            return
        scoped = lambda app, table: self.columns(app or spec.app, table)  # noqa: E731
        for i, fact in enumerate(spec.facts):
            alternatives = fact["any"] if set(fact) == {"any"} and isinstance(fact["any"], list) else [fact]
            for j, alternative in enumerate(alternatives):
                at = (*here, "facts", i, *(("any", j) if "any" in fact else ()))
                if not isinstance(alternative, Mapping) or not alternative:
                    self.out.append((at, "expected text operators such as {mentions_date: 2026-03-05}"))
                    continue
                self.out += [(p.path, p.message) for p in condition_checks.check_condition(alternative, at, scoped)]
        if spec.in_thread is not None:
            self.where_problems((*here, "in_thread"), spec.app, spec.table, spec.in_thread)

    def row_check(self, at: Path_, check: RowCheck) -> None:
        if self.table_problem(at, check.app, check.table):
            return
        self.where_problems((*at, "where"), check.app, check.table, check.where)
        if isinstance(check.expect, Expect) and check.expect.all is not None:
            self.where_problems((*at, "expect", "all"), check.app, check.table, check.expect.all)

    def journal_check(self, at: Path_, check: JournalCheck) -> None:
        rule = check.journal
        for field in ("called", "not_called", "retried_after_fault", "read_first"):
            if getattr(rule, field):
                self.tool_problem((*at, "journal", field), getattr(rule, field))
        for field in ("no_duplicate_after_lost_reply", "waited_for_rate_limit"):
            if getattr(rule, field) not in (None, "*"):
                self.tool_problem((*at, "journal", field), getattr(rule, field))
        for i, tool in enumerate(rule.before or []):
            self.tool_problem((*at, "journal", "before", i), tool)
        if rule.entity is not None:
            here = (*at, "journal", "entity")
            if not self.table_problem(here, rule.entity.app, rule.entity.table):
                self.where_problems((*here, "where"), rule.entity.app, rule.entity.table, rule.entity.where)

    def forbidden(self) -> None:
        for index, rule in enumerate(self.s.forbid):
            at: Path_ = ("forbid", index)
            if rule.call is not None:
                self.tool_problem((*at, "call"), rule.call)
                for p in condition_checks.check_where(rule.args, (*at, "args"), None, self.columns):
                    self.out.append((p.path, p.message))
            elif rule.app and rule.table and not self.table_problem(at, rule.app, rule.table):
                self.where_problems((*at, "where"), rule.app, rule.table, rule.where)

    def allowed(self) -> None:
        for app, tables in self.s.allow.items():
            if app not in self.s.apps:
                self.out.append((("allow", app), f"app {app!r} is not in this scenario's apps"))
                continue
            for table in tables:
                if app in self.apps and table not in self.apps[app].tables:
                    names = ", ".join(self.apps[app].tables)
                    self.out.append((("allow", app, table), f"app {app!r} has no table {table!r}; tables are: {names}"))
                    continue
                if app not in self.apps or isinstance(tables, list):
                    continue
                self.allow_rules(app, table, tables[table])

    def allow_rules(self, app: str, table: str, spec: TableAllow) -> None:
        rules = [spec] if isinstance(spec, AllowRule) else list(enumerate(spec))
        for item in rules:
            index, rule = item if isinstance(item, tuple) else (None, item)
            if not isinstance(rule, AllowRule):
                continue
            here: Path_ = ("allow", app, table) if index is None else ("allow", app, table, index)
            self.where_problems((*here, "where"), app, table, rule.where)
            cols = self.apps[app].tables[table].columns
            for name in rule.changed if isinstance(rule.changed, list) else []:
                if name not in cols:
                    self.out.append(
                        (
                            (*here, "changed"),
                            f"unknown column {name!r} in {app}.{table}; columns are: {', '.join(cols)}",
                        )
                    )

    def relaxed(self) -> None:
        for kind in ("exposure", "destruction"):
            for index, relax in enumerate(getattr(self.s.relax, kind)):
                at: Path_ = ("relax", kind, index)
                if relax.table is None:
                    if relax.app not in self.s.apps:
                        self.out.append(
                            (
                                (*at, "app"),
                                f"app {relax.app!r} is not in this scenario's apps ({', '.join(self.s.apps)})",
                            )
                        )
                    continue
                if not self.table_problem(at, relax.app, relax.table):
                    self.where_problems((*at, "where"), relax.app, relax.table, relax.where)

    def faults(self) -> None:
        for app in self.s.faults:
            if app not in self.s.apps:
                self.out.append((("faults", app), f"app {app!r} is not in this scenario's apps"))
                continue
            for r_index, rule in enumerate(self.s.faults[app].rules):
                if rule.tool != "*" and app in self.apps and rule.tool not in self.apps[app].tools.tools:
                    self.out.append(
                        (("faults", app, "rules", r_index, "tool"), f"app {app!r} has no tool {rule.tool!r}")
                    )

    def world(self) -> None:
        s = self.s
        if s.world is not None:
            self.out += world_problems(
                s.world,
                {a: self.apps.get(a) for a in s.apps},
                self.tool_problem,
                self.table_problem,
                self.where_problems,
                s.apps,
                s.persona,
                s.clock,
            )

    def solutions(self) -> None:
        """Every step of every reference solution calls a tool that exists and reads only results saved before it."""
        solutions: list[tuple[Path_, list[OracleStep]]] = [(("oracle",), self.s.oracle)]
        solutions += [(("oracles", i), steps) for i, steps in enumerate(self.s.oracles)]
        for at_steps, steps in solutions:
            saved: set[str] = set()
            for index, step in enumerate(steps):
                self.tool_problem((*at_steps, index, "tool"), step.tool, alternatives=False)
                for ref in SAVED_REF.findall(repr(step.args)):
                    if ref[0] not in saved:
                        self.out.append(
                            (
                                (*at_steps, index, "args"),
                                f"${{{ref[0]}{ref[1]}}} refers to a result no earlier step saved",
                            )
                        )
                for name in step.unchecked:
                    if name not in step.args:
                        self.out.append(((*at_steps, index, "unchecked"), f"{name!r} is not an argument of this step"))
                if step.save:
                    if step.save in saved:
                        self.out.append(
                            ((*at_steps, index, "save"), f"{step.save!r} is already saved by an earlier step")
                        )
                    saved.add(step.save)
