"""The episode driver: the one way an episode is wired, whatever starts it.

    async with EpisodeDriver(scenario, backend, rng_seed=7) as driver:
        episode = await driver.prepare()                 # start the apps, seed the sandboxes, open the gateway
        async with driver.connect() as url:              # how the agent reaches the gateway (None: in this process)
            ran = await driver.run_agent(lambda: agent.run(episode), timeout=60)
        result, journal = await driver.finish(trace=True)  # the verdict (`Episode.finish`) and the merged trace
        driver.record(folder, result)                    # results.json and trace.jsonl, sealed
    # leaving the block closes the connections and deletes the sandboxes

Every entry point goes through it: `orchestrator run` (`orchestrator.run.runner.run_episode`, and through it the
worker pool's and Ray's workers), the environment API (`ClawGymEnv.reset` / `step`), `orchestrator serve`, the
inspect-ai task and `orchestrator validate`. Each uses the stages it needs, in this order (`STAGES`):

- `prepare`: the backend starts the scenario's apps; each app gets a sandbox seeded for the episode (`Episode`).
- `connect`: the agent's way to the gateway: in this process, or served over Streamable HTTP behind a secret path
  (`connect`), or a client session on it (`client`).
- `agent`: the agent works (`run_agent`), within its timeout and a guard that stops it (a run's interrupt).
- `verify`: the episode is closed and judged (`finish`, or `verdict` which reports a failure instead of raising).
- `record`: the episode's folder is written (`record`).
- `close`: leaving the driver closes every connection and deletes the sandboxes.

A hook (`HOOKS`, `hooked`) is called with the stage's name and the driver as each stage starts, from every entry
point: a place to observe or measure episodes without touching their wiring.

Errors: with `capture=True` (a run, which must write a record whatever happens) an exception in any stage is not
raised but kept: `error` says why the episode could not be judged (an infrastructure error: an app server died, a
backend failed), reported apart by `failed` (status `error`, not scored), never as a failed task; an error while
tearing down an episode already judged is kept as `teardown_error`. Without it (the environment API, serve, the
inspect task, validate) errors are raised to the caller, after the episode is torn down.

May import the episode's own modules, `orchestrator.backends`, `orchestrator.record`, `orchestrator.scenario` and
`orchestrator.verify`.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import anyio
from mcp import Client

from orchestrator.backends.base import Backend, first_error
from orchestrator.episode.episode import Episode
from orchestrator.episode.serving import serve_http
from orchestrator.record import write_episode
from orchestrator.scenario.model import Scenario
from orchestrator.verify.judge import Judge
from orchestrator.verify.results import JournalSummary, Result

T = TypeVar("T")

STAGES = ("prepare", "connect", "agent", "verify", "record", "close")
"""An episode's stages, in the order they run (an entry point uses those it needs)."""

StageHook = Callable[[str, "EpisodeDriver"], None]
"""Called with a stage's name and the driver as the stage starts."""

HOOKS: list[StageHook] = []
"""The hooks every driver of this process calls (a forked worker inherits them); add one with `hooked`."""


@contextlib.contextmanager
def hooked(hook: StageHook) -> Iterator[StageHook]:
    """Call `hook` at each stage of every episode driven while the block runs."""
    HOOKS.append(hook)
    try:
        yield hook
    finally:
        HOOKS.remove(hook)


def describe_error(exc: BaseException) -> str:
    """One line naming what went wrong in `exc` (the first error of an exception group), for results.json."""
    problem = first_error(exc)
    text = str(problem).strip() or type(problem).__name__
    return text if type(problem).__name__ in ("BackendError",) else f"{type(problem).__name__}: {text}"


def failed_result(scenario: Scenario, status: str, error: str, episode: dict[str, Any]) -> Result:
    """The record of an episode that could not be verified: failed, score 0, with what went wrong."""
    return Result(
        scenario=scenario.id,
        title=scenario.title,
        passed=False,
        score=0.0,
        pass_mark=scenario.pass_mark,
        stages=[],
        checks=[],
        changes=[],
        violations=[],
        journal=JournalSummary(),
        episode=episode,
        status=status,
        error=error,
    )


