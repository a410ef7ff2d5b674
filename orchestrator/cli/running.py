"""`orchestrator run`: an agent on one scenario (K episodes with --repeat) or on a suite of them.

The episodes are `orchestrator.run`'s (`run_many`, `run_suite`); this module turns options into an agent maker, a
backend and a judge, shows progress on stderr, prints results and returns the exit code the records give.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import anyio
import typer

from orchestrator.cli.agent import agent_factory, chosen_agent
from orchestrator.cli.common import (
    backend_or_exit,
    console,
    err,
    fail_usage,
    judge_or_exit,
    load_or_exit,
    restore_stop_signals,
)
from orchestrator.cli.dotenv import load_dotenv
from orchestrator.cli.options import (
    AddressOption,
    AgentEnvOption,
    AgentOption,
    BackendOption,
    BaseUrlOption,
    FailFastOption,
    FailOnErrorOption,
    FamilyOption,
    FreshCountOption,
    FreshOption,
    FreshSeedOption,
    IsolationOption,
    JsonOption,
    JudgeOption,
    LimitOption,
    MaxConcurrentRequestsOption,
    MaxResultCharsOption,
    MaxRetriesOption,
    MaxTokensOption,
    MaxTurnsOption,
    ModelOption,
    ModelSeedOption,
    NoiseOption,
    OutOption,
    ParallelOption,
    ParallelToolCallsOption,
    PriceOption,
    ReleasedOption,
    RepeatOption,
    RequestTimeoutOption,
    ResumeOption,
    SampleOption,
    SeedOption,
    SplitOption,
    StreamOption,
    TagsOption,
    TemperatureOption,
    TimeoutOption,
)

WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        help="--backend inprocess: worker processes that run the episodes (default: one per core; 1: all in this "
        "process). Oracle and noop agents (model agents with --workers N); at least one episode per worker at once.",
    ),
]

RecordsOption = Annotated[
    str,
    typer.Option(
        "--records",
        help="What each episode writes: sealed (its folder: results.json sealed over trace.jsonl; the default) or "
        "minimal (no file per episode, for training: verdicts in memory, the run's summaries still written; not "
        "with --resume, cmd: agents or --backend ray).",
    ),
]

ScenariosArgument = Annotated[
    list[Path] | None,
    typer.Argument(
        help="Scenario YAML file or id; or a folder, a glob, several files or ids to run them all as a suite "
        "(none with --fresh)."
    ),
]

if TYPE_CHECKING:
    from collections.abc import Callable

    from orchestrator.agents.base import Agent
    from orchestrator.backends import Backend
    from orchestrator.run.runner import RunOptions, RunRecord
    from orchestrator.run.select import Selection
    from orchestrator.run.suite import SuiteOptions
    from orchestrator.scenario import Scenario
    from orchestrator.verify.judge import Judge


def run_command(
    scenario: ScenariosArgument = None,
    agent: AgentOption = None,
    model_name: ModelOption = None,
    out: OutOption = None,
    seed: SeedOption = 0,
    timeout: TimeoutOption = None,
    repeat: RepeatOption = 1,
    parallel: ParallelOption = 1,
    workers: WorkersOption = None,
    records: RecordsOption = "sealed",
    tags: TagsOption = None,
    family: FamilyOption = None,
    split: SplitOption = None,
    limit: LimitOption = None,
    sample: SampleOption = None,
    fail_fast: FailFastOption = True,
    fail_on_error: FailOnErrorOption = None,
    resume: ResumeOption = False,
    noise: NoiseOption = "none",
    backend: BackendOption = "local",
    address: AddressOption = None,
    as_json: JsonOption = False,
    isolation: IsolationOption = "auto",
    agent_env: AgentEnvOption = None,
    judge: JudgeOption = None,
    base_url: BaseUrlOption = None,
    max_turns: MaxTurnsOption = 50,
    max_tokens: MaxTokensOption = 4096,
    temperature: TemperatureOption = None,
    model_seed: ModelSeedOption = None,
    parallel_tool_calls: ParallelToolCallsOption = True,
    request_timeout: RequestTimeoutOption = 120.0,
    max_retries: MaxRetriesOption = 5,
    max_concurrent_requests: MaxConcurrentRequestsOption = 4,
    stream: StreamOption = False,
    max_result_chars: MaxResultCharsOption = 20_000,
    price: PriceOption = None,
    fresh: FreshOption = None,
    count: FreshCountOption = 10,
    fresh_seed: FreshSeedOption = None,
    released: ReleasedOption = None,
) -> None:
    """Run an agent on a scenario, verify the final state, and write results.json and trace.jsonl.

    Exit code 0 when the task passed (every episode), 1 when it failed, 2 for usage, scenario or backend errors
    and for errored episodes (an app server died, the model's API failed, the agent's command never started: not
    scored, counted apart; a run stopped by fail-fast or --fail-on-error); 130/143 when SIGINT/SIGTERM stopped the
    run (results are still written, with status interrupted).

    An undecided episode (a stage resting on judge checks no judge answered) is not scored either: exit code 2."""
    restore_stop_signals()
    load_dotenv()
    if backend == "local":  # the app servers' launcher imports while this process does (see backends.launch)
        from orchestrator.backends.launch import prestart

        prestart()
    from orchestrator.run.select import Selection  # the MCP SDK, after the launcher has started

    given = dict(locals())
    agent = chosen_agent(agent, model_name) or "oracle"
    refuse_cmd_on_ray(backend, agent)
    if resume and out is None:
        raise fail_usage("--resume continues the run in --out DIR: give the folder of the run to resume")
    refuse_records(records, agent, backend, resume)
    settings = RunSettings(agent=agent, judge=judge_or_exit(judge), **{name: given[name] for name in SETTINGS_GIVEN})
    agent_maker = partial(
        agent_factory, agent, isolation, agent_env or [], model_options(given), **{k: given[k] for k in AGENT_GIVEN}
    )
    if fresh is not None or not scenario or released is not None:  # a run of fresh draws, or a usage error
        asked = bool(scenario or tags or split or limit or sample)
        raise typer.Exit(run_fresh(fresh, count, fresh_seed, family, released, agent_maker, settings, given=asked))
    groups = [t for group in tags or [] for t in group.split(",") if t.strip()]
    selection = Selection(tags=groups, family=family, split=split, limit=limit, sample=sample, seed=seed)
    files, many = chosen(scenario, selection)
    run = run_suite_of if many else run_single
    raise typer.Exit(run(files, agent_maker(), settings, loaded=selection.loaded))


SETTINGS_GIVEN = tuple(
    "out seed timeout repeat parallel backend as_json address noise fail_fast fail_on_error resume workers records".split()
)
"""The options of `run_command` its `RunSettings` takes as they are given."""
AGENT_GIVEN = ("price", "max_concurrent_requests")
"""The options of `run_command` the agent maker (`agent_factory`) takes by name."""
MODEL_GIVEN = {
    **{name: name for name in "base_url max_turns max_tokens temperature parallel_tool_calls max_retries".split()},
    **{name: name for name in "stream max_result_chars".split()},
    "seed": "model_seed",
    "request_timeout_s": "request_timeout",
}
"""`ModelOptions`' fields, each from the option of `run_command` it is given by."""


