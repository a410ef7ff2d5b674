"""Serving a gateway to agents: Streamable HTTP on a loopback port, or stdio."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

import anyio
import uvicorn
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from orchestrator.episode.gateway import Gateway
from servers.core.http import transport_security


class _Server(uvicorn.Server):
    """uvicorn without its own signal handling: the orchestrator decides when serving ends."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def gateway_app(gateway: Gateway, host: str, allowed_hosts: list[str] | None = None) -> Starlette:
    manager = StreamableHTTPSessionManager(gateway.server, security_settings=transport_security(host, allowed_hosts or []))

    class Endpoint:
        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            await manager.handle_request(scope, receive, send)

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "scenario": gateway.scenario.id, "tools": len(gateway.tools)})

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    return Starlette(
        routes=[Route("/healthz", healthz), Route("/mcp", Endpoint(), methods=["GET", "POST", "DELETE"])],
        lifespan=lifespan,
    )


@contextlib.asynccontextmanager
async def serve_http(
    gateway: Gateway, host: str = "127.0.0.1", port: int = 0, allowed_hosts: list[str] | None = None
) -> AsyncIterator[str]:
    """Serve the gateway while the block runs; yields its MCP URL (port 0 picks a free one)."""
    config = uvicorn.Config(
        gateway_app(gateway, host, allowed_hosts), host=host, port=port, log_level="warning", access_log=False, lifespan="on"
    )
    server = _Server(config)
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve)
        while not server.started:
            if server.should_exit or tg.cancel_scope.cancel_called:
                raise RuntimeError(f"could not serve the gateway on {host}:{port}")
            await anyio.sleep(0.01)
        bound = server.servers[0].sockets[0].getsockname()[1]
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        try:
            yield f"http://{shown}:{bound}/mcp"
        finally:
            server.should_exit = True


async def serve_stdio(gateway: Gateway) -> None:
    """Serve the gateway over this process's stdin/stdout until stdin closes."""
    async with stdio_server() as (read_stream, write_stream):
        await gateway.server.run(read_stream, write_stream, gateway.server.create_initialization_options())
