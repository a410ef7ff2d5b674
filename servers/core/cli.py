"""`python -m servers.<app>`: run one app server over stdio or Streamable HTTP."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import secrets
import signal
import socket
import stat
import sys
import threading
import time
from pathlib import Path

import anyio
import yaml
from mcp.server.mcpserver import MCPServer
from pydantic import ValidationError
from starlette.applications import Starlette

from servers.core.app import App, SandboxSpec, SeedError, problems_from
from servers.core.http import WebServer, build_http_app, is_loopback, transport_security, uvicorn_settings
from servers.core.limits import DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_SANDBOX_MB
from servers.core.mcp import build_mcp_server
from servers.core.store import SandboxStore

log = logging.getLogger("clawgym.server")


def parser(app: App) -> argparse.ArgumentParser:
    """The command line of `python -m servers.<app>`; each option's default may come from a CLAWGYM_* variable."""
    p = argparse.ArgumentParser(
        prog=f"python -m servers.{app.name}",
        description=f"ClawGym {app.title}: an MCP server whose state lives in resettable sandboxes.",
        epilog=(
            "Over HTTP, sandbox ID is served at /s/ID/mcp (with 'Authorization: Bearer SECRET', the secret its "
            "creation returned) and /mcp is sandbox 'default'; the admin API under /admin/ needs "
            "'Authorization: Bearer TOKEN'. Tokens are never read from the command line or the environment, "
            "where other local users can see them."
        ),
    )
    _serving_options(p)
    _access_options(p)
    _limit_options(p)
    return p


def _serving_options(p: argparse.ArgumentParser) -> None:
    """Where and how the server listens, and where its sandboxes live."""
    p.add_argument(
        "--transport",
        choices=["stdio", "http"],
        default=os.environ.get("CLAWGYM_TRANSPORT", "stdio"),
        help="stdio (one sandbox) or http (many); env CLAWGYM_TRANSPORT (default stdio)",
    )
    p.add_argument(
        "--host",
        default=os.environ.get("CLAWGYM_HOST", "127.0.0.1"),
        help="HTTP bind address; env CLAWGYM_HOST (default 127.0.0.1)",
    )
    p.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("CLAWGYM_PORT", "8000")),
        help="HTTP port; env CLAWGYM_PORT (default 8000)",
    )
    p.add_argument(
        "--listen-fd",
        type=int,
        metavar="FD",
        help="serve on the listening socket inherited as file descriptor FD instead of binding --host/--port "
        "(the orchestrator binds the port itself, so no other process can take it in between)",
    )
    p.add_argument(
        "--data-dir",
        type=Path,
        default=os.environ.get("CLAWGYM_DATA_DIR") or None,
        help="keep sandboxes on disk here so they survive a restart (default: in memory; env CLAWGYM_DATA_DIR)",
    )
    p.add_argument(
        "--seed",
        type=Path,
        metavar="FILE",
        help="YAML or JSON sandbox spec for sandbox 'default': {seed: {...}, persona: {...}, clock: {...}, rng_seed: N}",
    )


def _access_options(p: argparse.ArgumentParser) -> None:
    """Who may reach the admin API and sandbox `default`, and which Host names MCP requests may carry."""
    token = p.add_mutually_exclusive_group()
    token.add_argument(
        "--admin-token-file",
        type=Path,
        metavar="FILE",
        default=os.environ.get("CLAWGYM_ADMIN_TOKEN_FILE") or None,
        help="read the bearer token for /admin/ from FILE (keep it 0600; env CLAWGYM_ADMIN_TOKEN_FILE names the file); "
        "on a loopback bind without one a token is generated and printed",
    )
    token.add_argument(
        "--admin-token-stdin",
        action="store_true",
        help="read the admin token from the first line of stdin at startup (http only)",
    )
    p.add_argument("--admin-token", help=argparse.SUPPRESS)
    p.add_argument(
        "--open-default",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="serve sandbox 'default' at /mcp without a secret; default: on over stdio and on a loopback bind "
        "without a configured admin token, off otherwise (env CLAWGYM_OPEN_DEFAULT=1)",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[h for h in os.environ.get("CLAWGYM_ALLOWED_HOSTS", "").split(",") if h],
        metavar="NAME",
        help="extra Host name accepted on MCP requests, e.g. a compose service name; '*' disables the check "
        "(repeatable; env CLAWGYM_ALLOWED_HOSTS, comma-separated)",
    )


