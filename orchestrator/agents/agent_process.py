"""The agent's process once started: the sandbox's init (bwrap's report, unshare's child), the copy of its output to `agent.log`,
stopping its whole tree, and saying how it exited.

May import `orchestrator.agents.base` only (the exit codes of a command that never started).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import IO

from orchestrator.agents.base import NOT_STARTED

LOG_LIMIT_BYTES = 20 * 1024 * 1024
"""How much of the agent's output `agent.log` keeps; the rest is counted."""


class SandboxInfo:
    """The host pid of the sandbox's init (its PID namespace ends with it): from bwrap's `--info-fd` report, or the
    child `unshare` forks."""

    def __init__(self) -> None:
        self.child_pid: int | None = None
        self._thread: threading.Thread | None = None

    def start(self, fd: int) -> None:
        """Read the report from `fd` in a thread of its own (bwrap writes it once the sandbox is up)."""

        def read() -> None:
            with os.fdopen(fd, "rb") as stream:
                data = stream.read()
            with contextlib.suppress(ValueError, AttributeError):
                self.child_pid = int(json.loads(data or b"{}").get("child-pid"))

        self._thread = threading.Thread(target=read, daemon=True)
        self._thread.start()

    def start_child_of(self, pid: int, timeout: float = 5.0) -> None:
        """Find the child `pid` (unshare) forks, the PID namespace's init, in a thread of its own."""

        def find() -> None:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and _alive(pid):
                kids = children(pid)
                if kids:
                    self.child_pid = kids[0]
                    return
                time.sleep(0.005)

        self._thread = threading.Thread(target=find, daemon=True)
        self._thread.start()

    def wait(self, timeout: float) -> None:
        """Wait up to `timeout` seconds for the report to be read."""
        if self._thread is not None:
            self._thread.join(timeout)


class LogCopier:
    """Copies the agent's output pipe to `agent.log` (up to a size limit) from a thread.

    The thread waits on the pipe with a short timeout instead of a blocking read, so `finish` can stop it even while
    a process outside the agent's tree (a setsid child when isolation is none) still holds the pipe open: closing a
    pipe under a blocked reader would wait for that reader."""

    def __init__(self, pipe: IO[bytes], path: Path) -> None:
        self.pipe = pipe
        self.path = path
        self.dropped = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._copy, daemon=True)
        self._thread.start()

    def _copy(self) -> None:
        written = 0
        fd = self.pipe.fileno()
        with self.path.open("ab") as log:
            while True:
                ready, _, _ = select.select([fd], [], [], 0.05)
                if not ready:
                    if self._stop.is_set():  # nothing left to read now, and no more is awaited
                        break
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                keep = max(0, min(len(chunk), LOG_LIMIT_BYTES - written))
                if keep:
                    log.write(chunk[:keep])
                    log.flush()
                    written += keep
                self.dropped += len(chunk) - keep
            if self.dropped:
                log.write(f"\n[agent.log: {self.dropped} more bytes not kept]\n".encode())

    def finish(self, timeout: float = 5.0) -> None:
        """Wait up to `timeout` s for the pipe to close (it does when the agent's tree is gone), then stop copying."""
        self._thread.join(timeout)
        if self._thread.is_alive():  # a child outside the agent's tree holds the pipe (isolation none)
            self._stop.set()
            self._thread.join()
        with contextlib.suppress(OSError):
            self.pipe.close()


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def stop_tree(process: subprocess.Popen[bytes], info: SandboxInfo, grace_s: float = 5.0) -> None:
    """End the agent and everything it started, and return only when they are gone.

    Under bwrap or unshare, killing the sandbox's init ends its PID namespace (setsid children included) and bwrap
    or unshare then exits; without isolation, the process group gets SIGTERM (the reaper passes it on and kills the
    agent's leftovers, setsid ones included), then SIGKILL after `grace_s`."""
    info.wait(5)
    if info.child_pid is not None:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(info.child_pid, signal.SIGKILL)
        process.wait()
        deadline = time.monotonic() + 10
        while _alive(info.child_pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        return
    if process.poll() is not None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # leftovers of an exited agent in its group
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(grace_s)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        process.wait()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


def describe_exit(code: int) -> str:
    """`exited with code 127 (command not found)`, `crashed (SIGSEGV)` …"""
    if code < 0:
        return f"crashed ({_signal_name(-code)})"
    if code in NOT_STARTED:
        return f"exited with code {code} ({NOT_STARTED[code]})"
    if code > 128 and code - 128 in signal.valid_signals():
        return f"crashed (exit code {code}: {_signal_name(code - 128)})"
    return f"exited with code {code}"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
