"""`python -m servers.<app>`: run one app server over stdio or Streamable HTTP."""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import signal
import sys
import threading
import time
from pathlib import Path

import anyio
import yaml
from mcp.server.mcpserver import MCPServer
from pydantic import ValidationError

from servers.core.app import App, SandboxSpec, SeedError, problems_from
from servers.core.limits import DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_SANDBOX_MB
from servers.core.http import build_http_app, is_loopback, transport_security
from servers.core.mcp import build_mcp_server
from servers.core.sandbox import SandboxStore

log = logging.getLogger("clawgym.server")


def parser(app: App) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=f"python -m servers.{app.name}",
        description=f"ClawGym {app.title}: an MCP server whose state lives in resettable sandboxes.",
        epilog=(
            "Over HTTP, sandbox ID is served at /s/ID/mcp and /mcp is sandbox 'default'; "
            "the admin API under /admin/ needs 'Authorization: Bearer TOKEN'."
        ),
    )
    p.add_argument(
        "--transport",
        choices=["stdio", "http"],
        default=os.environ.get("CLAWGYM_TRANSPORT", "stdio"),
        help="stdio (one sandbox) or http (many); env CLAWGYM_TRANSPORT (default stdio)",
    )
    p.add_argument(
        "--host", default=os.environ.get("CLAWGYM_HOST", "127.0.0.1"), help="HTTP bind address; env CLAWGYM_HOST (default 127.0.0.1)"
    )
    p.add_argument(
        "--port", type=int, default=int(os.environ.get("CLAWGYM_PORT", "8000")), help="HTTP port; env CLAWGYM_PORT (default 8000)"
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
    p.add_argument(
        "--admin-token",
        default=os.environ.get("CLAWGYM_ADMIN_TOKEN") or None,
        help="bearer token for /admin/ (env CLAWGYM_ADMIN_TOKEN); on a loopback bind one is generated if missing",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[h for h in os.environ.get("CLAWGYM_ALLOWED_HOSTS", "").split(",") if h],
        metavar="NAME",
        help="extra Host name accepted on MCP requests, e.g. a compose service name; '*' disables the check "
        "(repeatable; env CLAWGYM_ALLOWED_HOSTS, comma-separated)",
    )
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
    return p


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


def load_spec(path: Path) -> SandboxSpec:
    """A sandbox spec from a file, with errors that name the file and the field."""
    try:
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


def main(app: App, argv: list[str] | None = None) -> None:
    args = parser(app).parse_args(argv)
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


def serve_http(app: App, store: SandboxStore, server: MCPServer, args: argparse.Namespace) -> None:
    import uvicorn

    token = args.admin_token
    if not token and is_loopback(args.host):
        token = secrets.token_urlsafe(24)
        print(f"{app.name}: generated admin token {token}", file=sys.stderr, flush=True)
    elif not token:
        print(
            f"{app.name}: no admin token configured; the admin API is disabled (set CLAWGYM_ADMIN_TOKEN)",
            file=sys.stderr,
            flush=True,
        )
    http_app = build_http_app(
        app, store, server, admin_token=token, security=transport_security(args.host, args.allowed_host)
    )
    print(
        f"{app.name}: MCP at http://{args.host}:{args.port}/mcp (sandbox 'default') and /s/ID/mcp; "
        f"{len(store)} sandbox(es){' on disk in ' + str(args.data_dir) if args.data_dir else ' in memory'}",
        file=sys.stderr,
        flush=True,
    )
    uvicorn.run(http_app, host=args.host, port=args.port, log_level=args.log_level, access_log=False)
