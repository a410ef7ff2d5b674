"""`orchestrator`: run, serve, validate and inspect ClawGym scenarios."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import anyio
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from orchestrator import scenario as scenarios
from orchestrator.show import render_scenario, scenario_summary

if TYPE_CHECKING:
    from collections.abc import Callable

    from orchestrator.agents.base import Agent
    from orchestrator.run.runner import RunRecord
    from orchestrator.backends import Backend
    from orchestrator.verify.results import Result
    from orchestrator.prove.validate import Validation

app = typer.Typer(
    name="orchestrator",
    help="Run agents against ClawGym scenarios, serve scenarios to MCP clients, and validate scenarios.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

USAGE_ERROR = 2


def fail_usage(message: str) -> typer.Exit:
    from rich.markup import escape

    err.print(f"[red]error:[/] {escape(message)}")  # a message's own brackets ('clawgym[ray]', '[--x]') are text
    return typer.Exit(USAGE_ERROR)


def load_or_exit(path: Path) -> scenarios.Scenario:
    try:
        return scenarios.load(path)
    except scenarios.ScenarioError as exc:
        err.print(f"[red]error:[/] {exc}", highlight=False)
        raise typer.Exit(USAGE_ERROR) from None


@app.command("show")
def show_command(
    scenario: Annotated[Path, typer.Argument(help="Scenario YAML file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Show a scenario: the instruction, the apps and seed sizes, and the stages and checks in words."""
    loaded = load_or_exit(scenario)
    if as_json:
        print(json.dumps(scenario_summary(loaded), indent=2))
    else:
        render_scenario(console, loaded)


