"""Test helpers: real app servers, real MCP clients, real HTTP."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx2
from mcp import Client

from orchestrator.backends.local import listening_socket
from servers.core import App, SandboxSpec, SandboxStore, build_mcp_server

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"  # the scenario library
TRAVEL_PATH = SCENARIOS / "travel.yaml"  # the reference scenario most tests run
# Whom the viewer tests' recorded run leaks the itinerary to (tests/view/conftest.py). Here, not in that conftest:
# `from conftest import` finds whichever conftest module was imported last.
OUTSIDER = "rival@competitor.test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(base_url: str, proc: subprocess.Popen | None = None, timeout: float = 60) -> None:
    """Wait until `base_url/healthz` answers 200, failing early when `proc` exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            stderr = proc.stderr.read() if proc.stderr else ""
            raise RuntimeError(f"exited with code {proc.returncode} before {base_url} was healthy: {stderr!r}")
        try:
            if httpx2.get(f"{base_url}/healthz", timeout=1).status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.05)
    raise TimeoutError(f"{base_url}/healthz did not answer within {timeout:g} s")


@contextlib.asynccontextmanager
async def in_memory(app: App, seed: dict[str, Any] | None = None, **spec: Any) -> AsyncIterator[tuple[Client, Any]]:
    """An `mcp.Client` connected in process to a fresh sandbox of `app`; yields (client, sandbox)."""
    store = SandboxStore(app)
    sandbox = store.create("default", SandboxSpec(seed=seed or {}, **spec))
    async with Client(build_mcp_server(app, store), raise_exceptions=True) as client:
        yield client, sandbox
    store.close()


class AppProcess:
    """`python -m servers.<app> --transport http` as a real subprocess on a free loopback port.

    The admin token goes in on stdin, as the local backend does it. Sandbox
    'default' is served without a secret unless `open_default=False`; the
    secrets of sandboxes created through `admin()` are kept in `secrets`, and
    `client(sandbox)` connects with the right one.
    """

    def __init__(
        self, app: str, *extra: str, data_dir: Path | None = None, token: str | None = None, open_default: bool = True
    ) -> None:
        self.app = app
        # Bound here and handed to the server (as the local backend does), so no other process can take the port.
        self.socket = listening_socket(extra[extra.index("--host") + 1] if "--host" in extra else "127.0.0.1")
        self.port = self.socket.getsockname()[1]
        self.token = token or secrets.token_hex(8)
        self.url = f"http://127.0.0.1:{self.port}"
        args = [sys.executable, "-m", f"servers.{app}", "--transport", "http", "--listen-fd", str(self.socket.fileno())]
        args.append("--admin-token-stdin")
        if data_dir is not None:
            args += ["--data-dir", str(data_dir)]
        if open_default:
            args.append("--open-default")
        self.args = args + list(extra)
        self.proc: subprocess.Popen[bytes] | None = None
        self.secrets: dict[str, str] = {}

    def start(self) -> AppProcess:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLAWGYM_ADMIN_TOKEN")}
        self.proc = subprocess.Popen(
            self.args,
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=(self.socket.fileno(),),
        )
        self.socket.close()
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{self.token}\n".encode())
        self.proc.stdin.close()
        wait_healthy(self.url, self.proc)
        return self

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def admin(self) -> httpx2.Client:
        def keep_secret(response: httpx2.Response) -> None:
            if response.request.method == "POST" and response.request.url.path.endswith("/admin/sandboxes"):
                response.read()
                if response.status_code == 201:
                    created = response.json()
                    self.secrets[created["id"]] = created["secret"]

        return httpx2.Client(
            base_url=f"{self.url}/admin",
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=10,
            event_hooks={"response": [keep_secret]},
        )

    def mcp_url(self, sandbox: str | None = None) -> str:
        return f"{self.url}/mcp" if sandbox is None else f"{self.url}/s/{sandbox}/mcp"

    def client(
        self, sandbox: str | None = None, secret: str | None = None, **kwargs: Any
    ) -> contextlib.AbstractAsyncContextManager[Client]:
        """An MCP client on `sandbox` (None: /mcp) carrying its secret (or `secret`)."""
        return mcp_client(self.mcp_url(sandbox), secret or self.secrets.get(sandbox or "default"), **kwargs)


@contextlib.contextmanager
def app_process(app: str, *extra: str, **kwargs: Any) -> Iterator[AppProcess]:
    proc = AppProcess(app, *extra, **kwargs).start()
    try:
        yield proc
    finally:
        proc.stop()


@contextlib.asynccontextmanager
async def mcp_client(url: str, secret: str | None = None, **kwargs: Any) -> AsyncIterator[Client]:
    """An MCP client over Streamable HTTP sending `Authorization: Bearer <secret>` (when given) on every request."""
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async with create_mcp_http_client(headers={"Authorization": f"Bearer {secret}"} if secret else None) as http:
        async with Client(streamable_http_client(url, http_client=http), **kwargs) as client:
            yield client


def structured(result: Any) -> dict[str, Any]:
    """The structured content of a successful tool result, failing loudly on an error result."""
    assert not result.is_error, result.content[0].text if result.content else result
    assert result.structured_content is not None
    return result.structured_content


def error_text(result: Any) -> str:
    assert result.is_error, f"expected an error result, got {result.structured_content}"
    return result.content[0].text
