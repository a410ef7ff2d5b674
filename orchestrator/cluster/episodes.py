"""Episodes on a Ray cluster (`orchestrator run ... --backend ray`).

Each episode is one Ray task. The task runs on a Ray worker process that hosts the app servers in
process (one `InProcessBackend` per worker process, kept between its episodes) and runs the whole
episode there with `run_episode`: seed, agent, verify, and the episode's files (results.json,
trace.jsonl) written into a scratch folder. The task returns those files' bytes; the driver writes
them unchanged into the run's folder, so the digest in results.json still matches its trace.

Ray does the placing and the retrying: each task asks for `cpus_per_episode` CPUs (the cluster runs
as many at once as it has), the scenario goes into the object store once and every task reads it
from there, and a task whose worker process or node dies is retried once by Ray on a live worker
(`max_retries=1`, system failures only). An episode lost twice is recorded with status `error`
and says so; no other episode is affected. The driver awaits each task's object ref, so results
arrive (and progress moves) as episodes finish, in whatever order.

Agents: `oracle`, `noop` and model agents (`openai:`, `anthropic:`: rebuilt on the worker from their
model and options; the driver's API key travels with the task) run on Ray. `cmd:` agents do not: the
command would run on another machine, outside this machine's isolation, so they are refused.

`run_many` does not import this module (this module imports the runner): callers that run episodes on the
ray backend give it `run_episode_on_ray` (`run_many(..., run_one=run_episode_on_ray)`). The environment API on Ray
is `orchestrator.cluster.envs.RayEnv`.

May import `orchestrator.run.runner`, `orchestrator.run.recipe`, `orchestrator.record`, `orchestrator.backends`,
`orchestrator.agents`, `orchestrator.scenario` and `orchestrator.verify`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import tempfile
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from orchestrator.agents.base import Agent
from orchestrator.backends.base import BackendError
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.backends.ray import RayBackend
from orchestrator.record import RUN_FILE, reseal, write_episode, write_json
from orchestrator.run.recipe import AgentNotPortable, AgentRecipe
from orchestrator.run.recipe import recipe_of as make_recipe
from orchestrator.run.runner import Interrupt, failed_result, run_episode
from orchestrator.scenario.model import Scenario
from orchestrator.verify.judge import Judge, JudgeConfig
from orchestrator.verify.results import Result

MAX_RETRIES = 1
"""Ray retries a task once when its worker process or node dies."""


class CommandAgentOnRay(AgentNotPortable):
    """A cmd: agent was asked to run on Ray workers, which only run in-process agents."""


def recipe_of(agent: Agent) -> AgentRecipe:
    """What a worker needs to make `agent` again (`orchestrator.run.recipe`); `CommandAgentOnRay` for a `cmd:` agent."""
    try:
        return make_recipe(
            agent,
            "--backend ray does not run cmd: agents: the command would run on a Ray worker, another "
            "machine, outside this machine's isolation; run them with --backend local, inprocess or docker",
        )
    except AgentNotPortable as exc:
        if type(agent).__name__ == "CommandAgent":
            raise CommandAgentOnRay(str(exc)) from None
        raise BackendError(
            f"--backend ray cannot run the agent {getattr(agent, 'name', type(agent).__name__)!r} on its workers"
        ) from None


# -- on a worker -------------------------------------------------------------------

_worker: dict[str, Any] = {}
_worker_lock = threading.Lock()


class WorkerBackend(InProcessBackend):
    """The app servers of one Ray worker process, in process; recorded as the `ray` backend."""

    name = "ray"


def _loop() -> asyncio.AbstractEventLoop:
    """The worker process's event loop, in a thread of its own: app servers and their caches live across episodes."""
    with _worker_lock:
        loop = _worker.get("loop")
        if loop is None:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="clawgym-episodes", daemon=True).start()
            _worker["loop"] = loop
        return loop


def _run_in_worker_loop(coro: Coroutine[Any, Any, Any]) -> Any:
    future = asyncio.run_coroutine_threadsafe(coro, _loop())
    try:
        return future.result()
    except BaseException:  # ray.cancel raises KeyboardInterrupt here: stop the episode too
        future.cancel()
        raise


async def _episode_files(
    scenario: Scenario,
    recipe: AgentRecipe,
    rng_seed: int,
    timeout_s: float | None,
    where: dict[str, Any],
    judge: JudgeConfig | None = None,
) -> dict[str, bytes]:
    backend = _worker.get("backend")
    if backend is None:
        backend = _worker["backend"] = WorkerBackend()
    with tempfile.TemporaryDirectory(prefix="clawgym-ray-") as scratch:
        folder = Path(scratch)
        result = await run_episode(
            scenario,
            backend,
            recipe.make(),
            folder=folder,
            rng_seed=rng_seed,
            timeout_s=timeout_s,
            judge=Judge(judge) if judge is not None else None,
        )
        result.episode["ray"] = where
        write_json(folder / "results.json", result.model_dump(mode="json"))
        return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def episode_task(
    scenario: Scenario, recipe: AgentRecipe, rng_seed: int, timeout_s: float | None, judge: JudgeConfig | None = None
) -> dict[str, Any]:
    """A Ray task: one whole episode on this worker, judged by a `Judge` made here from `judge`; returns its
    folder's files."""
    import ray

    where = {"node": ray.get_runtime_context().get_node_id(), "host": socket.gethostname(), "pid": os.getpid()}
    files = _run_in_worker_loop(_episode_files(scenario, recipe, rng_seed, timeout_s, where, judge))
    return {"files": files, "where": where}


