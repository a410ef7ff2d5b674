"""The environment API on a Ray cluster: `RayEnv`, a `ClawGymEnv` hosted by a Ray actor (`EnvHost`) on a worker.

Each env lives in an actor that hosts it and its app servers in process (the in-process backend); every method of
`RayEnv` is one actor call. Episodes themselves are the env's (`orchestrator.env.core`); the connection to the
cluster is the ray backend's (`orchestrator.backends.ray.RayBackend`).

May import `orchestrator.env`, `orchestrator.backends` and `orchestrator.scenario` (`ray` itself only through the
backend, and inside the actor).
"""

from __future__ import annotations

import contextlib
import os
import socket
from typing import Any

from orchestrator.backends.ray import RayBackend
from orchestrator.env.actions import parse_action
from orchestrator.env.core import ClawGymEnv
from orchestrator.env.errors import EnvError
from orchestrator.env.scenarios import load_scenario
from orchestrator.scenario.model import Scenario


class EnvHost:
    """A Ray actor: one `orchestrator.env.ClawGymEnv` with the app servers in process on its worker."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.env = ClawGymEnv("inprocess", **options)

    def where(self) -> dict[str, Any]:
        import ray

        return {"node": ray.get_runtime_context().get_node_id(), "host": socket.gethostname(), "pid": os.getpid()}

    async def reset(self, scenario: Scenario, seed: int, options: dict[str, Any]) -> Any:
        return await self.env.reset(scenario, seed, **options)

    async def step(self, action: Any) -> Any:
        return await self.env.step(action)

    async def finish(self, message: str) -> Any:
        return await self.env.finish(message)

    async def snapshot(self) -> Any:
        return await self.env.snapshot()

    async def trace(self) -> Any:
        return await self.env.trace()

    async def status(self) -> tuple[Any, Any]:
        return self.env.state, self.env.result

    async def close(self) -> None:
        await self.env.close()


class RayEnv:
    """`ClawGymEnv` on a Ray worker: the same async methods, each one call to an actor that hosts the env
    (and its app servers) in process. Many `RayEnv`s spread over the cluster as its CPUs allow.

        async with RayBackend(address) as cluster:            # or RayBackend() for a local Ray on 127.0.0.1
            envs = [RayEnv(cluster, step_rewards=True) for _ in range(64)]
            obs = await envs[0].reset("scenarios/travel.yaml", seed=0)
            out = await envs[0].step({"name": "mail__search_messages", "arguments": {"query": "Berlin"}})

    A scenario given as a path is loaded here and sent as data (worker nodes need no scenario files); an
    action is parsed here (`orchestrator.env.parse_action`). When the worker hosting the env dies, calls
    raise `EnvError` saying so: that env's episode is lost, other envs go on; make a new `RayEnv`.
    Options are `ClawGymEnv`'s (`step_rewards`, `max_result_chars`, `max_steps`, `judge`: a `Judge` travels to the
    actor with them)."""

    def __init__(self, backend: RayBackend, **options: Any) -> None:
        backend.connect()
        self.backend = backend
        actor = backend.cache.get("env-actor")
        if actor is None:
            actor = backend.cache["env-actor"] = backend.ray.remote(EnvHost)
        self.actor = actor.options(num_cpus=backend.cpus_per_episode, max_restarts=0).remote(options)
        self._state: Any = None
        self._result: Any = None

    async def _call(self, method: str, *args: Any) -> Any:
        try:
            return await getattr(self.actor, method).remote(*args)
        except self.backend.ray.exceptions.RayActorError as exc:
            raise EnvError(
                f"the Ray worker hosting this environment died; its episode is lost ({type(exc).__name__}); "
                "make a new RayEnv and reset it"
            ) from None
        except self.backend.ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, Exception):
                raise cause from None  # EnvError and the like, as the env raised them
            raise

    async def _refresh(self) -> None:
        self._state, self._result = await self._call("status")

    async def reset(self, scenario: Any, seed: int = 0, **options: Any) -> Any:
        observation = await self._call("reset", load_scenario(scenario), seed, options)
        await self._refresh()
        return observation

    async def step(self, action: Any) -> Any:
        out = await self._call("step", parse_action(action))
        await self._refresh()
        return out

    async def finish(self, message: str = "") -> Any:
        out = await self._call("finish", message)
        await self._refresh()
        return out

    async def snapshot(self) -> Any:
        return await self._call("snapshot")

    async def trace(self) -> Any:
        return await self._call("trace")

    async def where(self) -> dict[str, Any]:
        """The node, host and process hosting this env."""
        return await self._call("where")

    @property
    def state(self) -> Any:
        """`EnvState` as of the last call."""
        return self._state

    @property
    def result(self) -> Any:
        """The verdict, once the episode has ended."""
        return self._result

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._call("close")
        with contextlib.suppress(Exception):
            self.backend.ray.kill(self.actor)

    async def __aenter__(self) -> RayEnv:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
