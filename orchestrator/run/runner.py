"""Running episodes for `orchestrator run`: serve the gateway, run the agent, verify, write the record.

Each episode writes into its own folder:

    results.json   the verdict (scenario, passed, score, stages, checks, changes, violations, journal,
                   episode, status, error, digest)
    trace.jsonl    the gateway's trace and the app journals, one timeline
    agent.log      what a command agent printed (cmd: agents only), copied from its output pipe
    mcp.json       the MCP config handed to a command agent

With `--repeat K`, episodes go to `episode-001/` … and `results.json` at the
top summarizes them with pass@k and pass^k.

Every episode ends with a `results.json`, whatever happened: `status` is
`completed`, `timeout` (the agent was stopped by the timeout; still verified),
`interrupted` (SIGINT/SIGTERM stopped the run; the agent is stopped, then the
episode is verified), `agent_error` (a model agent's API kept failing, or a command agent never started: exit
126 or 127; still verified) or `error` (an app server died, a backend failed …). The last three are errored
(`orchestrator.record.is_errored`): `error` says why, and the episode is not scored: repeat totals count
passes, failures, mean score and pass@k over the scored episodes and the errored ones apart, and the run
exits 2. The verdict is computed only after
the agent's whole process tree is gone, and `digest` holds the sha256 of the
`trace.jsonl` and of the journal it was computed from (`verify_digest`).
"""

from __future__ import annotations

import contextlib
import hashlib
import signal
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import anyio
from anyio.abc import TaskGroup

from orchestrator.agents.base import Agent, AgentReport
from orchestrator.agents.command import CommandAgent
from orchestrator.backends.base import Backend, BackendError
from orchestrator.episode.collector import collector_for_episodes
from orchestrator.episode.driver import (  # noqa: F401 - describe_error and failed_result re-exported
    EpisodeDriver,
    describe_error,
    failed_result,
)
from orchestrator.record import (
    EPISODE,
    RESULTS,
    is_errored,
    kind_of,
    read_json,
    start_run,
    unisolated_agent,
    verify_digest,
    write_episode,
    write_json,
)
from orchestrator.run.control import (  # noqa: F401 - re-exported
    FAIL_FAST_WAVE,
    STOP_SIGNALS,
    ErrorWatch,
    Interrupt,
    watch_signals,
)
from orchestrator.run.report import (  # noqa: F401 - call_latency and episode_problems re-exported
    answered_with_error,
    call_latency,
    episode_problems,
    is_call,
    summary,
)
from orchestrator.scenario.model import Scenario
from orchestrator.verify.judge import Judge
from orchestrator.verify.results import Result
from orchestrator.world.noise import noisy

SEALED, MINIMAL = "sealed", "minimal"
RECORDS = (SEALED, MINIMAL)
"""What a run writes per episode (`RunOptions.records`): `sealed`, the episode's folder (results.json sealed over its
trace.jsonl, see `orchestrator.record`); `minimal`, no file per episode (training: the verdict stays in memory, the
run's summaries are still written)."""

EpisodeRunner = Callable[..., Awaitable[Result]]
"""What runs one episode and writes its folder: `run_episode`'s signature (`orchestrator.cluster.run_episode_on_ray`)."""


@dataclass
class RunOptions:
    """How `orchestrator run` runs a scenario: where records go, the seed, repeats, parallelism, timeout, noise."""

    out: Path
    seed: int = 0
    repeat: int = 1
    parallel: int = 1
    timeout_s: float | None = None
    noise: str = "none"
    """The noise profile every episode runs under (`orchestrator.world.noise`)."""
    fail_fast: bool = True
    """Stop the run when its first wave of episodes all errored for the same reason (`ErrorWatch`)."""
    fail_on_error: float | None = None
    """Stop the run once this many (1 or more) or this share (below 1) of its episodes errored (`ErrorWatch`)."""
    resume: bool = False
    """Keep the episodes already recorded complete in `out` (not errored, same scenario and seed); run the rest."""
    records: str = SEALED
    """What each episode writes (`RECORDS`): its sealed folder, or with `minimal` nothing (its result only)."""
    within_run: bool = False
    """`out` is part of a run started above it (a suite's scenario folder): its records are bound to that run's id
    (`orchestrator.record.bind`), not to one of its own."""


