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

from collections.abc import Callable
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

from orchestrator.scenario import relative_dates, yamlpaths
from orchestrator.scenario.checks import (
    AllowRule,
    Forbid,
    JournalCheck,
    JudgeCheck,
    Relax,
    RowCheck,
    Stage,
    TableAllow,
    ToldCheck,
)
from orchestrator.scenario.semantics import (  # noqa: F401 - GATEWAY_SEPARATOR, SAVED_REF and app_of are re-exported
    GATEWAY_SEPARATOR,
    SAVED_REF,
    app_of,
    semantic_problems,
)
from orchestrator.scenario.worldspec import WorldSpec
from orchestrator.scenario.yamlpaths import Path_, YamlFileError
from servers.core import ClockSpec, FaultPlan, Persona, SandboxSpec
from servers.core.app import KEY_ERRORS, data_path
from servers.core.faults import FaultKind


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Retry(_Model):
    """How the reference solution meets injected faults on one step: which kinds it retries (waiting as the
    fault says) and how many times. A lost reply is never redone: the oracle looks up what the call did."""

    kinds: list[FaultKind] = Field(
        default_factory=lambda: ["error", "timeout", "rate_limit", "unavailable", "stale_read"],  # type: ignore[arg-type]  # fault kinds, inferred as plain strings
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

    def checks(self) -> list[tuple[str, Stage, RowCheck | JournalCheck | JudgeCheck | ToldCheck]]:
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
    scenario = _validated(data, path, problem, problems, path)
    scenario._path = path
    return scenario


def load_data(data: dict[str, Any], name: str = "<data>") -> Scenario:
    """Validate scenario data held in memory the way `load` validates a file (seeds inline: no seed files are read);
    problems name `name`, without lines. The data is not changed; the scenario's `path` is None."""
    problems: list[ScenarioProblem] = []
    path = Path(name)

    def problem(at: Path_, message: str) -> None:
        problems.append(ScenarioProblem(file=name, line=None, path=yamlpaths.dotted(at), message=message))

    if not isinstance(data, dict):
        problem((), "a scenario must be a mapping with id, title, instruction, apps, stages …")
        raise ScenarioError(path, problems)
    return _validated(data, None, problem, problems, path)


def _validated(
    data: dict[str, Any], path: Path | None, problem: Any, problems: list[ScenarioProblem], where: Path
) -> Scenario:
    """The scenario of `data` (read from `path`, or held in memory when None); raises naming `where` and every
    problem."""
    data = expand_templates(data, problem)
    if path is not None:
        data = _include_seed_files(data, path, problem)
    if problems:
        raise ScenarioError(where, problems)

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
            raise ScenarioError(where, problems) from None
        for at, message in semantic_problems(rest):
            problem(original(at), message)
        raise ScenarioError(where, problems) from None

    for at, message in semantic_problems(scenario):
        problem(at, message)
    if problems:
        raise ScenarioError(where, problems)
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
                problem(
                    ("apps", name),
                    f"seed file {seed}: must be a path relative to the scenario's folder and inside it ({folder})",
                )
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
