"""Scenarios: one YAML file each, validated into these models.

A scenario says what world the agent starts in (persona, clock, seed data
per app), what it is asked (the instruction), and exactly how the result is
judged (stages of checks, forbidden changes, which tables may change, process
checks on the journal). Its reference solution (`oracle`) proves it solvable.

Loading reports every problem at once, each naming the file, the line, the
YAML path and what was expected. Unknown keys are errors; checks naming an
app, table or column that does not exist are errors at load time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    model_validator,
)

from orchestrator.scenario import conditions, relative_dates, yamlpaths
from orchestrator.scenario.checks import (
    AllowRule,
    Expect,
    Forbid,
    JournalCheck,
    JudgeCheck,
    Relax,
    RowCheck,
    Stage,
    TableAllow,
)
from orchestrator.scenario.worldspec import GATEWAY_APP, WorldSpec
from orchestrator.scenario.worldspec import problems as world_problems
from orchestrator.scenario.yamlpaths import Path_, YamlFileError
from servers import registry
from servers.core import App, ClockSpec, FaultPlan, Persona, SandboxSpec, SeedError
from servers.core.app import KEY_ERRORS, data_path
from servers.core.faults import FaultKind
from servers.core.sandbox import check_seed

GATEWAY_SEPARATOR = "__"
SAVED_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\}")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Retry(_Model):
    """How the reference solution meets injected faults on one step: which kinds it retries (waiting as the
    fault says) and how many times. A lost reply is never redone: the oracle looks up what the call did."""

    kinds: list[FaultKind] = Field(
        default_factory=lambda: ["error", "timeout", "rate_limit", "unavailable", "stale_read"],
        description="The fault kinds to retry (YAML reads a bare `on:` key as true, hence the name).",
    )
    max: int = Field(8, ge=0, le=50)


class OracleStep(_Model):
    """One tool call of the reference solution; `${name.path}` in args reads a result saved by an earlier step."""

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    save: str | None = Field(None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    expect_error: bool = False
    retry: Retry | None = Field(
        None,
        description="Retries on injected faults; without it, every kind is retried (up to 8 times) when faults are injected.",
    )
    unchecked: list[str] = Field(
        default_factory=list,
        description="Arguments whose exact value no check looks at on purpose (wording, say); `validate --mutate` leaves them alone.",
    )


class Limits(_Model):
    """How long and how much an episode may run: tool calls, seconds in all, and the deadline of one call."""

    max_tool_calls: int | None = Field(None, ge=1)
    timeout_s: float = Field(600.0, gt=0)
    call_deadline_s: float = Field(
        30.0,
        gt=0,
        le=600,
        description="The gateway's deadline for one tool call: past it the agent gets a timeout error.",
    )


Difficulty = Literal["easy", "medium", "hard"]


class Scenario(_Model):
    """One task, as a scenario file states it: the world the agent starts in (persona, clock, seed rows per app,
    the living `world:`), what it is asked (`instruction`), how the result is judged (`stages` of checks, `forbid`,
    `allow`, `relax`, `pass_mark`), its reference solutions (`oracle`, `oracles`), limits and injected faults.
    Built by `load`, which also checks every name against the apps."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{1,63}$")
    title: str
    description: str = ""
    tags: list[str] = Field(default_factory=list)
    difficulty: Difficulty = "medium"
    persona: Persona = Field(default_factory=Persona)
    clock: ClockSpec
    instruction: str = Field(min_length=1)
    apps: dict[str, dict[str, Any]] = Field(min_length=1)
    stages: list[Stage] = Field(min_length=1)
    pass_mark: float = Field(1.0, gt=0, le=1)
    allow: dict[str, list[str] | dict[str, TableAllow]] = Field(default_factory=dict)
    relax: Relax = Field(default_factory=Relax)
    forbid: list[Forbid] = Field(default_factory=list)
    oracle: list[OracleStep] = Field(default_factory=list)
    oracles: list[list[OracleStep]] = Field(
        default_factory=list,
        description="Alternative reference solutions, each a list of steps like `oracle`; all must pass.",
    )
    limits: Limits = Field(default_factory=Limits)
    faults: dict[str, FaultPlan] = Field(default_factory=dict)
    world: WorldSpec | None = Field(
        None, description="Events, moving time, people who answer, the user (orchestrator.scenario.worldspec)."
    )

    _path: Path | None = PrivateAttr(None)

    @model_validator(mode="after")
    def _timeouts_hang_past_the_deadline(self) -> Scenario:
        """A `timeout` fault that does not say how long it hangs hangs just past the gateway's deadline."""
        hang = min(60_000, int((self.limits.call_deadline_s + 0.5) * 1000))
        for plan in self.faults.values():
            for rule in plan.rules:
                if rule.kind == "timeout" and not rule.latency_ms:
                    rule.latency_ms = hang
        return self

    @property
    def path(self) -> Path | None:
        return self._path

    def sandbox_spec(self, app: str, rng_seed: int = 0) -> SandboxSpec:
        return SandboxSpec(seed=self.apps[app], persona=self.persona, clock=self.clock, rng_seed=rng_seed)

    def allow_rules(self, app: str, table: str) -> list[AllowRule]:
        """The `allow` rules of one table; the older list forms read as table-wide rules."""
        tables = self.allow.get(app, {})
        if isinstance(tables, list):
            return [AllowRule(added=True, changed=True, removed=True)] if table in tables else []
        spec = tables.get(table)
        if spec is None:
            return []
        if isinstance(spec, AllowRule):
            return [spec]
        if spec and all(isinstance(kind, str) for kind in spec):
            kinds = set(spec)
            return [AllowRule(added="added" in kinds, changed="changed" in kinds, removed="removed" in kinds)]
        return [rule for rule in spec if isinstance(rule, AllowRule)]

    def checks(self) -> list[tuple[str, Stage, RowCheck | JournalCheck | JudgeCheck]]:
        """Every check with its path (`stages[1].checks[0]`) and stage."""
        return [
            (f"stages[{s}].checks[{c}]", stage, check)
            for s, stage in enumerate(self.stages)
            for c, check in enumerate(stage.checks)
        ]


