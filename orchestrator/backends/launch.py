"""The local backend's server launcher, seen from the orchestrator: one `python -m servers.launcher` per backend.

The launcher imports the MCP SDK and the apps once, then forks a server for each app it is asked for (its
listening socket passed over a Unix socket, its token in the message). It can be started before the run knows its
apps (`prestart`, called by `orchestrator run --backend local` before it loads anything), so its imports overlap
the orchestrator's own. This module imports nothing heavy, so that start is early.

May import: nothing of the project but the standard library.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

SERVER_ENV_DROPPED = (
    "CLAWGYM_ADMIN_TOKEN",
    "CLAWGYM_ADMIN_TOKEN_FILE",
    "CLAWGYM_DATA_DIR",
    "CLAWGYM_OPEN_DEFAULT",
    "CLAWGYM_TRANSPORT",
)
"""Settings of the orchestrator's environment that must not configure (or leak into) the servers it starts."""

STARTUP_TIMEOUT_S = 30.0


class ServerProcess:
    """An app server forked by the launcher: what the backend needs of a `Popen` (pid, poll, signals, wait)."""

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
    """One `python -m servers.launcher`, started at once (it imports while its caller goes on); `start` asks it
    for a server. It reports each server's pid and exit code on a pipe, read by a thread of its own."""

    def __init__(self) -> None:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = {k: v for k, v in os.environ.items() if k not in SERVER_ENV_DROPPED} | {"PYTHONUNBUFFERED": "1"}
        command = [
            sys.executable,
            "-m",
            "servers.launcher",
            "--owner-pid",
            str(os.getpid()),
            "--control-fd",
            str(theirs.fileno()),
        ]
        # stdout is the MCP channel when the orchestrator itself serves stdio: the launcher reports on a pipe and
        # the servers write to their logs. A session of its own keeps the servers out of signals meant for the
        # orchestrator's process group (an MCP client stopping `serve`), so the final state can still be read;
        # --owner-pid ends them when the orchestrator is gone.
        self.process = subprocess.Popen(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            pass_fds=(theirs.fileno(),),
        )
        theirs.close()
        self.control: socket.socket | None = mine
        self.servers: dict[str, ServerProcess] = {}
        self.by_pid: dict[int, ServerProcess] = {}
        self.errors = b""
        self._reader = threading.Thread(target=self._read, name="server-launcher", daemon=True)
        self._reader.start()

    def start(self, app: str, sock: socket.socket, token: str, log: Path | None) -> ServerProcess:
        """Ask for `app`'s server on the listening socket `sock` (the caller closes its copy)."""
        server = self.servers[app] = ServerProcess(self, app)
        request = {"app": app, "token": token, "log": str(log) if log else None}
        try:
            assert self.control is not None, "the launcher was closed"
            socket.send_fds(self.control, [json.dumps(request).encode()], [sock.fileno()])
        except OSError:  # the launcher is gone: the reader (or this) says so
            if not self._reader.is_alive():
                server._end(self.process.poll() or 1)
        return server

    def close(self) -> None:
        """No more servers: the launcher ends once the last one it started has."""
        if self.control is not None:
            self.control.close()
            self.control = None

    def wait(self) -> None:
        """Wait for the launcher to end (after `close` and its servers' end); killed after 5 s."""
        self.close()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:  # a server that would not end was killed: the launcher is next
            self.process.kill()
            self.process.wait()

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
        for server in list(self.servers.values()):  # the launcher is gone: a server it never reported ended with it
            if server.pid is None:
                server._end(code or 1)
            elif server.returncode is None and not _alive(server.pid):
                server._end(-signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


_prestarted: Launcher | None = None


def prestart() -> None:
    """Start this process's launcher now, before the backend that will use it exists (its imports overlap the
    caller's); the next `launcher()` takes it."""
    global _prestarted
    if _prestarted is None:
        _prestarted = Launcher()


def launcher() -> Launcher:
    """The launcher `prestart` started (if it is still running), else a new one."""
    global _prestarted
    found, _prestarted = _prestarted, None
    if found is not None and found.process.poll() is None:
        return found
    if found is not None:
        found.wait()
    return Launcher()