# -- on the driver -----------------------------------------------------------------


def _remote(backend: RayBackend) -> Any:
    remote = backend.cache.get("task")
    if remote is None:
        remote = backend.cache["task"] = backend.ray.remote(episode_task)
    return remote


def _scenario_ref(backend: RayBackend, scenario: Scenario) -> Any:
    key = ("scenario", id(scenario))
    entry = backend.cache.get(key)
    if entry is None or entry[0] is not scenario:
        entry = backend.cache[key] = (scenario, backend.ray.put(scenario))
    return entry[1]


def describe_loss(exc: BaseException) -> str:
    """Words for an episode Ray could not finish (first line of Ray's own message, without its traceback)."""
    import ray.exceptions as ray_exceptions

    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    if isinstance(
        exc, ray_exceptions.WorkerCrashedError | ray_exceptions.NodeDiedError | ray_exceptions.LocalRayletDiedError
    ):
        return (
            f"the Ray worker running this episode died (or its node did), on the first try and on the retry; "
            f"the episode was lost: {type(exc).__name__}: {first}"
        )
    if isinstance(exc, ray_exceptions.OwnerDiedError | ray_exceptions.ObjectLostError):
        return f"the episode's result was lost in the Ray cluster: {type(exc).__name__}: {first}"
    if isinstance(exc, ray_exceptions.RayTaskError):
        cause = exc.cause if isinstance(getattr(exc, "cause", None), BaseException) else None
        text = (
            f"{type(cause).__name__}: {str(cause).strip().splitlines()[0] if str(cause).strip() else ''}"
            if cause
            else first
        )
        return f"the episode failed on its Ray worker ({text}); is the same clawgym installed on every node?"
    return f"Ray could not run the episode: {type(exc).__name__}: {first}"


async def run_episode_on_ray(
    scenario: Scenario,
    backend: RayBackend,
    agent: Agent,
    *,
    folder: Path,
    rng_seed: int,
    timeout_s: float | None = None,
    on_stage: Callable[[str], None] = lambda _: None,
    interrupt: Interrupt | None = None,
    judge: Judge | None = None,
) -> Result:
    """`run_episode` with the episode running on a Ray worker; writes the same folder and always returns a result.

    The judge's `JudgeConfig` (plain data) goes with the task; the worker asks a `Judge` of its own made from it."""
    interrupt = interrupt or Interrupt()
    ray = backend.ray
    folder.mkdir(parents=True, exist_ok=True)
    info: dict[str, Any] = {"backend": backend.name, "isolation": agent.isolation, "rng_seed": rng_seed}
    try:
        recipe = recipe_of(agent)
        backend.connect()
        ref = (
            _remote(backend)
            .options(
                num_cpus=backend.cpus_per_episode,
                max_retries=MAX_RETRIES,
                retry_exceptions=False,
                name=f"episode {scenario.id} seed {rng_seed}",
            )
            .remote(_scenario_ref(backend, scenario), recipe, rng_seed, timeout_s, judge.config if judge else None)
        )
    except BackendError as exc:
        return _record_failure(folder, failed_result(scenario, "error", str(exc), info))
    except Exception as exc:  # the cluster went away, the object store is full …
        return _record_failure(
            folder, failed_result(scenario, "error", f"Ray did not take the episode: {describe_loss(exc)}", info)
        )
    on_stage("running on ray")
    payload: dict[str, Any] | None = None
    error: str | None = None
    with interrupt.guard() as stopped:
        try:
            payload = await ref
        except ray.exceptions.RayError as exc:
            error = describe_loss(exc)
    if stopped.cancelled_caught:
        with contextlib.suppress(Exception):
            ray.cancel(ref, force=False)
        result = failed_result(
            scenario, "interrupted", f"stopped by {interrupt.reason} while running on a Ray worker; not verified", info
        )
        return _record_failure(folder, result)
    if payload is None:
        return _record_failure(folder, failed_result(scenario, "error", error or "the Ray task returned nothing", info))
    on_stage("writing")
    for name, data in payload["files"].items():
        if Path(name).name != RUN_FILE:  # the worker's scratch folder was a run of its own; this folder's run is here
            (folder / Path(name).name).write_bytes(data)
    reseal(folder)  # sealed here, under the head's record key: workers neither hold it nor have the last word
    return Result.model_validate(json.loads((folder / "results.json").read_text()))


def _record_failure(folder: Path, result: Result) -> Result:
    write_episode(folder, result, [])
    return result
