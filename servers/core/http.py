"""The HTTP face of an app server: MCP per sandbox, the admin API, and health.

    /healthz                          no token; liveness and sandbox count
    /mcp                              MCP (Streamable HTTP) of sandbox `default`
    /s/{sandbox}/mcp                  MCP of any other sandbox, `Authorization: Bearer <sandbox secret>`
    /admin/...                        control plane, `Authorization: Bearer <admin token>`

The admin API seeds, resets, snapshots and deletes sandboxes, reads journals,
sets clocks and fault plans, and applies world events (`POST .../world`, see
`servers.core.world`). It is never proxied to an agent. Its routes only
read requests and write answers: the operations are `servers.core.admin.SandboxAdmin`
(`app.state.admin`), whose refusals the exception handlers (`EXCEPTION_HANDLERS`)
turn into JSON errors: 404 unknown sandbox, 422 bad request, 409 existing sandbox.

A sandbox is a capability: creating one returns its secret, and its MCP
endpoint answers only requests that carry it. An unknown sandbox and a wrong
or missing secret get the same plain 404, so nothing can be listed or probed.
An MCP session belongs to the sandbox (and the build of it) that opened it.
The one exception is `default` when the server runs `open_default` (started
by hand: stdio, or loopback without a configured admin token): its endpoint
needs no secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, cast

import uvicorn
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import LATEST_PROTOCOL_VERSION
from pydantic import ConfigDict, Field
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from servers.core.admin import BadRequest, ClockChange, Model, SandboxAdmin, SandboxExists, parse, summary
from servers.core.app import App, SandboxSpec
from servers.core.faults import FaultPlan
from servers.core.mcp import SANDBOX_SCOPE_KEY
from servers.core.sandbox import Sandbox
from servers.core.store import SandboxStore, UnknownSandbox
from servers.core.world import WorldChange

log = logging.getLogger("clawgym.http")

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
NOT_FOUND = {"error": "not found"}
"""The whole answer for an unknown sandbox, a wrong secret or a session of another sandbox."""

KEEP_ALIVE_S = 75.0
"""How long the server keeps an idle HTTP connection open. Clients drop idle pooled connections sooner (the
orchestrator's after 5 s, `orchestrator.backends.aio.KEEPALIVE_S`; httpx's too), so the server never closes one
just as a client sends a request on it: with equal timeouts that race lost calls ("server disconnected without
sending a response") under load."""
BACKLOG = 4096
"""Connections the kernel queues before the server accepts them: room for a thousand episodes starting at once."""


def uvicorn_settings() -> dict[str, Any]:
    """Settings for uvicorn serving an app server: keep-alive and backlog for many concurrent episodes."""
    return {"timeout_keep_alive": KEEP_ALIVE_S, "backlog": BACKLOG}


class WebServer(uvicorn.Server):
    """uvicorn's server, stopping as soon as it is told to (SIGTERM, Ctrl-C).

    uvicorn looks for a stop request once every tenth of a second, and its graceful shutdown then waits another
    tenth for connections to finish their responses. An app server is stopped by its backend after the backend has
    closed its own connections, so with no connection open and no request running it stops at once (new connections
    refused, the app's lifespan ended); with any, it shuts down gracefully as uvicorn does. A local run stops its
    servers at its end, so this is a fifth of a second off every `orchestrator run --backend local`.
    """

    _asked: asyncio.Event | None = None
    _loop: asyncio.AbstractEventLoop | None = None

    def handle_exit(self, sig: int, frame: Any) -> None:
        super().handle_exit(sig, frame)
        if self._loop is not None and self._asked is not None:
            self._loop.call_soon_threadsafe(self._asked.set)

    async def main_loop(self) -> None:
        self._loop, self._asked = asyncio.get_running_loop(), asyncio.Event()
        counter = 0
        while not await self.on_tick(counter):  # uvicorn's own once-a-tenth work: the Date header, notifications
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._asked.wait(), 0.1)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.server_state.connections or self.server_state.tasks:
            await super().shutdown(sockets)
            return
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for server in self.servers:
            await server.wait_closed()
        await self.lifespan.shutdown()


def is_loopback(host: str) -> bool:
    """Whether `host` names this machine's loopback interface."""
    return host in LOOPBACK_HOSTS or host.startswith("127.")


