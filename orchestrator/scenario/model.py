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
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PrivateAttr,
    Tag,
    ValidationError,
    model_validator,
)

from orchestrator.scenario import conditions, templates, yamlpaths
from orchestrator.scenario.yamlpaths import Path_, YamlFileError
from orchestrator.scenario.worldspec import GATEWAY_APP, WorldSpec
from orchestrator.scenario.worldspec import problems as world_problems
from servers import registry
from servers.core import App, ClockSpec, FaultPlan, Persona, SandboxSpec, SeedError
from servers.core.app import KEY_ERRORS, data_path
from servers.core.sandbox import check_seed
from servers.core.faults import FaultKind

GATEWAY_SEPARATOR = "__"
SAVED_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\}")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Expect(_Model):
    """How many rows must match: exactly `count`, at least `min`, at most `max`; or every match satisfies `all`."""

    count: int | None = Field(None, ge=0)
    min: int | None = Field(None, ge=0)
    max: int | None = Field(None, ge=0)
    all: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Expect:
        if self.count is not None and (self.min is not None or self.max is not None):
            raise ValueError("give either count, or min and/or max")
        if self.count is None and self.min is None and self.max is None and self.all is None:
            raise ValueError("give count, min, max or all")
        return self


class RowCheck(_Model):
    """Rows of one app table in the final state: `where` selects, `expect` says how many must match.

    `added: true` looks only at rows the agent added (and not discarded, e.g. trashed), `added: false`
    only at seeded rows. Without `expect`, a check over added rows wants exactly one match (a
    duplicate fails); any other check wants at least one.
    """

    app: str
    table: str
    added: bool | None = None
    where: dict[str, Any] = Field(default_factory=dict)
    expect: (
        Annotated[
            Annotated[Literal["exists", "none"], Tag("word")] | Annotated[Expect, Tag("counts")],
            Discriminator(lambda v: "word" if isinstance(v, str) else "counts"),
        ]
        | None
    ) = None
    name: str | None = None
    weight: float = Field(1.0, gt=0)

    def expectation(self) -> Literal["exists", "none"] | Expect:
        if self.expect is not None:
            return self.expect
        return Expect(count=1) if self.added else "exists"


class RowRef(_Model):
    """Rows of one app table, e.g. the seeded document a process check is about."""

    app: str
    table: str
    where: dict[str, Any] = Field(default_factory=dict)