def refuse_records(records: str, agent: str, backend: str, resume: bool) -> None:
    """A usage error for a `--records` value that is not one, or minimal records where episodes must write files."""
    from orchestrator.run.runner import MINIMAL, RECORDS

    if records not in RECORDS:
        raise fail_usage(f"--records must be one of {', '.join(RECORDS)}, got {records!r}")
    if records != MINIMAL:
        return
    if resume:
        raise fail_usage("--records minimal keeps no episode records: there is nothing for --resume to keep")
    if agent.startswith("cmd:"):
        raise fail_usage("--records minimal: a cmd: agent's episode writes its log and MCP config in its folder")
    if backend == "ray":
        raise fail_usage("--records minimal: --backend ray writes each episode's folder on its worker")


def model_options(given: dict[str, Any]) -> Any:
    """A model agent's options (`ModelOptions`) from `run_command`'s options."""
    from orchestrator.agents.models.options import ModelOptions

    return ModelOptions(**{field: given[name] for field, name in MODEL_GIVEN.items()})


@dataclass
class RunSettings:
    """What `orchestrator run` and `orchestrator retry` give a run besides its scenarios and agent maker."""

    agent: str
    out: Path | None
    seed: int = 0
    timeout: float | None = None
    repeat: int = 1
    parallel: int = 1
    backend: str = "local"
    as_json: bool = False
    address: str | None = None
    noise: str = "none"
    judge: Judge | None = None
    fail_fast: bool = True
    fail_on_error: float | None = None
    resume: bool = False
    workers: int | None = None
    """Worker processes for in-process episodes (`orchestrator.run.pool`): None for one per core, 1 for none."""
    records: str = "sealed"
    """What each episode writes (`orchestrator.run.runner.RECORDS`)."""
    fresh: dict[str, Any] | None = None
    """A run of fresh draws: what its summary keeps of the draw (`orchestrator.run.fresh.Drawn.record`)."""

    def run_options(self, out: Path) -> SuiteOptions:
        """The runner's options for a run into `out` (one scenario's, or a suite's as `SuiteOptions`)."""
        from orchestrator.run.suite import SuiteOptions

        return SuiteOptions(
            out=out,
            seed=self.seed,
            repeat=self.repeat,
            parallel=self.parallel,
            timeout_s=self.timeout,
            noise=self.noise,
            fail_fast=self.fail_fast,
            fail_on_error=self.fail_on_error,
            resume=self.resume,
            records=self.records,
            agent=self.agent,
            fresh=self.fresh,
        )


