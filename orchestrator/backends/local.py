"""The local backend: each app server as a process on a free loopback port.

No Docker needed. The servers are forked by one launcher per backend
(`servers.launcher`, see `launch`), so the MCP SDK is imported once for all
of them, and `orchestrator run` starts it before it loads anything.
Every server gets a generated admin token on its stdin (never in its
environment or command line, which other local processes can read), writes
its log to the run's log folder, and exits when the orchestrator does,
whatever the reason; `close` stops them all and waits until their ports are
free.
"""

from __future__ import annotations

import secrets
import signal
import socket
import subprocess
from collections.abc import Iterable
from pathlib import Path

import anyio
from mcp.types import LATEST_PROTOCOL_VERSION

from orchestrator.backends.base import AppEndpoint, Backend, BackendError, HttpEndpoint, first_error, wait_healthy
from orchestrator.backends.launch import STARTUP_TIMEOUT_S, Launcher, ServerProcess, launcher
from servers.core.http import BACKLOG


def listening_socket(host: str = "127.0.0.1") -> socket.socket:
    """A socket bound to a free port of `host` and listening, to hand to a server (`--listen-fd`).

    Binding here and passing the socket on (rather than choosing a free port and
    letting the server bind it later) leaves no moment in which another process,
    or another app of the same run, can take the port.
    """
    sock = socket.socket()
    try:
        sock.bind((host, 0))
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


class LocalApp:
    """One app server on a loopback port (forked by a launcher), with its admin token and log file."""

    def __init__(self, app: str, log_dir: Path | None) -> None:
        self.app = app
        self.socket: socket.socket | None = listening_socket()
        self.port = self.socket.getsockname()[1]
        self.token = secrets.token_urlsafe(24)
        self.log_path = log_dir / f"{app}.log" if log_dir else None
        self.process: ServerProcess | None = None
        # The server runs this very code, so the SDK's newest protocol needs no handshake and no session.
        self.endpoint = HttpEndpoint(app, f"http://127.0.0.1:{self.port}", self.token, protocol=LATEST_PROTOCOL_VERSION)

    async def wait_ready(self) -> None:
        assert self.process is not None
        process = self.process

        async def probe() -> str:
            if process.poll() is not None:
                raise BackendError(
                    f"the {self.app} server exited during startup (code {process.returncode}){self._log_tail()}"
                )
            return self.endpoint.base_url

        await wait_healthy(
            probe,
            timeout=STARTUP_TIMEOUT_S,
            failure=lambda: (
                f"the {self.app} server did not answer on port {self.port} within {STARTUP_TIMEOUT_S:g} s{self._log_tail()}"
            ),
        )

    def _log_tail(self) -> str:
        lines: list[str] = []
        if self.log_path and self.log_path.exists():
            lines = self.log_path.read_text(errors="replace").strip().splitlines()[-10:]
        if not lines and self.process is not None and self.process.pid is None:  # the launcher itself failed
            lines = self.process.launcher.errors.decode(errors="replace").strip().splitlines()[-10:]
            return "; the server launcher said:\n  " + "\n  ".join(lines) if lines else ""
        return f"; log {self.log_path}:\n  " + "\n  ".join(lines) if lines else ""

    def terminate(self) -> None:
        """Ask the server to stop (SIGTERM), without waiting: `stop` waits."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)

    def stop(self) -> None:
        if self.socket is not None:  # never spawned
            self.socket.close()
            self.socket = None
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class LocalBackend(Backend):
    """Runs each app server as a local subprocess on 127.0.0.1, spawned once and shared by the episodes."""

    name = "local"

    def __init__(self, log_dir: Path | None = None) -> None:
        super().__init__()
        self.log_dir = log_dir
        self.apps: dict[str, LocalApp] = {}
        self.launcher: Launcher | None = None
        # One start at a time: episodes of a suite start concurrently, and one that found an app already spawned by
        # another must not go on before that app is ready and has its endpoint.
        self._starting = anyio.Lock()

    async def start(self, apps: Iterable[str]) -> dict[str, AppEndpoint]:
        async with self._starting:
            return await self._start(apps)

    async def _start(self, apps: Iterable[str]) -> dict[str, AppEndpoint]:
        new = [LocalApp(app, self.log_dir) for app in apps if app not in self.apps]
        if new and self.launcher is None:
            self.launcher = launcher()
        for app in new:
            self.apps[app.app] = app
            assert self.launcher is not None and app.socket is not None
            if app.log_path:
                app.log_path.parent.mkdir(parents=True, exist_ok=True)
            app.process = self.launcher.start(app.app, app.socket, app.token, app.log_path)
            app.socket.close()  # the launcher holds it now
            app.socket = None
        try:
            async with anyio.create_task_group() as tg:
                for app in new:
                    tg.start_soon(app.wait_ready)
        except BaseException as exc:
            await self.close()
            raise first_error(exc) from None
        for app in new:
            self.endpoints[app.app] = app.endpoint
        return self.endpoints

    async def close(self) -> None:
        with anyio.CancelScope(shield=True):
            await self.close_connections()
            for app in self.apps.values():
                await app.endpoint.aclose()
            if self.launcher is not None:  # no more servers: it ends as soon as its last one has
                self.launcher.close()
            for app in self.apps.values():  # every server stops at once; then each is waited for
                app.terminate()
            for app in self.apps.values():
                await anyio.to_thread.run_sync(app.stop)
            if self.launcher is not None:  # it ends once its last server has, having reaped them all
                await anyio.to_thread.run_sync(self.launcher.wait)
        self.apps.clear()
        self.launcher = None
