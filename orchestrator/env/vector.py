"""`VectorEnv`: N environments stepped together, spread over worker processes (one per core by default).

A trainer that steps a batch of episodes at once calls `reset`, `step` and `finish` with one entry per env; each
worker process runs its share of the batch at once on its own event loop and in-process app servers, and the
workers run side by side, so every core is busy. What each env does is exactly a `ClawGymEnv`'s (its own episode,
sandboxes, gateway, trace and verdict); results come back in env order.

    from orchestrator.env.vector import VectorEnv

    with VectorEnv(8) as envs:                                  # 8 envs over one worker process per core
        observations = envs.reset("scenarios/travel.yaml", seeds=0)   # env i gets seed 0 + i
        outs = envs.step([{"name": "mail__search_messages", "arguments": {"query": "Berlin"}}] * 8)
        outs = envs.step([action_0, None, ...])                 # None: that env does not step this time
        finals = envs.finish("done")                            # every env still running submits

Workers are started from a fresh interpreter (`spawn`), so nothing of the caller's threads or event loops is
inherited. An `EnvError` raised by one env (a step after its end, a scenario it cannot run) is raised after the
whole batch came back, naming the env; the other envs have done their part. A worker that dies is an
`EnvError` naming it and its envs, and the vector env is closed: an infrastructure failure, never an episode's.

May import `orchestrator.env`, `orchestrator.backends`, `orchestrator.scenario` and `orchestrator.verify`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from orchestrator.env.actions import ActionLike
from orchestrator.env.errors import EnvError
from orchestrator.env.schema import EnvState, Observation, StepResult
from orchestrator.scenario.model import Scenario
from orchestrator.verify.results import Result

ScenarioLike = Scenario | str | Path


def _serve(conn: Connection, count: int, options: dict[str, Any]) -> None:
    """A worker process: `count` envs on one in-process backend, each batch's part run at once."""
    import anyio

    from orchestrator.backends import make_backend
    from orchestrator.env.core import ClawGymEnv

    async def call(env: ClawGymEnv, method: str, payload: Any) -> Any:
        if method == "reset":
            scenario, seed, reset_options = payload
            return await env.reset(scenario, seed, **reset_options)
        if method == "step":
            return await env.step(payload)
        if method == "finish":
            return await env.finish(payload)
        if method == "finish_running":  # a message for all: only the envs whose episode is still running submit it
            return None if env.state.done or env.state.scenario is None else await env.finish(payload)
        if method == "state":
            return env.state, env.result
        if method == "snapshot":
            return await env.snapshot()
        if method == "trace":
            return await env.trace()
        raise ValueError(f"unknown method {method!r}")

    async def answer(envs: list[ClawGymEnv], method: str, batch: list[tuple[int, Any]]) -> list[Any]:
        replies: list[Any] = [None] * len(batch)

        async def one(k: int, index: int, payload: Any) -> None:
            try:
                replies[k] = ("ok", await call(envs[index], method, payload))
            except EnvError as exc:
                replies[k] = ("env", str(exc))
            except Exception as exc:  # noqa: BLE001 - sent back as what it is, the worker goes on
                replies[k] = ("error", f"{type(exc).__name__}: {exc}")

        async with anyio.create_task_group() as tg:
            for k, (index, payload) in enumerate(batch):
                tg.start_soon(one, k, index, payload)
        return replies

    async def main() -> None:
        backend = make_backend("inprocess")
        async with backend, contextlib.AsyncExitStack() as stack:
            envs = [await stack.enter_async_context(ClawGymEnv(backend, **options)) for _ in range(count)]
            conn.send(("ready", os.getpid()))
            while True:
                message = await anyio.to_thread.run_sync(conn.recv)
                if message is None:
                    break
                method, batch = message
                replies = await answer(envs, method, batch)
                conn.send(replies)

    try:
        anyio.run(main)
    except KeyboardInterrupt:  # the caller's Ctrl-C reaches the whole process group: the caller reports it
        pass
    finally:
        conn.close()


