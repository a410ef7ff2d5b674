"""The in-process backend: app servers as objects in this process, for tests, validation and fast RL loops."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from collections.abc import AsyncIterator, Iterable
from typing import Any

from pydantic import ValidationError

from orchestrator.backends.base import AppEndpoint, Backend, BackendError, ToolListing, UpstreamClient
from servers import registry
from servers.core import FaultPlan, SandboxSpec, SandboxStore, SeedError, UnknownSandbox, build_mcp_server
from servers.core.mcp import bind_sandbox
from servers.core.world import WorldChange, WorldError
from servers.core.world import apply as apply_world


class InProcessEndpoint(AppEndpoint):
    def __init__(self, app: str) -> None:
        self.app = app
        self.store = SandboxStore(registry.load(app))
        self.server = build_mcp_server(self.store.app, self.store)
        self.listings = ToolListing()

    def _sandbox(self, sandbox_id: str):  # noqa: ANN202
        try:
            return self.store.get(sandbox_id)
        except UnknownSandbox as exc:
            raise BackendError(f"{self.app}: {exc}") from None

    async def create_sandbox(self, sandbox_id: str, spec: SandboxSpec, *, replace: bool = False) -> str | None:
        """In process there is no endpoint to protect: no secret."""
        try:
            self.store.create(sandbox_id, spec, replace=replace)
        except (SeedError, FileExistsError, ValueError) as exc:
            raise BackendError(f"{self.app}: {exc}") from exc
        return None

    async def reset(self, sandbox_id: str) -> None:
        sandbox = self._sandbox(sandbox_id)
        async with sandbox.lock:
            sandbox.reset()

    async def snapshot(self, sandbox_id: str) -> dict[str, list[dict[str, Any]]]:
        return self._sandbox(sandbox_id).snapshot()

    async def journal(self, sandbox_id: str, after: int = 0) -> list[dict[str, Any]]:
        return self._sandbox(sandbox_id).journal(after)

    async def set_faults(self, sandbox_id: str, plan: FaultPlan) -> None:
        self._sandbox(sandbox_id).set_faults(plan)

    async def advance_clock(self, sandbox_id: str, seconds: float) -> str:
        sandbox = self._sandbox(sandbox_id)
        sandbox.set_clock(advance=seconds)
        return sandbox.now_iso()

    async def apply_world(self, sandbox_id: str, change: dict[str, Any]) -> dict[str, Any]:
        sandbox = self._sandbox(sandbox_id)
        try:
            parsed = WorldChange.model_validate(change)
        except ValidationError as exc:
            raise BackendError(f"{self.app}: invalid world change: {exc}") from None
        async with sandbox.lock:
            try:
                return apply_world(sandbox, parsed)
            except WorldError as exc:
                raise BackendError(f"{self.app}: world event {parsed.event!r} cannot be applied: {exc}") from None

    async def delete(self, sandbox_id: str) -> None:
        self.store.delete(sandbox_id)

    @contextlib.asynccontextmanager
    async def connect(self, sandbox_id: str, secret: str | None = None) -> AsyncIterator[UpstreamClient]:
        self._sandbox(sandbox_id)
        # The SDK's direct in-process path: no streams, no JSON-RPC framing, no handshake.
        async with SandboxClient(self.server, sandbox_id=sandbox_id, listings=self.listings) as client:
            yield client


@dataclass
class SandboxClient(UpstreamClient):
    """An in-process client whose tool calls address one sandbox.

    The SDK runs an in-process handler in the context of the task that sent
    the request, so binding the sandbox around each call is enough.
    """

    sandbox_id: str = "default"

    async def call_tool(self, *args: Any, **kwargs: Any) -> Any:
        with bind_sandbox(self.sandbox_id):
            return await super().call_tool(*args, **kwargs)


class InProcessBackend(Backend):
    name = "inprocess"

    async def start(self, apps: Iterable[str]) -> dict[str, AppEndpoint]:
        for app in apps:
            if app not in self.endpoints:
                self.endpoints[app] = InProcessEndpoint(app)
        return self.endpoints

    async def close(self) -> None:
        for endpoint in self.endpoints.values():
            assert isinstance(endpoint, InProcessEndpoint)
            endpoint.store.close()
        self.endpoints.clear()