def transport_security(bind_host: str, allowed_hosts: list[str]) -> TransportSecuritySettings:
    """Host/Origin checks against DNS rebinding.

    Loopback names are always allowed. On a non-loopback bind (a container),
    the machine's own hostname is allowed too, plus whatever `allowed_hosts`
    names (a compose service name, say); `*` turns the checks off.
    """
    if "*" in allowed_hosts:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    names = ["127.0.0.1", "localhost", "[::1]", *allowed_hosts]
    if not is_loopback(bind_host):
        names += [socket.gethostname(), bind_host] if bind_host not in ("0.0.0.0", "::", "") else [socket.gethostname()]
    hosts: list[str] = []
    origins: list[str] = []
    for name in dict.fromkeys(n for n in names if n):
        hosts += [name, f"{name}:*"]
        origins += [f"http://{name}", f"http://{name}:*", f"https://{name}", f"https://{name}:*"]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins)


def error(status: int, message: str, **extra: Any) -> JSONResponse:
    """The admin API's error answer: `{"error": message, ...extra}`."""
    return JSONResponse({"error": message, **extra}, status_code=status)


class CreateSandbox(SandboxSpec):
    """The body of `POST /admin/sandboxes`: a sandbox spec, its id, whether to replace one, and who makes it."""

    model_config = ConfigDict(extra="forbid")

    id: str
    replace: bool = False
    owner: str | None = Field(None, max_length=200, description="Who made it, so its maker can find leftovers.")
    snapshot: bool = Field(False, description="Answer with the seeded state too, as `GET …/snapshot` gives it.")


def bearer(request_headers: Any) -> str | None:
    """The token of an `Authorization: Bearer` header, or None."""
    given = request_headers.get("authorization", "")
    return given[7:].strip() if given[:7].lower() == "bearer " else None


class McpEndpoint:
    """Hands a request to the shared session manager, tagged with its sandbox, once its secret checks out.

    The request's principal (`scope["user"]`) is the sandbox and its build, so
    the SDK refuses a session id used with any other sandbox, as if the
    session did not exist.
    """

    def __init__(
        self, manager: StreamableHTTPSessionManager, store: SandboxStore, sandbox_id: str | None, *, open_default: bool
    ) -> None:
        self.manager = manager
        self.store = store
        self.sandbox_id = sandbox_id
        self.open_default = open_default

    def admitted(self, scope: Scope) -> Sandbox | None:
        """The sandbox the request addresses, if it exists and the request may reach it."""
        sandbox_id = self.sandbox_id or scope["path_params"]["sandbox"]
        sandbox = self.store.sandboxes.get(sandbox_id)
        if sandbox is None:
            return None
        if sandbox_id == "default" and self.open_default:
            return sandbox
        return sandbox if sandbox.admits(bearer(Request(scope).headers)) else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        sandbox = self.admitted(scope)
        if sandbox is None:
            await JSONResponse(NOT_FOUND, status_code=404)(scope, receive, send)
            return
        scope[SANDBOX_SCOPE_KEY] = sandbox.id
        principal = AccessToken(
            token="", client_id=f"sandbox:{sandbox.id}", subject=str(sandbox.access.get("generation")), scopes=[]
        )
        scope["user"] = AuthenticatedUser(principal)
        await self.manager.handle_request(scope, receive, send)


class AdminDisabled(Exception):
    """The server was started without an admin token: the admin API answers nothing."""


class WrongAdminToken(Exception):
    """A request to the admin API without the admin token."""


class BodyNotJson(ValueError):
    """A request body that is not JSON at all."""


def admin_plane(request: Request) -> SandboxAdmin:
    """The admin service of the server that got `request` (see `build_http_app`)."""
    return cast(SandboxAdmin, request.app.state.admin)


def known(request: Request) -> str:
    """The id of the sandbox the request's path names; an `UnknownSandbox` before its body is even read."""
    sandbox_id: str = request.path_params["sandbox"]
    admin_plane(request).store.get(sandbox_id)
    return sandbox_id


async def read_body(request: Request, model: type[Model]) -> Model:
    """The request's JSON body as `model` (an empty body is `{}`)."""
    raw = await request.body()
    try:
        data = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise BodyNotJson(f"request body is not JSON: {exc}") from None
    return parse(model, data)


