"""The orchestrator's HTTP to app servers on aiohttp (`orchestrator.backends.aio`), against real server processes:
the admin plane, MCP through the SDK's client over the aiohttp transport, failures as the callers expect them,
and one endpoint used from two event loops."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp.shared.exceptions import MCPError
from mcp.types import LATEST_PROTOCOL_VERSION

from orchestrator.backends.aio import AiohttpTransport, McpUpstream, Sessions, _answer
from orchestrator.backends.base import BackendError, HttpEndpoint, protocol_of, wait_healthy
from orchestrator.scenario import load
from servers import registry
from servers.core.mcp import registered_tools
from tests.helpers import AppProcess, app_process, free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server() -> Iterator[AppProcess]:
    with app_process("calendar") as proc:
        yield proc


def _spec():  # noqa: ANN202
    return load(ROOT / "scenarios" / "travel.yaml").sandbox_spec("calendar", 7)


@pytest.mark.parametrize("protocol", ["legacy", LATEST_PROTOCOL_VERSION])
def test_an_episode_s_requests_go_through_aiohttp_on_both_planes(server: AppProcess, protocol: str) -> None:
    """Create with its snapshot, MCP calls through the SDK's client (a read and a write), the state with the
    journal of those calls, and delete; the admin plane's errors keep the server's own message."""

    async def main() -> None:
        endpoint = HttpEndpoint("calendar", server.url, server.token, protocol=protocol)
        try:
            secret, seeded = await endpoint.create_and_snapshot("aio-1", _spec(), replace=True)
            assert secret and seeded["events"]
            async with endpoint.connect("aio-1") as client:
                tools = {t.name for t in (await client.list_tools()).tools}
                assert {"list_events", "create_event"} <= tools
                listed = await client.call_tool("list_events", {})
                assert not listed.is_error and len(listed.structured_content["events"]) == len(seeded["events"])
                made = await client.call_tool(
                    "create_event",
                    {"title": "aio check", "start": "2030-01-02T10:00:00", "end": "2030-01-02T11:00:00"},
                )
                assert not made.is_error, made.content
                refused = await client.call_tool("get_event", {"event_id": "no-such-event"})
                assert refused.is_error
            tables, journal = await endpoint.state("aio-1")
            assert len(tables["events"]) == len(seeded["events"]) + 1
            assert [e["tool"] for e in journal] == ["list_events", "create_event", "get_event"]
            await endpoint.delete("aio-1")
            with pytest.raises(BackendError, match=r"calendar: GET /sandboxes/aio-1/state failed \(404\): .*aio-1"):
                await endpoint.state("aio-1")
        finally:
            await endpoint.aclose()

    anyio.run(main)


def test_an_admin_request_to_a_server_that_is_gone_is_a_backend_error() -> None:
    async def main() -> None:
        endpoint = HttpEndpoint("calendar", f"http://127.0.0.1:{free_port()}", "token")
        try:
            with pytest.raises(BackendError, match=r"calendar server at http://127\.0\.0\.1:\d+ is unreachable: "):
                await endpoint.journal("any")
        finally:
            await endpoint.aclose()

    anyio.run(main)


def test_the_transport_raises_httpx_errors_the_sdk_expects() -> None:
    """Nothing listening: httpx's ConnectError; a server that never answers: httpx's ReadTimeout within the
    request's read timeout; a body that is cut off: a ReadError, not an aiohttp exception."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            held.append(conn)
            if len(held) == 2:  # the second request: a reply that promises more body than it sends
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
                conn.close()

    threading.Thread(target=serve, daemon=True).start()

    async def main() -> None:
        sessions = Sessions(limit=4)
        async with httpx2.AsyncClient(
            transport=AiohttpTransport(sessions), timeout=httpx2.Timeout(5, read=0.5)
        ) as http:
            with pytest.raises(httpx2.ConnectError):
                await http.get(f"http://127.0.0.1:{free_port()}/")
            started = time.monotonic()
            with pytest.raises(httpx2.ReadTimeout):
                await http.get(f"http://127.0.0.1:{port}/silent")
            assert time.monotonic() - started < 3
            with pytest.raises(httpx2.ReadError):
                await http.get(f"http://127.0.0.1:{port}/cut")
        await sessions.aclose()

    try:
        anyio.run(main)
    finally:
        listener.close()
        for conn in held:
            conn.close()


def test_one_endpoint_serves_two_event_loops(server: AppProcess) -> None:
    """A session belongs to its event loop: the same endpoint used from a second `anyio.run` (as a test or an
    environment stepped from another thread does) makes its own connections instead of failing."""
    endpoint = HttpEndpoint("calendar", server.url, server.token)

    async def use(sandbox: str) -> int:
        await endpoint.create_sandbox(sandbox, _spec(), replace=True)
        async with endpoint.connect(sandbox) as client:
            result = await client.call_tool("list_events", {})
        await endpoint.delete(sandbox)
        await endpoint.aclose()
        return len(result.structured_content["events"])

    first = anyio.run(use, "aio-loop-1")
    second = anyio.run(use, "aio-loop-2")
    assert first == second > 0


def test_a_call_into_a_sandbox_that_is_gone_is_an_mcp_error_with_the_server_s_answer(server: AppProcess) -> None:
    """A modern-protocol connection (`McpUpstream`): an HTTP error without a JSON-RPC response is an `MCPError` that
    quotes the answer (the gateway tells the agent the call could not run); a wrong secret reads the same."""

    async def main() -> None:
        endpoint = HttpEndpoint("calendar", server.url, server.token, protocol=LATEST_PROTOCOL_VERSION)
        try:
            secret = await endpoint.create_sandbox("aio-gone", _spec(), replace=True)
            async with endpoint.connect("aio-gone", secret) as client:
                assert isinstance(client, McpUpstream)
                await endpoint.delete("aio-gone")
                with pytest.raises(MCPError, match=r"answered 404 without a JSON-RPC response: .*not found"):
                    await client.call_tool("list_events", {})
            async with endpoint.connect("aio-gone", "a wrong secret") as client:
                with pytest.raises(MCPError, match="answered 404"):
                    await client.call_tool("list_events", {})
        finally:
            await endpoint.aclose()

    anyio.run(main)