class VectorEnv:
    """`num_envs` environments over `workers` processes (default: one per core, at most one per env); `options` are
    `ClawGymEnv`'s (`step_rewards`, `max_result_chars`, `max_steps`, `judge`), the same for every env. Env `i` lives
    in worker `i % workers`; `pids` says which process each env is in."""

    def __init__(self, num_envs: int, *, workers: int | None = None, **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise EnvError(f"num_envs: expected a whole number of at least 1, got {num_envs!r}")
        if workers is None:
            workers = os.cpu_count() or 1
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise EnvError(f"workers: expected a whole number of at least 1, got {workers!r}")
        if "backend" in options:
            raise EnvError("backend: a VectorEnv's envs run in process in their workers; no backend is taken")
        self.num_envs = num_envs
        self.workers = min(workers, num_envs)
        self._closed = False
        context = multiprocessing.get_context("spawn")
        self._conns: list[Connection] = []
        self._processes: list[Any] = []
        for w in range(self.workers):
            count = len(range(w, num_envs, self.workers))
            parent, child = context.Pipe()
            process = context.Process(target=_serve, args=(child, count, options), name=f"clawgym-env-{w}", daemon=True)
            process.start()
            child.close()
            self._conns.append(parent)
            self._processes.append(process)
        self._pids = [self._receive(w)[1] for w in range(self.workers)]

    # -- the API ---------------------------------------------------------------------------------------------------

    @property
    def pids(self) -> list[int]:
        """The worker process of each env, in env order."""
        return [self._pids[i % self.workers] for i in range(self.num_envs)]

    def reset(
        self, scenarios: ScenarioLike | Sequence[ScenarioLike], seeds: int | Sequence[int] = 0, **options: Any
    ) -> list[Observation]:
        """Start an episode in every env: `scenarios` one for all or one per env; `seeds` an int (env `i` gets
        `seeds + i`) or one per env; `options` are `ClawGymEnv.reset`'s (`step_rewards`, `noise`), for all."""
        many = isinstance(scenarios, Sequence) and not isinstance(scenarios, str)
        chosen = list(scenarios) if many else [scenarios] * self.num_envs  # type: ignore[arg-type]  # many: a sequence of them
        if len(chosen) != self.num_envs:
            raise EnvError(f"scenarios: expected one per env ({self.num_envs}), got {len(chosen)}")
        if isinstance(seeds, int) and not isinstance(seeds, bool):
            seed_list = [seeds + i for i in range(self.num_envs)]
        else:
            seed_list = list(seeds)  # type: ignore[arg-type]  # a sequence: an int was taken above
            if len(seed_list) != self.num_envs:
                raise EnvError(f"seeds: expected an int or one per env ({self.num_envs}), got {len(seed_list)}")
        if "episode_id" in options:
            raise EnvError("episode_id: each env's episode gets its own id; it is not set for a batch")
        return self._batch("reset", [(s, seed, options) for s, seed in zip(chosen, seed_list, strict=True)])

    def step(self, actions: Sequence[ActionLike | None]) -> list[StepResult | None]:
        """One step in every env whose action is not None (`ClawGymEnv.step`); None for the envs left out."""
        return self._batch("step", self._per_env(actions, "actions"), skip_none=True)

    def finish(self, messages: str | Sequence[str | None] = "") -> list[StepResult | None]:
        """End the episodes: `messages` one for all (every env whose episode is still running submits it) or one
        per env (None: that env is left as it is)."""
        if isinstance(messages, str):
            return self._batch("finish_running", [messages] * self.num_envs)
        return self._batch("finish", self._per_env(messages, "messages"), skip_none=True)

    def states(self) -> list[EnvState]:
        """Where each env stands (`ClawGymEnv.state`)."""
        return [state for state, _ in self._batch("state", [None] * self.num_envs)]

    def results(self) -> list[Result | None]:
        """Each env's verdict of its last episode, once it ended (`ClawGymEnv.result`)."""
        return [result for _, result in self._batch("state", [None] * self.num_envs)]

    def snapshots(self) -> list[dict[str, dict[str, list[dict[str, Any]]]]]:
        """Each env's apps' current state (`ClawGymEnv.snapshot`)."""
        return self._batch("snapshot", [None] * self.num_envs)

    def traces(self) -> list[list[dict[str, Any]]]:
        """Each env's trace and journals of its episode (`ClawGymEnv.trace`)."""
        return self._batch("trace", [None] * self.num_envs)

    def close(self) -> None:
        """End every episode (its sandboxes deleted) and stop the workers. Idempotent."""
        if self._closed:
            return
        self._closed = True
        for conn in self._conns:
            with contextlib.suppress(OSError):
                conn.send(None)
        for process in self._processes:
            process.join(30)
            if process.is_alive():
                process.kill()
                process.join()
        for conn in self._conns:
            conn.close()

    def __enter__(self) -> VectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    # -- the workers -------------------------------------------------------------------------------------------------

    def _per_env(self, values: Sequence[Any], name: str) -> list[Any]:
        if isinstance(values, str | bytes) or not isinstance(values, Sequence):
            raise EnvError(f"{name}: expected one per env ({self.num_envs}), got {type(values).__name__}")
        if len(values) != self.num_envs:
            raise EnvError(f"{name}: expected one per env ({self.num_envs}), got {len(values)}")
        return list(values)

    def _batch(self, method: str, payloads: list[Any], *, skip_none: bool = False) -> list[Any]:
        if self._closed:
            raise EnvError("the VectorEnv is closed")
        parts: list[list[tuple[int, int, Any]]] = [[] for _ in range(self.workers)]
        for i, payload in enumerate(payloads):
            if not (skip_none and payload is None):
                parts[i % self.workers].append((i, i // self.workers, payload))
        for w, part in enumerate(parts):  # every worker gets its part before any reply is read: they run at once
            if part:
                self._send(w, (method, [(local, payload) for _, local, payload in part]))
        out: list[Any] = [None] * self.num_envs
        problems = []
        for w, part in enumerate(parts):
            if not part:
                continue
            for (i, _, _), (kind, value) in zip(part, self._receive(w), strict=True):
                if kind == "ok":
                    out[i] = value
                else:
                    problems.append(f"env {i}: {value}")
        if problems:
            raise EnvError("; ".join(problems))
        return out

    def _send(self, w: int, message: Any) -> None:
        try:
            self._conns[w].send(message)
        except (OSError, EOFError):
            self._died(w)

    def _receive(self, w: int) -> Any:
        try:
            return self._conns[w].recv()
        except (OSError, EOFError):
            self._died(w)

    def _died(self, w: int) -> None:
        process = self._processes[w]
        process.join(5)
        envs = ", ".join(str(i) for i in range(w, self.num_envs, self.workers))
        self.close()
        raise EnvError(
            f"VectorEnv worker {w} (pid {process.pid}, envs {envs}) died (exit code {process.exitcode}); "
            "the VectorEnv is closed"
        )
