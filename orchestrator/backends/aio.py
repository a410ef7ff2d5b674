"""HTTP to the app servers on aiohttp: its C parser costs a third of httpx's CPU per request.

On `local`, `docker` and `remote`, every episode makes about twenty requests to the app servers: each tool call
(MCP over Streamable HTTP) and each admin request (create, state, delete, journal). Sent with httpx, each one
used about 0.7 ms of the orchestrator's CPU on a 2-core machine; with aiohttp about 0.2 ms
(`benchmarks/bench_local.py` measures the whole run). Two ways in:

- `Sessions`: the admin plane asks aiohttp directly (`HttpEndpoint._call`);
- `AiohttpTransport`: the MCP SDK's client speaks httpx, so its requests go through an httpx transport that sends
  them with aiohttp, raising httpx's own errors (the SDK catches those).

A session belongs to the event loop it was made in: `Sessions` keeps one per loop, so an endpoint used from a
second loop (a test, an environment stepped from another thread) gets its own connections.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import httpx2

if TYPE_CHECKING:
    import aiohttp

KEEPALIVE_S = 5.0
"""How long an idle connection stays in the pool: well below the app servers' own keep-alive
(`servers.core.http.KEEP_ALIVE_S`), so a request never goes out on a connection the server is closing."""


class Sessions:
    """aiohttp client sessions to one server, one per event loop, made on first use.

    `limit`: connections at once from this process (a request waits for a free one as long as it takes); idle
    ones are kept for reuse `KEEPALIVE_S`."""

    def __init__(self, *, limit: int, headers: dict[str, str] | None = None) -> None:
        self.limit = limit
        self.headers = headers or {}
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


class _Body(httpx2.AsyncByteStream):
    """An aiohttp response's body as httpx reads it: chunks as they arrive, released when closed."""

    def __init__(self, response: aiohttp.ClientResponse, request: httpx2.Request) -> None:
        self.response = response
        self.request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        import aiohttp

        try:
            async for chunk in self.response.content.iter_any():
                yield chunk
        except TimeoutError as exc:
            raise httpx2.ReadTimeout(str(exc) or "timed out reading the response", request=self.request) from exc
        except aiohttp.ClientError as exc:
            raise httpx2.ReadError(str(exc) or type(exc).__name__, request=self.request) from exc

    async def aclose(self) -> None:
        self.response.release()


class AiohttpTransport(httpx2.AsyncBaseTransport):
    """An httpx transport that sends each request with aiohttp (a `Sessions` of this process): for the MCP SDK's
    client, whose HTTP is httpx. Timeouts come from each request (httpx's `timeout` extension); failures are
    raised as the httpx errors the SDK expects. Closing it leaves the sessions open: they are the endpoint's."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        import aiohttp

        timeouts: dict[str, Any] = request.extensions.get("timeout") or {}
        try:
            response = await self.sessions.get().request(
                request.method,
                str(request.url),
                headers=list(request.headers.multi_items()),
                data=await request.aread() or None,
                timeout=timeout_of(timeouts.get("read"), timeouts.get("connect")),
                allow_redirects=False,
            )
        except TimeoutError as exc:
            raise httpx2.ReadTimeout(str(exc) or "timed out", request=request) from exc
        except aiohttp.ClientConnectorError as exc:
            raise httpx2.ConnectError(str(exc), request=request) from exc
        except aiohttp.ClientError as exc:
            raise httpx2.RemoteProtocolError(str(exc) or type(exc).__name__, request=request) from exc
        return httpx2.Response(
            response.status,
            headers=[(k.decode("latin-1"), v.decode("latin-1")) for k, v in response.raw_headers],
            stream=_Body(response, request),
            request=request,
        )

    async def aclose(self) -> None:
        pass