def whole_number(request: Request, name: str, default: int | None) -> int | None:
    """Query parameter `name` as an integer, `default` when absent."""
    if name not in request.query_params:
        return default
    try:
        return int(request.query_params[name])
    except ValueError:
        raise BadRequest("query parameters 'after' and 'limit' must be whole numbers, such as after=12") from None


async def healthz(request: Request) -> Response:
    """Liveness: the app's name, how many sandboxes it holds, and the newest MCP protocol version it speaks
    (`mcp`: an orchestrator that knows it calls without the initialize handshake)."""
    store = admin_plane(request).store
    return JSONResponse(
        {"status": "ok", "app": store.app.name, "sandboxes": len(store), "mcp": LATEST_PROTOCOL_VERSION}
    )


async def info(request: Request) -> Response:
    """The app: its name, title, tables (key and columns) and tools."""
    app = admin_plane(request).store.app
    tables = {t.name: {"key": t.key, "columns": list(t.columns)} for t in app.tables.values()}
    return JSONResponse({"app": app.name, "title": app.title, "tables": tables, "tools": sorted(app.tools.tools)})


async def list_sandboxes(request: Request) -> Response:
    """Every sandbox's summary."""
    return JSONResponse({"sandboxes": admin_plane(request).summaries()})


async def create_sandbox(request: Request) -> Response:
    """Build (or replace) a sandbox; the answer carries its secret, the only time it is told."""
    body = await read_body(request, CreateSandbox)
    spec = SandboxSpec.model_validate(body.model_dump(exclude={"id", "replace", "owner", "snapshot"}))
    secret = secrets.token_urlsafe(32)
    started = time.perf_counter()
    sandbox = await admin_plane(request).create(body.id, spec, replace=body.replace, secret=secret, owner=body.owner)
    took = round((time.perf_counter() - started) * 1000, 3)
    answer = summary(sandbox) | {"seed_ms": took, "secret": secret}
    if body.snapshot:  # read with no await since it was made: nothing else has run on it
        answer["snapshot"] = sandbox.snapshot()
    return JSONResponse(answer, status_code=201)


async def get_sandbox(request: Request) -> Response:
    """One sandbox's summary."""
    return JSONResponse(await admin_plane(request).summary(request.path_params["sandbox"]))


async def delete_sandbox(request: Request) -> Response:
    """Delete a sandbox once no call uses it."""
    sandbox_id = request.path_params["sandbox"]
    await admin_plane(request).delete(sandbox_id)
    return JSONResponse({"deleted": sandbox_id})


async def reset(request: Request) -> Response:
    """Back to the seeded state; the answer says how long it took."""
    sandbox, took = await admin_plane(request).reset(request.path_params["sandbox"])
    return JSONResponse(summary(sandbox) | {"reset_ms": round(took, 3)})


async def snapshot(request: Request) -> Response:
    """Every app table's rows."""
    return JSONResponse(await admin_plane(request).snapshot(request.path_params["sandbox"]))


async def state(request: Request) -> Response:
    """Every app table's rows and the whole journal, read together between tool calls."""
    sandbox_id = known(request)
    tables, entries = await admin_plane(request).state(sandbox_id)
    return JSONResponse({"sandbox": sandbox_id, "tables": tables, "journal": entries})


async def journal(request: Request) -> Response:
    """Journal entries after `?after=N` (default 0), at most `?limit=N`."""
    sandbox_id = known(request)
    after = whole_number(request, "after", 0)
    assert after is not None
    entries = await admin_plane(request).journal(sandbox_id, after, whole_number(request, "limit", None))
    return JSONResponse({"sandbox": sandbox_id, "entries": entries})


async def get_clock(request: Request) -> Response:
    """The sandbox's time and clock spec."""
    return JSONResponse(admin_plane(request).clock(request.path_params["sandbox"]))


async def set_clock(request: Request) -> Response:
    """Move the clock (`ClockChange`)."""
    sandbox_id = known(request)
    change = await read_body(request, ClockChange)
    return JSONResponse(await admin_plane(request).set_clock(sandbox_id, change))


async def get_faults(request: Request) -> Response:
    """The sandbox's fault plan."""
    return JSONResponse(admin_plane(request).faults(request.path_params["sandbox"]).model_dump(mode="json"))


async def set_faults(request: Request) -> Response:
    """Replace the fault plan."""
    sandbox_id = known(request)
    plan = await read_body(request, FaultPlan)
    return JSONResponse((await admin_plane(request).set_faults(sandbox_id, plan)).model_dump(mode="json"))