@dataclass
class RunRecord:
    """What a run produced: each episode's result and folder, and the signal that stopped it, if any."""

    results: list[Result] = field(default_factory=list)
    dirs: list[Path] = field(default_factory=list)
    interrupted: str | None = None
    """The signal that stopped the run (`SIGINT`, `SIGTERM`), if one did."""
    stopped: str | None = None
    """Why the run stopped early without a signal (`ErrorWatch`: fail-fast, --fail-on-error), if it did."""
    kept: int = 0
    """Episodes not run again because they were recorded complete (`RunOptions.resume`)."""

    @property
    def passed(self) -> bool:
        """Every episode passed (an errored one did not)."""
        return bool(self.results) and all(r.passed and not is_errored(r.status) for r in self.results)

    @property
    def errors(self) -> list[Result]:
        """The errored episodes (`orchestrator.record.is_errored`): not scored, reported apart."""
        return [r for r in self.results if is_errored(r.status)]

    def exit_code(self) -> int:
        """0 every episode passed, 1 some failed, 2 some errored (not scored: see `errors`) or undecided (a judge
        check no judge answered decides it), 128+N when signal N stopped the run."""
        if self.interrupted:
            return 128 + int(signal.Signals[self.interrupted])
        if self.errors or self.stopped or any(r.undecided for r in self.results):
            return 2
        return 0 if self.passed else 1


@unisolated_agent  # an agent without isolation: no key it could read seals a trusted record
async def run_episode(
    scenario: Scenario,
    backend: Backend,
    agent: Agent,
    *,
    folder: Path,
    rng_seed: int,
    timeout_s: float | None = None,
    on_stage: Callable[[str], None] = lambda _: None,
    interrupt: Interrupt | None = None,
    judge: Judge | None = None,
    records: str = SEALED,
) -> Result:
    """Run one episode and write its folder; always returns (and writes) a result, see the module docstring.
    `judge` answers the scenario's `judge` checks (None: they are unjudged); with `records` minimal the folder is
    neither made nor written (`RECORDS`). The episode is wired by the episode driver (`EpisodeDriver`), which keeps
    what went wrong apart from the verdict (`capture`)."""
    interrupt = interrupt or Interrupt()
    timeout = timeout_s or scenario.limits.timeout_s
    info = episode_info(scenario, backend, agent, rng_seed)
    report, status = AgentReport(agent=_agent_label(agent)), "completed"
    if records == SEALED:
        folder.mkdir(parents=True, exist_ok=True)
    driver = EpisodeDriver(
        scenario, backend, rng_seed=rng_seed, workdir=folder, judge=judge, progress=on_stage, capture=True
    )
    async with driver:
        episode = await driver.prepare()
        # An agent in another process (a command agent) reaches the gateway over HTTP, behind a secret.
        async with driver.connect(http=isinstance(agent, CommandAgent)) as url:
            info["gateway"] = url or "in memory"
            on_stage(f"running {agent.name}")
            if hasattr(agent, "on_progress"):  # a model agent: its turns' tokens, its retries and their waits
                agent.on_progress = on_stage
            ran = await driver.run_agent(lambda: agent.run(episode), timeout=timeout, guard=interrupt.guard)
            stopped_by = interrupt.reason if ran.stopped else None
            report, status = agent_outcome(agent, ran.value or report, timeout, ran.timed_out, stopped_by)
            if report.usage is None and callable(getattr(agent, "fill_report", None)):
                agent.fill_report(report)  # type: ignore[attr-defined]  # a stopped model agent's turns and usage so far
        # The agent's process tree is gone here (agents stop it before returning, even when cancelled).
        await driver.verdict()
    return _closed(driver, info, report, status, interrupt, folder, records)


def _closed(
    driver: EpisodeDriver,
    info: dict[str, Any],
    report: AgentReport,
    status: str,
    interrupt: Interrupt,
    folder: Path,
    records: str,
) -> Result:
    """The episode's result once its driver is closed: its verdict with how it ran, or the record of an episode that
    could not be judged (`EpisodeDriver.failed`); written to `folder` unless `records` is minimal."""
    info["agent"] = report.as_dict()
    if driver.teardown_error is not None:
        info["teardown_error"] = driver.teardown_error
    result = driver.result
    if result is None:
        result = driver.failed(info)
        if status == "interrupted":
            result.error = f"{result.error} (the run was interrupted by {interrupt.reason})"
    else:
        result.episode.update(info)
        result.status = status  # type: ignore[assignment]  # a status name of Result's (the episode's outcome)
        if status == "agent_error":
            result.error = report.agent_error
    if records == SEALED:
        driver.record(folder, result)
    result._calls = [(float(e.get("latency_ms") or 0.0), answered_with_error(e)) for e in driver.trace if is_call(e)]
    return result


