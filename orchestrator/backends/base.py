"""The backend interface: where app servers run, and how the orchestrator reaches them.

A backend starts the app servers a scenario needs and hands back one
`AppEndpoint` per app. Everything above this module (episodes, the gateway,
the verifier) talks to endpoints only, so it does not know whether the apps
run in this process, as local processes or in containers.

Creating a sandbox returns its secret (None in process): the MCP endpoint of
the sandbox answers only requests that carry it, so the orchestrator and its
gateway can reach an episode's sandboxes and an agent that guesses names
cannot. Every sandbox is tagged with its maker (`OWNER`); a run that starts
removes the sandboxes a crashed run of this machine left behind.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import socket
import ssl
import time
import urllib.parse
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import anyio
import httpx2
import mcp.types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from orchestrator.backends.aio import MCP_CONNECT_S, MCP_READ_S, AiohttpTransport, McpUpstream, Sessions, timeout_of
from servers.core import FaultPlan, SandboxSpec

log = logging.getLogger("clawgym.backends")

STALE_AFTER_S = 24 * 3600.0
"""A sandbox made by any orchestrator and older than this is a leftover, whoever made it."""


def _start_time(pid: int) -> str | None:
    """When process `pid` started (clock ticks since boot), which tells a reused pid from the original."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[-1].split()[19]


OWNER_PREFIX = "orchestrator@"
OWNER = f"{OWNER_PREFIX}{socket.gethostname()}:{os.getpid()}:{_start_time(os.getpid())}"
"""This process as the maker of sandboxes: host, pid and the pid's start time."""


def is_stale(owner: str | None, created: float | None, now: float | None = None) -> bool:
    """Whether a sandbox made by `owner` at `created` is a leftover of an orchestrator that is gone.

    Sandboxes without an orchestrator's tag (made by hand) are never leftovers.
    One made on this host by a process that no longer runs is; so is any
    orchestrator's sandbox older than `STALE_AFTER_S`.
    """
    if not owner or not owner.startswith(OWNER_PREFIX) or owner == OWNER:
        return False
    if created is not None and (now or time.time()) - created > STALE_AFTER_S:
        return True
    host, _, rest = owner[len(OWNER_PREFIX) :].partition(":")
    pid, _, started = rest.partition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    return _start_time(int(pid)) != started


class BackendError(RuntimeError):
    """A backend could not start, reach or drive an app server."""


async def wait_healthy(
    probe: Callable[[], Awaitable[str | None]], *, timeout: float, failure: Callable[[], str], interval: float = 0.05
) -> tuple[str, dict[str, Any]]:
    """Poll `URL/healthz` until it answers 200; returns the URL and the answer (see `protocol_of`).

    `probe` gives the server's base URL (None while it is not known yet, e.g.
    before a container's port is published) and raises `BackendError` once the
    server has died; `failure` words the error when `timeout` passes first.
    """
    import aiohttp

    deadline = time.monotonic() + timeout
    http: aiohttp.ClientSession | None = None  # made for the first URL the probe gives (a proxy for one elsewhere)
    try:
        while time.monotonic() < deadline:
            url = await probe()
            if url is not None:
                if http is None:
                    http = aiohttp.ClientSession(timeout=timeout_of(read=2.0, connect=2.0), trust_env=elsewhere(url))
                try:
                    async with http.get(f"{url}/healthz") as response:
                        if response.status == 200:
                            health = await response.json(content_type=None)
                            return url, health if isinstance(health, dict) else {}
                except ValueError:  # a 200 that is not JSON: some other server
                    pass
                except (aiohttp.ClientError, TimeoutError):
                    pass
            await anyio.sleep(interval)
    finally:
        if http is not None:
            await http.close()
    raise BackendError(failure())


def elsewhere(url: str) -> bool:
    """Whether `url`'s server is on another host: requests to it take proxies from the environment (`HTTPS_PROXY`,
    `NO_PROXY`...), as httpx's do by default; to one on this machine, never."""
    from servers.core.http import is_loopback  # the server module, for the orchestrator's HTTP backends only

    return not is_loopback(urllib.parse.urlsplit(url).hostname or "")


