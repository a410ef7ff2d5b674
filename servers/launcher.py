"""`python -m servers.launcher`: start several app servers from one interpreter, importing the MCP SDK once.

The local backend starts every app of a run at once. Each server on its own pays about half a second of imports
(most of it the MCP SDK); four of them on two cores are most of a cold run. The launcher imports the server core
once, then forks one server per app. Each forked server is what `python -m servers APP --transport http` would be:
its own session, its log on stdout and stderr, its listening socket inherited (`--listen-fd`), its admin token
given on stdin, ending with the process the launcher's `--owner-pid` names; each shows the command line it
would have had (`--parent-pid` naming that process), so `ps` tells the servers apart.

Protocol, one JSON object per line. On stdin, one line per server, then end of input:

    {"app": "mail", "fd": 7, "token": "...", "log": "/run/logs/mail.log"}

(`log` may be null: the server's output is dropped.) On stdout: `{"started": "mail", "pid": 4321}` once each
server is forked, then `{"exited": 4321, "code": 0}` as each one ends (a negative code: ended by that signal).
The launcher waits for every server it started and exits when the last one has; nothing else runs in it.

May import: `servers.registry` and `servers.core`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
from typing import Any

import setproctitle

from servers import registry
from servers.core import cli  # the MCP SDK and the web server, imported once for every server forked below


def _serve(request: dict[str, Any], app: Any, fds: list[int], parent_pid: int) -> int:
    """In the forked child: become the app's server; returns its exit code."""
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    for fd in fds:  # the other servers' sockets are not this server's (those forked before are closed already)
        if fd != request["fd"]:
            with contextlib.suppress(OSError):
                os.close(fd)
    token_in, token_out = os.pipe()
    os.write(token_out, f"{request['token']}\n".encode())
    os.close(token_out)
    os.dup2(token_in, 0)  # the launcher's own stdin and stdout are replaced, not shared
    os.close(token_in)
    log = request.get("log")
    out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644) if log else os.open(os.devnull, os.O_WRONLY)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.close(out)
    sys.stdin = open(0, closefd=False)  # noqa: SIM115 - the token pipe, read by the server's --admin-token-stdin
    sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
    argv = ["--transport", "http", "--host", "127.0.0.1", "--listen-fd", str(request["fd"]),
            "--parent-pid", str(parent_pid), "--log-level", "warning", "--admin-token-stdin"]  # fmt: skip
    # Shown as the server it is (`ps`, /proc/PID/cmdline), not as the launcher it was forked from.
    setproctitle.setproctitle(" ".join([sys.executable, "-m", registry.server_module(request["app"]), *argv]))
    try:
        cli.main(app, argv)
    except SystemExit as exc:
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
        return 1
    return 0


def _report(line: dict[str, Any]) -> None:
    try:
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):  # the orchestrator stopped reading: the servers go on until they end
        pass


def main(argv: list[str] | None = None) -> None:
    """Read the servers to start from stdin, fork each, report their pids and exit codes; return after the last."""
    parser = argparse.ArgumentParser(prog="python -m servers.launcher", description=__doc__.split("\n\n")[0])
    parser.add_argument("--owner-pid", type=int, required=True, help="the servers end when this process is gone")
    parent_pid = parser.parse_args(argv).owner_pid
    requests = [json.loads(line) for line in sys.stdin if line.strip()]
    fds = [r["fd"] for r in requests]
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the servers end with their parent process, not by a group signal
    apps = {r["app"]: registry.load(r["app"]) for r in requests}  # each app's own modules, imported once too
    children: set[int] = set()
    for request in requests:
        pid = os.fork()
        if pid == 0:
            os._exit(_serve(request, apps[request["app"]], fds, parent_pid))
        children.add(pid)
        os.close(request["fd"])
        _report({"started": request["app"], "pid": pid})
    while children:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        children.discard(pid)
        _report({"exited": pid, "code": os.waitstatus_to_exitcode(status)})


if __name__ == "__main__":
    main()