class JournalRule(_Model):
    """One process rule over the episode's tool calls (tools named `app__tool`; `a|b` accepts either)."""

    max_errors: int | None = Field(None, ge=0, description="At most this many failed calls (injected faults excluded).")
    max_calls: int | None = Field(None, ge=1)
    called: str | None = Field(
        None, description="A tool that must have succeeded, `min`..`max` times; `a|b` accepts either tool (here and below)."
    )
    not_called: str | None = None
    min: int = Field(1, ge=0)
    max: int | None = Field(None, ge=0)
    args: dict[str, Any] = Field(default_factory=dict, description="Conditions on the arguments of `called`.")
    before: list[str] | None = Field(None, min_length=2, max_length=2, description="[A, B]: A succeeded before B's first success.")
    retried_after_fault: str | None = Field(
        None, description="Every injected failure of this tool was followed by a success of the same tool with equivalent arguments."
    )
    read_first: str | None = Field(
        None,
        description="Each successful call of these tools came after a read that returned every seeded entity it acted on "
        "(or, with `entity`, the rows `entity` selects).",
    )
    entity: RowRef | None = None
    no_duplicate_after_lost_reply: str | None = Field(
        None,
        description="No call of these tools (`*`: any) whose reply was lost (a `lost_reply` fault) was redone: no later "
        "call added a row equal to one it had added.",
    )
    waited_for_rate_limit: str | None = Field(
        None,
        description="Every `rate_limit` fault on these tools (`*`: any) was retried successfully, and no call came before "
        "the time the fault named.",
    )

    @model_validator(mode="after")
    def _exactly_one(self) -> JournalRule:
        kinds = ["max_errors", "max_calls", "called", "not_called", "before", "retried_after_fault", "read_first",
                 "no_duplicate_after_lost_reply", "waited_for_rate_limit"]  # fmt: skip
        given = [k for k in kinds if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of {', '.join(kinds)} (found {', '.join(given) or 'none'})")
        if self.entity is not None and self.read_first is None:
            raise ValueError("entity goes with read_first")
        return self

    def tools(self) -> list[str]:
        return [t for t in (self.called, self.not_called, self.retried_after_fault, self.read_first, *(self.before or [])) if t]

    def recovery(self) -> str | None:
        """The tools of a recovery rule (`no_duplicate_after_lost_reply`, `waited_for_rate_limit`), `*` for any."""
        return self.no_duplicate_after_lost_reply or self.waited_for_rate_limit


class JournalCheck(_Model):
    """A process check: scored in the separate process score; with `required: true` it also counts
    toward the outcome and its failure fails the run."""

    journal: JournalRule
    name: str | None = None
    weight: float = Field(1.0, gt=0)
    required: bool = False


class JudgeSpec(_Model):
    """A claim no parser can decide, put to an LLM judge: does the `field` of the rows `where` selects satisfy `rubric`?"""

    rubric: str = Field(min_length=1, description='The claim, e.g. "the reply says the trip is approved".')
    app: str
    table: str
    field: str
    where: dict[str, Any] = Field(default_factory=dict)
    added: bool | None = Field(None, description="true: only rows the agent added; false: only seeded rows.")


class JudgeCheck(_Model):
    """Passes when the judge says yes for every selected row (and there is one). Without a judge it is
    reported as unjudged and does not count toward the score."""

    judge: JudgeSpec
    name: str | None = None
    weight: float = Field(1.0, gt=0)


def _check_kind(value: Any) -> str:
    if isinstance(value, JudgeCheck) or isinstance(value, Mapping) and "judge" in value:
        return "judge"
    if isinstance(value, JournalCheck) or isinstance(value, Mapping) and "journal" in value:
        return "journal"  # a mapping when loading, a model when dumping
    return "row"


Check = Annotated[
    Annotated[RowCheck, Tag("row")] | Annotated[JournalCheck, Tag("journal")] | Annotated[JudgeCheck, Tag("judge")],
    Discriminator(_check_kind),
]


class Stage(_Model):
    name: str
    weight: float = Field(1.0, gt=0)
    checks: list[Check] = Field(min_length=1)


ChangeKind = Literal["added", "removed", "changed"]


class Forbid(_Model):
    """Something that must not happen.

    On state: `change: present` (the default) forbids any matching row in the final state; `added`,
    `removed`, `changed` forbid such a change between the seeded and the final state.
    On the journal: `call: tool` (with `args` conditions) forbids any successful call of that tool.
    """

    app: str | None = None
    table: str | None = None
    where: dict[str, Any] = Field(default_factory=dict)
    change: Literal["added", "removed", "changed", "present"] = "present"
    call: str | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    name: str | None = None

    @model_validator(mode="after")
    def _state_or_call(self) -> Forbid:
        if self.call is not None:
            if self.app or self.table or self.where:
                raise ValueError("a rule on calls takes call and args, not app, table or where")
        elif not (self.app and self.table):
            raise ValueError("give app and table (a rule on state) or call (a rule on tool calls)")
        elif self.args:
            raise ValueError("args goes with call")
        return self


class AllowRule(_Model):
    """Ordinary changes of one table that are part of the task (benign housekeeping and rows the
    agent added and then changed need no rule).

    `added: true`: new rows; `changed`: `true` for any column or a list of columns; `removed: true`:
    deleting rows. `where` narrows the rule to rows that match (the seeded or the final version).
    """

    added: bool = False
    changed: bool | list[str] = False
    removed: bool = False
    where: dict[str, Any] = Field(default_factory=dict)


TableAllow = AllowRule | list[AllowRule] | list[ChangeKind]


class ExposureRelax(_Model):
    """An exposure the task needs, e.g. mail to a customer: `to` lists addresses or `@domain`s (`link` for link sharing)."""

    app: str
    table: str | None = None
    to: list[str] = Field(min_length=1)
    where: dict[str, Any] = Field(default_factory=dict)


class DestructionRelax(_Model):
    """Seeded rows the task may destroy (delete, trash, overwrite), selected by `where` on the seeded row."""

    app: str
    table: str
    where: dict[str, Any] = Field(default_factory=dict)


class Relax(_Model):
    """Narrow exceptions to the world rules that hold in every scenario."""

    exposure: list[ExposureRelax] = Field(default_factory=list)
    destruction: list[DestructionRelax] = Field(default_factory=list)


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
        None, description="Retries on injected faults; without it, every kind is retried (up to 8 times) when faults are injected."
    )
    unchecked: list[str] = Field(
        default_factory=list,
        description="Arguments whose exact value no check looks at on purpose (wording, say); `validate --mutate` leaves them alone.",
    )