class ScenarioProblem(_Model):
    """One problem of a scenario file: the file, its line (when known), the YAML path and what is wrong."""

    file: str
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}"


class ScenarioError(ValueError):
    """A scenario file that does not load, with every problem found in it."""

    def __init__(self, path: Path, problems: list[ScenarioProblem]) -> None:
        self.path = path
        self.problems = problems
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        super().__init__(f"{path}: invalid scenario ({count}):\n" + "\n".join(f"  {p}" for p in problems))


# -- loading --------------------------------------------------------------------


def load(path: str | Path) -> Scenario:
    """Load, expand and validate a scenario file; raises `ScenarioError` listing every problem."""
    path = Path(path)
    try:
        data, lines = yamlpaths.load(path)
    except YamlFileError as exc:
        raise ScenarioError(
            path, [ScenarioProblem(file=str(path), line=exc.line, path="(file)", message=exc.message)]
        ) from None
    problems: list[ScenarioProblem] = []

    def problem(at: Path_, message: str, file: Path = path, file_lines: dict[Path_, int] = lines) -> None:
        problems.append(
            ScenarioProblem(
                file=str(file), line=yamlpaths.line_of(file_lines, at), path=yamlpaths.dotted(at), message=message
            )
        )

    if not isinstance(data, dict):
        problem((), "a scenario file must be a mapping with id, title, instruction, apps, stages …")
        raise ScenarioError(path, problems)

    data = expand_templates(data, problem)
    data = _include_seed_files(data, path, problem)
    if problems:
        raise ScenarioError(path, problems)

    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        broken: list[Path_] = []
        for error in exc.errors(include_url=False):
            at = tuple(data_path(error["loc"], data, keep_last=error["type"] in KEY_ERRORS))
            if at not in broken:
                broken.append(at)
                problem(at, error["msg"])
        # Check what is left, so one load reports the semantic problems too.
        pruned, original = _prune(data, broken)
        try:
            rest = Scenario.model_validate(pruned)
        except ValidationError:
            raise ScenarioError(path, problems) from None
        for at, message in _semantic_problems(rest):
            problem(original(at), message)
        raise ScenarioError(path, problems) from None

    for at, message in _semantic_problems(scenario):
        problem(at, message)
    if problems:
        raise ScenarioError(path, problems)
    scenario._path = path
    return scenario


ITEMS = {("stages", "checks"): 4, ("stages",): 2, ("forbid",): 2, ("oracle",): 2, ("oracles",): 3}


def _prune(data: dict[str, Any], broken: list[Path_]) -> tuple[dict[str, Any], Callable[[Path_], Path_]]:
    """`data` without the checks, rules, steps or top-level keys that failed validation,
    and a function mapping paths in the pruned data back to paths in `data`."""
    drop: set[Path_] = set()
    for at in broken:
        names = tuple(p for p in at if isinstance(p, str))
        depth = next((d for prefix, d in ITEMS.items() if names[: len(prefix)] == prefix and len(at) >= d), 1)
        drop.add(at[:depth])
    kept: dict[Path_, list[int]] = {}

    def walk(value: Any, at: Path_) -> Any:
        if isinstance(value, dict):
            return {k: walk(v, (*at, k)) for k, v in value.items() if (*at, k) not in drop}
        if isinstance(value, list):
            indices = [i for i in range(len(value)) if (*at, i) not in drop]
            kept[at] = indices
            return [walk(value[i], (*at, i)) for i in indices]
        return value

    pruned = walk(data, ())

    def original(at: Path_) -> Path_:
        out: list[str | int] = []
        for part in at:
            if isinstance(part, int) and tuple(out) in kept:
                part = kept[tuple(out)][part]
            out.append(part)
        return tuple(out)

    return pruned, original


