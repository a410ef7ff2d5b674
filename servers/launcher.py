"""`python -m servers.launcher`: start several app servers from one interpreter, importing the MCP SDK once.

Each server on its own pays about half a second of imports (most of it the MCP SDK); four of them on two cores
are most of a cold run on the local backend. The launcher imports the server core and the apps once, then forks
one server per app asked for. Each forked server is what `python -m servers APP --transport http` would be:
its own session, its log on stdout and stderr, its listening socket inherited (`--listen-fd`), its admin token
given on stdin, ending with the process the launcher's `--owner-pid` names; each shows the command line it
would have had (`--parent-pid` naming that process), so `ps` tells the servers apart.

Protocol. On the Unix socket `--control-fd` names (SOCK_SEQPACKET), one message per server to start: a JSON
object with the server's listening socket attached (SCM_RIGHTS),

    {"app": "mail", "token": "...", "log": "/run/logs/mail.log"}

(`log` may be null: the server's output is dropped). On stdout, one JSON object per line:
`{"started": "mail", "pid": 4321}` once each server is forked, then `{"exited": 4321, "code": 0}` as each one
ends (a negative code: ended by that signal). Once the control socket is closed (by the orchestrator, or with
it), the launcher waits for every server it started and exits when the last one has; nothing else runs in it.
It is started before anyone knows which apps a run needs, so it imports every registered app's modules first.

May import: `servers.registry` and `servers.core`.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import socket
import sys
from typing import Any

import setproctitle

from servers import registry
from servers.core import cli  # the MCP SDK and the web server, imported once for every server forked below


def _serve(request: dict[str, Any], app: Any, listen_fd: int, parent_pid: int) -> int:
    """In the forked child: become the app's server; returns its exit code."""
    os.setsid()
    for sig in (signal.SIGINT, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
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
    argv = [
        "--transport",
        "http",
        "--host",
        "127.0.0.1",
        "--listen-fd",
        str(listen_fd),
        "--parent-pid",
        str(parent_pid),
        "--log-level",
        "warning",
        "--admin-token-stdin",
    ]
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


def _load(name: str) -> Any:
    try:
        return registry.load(name)
    except Exception:  # noqa: BLE001 - its server imports it again and says why in its log
        return None


def main(argv: list[str] | None = None) -> None:
    """Fork a server for each request on the control socket, report their pids and exit codes; return after the
    control socket is closed and the last server has ended."""
    parser = argparse.ArgumentParser(prog="python -m servers.launcher", description=__doc__.split("\n\n")[0])
    parser.add_argument("--owner-pid", type=int, required=True, help="the servers end when this process is gone")
    parser.add_argument("--control-fd", type=int, required=True, help="the Unix socket the requests come on")
    args = parser.parse_args(argv)
    control = socket.socket(fileno=args.control_fd)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the servers end with their parent process, not by a group signal
    apps = {name: _load(name) for name in registry.available()}  # each app's own modules, imported once too
    try:
        cli.prepare([app for app in apps.values() if app is not None])
    except Exception:  # noqa: BLE001 - only the head start is lost: each server sets itself up and says why in its log
        pass
    wake_read, wake_write = os.pipe()  # a server's end wakes the loop below (SIGCHLD)
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    children: set[int] = set()

    def reap(block: bool) -> None:
        while children:
            try:
                pid, status = os.waitpid(-1, 0 if block else os.WNOHANG)
            except ChildProcessError:
                children.clear()
                return
            if pid == 0:
                return
            children.discard(pid)
            _report({"exited": pid, "code": os.waitstatus_to_exitcode(status)})

    while True:
        ready = select.select([control, wake_read], [], [])[0]  # type: ignore[type-var]  # a socket and a pipe's fd, both selectable
        if wake_read in ready:
            os.read(wake_read, 512)
            reap(block=False)
        if control not in ready:
            continue
        try:
            data, fds, _, _ = socket.recv_fds(control, 65536, 1)
        except OSError:
            data, fds = b"", []
        if not data:
            break  # closed: no more servers
        request = json.loads(data)
        if not fds:
            continue
        pid = os.fork()
        if pid == 0:
            signal.set_wakeup_fd(-1)
            for fd in (wake_read, wake_write, control.detach()):
                os.close(fd)
            os._exit(_serve(request, apps.get(request["app"]) or registry.load(request["app"]), fds[0], args.owner_pid))
        os.close(fds[0])
        children.add(pid)
        _report({"started": request["app"], "pid": pid})
    control.close()
    reap(block=True)
    sys.stdout.flush()
    os._exit(0)  # nothing to tear down: the interpreter's own finalization would only delay the caller's wait


if __name__ == "__main__":
    main()
