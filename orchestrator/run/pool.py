"""Episodes on worker processes of this machine: every core busy from one `orchestrator run --backend inprocess`.

An `EpisodePool` forks `workers` processes once the run's scenarios are loaded and before any episode starts (no
interpreter start, no import: each worker is a copy of the orchestrator as it stands). Each worker hosts the apps
in process (its own `InProcessBackend`, kept across its episodes) and runs whole episodes there with the runner's
`run_episode`: seed, agent, verify, and the episode's folder written and sealed in place, as in one process. The
orchestrator keeps the run: `run_many` and `run_suite` hand each episode to the pool (`run_one=pool.run_episode`),
which gives it to a worker (the fewest episodes of its scenario in flight, then the fewest in all) and relays its
stages (progress lines) and its result back; the error watch, summaries and exit codes are the run's, unchanged.

Stopping: workers ignore SIGINT and SIGTERM (a Ctrl-C reaches the whole process group). The orchestrator's first
signal stops the run as it always does, and the pool relays the stop to the episodes in flight, whose workers
stop the agent, verify and write them (`interrupted`); a second signal stops at once and the workers are killed
(`close`). A worker that dies takes only its episodes in flight with it: they are recorded as errored, and the
next episode starts a new worker. Workers leave when the orchestrator closes their socket, and so also when it
dies.

Agents are made again in the worker from an `AgentRecipe` (`orchestrator.run.recipe`): oracle, noop and model
agents, each worker with its share of `--max-concurrent-requests`. By default (`pool_for`) only oracle and noop
episodes go to workers, one per core: a model agent's episode waits on its API, so its episodes go to workers only
with `--workers N`; a `cmd:` agent's episodes stay in the orchestrator's process.

May import `orchestrator.run.runner`, `orchestrator.run.recipe`, `orchestrator.backends`, `orchestrator.agents`,
`orchestrator.episode.collector`, `orchestrator.record`, `orchestrator.scenario` and `orchestrator.verify`.
"""

from __future__ import annotations

import contextlib
import contextvars
import gc
import math
import os
import pickle
import signal
import socket
import struct
import sys
import traceback
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
from anyio.streams.buffered import BufferedByteReceiveStream

from orchestrator.agents.base import Agent
from orchestrator.backends.base import AppEndpoint, Backend, BackendError
from orchestrator.episode.collector import RUN_GC_THRESHOLD
from orchestrator.record import write_episode
from orchestrator.run.recipe import AgentNotPortable, AgentRecipe, recipe_of
from orchestrator.run.runner import SEALED, Interrupt, describe_error, failed_result, run_episode
from orchestrator.scenario.model import Scenario
from orchestrator.verify.judge import Judge, JudgeConfig
from orchestrator.verify.results import Result

FRAME = struct.Struct(">I")
"""Each message on a worker's socket: its length, then its pickle."""

SCENARIOS_KEPT = 256
"""Scenarios a worker keeps between episodes (sent once each); a noisy run's variants come and go."""

CMD_STAYS = "a cmd: agent's episodes run in this process: --workers spreads in-process agents (oracle, noop, models)"


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def pool_for(backend: str, agent: Agent, workers: int | None, episodes: int) -> EpisodePool | None:
    """The pool a run of `episodes` episodes of `agent` on `backend` gets, or None when they run in this process.

    `workers`: None for one per core (oracle and noop: the agents whose episodes keep a core busy); 1 for none. Only
    the `inprocess` backend's episodes go to workers, and only those of an agent a worker can make again
    (`recipe_of`: model agents too, when `workers` is given); `BackendError` when `workers` asks for more than one
    on another backend or for a `cmd:` agent, saying why. There are never more workers than episodes, nor (for a
    model agent) than requests its endpoint may have in flight."""
    asked = workers
    if workers is None:
        workers = cores()
    if workers > 1 and backend != "inprocess":
        if asked is None:
            return None
        raise BackendError(
            f"--workers {asked}: worker processes run --backend inprocess episodes; the {backend} "
            "backend's app servers are processes of their own (use --parallel)"
        )
    try:
        recipe = recipe_of(agent, CMD_STAYS)
    except AgentNotPortable as exc:
        if asked is None or asked == 1:
            return None
        raise BackendError(f"--workers {asked}: {exc}") from None
    if recipe.model_options is not None:  # waits on its API, not on a core: workers only when asked for
        if asked is None:
            return None
        workers = min(workers, recipe.gate_limit)
    workers = min(workers, episodes)
    return EpisodePool(workers) if workers > 1 else None


