"""Threat: an agent that knows (or guesses) sandbox names reaches sandboxes that are not its own.

Sandboxes are capabilities: creating one returns a secret, its MCP endpoint
answers only with it, a miss is the same plain 404 whatever the reason, and an
MCP session belongs to the sandbox that opened it. App servers get their admin
token where other processes cannot read it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest
from helpers import ROOT, TRAVEL_PATH, AppProcess, app_process, free_port, mcp_client, structured, wait_healthy

from orchestrator.backends import make_backend
from orchestrator.backends.base import HttpEndpoint
from orchestrator.backends.local import LocalBackend
from orchestrator.episode.episode import Episode
from orchestrator.scenario.model import load
from servers.core import SandboxSpec

SEED = {"projects": [{"key": "OPS", "name": "Operations"}], "tickets": [{"key": "OPS-1", "title": "Rotate keys"}]}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def call(name: str, arguments: dict, id_: int = 2) -> dict:
    return {"jsonrpc": "2.0", "id": id_, "method": "tools/call", "params": {"name": name, "arguments": arguments}}


@pytest.fixture(scope="module")
def server():
    """A server as the orchestrator runs it: admin token configured, so `default` is closed too."""
    with app_process("tickets", open_default=False) as proc:
        with proc.admin() as admin:
            for sandbox_id in ("alpha", "bravo"):
                assert admin.post("/sandboxes", json={"id": sandbox_id, "seed": SEED}).status_code == 201
        yield proc


def snapshot_and_journal(server: AppProcess, sandbox_id: str) -> tuple[dict, list]:
    with server.admin() as admin:
        return (
            admin.get(f"/sandboxes/{sandbox_id}/snapshot").json(),
            admin.get(f"/sandboxes/{sandbox_id}/journal").json()["entries"],
        )


def test_a_miss_lists_nothing_and_looks_the_same_whatever_the_reason(server: AppProcess) -> None:
    bearer = lambda secret: MCP_HEADERS | {"Authorization": f"Bearer {secret}"}  # noqa: E731
    misses = {
        "unknown sandbox": httpx2.post(server.mcp_url("nowhere"), json=INITIALIZE, headers=MCP_HEADERS),
        "unknown sandbox, some secret": httpx2.post(
            server.mcp_url("nowhere"), json=INITIALIZE, headers=bearer("x" * 43)
        ),
        "known sandbox, no secret": httpx2.post(server.mcp_url("alpha"), json=INITIALIZE, headers=MCP_HEADERS),
        "known sandbox, wrong secret": httpx2.post(server.mcp_url("alpha"), json=INITIALIZE, headers=bearer("x" * 43)),
        "known sandbox, the other's secret": httpx2.post(
            server.mcp_url("alpha"), json=INITIALIZE, headers=bearer(server.secrets["bravo"])
        ),
        "default, closed": httpx2.post(server.mcp_url(), json=INITIALIZE, headers=MCP_HEADERS),
        "admin token as a sandbox secret": httpx2.post(
            server.mcp_url("alpha"), json=INITIALIZE, headers=bearer(server.token)
        ),
    }
    for reason, response in misses.items():
        assert (response.status_code, response.content) == (404, b'{"error":"not found"}'), reason
        for name in ("alpha", "bravo", "default"):
            assert name not in response.text, reason
    # The right secret opens the door.
    ok = httpx2.post(server.mcp_url("alpha"), json=INITIALIZE, headers=bearer(server.secrets["alpha"]))
    assert ok.status_code == 200 and "mcp-session-id" in ok.headers


async def test_another_sandboxs_tools_need_its_secret(server: AppProcess) -> None:
    before = snapshot_and_journal(server, "bravo")
    for secret in (None, "guess", server.secrets["alpha"]):
        with pytest.raises(Exception):  # noqa: B017 (the client fails to connect at all: 404 on initialize)
            async with mcp_client(server.mcp_url("bravo"), secret) as client:
                await client.call_tool("transition_ticket", {"key": "OPS-1", "status": "done"})
    assert snapshot_and_journal(server, "bravo") == before
    async with mcp_client(server.mcp_url("bravo"), server.secrets["bravo"]) as client:
        structured(await client.call_tool("get_ticket", {"key": "OPS-1"}))
    assert len(snapshot_and_journal(server, "bravo")[1]) == len(before[1]) + 1


def open_session(server: AppProcess, sandbox_id: str, secret: str) -> str:
    headers = MCP_HEADERS | {"Authorization": f"Bearer {secret}"}
    opened = httpx2.post(server.mcp_url(sandbox_id), json=INITIALIZE, headers=headers)
    assert opened.status_code == 200, opened.text
    session = opened.headers["mcp-session-id"]
    done = httpx2.post(server.mcp_url(sandbox_id), json=INITIALIZED, headers=headers | {"mcp-session-id": session})
    assert done.status_code == 202
    return session


def test_a_session_belongs_to_the_sandbox_that_opened_it(server: AppProcess) -> None:
    session = open_session(server, "alpha", server.secrets["alpha"])
    before = snapshot_and_journal(server, "bravo")
    move = call("transition_ticket", {"key": "OPS-1", "status": "done"})
    for secret in (server.secrets["alpha"], server.secrets["bravo"], None):
        headers = MCP_HEADERS | {"mcp-session-id": session} | ({"Authorization": f"Bearer {secret}"} if secret else {})
        reused = httpx2.post(server.mcp_url("bravo"), json=move, headers=headers)
        assert reused.status_code == 404, (secret, reused.text)
        assert "alpha" not in reused.text and "bravo" not in reused.text
    assert snapshot_and_journal(server, "bravo") == before
    # The session still works where it was opened.
    own = MCP_HEADERS | {"mcp-session-id": session, "Authorization": f"Bearer {server.secrets['alpha']}"}
    assert (
        httpx2.post(server.mcp_url("alpha"), json=call("get_ticket", {"key": "OPS-1"}), headers=own).status_code == 200
    )


def test_a_rebuilt_sandbox_takes_a_new_secret_and_drops_old_sessions(server: AppProcess) -> None:
    old_secret = server.secrets["alpha"]
    session = open_session(server, "alpha", old_secret)
    with server.admin() as admin:
        assert admin.post("/sandboxes", json={"id": "alpha", "seed": SEED, "replace": True}).status_code == 201
    new_secret = server.secrets["alpha"]
    assert new_secret != old_secret
    probe = call("get_ticket", {"key": "OPS-1"})
    stale = MCP_HEADERS | {"Authorization": f"Bearer {old_secret}"}
    assert httpx2.post(server.mcp_url("alpha"), json=INITIALIZE, headers=stale).status_code == 404
    with_new_secret = MCP_HEADERS | {"mcp-session-id": session, "Authorization": f"Bearer {new_secret}"}
    assert httpx2.post(server.mcp_url("alpha"), json=probe, headers=with_new_secret).status_code == 404


def test_secrets_are_never_listed(server: AppProcess) -> None:
    with server.admin() as admin:
        listed = admin.get("/sandboxes").text + admin.get("/sandboxes/alpha").text
    for secret in server.secrets.values():
        assert secret not in listed
    assert '"secret":true' in listed.replace(" ", "")


def test_a_sandbox_id_with_a_trailing_newline_is_refused(server: AppProcess) -> None:
    with server.admin() as admin:
        for bad in ("alpha\n", "x\n", "ok\r\n", "a" * 65, "", ".hidden", "../x"):
            refused = admin.post("/sandboxes", json={"id": bad, "seed": SEED})
            assert refused.status_code == 422 and "invalid sandbox id" in refused.json()["error"], repr(bad)


async def test_standalone_servers_open_only_default() -> None:
    """Started by hand on loopback without an admin token: /mcp needs nothing, other sandboxes still need their secret."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAWGYM_")}
    args = [sys.executable, "-m", "servers.tickets", "--transport", "http", "--port", str(port)]
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline() if proc.stderr else ""
        token = line.rsplit(" ", 1)[-1].strip()
        wait_healthy(f"http://127.0.0.1:{port}", proc)
        async with mcp_client(f"http://127.0.0.1:{port}/mcp") as client:
            structured(await client.call_tool("list_projects", {}))
        admin = {"Authorization": f"Bearer {token}"}
        created = httpx2.post(f"http://127.0.0.1:{port}/admin/sandboxes", json={"id": "mine"}, headers=admin)
        assert created.status_code == 201
        url = f"http://127.0.0.1:{port}/s/mine/mcp"
        assert httpx2.post(url, json=INITIALIZE, headers=MCP_HEADERS).status_code == 404
        async with mcp_client(url, created.json()["secret"]) as client:
            structured(await client.call_tool("list_projects", {}))
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def test_the_admin_token_is_not_taken_from_argv_or_the_environment(tmp_path: Path) -> None:
    on_argv = subprocess.run(
        [sys.executable, "-m", "servers.tickets", "--transport", "http", "--admin-token", "hunter2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert on_argv.returncode != 0 and "--admin-token-file" in on_argv.stderr and "Traceback" not in on_argv.stderr
    token_file = tmp_path / "token"
    token_file.write_text("from-the-file\n")
    token_file.chmod(0o600)
    port = free_port()
    env = os.environ | {"CLAWGYM_ADMIN_TOKEN": "from-the-env"}
    args = [
        sys.executable,
        "-m",
        "servers.tickets",
        "--transport",
        "http",
        "--port",
        str(port),
        "--admin-token-file",
        str(token_file),
    ]
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc)
        admin = f"http://127.0.0.1:{port}/admin/sandboxes"
        assert httpx2.get(admin, headers={"Authorization": "Bearer from-the-env"}).status_code == 401
        assert httpx2.get(admin, headers={"Authorization": "Bearer from-the-file"}).status_code == 200
        # A configured token means a managed server: default is closed.
        assert httpx2.post(f"http://127.0.0.1:{port}/mcp", json=INITIALIZE, headers=MCP_HEADERS).status_code == 404
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=10)
    assert "CLAWGYM_ADMIN_TOKEN is ignored" in stderr


