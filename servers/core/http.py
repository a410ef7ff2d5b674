"""The HTTP face of an app server: MCP per sandbox, the admin API, and health.

    /healthz                          no token; liveness and sandbox count
    /mcp                              MCP (Streamable HTTP) of sandbox `default`
    /s/{sandbox}/mcp                  MCP of any other sandbox
    /admin/...                        control plane, `Authorization: Bearer <token>`

The admin API seeds, resets, snapshots and deletes sandboxes, reads journals,
sets clocks and fault plans. It is never proxied to an agent.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

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

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


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


class ClockChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    advance_seconds: float | None = Field(None, description="Move the clock forward (or back, if negative).")
    set: AwareDatetime | None = Field(None, description="Move the clock to this instant.")


def summary(sandbox: Sandbox) -> dict[str, Any]:
    return {
        "id": sandbox.id,
        "rows": sandbox.size(),
        "now": sandbox.now_iso(),
        "clock": sandbox.clock.spec.model_dump(mode="json"),
        "persona": sandbox.persona.model_dump(mode="json"),
        "rng_seed": sandbox.spec.rng_seed,
        "durable": sandbox.directory is not None,
    }


class McpEndpoint:
    """Hands a request to the shared session manager, tagged with its sandbox."""

    def __init__(self, manager: StreamableHTTPSessionManager, store: SandboxStore, sandbox_id: str | None) -> None:
        self.manager = manager
        self.store = store
        self.sandbox_id = sandbox_id

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        sandbox_id = self.sandbox_id or scope["path_params"]["sandbox"]
        if sandbox_id not in self.store:
            response = error(404, f"no sandbox with id {sandbox_id!r}", sandboxes=sorted(self.store.sandboxes)[:50])
            await response(scope, receive, send)
            return
        scope[SANDBOX_SCOPE_KEY] = sandbox_id
        await self.manager.handle_request(scope, receive, send)


Handler = Callable[[Request], Awaitable[Response]]


def build_http_app(
    app: App,
    store: SandboxStore,
    server: MCPServer,
    *,
    admin_token: str | None,
    security: TransportSecuritySettings | None,
) -> Starlette:
    manager = StreamableHTTPSessionManager(server._lowlevel_server, security_settings=security)

    def admin(handler: Handler) -> Handler:
        async def guarded(request: Request) -> Response:
            if not admin_token:
                return error(403, "the admin API is disabled: start the server with --admin-token or CLAWGYM_ADMIN_TOKEN")
            given = request.headers.get("authorization", "")
            if not given.startswith("Bearer ") or not secrets.compare_digest(given[7:].encode(), admin_token.encode()):
                return error(401, "missing or wrong admin token: send 'Authorization: Bearer <token>'")
            try:
                return await handler(request)
            except UnknownSandbox as exc:
                return error(404, str(exc))

        return guarded

    async def body(request: Request, model: type[BaseModel]) -> BaseModel | Response:
        raw = await request.body()
        try:
            data = json.loads(raw or b"{}")
        except json.JSONDecodeError as exc:
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
        sandbox_spec = SandboxSpec.model_validate(spec.model_dump(exclude={"id", "replace"}))
        started = time.perf_counter()
        try:
            if existing is not None:
                async with existing.lock:  # not while a tool call is using it
                    sandbox = store.create(spec.id, sandbox_spec, replace=spec.replace)
            else:
                sandbox = store.create(spec.id, sandbox_spec)
        except SeedError as exc:
            return error(422, str(exc), problems=[p.model_dump() for p in exc.problems])
        except FileExistsError as exc:
            return error(409, f"{exc}; send \"replace\": true to rebuild it")
        return JSONResponse(
            summary(sandbox) | {"seed_ms": round((time.perf_counter() - started) * 1000, 3)}, status_code=201
        )

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
            return error(400, "query parameters 'after' and 'limit' must be integers")
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

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    mcp_methods = ["GET", "POST", "DELETE"]
    routes = [
        Route("/healthz", healthz),
        Route("/mcp", McpEndpoint(manager, store, "default"), methods=mcp_methods),
        Route("/s/{sandbox}/mcp", McpEndpoint(manager, store, None), methods=mcp_methods),
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
    ]
    return Starlette(routes=routes, lifespan=lifespan)