def test_no_app_binds_a_tool_argument_to_a_header() -> None:
    """`McpUpstream` sends no `x-mcp-header` headers; the 2026 protocol needs them only for arguments a tool binds
    to one, and no app's tool does."""
    for name in registry.available():
        for tool in registered_tools(registry.load(name)):
            assert "x-mcp-header" not in json.dumps(tool.parameters), (name, tool.name)


def test_a_response_on_an_event_stream_is_read_past_its_notifications() -> None:
    """A server may answer a call on an event stream, notifications first: the response is the message with the
    request's id; a stream cut before it has none."""
    progress = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}}
    answer = {"jsonrpc": "2.0", "id": 3, "result": {"content": [], "isError": False}}
    other = {"jsonrpc": "2.0", "id": 2, "result": {"content": []}}
    stream = "".join(f"event: message\r\ndata: {json.dumps(m)}\r\n\r\n" for m in (progress, other, answer))
    assert _answer(stream.encode(), "text/event-stream", 3) == answer
    cut = "".join(f"data: {json.dumps(m)}\n\n" for m in (progress, other))
    assert _answer(cut.encode(), "text/event-stream; charset=utf-8", 3) is None
    assert _answer(json.dumps(answer).encode(), "application/json", 3) == answer
    assert _answer(b'{"error": "not found"}', "application/json", 3) is None


def test_a_server_announces_the_protocol_it_speaks_and_docker_and_remote_follow_it(server: AppProcess) -> None:
    """`/healthz` names the newest MCP protocol the server speaks; an orchestrator that speaks it too calls without
    the handshake (`McpUpstream`), and one that does not know it (or a server that announces none, as an older
    version's) keeps the SDK's client with the initialize handshake."""
    health = httpx2.get(f"{server.url}/healthz", timeout=10).json()
    assert health["mcp"] == LATEST_PROTOCOL_VERSION
    assert protocol_of(health) == LATEST_PROTOCOL_VERSION
    assert protocol_of({"status": "ok", "app": "calendar"}) == "legacy"
    assert protocol_of({"mcp": "2099-01-01"}) == "legacy"

    async def main() -> None:
        async def probe() -> str:
            return server.url

        url, answer = await wait_healthy(probe, timeout=10, failure=lambda: "no answer")
        assert (url, answer["app"]) == (server.url, "calendar")
        endpoint = HttpEndpoint("calendar", url, server.token, protocol=protocol_of(answer))
        try:
            secret = await endpoint.create_sandbox("aio-announced", _spec(), replace=True)
            async with endpoint.connect("aio-announced", secret) as client:
                assert isinstance(client, McpUpstream)
                assert not (await client.call_tool("list_events", {})).is_error
            await endpoint.delete("aio-announced")
        finally:
            await endpoint.aclose()

    anyio.run(main)


def test_a_server_elsewhere_is_reached_through_the_environment_s_proxy_and_this_machine_s_never(
    server: AppProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As with httpx before: `HTTP_PROXY` carries the requests to a server on another host, its health check
    included (here a proxy on loopback answers for it); a server on this machine is asked directly even when the
    proxy is down."""
    seen: list[bytes] = []
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)

    def proxy() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                seen.append(conn.recv(65536).split(b"\r\n", 1)[0])
                body = b'{"entries": []}'
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                    b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
                )

    threading.Thread(target=proxy, daemon=True).start()
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{listener.getsockname()[1]}")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)

    async def main() -> None:
        async def far() -> str:
            return "http://apps.example.test:8000"

        assert await wait_healthy(far, timeout=10, failure=lambda: "no answer") == (await far(), {"entries": []})
        elsewhere = HttpEndpoint("calendar", await far(), "token")
        try:
            assert await elsewhere.journal("any") == []
        finally:
            await elsewhere.aclose()
        monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{free_port()}")  # nothing listens there
        here = HttpEndpoint("calendar", server.url, server.token)
        try:
            await here.create_sandbox("aio-direct", _spec(), replace=True)
            assert await here.journal("aio-direct") == []
            await here.delete("aio-direct")
        finally:
            await here.aclose()

    try:
        anyio.run(main)
    finally:
        listener.close()
    assert seen == [
        b"GET http://apps.example.test:8000/healthz HTTP/1.1",
        b"GET http://apps.example.test:8000/admin/sandboxes/any/journal?after=0 HTTP/1.1",
    ]


def test_no_cookie_is_kept_between_requests_that_episodes_share_connections_for() -> None:
    """The pooled sessions serve every episode of a run: a cookie one answer sets is not sent with the next
    request (nothing of one episode's traffic reaches another's)."""
    import http.server

    cookies: list[str | None] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            cookies.append(self.headers.get("Cookie"))
            body = b'{"entries": []}'
            self.send_response(200)
            self.send_header("Set-Cookie", "episode=one; Path=/")
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()

    async def main() -> None:
        # By name: a cookie jar refuses cookies from a bare IP address anyway.
        endpoint = HttpEndpoint("calendar", f"http://localhost:{httpd.server_address[1]}", "token")
        try:
            for _ in range(3):
                assert await endpoint.journal("any") == []
        finally:
            await endpoint.aclose()

    try:
        anyio.run(main)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert cookies == [None, None, None]