def protocol_of(health: dict[str, Any]) -> str:
    """How to open MCP sessions to a server, from its `/healthz` answer: the modern protocol version it announces
    (`mcp`) when this orchestrator speaks it too, so calls go without a handshake (`McpUpstream`); else `legacy`
    (a server of an older version announces none)."""
    announced = health.get("mcp")
    return announced if announced in MODERN_PROTOCOL_VERSIONS else "legacy"


def first_error(exc: BaseException) -> BaseException:
    """The first real error inside (possibly nested) exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


@dataclass
class UpstreamClient(Client):
    """The gateway's connection to one app's sandbox.

    Two costs of a plain client are dropped, neither a check of anything the
    verdict depends on:

    - the tool listing is the app server's, the same for all its sandboxes, so
      it is fetched once per app server (`listings`, shared by the endpoint's connections)
      instead of once per episode;
    - results are not validated against their output schemas a second time:
      the app server validates every result against the tool's output model
      before it sends it (the SDK's `MCPServer`), the published schema is
      generated from that same model, and the agent's own client validates
      what the gateway passes on (tests/servers/core/test_output_schemas.py shows the
      server refuses a result that does not fit and never sends one).
    """

    listings: ToolListing | None = None

    async def __aenter__(self) -> UpstreamClient:
        await super().__aenter__()
        trust_results(self)
        return self

    async def list_tools(self, *, cursor: str | None = None, **kwargs: Any) -> types.ListToolsResult:
        if self.listings is None or cursor is not None or kwargs:
            return await super().list_tools(cursor=cursor, **kwargs)
        async with self.listings.lock:  # episodes starting together wait for one fetch instead of each making one
            if self.listings.result is None:
                self.listings.result = await super().list_tools()
            return self.listings.result


class ToolListing:
    """An app server's tool listing, fetched by the first connection that asks and shared by all the others."""

    def __init__(self) -> None:
        self.result: types.ListToolsResult | None = None
        self.lock = anyio.Lock()


def trust_results(client: Client) -> None:
    """`client` takes tool results as the app server validated them (see `UpstreamClient`), without a second check."""
    client.session.validate_tool_result = _trusted  # type: ignore[method-assign]  # the SDK's check of tool results, replaced: the app server checked them


async def _trusted(name: str, result: types.CallToolResult) -> None:
    """The app server already validated the result (see `UpstreamClient`)."""


MAX_REMEMBERED_VALIDATORS = 4096
_validators: dict[str, Any] = {}
"""Compiled output-schema validators by canonical schema text, shared by every client session of this process."""


def remember_output_validators(client: Any) -> None:
    """Let `client`'s session reuse output-schema validators compiled by earlier sessions of this process.

    A session compiles a tool's validator the first time the tool answers,
    after checking the schema against the meta-schema; that compile costs about
    60 validations and depends on the schema alone. Results are still
    validated on every call; a schema that fails the check is never
    remembered, so it fails again in every session. A client whose SDK has no
    such per-session cache is left as it is.
    """
    session = client.session
    own = getattr(session, "_output_schema_validator", None)
    per_session = getattr(session, "_tool_output_validators", None)
    if own is None or not isinstance(per_session, dict):
        return

    def validator(name: str, schema: dict[str, Any]) -> Any:
        known = per_session.get(name)
        if known is not None:
            return known
        key = json.dumps(schema, sort_keys=True, default=str)
        shared = _validators.get(key)
        if shared is None:
            shared = own(name, schema)  # checks the schema (raising when it is invalid) and compiles it
            if len(_validators) >= MAX_REMEMBERED_VALIDATORS:
                _validators.clear()
            _validators[key] = shared
        else:
            per_session[name] = shared
        return shared

    session._output_schema_validator = validator


class Upstream(Protocol):
    """What the gateway needs of its connection to one app's sandbox: an `McpUpstream` over HTTP to a server that
    speaks a modern protocol, an `UpstreamClient` (the SDK's client) to any other, a `DirectClient` in process."""

    async def list_tools(self) -> types.ListToolsResult: ...

    async def call_tool(
        self, name: str, arguments: dict[str, Any] | None = None, *, meta: dict[str, Any] | None = None
    ) -> types.CallToolResult: ...


class AppEndpoint(ABC):
    """One running app server: its admin plane and its MCP plane."""

    app: str

    @abstractmethod
    async def create_sandbox(self, sandbox_id: str, spec: SandboxSpec, *, replace: bool = False) -> str | None:
        """Build the sandbox; returns the secret its MCP endpoint requires (None when it needs none)."""

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
    def connect(self, sandbox_id: str, secret: str | None = None) -> contextlib.AbstractAsyncContextManager[Upstream]:
        """A connection to the sandbox's tools; `secret` defaults to the one its creation here returned."""

    async def create_and_snapshot(
        self, sandbox_id: str, spec: SandboxSpec, *, replace: bool = False
    ) -> tuple[str | None, dict[str, list[dict[str, Any]]]]:
        """`create_sandbox`, and the sandbox's state as seeded (`snapshot`): one request over HTTP."""
        secret = await self.create_sandbox(sandbox_id, spec, replace=replace)
        return secret, await self.snapshot(sandbox_id)

    async def state(self, sandbox_id: str) -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]]]:
        """`snapshot` and the whole `journal`, read together between tool calls: one request over HTTP."""
        return await self.snapshot(sandbox_id), await self.journal(sandbox_id)

    async def apply_world(self, sandbox_id: str, change: dict[str, Any]) -> dict[str, Any]:
        """Apply a world event's changes (`servers.core.world.WorldChange` as JSON); returns its journal seq and counts."""
        raise BackendError(f"{self.app}: this backend cannot apply world events")

    async def remove_leftovers(self) -> list[str]:
        """Delete the sandboxes crashed orchestrators left behind (`is_stale`); returns their ids."""
        return []

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

    async def __aexit__(self, *exc: object) -> bool | None:
        await self.close()
        return None


