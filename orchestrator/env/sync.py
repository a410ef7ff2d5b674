"""`SyncClawGymEnv`: the environment API for synchronous code, on an event loop in a thread of its own.

May import `orchestrator.backends`, `orchestrator.scenario`, `orchestrator.verify` and the env's own modules.
"""

from __future__ import annotations

import threading
from functools import partial
from pathlib import Path
from typing import Any

import anyio
from anyio.from_thread import BlockingPortal

from orchestrator.backends import Backend
from orchestrator.env.actions import ActionLike
from orchestrator.env.core import ClawGymEnv
from orchestrator.env.schema import EnvState, Observation, StepResult
from orchestrator.scenario.model import Scenario
from orchestrator.verify.results import Result


class SyncClawGymEnv:
    """`ClawGymEnv` for synchronous code: the same methods, blocking, on an event loop in a thread of its own (one
    thread for all sync envs given the same `Backend`, which belongs to one loop). Any thread may call it.

        with SyncClawGymEnv() as env:
            obs = env.reset("scenarios/travel.yaml", seed=0)
            out = env.step({"name": "mail__search_messages", "arguments": {"query": "Berlin"}})
    """

    def __init__(self, backend: Backend | str = "inprocess", **options: Any) -> None:
        # A Backend's servers and connections belong to the event loop they were started on: sync envs given the same
        # Backend share one loop thread (a loop each would deadlock on the other's servers); a backend named here is
        # the env's own, on a loop of its own.
        self._key = id(backend) if isinstance(backend, Backend) else None
        self._portal = _portal_acquire(self._key)
        try:
            self.env = self._portal.call(partial(_make_env, backend, options))
            self._env_cm = self._portal.wrap_async_context_manager(self.env)
            self._env_cm.__enter__()
        except BaseException:
            _portal_release(self._key, self._portal)
            raise
        self._closed = False

    def reset(self, scenario: Scenario | str | Path, seed: int = 0, **options: Any) -> Observation:
        return self._portal.call(partial(self.env.reset, scenario, seed, **options))

    def step(self, action: ActionLike) -> StepResult:
        return self._portal.call(self.env.step, action)

    def finish(self, message: str = "") -> StepResult:
        return self._portal.call(self.env.finish, message)

    def snapshot(self) -> dict[str, dict[str, list[dict[str, Any]]]]:
        return self._portal.call(self.env.snapshot)

    def trace(self) -> list[dict[str, Any]]:
        return self._portal.call(self.env.trace)

    @property
    def state(self) -> EnvState:
        return self.env.state

    @property
    def result(self) -> Result | None:
        return self.env.result

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._env_cm.__exit__(None, None, None)
        finally:
            _portal_release(self._key, self._portal)

    def __enter__(self) -> SyncClawGymEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_PORTALS: dict[int, list[Any]] = {}
"""Event-loop threads of sync envs sharing a Backend: id(backend) → [portal context manager, portal, users]."""
_PORTALS_LOCK = threading.Lock()


def _portal_acquire(key: int | None) -> BlockingPortal:
    with _PORTALS_LOCK:
        if key is not None and key in _PORTALS:
            _PORTALS[key][2] += 1
            return _PORTALS[key][1]
        manager = anyio.from_thread.start_blocking_portal()
        portal = manager.__enter__()
        _PORTALS[key if key is not None else id(portal)] = [manager, portal, 1]
        return portal


def _portal_release(key: int | None, portal: BlockingPortal) -> None:
    with _PORTALS_LOCK:
        key = key if key is not None else id(portal)
        entry = _PORTALS[key]
        entry[2] -= 1
        if entry[2] > 0:
            return
        del _PORTALS[key]
    entry[0].__exit__(None, None, None)


async def _make_env(backend: Backend | str, options: dict[str, Any]) -> ClawGymEnv:
    """The env, made on the portal's loop (it starts its worker task there)."""
    return ClawGymEnv(backend, **options)