async def test_local_backend_servers_hold_no_token_in_environ_or_cmdline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAWGYM_ADMIN_TOKEN", "inherited-from-the-orchestrator")
    async with LocalBackend() as backend:
        endpoint = (await backend.start(["tickets"]))["tickets"]
        assert isinstance(endpoint, HttpEndpoint)
        secret = await endpoint.create_sandbox("probe", SandboxSpec(seed=SEED))
        assert secret
        process = backend.apps["tickets"].process
        assert process is not None
        token = backend.apps["tickets"].token
        environ = Path(f"/proc/{process.pid}/environ").read_bytes()
        cmdline = Path(f"/proc/{process.pid}/cmdline").read_bytes()
        for leak in (token, secret, "inherited-from-the-orchestrator", "CLAWGYM_ADMIN_TOKEN"):
            assert leak.encode() not in environ, leak
            assert leak.encode() not in cmdline, leak
        # The token works, so it did reach the server.
        assert (await endpoint.snapshot("probe"))["tickets"][0]["key"] == "OPS-1"


@pytest.mark.slow
async def test_an_episode_reaches_its_sandboxes_and_a_bystander_does_not() -> None:
    scenario = load(TRAVEL_PATH)
    async with make_backend("local") as backend:
        endpoints = await backend.start(scenario.apps)
        async with Episode(scenario, endpoints) as episode:
            async with episode.connect() as client:
                tools = [t.name for t in (await client.list_tools()).tools]
                assert tools
            for app, endpoint in endpoints.items():
                url = endpoint.mcp_url(episode.sandbox_id)
                assert url is not None and episode.secrets[app]
                refused = httpx2.post(url, json=INITIALIZE, headers=MCP_HEADERS)
                assert refused.status_code == 404 and episode.sandbox_id not in refused.text
