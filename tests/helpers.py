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

from servers.core import App, SandboxSpec, SandboxStore, build_mcp_server

ROOT = Path(__file__).resolve().parent.parent


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
    """`python -m servers.<app> --transport http` as a real subprocess on a free loopback port."""

    def __init__(self, app: str, *extra: str, data_dir: Path | None = None, token: str | None = None) -> None:
        self.app = app
        self.port = free_port()
        self.token = token or secrets.token_hex(8)
        self.url = f"http://127.0.0.1:{self.port}"
        args = [sys.executable, "-m", f"servers.{app}", "--transport", "http", "--port", str(self.port)]
        if data_dir is not None:
            args += ["--data-dir", str(data_dir)]
        self.args = args + list(extra)
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> AppProcess:
        env = os.environ | {"CLAWGYM_ADMIN_TOKEN": self.token}
        self.proc = subprocess.Popen(self.args, cwd=ROOT, env=env, stderr=subprocess.PIPE)
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
        return httpx2.Client(base_url=f"{self.url}/admin", headers={"Authorization": f"Bearer {self.token}"}, timeout=10)

    def mcp_url(self, sandbox: str | None = None) -> str:
        return f"{self.url}/mcp" if sandbox is None else f"{self.url}/s/{sandbox}/mcp"


@contextlib.contextmanager
def app_process(app: str, *extra: str, **kwargs: Any) -> Iterator[AppProcess]:
    proc = AppProcess(app, *extra, **kwargs).start()
    try:
        yield proc
    finally:
        proc.stop()


def structured(result: Any) -> dict[str, Any]:
    """The structured content of a successful tool result, failing loudly on an error result."""
    assert not result.is_error, result.content[0].text if result.content else result
    assert result.structured_content is not None
    return result.structured_content


def error_text(result: Any) -> str:
    assert result.is_error, f"expected an error result, got {result.structured_content}"
    return result.content[0].text
