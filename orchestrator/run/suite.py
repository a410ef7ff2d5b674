"""Suites: every scenario of a folder, a glob or a list of files in one run (`orchestrator run scenarios/`).

Each scenario runs through `run_many` (with `--repeat`, `--parallel` and any agent) into its own folder,
and one summary is written at the top:

    OUT/results.json        kind "suite": per scenario episodes, passes, pass@k, pass^k, mean score and
                            stage scores, tool calls, time and cost when known; totals; files that did not load
    OUT/<scenario-id>/      that scenario's run: results.json and trace.jsonl, or episode-NNN/ and a summary

The summary is written through `orchestrator.record` (`write_summary`, kind "suite"), with its pass@k tables.

May import `orchestrator.run.runner`, `orchestrator.run.slots`, `orchestrator.run.suite_console` (the suite on the
console), `orchestrator.episode.collector`, `orchestrator.record`,
`orchestrator.scenario`, `orchestrator.backends`, `orchestrator.agents` and `orchestrator.verify`.
"""

from __future__ import annotations

import contextlib
import glob
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from orchestrator import scenario as scenarios
from orchestrator.agents.base import Agent
from orchestrator.backends.base import Backend
from orchestrator.episode.collector import collector_for_episodes
from orchestrator.record import SUITE, is_errored, is_undecided, start_run, tally, write_summary
from orchestrator.run.runner import (
    EpisodeRunner,
    ErrorWatch,
    Interrupt,
    RunOptions,
    RunRecord,
    recorded,
    run_many,
    watch_signals,
)
from orchestrator.run.slots import SuiteSlots
from orchestrator.run.suite_console import (  # noqa: F401 - the console's, re-exported
    SuiteProgress,
    episodes_verdict,
    noteworthy,
    print_table,
    render_suite,
)
from orchestrator.scenario.model import Scenario
from orchestrator.verify.judge import Judge
from orchestrator.verify.results import Result

GLOB_CHARS = set("*?[")


class SuiteError(ValueError):
    """The scenario arguments name nothing to run; the message says which."""


def expand(args: Sequence[str | Path]) -> list[Path]:
    """Scenario files from folders (searched recursively), globs and files, in order, without repeats."""
    files: list[Path] = []
    for arg in args:
        text = str(arg)
        if GLOB_CHARS & set(text) and not Path(text).exists():
            matched = sorted(Path(m) for m in glob.glob(text, recursive=True))
            if not matched:
                raise SuiteError(f"{text}: no file matches")
            found = scenarios.discover([m for m in matched if m.is_dir() or m.suffix in (".yaml", ".yml")])
        elif Path(text).is_dir():
            found = scenarios.discover([Path(text)])
            if not found:
                raise SuiteError(f"{text}: no scenario files (*.yaml) in this folder")
        elif Path(text).exists():
            found = [Path(text)]
        else:
            raise SuiteError(f"{text}: no such file or folder")
        for file in found:
            if file.resolve() not in {f.resolve() for f in files}:
                files.append(file)
    if not files:
        raise SuiteError(f"no scenario files in {', '.join(map(str, args))}")
    return files


def is_suite(args: Sequence[str | Path]) -> bool:
    """More than one scenario argument, a folder or a glob: a suite run rather than one scenario's."""
    if len(args) != 1:
        return True
    text = str(args[0])
    return Path(text).is_dir() or (bool(GLOB_CHARS & set(text)) and not Path(text).exists())


@dataclass
class SuiteOptions(RunOptions):
    """`RunOptions` for every scenario of the suite (`out` is the suite's folder), and the agent's name."""

    agent: str = "oracle"
    fresh: dict[str, Any] | None = None
    """A run of fresh draws (`orchestrator.run.fresh`): its split and seed, written into the summary as `fresh`."""


@dataclass
class ScenarioRun:
    """One scenario of a suite: its file, what it loaded to, its run folder and record, or why it did not load."""

    file: Path
    scenario: Scenario | None = None
    folder: Path | None = None
    record: RunRecord | None = None
    problems: list[str] = field(default_factory=list)
    wall_s: float = 0.0