@dataclass
class AgentRun(Generic[T]):
    """How the agent's stage ended: what the agent returned (None when it was stopped), and what stopped it."""

    value: T | None
    timed_out: bool = False
    """The timeout stopped it."""
    stopped: bool = False
    """The guard stopped it (a run's interrupt: a signal, fail-fast)."""


@contextlib.contextmanager
def _unguarded() -> Iterator[anyio.CancelScope]:
    yield anyio.CancelScope()  # never entered: nothing stops the agent but its timeout


class EpisodeDriver:
    """One episode of `scenario` on `backend`, from its apps' start to its record (see the module docstring).

    `rng_seed`, `episode_id`, `workdir` and `judge` are the `Episode`'s; `progress` receives the lines a run shows
    (starting apps, seeding sandboxes, verifying); `capture` keeps errors (`error`, `teardown_error`) instead of
    raising them; `hooks` are called at each stage as `HOOKS` are."""

    def __init__(
        self,
        scenario: Scenario,
        backend: Backend,
        *,
        rng_seed: int = 0,
        episode_id: str | None = None,
        workdir: Path | None = None,
        judge: Judge | None = None,
        progress: Callable[[str], None] | None = None,
        capture: bool = False,
        hooks: tuple[StageHook, ...] = (),
    ) -> None:
        self.scenario = scenario
        self.backend = backend
        self.rng_seed = rng_seed
        self.episode_id = episode_id
        self.workdir = workdir
        self.judge = judge
        self.progress = progress or (lambda _: None)
        self.capture = capture
        self.hooks = hooks
        self.stage: str | None = None
        """The stage running (or last run)."""
        self.episode: Episode | None = None
        """The episode, once `prepare` has seeded it."""
        self.result: Result | None = None
        self.journal: list[dict[str, Any]] | None = None
        self.trace: list[dict[str, Any]] = []
        """The gateway's trace and the apps' journals, one timeline (`finish(trace=True)`, `verdict`); after an error,
        the gateway's trace so far."""
        self.error: str | None = None
        """Why the episode could not be judged (with `capture`): an infrastructure error, never the agent's failure."""
        self.teardown_error: str | None = None
        """What went wrong tearing down an episode already judged (with `capture`)."""
        self._stack = contextlib.AsyncExitStack()

    def _enter(self, stage: str) -> None:
        self.stage = stage
        for hook in (*HOOKS, *self.hooks):
            hook(stage, self)

    def _open(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("the episode is not prepared: call EpisodeDriver.prepare() first")
        return self.episode

    async def __aenter__(self) -> EpisodeDriver:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: Any) -> bool:
        """Close every connection and delete the sandboxes; with `capture`, keep an error instead of raising it."""
        self._enter("close")
        try:
            await self._stack.aclose()
        except Exception as problem:
            if not self.capture:
                raise
            exc = problem
        if not (self.capture and isinstance(exc, Exception)):
            return False
        if self.result is None:
            self.error = self.error or describe_error(exc)
        else:
            self.teardown_error = describe_error(exc)
        if self.episode is not None and not self.trace:
            self.trace = list(self.episode.trace.entries)
        return True

    # -- the stages ----------------------------------------------------------------------------------------------

    async def prepare(self) -> Episode:
        """Start the scenario's apps and open the episode: its sandboxes seeded, its gateway ready."""
        self._enter("prepare")
        self.progress("starting apps")
        endpoints = await self.backend.start(self.scenario.apps)
        self.progress("seeding sandboxes")
        episode = Episode(
            self.scenario,
            endpoints,
            rng_seed=self.rng_seed,
            episode_id=self.episode_id,
            workdir=self.workdir,
            judge=self.judge,
        )
        self.episode = await self._stack.enter_async_context(episode)
        return self.episode

    @contextlib.asynccontextmanager
    async def connect(
        self,
        *,
        http: bool = False,
        host: str = "127.0.0.1",
        port: int = 0,
        allowed_hosts: list[str] | None = None,
        secret: str | None = None,
    ) -> AsyncIterator[str | None]:
        """The agent's way to the gateway while the block runs: with `http`, the gateway served over Streamable HTTP
        (its MCP URL, behind `secret` or a new random one: another local process that finds the port gets a 404),
        for an agent in another process; else None, for one that reaches it in this process (in memory, or over this
        process's stdio): no HTTP server per episode, so a thousand run at once."""
        episode = self._open()
        self._enter("connect")
        if not http:
            yield None
            return
        assert episode.gateway is not None
        secret = secret or secrets.token_urlsafe(18)
        async with serve_http(episode.gateway, host, port, allowed_hosts, secret=secret) as url:
            episode.gateway_url = url
            yield url

    @contextlib.asynccontextmanager
    async def client(self, *, trusted: bool = False) -> AsyncIterator[Client]:
        """A client session on the gateway (`Episode.connect`) while the block runs, for a caller that is the agent's
        hands (the environment API)."""
        episode = self._open()
        self._enter("connect")
        async with episode.connect(trusted=trusted) as session:
            yield session

    async def run_agent(
        self,
        run: Callable[[], Awaitable[T]],
        *,
        timeout: float | None = None,
        guard: Callable[[], contextlib.AbstractContextManager[anyio.CancelScope]] | None = None,
    ) -> AgentRun[T]:
        """Run the agent (`run()`) until it returns, `timeout` seconds pass (None: no timeout) or the scope `guard`
        gives is cancelled; what it returned and what stopped it. An agent stops its own processes before it returns,
        even when cancelled, so nothing of it runs once this returns."""
        self._open()
        self._enter("agent")
        value: T | None = None
        with (guard or _unguarded)() as stopped, anyio.move_on_after(timeout) as clock:
            value = await run()
        return AgentRun(value, timed_out=clock.cancelled_caught, stopped=stopped.cancelled_caught)

    async def finish(self, *, trace: bool = False) -> tuple[Result, list[dict[str, Any]]]:
        """Close the books (`Episode.finish`): the verdict and the journal it was computed from; with `trace`, the
        merged trace the record holds is made too (`trace`)."""
        episode = self._open()
        self._enter("verify")
        self.progress("verifying")
        self.result, self.journal = await episode.finish()
        if trace:
            self.trace = await episode.merged_trace(self.journal)
        return self.result, self.journal

    async def verdict(self) -> Result | None:
        """`finish(trace=True)`, a failure kept as `error` ("verification failed: ...") with the gateway's trace so
        far, instead of raised; the verdict, or None."""
        episode = self._open()
        try:
            await self.finish(trace=True)
        except Exception as exc:
            self.error = f"verification failed: {describe_error(exc)}"
            self.trace = list(episode.trace.entries)
        return self.result

    def record(self, folder: Path, result: Result) -> None:
        """Write the episode's folder: trace.jsonl (`trace`) and results.json (`result`) sealed over it and over the
        journal the verdict read (`orchestrator.record.write_episode`)."""
        self._enter("record")
        encoded = self.episode.trace.lines if self.episode is not None else None
        write_episode(folder, result, self.trace, self.journal, encoded)

    def failed(self, info: dict[str, Any], status: str = "error") -> Result:
        """The record of this episode when it could not be judged: failed, score 0, not scored (`status`), `error`
        saying why; `info` (what the record says of how it ran) gains the sandbox and duration once it was seeded."""
        if self.episode is not None:
            info |= {
                "sandbox": self.episode.sandbox_id,
                "duration_s": round(time.perf_counter() - self.episode.started, 3),
            }
        return failed_result(self.scenario, status, self.error or "the episode did not finish", info)