@dataclass
class _Job:
    """One episode handed to a worker: its stage callback, and its result once the worker answered."""

    on_stage: Callable[[str], None]
    scenario: str = ""
    """The id of its scenario."""
    done: anyio.Event = field(default_factory=anyio.Event)
    result: Result | None = None
    error: str | None = None


@dataclass
class _Worker:
    """A forked worker: its pid, the orchestrator's end of its socket, its episodes in flight, its scenarios."""

    index: int
    pid: int
    sock: socket.socket
    stream: anyio.abc.SocketStream | None = None
    lock: anyio.Lock = field(default_factory=anyio.Lock)
    jobs: dict[int, _Job] = field(default_factory=dict)
    scenarios: set[int] = field(default_factory=set)
    alive: bool = True
    exit: str = ""

    async def send(self, message: tuple[Any, ...]) -> None:
        """Send one message (one frame), after any other task's."""
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        assert self.stream is not None
        async with self.lock:
            await self.stream.send(FRAME.pack(len(data)) + data)


class EpisodePool(Backend):
    """`workers` forked processes that run whole in-process episodes; a backend that runs episodes
    (`runs_episodes`): give `run_many` and `run_suite` its `run_episode`. Fork with `fork()` before the event loop
    runs (the command line does, once the scenarios are loaded); a pool used without it forks on first use."""

    name = "inprocess"
    runs_episodes = True

    def __init__(self, workers: int) -> None:
        super().__init__()
        self.size = max(1, workers)
        self.workers: list[_Worker] = []
        self._next_job = 0
        self._scenarios: OrderedDict[int, tuple[Scenario, int]] = OrderedDict()
        self._next_scenario = 0
        self._group: anyio.abc.TaskGroup | None = None
        self._spawning: anyio.Lock | None = None
        self._apps: Backend | None = None
        """The apps started before forking, which the workers inherit (`fork`)."""
        self._inherited: dict[int, Scenario] = {}
        """The scenarios loaded before forking, by `id`: every worker has them already (`fork`), so an episode of one
        names it instead of sending it pickled (the parent's pickling and each worker's unpickling of it)."""
        self.started = 0
        """Workers started in all (a dead one is replaced)."""

    # -- the processes -----------------------------------------------------------

    def fork(self, apps: Iterable[str] = (), scenarios: Iterable[Scenario] = ()) -> None:
        """Start the workers now, by forking this process (call it outside a running event loop), with `apps`
        started here first: every worker gets them ready (servers built, tools listed) instead of each building
        its own, and has the `scenarios` loaded so far (kept here for the pool's life; an episode of one is sent
        by name). Objects made so far are frozen out of the collector, so the workers' collections do not copy the
        pages they share with this process."""
        self._inherited |= {id(scenario): scenario for scenario in scenarios}
        apps = sorted(set(apps))
        if apps and self._apps is None:
            from orchestrator.backends.inprocess import InProcessBackend

            self._apps = InProcessBackend()
            anyio.run(_ready, self._apps, apps)
        gc.collect()
        gc.freeze()
        try:
            while len([w for w in self.workers if w.alive]) < self.size:
                self._fork_one()
        finally:
            gc.unfreeze()

    def _fork_one(self) -> _Worker:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        index = self.started
        share = (index % self.size, self.size)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        pid = os.fork()
        if pid == 0:  # the worker: never returns into the caller's code
            ours.close()
            inherited = [w.sock.fileno() for w in self.workers if w.alive]
            _worker_main(theirs, share, inherited, self._apps, self._inherited)
        theirs.close()
        worker = _Worker(index, pid, ours)
        self.workers.append(worker)
        self.started += 1
        return worker

    async def _attach(self, worker: _Worker) -> None:
        """Talk to a forked worker: its socket as a stream, and a task that listens to it."""
        assert self._group is not None
        worker.stream = await anyio.abc.UNIXSocketStream.from_socket(worker.sock)
        self._group.start_soon(self._listen, worker)

    async def __aenter__(self) -> EpisodePool:
        self._group = anyio.create_task_group()
        await self._group.__aenter__()
        for worker in self.workers:
            if worker.alive and worker.stream is None:
                await self._attach(worker)
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        await self.close()
        assert self._group is not None
        self._group.cancel_scope.cancel()
        group, self._group = self._group, None
        return await group.__aexit__(*exc)

    async def start(self, apps: Iterable[str]) -> dict[str, AppEndpoint]:
        """Nothing to start here: each worker starts the apps of its episodes, in its own process."""
        return {}

    async def close(self) -> None:
        """Close every worker's socket (it leaves), then make sure it is gone: SIGKILL after a moment, and reap it."""
        with anyio.CancelScope(shield=True):
            for worker in self.workers:
                with contextlib.suppress(Exception):
                    if worker.stream is not None:
                        await worker.stream.aclose()
                    worker.sock.close()
            for worker in self.workers:
                await _reap(worker.pid, grace_s=2.0 if worker.alive else 0.0)
                worker.alive = False

    async def _listen(self, worker: _Worker) -> None:
        """Read a worker's messages until its socket closes; then its episodes in flight are lost."""
        assert worker.stream is not None
        try:
            incoming = BufferedByteReceiveStream(worker.stream)
            while True:
                size = FRAME.unpack(await incoming.receive_exactly(FRAME.size))[0]
                kind, job_id, payload = pickle.loads(await incoming.receive_exactly(size))
                job = worker.jobs.get(job_id)
                if job is None:
                    continue
                if kind == "stage":
                    job.on_stage(payload)
                    continue
                if kind == "done":
                    job.result = payload
                else:
                    job.error = payload
                del worker.jobs[job_id]
                job.done.set()
        except (anyio.IncompleteRead, anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            pass
        finally:
            worker.alive = False
            worker.exit = await _reap(worker.pid, grace_s=0.5)
            for job in worker.jobs.values():
                job.error = f"the worker process running this episode (pid {worker.pid}) {worker.exit}"
                job.done.set()
            worker.jobs.clear()

    async def _worker(self, scenario: str) -> _Worker:
        """The live worker with the fewest episodes of `scenario` in flight, then the fewest episodes; a new one forked
        when workers are missing. Episodes of one scenario are alike: spread, those that wait (a retry-after honoured)
        leave every worker some that work."""
        if self._group is None:
            raise BackendError("the episode pool runs episodes inside `async with pool:`")
        live = [w for w in self.workers if w.alive]
        if len(live) < self.size:
            if self._spawning is None:
                self._spawning = anyio.Lock()
            async with self._spawning:
                while len(live := [w for w in self.workers if w.alive]) < self.size:
                    await self._attach(self._fork_one())
        return min(live, key=lambda w: (sum(j.scenario == scenario for j in w.jobs.values()), len(w.jobs), w.index))

    async def _scenario_key(self, worker: _Worker, scenario: Scenario) -> int:
        """The key the worker knows `scenario` by, sending it first if it does not know it yet."""
        entry = self._scenarios.get(id(scenario))
        if entry is None or entry[0] is not scenario:
            entry = (scenario, self._next_scenario)
            self._next_scenario += 1
            self._scenarios[id(scenario)] = entry
            while len(self._scenarios) > SCENARIOS_KEPT:
                _, (_, old) = self._scenarios.popitem(last=False)
                for other in self.workers:
                    if old in other.scenarios and other.alive:
                        other.scenarios.discard(old)
                        await other.send(("forget", old, None))
        self._scenarios.move_to_end(id(scenario))
        key = entry[1]
        if key not in worker.scenarios:
            if self._inherited.get(id(scenario)) is scenario:  # the worker has it: forked after it was loaded
                await worker.send(("inherited", key, id(scenario)))
            else:
                await worker.send(("scenario", key, scenario))
            worker.scenarios.add(key)
        return key

    # -- one episode ---------------------------------------------------------------

    async def run_episode(
        self,
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
        """`run_episode` on a worker: the same folder (with `records` minimal, none), stages and result (see the
        module docstring)."""
        interrupt = interrupt or Interrupt()
        info: dict[str, Any] = {"backend": self.name, "isolation": agent.isolation, "rng_seed": rng_seed}
        try:
            recipe = recipe_of(agent, CMD_STAYS)
        except AgentNotPortable as exc:
            return _record(folder, failed_result(scenario, "error", str(exc), info), records)
        handed = await self._hand(scenario, (recipe, rng_seed, timeout_s, str(folder), judge, records), on_stage)
        if isinstance(handed, str):
            return _record(folder, failed_result(scenario, "error", handed, info), records)
        worker, job_id, job = handed
        with interrupt.guard():
            await job.done.wait()
        if not job.done.is_set():  # the run is stopping: the worker stops the agent, then verifies and writes
            with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
                await worker.send(("stop", job_id, (interrupt.reason, interrupt.signal)))
            await job.done.wait()
        if job.result is not None:
            return job.result
        failed = failed_result(scenario, "error", job.error or "the worker returned nothing", info)
        return _record(folder, failed, records)

    async def _hand(
        self, scenario: Scenario, episode: tuple[Any, ...], on_stage: Callable[[str], None]
    ) -> tuple[_Worker, int, _Job] | str:
        """Give an episode to a worker: the worker, the job's id and the job; or why no worker took it. A worker
        found dead on the way (its socket broken) is left for its listener to reap and another one is tried."""
        recipe, rng_seed, timeout_s, folder, judge, records = episode
        config = judge.config if judge is not None else None
        problem: BaseException | None = None
        for _ in range(2):
            job, job_id = _Job(on_stage, scenario.id), self._next_job
            self._next_job += 1
            worker: _Worker | None = None
            try:
                worker = await self._worker(scenario.id)
                key = await self._scenario_key(worker, scenario)
                worker.jobs[job_id] = job
                await worker.send(("run", job_id, (key, recipe, rng_seed, timeout_s, folder, config, records)))
                return worker, job_id, job
            except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError, BackendError) as exc:
                problem = exc
                if worker is not None:
                    worker.jobs.pop(job_id, None)
                    worker.alive = False
                if isinstance(exc, BackendError):
                    break
        return f"no worker process could take the episode: {describe_error(problem or RuntimeError())}"


async def _ready(backend: Backend, apps: list[str]) -> None:
    """Start `apps` on the in-process `backend` and list their tools once (each endpoint keeps its listing)."""
    from orchestrator.backends.inprocess import DirectClient

    for endpoint in (await backend.start(apps)).values():
        await DirectClient(endpoint, "").list_tools()  # type: ignore[arg-type]  # the endpoints of an in-process backend, which DirectClient takes


def _record(folder: Path, result: Result, records: str = SEALED) -> Result:
    if records != SEALED:
        return result
    folder.mkdir(parents=True, exist_ok=True)
    write_episode(folder, result, [])
    return result


async def _reap(pid: int, grace_s: float) -> str:
    """Wait up to `grace_s` for worker `pid` to exit, then SIGKILL it; how it ended, in words."""
    waited = 0.0
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return "is gone"
        if done:
            if os.WIFSIGNALED(status):
                return f"was killed by {signal.Signals(os.WTERMSIG(status)).name}"
            return f"exited with code {os.WEXITSTATUS(status)}"
        if waited >= grace_s:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            grace_s = math.inf
        await anyio.sleep(0.01)
        waited += 0.01


# -- in a worker ---------------------------------------------------------------------


def _worker_main(
    sock: socket.socket,
    share: tuple[int, int],
    inherited: list[int],
    apps: Backend | None,
    scenarios: dict[int, Scenario] | None = None,
) -> None:
    """A forked worker's whole life: ignore stop signals (the orchestrator relays them), serve, exit."""
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        with contextlib.suppress(ValueError):
            signal.set_wakeup_fd(-1)  # the orchestrator's event loop's, when forked from inside it
        for fd in inherited:  # other workers' sockets: their workers must see the orchestrator leave
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(Exception):  # forked from inside the orchestrator's event loop: not running here
            import sniffio

            sniffio.thread_local.name = None
        gc.set_threshold(RUN_GC_THRESHOLD, *gc.get_threshold()[1:])  # the orchestrator's objects stay frozen (`fork`)
        contextvars.Context().run(anyio.run, _serve, sock, share, apps, scenarios or {})
    except BaseException:  # noqa: BLE001 - a worker never returns into the orchestrator's code
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


@dataclass
class _WorkerState:
    """What a worker keeps across its episodes: its apps, scenarios, judges and the episodes in flight."""

    share: tuple[int, int]
    scenarios: dict[int, Scenario] = field(default_factory=dict)
    judges: dict[Any, Judge] = field(default_factory=dict)
    interrupts: dict[int, Interrupt] = field(default_factory=dict)

    def agent(self, recipe: AgentRecipe) -> Agent:
        """The recipe's agent, a model agent with this worker's share of its endpoint's concurrency limit."""
        if recipe.model_options is None:
            return recipe.make()
        index, count = self.share
        limit = recipe.gate_limit // count + (index < recipe.gate_limit % count)
        return replace(recipe, gate_limit=max(1, limit)).make()

    def judge(self, config: JudgeConfig | None) -> Judge | None:
        """One `Judge` per configuration in this worker (its cache serves every episode here)."""
        if config is None:
            return None
        key = pickle.dumps(config)
        if key not in self.judges:
            self.judges[key] = Judge(config)
        return self.judges[key]


async def _serve(
    sock: socket.socket, share: tuple[int, int], apps: Backend | None, inherited: dict[int, Scenario]
) -> None:
    """Run the episodes the orchestrator sends, several at once, until it closes the socket; on `apps` (started
    before the fork), else on apps of its own; `inherited`: the scenarios loaded before the fork, by `id` there."""
    from orchestrator.backends.inprocess import InProcessBackend

    stream = await anyio.abc.UNIXSocketStream.from_socket(sock)
    incoming = BufferedByteReceiveStream(stream)
    outgoing, queued = anyio.create_memory_object_stream[tuple[str, int, Any]](math.inf)
    state = _WorkerState(share)

    async def write() -> None:
        async for message in queued:  # with the messages queued meanwhile: one write, one wake-up of the orchestrator
            batch = [message]
            with contextlib.suppress(anyio.WouldBlock):
                while len(batch) < 64:
                    batch.append(queued.receive_nowait())
            frames = [pickle.dumps(m, protocol=pickle.HIGHEST_PROTOCOL) for m in batch]
            await stream.send(b"".join(FRAME.pack(len(data)) + data for data in frames))

    async def episode(job_id: int, backend: Backend, job: tuple[Any, ...]) -> None:
        key, recipe, rng_seed, timeout_s, folder, config, records = job
        try:
            result = await run_episode(
                state.scenarios[key],
                backend,
                state.agent(recipe),
                folder=Path(folder),
                rng_seed=rng_seed,
                timeout_s=timeout_s,
                on_stage=lambda stage: outgoing.send_nowait(("stage", job_id, stage)),
                interrupt=state.interrupts[job_id],
                judge=state.judge(config),
                records=records,
            )
            outgoing.send_nowait(("done", job_id, result))
        except Exception as exc:  # run_episode records what goes wrong; this is what it could not
            outgoing.send_nowait(("failed", job_id, f"the worker could not run the episode: {describe_error(exc)}"))
        finally:
            state.interrupts.pop(job_id, None)

    async with apps or InProcessBackend() as backend, anyio.create_task_group() as group:
        group.start_soon(write)
        while True:
            try:
                size = FRAME.unpack(await incoming.receive_exactly(FRAME.size))[0]
                kind, key, payload = pickle.loads(await incoming.receive_exactly(size))
            except (anyio.IncompleteRead, anyio.EndOfStream, anyio.BrokenResourceError, OSError):
                break  # the orchestrator closed the socket (or died): episodes still here are abandoned
            if kind == "scenario":
                state.scenarios[key] = payload
            elif kind == "inherited":
                state.scenarios[key] = inherited[payload]
            elif kind == "forget":
                state.scenarios.pop(key, None)
            elif kind == "run":
                state.interrupts[key] = Interrupt()
                group.start_soon(episode, key, backend, payload)
            elif kind == "stop" and key in state.interrupts:
                reason, name = payload
                state.interrupts[key].stop(reason, signal=name)
        group.cancel_scope.cancel()