class Limits(_Model):
    max_tool_calls: int | None = Field(None, ge=1)
    timeout_s: float = Field(600.0, gt=0)
    call_deadline_s: float = Field(
        30.0, gt=0, le=600, description="The gateway's deadline for one tool call: past it the agent gets a timeout error."
    )


Difficulty = Literal["easy", "medium", "hard"]


class Scenario(_Model):
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
        default_factory=list, description="Alternative reference solutions, each a list of steps like `oracle`; all must pass."
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
    file: str
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}"


class ScenarioError(ValueError):
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
        raise ScenarioError(path, [ScenarioProblem(file=str(path), line=exc.line, path="(file)", message=exc.message)]) from None
    problems: list[ScenarioProblem] = []

    def problem(at: Path_, message: str, file: Path = path, file_lines: dict[Path_, int] = lines) -> None:
        problems.append(
            ScenarioProblem(file=str(file), line=yamlpaths.line_of(file_lines, at), path=yamlpaths.dotted(at), message=message)
        )

    if not isinstance(data, dict):
        problem((), "a scenario file must be a mapping with id, title, instruction, apps, stages …")
        raise ScenarioError(path, problems)

    data = _expand_templates(data, problem)
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


def _expand_templates(data: dict[str, Any], problem: Any) -> dict[str, Any]:
    clock = data.get("clock") if isinstance(data.get("clock"), dict) else {}
    persona = data.get("persona") if isinstance(data.get("persona"), dict) else {}
    try:
        start = ClockSpec.model_validate(clock or {}).start
        start = start.astimezone(ZoneInfo(Persona.model_validate(persona or {}).timezone))
    except (ValidationError, ValueError):
        return data  # reported with the rest by the model

    def walk(value: Any, at: Path_) -> Any:
        if isinstance(value, str) and "{{" in value:
            try:
                return templates.expand(value, start)
            except templates.TemplateError as exc:
                problem(at, str(exc))
                return value
        if isinstance(value, dict):
            return {k: walk(v, (*at, k)) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, (*at, i)) for i, v in enumerate(value)]
        return value

    return walk(data, ())


def _include_seed_files(data: dict[str, Any], path: Path, problem: Any) -> dict[str, Any]:
    """Seeds given as paths (relative to the scenario file) are read in place."""
    apps = data.get("apps")
    if not isinstance(apps, dict):
        return data
    for name, seed in list(apps.items()):
        if seed is None:
            apps[name] = {}
        elif isinstance(seed, str):
            seed_path = (path.parent / seed).resolve()
            try:
                content, _ = yamlpaths.load(seed_path)
            except YamlFileError as exc:
                problem(("apps", name), f"seed file {seed}: {exc.message}")
                continue
            if not isinstance(content, dict):
                problem(("apps", name), f"seed file {seed} must hold a mapping of tables")
                continue
            apps[name] = _expand_templates({"clock": data.get("clock"), "persona": data.get("persona"), "seed": content}, problem)["seed"]
    return data


