"""HTTP to the app servers on aiohttp: its C parser costs a third of httpx's CPU per request.

On `local`, `docker` and `remote`, every episode makes about twenty requests to the app servers: each tool call
(MCP over Streamable HTTP) and each admin request (create, state, delete, journal). Sent with httpx, each one
used about 0.7 ms of the orchestrator's CPU on a 2-core machine; with aiohttp about 0.2 ms
(`benchmarks/bench_local.py` measures the whole run). Three ways in:

- `Sessions`: the admin plane asks aiohttp directly (`HttpEndpoint._call`);
- `McpUpstream`: the gateway's tool calls to a server known to speak a modern MCP protocol (`local`'s; a
  `docker` or `remote` one that announces it on `/healthz`, `base.protocol_of`), one POST each, without the SDK
  client's session machinery;
- `AiohttpTransport`: to any other server (the initialize handshake) the MCP SDK's client, which speaks httpx,
  sends through an httpx transport on aiohttp that raises httpx's own errors (the SDK catches those).

A session belongs to the event loop it was made in: `Sessions` keeps one per loop, so an endpoint used from a
second loop (a test, an environment stepped from another thread) gets its own connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any

import httpx2
import mcp.types as types
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import encode_header_value

if TYPE_CHECKING:
    import aiohttp

    from orchestrator.backends.base import ToolListing

KEEPALIVE_S = 5.0
"""How long an idle connection stays in the pool: well below the app servers' own keep-alive
(`servers.core.http.KEEP_ALIVE_S`), so a request never goes out on a connection the server is closing."""
MCP_CONNECT_S = 30.0
MCP_READ_S = 300.0
"""An MCP request's timeouts, connecting and each read (the SDK's own; `base.MCP_TIMEOUT` is the same for httpx)."""


class Sessions:
    """aiohttp client sessions to one server, one per event loop, made on first use.

    `limit`: connections at once from this process (a request waits for a free one as long as it takes); idle
    ones are kept for reuse `KEEPALIVE_S`. `trust_env`: take proxies from the environment (`HTTPS_PROXY`,
    `NO_PROXY`...), as httpx does by default; for a server on this machine they are not asked."""

    def __init__(self, *, limit: int, headers: dict[str, str] | None = None, trust_env: bool = False) -> None:
        self.limit = limit
        self.headers = headers or {}
        self.trust_env = trust_env
        self._by_loop: dict[asyncio.AbstractEventLoop, aiohttp.ClientSession] = {}

    def get(self) -> aiohttp.ClientSession:
        """This event loop's session."""
        import aiohttp

        loop = asyncio.get_running_loop()
        session = self._by_loop.get(loop)
        if session is None or session.closed:
            for other in [other for other in self._by_loop if other.is_closed()]:  # loops that ended
                del self._by_loop[other]
            connector = aiohttp.TCPConnector(limit=self.limit, limit_per_host=self.limit, keepalive_timeout=KEEPALIVE_S)
            session = aiohttp.ClientSession(
                connector=connector,
                headers=self.headers,
                auto_decompress=False,  # the body is handed on as sent (httpx decodes it for the SDK)
                skip_auto_headers=("User-Agent",),
                trust_env=self.trust_env,
                cookie_jar=aiohttp.DummyCookieJar(),  # shared by every episode's requests: nothing carried over
            )
            self._by_loop[loop] = session
        return session

    async def aclose(self) -> None:
        """Close this event loop's session (sessions of other loops end with their loops)."""
        session = self._by_loop.pop(asyncio.get_running_loop(), None)
        if session is not None:
            await session.close()


def timeout_of(read: float | None, connect: float | None) -> aiohttp.ClientTimeout:
    """A request's timeouts: connecting and each read; waiting for a pooled connection has no limit."""
    import aiohttp

    return aiohttp.ClientTimeout(total=None, connect=None, sock_connect=connect, sock_read=read)


@contextlib.contextmanager
def httpx_errors(
    request: httpx2.Request,
    *,
    server: str | None = None,
    timed_out: str = "timed out",
    other: type[httpx2.TransportError] = httpx2.ReadError,
) -> Iterator[None]:
    """aiohttp's failures inside, raised as the httpx errors the MCP SDK's client catches: a timeout as
    `ReadTimeout`, a failed connect as `ConnectError`, any other as `other`. `server` names the server in the
    message ("calendar server at URL"); `timed_out` is the message of a timeout that says nothing itself."""
    import aiohttp

    try:
        yield
    except TimeoutError as exc:
        raise httpx2.ReadTimeout(
            f"{server}: {timed_out}" if server else str(exc) or timed_out, request=request
        ) from exc
    except aiohttp.ClientConnectorError as exc:
        raise httpx2.ConnectError(f"{server} is unreachable: {exc}" if server else str(exc), request=request) from exc
    except aiohttp.ClientError as exc:
        why = str(exc) or type(exc).__name__
        raise other(f"{server} did not answer: {why}" if server else why, request=request) from exc


class _Body(httpx2.AsyncByteStream):
    """An aiohttp response's body as httpx reads it: chunks as they arrive, released when closed."""

    def __init__(self, response: aiohttp.ClientResponse, request: httpx2.Request) -> None:
        self.response = response
        self.request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with httpx_errors(self.request, timed_out="timed out reading the response"):
            async for chunk in self.response.content.iter_any():
                yield chunk

    async def aclose(self) -> None:
        self.response.release()


