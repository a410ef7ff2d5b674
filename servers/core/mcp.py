"""An app as an MCP server: its tools bound to whichever sandbox a call addresses.

One `MCPServer` serves every sandbox of an app. A middleware on `tools/call`
finds the sandbox (from the HTTP route, or the server's own sandbox over
stdio and in process), runs the call in a transaction that is rolled back
when the result is an error, applies the sandbox's fault plan, and writes
the call to the sandbox's journal.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, get_type_hints

import anyio
from mcp.server.context import CallNext, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent

from servers.core.app import App, ToolDef
from servers.core.sandbox import Sandbox, SandboxStore, UnknownSandbox

SANDBOX_SCOPE_KEY = "clawgym.sandbox"
"""Where the HTTP router leaves the sandbox id in the ASGI scope."""

_current: ContextVar[Sandbox] = ContextVar("clawgym_sandbox")


def build_mcp_server(app: App, store: SandboxStore, *, sandbox_id: str = "default") -> MCPServer:
    """The MCP server of `app`; calls without an HTTP route go to `sandbox_id`."""
    from servers import __version__

    server: MCPServer = MCPServer(
        name=f"clawgym-{app.name}",
        title=app.title,
        instructions=app.instructions,
        version=__version__,
        log_level="WARNING",
    )
    for tool in app.tools.tools.values():
        server.add_tool(
            _bind(tool),
            name=tool.name,
            title=tool.title,
            description=tool.description,
            annotations=tool.annotations,
        )
    server.middleware.append(SandboxMiddleware(store, sandbox_id))
    return server


def _bind(tool: ToolDef) -> Callable[..., Any]:
    """The tool as the SDK sees it: the same typed arguments, minus the sandbox."""
    fn = tool.fn
    hints = get_type_hints(fn, include_extras=True)
    signature = inspect.signature(fn)
    params = [p.replace(annotation=hints.get(p.name, p.annotation)) for p in list(signature.parameters.values())[1:]]

    async def call(**kwargs: Any) -> Any:
        return fn(_current.get(), **kwargs)

    call.__name__ = tool.name
    call.__doc__ = fn.__doc__
    call.__signature__ = signature.replace(parameters=params, return_annotation=hints["return"])  # type: ignore[attr-defined]
    call.__annotations__ = {p.name: p.annotation for p in params} | {"return": hints["return"]}
    return call


class SandboxMiddleware:
    def __init__(self, store: SandboxStore, default_sandbox: str) -> None:
        self.store = store
        self.default_sandbox = default_sandbox

    def sandbox_id(self, ctx: ServerRequestContext[Any, Any]) -> str:
        request = ctx.request
        if request is not None:
            return request.scope.get(SANDBOX_SCOPE_KEY, self.default_sandbox)
        return self.default_sandbox

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> Any:
        if ctx.method != "tools/call":
            return await call_next(ctx)
        params = ctx.params or {}
        name = str(params.get("name", ""))
        arguments = params.get("arguments") or {}
        try:
            sandbox = self.store.get(self.sandbox_id(ctx))
        except UnknownSandbox as error:
            return _error_result(f"{error}: it was deleted or never created.")
        async with sandbox.lock:
            wall = datetime.now(UTC)
            started = time.perf_counter()
            fault = None
            if sandbox.faults.rules:
                fault = sandbox.faults.draw(name, sandbox.calls_so_far(name) + 1, sandbox.spec.rng_seed)
            if fault is not None and fault.kind == "latency":
                await anyio.sleep(fault.latency_ms / 1000)
            if fault is not None and fault.kind == "error":
                result: Any = _error_result(fault.message)
            else:
                result = await self._call_in_transaction(sandbox, ctx, call_next)
            latency_ms = (time.perf_counter() - started) * 1000
            is_error = bool(_get(result, "isError", "is_error"))
            structured = _get(result, "structuredContent", "structured_content")
            sandbox.record(
                tool=name,
                arguments=arguments,
                result=structured if structured is not None else _text(result) if not is_error else None,
                error=_text(result) if is_error else None,
                is_error=is_error,
                latency_ms=latency_ms,
                wall=wall,
                fault=None if fault is None else fault.model_dump(mode="json"),
            )
        return result

    async def _call_in_transaction(
        self, sandbox: Sandbox, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> Any:
        token = _current.set(sandbox)
        sandbox.db.execute("BEGIN")
        try:
            result = await call_next(ctx)
        except BaseException:
            sandbox.rollback()
            raise
        finally:
            _current.reset(token)
        if _get(result, "isError", "is_error"):
            sandbox.rollback()
            result = _tidy_error(result)
        else:
            sandbox.db.execute("COMMIT")
        return result


def _error_result(message: str) -> dict[str, Any]:
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True).model_dump(
        mode="json", by_alias=True, exclude_none=True
    )


def _get(result: Any, wire: str, attr: str) -> Any:
    if isinstance(result, dict):
        return result.get(wire)
    return getattr(result, attr, None)


def _text(result: Any) -> str:
    content = _get(result, "content", "content") or []
    parts = [c.get("text", "") if isinstance(c, dict) else getattr(c, "text", "") for c in content]
    return "\n".join(p for p in parts if p)


def _tidy_error(result: Any) -> Any:
    """Drop pydantic's documentation links from argument errors: noise to the model reading them."""
    if not isinstance(result, dict):
        return result
    for block in result.get("content") or []:
        if isinstance(block, dict) and isinstance(block.get("text"), str) and "errors.pydantic.dev" in block["text"]:
            block["text"] = "\n".join(
                line for line in block["text"].splitlines() if "errors.pydantic.dev" not in line
            )
    return result