class HttpEndpoint(AppEndpoint):
    """An app server reached over HTTP: the admin API with a bearer token, MCP at /s/{sandbox}/mcp with its secret."""

    def __init__(self, app: str, base_url: str, token: str, *, protocol: str = "legacy") -> None:
        self.app = app
        self.base_url = base_url.rstrip("/")
        proxied = elsewhere(self.base_url)
        self.admin = Sessions(limit=MAX_CONNECTIONS, headers={"Authorization": f"Bearer {token}"}, trust_env=proxied)
        """The admin plane's connections (aiohttp, see `orchestrator.backends.aio`). A request waits for a free
        connection as long as it takes (the server is the bottleneck, not the pool); each read still times out."""
        self.pool = AiohttpTransport(Sessions(limit=MAX_CONNECTIONS, trust_env=proxied))
        """The connections every MCP session of this endpoint shares, instead of a new client and new
        connections per episode."""
        self.protocol = protocol
        """How MCP sessions start: `legacy` (the initialize handshake) or a modern protocol version the
        server is known to speak (no handshake, no session, one request per call)."""
        self.listings = ToolListing()
        self.secrets: dict[str, str] = {}

    async def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        """One admin request (`json`, `params` as aiohttp takes them): its JSON answer, or `BackendError`."""
        import aiohttp

        url = f"{self.base_url}/admin{path}"
        try:
            async with self.admin.get().request(
                method, url, timeout=timeout_of(read=60.0, connect=60.0), **kwargs
            ) as response:
                body = await response.read()
                status = response.status
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise BackendError(
                f"{self.app} server at {self.base_url} is unreachable: {str(exc) or type(exc).__name__}"
            ) from exc
        if status >= 400:
            try:
                message = json.loads(body).get("error", body.decode(errors="replace"))
            except (ValueError, AttributeError):
                message = body.decode(errors="replace")
            raise BackendError(f"{self.app}: {method} {path} failed ({status}): {message}")
        return json.loads(body)

    async def create_sandbox(self, sandbox_id: str, spec: SandboxSpec, *, replace: bool = False) -> str | None:
        return (await self._create(sandbox_id, spec, replace=replace, snapshot=False))["secret"]

    async def create_and_snapshot(
        self, sandbox_id: str, spec: SandboxSpec, *, replace: bool = False
    ) -> tuple[str | None, dict[str, list[dict[str, Any]]]]:
        answer = await self._create(sandbox_id, spec, replace=replace, snapshot=True)
        return answer["secret"], answer["snapshot"]

    async def _create(self, sandbox_id: str, spec: SandboxSpec, *, replace: bool, snapshot: bool) -> dict[str, Any]:
        """`POST /admin/sandboxes`: the answer (its `snapshot` too when asked); the secret is kept for `connect`."""
        body = {"id": sandbox_id, "replace": replace, "owner": OWNER, **spec.model_dump(mode="json")}
        if snapshot:
            body["snapshot"] = True
        answer: dict[str, Any] = await self._call("POST", "/sandboxes", json=body)
        self.secrets[sandbox_id] = answer["secret"]
        return answer

    async def state(self, sandbox_id: str) -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]]]:
        answer = await self._call("GET", f"/sandboxes/{sandbox_id}/state")
        return answer["tables"], answer["journal"]

    async def remove_leftovers(self) -> list[str]:
        listed = (await self._call("GET", "/sandboxes"))["sandboxes"]
        now = time.time()
        removed = []
        for sandbox in listed:
            if is_stale(sandbox.get("owner"), sandbox.get("created"), now):
                with contextlib.suppress(BackendError):  # gone meanwhile, or another run got there first
                    await self._call("DELETE", f"/sandboxes/{sandbox['id']}")
                    removed.append(sandbox["id"])
        if removed:
            log.warning(
                "%s: removed %d sandbox(es) left by a run that ended without cleaning up", self.app, len(removed)
            )
        return removed

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

    async def apply_world(self, sandbox_id: str, change: dict[str, Any]) -> dict[str, Any]:
        return await self._call("POST", f"/sandboxes/{sandbox_id}/world", json=change)

    async def delete(self, sandbox_id: str) -> None:
        await self._call("DELETE", f"/sandboxes/{sandbox_id}")
        self.secrets.pop(sandbox_id, None)

    def mcp_url(self, sandbox_id: str) -> str:
        return f"{self.base_url}/s/{sandbox_id}/mcp"

    @contextlib.asynccontextmanager
    async def connect(self, sandbox_id: str, secret: str | None = None) -> AsyncIterator[Upstream]:
        """The gateway's connection to the sandbox: one POST per call (`McpUpstream`) on a server known to speak a
        modern protocol version, else the SDK's client with the initialize handshake."""
        secret = secret or self.secrets.get(sandbox_id)
        if self.protocol != "legacy":
            yield McpUpstream(
                self.app, self.mcp_url(sandbox_id), secret, self.pool.sessions, self.listings, protocol=self.protocol
            )
            return
        headers = {"Authorization": f"Bearer {secret}"} if secret else None
        async with httpx2.AsyncClient(transport=self.pool, headers=headers, timeout=MCP_TIMEOUT) as http:
            transport_streams = streamable_http_client(self.mcp_url(sandbox_id), http_client=http)
            async with UpstreamClient(transport_streams, mode=self.protocol, listings=self.listings) as client:
                yield client  # type: ignore[misc]  # UpstreamClient makes the calls the gateway makes of an Upstream

    async def aclose(self) -> None:
        await self.admin.aclose()
        await self.pool.sessions.aclose()


@functools.cache
def ssl_context() -> ssl.SSLContext:
    """The default TLS settings, made once: every new HTTP client otherwise loads the system's CA bundle again
    (about 100 ms of CPU, the largest cost of connecting an episode's agent over HTTP)."""
    return ssl.create_default_context()


MAX_CONNECTIONS = 256
"""Connections from this process to one app server, per plane (admin, MCP): bounded, so a thousand episodes at
once wait for a connection instead of opening thousands of sockets; idle ones are kept for reuse
(`orchestrator.backends.aio.KEEPALIVE_S`)."""
MCP_TIMEOUT = httpx2.Timeout(MCP_CONNECT_S, read=MCP_READ_S, pool=None)
"""The SDK's own timeouts for MCP over HTTP, except that waiting for a pooled connection has no limit."""