@dataclass
class SuiteRecord:
    """What a suite produced: each scenario's run, the summary results.json holds, and the stopping signal."""

    runs: list[ScenarioRun]
    summary: dict[str, Any]
    interrupted: str | None = None
    stopped: str | None = None
    """Why the suite stopped early without a signal (fail-fast, --fail-on-error: `ErrorWatch`), if it did."""

    @property
    def passed(self) -> bool:
        """Every scenario ran and passed every episode (an errored episode did not pass)."""
        return all(r.record is not None and r.record.passed for r in self.runs)

    def exit_code(self) -> int:
        """0 when every scenario passed every episode, 1 when some failed, 2 when a file did not load or an episode
        errored (`orchestrator.record.is_errored`: not scored) or was undecided (a judge check no judge answered), 128+N when signal N stopped the run."""
        if self.interrupted:
            return 128 + int(signal.Signals[self.interrupted])
        if self.stopped or any(r.problems or (r.record and r.record.exit_code() == 2) for r in self.runs):
            return 2
        return 0 if self.passed else 1


def _folder_names(runs: list[ScenarioRun], out: Path) -> None:
    used: set[str] = set()
    for run in runs:
        if run.scenario is None:
            continue
        name, n = run.scenario.id, 1
        while name in used:
            n += 1
            name = f"{run.scenario.id}-{n}"
        used.add(name)
        run.folder = out / name


def load_all(files: list[Path], loaded: dict[Path, Scenario] | None = None) -> list[ScenarioRun]:
    """Load each file as a scenario of the suite (`loaded`: files loaded already); a file that does not load keeps
    its problems and is not run."""
    runs = []
    for file in files:
        try:
            runs.append(ScenarioRun(file, scenario=(loaded or {}).get(file) or scenarios.load(file)))
        except scenarios.ScenarioError as exc:
            runs.append(ScenarioRun(file, problems=[str(p) for p in exc.problems]))
    return runs


SCENARIO_WINDOW = 64
"""Scenarios of a suite in progress at once, taking the episode slots in turn (bounded: a suite of 20,000 generated
tasks holds 64 scenarios' waiting starts, not 20,000)."""


async def run_suite(
    runs: list[ScenarioRun],
    backend: Backend,
    make_agent: Callable[[], Agent],
    options: SuiteOptions,
    on_event: Callable[[str, ScenarioRun, int, str], None] = lambda _kind, _run, _i, _s: None,
    notify: Callable[[str], None] = lambda _: None,
    judge: Judge | None = None,
    run_one: EpisodeRunner | None = None,
) -> SuiteRecord:
    """Run every loaded scenario; at most `parallel` episodes at once in total, shared by the scenarios in progress
    (`SCENARIO_WINDOW`, the next one starting as soon as one ends) as `SuiteSlots` shares them: the scenario whose
    episodes take longest first, at most half the slots each while others wait. Writes OUT/results.json.
    `judge` answers the `judge` checks of every episode (None: they are unjudged); `run_one` runs each episode
    (see `run_many`: `orchestrator.cluster.run_episode_on_ray` for the ray backend).

    `on_event(kind, run, episode_index, text)`: kind is "stage" (an episode's stage changed), "start"
    or "done" (a scenario)."""
    _folder_names(runs, options.out)
    start_run(options.out, resume=options.resume)  # one run: every scenario's records are bound to it
    runnable = [r for r in runs if r.scenario is not None]
    within = max(1, min(options.repeat, options.parallel))
    # Up to SCENARIO_WINDOW scenarios in progress (more if more episodes run at once), each waiting for the shared
    # slots with one episode at a time: every scenario's first episode comes early, and one whose episodes wait (a
    # retry-after honoured, a slow model) starts its others early, while the rest keep the cores busy.
    scenario_slots = anyio.Semaphore(max(SCENARIO_WINDOW, options.parallel + 1))
    episode_slots = SuiteSlots(options.parallel)
    interrupt = Interrupt()
    started = time.perf_counter()
    planned = sum(options.repeat - _kept(run, options) for run in runnable)
    watch = ErrorWatch(planned, options.parallel, options.fail_fast, options.fail_on_error)

    async def one(run: ScenarioRun) -> None:
        assert run.scenario is not None and run.folder is not None
        async with scenario_slots:
            started: list[float] = []

            def start() -> None:  # a scenario starts when its first episode has a slot
                on_event("start", run, 0, "")
                started.append(time.perf_counter())

            share = episode_slots.share(start)
            run.record = await run_many(
                run.scenario,
                backend,
                make_agent,
                _options_of(run, options, within),
                lambda index, stage: on_event("stage", run, index, stage),
                interrupt=interrupt,
                notify=notify,
                judge=judge,
                run_one=run_one,
                watch=watch,
                slots=share,
            )
            if not started:  # nothing ran: every episode kept, or not started
                start()
            run.wall_s = time.perf_counter() - started[0]
            on_event("done", run, 0, "")

    with collector_for_episodes():
        async with anyio.create_task_group() as outer:
            outer.start_soon(watch_signals, interrupt, outer.cancel_scope, notify)
            await _start_apps(backend, runnable)
            async with anyio.create_task_group() as tg:
                for run in runnable:
                    tg.start_soon(one, run)
            outer.cancel_scope.cancel()
    record = SuiteRecord(runs, {}, interrupted=interrupt.signal, stopped=interrupt.stopped)
    record.summary = summarize(runs, options, interrupted=interrupt.signal, elapsed_s=time.perf_counter() - started)
    record.summary["stopped"] = interrupt.stopped
    if options.fresh is not None:  # the draw's seed, known only to this run until now
        record.summary["fresh"] = options.fresh
    write_summary(options.out, record.summary, SUITE)
    return record