def chosen(args: list[Path], selection: Selection) -> tuple[list[Path], bool]:
    """The scenario files the arguments and the selection options choose, and whether they make a suite (a folder,
    a glob, several files or ids, or any selection option); a usage error says what chose nothing."""
    from orchestrator.run import suite
    from orchestrator.run.select import SelectionError, narrow, resolve_ids

    try:
        resolved = resolve_ids(args)
        if not (suite.is_suite(resolved) or selection.narrows):
            return resolved, False
        return narrow(suite.expand(resolved), selection), True
    except (SelectionError, suite.SuiteError) as exc:
        raise fail_usage(str(exc)) from None


def refuse_cmd_on_ray(backend: str, agent: str) -> None:
    """A usage error for a cmd: agent on the ray backend, which would run the command outside this machine's isolation."""
    if backend == "ray" and agent.startswith("cmd:"):
        raise fail_usage(
            "--backend ray does not run cmd: agents: the command would run on a Ray worker, outside this machine's "
            "isolation; use --backend local, inprocess or docker for them"
        )


def run_single(
    args: list[Path], make_agent: Callable[[], Agent], settings: RunSettings, loaded: dict | None = None
) -> int:
    """`orchestrator run FILE`: one scenario's K episodes, the verdict or a table of them, and what went wrong
    besides the verdict; returns the exit code (`RunRecord.exit_code`). It takes `run_suite_of`'s arguments."""
    scenario = load_or_exit(args[0])
    options = settings.run_options(settings.out or default_out(scenario))
    backend = pool_or_backend(settings, make_agent, options, [scenario], options.out / "logs")
    record = run_scenario(scenario, make_agent, options, backend, settings.judge)
    print_run(record, options, settings.as_json)
    print_episode_problems(record)
    if settings.resume:
        print_resumed(record.kept, len(record.results))
    return record.exit_code()