def expand_templates(data: dict[str, Any], problem: Any) -> dict[str, Any]:
    """`data` with its relative dates (`{{ next tuesday 10:00 }}`) expanded from its clock and persona's zone;
    a template that does not parse is reported through `problem(at, message)` and left as written."""
    clock = data.get("clock") if isinstance(data.get("clock"), dict) else {}
    persona = data.get("persona") if isinstance(data.get("persona"), dict) else {}
    try:
        start = ClockSpec.model_validate(clock or {}).start
        start = start.astimezone(ZoneInfo(Persona.model_validate(persona or {}).timezone))
    except (ValidationError, ValueError):
        return data  # reported with the rest by the model
    except OverflowError:
        problem(("clock", "start"), "out of range in the persona's time zone: keep it within the years 1-9999")
        return data

    def walk(value: Any, at: Path_) -> Any:
        if isinstance(value, str) and "{{" in value:
            try:
                return relative_dates.expand(value, start)
            except relative_dates.TemplateError as exc:
                problem(at, str(exc))
                return value
        if isinstance(value, dict):
            return {k: walk(v, (*at, k)) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, (*at, i)) for i, v in enumerate(value)]
        return value

    return walk(data, ())


def _include_seed_files(data: dict[str, Any], path: Path, problem: Any) -> dict[str, Any]:
    """Seeds given as paths (relative to the scenario file) are read in place: regular files inside the scenario's
    folder only (no absolute paths, no `..` or symlink out of it, no FIFO or device)."""
    apps = data.get("apps")
    if not isinstance(apps, dict):
        return data
    folder = path.parent.resolve()
    for name, seed in list(apps.items()):
        if seed is None:
            apps[name] = {}
        elif isinstance(seed, str):
            seed_path = (folder / seed).resolve()
            if Path(seed).is_absolute() or not seed_path.is_relative_to(folder):
                problem(("apps", name), f"seed file {seed}: must be a path relative to the scenario's folder and "
                                        f"inside it ({folder})")  # fmt: skip
                continue
            try:
                content, _ = yamlpaths.load(seed_path)
            except YamlFileError as exc:
                problem(("apps", name), f"seed file {seed}: {exc.message}")
                continue
            if not isinstance(content, dict):
                problem(("apps", name), f"seed file {seed} must hold a mapping of tables")
                continue
            apps[name] = expand_templates(
                {"clock": data.get("clock"), "persona": data.get("persona"), "seed": content}, problem
            )["seed"]
    return data


def app_of(tool: str) -> tuple[str, str]:
    """(app, tool) of a gateway tool name `app__tool`; ("", name) for a name without an app."""
    app, sep, name = tool.partition(GATEWAY_SEPARATOR)
    return (app, name) if sep else ("", tool)


def _semantic_problems(s: Scenario) -> list[tuple[Path_, str]]:
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

        for p in conditions.check_where(where, at, self.columns(app, table), scoped):
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
                else:
                    self.journal_check(at, check)

    def judge_check(self, at: Path_, check: JudgeCheck) -> None:
        spec = check.judge
        if not self.table_problem((*at, "judge"), spec.app, spec.table):
            self.where_problems((*at, "judge", "where"), spec.app, spec.table, spec.where)
            if spec.app in self.apps and spec.field not in self.apps[spec.app].tables[spec.table].columns:
                self.out.append(((*at, "judge", "field"), f"unknown column {spec.field!r} in {spec.app}.{spec.table}"))

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
                for p in conditions.check_where(rule.args, (*at, "args"), None, self.columns):
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
                s.world, {a: self.apps.get(a) for a in s.apps}, self.tool_problem, self.table_problem,
                self.where_problems, s.apps, s.persona, s.clock,
            )  # fmt: skip

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


def discover(paths: list[Path]) -> list[Path]:
    """Scenario files among `paths` (folders are searched for *.yaml, *.yml)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.rglob("*.y*ml") if p.suffix in (".yaml", ".yml") and not _is_seed_file(p))
        else:
            found.append(path)
    return found


def _is_seed_file(path: Path) -> bool:
    """Seed files live in folders named `seeds` next to the scenarios that include them."""
    return "seeds" in path.parts