async def _start_apps(backend: Backend, runs: list[ScenarioRun]) -> None:
    """Start every app of the suite's scenarios at once (a local backend's servers in parallel, not one scenario's
    after another's); the servers are shared by every episode of the suite. A failure is left to each scenario's own
    run, which starts its apps again and records why they did not start."""
    apps = sorted({app for run in runs if run.scenario is not None for app in run.scenario.apps})
    if apps and not getattr(backend, "runs_episodes", False):
        with contextlib.suppress(Exception):
            await backend.start(apps)


def _options_of(run: ScenarioRun, options: SuiteOptions, within: int) -> RunOptions:
    """The `RunOptions` of one scenario of the suite: its folder, `within` of its episodes at once."""
    assert run.folder is not None
    return RunOptions(
        out=run.folder,
        seed=options.seed,
        repeat=options.repeat,
        parallel=within,
        timeout_s=options.timeout_s,
        noise=options.noise,
        fail_fast=options.fail_fast,
        fail_on_error=options.fail_on_error,
        resume=options.resume,
        records=options.records,
        within_run=True,
    )


def _kept(run: ScenarioRun, options: SuiteOptions) -> int:
    """How many episodes of a scenario a resumed suite keeps (recorded complete): 0 when not resuming."""
    if not options.resume or run.scenario is None:
        return 0
    scenario_options = _options_of(run, options, 1)
    return sum(recorded(run.scenario, scenario_options, i) is not None for i in range(options.repeat))


def _cost(result: Result) -> float | None:
    agent = result.episode.get("agent")
    if not isinstance(agent, dict):
        return None
    for key in ("cost_usd", "cost"):
        value = agent.get(key)
        if isinstance(value, int | float):
            return float(value)
    usage = agent.get("usage")
    if isinstance(usage, dict) and isinstance(usage.get("cost_usd"), int | float):
        return float(usage["cost_usd"])
    return None


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 6) if values else None


def scenario_row(run: ScenarioRun) -> dict[str, Any]:
    """One scenario's row of the suite summary: episodes, and over the scored ones passes, failures, pass@k and
    pass^k, scores; the errored ones apart with their reasons (`orchestrator.record.tally`); calls, time, cost."""
    row: dict[str, Any] = {"file": str(run.file)}
    if run.scenario is None:
        return row | {"id": None, "status": "invalid", "problems": run.problems, "passed": False}
    results = run.record.results if run.record else []
    counts = tally(results)
    scored = [r for r in results if not is_errored(r.status) and not is_undecided(r)]
    stage_names = [s.name for s in run.scenario.stages]

    def stage_mean(i: int) -> float | None:
        return _mean([r.stages[i].score if i < len(r.stages) else 0.0 for r in scored])

    def stage_scored(i: int) -> bool:  # a stage of process checks only is not in the score
        return not scored or any(r.stages[i].scored for r in scored if i < len(r.stages))

    costs = [cost for r in results if (cost := _cost(r)) is not None]
    durations = [
        float(r.episode["duration_s"]) for r in results if isinstance(r.episode.get("duration_s"), int | float)
    ]
    statuses: dict[str, int] = {}
    for r in results:
        status = getattr(r, "status", None) or "completed"
        statuses[status] = statuses.get(status, 0) + 1
    return row | {
        "id": run.scenario.id,
        "title": run.scenario.title,
        "folder": str(run.folder),
        **counts.as_dict(),
        "passed": counts.scored > 0 and counts.failed == 0,
        "stages": [
            {"name": name, "mean_score": stage_mean(i), "scored": stage_scored(i)} for i, name in enumerate(stage_names)
        ],
        "calls": _mean([float(r.journal.calls) for r in results]),
        "duration_s": _mean(durations),
        "wall_s": round(run.wall_s, 3),
        "cost_usd": round(sum(costs), 6) if costs and len(costs) == len(results) else None,
        "statuses": statuses,
        "status": next((s for s in ("error", "agent_error", "interrupted") if s in statuses), None)
        or ("undecided" if counts.undecided else "completed"),
        **_attack_row(scored),
    }


