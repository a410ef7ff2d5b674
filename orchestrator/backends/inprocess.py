"""The in-process backend: app servers as objects in this process, for tests, validation and fast RL loops."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

import mcp.types as types

from orchestrator.backends.base import AppEndpoint, Backend, BackendError, ToolListing
from servers import registry
from servers.core.admin import BadRequest, ClockChange, SandboxAdmin, SandboxExists, parse
from servers.core.app import SandboxSpec
from servers.core.faults import FaultPlan
from servers.core.mcp import build_mcp_server, call_in_process
from servers.core.store import SandboxStore, UnknownSandbox
from servers.core.world import WorldChange


class InProcessEndpoint(AppEndpoint):
    """An app server as an object in this process: its admin plane is `servers.core.admin.SandboxAdmin`, as over HTTP."""

    def __init__(self, app: str) -> None:
        self.app = app
        self.store = SandboxStore(registry.load(app))
        self.admin = SandboxAdmin(self.store)
        self.server = build_mcp_server(self.store.app, self.store)
        self.listings = ToolListing()

    @contextlib.contextmanager
    def _refusals(self) -> Iterator[None]:
        """The admin plane's refusals as `BackendError`s naming the app, as the HTTP endpoint words them."""
        try:
            yield
        except (UnknownSandbox, BadRequest, SandboxExists) as exc:
            raise BackendError(f"{self.app}: {exc}") from None

    async def create_sandbox(self, sandbox_id: str, spec: SandboxSpec, *, replace: bool = False) -> str | None:
        """In process there is no endpoint to protect: no secret."""
        with self._refusals():
            await self.admin.create(sandbox_id, spec, replace=replace)
        return None

    async def reset(self, sandbox_id: str) -> None:
        with self._refusals():
            await self.admin.reset(sandbox_id)

    async def snapshot(self, sandbox_id: str) -> dict[str, list[dict[str, Any]]]:
        with self._refusals():
            return await self.admin.snapshot(sandbox_id)

    async def journal(self, sandbox_id: str, after: int = 0) -> list[dict[str, Any]]:
        with self._refusals():
            return await self.admin.journal(sandbox_id, after)

    async def set_faults(self, sandbox_id: str, plan: FaultPlan) -> None:
        with self._refusals():
            await self.admin.set_faults(sandbox_id, plan)

    async def advance_clock(self, sandbox_id: str, seconds: float) -> str:
        with self._refusals():
            return (await self.admin.set_clock(sandbox_id, parse(ClockChange, {"advance_seconds": seconds})))["now"]

    async def apply_world(self, sandbox_id: str, change: dict[str, Any]) -> dict[str, Any]:
        with self._refusals():
            return await self.admin.apply_world(sandbox_id, parse(WorldChange, change))

    async def delete(self, sandbox_id: str) -> None:
        with self._refusals():
            await self.admin.delete(sandbox_id)

    @contextlib.asynccontextmanager
    async def connect(self, sandbox_id: str, secret: str | None = None) -> AsyncIterator[DirectClient]:
        with self._refusals():
            self.store.get(sandbox_id)
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
    """Runs every app in this process: its sandboxes are called directly, with no server, port or container."""

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
