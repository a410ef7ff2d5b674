"""Serving a gateway to agents: Streamable HTTP on a loopback port, or stdio.

Both stop promptly when the surrounding task is cancelled (a signal): the
stdio transport reads stdin in a thread it can abandon, and the HTTP server
finishes its shutdown shielded from the cancellation instead of being torn
down mid-lifespan. `episode_folder` gives every served episode its own folder
under a parent and points `latest` at the newest.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel
import uvicorn
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from orchestrator.episode.gateway import Gateway
from servers.core.http import KEEP_ALIVE_S, transport_security


class _Server(uvicorn.Server):
    """uvicorn without its own signal handling: the orchestrator decides when serving ends."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def gateway_app(
    gateway: Gateway, host: str, allowed_hosts: list[str] | None = None, secret: str | None = None
) -> Starlette:
    """The gateway's web app: MCP at `/mcp`, or at `/SECRET/mcp` only when a secret is given (a capability:
    another local process that finds the port cannot use it, and an agent learns nothing from `/healthz`), and
    `/healthz`."""
    manager = StreamableHTTPSessionManager(
        gateway.server, security_settings=transport_security(host, allowed_hosts or [])
    )

    class Endpoint:
        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            await manager.handle_request(scope, receive, send)

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "scenario": gateway.scenario.id, "tools": len(gateway.tools)})

    async def alive(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    # Behind a secret, the open `/healthz` says only that it is up: the scenario's id (which names a generated task's
    # family and seed) is for the secret's holder, at `/SECRET/healthz`.
    health = (
        [Route("/healthz", alive), Route(f"/{secret}/healthz", healthz)] if secret else [Route("/healthz", healthz)]
    )
    return Starlette(
        routes=[*health, Route(mcp_path(secret), Endpoint(), methods=["GET", "POST", "DELETE"])], lifespan=lifespan
    )


def mcp_path(secret: str | None) -> str:
    """The URL path of the gateway's MCP endpoint: behind the episode's secret when it has one."""
    return f"/{secret}/mcp" if secret else "/mcp"


class ServeError(RuntimeError):
    """Serving could not start (for example the port is taken); the message says why."""


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on host:port, or a `ServeError` naming the address and the reason."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # as uvicorn binds it
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:  # socket.gaierror included: an unknown host name
        sock.close()
        hint = (
            " (another process uses it; pick another --port, or 0 for a free one)"
            if exc.errno == errno.EADDRINUSE
            else ""
        )
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}{hint}") from None
    sock.set_inheritable(True)
    return sock


SHUTDOWN_GRACE_S = 5.0


@contextlib.asynccontextmanager
async def serve_http(
    gateway: Gateway,
    host: str = "127.0.0.1",
    port: int = 0,
    allowed_hosts: list[str] | None = None,
    secret: str | None = None,
) -> AsyncIterator[str]:
    """Serve the gateway while the block runs; yields its MCP URL (port 0 picks a free one).

    Raises `ServeError` when the address cannot be bound."""
    sock = listen(host, port)
    config = uvicorn.Config(
        gateway_app(gateway, host, allowed_hosts, secret),
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=SHUTDOWN_GRACE_S,  # type: ignore[arg-type]  # uvicorn takes seconds as a float (annotated int)
        timeout_keep_alive=KEEP_ALIVE_S,  # type: ignore[arg-type]  # uvicorn takes seconds as a float (annotated int)
        log_config=None,  # the process's logging is configured once, not again for every served episode
    )
    server = _Server(config)
    stopped = anyio.Event()

    async def run() -> None:
        # Shielded: a cancelled caller still gets an orderly shutdown (should_exit below),
        # not a CancelledError inside uvicorn's lifespan.
        try:
            with anyio.CancelScope(shield=True):
                await server.serve(sockets=[sock])
        finally:
            stopped.set()
            sock.close()

    async with anyio.create_task_group() as tg:
        tg.start_soon(run)
        while not server.started:
            if stopped.is_set():
                raise ServeError(f"could not serve the gateway on {host}:{port}")
            await anyio.sleep(0.01)
        bound = sock.getsockname()[1]
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        try:
            yield f"http://{shown}:{bound}{mcp_path(secret)}"
        finally:
            server.should_exit = True
            with anyio.CancelScope(shield=True), anyio.move_on_after(SHUTDOWN_GRACE_S + 5):
                await stopped.wait()


async def _stdin_lines() -> AsyncIterator[str]:
    """stdin's lines, read by a daemon thread: cancelling the reader does not wait for the next line.

    The thread reads a duplicate of fd 0 with `os.read` (no Python-level buffer lock), so an abandoned
    read neither blocks the interpreter's exit nor trips over stdin's buffer at shutdown."""
    send, receive = anyio.create_memory_object_stream[str | None](1)
    token = anyio.lowlevel.current_token()
    fd = os.dup(sys.stdin.fileno())

    def pump() -> None:
        pending = b""
        try:
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    if pending:
                        anyio.from_thread.run(send.send, pending.decode("utf-8", errors="replace"), token=token)
                    anyio.from_thread.run(send.send, None, token=token)
                    return
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    anyio.from_thread.run(send.send, line.decode("utf-8", errors="replace") + "\n", token=token)
        except Exception:  # the loop or the stream closed: serving is over
            return
        finally:
            with contextlib.suppress(OSError):
                os.close(fd)

    threading.Thread(target=pump, name="clawgym-stdin", daemon=True).start()
    async with receive:
        async for line in receive:
            if line is None:
                return
            yield line


async def serve_stdio(gateway: Gateway) -> None:
    """Serve the gateway over this process's stdin/stdout until stdin closes or the caller is cancelled."""
    lines = _stdin_lines()
    try:
        async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]  # the SDK takes any async stream of lines (annotated as its own type)
            await gateway.server.run(read_stream, write_stream, gateway.server.create_initialization_options())
    finally:
        with anyio.CancelScope(shield=True):
            await lines.aclose()  # type: ignore[attr-defined]  # `lines` is an async generator


def episode_folder(parent: Path, name: str) -> Path:
    """A new folder `parent/NAME-YYYYmmdd-HHMMSS[-n]` for one served episode, with `parent/latest` pointing at it.

    `latest` is a relative symlink replaced atomically, so it stays valid when the parent is copied."""
    parent.mkdir(parents=True, exist_ok=True)
    stamp = f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
    for n in range(1, 10_000):
        folder = parent / (stamp if n == 1 else f"{stamp}-{n}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        break
    point_latest(parent, folder)
    return folder


def point_latest(parent: Path, folder: Path) -> None:
    """Point `parent/latest` at `folder` (a symlink replaced atomically); a real folder named latest is left alone."""
    link = parent / "latest"
    if link.exists() and not link.is_symlink():
        return  # a real folder called latest (an older layout): leave it alone
    scratch = parent / f".latest-{os.getpid()}-{threading.get_ident()}"
    with contextlib.suppress(FileNotFoundError):
        scratch.unlink()
    scratch.symlink_to(folder.name, target_is_directory=True)
    scratch.replace(link)
