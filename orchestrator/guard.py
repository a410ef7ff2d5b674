"""The guard of every local server that shows runs or drives episodes (`orchestrator view`, `orchestrator serve-env`):
an ASGI middleware that lets a request through only when

- its `Host` is one the server answers to: loopback names (127.0.0.1, localhost, ::1), plus the address it is bound
  to and names given when it listens elsewhere; so a web page that rebinds its own name to 127.0.0.1 is refused;
- its `Origin`, when it has one (every browser sends it on a WebSocket and on a cross-site request), names such a
  host too; so a page in the user's browser can neither drive sessions nor read verdicts;
- it carries the server's token, like Jupyter's: `?token=T` in the URL the server prints (which also sets a
  SameSite=Strict, HttpOnly cookie, so the links of a page work), the cookie, `Authorization: Bearer T`, or a
  path that starts with `/t/T/` (stripped before the app sees it: a client that appends `/ws` or `/reset` to the
  base URL it is given, as OpenEnv's do, carries it so). An agent that finds the port (through /proc/net/tcp)
  has no token. Health checks (`exempt`) need none.

`new_token()` makes one; `is_loopback(host)` says whether a bind address is loopback (bind elsewhere: warn loudly).

May import: nothing (the standard library only).
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import parse_qs, urlsplit

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
COOKIE = "clawgym_token"

Scope = dict[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


def new_token() -> str:
    """A fresh random token (32 bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


def is_loopback(host: str) -> bool:
    """Whether binding `host` listens on loopback only (127.0.0.0/8, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _host_name(value: str) -> str:
    """The host of a `Host` header or a URL's netloc, without its port and brackets, lowercased."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value[1:]
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


def allowed_hosts(bind: str = "127.0.0.1", extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names a server bound to `bind` answers to: loopback names, the bind address when it is not a
    wildcard, and `extra`."""
    names = set(LOOPBACK_NAMES) | {_host_name(h) for h in extra if h}
    if bind not in ("0.0.0.0", "::", ""):
        names.add(_host_name(bind))
    return frozenset(names)


class Guard:
    """ASGI middleware: Host, Origin and token checks (see the module docstring) in front of `app`."""

    def __init__(
        self, app: ASGIApp, *, token: str | None, hosts: Iterable[str] = LOOPBACK_NAMES, exempt: Iterable[str] = ()
    ) -> None:
        self.app, self.token, self.hosts, self.exempt = app, token, frozenset(hosts), frozenset(exempt)

    def problem(self, scope: Scope, path_token: str | None = None) -> tuple[int, str] | None:
        """Why this request is refused (status, message), or None to let it through; `path_token` is the one a
        `/t/T/` path gave."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = _host_name(headers.get("host", ""))
        if host not in self.hosts:
            return 403, f"Host {host or '(none)'!r} is not one this server answers to"
        origin = headers.get("origin")
        if origin is not None and _host_name(urlsplit(origin).netloc) not in self.hosts:
            return 403, f"Origin {origin!r} is not allowed: only pages of this server may use it"
        if self.token is None or scope.get("path") in self.exempt:
            return None
        given = [*self._tokens(scope, headers), *([path_token] if path_token is not None else [])]
        if not any(hmac.compare_digest(t.encode(), self.token.encode()) for t in given):
            return 401, "a token is needed: open the URL the server printed (it ends in ?token=...)"
        return None

    @staticmethod
    def _tokens(scope: Scope, headers: dict[str, str]) -> list[str]:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = list(query.get("token", []))
        auth = headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            given.append(auth[7:].strip())
        for part in headers.get("cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == COOKIE:
                given.append(value)
        return given

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        scope, path_token = _strip_token_path(scope)
        refused = self.problem(scope, path_token)
        if refused is not None:
            return await _refuse(scope, receive, send, *refused)
        if scope["type"] == "http" and self.token is not None and b"token=" in scope.get("query_string", b""):
            send = _setting_cookie(send, self.token)
        return await self.app(scope, receive, send)


def _strip_token_path(scope: Scope) -> tuple[Scope, str | None]:
    """The request with a leading `/t/TOKEN` taken off its path, and that token (None: the path has none)."""
    path = scope.get("path", "")
    if not path.startswith("/t/"):
        return scope, None
    token, _, rest = path[3:].partition("/")
    scope = {**scope, "path": "/" + rest}
    if "raw_path" in scope and scope["raw_path"] is not None:
        raw = scope["raw_path"]
        scope["raw_path"] = b"/" + raw[3:].partition(b"/")[2] if raw.startswith(b"/t/") else raw
    return scope, token


def _setting_cookie(send: Any, token: str) -> Any:
    async def wrapped(message: Any) -> None:
        if message.get("type") == "http.response.start":
            cookie = f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict".encode()
            message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
        await send(message)

    return wrapped


async def _refuse(scope: Scope, receive: Any, send: Any, status: int, message: str) -> None:
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
        return
    body = (message + "\n").encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


class SessionLimit:
    """ASGI middleware: stateless requests (HTTP requests to `paths`, each running an episode of its own) count
    against the same limit as sessions (WebSocket connections to `ws_paths`): one that would make more than `limit`
    at once is refused with 503 until one ends. WebSocket sessions are counted and left to the app, which refuses
    them past its own limit."""

    def __init__(self, app: ASGIApp, *, limit: int, paths: Iterable[str], ws_paths: Iterable[str] = ("/ws",)) -> None:
        self.app, self.limit, self.paths, self.ws_paths = app, limit, frozenset(paths), frozenset(ws_paths)
        self.active = 0

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        counted = (scope["type"] == "http" and scope.get("path") in self.paths) or (
            scope["type"] == "websocket" and scope.get("path") in self.ws_paths
        )
        if not counted:
            return await self.app(scope, receive, send)
        if scope["type"] == "http" and self.active >= self.limit:
            return await _refuse(
                scope,
                receive,
                send,
                503,
                f"busy: {self.limit} sessions and requests at once (--max-sessions); try again later",
            )
        self.active += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.active -= 1