def episode_info(scenario: Scenario, backend: Backend, agent: Agent, rng_seed: int) -> dict[str, Any]:
    """What an episode's record says of how it ran, known before it starts: backend, isolation, episode seed, the
    agent's uid and why it is untrusted (if so), and the scenario's file and digest."""
    info: dict[str, Any] = {"backend": backend.name, "isolation": agent.isolation, "rng_seed": rng_seed}
    if (uid := getattr(agent, "host_uid", None)) is not None:
        info["agent_uid"] = uid
    info |= {"untrusted": why} if (why := getattr(agent, "untrusted", None)) else {}  # isolation none
    if scenario.path is not None:
        info["scenario_file"] = str(scenario.path)
    info["scenario_sha256"] = scenario_digest(scenario)
    return info


_digests: dict[tuple[str, int, int], str] = {}


def scenario_digest(scenario: Scenario) -> str:
    """sha256 of the scenario an episode ran, as its record states it (sealed with the verdict): of its file's bytes
    (the noise profile and seed are recorded apart), remembered until the file changes; or of its data, for one
    made in memory."""
    if scenario.path is not None:
        with contextlib.suppress(OSError):
            info = scenario.path.stat()
            key = (str(scenario.path), info.st_mtime_ns, info.st_size)
            if key not in _digests:
                if len(_digests) > 10_000:
                    _digests.clear()
                _digests[key] = hashlib.sha256(scenario.path.read_bytes()).hexdigest()
            return _digests[key]
    return hashlib.sha256(scenario.model_dump_json().encode()).hexdigest()


def agent_outcome(
    agent: Agent, report: AgentReport, timeout: float, timed_out: bool, stopped_by: str | None
) -> tuple[AgentReport, str]:
    """The agent's report and the episode's status once the agent is done: `interrupted` when a signal stopped it,
    `timeout` when the timeout did, `agent_error` when it never worked on the task (`AgentReport.agent_error`: its
    model's API failed for good, or its command never started), else `completed`."""
    if stopped_by:
        return AgentReport(agent=_agent_label(agent), errors=[f"stopped by {stopped_by}"]), "interrupted"
    if timed_out:
        report = AgentReport(
            agent=_agent_label(agent), timed_out=True, errors=[f"stopped after the {timeout:g} s timeout"]
        )
    if report.timed_out:
        return report, "timeout"
    return report, "agent_error" if report.agent_error else "completed"


def _agent_label(agent: Agent) -> str:
    return f"cmd:{agent.command}" if isinstance(agent, CommandAgent) else agent.name


def episode_folder(options: RunOptions, index: int) -> Path:
    """The folder of episode `index`: the run's folder itself, or `episode-NNN` under it with --repeat."""
    return options.out if options.repeat == 1 else options.out / f"episode-{index + 1:03d}"