def _attack_row(results: list[Result]) -> dict[str, Any]:
    """For a prompt-injection variant: the share of its episodes with utility and with security (Result.attack)."""
    outcomes = [a for r in results if (a := getattr(r, "attack", None)) is not None]
    if not outcomes:
        return {}
    return {
        "attack": {
            "utility": _mean([float(a["utility"]) for a in outcomes]),
            "security": _mean([float(a["security"]) for a in outcomes]),
        }
    }


def summarize(
    runs: list[ScenarioRun], options: SuiteOptions, *, interrupted: str | None = None, elapsed_s: float = 0.0
) -> dict[str, Any]:
    """The suite's results.json (kind "suite"): a row per scenario file and the totals over the scenarios that ran:
    scenarios passed and failed, mean score, pass@k and pass^k over those with a scored episode; episodes, passes
    and errored episodes with their reasons (an errored episode is not scored: `orchestrator.record.is_errored`)."""
    rows = [scenario_row(r) for r in runs]
    ran = [r for r in rows if r.get("id") and r["episodes"]]
    ks = range(1, options.repeat + 1)

    def mean_of(key: str, k: int) -> float | None:
        values = [r[key][str(k)] for r in ran if str(k) in r.get(key, {})]
        return _mean(values)

    costs = [r["cost_usd"] for r in ran if r["cost_usd"] is not None]
    reasons: dict[str, int] = {}
    for r in ran:
        for reason, count in (r.get("errors") or {}).items():
            reasons[reason] = reasons.get(reason, 0) + count
    scored = [r for r in ran if r.get("scored", r["episodes"])]
    return {
        "kind": SUITE,
        "agent": options.agent,
        "repeat": options.repeat,
        "seed": options.seed,
        "noise": options.noise,
        "scenarios": rows,
        "total": {
            "scenarios": len(rows),
            "run": len(ran),
            "passed": sum(1 for r in scored if r["passed"]),
            "failed": sum(1 for r in scored if not r["passed"]),
            "invalid": sum(1 for r in rows if r.get("status") == "invalid"),
            "episodes": sum(r["episodes"] for r in ran),
            "scored": sum(r.get("scored", r["episodes"]) for r in ran),
            "passes": sum(r["passes"] for r in ran),
            "errored": sum(r.get("errored", 0) for r in ran),
            "undecided": sum(r.get("undecided", 0) for r in ran),
            "errors": reasons,
            "score": _mean([r["score"] for r in scored if r["score"] is not None]),
            "pass_at_k": {str(k): mean_of("pass_at_k", k) for k in ks},
            "pass_hat_k": {str(k): mean_of("pass_hat_k", k) for k in ks},
            "calls": round(sum((r["calls"] or 0) * r["episodes"] for r in ran), 3),
            "wall_s": round(elapsed_s, 3),
            "cost_usd": round(sum(costs), 6) if costs and len(costs) == len(ran) else None,
            **_attack_total(ran),
        },
        "passed": bool(ran)
        and len(ran) == len(rows)
        and all(r["passed"] and not r.get("errored") and not r.get("undecided") for r in ran),
        "interrupted": interrupted,
        "written_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def _attack_total(ran: list[dict[str, Any]]) -> dict[str, Any]:
    """AgentDojo's two numbers over the attacked scenarios: utility under attack and attack success rate."""
    attacked = [r["attack"] for r in ran if r.get("attack")]
    if not attacked:
        return {}
    return {
        "attacked": len(attacked),
        "utility_under_attack": _mean([a["utility"] for a in attacked]),
        "attack_success_rate": _mean([1 - a["security"] for a in attacked]),
    }
