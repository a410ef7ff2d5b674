"""`orchestrator view`: the run viewer as a Starlette app on 127.0.0.1. Every request rescans the run folders,
so runs that finish while the viewer is open appear on the next page load.

Every page needs the viewer's token (`orchestrator.guard`: printed in the URL the viewer shows, then kept in a
cookie) and a loopback `Host` and `Origin`: an agent that finds the port, or a web page in the user's browser,
reads no check and no expected value."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote, urlencode

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from orchestrator.guard import LOOPBACK_NAMES, Guard, new_token
from orchestrator.record import EPISODE
from orchestrator.view import pages
from orchestrator.view.records import Library

HOST = "127.0.0.1"


def web_link(kind: str, rid: str | None = None, **query: str) -> str:
    """The URL of a page of the web app: the list (with filters), a run, a suite or repeat, the comparison."""
    if kind == "list":
        return "/" + (f"?{urlencode(query)}" if query else "")
    if kind == "compare":
        return "/compare"
    path = f"/{'run' if kind == 'run' else 'group'}/{quote(rid or '', safe='/')}"
    return path + (f"?{urlencode(query)}" if query else "")


def create_app(roots: list[Path], token: str | None = None) -> Starlette:
    """The viewer's Starlette app over the run folders under `roots`: it answers loopback host names and origins
    only, and, given a `token`, only requests that carry it (`orchestrator.guard.Guard`; /healthz needs none)."""

    # The pages are plain functions: Starlette runs them in its thread pool, so a big run being read and rendered
    # never holds up the event loop (other pages, /healthz).
    def library() -> Library:
        return Library.scan(roots)

    def index(request: Request) -> Response:
        query = dict(request.query_params)
        return HTMLResponse(pages.list_page(library(), web_link, query, page=pages.page_number(query.get("page"))))

    def run(request: Request) -> Response:
        lib = library()
        record = lib.get(request.path_params["rid"])
        if record is None or record.kind != EPISODE:
            return PlainTextResponse(
                f"no run {request.path_params['rid']!r} under {', '.join(map(str, roots))}", status_code=404
            )
        page = pages.page_number(request.query_params.get("page"))
        return HTMLResponse(pages.run_page(lib, record, web_link, page=page))

    def group(request: Request) -> Response:
        lib = library()
        record = lib.get(request.path_params["rid"])
        if record is None or record.kind == EPISODE:
            return PlainTextResponse(f"no suite or repeat {request.path_params['rid']!r}", status_code=404)
        page = pages.page_number(request.query_params.get("page"))
        return HTMLResponse(pages.group_page(lib, record, web_link, page=page))

    def compare(request: Request) -> Response:
        return HTMLResponse(pages.compare_page(library(), request.query_params.getlist("run"), web_link))

    async def healthz(request: Request) -> Response:
        return PlainTextResponse("ok")

    return Starlette(
        routes=[
            Route("/", index),
            Route("/run/{rid:path}", run),
            Route("/group/{rid:path}", group),
            Route("/compare", compare),
            Route("/healthz", healthz),
        ],
        # Loopback names only: a web page that rebinds its own name to 127.0.0.1 cannot read the runs.
        middleware=[Middleware(Guard, token=token, hosts=LOOPBACK_NAMES, exempt=("/healthz",))],
    )


class ViewError(RuntimeError):
    """The viewer cannot start (its port is taken …); the message says why and what to do."""


def bind(port: int) -> socket.socket:
    """A socket listening on 127.0.0.1:`port` (0: a free port), or ViewError."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise ViewError(
            f"cannot listen on {HOST}:{port}: {exc.strerror} (pick another --port, or 0 for a free one)"
        ) from None
    return sock


def serve(roots: list[Path], port: int, on_ready: Callable[[str], None] = print, token: str | None = None) -> None:
    """Serve until Ctrl-C or SIGTERM, with `token` (a new one when None); `on_ready(url)` once listening, the URL
    carrying the token."""
    import uvicorn

    token = token or new_token()
    sock = bind(port)
    url = f"http://{HOST}:{sock.getsockname()[1]}/?token={token}"
    config = uvicorn.Config(create_app(roots, token), log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)

    original = server.startup

    async def startup(sockets: list[socket.socket] | None = None) -> None:
        await original(sockets=sockets)
        on_ready(url)

    server.startup = startup  # type: ignore[method-assign]  # uvicorn's startup wrapped, to report the bound URL
    server.run(sockets=[sock])