def _limit_options(p: argparse.ArgumentParser) -> None:
    """Logging, each call's time budget, a sandbox's size cap, and the process the server lives no longer than."""
    p.add_argument("--log-level", default=os.environ.get("CLAWGYM_LOG_LEVEL", "warning"), help="server log level")
    p.add_argument(
        "--call-timeout",
        type=_positive,
        metavar="SECONDS",
        default=_positive(os.environ.get("CLAWGYM_CALL_TIMEOUT") or str(DEFAULT_CALL_TIMEOUT)),
        help=f"time budget of one tool call; a call past it is stopped, rolled back and answered with an error "
        f"(env CLAWGYM_CALL_TIMEOUT; default {DEFAULT_CALL_TIMEOUT:g})",
    )
    p.add_argument(
        "--max-sandbox-mb",
        type=_positive,
        metavar="MB",
        default=_positive(os.environ.get("CLAWGYM_MAX_SANDBOX_MB") or str(DEFAULT_MAX_SANDBOX_MB)),
        help=f"stored size one sandbox may reach; a call that would pass it fails "
        f"(env CLAWGYM_MAX_SANDBOX_MB; default {DEFAULT_MAX_SANDBOX_MB:g})",
    )
    p.add_argument(
        "--parent-pid",
        type=int,
        metavar="PID",
        help="shut down when process PID ends (used by the orchestrator so no server outlives it)",
    )


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def exit_with_parent(pid: int) -> None:
    """Ask this process to shut down gracefully once `pid` is gone, as Ctrl-C would."""

    def watch() -> None:
        while True:
            time.sleep(0.5)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os.kill(os.getpid(), signal.SIGTERM)
                return
            except PermissionError:
                continue

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


MAX_SEED_BYTES = 16_000_000
"""The largest seed file an app server reads."""