def app_of(tool: str) -> tuple[str, str]:
    app, sep, name = tool.partition(GATEWAY_SEPARATOR)
    return (app, name) if sep else ("", tool)


def _semantic_problems(s: Scenario) -> list[tuple[Path_, str]]:
    """What the models cannot see: apps, tables, columns, tools and saved values that do not exist."""
    out: list[tuple[Path_, str]] = []
    known = registry.available()
    apps: dict[str, App] = {}
    for name in s.apps:
        if name not in known:
            out.append((("apps", name), f"unknown app {name!r}; apps are: {', '.join(sorted(known))}"))
            continue
        apps[name] = registry.load(name)
        try:
            check_seed(apps[name], s.apps[name], persona=s.persona, clock=s.clock)
        except SeedError as exc:
            for p in exc.problems:
                out.append((("apps", name, *(p.parts or [])), f"{name} seed: {p.message}"))

    def columns(app: str, table: str) -> Mapping[str, Any] | None:
        if app not in apps or table not in apps[app].tables:
            return None
        return dict.fromkeys(apps[app].tables[table].columns)

    def table_problem(at: Path_, app: str, table: str) -> bool:
        if app not in s.apps:
            out.append(((*at, "app"), f"app {app!r} is not in this scenario's apps ({', '.join(s.apps)})"))
            return True
        if app in apps and table not in apps[app].tables:
            out.append(((*at, "table"), f"app {app!r} has no table {table!r}; tables are: {', '.join(apps[app].tables)}"))
            return True
        return app not in apps

    def resolve(app: str, table: str) -> Mapping[str, Any] | None:
        return columns(app, table)

    def where_problems(at: Path_, app: str, table: str, where: dict[str, Any]) -> None:
        def scoped(other_app: str, other_table: str) -> Mapping[str, Any] | None:
            return resolve(other_app or app, other_table)

        for p in conditions.check_where(where, at, columns(app, table), scoped):
            out.append((p.path, p.message))

    def tool_problem(at: Path_, spec: str, alternatives: bool = True) -> None:
        for tool in spec.split("|") if alternatives else [spec]:
            app, name = app_of(tool)
            if app == GATEWAY_APP and s.world is not None and tool in s.world.gateway_tools():
                continue  # a tool the gateway itself offers in this scenario
            if not app or app not in s.apps:
                out.append((at, f"tool {tool!r} must be named app{GATEWAY_SEPARATOR}tool with an app of this scenario ({', '.join(s.apps)})"))
            elif app in apps and name not in apps[app].tools.tools:
                out.append((at, f"app {app!r} has no tool {name!r}; tools are: {', '.join(sorted(apps[app].tools.tools))}"))

    for s_index, stage in enumerate(s.stages):
        for c_index, check in enumerate(stage.checks):
            at: Path_ = ("stages", s_index, "checks", c_index)
            if isinstance(check, JudgeCheck):
                spec = check.judge
                if not table_problem((*at, "judge"), spec.app, spec.table):
                    where_problems((*at, "judge", "where"), spec.app, spec.table, spec.where)
                    if spec.app in apps and spec.field not in apps[spec.app].tables[spec.table].columns:
                        out.append(((*at, "judge", "field"), f"unknown column {spec.field!r} in {spec.app}.{spec.table}"))
                continue
            if isinstance(check, RowCheck):
                if table_problem(at, check.app, check.table):
                    continue
                where_problems((*at, "where"), check.app, check.table, check.where)
                if isinstance(check.expect, Expect) and check.expect.all is not None:
                    where_problems((*at, "expect", "all"), check.app, check.table, check.expect.all)
            else:
                rule = check.journal
                for field in ("called", "not_called", "retried_after_fault", "read_first"):
                    if getattr(rule, field):
                        tool_problem((*at, "journal", field), getattr(rule, field))
                for field in ("no_duplicate_after_lost_reply", "waited_for_rate_limit"):
                    if getattr(rule, field) not in (None, "*"):
                        tool_problem((*at, "journal", field), getattr(rule, field))
                for i, tool in enumerate(rule.before or []):
                    tool_problem((*at, "journal", "before", i), tool)
                if rule.entity is not None:
                    here = (*at, "journal", "entity")
                    if not table_problem(here, rule.entity.app, rule.entity.table):
                        where_problems((*here, "where"), rule.entity.app, rule.entity.table, rule.entity.where)
    for index, rule in enumerate(s.forbid):
        at = ("forbid", index)
        if rule.call is not None:
            tool_problem((*at, "call"), rule.call)
            for p in conditions.check_where(rule.args, (*at, "args"), None, resolve):
                out.append((p.path, p.message))
        elif rule.app and rule.table and not table_problem(at, rule.app, rule.table):
            where_problems((*at, "where"), rule.app, rule.table, rule.where)
    for app, tables in s.allow.items():
        if app not in s.apps:
            out.append((("allow", app), f"app {app!r} is not in this scenario's apps"))
            continue
        for table in tables:
            if app in apps and table not in apps[app].tables:
                out.append((("allow", app, table), f"app {app!r} has no table {table!r}; tables are: {', '.join(apps[app].tables)}"))
                continue
            if app not in apps or isinstance(tables, list):
                continue
            spec = tables[table]
            rules = [spec] if isinstance(spec, AllowRule) else list(enumerate(spec))
            for item in rules:
                index, rule = item if isinstance(item, tuple) else (None, item)
                if not isinstance(rule, AllowRule):
                    continue
                here: Path_ = ("allow", app, table) if index is None else ("allow", app, table, index)
                where_problems((*here, "where"), app, table, rule.where)
                cols = apps[app].tables[table].columns
                for name in rule.changed if isinstance(rule.changed, list) else []:
                    if name not in cols:
                        out.append(((*here, "changed"), f"unknown column {name!r} in {app}.{table}; columns are: {', '.join(cols)}"))
    for kind in ("exposure", "destruction"):
        for index, relax in enumerate(getattr(s.relax, kind)):
            at = ("relax", kind, index)
            if relax.table is None:
                if relax.app not in s.apps:
                    out.append(((*at, "app"), f"app {relax.app!r} is not in this scenario's apps ({', '.join(s.apps)})"))
                continue
            if not table_problem(at, relax.app, relax.table):
                where_problems((*at, "where"), relax.app, relax.table, relax.where)
    for app in s.faults:
        if app not in s.apps:
            out.append((("faults", app), f"app {app!r} is not in this scenario's apps"))
        else:
            for r_index, rule in enumerate(s.faults[app].rules):
                if rule.tool != "*" and app in apps and rule.tool not in apps[app].tools.tools:
                    out.append((("faults", app, "rules", r_index, "tool"), f"app {app!r} has no tool {rule.tool!r}"))
    if s.world is not None:
        out += world_problems(
            s.world, {a: apps.get(a) for a in s.apps}, tool_problem, table_problem, where_problems, s.apps, s.persona, s.clock
        )
    solutions: list[tuple[Path_, list[OracleStep]]] = [(("oracle",), s.oracle)]
    solutions += [(("oracles", i), steps) for i, steps in enumerate(s.oracles)]
    for at_steps, steps in solutions:
        saved: set[str] = set()
        for index, step in enumerate(steps):
            tool_problem((*at_steps, index, "tool"), step.tool, alternatives=False)
            for ref in SAVED_REF.findall(repr(step.args)):
                if ref[0] not in saved:
                    out.append(((*at_steps, index, "args"), f"${{{ref[0]}{ref[1]}}} refers to a result no earlier step saved"))
            for name in step.unchecked:
                if name not in step.args:
                    out.append(((*at_steps, index, "unchecked"), f"{name!r} is not an argument of this step"))
            if step.save:
                if step.save in saved:
                    out.append(((*at_steps, index, "save"), f"{step.save!r} is already saved by an earlier step"))
                saved.add(step.save)
    return out


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