async def world(request: Request) -> Response:
    """Apply a world event (`WorldChange`)."""
    sandbox_id = known(request)
    change = await read_body(request, WorldChange)
    return JSONResponse(await admin_plane(request).apply_world(sandbox_id, change))


def _bad_request(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BadRequest)
    return error(422, str(exc)) if exc.problems is None else error(422, str(exc), problems=exc.problems)


EXCEPTION_HANDLERS: dict[Any, Callable[[Request, Exception], Response]] = {
    AdminDisabled: lambda request, exc: error(403, str(exc)),
    WrongAdminToken: lambda request, exc: error(401, str(exc)),
    BodyNotJson: lambda request, exc: error(400, str(exc)),
    BadRequest: _bad_request,
    SandboxExists: lambda request, exc: error(409, f'{exc}; send "replace": true to rebuild it'),
    UnknownSandbox: lambda request, exc: error(404, str(exc)),
}
"""How the admin API answers each refusal of the admin plane (and of its own checks)."""

Handler = Callable[[Request], Awaitable[Response]]


def check_admin_token(request: Request) -> None:
    """Let the request through only with the server's admin token."""
    admin_token: str | None = request.app.state.admin_token
    if not admin_token:
        raise AdminDisabled(
            "the admin API is disabled: start the server with --admin-token-file or --admin-token-stdin"
        )
    given = bearer(request.headers)
    if given is None or not secrets.compare_digest(given.encode(), admin_token.encode()):
        raise WrongAdminToken("missing or wrong admin token: send 'Authorization: Bearer <token>'")


def admin(handler: Handler) -> Handler:
    """`handler` behind the admin token; an exception that is no refusal is a bug, answered 500 and logged."""

    @functools.wraps(handler)
    async def guarded(request: Request) -> Response:
        check_admin_token(request)
        try:
            return await handler(request)
        except tuple(EXCEPTION_HANDLERS):
            raise
        except Exception:  # a bug, not bad input: say so without a traceback, keep serving
            log.exception("admin %s %s failed", request.method, request.url.path)
            return error(500, f"internal error in {request.method} {request.url.path}; see the server log")

    return guarded


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Run the MCP session manager while the server runs."""
    async with app.state.manager.run():
        yield


def build_http_app(
    app: App,
    store: SandboxStore,
    server: MCPServer,
    *,
    admin_token: str | None,
    security: TransportSecuritySettings | None,
    open_default: bool = False,
) -> Starlette:
    """The server's ASGI app; `open_default` serves sandbox `default` without a secret."""
    assert store.app is app
    manager = StreamableHTTPSessionManager(server._lowlevel_server, security_settings=security)
    mcp_methods = ["GET", "POST", "DELETE"]
    sandbox = "/admin/sandboxes/{sandbox}"
    routes = [
        Route("/healthz", healthz),
        Route("/mcp", McpEndpoint(manager, store, "default", open_default=open_default), methods=mcp_methods),
        Route("/s/{sandbox}/mcp", McpEndpoint(manager, store, None, open_default=open_default), methods=mcp_methods),
        Route("/admin/info", admin(info)),
        Route("/admin/sandboxes", admin(list_sandboxes), methods=["GET"]),
        Route("/admin/sandboxes", admin(create_sandbox), methods=["POST"]),
        Route(sandbox, admin(get_sandbox), methods=["GET"]),
        Route(sandbox, admin(delete_sandbox), methods=["DELETE"]),
        Route(f"{sandbox}/reset", admin(reset), methods=["POST"]),
        Route(f"{sandbox}/snapshot", admin(snapshot)),
        Route(f"{sandbox}/journal", admin(journal)),
        Route(f"{sandbox}/state", admin(state), methods=["GET"]),
        Route(f"{sandbox}/clock", admin(get_clock), methods=["GET"]),
        Route(f"{sandbox}/clock", admin(set_clock), methods=["POST"]),
        Route(f"{sandbox}/faults", admin(get_faults), methods=["GET"]),
        Route(f"{sandbox}/faults", admin(set_faults), methods=["PUT"]),
        Route(f"{sandbox}/world", admin(world), methods=["POST"]),
    ]
    http_app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=EXCEPTION_HANDLERS)
    http_app.state.admin = SandboxAdmin(store)
    http_app.state.admin_token = admin_token
    http_app.state.manager = manager
    return http_app