async def run_many(
    scenario: Scenario,
    backend: Backend,
    make_agent: Callable[[], Agent],
    options: RunOptions,
    on_stage: Callable[[int, str], None] = lambda _k, _s: None,
    *,
    interrupt: Interrupt | None = None,
    notify: Callable[[str], None] = lambda _: None,
    judge: Judge | None = None,
    run_one: EpisodeRunner | None = None,
    watch: ErrorWatch | None = None,
    slots: Gate | None = None,
) -> RunRecord:
    """K episodes, `parallel` at once; each writes its folder whatever happens to the others; `judge` answers
    the scenario's `judge` checks in every episode (None: they are unjudged). `watch` (by default one for these
    episodes, from `options`) stops the run for its errors through `interrupt`, as a signal would; with
    `options.resume` an episode already recorded complete in its folder is kept, not run (`recorded`).

    `run_one` runs each episode: `run_episode` by default; a backend that runs whole episodes on its own workers
    (`backend.runs_episodes`: ray) needs the caller to give its function (`orchestrator.cluster.run_episode_on_ray`),
    which this module does not import (it is the one that imports this module).
    Without an `interrupt` of the caller's, SIGINT and SIGTERM are handled here (see `watch_signals`);
    `notify` receives the messages to show; `slots`, episode slots shared with a suite's other scenarios, if any."""
    if run_one is None and getattr(backend, "runs_episodes", False):
        raise BackendError(
            f"the {backend.name} backend runs whole episodes on its workers: run them with its episode "
            "function (run_many(..., run_one=orchestrator.cluster.run_episode_on_ray))"
        )
    own = interrupt is None
    interrupt = interrupt or Interrupt()
    if not options.within_run:
        start_run(options.out, resume=options.resume)
    kept = {i: r for i in range(options.repeat) if options.resume and (r := recorded(scenario, options, i)) is not None}
    if watch is None:
        watch = ErrorWatch(options.repeat - len(kept), options.parallel, options.fail_fast, options.fail_on_error)
    episodes = _Episodes(
        scenario,
        backend,
        options,
        make_agent,
        run_one or run_episode,
        on_stage,
        interrupt,
        notify,
        judge,
        watch,
        anyio.Semaphore(max(1, options.parallel)),
        slots,
    )
    with collector_for_episodes():
        async with anyio.create_task_group() as outer:
            if own:
                outer.start_soon(watch_signals, interrupt, outer.cancel_scope, notify)
            try:
                if not (interrupt.reason or len(kept) == options.repeat or getattr(backend, "runs_episodes", False)):
                    # once, before episodes race to start the same servers (ray: the apps start on its workers)
                    await backend.start(scenario.apps)
            except Exception as exc:
                episodes.none_started(sorted(set(range(options.repeat)) - set(kept)), describe_error(exc))
            else:
                await episodes.run_all(i for i in range(options.repeat) if i not in kept)
            outer.cancel_scope.cancel()
    return _recorded_run(scenario, options, kept | episodes.results, interrupt, len(kept))


@dataclass
class _Episodes:
    """The episodes of one `run_many` as they run: what each needs, and their results by index."""

    scenario: Scenario
    backend: Backend
    options: RunOptions
    make_agent: Callable[[], Agent]
    run_one: EpisodeRunner
    on_stage: Callable[[int, str], None]
    interrupt: Interrupt
    notify: Callable[[str], None]
    judge: Judge | None
    watch: ErrorWatch
    mine: anyio.Semaphore
    """This scenario's episode slots (`options.parallel`)."""
    slots: Gate | None
    """Episode slots shared with a suite's other scenarios, if any."""
    results: dict[int, Result] = field(default_factory=dict)
    _label: str | None = None

    def prepare(self) -> Agent:
        """A new agent for an episode; a command agent is kept out of the run's folder."""
        agent = self.make_agent()
        if isinstance(agent, CommandAgent):
            agent.hide.append(self.options.out.resolve())  # every episode's folder, siblings included
        return agent

    def label(self) -> str:
        """The agent's label for episodes that never start (made once, only when one does not)."""
        if self._label is None:
            try:
                self._label = _agent_label(self.make_agent())
            except Exception:  # an agent that cannot be made: the episode's error says why it did not start
                self._label = ""
        return self._label

    async def run_all(self, indexes: Iterable[int]) -> None:
        """Run these episodes, each started once its slots are free (`_start_lazily`)."""
        async with anyio.create_task_group() as tg:
            gates = (self.mine,) if self.slots is None else (self.mine, self.slots)
            await _start_lazily(tg, indexes, gates, self.one)

    async def one(self, index: int) -> None:
        """Run episode `index` in the slots taken for it, or record it not started when the run was stopped."""
        options, on_stage, interrupt = self.options, self.on_stage, self.interrupt
        folder = episode_folder(options, index)
        async with _released(self.mine), _released(self.slots) if self.slots is not None else contextlib.nullcontext():
            if interrupt.reason:
                self.results[index] = not_run(
                    self.scenario,
                    folder,
                    f"not started: the run was stopped by {interrupt.cause}",
                    "interrupted",
                    self.backend,
                    options.seed + index,
                    self.label(),
                    options.records,
                )
            else:
                self.results[index] = await self.run_one(
                    variant(self.scenario, options, index),
                    self.backend,
                    self.prepare(),
                    folder=folder,
                    rng_seed=options.seed + index,
                    timeout_s=options.timeout_s,
                    on_stage=lambda stage: on_stage(index, stage),
                    interrupt=interrupt,
                    judge=self.judge,
                    **({} if options.records == SEALED else {"records": options.records}),
                )
                if self.results[index].status in ("error", "agent_error"):
                    on_stage(index, f"error: {self.results[index].status}: {self.results[index].error}")
                self.watch.stop_if_due(self.results[index], interrupt, self.notify)
        on_stage(index, "done")

    def none_started(self, indexes: Iterable[int], message: str) -> None:
        """Record these episodes as not run because the apps could not start (`message`: why), each counted by the
        watch as if it had run."""
        for index in indexes:
            self.results[index] = not_run(
                self.scenario,
                episode_folder(self.options, index),
                message,
                "error",
                self.backend,
                self.options.seed + index,
                self.label(),
                self.options.records,
            )
            self.watch.stop_if_due(self.results[index], self.interrupt, self.notify)  # as if it had run