def load_spec(path: Path) -> SandboxSpec:
    """A sandbox spec from a file (a regular one of at most `MAX_SEED_BYTES`: never a FIFO or a device), with
    errors that name the file and the field."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise SystemExit(f"error: seed file {path} is not a regular file (a FIFO, a device or a folder)")
        if info.st_size > MAX_SEED_BYTES:
            raise SystemExit(f"error: seed file {path} is larger than {MAX_SEED_BYTES:,} bytes")
        data = yaml.safe_load(path.read_text())
    except OSError as exc:
        raise SystemExit(f"error: cannot read seed file {path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise SystemExit(f"error: {path} is not valid YAML/JSON: {exc}") from None
    try:
        return SandboxSpec.model_validate(data or {})
    except ValidationError as exc:
        lines = "\n".join(f"  {p.loc}: {p.message}" for p in problems_from(exc, data))
        raise SystemExit(f"error: {path} is not a valid sandbox spec:\n{lines}") from None


def read_admin_token(args: argparse.Namespace) -> str | None:
    """The configured admin token, from a file or stdin; never from argv or the environment."""
    if args.admin_token is not None:
        raise SystemExit(
            "error: --admin-token is not accepted: a command line is readable by every local user. "
            "Put the token in a 0600 file and pass --admin-token-file FILE, or pipe it with --admin-token-stdin"
        )
    if os.environ.get("CLAWGYM_ADMIN_TOKEN"):
        print(
            "warning: CLAWGYM_ADMIN_TOKEN is ignored (a process environment is readable); "
            "use --admin-token-file or CLAWGYM_ADMIN_TOKEN_FILE",
            file=sys.stderr,
            flush=True,
        )
    if args.admin_token_stdin:
        if args.transport != "http":
            raise SystemExit("error: --admin-token-stdin needs --transport http (stdin is the MCP channel over stdio)")
        token = sys.stdin.readline().strip()
        if not token:
            raise SystemExit("error: --admin-token-stdin: stdin gave no token")
        return token
    if args.admin_token_file is None:
        return None
    try:
        path = Path(args.admin_token_file)
        token = path.read_text().strip()
        mode = path.stat().st_mode
    except OSError as exc:
        raise SystemExit(f"error: cannot read --admin-token-file {args.admin_token_file}: {exc.strerror}") from None
    if not token:
        raise SystemExit(f"error: --admin-token-file {args.admin_token_file} is empty")
    if mode & 0o007:
        print(f"warning: {args.admin_token_file} is readable by other users; chmod 600 it", file=sys.stderr, flush=True)
    return token


def main(app: App, argv: list[str] | None = None) -> None:
    """Serve `app` from the command line (`python -m servers APP`): parse options, open the store, run the transport."""
    args = parser(app).parse_args(argv)
    args.configured_token = read_admin_token(args)
    if args.open_default is None:
        env = os.environ.get("CLAWGYM_OPEN_DEFAULT", "").lower()
        if env:
            args.open_default = env in ("1", "true", "yes", "on")
        else:
            args.open_default = args.transport == "stdio" or (is_loopback(args.host) and args.configured_token is None)
    if args.parent_pid:
        exit_with_parent(args.parent_pid)
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    spec = load_spec(args.seed) if args.seed else SandboxSpec()
    store = SandboxStore(app, args.data_dir)
    try:
        if args.seed or "default" not in store:
            store.create("default", spec, replace=True)
    except SeedError as exc:
        raise SystemExit(f"error: {args.seed}: {exc}") from None
    server = build_mcp_server(app, store, call_timeout=args.call_timeout, max_sandbox_mb=args.max_sandbox_mb)
    try:
        if args.transport == "stdio":
            anyio.run(server.run_stdio_async)
        else:
            serve_http(app, store, server, args)
    finally:
        store.close()


def prepare(apps: list[App]) -> None:
    """Do now, once, what serving any of `apps` would do first in every server: make each app's MCP server (its
    tools' schemas, the SDK's logging setup) and load uvicorn's protocol and event-loop classes. The local backend's
    launcher calls it before it forks a server per app, so a forked server starts in a fraction of the time."""
    import uvicorn

    for app in apps:
        build_mcp_server(app, SandboxStore(app, None))
    anyio.run(anyio.sleep, 0)  # anyio's asyncio backend, which the MCP SDK's transport loads on first use
    uvicorn.Config(Starlette(), log_config=None, **uvicorn_settings()).load()


def serve_http(app: App, store: SandboxStore, server: MCPServer, args: argparse.Namespace) -> None:
    """Serve `server` and the admin plane over HTTP with uvicorn, on a port or an inherited listening socket."""
    import uvicorn

    sockets = None
    if args.listen_fd is not None:
        try:
            sockets = [socket.socket(fileno=args.listen_fd)]
        except OSError as exc:
            raise SystemExit(f"error: --listen-fd {args.listen_fd}: not a listening socket ({exc})") from None
        args.host, args.port = sockets[0].getsockname()[:2]
    token = args.configured_token
    if not token and is_loopback(args.host):
        token = secrets.token_urlsafe(24)
        print(f"{app.name}: generated admin token {token}", file=sys.stderr, flush=True)
    elif not token:
        print(
            f"{app.name}: no admin token configured; the admin API is disabled (see --admin-token-file)",
            file=sys.stderr,
            flush=True,
        )
    http_app = build_http_app(
        app,
        store,
        server,
        admin_token=token,
        security=transport_security(args.host, args.allowed_host),
        open_default=args.open_default,
    )
    default = "open, no secret" if args.open_default else "closed"
    print(
        f"{app.name}: MCP at http://{args.host}:{args.port}/mcp (sandbox 'default', {default}) and /s/ID/mcp (secret); "
        f"{len(store)} sandbox(es){' on disk in ' + str(args.data_dir) if args.data_dir else ' in memory'}",
        file=sys.stderr,
        flush=True,
    )
    config = uvicorn.Config(
        http_app, host=args.host, port=args.port, log_level=args.log_level, access_log=False, **uvicorn_settings()
    )
    web = WebServer(config)
    with contextlib.suppress(KeyboardInterrupt):
        web.run(sockets=sockets)
    if not web.started:
        raise SystemExit(3)  # uvicorn's own code for a server that could not start (a port in use, say)