class AiohttpTransport(httpx2.AsyncBaseTransport):
    """An httpx transport that sends each request with aiohttp (a `Sessions` of this process): for the MCP SDK's
    client, whose HTTP is httpx. Timeouts come from each request (httpx's `timeout` extension); failures are
    raised as the httpx errors the SDK expects. Closing it leaves the sessions open: they are the endpoint's."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        timeouts: dict[str, Any] = request.extensions.get("timeout") or {}
        with httpx_errors(request, other=httpx2.RemoteProtocolError):
            response = await self.sessions.get().request(
                request.method,
                str(request.url),
                headers=list(request.headers.multi_items()),
                data=await request.aread() or None,
                timeout=timeout_of(timeouts.get("read"), timeouts.get("connect")),
                allow_redirects=False,
            )
        return httpx2.Response(
            response.status,
            headers=[(k.decode("latin-1"), v.decode("latin-1")) for k, v in response.raw_headers],
            stream=_Body(response, request),
            request=request,
        )

    async def aclose(self) -> None:
        pass


class McpUpstream:
    """The gateway's connection to one sandbox of an app server that speaks MCP `protocol` (2026-07-28 or later):
    no handshake and no session, so each call is one POST, sent with aiohttp and answered in its own response.

    This is what the SDK's client sends on such a connection (the protocol's `_meta` and headers), without its
    session machinery (streams, a task per request, a second parse): about 0.4 ms of CPU per call against 1.3 ms
    on a 2-core machine. It serves the gateway (`Upstream`: `list_tools`, `call_tool`) and nothing else. What it
    leaves out is what the app servers never use: progress and log notifications (ignored when they come),
    input requests, and tool arguments bound to headers (`x-mcp-header`; no app declares one, see
    tests/backends/test_aio.py). As with `UpstreamClient`, results are taken as the server validated them.

    A JSON-RPC error, or an HTTP error status, is raised as `MCPError` (the gateway tells the agent the call could
    not run); a server that cannot be reached or stops answering raises httpx's error, as the SDK's client does."""

    def __init__(
        self, app: str, url: str, secret: str | None, sessions: Sessions, listings: ToolListing, *, protocol: str
    ) -> None:
        self.app = app
        self.url = url
        self.sessions = sessions
        self.listings = listings
        self.headers = {
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "MCP-Protocol-Version": protocol,
        } | ({"Authorization": f"Bearer {secret}"} if secret else {})
        self.meta = {
            "io.modelcontextprotocol/protocolVersion": protocol,
            "io.modelcontextprotocol/clientInfo": {"name": "clawgym-gateway", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }
        self.ids = 0

    async def list_tools(self) -> types.ListToolsResult:
        """The server's tool listing, fetched by the first connection to the server that asks (`ToolListing`)."""
        async with self.listings.lock:
            if self.listings.result is None:
                listed = await self._request("tools/list", {}, None)
                self.listings.result = types.ListToolsResult.model_validate(listed)
            return self.listings.result

    async def call_tool(
        self, name: str, arguments: dict[str, Any] | None = None, *, meta: dict[str, Any] | None = None
    ) -> types.CallToolResult:
        """Run tool `name` in the sandbox; `meta` joins the request's `_meta` (the episode's time)."""
        params = {"name": name, "arguments": arguments or {}}
        return types.CallToolResult.model_validate(await self._request("tools/call", params, meta, name=name))

    async def _request(
        self, method: str, params: dict[str, Any], meta: dict[str, Any] | None, *, name: str | None = None
    ) -> dict[str, Any]:
        self.ids += 1
        request_id = self.ids
        body = {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": method,
            "params": params | {"_meta": self.meta | (meta or {})},
        }
        headers = self.headers | {"Mcp-Method": method} | ({"Mcp-Name": encode_header_value(name)} if name else {})
        request = httpx2.Request("POST", self.url)  # named in the httpx errors raised, as the SDK's client's are
        with httpx_errors(request, server=f"{self.app} server at {self.url}"):
            async with self.sessions.get().post(
                self.url, data=json.dumps(body), headers=headers, timeout=timeout_of(MCP_READ_S, MCP_CONNECT_S)
            ) as response:
                status = response.status
                kind = response.headers.get("Content-Type", "").lower()
                content = await response.read()
        answer = _answer(content, kind, request_id)
        if answer is None:
            text = content.decode(errors="replace").strip()[:500]
            code = types.METHOD_NOT_FOUND if status == 404 else types.INTERNAL_ERROR
            raise MCPError(
                code, f"the server answered {status} without a JSON-RPC response" + (f": {text}" if text else "")
            )
        if "error" in answer:
            error = types.ErrorData.model_validate(answer["error"])
            raise MCPError(error.code, error.message, error.data)
        result: dict[str, Any] = answer["result"]
        return result


def _answer(content: bytes, kind: str, request_id: int) -> dict[str, Any] | None:
    """The JSON-RPC response to `request_id` in a response body (plain JSON, or the events of a stream); None when
    there is none (an error page, a cut stream)."""
    if kind.startswith("text/event-stream"):
        found = None
        for event in content.decode(errors="replace").replace("\r\n", "\n").split("\n\n"):
            data = "\n".join(line[5:].removeprefix(" ") for line in event.split("\n") if line.startswith("data:"))
            found = _response_to(data, request_id) or found
        return found
    return _response_to(content, request_id)


def _response_to(data: str | bytes, request_id: int) -> dict[str, Any] | None:
    try:
        message = json.loads(data)
    except ValueError:
        return None
    if (
        not isinstance(message, dict)
        or message.get("jsonrpc") != "2.0"
        or not ("result" in message or "error" in message)
    ):
        return None
    if message.get("id") not in (request_id, None):  # `id: null`: refused before the request's id was read
        return None
    return message