def print_resumed(kept: int, episodes: int) -> None:
    """What a resumed run (--resume, retry) kept and ran again."""
    err.print(
        f"resumed: {kept} of {episodes} episode(s) kept as recorded complete, {episodes - kept} run again",
        highlight=False,
    )


def default_out(scenario: Scenario) -> Path:
    """`runs/ID-TIME`: where a run of `scenario` goes without --out."""
    return Path("runs") / f"{scenario.id}-{time.strftime('%Y%m%d-%H%M%S')}"


def pool_or_backend(
    settings: RunSettings,
    make_agent: Callable[[], Agent],
    options: RunOptions,
    scenarios: list[Scenario],
    log_dir: Path,
) -> Backend:
    """`--backend`'s backend, or for in-process episodes the pool of worker processes that runs them (`--workers`,
    `orchestrator.run.pool`), forked now with the scenarios' apps: then at least one episode per worker runs at once
    (`options.parallel`)."""
    from orchestrator.backends import BackendError
    from orchestrator.run.pool import pool_for

    try:
        pool = pool_for(settings.backend, make_agent(), settings.workers, options.repeat * len(scenarios))
    except BackendError as exc:
        raise fail_usage(str(exc)) from None
    if pool is None:
        return backend_or_exit(settings.backend, log_dir, settings.address)
    pool.fork((app for scenario in scenarios for app in scenario.apps), scenarios)
    options.parallel = max(options.parallel, pool.size)
    return pool


def episode_runner(backend: Backend) -> Any:
    """The function that runs one episode on `backend`: the pool's or Ray's for a backend that runs whole episodes
    on its workers, else None (the runner's own `run_episode`)."""
    if getattr(backend, "runs_episodes", False):
        if callable(own := getattr(backend, "run_episode", None)):
            return own
        from orchestrator.cluster.episodes import run_episode_on_ray

        return run_episode_on_ray
    return None


def run_scenario(
    loaded: Scenario, make_agent: Callable[[], Agent], options: RunOptions, backend: Backend, judge: Judge | None
) -> RunRecord:
    """Run the K episodes of one scenario with a spinner (plain progress lines when piped); a backend that cannot
    start is a usage error."""
    from orchestrator.backends import BackendError
    from orchestrator.backends.base import first_error
    from orchestrator.run.runner import run_many
    from orchestrator.run.suite import noteworthy

    async def main() -> RunRecord:
        async with backend:
            with err.status(f"{loaded.id}: starting", spinner="dots") as status:
                states: dict[int, str] = {}

                def on_stage(index: int, stage: str) -> None:
                    if not err.is_terminal or noteworthy(stage):  # piped: plain lines; retries and errors: always
                        err.print(f"{loaded.id} #{index + 1}: {stage}", highlight=False, markup=False)
                    states[index] = stage
                    done = sum(1 for v in states.values() if v == "done")
                    active = [f"#{i + 1} {v}" for i, v in sorted(states.items()) if v != "done"]
                    status.update(
                        f"{loaded.id}: {done}/{options.repeat} episodes done"
                        + (f"; {', '.join(active[:3])}" if active else "")
                    )

                return await run_many(
                    loaded,
                    backend,
                    make_agent,
                    options,
                    on_stage,
                    notify=lambda m: err.print(m, highlight=False),
                    judge=judge,
                    run_one=episode_runner(backend),
                )

    try:
        return anyio.run(main)
    except BackendError as exc:
        raise fail_usage(str(exc)) from None
    except BaseExceptionGroup as group:
        problem = first_error(group)
        if isinstance(problem, BackendError):
            raise fail_usage(str(problem)) from None
        raise