@app.command("list")
def list_command(
    path: Annotated[Path, typer.Argument(help="Folder (searched recursively) or file.")] = Path("scenarios"),
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List scenarios with their ids, titles, apps and stage counts."""
    if not path.exists():
        raise fail_usage(f"{path} does not exist")
    rows, broken = [], []
    for file in scenarios.discover([path]):
        try:
            s = scenarios.load(file)
        except scenarios.ScenarioError as exc:
            broken.append({"file": str(file), "problems": [str(p) for p in exc.problems]})
            continue
        rows.append({"id": s.id, "title": s.title, "file": str(file), "apps": list(s.apps), "stages": len(s.stages),
                     "difficulty": s.difficulty, "tags": s.tags})
    if as_json:
        print(json.dumps({"scenarios": rows, "invalid": broken}, indent=2))
    else:
        print_whole_table(console, _scenario_table(rows))
        for b in broken:
            count = len(b["problems"])
            err.print(f"[red]invalid:[/] {b['file']} ({count} problem{'s' if count != 1 else ''}): {b['problems'][0]}", highlight=False)
    if broken:
        raise typer.Exit(1)


def _scenario_table(rows: list[dict]) -> Table:
    table = Table(show_edge=False)
    table.add_column("id", no_wrap=True, min_width=max((len(r["id"]) for r in rows), default=2))
    table.add_column("title", ratio=1)
    table.add_column("apps")
    table.add_column("stages", justify="right")
    table.add_column("difficulty")
    table.add_column("file", no_wrap=True, min_width=max((len(r["file"]) for r in rows), default=4))
    for r in rows:
        table.add_row(r["id"], r["title"], ", ".join(r["apps"]), str(r["stages"]), r["difficulty"], r["file"])
    return table


def print_whole_table(out: Console, table: Table) -> None:
    """Print a table without cutting ids or paths: on a terminal other columns wrap; piped, lines get as long as needed."""
    from rich.measure import Measurement

    needs = Measurement.get(out, out.options.update_width(100_000), table)
    width = out.width
    out.width = max(width, needs.minimum if out.is_terminal else needs.maximum)
    try:
        out.print(table, soft_wrap=False)
    finally:
        out.width = width


@app.command("generate")
def generate_command(
    family: Annotated[str, typer.Argument(help="A task family (see --list), or 'all'.")] = "",
    count: Annotated[int, typer.Option("--count", help="Tasks to write per family.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Run seed: the same command writes the same bytes.")] = 0,
    out: Annotated[Path | None, typer.Option("--out", help="Folder for <family>/<id>.yaml and tasks.jsonl.")] = None,
    size: Annotated[str, typer.Option("--size", help="World size: small, medium or large.")] = "small",
    prove: Annotated[
        str, typer.Option("--prove", help="basic (reference solution 1.0, doing nothing fails) or full (also mutations, "
                          "attacks and equivalent rewrites).")
    ] = "basic",
    split: Annotated[str | None, typer.Option("--split", help="Write only tasks of this split: train, test or core.")] = None,
    knob: Annotated[
        list[str] | None, typer.Option("--knob", help="Fix a difficulty knob for every task, e.g. steps=2 (repeatable).")
    ] = None,
    list_families: Annotated[bool, typer.Option("--list", help="List the task families and their knobs.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the per-family report as JSON.")] = False,
    inject: Annotated[
        bool, typer.Option("--inject", help="Write prompt-injection variants of the tasks instead (see `orchestrator inject`); "
                           "each is also proven useful and secure for the reference solution, and an obeying agent caught.")
    ] = False,
) -> None:
    """Generate proven scenarios from task families over procedural worlds. Every task written is proven as it is
    written; tasks that fail a proof or repeat another's checks are dropped and counted, never written."""
    from orchestrator.generate import pipeline
    from orchestrator.generate.family import families

    known = families()
    if list_families:
        for name, cls in known.items():
            knobs = ", ".join(f"{k}={'/'.join(map(str, v))}" for k, v in cls.knobs.items())
            console.print(f"{name}: {cls.title} [{', '.join(cls.apps)}] {knobs}", highlight=False)
        return
    if not family:
        raise fail_usage("give a FAMILY (or 'all'); `orchestrator generate --list` lists them")
    if out is None:
        raise fail_usage("--out DIR is required")
    names = list(known) if family == "all" else [family]
    fixed: dict[str, Any] = {}
    for item in knob or []:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise fail_usage(f"--knob {item!r}: expected NAME=VALUE, e.g. steps=2")
        fixed[name] = int(value) if value.lstrip("-").isdigit() else value
    options = pipeline.Options(names, count, seed=seed, size=size, prove=prove, split=split, knobs=fixed)
    if inject:
        from orchestrator.generate import inject as injection

        options.transform = injection.transform(seed)
    try:
        options.check()
    except pipeline.GenerateError as exc:
        raise fail_usage(str(exc)) from None

    started = time.perf_counter()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as bar:  # fmt: skip
        bars: dict[str, Any] = {}

        def progress(name: str, written: int, total: int) -> None:
            if name not in bars:
                bars[name] = bar.add_task(f"generating {name}", total=total)
            bar.update(bars[name], completed=written)
            if not err.is_terminal and written and (written == total or written % max(1, total // 10) == 0):
                err.print(f"{name}: {written}/{total} written ({time.perf_counter() - started:.0f} s)", highlight=False)

        try:
            reports = anyio.run(pipeline.generate, options, out, progress)
        except pipeline.GenerateError as exc:
            raise fail_usage(str(exc)) from None
    elapsed = time.perf_counter() - started
    if as_json:
        print(json.dumps({"families": [r.as_dict() for r in reports], "seconds": round(elapsed, 2)}, indent=2))
    else:
        for r in reports:
            dropped = sum(r.dropped.values())
            console.print(f"{r.family}: {r.written} written, {dropped} dropped by proofs, {r.duplicates} duplicates, "
                          f"{r.unfit} unfit draws, {r.other_split} of other splits", highlight=False)
            for kind, text in r.examples.items():
                err.print(f"  dropped ({r.dropped[kind]}x {kind}), e.g.: {text}", highlight=False)
        total = sum(r.written for r in reports)
        console.print(f"{total} tasks written to {out} in {elapsed:.1f} s ({total / elapsed:.2f}/s)", highlight=False)
    short = [r.family for r in reports if r.written < count]
    if short:
        err.print(f"[yellow]fewer than {count} tasks for:[/] {', '.join(short)}", highlight=False)
        raise typer.Exit(1)


@app.command("inject")
def inject_command(
    paths: Annotated[list[Path], typer.Argument(help="Scenario files or folders to attack.")],
    out: Annotated[Path, typer.Option("--out", help="Folder for the attacked variants and injections.jsonl.")],
    count: Annotated[int, typer.Option("--count", min=1, help="Attacked variants per scenario.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Draws carriers, positions, phrasings and attackers.")] = 0,
    goal: Annotated[
        list[str] | None,
        typer.Option("--goal", help="Attacker goals to use (repeatable): forward-mail, share-doc, delete-data, "
                     "change-payment, invite-outsider. Default: all, in turn."),
    ] = None,
) -> None:
    """Write prompt-injection variants: content the task makes the agent read carries an attacker's instructions.
    Every variant written is proven (the reference solution stays useful and secure, doing nothing is useless, an
    agent that obeys is caught); results then report utility and security apart."""
    from orchestrator.generate import inject

    goals = goal or list(inject.GOALS)
    unknown = [g for g in goals if g not in inject.GOALS]
    if unknown:
        raise fail_usage(f"--goal: unknown goal(s) {', '.join(unknown)}; expected {', '.join(inject.GOALS)}")
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise fail_usage(f"no such file or folder: {', '.join(map(str, missing))}")
    files = scenarios.discover(paths)
    if not files:
        raise fail_usage(f"no scenario files (*.yaml) in {', '.join(map(str, paths))}")

    async def run_all() -> inject.Written:
        from orchestrator.backends.inprocess import InProcessBackend

        async with InProcessBackend() as backend:
            return await inject.inject_files(files, out, backend, count=count, seed=seed, goal_kinds=goals,
                                             progress=lambda what: err.print(f"attacking {what}", highlight=False))

    started = time.perf_counter()
    done = anyio.run(run_all)
    for source, proof in done.dropped:
        err.print(f"dropped {source}: {proof.attack.describe()}: {'; '.join(proof.problems)}", highlight=False)
    for source, why in done.skipped:
        err.print(f"skipped {source}: {why}", highlight=False)
    console.print(f"{len(done.written)} attacked variant(s) written to {out} ({len(done.dropped)} dropped, "
                  f"{len(done.skipped)} scenario(s) skipped) in {time.perf_counter() - started:.1f} s", highlight=False)
    if not done.written:
        raise typer.Exit(1)


@app.command("validate")
def validate_command(
    paths: Annotated[list[Path], typer.Argument(help="Scenario files or folders.")],
    mutate: Annotated[
        bool, typer.Option("--mutate", help="Also run weakened reference solutions; each must fail.")
    ] = False,
    attack: Annotated[
        bool, typer.Option("--attack", help="Also run the reference solution with generic harmful additions; each must fail.")
    ] = False,
    equivalents: Annotated[
        bool, typer.Option("--equivalents", help="Also run generic correct rewrites of the reference solution; each must pass.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    judge: JudgeOption = None,
) -> None:
    """Prove scenarios sound: the reference solutions score 1.0 on fresh sandboxes and doing nothing fails;
    optionally every mutation and attack fails and every equivalent rewrite passes. Exits 1 on any problem."""
    from orchestrator.backends.inprocess import InProcessBackend
    from orchestrator.prove import report as reporting
    from orchestrator.prove.schema_cache import schema_checks_remembered
    from orchestrator.prove.validate import validate

    _use_judge(judge)
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise fail_usage(f"no such file or folder: {', '.join(map(str, missing))}")
    files = scenarios.discover(paths)
    if not files:
        raise fail_usage(f"no scenario files (*.yaml) in {', '.join(map(str, paths))}")

    asked = reporting.Asked(mutate=mutate, attack=attack, equivalents=equivalents)
    reports: list[dict] = []

    async def run_all() -> None:
        async with InProcessBackend() as backend:
            with schema_checks_remembered(), Progress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                console=err, transient=True, disable=not err.is_terminal,
            ) as progress:
                task = progress.add_task("validating", total=len(files))
                for file in files:
                    started = time.perf_counter()
                    progress.update(task, description=f"validating {file.name}")
                    try:
                        loaded = scenarios.load(file)
                    except scenarios.ScenarioError as exc:
                        reports.append(reporting.load_problem(file, [str(p) for p in exc.problems]))
                    else:
                        check: Validation = await validate(
                            loaded, backend, mutate=mutate, attack=attack, equivalents=equivalents,
                            progress=lambda what, f=file: progress.update(task, description=f"{f.name}: {what}"),
                        )
                        reports.append(reporting.as_dict(file, check, asked))
                    progress.advance(task)
                    done = reports[-1]
                    progress.console.print(
                        f"{file}: {'valid' if done['valid'] else 'INVALID'}, {done.get('episodes', 0)} episodes "
                        f"in {time.perf_counter() - started:.1f} s", highlight=False,
                    )

    anyio.run(run_all)
    if as_json:
        print(json.dumps({"scenarios": reports, "valid": all(r["valid"] for r in reports)}, indent=2))
    else:
        reporting.render(console, reports, asked)
        reporting.render_skips(err, reports)
    if not all(r["valid"] for r in reports):
        raise typer.Exit(1)


BackendOption = Annotated[
    str,
    typer.Option(
        "--backend",
        help="Where the app servers run: local (processes, default), docker (containers), inprocess, "
        "remote (already running at CLAWGYM_APP_URL), or ray (whole episodes on a Ray cluster's workers; run only).",
    ),
]


JudgeOption = Annotated[
    str | None,
    typer.Option(
        "--judge",
        metavar="MODEL@BASE_URL",
        help="An OpenAI-compatible endpoint that judges the scenario's `judge` checks, e.g. gpt-4o-mini@https://api.openai.com/v1 "
        "(key from CLAWGYM_JUDGE_API_KEY or OPENAI_API_KEY; answers cached in CLAWGYM_JUDGE_CACHE, default ~/.cache/clawgym/judge). "
        "Without it those checks are unjudged and do not count.",
    ),
]


def _use_judge(spec: str | None) -> None:
    from orchestrator.verify import judge as judging

    if spec is None:
        judging.use(None)
        return
    try:
        judging.use(judging.Judge(judging.JudgeConfig.parse(spec)))
    except ValueError as exc:
        raise fail_usage(str(exc)) from None


def _backend_or_exit(name: str, log_dir: Path | None, address: str | None = None) -> Backend:
    from orchestrator.backends import make_backend

    from orchestrator.backends import BackendError

    try:
        return make_backend(name, log_dir, address=address)
    except (ValueError, BackendError) as exc:
        raise fail_usage(str(exc)) from None


IsolationOption = Annotated[
    str,
    typer.Option(
        "--isolation",
        help="How a cmd: agent is sandboxed: auto (bwrap when it works here, else none with a warning), bwrap, or none.",
    ),
]
AgentEnvOption = Annotated[
    list[str] | None,
    typer.Option("--agent-env", help="Pass this environment variable on to a cmd: agent (e.g. an API key); repeatable."),
]


@dataclass
class ModelSettings:
    """The `orchestrator run` options of `openai:` and `anthropic:` agents."""

    base_url: str | None = None
    max_turns: int = 50
    max_tokens: int = 4096
    temperature: float | None = None
    model_seed: int | None = None
    parallel_tool_calls: bool = True
    request_timeout: float = 120.0
    max_retries: int = 5
    max_concurrent_requests: int = 4
    stream: bool = False
    max_result_chars: int = 20_000
    price: str | None = None

    def options(self) -> Any:
        from orchestrator.agents.models import ModelOptions

        return ModelOptions(base_url=self.base_url, max_turns=self.max_turns, max_tokens=self.max_tokens,
                            temperature=self.temperature, seed=self.model_seed, parallel_tool_calls=self.parallel_tool_calls,
                            request_timeout_s=self.request_timeout, max_retries=self.max_retries, stream=self.stream,
                            max_result_chars=self.max_result_chars)  # fmt: skip


MODEL_PANEL = "Model agents (openai:MODEL, anthropic:MODEL)"


def restore_stop_signals() -> None:
    """Ctrl-C and SIGTERM stop the run whatever disposition was inherited (a CI background job ignores SIGINT)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def agent_factory(spec: str, isolation: str, env_names: list[str], model: ModelSettings | None = None) -> Callable[[], Agent]:
    """A maker of fresh agents for `spec`; for cmd: agents, resolves the isolation and warns loudly without one;
    model agents share one client-side concurrency limit for their endpoint."""
    from orchestrator.agents.spec import parse_agent
    from orchestrator.agents.command import IsolationError, resolve_isolation

    if spec.startswith(("openai:", "anthropic:")):
        from orchestrator.agents.models import EndpointGate, parse_price

        settings = model or ModelSettings()
        options = settings.options()
        try:
            if settings.price:
                options.price = parse_price(settings.price, spec.partition(":")[2].strip())
            parse_agent(spec, model_options=options)
        except ValueError as exc:
            raise fail_usage(str(exc)) from None
        gate = EndpointGate(settings.max_concurrent_requests)
        return lambda: parse_agent(spec, model_options=options, gate=gate)
    try:
        parse_agent(spec)
    except ValueError as exc:
        raise fail_usage(str(exc)) from None
    if not spec.startswith("cmd:"):
        return lambda: parse_agent(spec)
    try:
        chosen, warning = resolve_isolation(isolation)
    except IsolationError as exc:
        raise fail_usage(str(exc)) from None
    if warning:
        err.print(f"[bold red]WARNING:[/] {warning}", highlight=False)
    missing = [name for name in env_names if name not in os.environ]
    if missing:
        raise fail_usage(f"--agent-env {', '.join(missing)}: not set in this environment")
    cwd = Path.cwd()
    return lambda: parse_agent(spec, isolation=chosen, env_names=env_names, cwd=cwd)


def print_episode_problems(record: RunRecord, prefix: str = "") -> None:
    """What went wrong besides the verdict: the agent's exit, crash or timeout; errors; an interrupted run."""
    from orchestrator.run.runner import episode_problems

    for line in episode_problems(record):
        err.print(prefix + line, highlight=False)


def _is_suite(args: list[Path]) -> bool:
    from orchestrator.run.suite import is_suite

    return is_suite(args)


def _run_suite(
    args: list[Path], make_agent: Callable[[], Agent], *, agent: str, out: Path | None, seed: int, timeout: float | None,
    repeat: int, parallel: int, backend: str, as_json: bool, address: str | None = None, noise: str = "none",
) -> int:
    """`orchestrator run DIR|GLOB|FILES...`: every scenario, a table per scenario and a total; returns the exit code."""
    from orchestrator.backends import BackendError
    from orchestrator.run import suite

    try:
        files = suite.expand(args)
    except suite.SuiteError as exc:
        raise fail_usage(str(exc)) from None
    runs = suite.load_all(files)
    for run in runs:
        for problem in run.problems:
            err.print(f"[red]invalid:[/] {problem}", highlight=False)
    folder = out or Path("runs") / f"suite-{time.strftime('%Y%m%d-%H%M%S')}"
    options = suite.SuiteOptions(out=folder, seed=seed, repeat=repeat, parallel=parallel, timeout_s=timeout, agent=agent, noise=noise)
    backend_impl = _backend_or_exit(backend, folder / "logs", address)

    def hidden_agent() -> Agent:
        made = make_agent()
        if isinstance(getattr(made, "hide", None), list):  # a cmd: agent sees no folder of the suite, siblings included
            made.hide.append(folder.resolve())  # type: ignore[attr-defined]
        return made

    async def main() -> suite.SuiteRecord:
        async with backend_impl:
            with suite.SuiteProgress(err, runs, repeat) as progress:
                return await suite.run_suite(runs, backend_impl, hidden_agent, options, progress,
                                             notify=lambda m: err.print(m, highlight=False))  # fmt: skip

    try:
        record = anyio.run(main)
    except BackendError as exc:
        raise fail_usage(str(exc)) from None
    if as_json:
        print(json.dumps(record.summary, indent=2))
    else:
        suite.render_suite(console, record.summary)
        console.print(f"results: {folder / 'results.json'}")
    for run in record.runs:  # the agent's exit codes, crashes and timeouts, errors
        if run.record is not None and run.scenario is not None:
            print_episode_problems(run.record, prefix=f"{run.scenario.id}: ")
    if record.interrupted:
        err.print(f"interrupted by {record.interrupted}: results written for what ran", highlight=False)
    return record.exit_code()


def _default_out(scenario: scenarios.Scenario) -> Path:
    return Path("runs") / f"{scenario.id}-{time.strftime('%Y%m%d-%H%M%S')}"


def _positive_seconds(value: float | None) -> float | None:
    if value is not None and not value > 0:  # also refuses nan
        raise typer.BadParameter(f"must be a number of seconds above 0, not {value:g}")
    return value


def _noise_profile(value: str) -> str:
    from orchestrator.world.noise import profile

    try:
        return profile(value).name
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


NoiseOption = Annotated[
    str,
    typer.Option("--noise", callback=_noise_profile, help="Noise profile: none, mild or harsh. Faults drawn from the episode seed "
                 "and noisy data laid over the scenario (see orchestrator/world/noise.py); results record every injected fault."),
]


@app.command("run")
def run_command(
    scenario: Annotated[
        list[Path], typer.Argument(help="Scenario YAML file; or a folder, a glob or several files to run them all as a suite.")
    ],
    agent: Annotated[
        str, typer.Option("--agent", help="oracle (the reference solution), noop, 'cmd:COMMAND' for any MCP agent, "
                          "or a model: openai:MODEL (Chat Completions, any OpenAI-compatible server), anthropic:MODEL (Messages API).")
    ] = "oracle",
    out: Annotated[Path | None, typer.Option("--out", help="Folder for results.json and trace.jsonl [default: runs/ID-TIME].")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Episode seed: ids and fault draws follow it.")] = 0,
    timeout: Annotated[
        float | None, typer.Option("--timeout", callback=_positive_seconds, help="Seconds the agent gets [default: the scenario's].")
    ] = None,
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Run K episodes (seeds N, N+1 …) and report pass@k and pass^k.")] = 1,
    parallel: Annotated[int, typer.Option("--parallel", min=1, help="Episodes at once, each in its own sandboxes.")] = 1,
    noise: NoiseOption = "none",
    backend: BackendOption = "local",
    address: Annotated[str | None, typer.Option("--address", help="--backend ray: the Ray cluster to join (HOST:PORT, or auto); "
        "without it a local Ray is started on 127.0.0.1 and stopped at the end.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print results as JSON on stdout.")] = False,
    isolation: IsolationOption = "auto",
    agent_env: AgentEnvOption = None,
    judge: JudgeOption = None,
    base_url: Annotated[str | None, typer.Option("--base-url", rich_help_panel=MODEL_PANEL,
        help="API base URL (an OpenAI-compatible server: vLLM, Ollama …) [default: OPENAI_BASE_URL / ANTHROPIC_BASE_URL, else the vendor's].")] = None,
    max_turns: Annotated[int, typer.Option("--max-turns", min=1, rich_help_panel=MODEL_PANEL, help="Model requests per episode before it is stopped.")] = 50,
    max_tokens: Annotated[int, typer.Option("--max-tokens", min=1, rich_help_panel=MODEL_PANEL, help="Output tokens per model request.")] = 4096,
    temperature: Annotated[float | None, typer.Option("--temperature", min=0, rich_help_panel=MODEL_PANEL, help="Sampling temperature [default: the API's].")] = None,
    model_seed: Annotated[int | None, typer.Option("--model-seed", rich_help_panel=MODEL_PANEL, help="Sampling seed, passed to APIs that take one (Chat Completions).")] = None,
    parallel_tool_calls: Annotated[bool, typer.Option("--parallel-tool-calls/--no-parallel-tool-calls", rich_help_panel=MODEL_PANEL,
        help="Let the model ask for several tool calls in one turn.")] = True,
    request_timeout: Annotated[float, typer.Option("--request-timeout", min=0.001, rich_help_panel=MODEL_PANEL, help="Seconds one model request may take (then it is retried).")] = 120.0,
    max_retries: Annotated[int, typer.Option("--max-retries", min=0, rich_help_panel=MODEL_PANEL,
        help="Retries of a model request after 429/529/5xx, timeouts and lost connections (honouring Retry-After); then the episode ends with status agent_error.")] = 5,
    max_concurrent_requests: Annotated[int, typer.Option("--max-concurrent-requests", min=1, rich_help_panel=MODEL_PANEL,
        help="Model requests in flight at once to the endpoint, across --parallel episodes.")] = 4,
    stream: Annotated[bool, typer.Option("--stream/--no-stream", rich_help_panel=MODEL_PANEL, help="Stream the model's replies.")] = False,
    max_result_chars: Annotated[int, typer.Option("--max-result-chars", min=100, rich_help_panel=MODEL_PANEL, help="A tool result longer than this is cut, with a marker.")] = 20_000,
    price: Annotated[str | None, typer.Option("--price", rich_help_panel=MODEL_PANEL,
        help="INPUT,OUTPUT[,CACHED] dollars per million tokens, or a JSON/YAML file of them by model: adds cost_usd to results.json.")] = None,
) -> None:
    """Run an agent on a scenario, verify the final state, and write results.json and trace.jsonl.

    Exit code 0 when the task passed (every episode), 1 when it failed, 2 for usage, scenario or backend errors
    and for episodes that ended in error (an app server died); 130/143 when SIGINT/SIGTERM stopped the run
    (results are still written, with status interrupted)."""
    from orchestrator.backends import BackendError
    from orchestrator.backends.base import first_error
    from orchestrator.run.runner import RunOptions, RunRecord, run_many
    from orchestrator.show import render_result

    restore_stop_signals()
    if backend == "ray" and agent.startswith("cmd:"):
        raise fail_usage("--backend ray does not run cmd: agents: the command would run on a Ray worker, outside this machine's "
                         "isolation; use --backend local, inprocess or docker for them")
    _use_judge(judge)
    model = ModelSettings(base_url, max_turns, max_tokens, temperature, model_seed, parallel_tool_calls, request_timeout, max_retries,
                          max_concurrent_requests, stream, max_result_chars, price)  # fmt: skip
    if _is_suite(scenario):
        raise typer.Exit(_run_suite(scenario, agent_factory(agent, isolation, agent_env or [], model), agent=agent, out=out, seed=seed,
                                    timeout=timeout, repeat=repeat, parallel=parallel, backend=backend, as_json=as_json,
                                    address=address, noise=noise))  # fmt: skip
    loaded = load_or_exit(scenario[0])
    make_agent = agent_factory(agent, isolation, agent_env or [], model)
    options = RunOptions(out=out or _default_out(loaded), seed=seed, repeat=repeat, parallel=parallel, timeout_s=timeout, noise=noise)
    backend_impl = _backend_or_exit(backend, options.out / "logs", address)
    record: RunRecord | None = None

    async def main() -> RunRecord:
        async with backend_impl:
            with err.status(f"{loaded.id}: starting", spinner="dots") as status:
                states: dict[int, str] = {}

                def on_stage(index: int, stage: str) -> None:
                    if not err.is_terminal:  # no spinner when piped: plain progress lines
                        err.print(f"{loaded.id} #{index + 1}: {stage}", highlight=False)
                    states[index] = stage
                    done = sum(1 for v in states.values() if v == "done")
                    active = [f"#{i + 1} {v}" for i, v in sorted(states.items()) if v != "done"]
                    status.update(f"{loaded.id}: {done}/{repeat} episodes done" + (f"; {', '.join(active[:3])}" if active else ""))

                return await run_many(loaded, backend_impl, make_agent, options, on_stage, notify=lambda m: err.print(m, highlight=False))

    try:
        record = anyio.run(main)
    except BackendError as exc:
        raise fail_usage(str(exc)) from None
    except BaseExceptionGroup as group:
        problem = first_error(group)
        if isinstance(problem, BackendError):
            raise fail_usage(str(problem)) from None
        raise
    if as_json:
        path = options.out / "results.json"
        print(path.read_text() if repeat > 1 else json.dumps(record.results[0].model_dump(mode="json"), indent=2))
    elif repeat == 1:
        render_result(console, record.results[0])
        console.print(f"results: {options.out / 'results.json'}  trace: {options.out / 'trace.jsonl'}")
    else:
        summary = json.loads((options.out / "results.json").read_text())
        _print_repeat(summary)
        console.print(f"results: {options.out / 'results.json'}")
    print_episode_problems(record)
    raise typer.Exit(record.exit_code())


def _print_repeat(summary: dict) -> None:
    table = Table(show_edge=False, title=f"{summary['title']} ({summary['scenario']})", title_justify="left")
    table.add_column("episode")
    table.add_column("seed", justify="right")
    table.add_column("score", justify="right")
    table.add_column("verdict")
    for index, episode in enumerate(summary["results"], 1):
        table.add_row(str(index), str(episode["rng_seed"]), f"{episode['score']:.2f}", "[green]passed[/]" if episode["passed"] else "[red]failed[/]")
    console.print(table)
    n = summary["episodes"]
    console.print(
        f"{summary['passes']}/{n} passed, mean score {summary['score']:.2f}; "
        + ", ".join(f"pass@{k} {summary['pass_at_k'][str(k)]:.2f}" for k in sorted({1, n}))
        + "; "
        + ", ".join(f"pass^{k} {summary['pass_hat_k'][str(k)]:.2f}" for k in sorted({1, n}))
    )


@app.command("serve")
def serve_command(
    scenario: Annotated[Path, typer.Argument(help="Scenario YAML file.")],
    transport: Annotated[str, typer.Option("--transport", help="stdio (what Claude Desktop launches) or http.")] = "stdio",
    host: Annotated[str, typer.Option("--host", help="HTTP bind address.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="HTTP port (0 picks a free one).")] = 8765,
    allowed_host: Annotated[
        list[str] | None, typer.Option("--allowed-host", help="Extra Host name accepted over HTTP (e.g. a compose service name).")
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", help="Parent folder: each served episode gets its own ID-TIME folder in it, and DIR/latest points at the newest.")
    ] = Path("runs"),
    seed: Annotated[int, typer.Option("--seed", help="Episode seed.")] = 0,
    noise: NoiseOption = "none",
    backend: BackendOption = "local",
    judge: JudgeOption = None,
) -> None:
    """Seed a scenario and serve its gateway to an MCP client until stopped; then verify and write the results.

    Serving ends at the end of stdin (stdio), on Ctrl-C or on SIGTERM. Over stdio nothing but protocol goes to stdout."""
    from orchestrator.backends import BackendError
    from orchestrator.backends.base import first_error
    from orchestrator.episode.serving import ServeError, episode_folder, listen, serve_http, serve_stdio
    from orchestrator.show import render_result

    if transport not in ("stdio", "http"):
        raise fail_usage(f"--transport must be stdio or http, not {transport!r}")
    _use_judge(judge)
    from orchestrator.world.noise import noisy

    loaded = noisy(load_or_exit(scenario), noise, seed)
    if transport == "http":
        try:
            listen(host, port).close()  # fail before starting any app server
        except ServeError as exc:
            raise fail_usage(str(exc)) from None
    if backend == "ray":
        raise fail_usage("--backend ray runs whole episodes on a Ray cluster (orchestrator run); serve needs local, inprocess, docker or remote")
    backend_impl = _backend_or_exit(backend, None)  # a misconfigured backend fails before any folder is made
    folder = episode_folder(out, loaded.id)
    if hasattr(backend_impl, "log_dir"):
        backend_impl.log_dir = folder / "logs"
    stopped_by = "end of stdin" if transport == "stdio" else None

    async def main() -> Result:
        from orchestrator.episode.episode import Episode
        from orchestrator.run.runner import write_episode

        nonlocal stopped_by
        async with backend_impl:
            endpoints = await backend_impl.start(loaded.apps)
            async with Episode(loaded, endpoints, rng_seed=seed, workdir=folder) as episode:
                assert episode.gateway is not None
                async with anyio.create_task_group() as tg:

                    async def stop_on_signal() -> None:
                        nonlocal stopped_by
                        with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                            async for received in signals:
                                stopped_by = signal.Signals(received).name
                                err.print(f"{stopped_by}: stopping and verifying")
                                tg.cancel_scope.cancel()
                                return

                    async def serve() -> None:
                        if transport == "stdio":
                            err.print(f"serving {loaded.id} over stdio", highlight=False)
                            await serve_stdio(episode.gateway)
                        else:
                            async with serve_http(episode.gateway, host, port, allowed_host) as url:
                                err.print(f"serving {loaded.id} at {url} (Ctrl-C to stop and verify)", highlight=False)
                                await anyio.sleep_forever()
                        tg.cancel_scope.cancel()

                    tg.start_soon(stop_on_signal)
                    tg.start_soon(serve)
                # A client that closed stdin may follow up with SIGTERM: finish the record first.
                for stop in (signal.SIGINT, signal.SIGTERM):
                    signal.signal(stop, signal.SIG_IGN)
                journal = await episode.journal()
                result = await episode.verify(journal)
                result.episode.update(
                    {"agent": {"agent": f"served over {transport}"}, "backend": backend_impl.name, "stopped_by": stopped_by}
                )
                from orchestrator.verify.process import injected_faults, judge_recovery
                from orchestrator.world.noise import noise_profile

                if (profile := noise_profile(loaded)) is not None:
                    judge_recovery(result, journal)
                    result.episode["noise"] = profile
                if faults := injected_faults(journal):
                    result.episode["faults"] = faults
                write_episode(folder, result, await episode.merged_trace(journal))
                return result

    try:
        result = anyio.run(main)
    except (BackendError, ServeError) as exc:
        raise fail_usage(str(exc)) from None
    except BaseExceptionGroup as group:
        problem = first_error(group)
        if isinstance(problem, (BackendError, ServeError)):
            raise fail_usage(str(problem)) from None
        raise
    render_result(err, result)
    err.print(f"results: {folder / 'results.json'}  trace: {folder / 'trace.jsonl'}")
    raise typer.Exit(0 if result.passed else 1)


config_app = typer.Typer(help="Print MCP client configuration for a scenario.", no_args_is_help=True)
app.add_typer(config_app, name="config")


@config_app.command("claude-desktop")
def claude_desktop_config(
    scenario: Annotated[Path, typer.Argument(help="Scenario YAML file.")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Folder the served episodes go to (one folder each, and latest) [default: runs/ID-claude-desktop].")
    ] = None,
) -> None:
    """Print the claude_desktop_config.json entry that serves this scenario over stdio (absolute paths).

    The command is this installation's own interpreter running `-m orchestrator.cli`, whatever else is on PATH."""
    loaded = load_or_exit(scenario)
    folder = (out or Path("runs") / f"{loaded.id}-claude-desktop").resolve()
    entry = {
        # Absolute but not resolved: a virtual environment's python is a symlink that must stay one.
        "command": str(Path(sys.executable).absolute()),
        "args": ["-m", "orchestrator.cli", "serve", str(scenario.resolve()), "--transport", "stdio", "--out", str(folder)],
        "env": {"PYTHONUNBUFFERED": "1"},
    }
    print(json.dumps({"mcpServers": {f"clawgym-{loaded.id}": entry}}, indent=2))


@app.command("export")
def export_command(
    runs: Annotated[list[Path], typer.Argument(help="Run folders (an episode, a --repeat run, a suite, or a folder of them).")],
    out: Annotated[Path, typer.Option("--out", help="The JSON lines file to write.")],
    fmt: Annotated[str, typer.Option("--format", help="openai (Chat Completions messages + tools), anthropic (Messages API), or sharegpt.")] = "openai",
    passed_only: Annotated[bool, typer.Option("--passed-only", help="Only episodes that passed.")] = False,
    min_score: Annotated[float | None, typer.Option("--min-score", min=0, max=1, help="Only episodes scoring at least S.")] = None,
) -> None:
    """Export episodes as training data: one JSON line each with the tools, the messages, scenario id, seed, score and stage scores.

    Model-agent episodes use their messages.json; others (cmd:, oracle) a conversation built from the trace.
    Episodes that ended in error or agent_error are left out. Order: by folder path."""
    from orchestrator.export import ExportError, export

    try:
        counts = export(runs, fmt, out, passed_only=passed_only, min_score=min_score)
    except ExportError as exc:
        raise fail_usage(str(exc)) from None
    err.print(f"{counts['written']} of {counts['episodes']} episodes written to {out}"
              + (f"; {counts['filtered']} left out by --passed-only/--min-score" if counts["filtered"] else "")
              + (f"; {counts['errors']} ended in error" if counts["errors"] else ""), highlight=False)  # fmt: skip


@app.command("verify-digest")
def verify_digest_command(
    folders: Annotated[list[Path], typer.Argument(help="Episode folders (each with results.json and trace.jsonl).")],
) -> None:
    """Check that each episode's trace.jsonl and journal are the ones its results.json was computed from (sha256)."""
    from orchestrator.run.runner import verify_digest

    bad = 0
    for folder in folders:
        problems = verify_digest(folder)
        bad += bool(problems)
        console.print(f"{folder}: " + ("[green]digest matches[/]" if not problems else "[red]" + "; ".join(problems) + "[/]"), highlight=False)
    raise typer.Exit(1 if bad else 0)


@app.command("view")
def view_command(
    runs: Annotated[list[Path] | None, typer.Argument(help="Run folders (searched recursively) [default: runs].")] = None,
    port: Annotated[int, typer.Option("--port", help="Port on 127.0.0.1 (0 picks a free one).")] = 8780,
) -> None:
    """Look at runs in the browser: a list with filters and pass rates, each run's verdict, violations, state diff
    and timeline, suites, and two runs side by side. Serves on 127.0.0.1 until Ctrl-C."""
    from orchestrator.view.app import ViewError, serve

    roots = runs or [Path("runs")]
    missing = [r for r in roots if not r.is_dir()]
    if missing:
        raise fail_usage(f"no such folder: {', '.join(map(str, missing))}")
    try:
        serve(roots, port, on_ready=lambda url: err.print(f"viewing {', '.join(map(str, roots))} at {url} (Ctrl-C to stop)", highlight=False))
    except ViewError as exc:
        raise fail_usage(str(exc)) from None


@app.command("report")
def report_command(
    runs: Annotated[list[Path], typer.Argument(help="Run folders (searched recursively).")],
    html: Annotated[Path | None, typer.Option("--html", help="Write everything as one self-contained HTML file.")] = None,
    md: Annotated[Path | None, typer.Option("--md", help="Write a Markdown summary table ('-' for stdout).")] = None,
) -> None:
    """Write runs as one self-contained HTML file (--html) to share, or a Markdown summary table (--md) for a pull request."""
    from orchestrator.view.report import html_report, markdown_report

    missing = [r for r in runs if not r.is_dir()]
    if missing:
        raise fail_usage(f"no such folder: {', '.join(map(str, missing))}")
    if html is None and md is None:
        raise fail_usage("say what to write: --html FILE and/or --md FILE (- for stdout)")
    if html is not None:
        html.parent.mkdir(parents=True, exist_ok=True)
        html.write_text(html_report(runs), encoding="utf-8")
        err.print(f"wrote {html}", highlight=False)
    if md is not None:
        text = markdown_report(runs)
        if str(md) == "-":
            sys.stdout.write(text)
        else:
            md.parent.mkdir(parents=True, exist_ok=True)
            md.write_text(text, encoding="utf-8")
            err.print(f"wrote {md}", highlight=False)


@app.command("serve-env")
def serve_env_command(
    scenario_paths: Annotated[list[Path], typer.Argument(metavar="SCENARIO|DIR...", help="Scenario files or folders of them.")],
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port on 127.0.0.1.")] = 8000,
    host: Annotated[str, typer.Option("--host", help="Address to bind (loopback by default).")] = "127.0.0.1",
    backend: Annotated[str, typer.Option("--backend", help="inprocess, local, docker or remote.")] = "inprocess",
    step_rewards: Annotated[bool, typer.Option("--step-rewards", help="Declared per-step rewards (docs/rewards.md).")] = False,
    max_sessions: Annotated[int, typer.Option("--max-sessions", min=1, help="Concurrent sessions, each its own episode.")] = 16,
    idle_timeout: Annotated[float, typer.Option("--idle-timeout", min=0.001, help="Seconds before an idle session (and its episode) is closed.")] = 600.0,
) -> None:
    """Serve scenarios as an OpenEnv environment (HTTP/WebSocket reset, step, state; tools over MCP). Needs the openenv extra."""
    from orchestrator.env.core import EnvError

    try:
        from orchestrator.env.openenv import serve
    except ImportError as exc:
        raise fail_usage(str(exc)) from None
    err.print(f"OpenEnv environment on http://{host}:{port} (ws://{host}:{port}/ws, MCP at /mcp)", highlight=False)
    try:
        serve(scenario_paths, host=host, port=port, backend=backend, step_rewards=step_rewards, max_sessions=max_sessions,
              idle_timeout_s=idle_timeout)  # fmt: skip
    except EnvError as exc:
        raise fail_usage(str(exc)) from None


@app.command("down")
def down_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print what was removed as JSON.")] = False,
) -> None:
    """Remove every Docker container, network and volume ClawGym started (label org.clawgym.managed=true), and nothing else."""
    from orchestrator.backends import BackendError
    from orchestrator.backends.docker import down

    try:
        removed = down()
    except BackendError as exc:
        raise fail_usage(str(exc)) from None
    if as_json:
        print(json.dumps(removed, indent=2))
        return
    for kind, names in removed.items():
        console.print(f"removed {len(names)} {kind}" + (f": {', '.join(names)}" if names else ""))


def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