class Gate(Protocol):
    """Slots an episode takes before it starts and gives back as it ends: an `anyio.Semaphore`, or a scenario's share
    of a suite's (`orchestrator.run.slots.Share`)."""

    async def acquire(self) -> None: ...

    def release(self) -> None: ...


async def _start_lazily(
    tg: TaskGroup, indexes: Iterable[int], gates: tuple[Gate, ...], one: Callable[[int], Coroutine[Any, Any, None]]
) -> None:
    """Start `one(index)` for each index once each of `gates` has a free slot (released by `one` as it ends), so a
    run of a million episodes holds only the ones running, not a million waiting tasks. A suite's shared slots are
    the last gate: each scenario waits for them with one episode at a time (see `orchestrator.run.slots`)."""
    for index in indexes:
        for gate in gates:
            await gate.acquire()
        tg.start_soon(one, index)


@contextlib.asynccontextmanager
async def _released(gate: Gate) -> AsyncIterator[None]:
    """Hold a slot `_start_lazily` acquired for this episode, and give it back when the episode ends."""
    try:
        yield
    finally:
        gate.release()


def _recorded_run(
    scenario: Scenario, options: RunOptions, results: dict[int, Result], interrupt: Interrupt, kept: int
) -> RunRecord:
    """The run's record from its episodes' results by index; a repeat's summary written."""
    record = RunRecord(interrupted=interrupt.signal, stopped=interrupt.stopped, kept=kept)
    for index in sorted(results):
        record.results.append(results[index])
        record.dirs.append(episode_folder(options, index))
    if options.repeat > 1 and record.results:
        write_json(options.out / "results.json", summary(scenario, record, options))
    return record


def variant(scenario: Scenario, options: RunOptions, index: int) -> Scenario:
    """Episode `index`'s scenario: under the run's noise profile (`noisy`), loaded from the same file."""
    made = noisy(scenario, options.noise, options.seed + index)
    made._path = scenario.path  # the file it was loaded from, which the record names
    return made


def recorded(scenario: Scenario, options: RunOptions, index: int) -> Result | None:
    """Episode `index`'s result as its folder records it, when it is complete: an episode record of this scenario
    and seed that is not errored (`is_errored`) and whose sealed digest verifies (`verify_digest`: not edited since
    this machine wrote it); None when it must run (again)."""
    folder = episode_folder(options, index)
    data = read_json(folder / RESULTS)
    if kind_of(data) != EPISODE or data.get("scenario") != scenario.id or is_errored(data.get("status")):
        return None
    if (data.get("episode") or {}).get("rng_seed") != options.seed + index or verify_digest(folder):
        return None
    try:
        return Result.model_validate({k: v for k, v in data.items() if k not in ("kind", "attack")})
    except ValueError:
        return None


def not_run(
    scenario: Scenario,
    folder: Path,
    message: str,
    status: str,
    backend: Backend,
    rng_seed: int,
    agent: str = "",
    records: str = SEALED,
) -> Result:
    """Record an episode that could not run (a failed result with `status` and `message`) in `folder` (unless
    `records` is minimal), naming the agent it was for (`agent`: its label, as a run's episodes name it), so it
    counts with that agent's episodes; the result."""
    info: dict[str, Any] = {"backend": backend.name, "rng_seed": rng_seed}
    if agent:
        info["agent"] = AgentReport(agent=agent).as_dict()
    result = failed_result(scenario, status, message, info)
    if records == SEALED:
        write_episode(folder, result, [])
    return result
