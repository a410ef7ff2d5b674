"""The HTTP face of an app server: MCP per sandbox, the admin API, and health.

    /healthz                          no token; liveness and sandbox count
    /mcp                              MCP (Streamable HTTP) of sandbox `default`
    /s/{sandbox}/mcp                  MCP of any other sandbox, `Authorization: Bearer <sandbox secret>`
    /admin/...                        control plane, `Authorization: Bearer <admin token>`

The admin API seeds, resets, snapshots and deletes sandboxes, reads journals,
sets clocks and fault plans, and applies world events (`POST .../world`, see
`servers.core.world`). It is never proxied to an agent.

A sandbox is a capability: creating one returns its secret, and its MCP
endpoint answers only requests that carry it. An unknown sandbox and a wrong
or missing secret get the same plain 404, so nothing can be listed or probed.
An MCP session belongs to the sandbox (and the build of it) that opened it.
The one exception is `default` when the server runs `open_default` (started
by hand: stdio, or loopback without a configured admin token): its endpoint
needs no secret.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from servers.core.app import App, SandboxSpec, SeedError, problems_from
from servers.core.faults import FaultPlan
from servers.core.mcp import SANDBOX_SCOPE_KEY
from servers.core.sandbox import Sandbox, SandboxStore, UnknownSandbox, check_sandbox_id
from servers.core.world import WorldChange, WorldError
from servers.core.world import apply as apply_world

log = logging.getLogger("clawgym.http")

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
NOT_FOUND = {"error": "not found"}
"""The whole answer for an unknown sandbox, a wrong secret or a session of another sandbox."""
CLOCK_LIMIT_S = 1e10
"""How far one clock change may move a clock (about 300 years)."""
MAX_SEQ = 2**63 - 1

KEEP_ALIVE_S = 75.0
"""How long the server keeps an idle HTTP connection open. Clients drop idle pooled connections sooner
(httpx after 5 s), so the server never closes one just as a client sends a request on it: with equal
timeouts that race lost calls ("server disconnected without sending a response") under load."""
BACKLOG = 4096
"""Connections the kernel queues before the server accepts them: room for a thousand episodes starting at once."""


def uvicorn_settings() -> dict[str, Any]:
    """Settings for uvicorn serving an app server: keep-alive and backlog for many concurrent episodes."""
    return {"timeout_keep_alive": KEEP_ALIVE_S, "backlog": BACKLOG}


def is_loopback(host: str) -> bool:
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
    return JSONResponse({"error": message, **extra}, status_code=status)


class CreateSandbox(SandboxSpec):
    model_config = ConfigDict(extra="forbid")

    id: str
    replace: bool = False
    owner: str | None = Field(None, max_length=200, description="Who made it, so its maker can find leftovers.")


class ClockChange(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    advance_seconds: float | None = Field(
        None, ge=-CLOCK_LIMIT_S, le=CLOCK_LIMIT_S, description="Move the clock forward (or back, if negative)."
    )
    set: AwareDatetime | None = Field(None, description="Move the clock to this instant.")


def summary(sandbox: Sandbox) -> dict[str, Any]:
    access = sandbox.access
    return {
        "id": sandbox.id,
        "owner": access.get("owner"),
        "created": access.get("created"),
        "secret": access.get("secret_sha256") is not None,
        "rows": sandbox.size(),
        "now": sandbox.now_iso(),
        "clock": sandbox.clock.spec.model_dump(mode="json"),
        "persona": sandbox.persona.model_dump(mode="json"),
        "rng_seed": sandbox.spec.rng_seed,
        "durable": sandbox.directory is not None,
    }


def bearer(request_headers: Any) -> str | None:
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


Handler = Callable[[Request], Awaitable[Response]]

EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
LATEST = datetime(9999, 12, 30, tzinfo=UTC)


def clock_problem(sandbox: Sandbox, change: ClockChange) -> str | None:
    """Why `change` cannot be applied (it would leave the range of dates), or None."""
    try:
        when = change.set if change.set is not None else sandbox.now()
        if change.advance_seconds is not None:
            when = when + timedelta(seconds=change.advance_seconds)
    except OverflowError:
        when = None
    if when is None or not EARLIEST <= when <= LATEST:
        return "the clock change would move the clock outside the years 1 to 9999"
    return None


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
    manager = StreamableHTTPSessionManager(server._lowlevel_server, security_settings=security)

    def admin(handler: Handler) -> Handler:
        async def guarded(request: Request) -> Response:
            if not admin_token:
                return error(403, "the admin API is disabled: start the server with --admin-token-file or --admin-token-stdin")
            given = bearer(request.headers)
            if given is None or not secrets.compare_digest(given.encode(), admin_token.encode()):
                return error(401, "missing or wrong admin token: send 'Authorization: Bearer <token>'")
            try:
                return await handler(request)
            except UnknownSandbox as exc:
                return error(404, str(exc))
            except Exception:  # a bug, not bad input: say so without a traceback, keep serving
                log.exception("admin %s %s failed", request.method, request.url.path)
                return error(500, f"internal error in {request.method} {request.url.path}; see the server log")

        return guarded

    async def body(request: Request, model: type[BaseModel]) -> BaseModel | Response:
        raw = await request.body()
        try:
            data = json.loads(raw or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            return error(400, f"request body is not JSON: {exc}")
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            problems = problems_from(exc, data)
            lines = "; ".join(f"{p.loc}: {p.message}" for p in problems)
            return error(422, f"invalid {model.__name__} request: {lines}", problems=[p.model_dump() for p in problems])

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok", "app": app.name, "sandboxes": len(store)})

    async def info(request: Request) -> Response:
        return JSONResponse(
            {
                "app": app.name,
                "title": app.title,
                "tables": {
                    t.name: {"key": t.key, "columns": list(t.columns)} for t in app.tables.values()
                },
                "tools": sorted(app.tools.tools),
            }
        )

    async def list_sandboxes(request: Request) -> Response:
        return JSONResponse({"sandboxes": [summary(s) for s in store.sandboxes.values()]})

    async def create_sandbox(request: Request) -> Response:
        spec = await body(request, CreateSandbox)
        if isinstance(spec, Response):
            return spec
        assert isinstance(spec, CreateSandbox)
        try:
            check_sandbox_id(spec.id)
        except ValueError as exc:
            return error(422, str(exc), problems=[{"loc": "id", "message": str(exc)}])
        existing = store.sandboxes.get(spec.id)
        sandbox_spec = SandboxSpec.model_validate(spec.model_dump(exclude={"id", "replace", "owner"}))
        secret = secrets.token_urlsafe(32)
        started = time.perf_counter()
        try:
            if existing is not None:
                async with existing.lock:  # not while a tool call is using it
                    sandbox = store.create(spec.id, sandbox_spec, replace=spec.replace, secret=secret, owner=spec.owner)
            else:
                sandbox = store.create(spec.id, sandbox_spec, replace=spec.replace, secret=secret, owner=spec.owner)
        except SeedError as exc:
            return error(422, str(exc), problems=[p.model_dump() for p in exc.problems])
        except FileExistsError as exc:
            return error(409, f"{exc}; send \"replace\": true to rebuild it")
        took = round((time.perf_counter() - started) * 1000, 3)
        return JSONResponse(summary(sandbox) | {"seed_ms": took, "secret": secret}, status_code=201)

    async def get_sandbox(request: Request) -> Response:
        return JSONResponse(summary(store.get(request.path_params["sandbox"])))

    async def delete_sandbox(request: Request) -> Response:
        sandbox = store.get(request.path_params["sandbox"])
        async with sandbox.lock:
            store.delete(sandbox.id)
        return JSONResponse({"deleted": sandbox.id})

    async def reset(request: Request) -> Response:
        sandbox = store.get(request.path_params["sandbox"])
        async with sandbox.lock:
            started = time.perf_counter()
            sandbox.reset()
            took = (time.perf_counter() - started) * 1000
        return JSONResponse(summary(sandbox) | {"reset_ms": round(took, 3)})

    async def snapshot(request: Request) -> Response:
        sandbox = store.get(request.path_params["sandbox"])
        async with sandbox.lock:
            return JSONResponse(sandbox.snapshot())

    async def journal(request: Request) -> Response:
        sandbox = store.get(request.path_params["sandbox"])
        try:
            after = int(request.query_params.get("after", "0"))
            limit = int(request.query_params["limit"]) if "limit" in request.query_params else None
        except ValueError:
            return error(422, "query parameters 'after' and 'limit' must be whole numbers, such as after=12")
        if not 0 <= after <= MAX_SEQ or (limit is not None and not 0 <= limit <= MAX_SEQ):
            return error(422, f"query parameters 'after' and 'limit' must be between 0 and {MAX_SEQ}")
        async with sandbox.lock:
            return JSONResponse({"sandbox": sandbox.id, "entries": sandbox.journal(after, limit)})

    async def clock(request: Request) -> Response:
        sandbox = store.get(request.path_params["sandbox"])
        if request.method == "POST":
            change = await body(request, ClockChange)
            if isinstance(change, Response):
                return change
            assert isinstance(change, ClockChange)
            async with sandbox.lock:
                problem = clock_problem(sandbox, change)
                if problem:
                    return error(422, problem, problems=[{"loc": "advance_seconds" if change.advance_seconds else "set", "message": problem}])
                sandbox.set_clock(advance=change.advance_seconds, to=change.set)
        return JSONResponse({"now": sandbox.now_iso(), "clock": sandbox.clock.spec.model_dump(mode="json")})

    async def faults(request: Request) -> Response:
        sandbox = store.get(request.path_params["sandbox"])
        if request.method == "PUT":
            plan = await body(request, FaultPlan)
            if isinstance(plan, Response):
                return plan
            assert isinstance(plan, FaultPlan)
            async with sandbox.lock:
                sandbox.set_faults(plan)
        return JSONResponse(sandbox.faults.model_dump(mode="json"))

    async def world(request: Request) -> Response:
        sandbox = store.get(request.path_params["sandbox"])
        change = await body(request, WorldChange)
        if isinstance(change, Response):
            return change
        assert isinstance(change, WorldChange)
        async with sandbox.lock:
            try:
                done = apply_world(sandbox, change)
            except WorldError as exc:
                return error(422, f"world event {change.event!r} cannot be applied: {exc}", problems=[p.model_dump() for p in exc.problems])
        return JSONResponse(done)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    mcp_methods = ["GET", "POST", "DELETE"]
    routes = [
        Route("/healthz", healthz),
        Route("/mcp", McpEndpoint(manager, store, "default", open_default=open_default), methods=mcp_methods),
        Route("/s/{sandbox}/mcp", McpEndpoint(manager, store, None, open_default=open_default), methods=mcp_methods),
        Route("/admin/info", admin(info)),
        Route("/admin/sandboxes", admin(list_sandboxes), methods=["GET"]),
        Route("/admin/sandboxes", admin(create_sandbox), methods=["POST"]),
        Route("/admin/sandboxes/{sandbox}", admin(get_sandbox), methods=["GET"]),
        Route("/admin/sandboxes/{sandbox}", admin(delete_sandbox), methods=["DELETE"]),
        Route("/admin/sandboxes/{sandbox}/reset", admin(reset), methods=["POST"]),
        Route("/admin/sandboxes/{sandbox}/snapshot", admin(snapshot)),
        Route("/admin/sandboxes/{sandbox}/journal", admin(journal)),
        Route("/admin/sandboxes/{sandbox}/clock", admin(clock), methods=["GET", "POST"]),
        Route("/admin/sandboxes/{sandbox}/faults", admin(faults), methods=["GET", "PUT"]),
        Route("/admin/sandboxes/{sandbox}/world", admin(world), methods=["POST"]),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
