"""The in-process backend: app servers as objects in this process, for tests, validation and fast RL loops."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable
from typing import Any

import mcp.types as types
from pydantic import ValidationError

from orchestrator.backends.base import AppEndpoint, Backend, BackendError, ToolListing
from servers import registry
from servers.core import FaultPlan, SandboxSpec, SandboxStore, SeedError, UnknownSandbox, build_mcp_server
from servers.core.mcp import call_in_process
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
    async def connect(self, sandbox_id: str, secret: str | None = None) -> AsyncIterator[DirectClient]:
        self._sandbox(sandbox_id)
        yield DirectClient(self, sandbox_id)


class DirectClient:
    """The gateway's connection to one sandbox of an app server in this process.

    A call takes the server's own way (`servers.core.mcp.call_in_process`:
    sandbox middleware, then the SDK's tool handling) without encoding a
    JSON-RPC request and decoding its result in the same process; the tool
    listing is the server's, made once per endpoint. What the agent gets
    still reaches it over MCP, through the gateway's MCP server, as on any
    other backend.
    """

    def __init__(self, endpoint: InProcessEndpoint, sandbox_id: str) -> None:
        self.endpoint = endpoint
        self.sandbox_id = sandbox_id

    async def list_tools(self) -> types.ListToolsResult:
        listings = self.endpoint.listings
        if listings.result is None:
            listings.result = types.ListToolsResult(tools=await self.endpoint.server.list_tools())
        return listings.result

    async def call_tool(
        self, name: str, arguments: dict[str, Any] | None = None, *, meta: dict[str, Any] | None = None
    ) -> types.CallToolResult:
        return await call_in_process(self.endpoint.server, self.sandbox_id, name, arguments or {}, meta)


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