def print_run(record: RunRecord, options: RunOptions, as_json: bool) -> None:
    """The run's results on stdout: JSON (with its record's kind, as results.json has it), one episode's verdict, or a
    table of the K episodes."""
    from orchestrator.record import EPISODE, with_kind
    from orchestrator.show import render_result

    if as_json:
        path = options.out / "results.json"
        episode = with_kind(record.results[0].model_dump(mode="json"), EPISODE)
        print(path.read_text() if options.repeat > 1 else json.dumps(episode, indent=2))
    elif options.repeat == 1:
        render_result(console, record.results[0])
        console.print(f"results: {options.out / 'results.json'}  trace: {options.out / 'trace.jsonl'}")
    else:
        summary = json.loads((options.out / "results.json").read_text())
        print_repeat(summary)
        console.print(f"results: {options.out / 'results.json'}")


def print_repeat(summary: dict) -> None:
    """A --repeat run: a row per episode, then passes, mean score, pass@k and pass^k over the scored episodes, and
    the errored ones apart (`orchestrator.record.is_errored`)."""
    from rich.table import Table

    from orchestrator.record import describe_errors, is_errored

    table = Table(show_edge=False, title=f"{summary['title']} ({summary['scenario']})", title_justify="left")
    table.add_column("episode")
    table.add_column("seed", justify="right")
    table.add_column("score", justify="right")
    table.add_column("verdict")
    for index, episode in enumerate(summary["results"], 1):
        if is_errored(episode.get("status")):
            table.add_row(str(index), str(episode["rng_seed"]), "-", f"[yellow]{episode['status']}[/] (not scored)")
            continue
        table.add_row(
            str(index),
            str(episode["rng_seed"]),
            f"{episode['score']:.2f}",
            "[green]passed[/]" if episode["passed"] else "[red]failed[/]",
        )
    console.print(table)
    n = summary.get("scored", summary["episodes"])
    errored = (
        f"; {summary['errored']} errored (not scored): {describe_errors(summary.get('errors') or {})}"
        if summary.get("errored")
        else ""
    )
    if not n:
        console.print(f"0 of {summary['episodes']} episodes scored{errored}", highlight=False)
        return
    console.print(
        f"{summary['passes']}/{n} passed, mean score {summary['score']:.2f}; "
        + ", ".join(f"pass@{k} {summary['pass_at_k'][str(k)]:.2f}" for k in sorted({1, n}))
        + "; "
        + ", ".join(f"pass^{k} {summary['pass_hat_k'][str(k)]:.2f}" for k in sorted({1, n}))
        + errored,
        highlight=False,
    )


def print_episode_problems(record: RunRecord, prefix: str = "", *, whole_run: bool = True) -> None:
    """What went wrong besides the verdict: the agent's exit, crash or timeout; errors; (`whole_run`) an interrupted
    or stopped run."""
    from orchestrator.run.runner import episode_problems

    for line in episode_problems(record, whole_run=whole_run):
        err.print(prefix + line, highlight=False)


def run_suite_of(
    files: list[Path], make_agent: Callable[[], Agent], settings: RunSettings, loaded: dict | None = None
) -> int:
    """`orchestrator run DIR|GLOB|FILES|IDS...`: every scenario file (`loaded`: those loaded already), a table per
    scenario and a total; returns the exit code."""
    from orchestrator.backends import BackendError
    from orchestrator.run import suite

    runs = suite.load_all(files, loaded)
    for run in runs:
        for problem in run.problems:
            err.print(f"[red]invalid:[/] {problem}", highlight=False)
    folder = settings.out or Path("runs") / f"suite-{time.strftime('%Y%m%d-%H%M%S')}"
    options = settings.run_options(folder)
    scenarios = [run.scenario for run in runs if run.scenario is not None]
    backend_impl = pool_or_backend(settings, make_agent, options, scenarios, folder / "logs")

    def hidden_agent() -> Agent:
        made = make_agent()
        if isinstance(getattr(made, "hide", None), list):  # a cmd: agent sees no folder of the suite, siblings included
            made.hide += [folder.resolve(), *{f.resolve().parent for f in files}]  # type: ignore[attr-defined]  # a cmd: agent's `hide`, checked a list just above
        return made

    async def main() -> suite.SuiteRecord:
        async with backend_impl:
            with suite.SuiteProgress(err, runs, settings.repeat) as progress:
                return await suite.run_suite(
                    runs,
                    backend_impl,
                    hidden_agent,
                    options,
                    progress,
                    notify=lambda m: err.print(m, highlight=False),
                    judge=settings.judge,
                    run_one=episode_runner(backend_impl),
                )

    try:
        record = anyio.run(main)
    except BackendError as exc:
        raise fail_usage(str(exc)) from None
    if settings.as_json:
        print(json.dumps(record.summary, indent=2))
    else:
        suite.render_suite(console, record.summary)
        console.print(f"results: {folder / 'results.json'}")
    for run in record.runs:  # the agent's exit codes, crashes and timeouts, errors
        if run.record is not None and run.scenario is not None:
            print_episode_problems(run.record, prefix=f"{run.scenario.id}: ", whole_run=False)
    if settings.resume:
        print_resumed(sum(r.record.kept for r in record.runs if r.record), record.summary["total"]["episodes"])
    if record.interrupted:
        err.print(f"interrupted by {record.interrupted}: results written for what ran", highlight=False)
    elif record.stopped:
        err.print(f"stopped early by {record.stopped}: results written for what ran", highlight=False)
    return record.exit_code()


