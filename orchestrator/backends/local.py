"""The local backend: each app server as a process on a free loopback port.

No Docker needed. The servers of one start are forked by one launcher
(`servers.launcher`), so the MCP SDK is imported once for all of them.
Every server gets a generated admin token on its stdin (never in its
environment or command line, which other local processes can read), writes
its log to the run's log folder, and exits when the orchestrator does,
whatever the reason; `close` stops them all and waits until their ports are
free.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterable
from pathlib import Path

import anyio
from mcp.types import LATEST_PROTOCOL_VERSION

from orchestrator.backends.base import AppEndpoint, Backend, BackendError, HttpEndpoint, first_error, wait_healthy
from servers.core.http import BACKLOG

STARTUP_TIMEOUT_S = 30.0
SERVER_ENV_DROPPED = (
    "CLAWGYM_ADMIN_TOKEN", "CLAWGYM_ADMIN_TOKEN_FILE", "CLAWGYM_DATA_DIR", "CLAWGYM_OPEN_DEFAULT", "CLAWGYM_TRANSPORT",
)  # fmt: skip
"""Settings of the orchestrator's environment that must not configure (or leak into) the servers it starts."""


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


class ServerProcess:
    """An app server forked by a launcher (`servers.launcher`): what the backend needs of a `Popen`."""

    def __init__(self, launcher: Launcher, app: str) -> None:
        self.launcher = launcher
        self.app = app
        self.pid: int | None = None
        self.returncode: int | None = None
        self.started = threading.Event()  # its pid is known, or it never will be
        self.ended = threading.Event()

    def poll(self) -> int | None:
        return self.returncode

    def send_signal(self, sig: int) -> None:
        self.started.wait(STARTUP_TIMEOUT_S)  # stopped as it is forked: the launcher reports its pid at once
        if self.pid is not None and self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def wait(self, timeout: float | None = None) -> int:
        if not self.ended.wait(timeout):
            raise subprocess.TimeoutExpired(f"{self.app} server", timeout or 0)
        assert self.returncode is not None
        return self.returncode

    def _start(self, pid: int) -> None:
        self.pid = pid
        self.started.set()

    def _end(self, code: int) -> None:
        if self.returncode is None:
            self.returncode = code
            self.started.set()
            self.ended.set()


class Launcher:
    """One `python -m servers.launcher` forking the servers of one start: the MCP SDK is imported once for
    all of them instead of once per server. It reports each server's pid and exit code; a thread reads them."""

    def __init__(self, apps: list[LocalApp]) -> None:
        self.servers = {app.app: ServerProcess(self, app.app) for app in apps}
        self.by_pid: dict[int, ServerProcess] = {}
        env = {k: v for k, v in os.environ.items() if k not in SERVER_ENV_DROPPED} | {"PYTHONUNBUFFERED": "1"}
        fds = []
        requests = []
        for app in apps:
            assert app.socket is not None, "spawned twice"
            fds.append(app.socket.fileno())
            requests.append({"app": app.app, "fd": app.socket.fileno(), "token": app.token,
                             "log": str(app.log_path) if app.log_path else None})  # fmt: skip
            if app.log_path:
                app.log_path.parent.mkdir(parents=True, exist_ok=True)
        # stdout is the MCP channel when the orchestrator itself serves stdio: the launcher reports on a pipe and
        # the servers write to their logs. A session of its own keeps the servers out of signals meant for the
        # orchestrator's process group (an MCP client stopping `serve`), so the final state can still be read;
        # --parent-pid ends them when the orchestrator is gone.
        command = [sys.executable, "-m", "servers.launcher", "--owner-pid", str(os.getpid())]
        self.process = subprocess.Popen(
            command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True, pass_fds=fds,
        )  # fmt: skip
        for app in apps:
            assert app.socket is not None
            app.socket.close()  # the launcher holds them now
            app.socket = None
            app.process = self.servers[app.app]
        assert self.process.stdin is not None
        with contextlib.suppress(BrokenPipeError):  # it died at once: the reader says why
            self.process.stdin.write("".join(json.dumps(r) + "\n" for r in requests).encode())
            self.process.stdin.close()
        self.errors = b""
        threading.Thread(target=self._read, name="server-launcher", daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None and self.process.stderr is not None
        for line in self.process.stdout:
            event = json.loads(line)
            if "started" in event:
                server = self.servers[event["started"]]
                self.by_pid[event["pid"]] = server
                server._start(event["pid"])
            elif event.get("exited") in self.by_pid:
                self.by_pid[event["exited"]]._end(event["code"])
        self.errors = self.process.stderr.read()
        code = self.process.wait()
        for server in self.servers.values():  # the launcher is gone: a server it never reported ended with it
            if server.pid is None:
                server._end(code or 1)
            elif server.returncode is None and not _alive(server.pid):
                server._end(-signal.SIGKILL)

    def wait(self) -> None:
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:  # a server that would not end was killed: the launcher is next
            self.process.kill()
            self.process.wait()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class LocalApp:
    """One app server on a loopback port (forked by a launcher), with its admin token and log file."""

    def __init__(self, app: str, log_dir: Path | None) -> None:
        self.app = app
        self.socket: socket.socket | None = listening_socket()
        self.port = self.socket.getsockname()[1]
        self.token = secrets.token_urlsafe(24)
        self.log_path = log_dir / f"{app}.log" if log_dir else None
        self.process: ServerProcess | None = None
        self.launcher: Launcher | None = None
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
        self.launchers: list[Launcher] = []
        # One start at a time: episodes of a suite start concurrently, and one that found an app already spawned by
        # another must not go on before that app is ready and has its endpoint.
        self._starting = anyio.Lock()

    async def start(self, apps: Iterable[str]) -> dict[str, AppEndpoint]:
        async with self._starting:
            return await self._start(apps)

    async def _start(self, apps: Iterable[str]) -> dict[str, AppEndpoint]:
        new = [LocalApp(app, self.log_dir) for app in apps if app not in self.apps]
        for app in new:
            self.apps[app.app] = app
        if new:
            self.launchers.append(Launcher(new))
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
            for app in self.apps.values():  # every server stops at once; then each is waited for
                app.terminate()
            for app in self.apps.values():
                await anyio.to_thread.run_sync(app.stop)
            for launcher in self.launchers:  # it ends once its last server has, having reaped them all
                await anyio.to_thread.run_sync(launcher.wait)
        self.apps.clear()
        self.launchers.clear()
