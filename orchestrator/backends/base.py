"""The backend interface: where app servers run, and how the orchestrator reaches them.

A backend starts the app servers a scenario needs and hands back one
`AppEndpoint` per app. Everything above this module (episodes, the gateway,
the verifier) talks to endpoints only, so it does not know whether the apps
run in this process, as local processes or in containers.
"""

from __future__ import annotations

import contextlib
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any

import anyio
import httpx2
from mcp import Client

from servers.core import FaultPlan, SandboxSpec


class BackendError(RuntimeError):
    """A backend could not start, reach or drive an app server."""


async def wait_healthy(
    probe: Callable[[], Awaitable[str | None]], *, timeout: float, failure: Callable[[], str], interval: float = 0.05
) -> str:
    """Poll `URL/healthz` until it answers 200; returns the URL.

    `probe` gives the server's base URL (None while it is not known yet, e.g.
    before a container's port is published) and raises `BackendError` once the
    server has died; `failure` words the error when `timeout` passes first.
    """
    deadline = time.monotonic() + timeout
    async with httpx2.AsyncClient(timeout=2) as http:
        while time.monotonic() < deadline:
            url = await probe()
            if url is not None:
                try:
                    if (await http.get(f"{url}/healthz")).status_code == 200:
                        return url
                except httpx2.HTTPError:
                    pass
            await anyio.sleep(interval)
    raise BackendError(failure())


def first_error(exc: BaseException) -> BaseException:
    """The first real error inside (possibly nested) exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


class AppEndpoint(ABC):
    """One running app server: its admin plane and its MCP plane."""

    app: str

    @abstractmethod
    async def create_sandbox(self, sandbox_id: str, spec: SandboxSpec, *, replace: bool = False) -> None: ...

    @abstractmethod
    async def reset(self, sandbox_id: str) -> None: ...

    @abstractmethod
    async def snapshot(self, sandbox_id: str) -> dict[str, list[dict[str, Any]]]: ...

    @abstractmethod
    async def journal(self, sandbox_id: str, after: int = 0) -> list[dict[str, Any]]: ...

    @abstractmethod
    async def set_faults(self, sandbox_id: str, plan: FaultPlan) -> None: ...

    @abstractmethod
    async def advance_clock(self, sandbox_id: str, seconds: float) -> str: ...

    @abstractmethod
    async def delete(self, sandbox_id: str) -> None: ...

    @abstractmethod
    def connect(self, sandbox_id: str) -> contextlib.AbstractAsyncContextManager[Client]:
        """An MCP client session on the sandbox, as an agent would have."""

    def mcp_url(self, sandbox_id: str) -> str | None:
        """The sandbox's Streamable HTTP URL, when it has one."""
        return None


class Backend(ABC):
    """Starts app servers and stops them again; usable as `async with`."""

    name: str

    def __init__(self) -> None:
        self.endpoints: dict[str, AppEndpoint] = {}

    @abstractmethod
    async def start(self, apps: Iterable[str]) -> dict[str, AppEndpoint]:
        """Make sure `apps` are running (starting only those that are not) and return their endpoints."""

    @abstractmethod
    async def close(self) -> None: ...

    async def close_connections(self) -> None:
        for endpoint in self.endpoints.values():
            if isinstance(endpoint, HttpEndpoint):
                await endpoint.aclose()
        self.endpoints.clear()

    async def __aenter__(self) -> Backend:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class HttpEndpoint(AppEndpoint):
    """An app server reached over HTTP: the admin API with a bearer token, MCP at /s/{sandbox}/mcp."""

    def __init__(self, app: str, base_url: str, token: str) -> None:
        self.app = app
        self.base_url = base_url.rstrip("/")
        self.http = httpx2.AsyncClient(
            base_url=f"{self.base_url}/admin", headers={"Authorization": f"Bearer {token}"}, timeout=60
        )

    async def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            response = await self.http.request(method, path, **kwargs)
        except httpx2.HTTPError as exc:
            raise BackendError(f"{self.app} server at {self.base_url} is unreachable: {exc}") from exc
        if response.status_code >= 400:
            try:
                message = response.json().get("error", response.text)
            except ValueError:
                message = response.text
            raise BackendError(f"{self.app}: {method} {path} failed ({response.status_code}): {message}")
        return response.json()

    async def create_sandbox(self, sandbox_id: str, spec: SandboxSpec, *, replace: bool = False) -> None:
        body = {"id": sandbox_id, "replace": replace, **spec.model_dump(mode="json")}
        await self._call("POST", "/sandboxes", json=body)

    async def reset(self, sandbox_id: str) -> None:
        await self._call("POST", f"/sandboxes/{sandbox_id}/reset")

    async def snapshot(self, sandbox_id: str) -> dict[str, list[dict[str, Any]]]:
        return await self._call("GET", f"/sandboxes/{sandbox_id}/snapshot")

    async def journal(self, sandbox_id: str, after: int = 0) -> list[dict[str, Any]]:
        return (await self._call("GET", f"/sandboxes/{sandbox_id}/journal", params={"after": after}))["entries"]

    async def set_faults(self, sandbox_id: str, plan: FaultPlan) -> None:
        await self._call("PUT", f"/sandboxes/{sandbox_id}/faults", json=plan.model_dump(mode="json"))

    async def advance_clock(self, sandbox_id: str, seconds: float) -> str:
        return (await self._call("POST", f"/sandboxes/{sandbox_id}/clock", json={"advance_seconds": seconds}))["now"]

    async def delete(self, sandbox_id: str) -> None:
        await self._call("DELETE", f"/sandboxes/{sandbox_id}")

    def mcp_url(self, sandbox_id: str) -> str:
        return f"{self.base_url}/s/{sandbox_id}/mcp"

    @contextlib.asynccontextmanager
    async def connect(self, sandbox_id: str) -> AsyncIterator[Client]:
        async with Client(self.mcp_url(sandbox_id), mode="legacy") as client:
            yield client

    async def aclose(self) -> None:
        await self.http.aclose()