def run_fresh(
    split: str | None,
    count: int,
    seed: int | None,
    family: str | None,
    released: Path | None,
    agent_maker: Callable[[], Callable[[], Agent]],
    settings: RunSettings,
    *,
    given: bool = False,
) -> int:
    """`orchestrator run --fresh SPLIT`: draw `count` tasks of the split into the run's folder under a secret seed
    (`seed` to draw the same again), play them as a suite, then write the seed into its summary and print the pass
    rate on the fresh draws (beside the released split's, from `released`); returns the exit code. `given`: scenarios
    or selection options were given too (a usage error with --fresh, as is no --fresh and no scenario)."""
    from orchestrator.generate.options import default_workers
    from orchestrator.record import read_json
    from orchestrator.run import fresh

    if split is None:
        if released is not None and given:
            raise fail_usage("--released goes with --fresh")
        raise fail_usage("give a SCENARIO (a file, folder, glob or id), or --fresh SPLIT to draw tasks now")
    if given:
        raise fail_usage("--fresh draws its own tasks: give no scenario, --tags, --split, --limit or --sample")
    make_agent = agent_maker()
    released_summary = None
    if released is not None:
        released_summary = read_json(released)
        if not isinstance(released_summary, dict) or not isinstance(released_summary.get("scenarios"), list):
            raise fail_usage(f"--released {released}: not a suite's results.json (no scenarios)")
    folder = settings.out or Path("runs") / f"fresh-{split}-{time.strftime('%Y%m%d-%H%M%S')}"
    if settings.resume and seed is None:  # the seed the run's summary sealed
        seed = ((read_json(folder / "results.json") or {}).get("fresh") or {}).get("seed")
        if not isinstance(seed, int):
            raise fail_usage(f"--resume: {folder / 'results.json'} names no fresh draw's seed: give --fresh-seed")
    families = [f.strip() for f in family.split(",") if f.strip()] if family else None
    with err.status(f"drawing and proving {count} fresh {split} task(s)", spinner="dots"):
        try:
            drawn = fresh.draw(
                split,
                count,
                folder / fresh.FOLDER,
                seed,
                families,
                min(count, default_workers()),
                reuse=settings.resume,
            )
        except fresh.FreshError as exc:
            raise fail_usage(str(exc)) from None
    err.print(f"drew {len(drawn.files)} fresh {split} task(s), each proven", highlight=False)
    settings.out = folder
    settings.fresh = drawn.record()
    code = run_suite_of(drawn.files, make_agent, settings)
    summary = read_json(folder / "results.json") or {}
    (err if settings.as_json else console).print(fresh.pass_line(summary, released_summary), highlight=False)
    return code
