"""An app as an MCP server: its tools bound to whichever sandbox a call addresses.

One `MCPServer` serves every sandbox of an app. A middleware on `tools/call`
finds the sandbox (from the HTTP route, or the server's own sandbox over
stdio and in process), runs the call in a transaction that is rolled back
when the result is an error, applies the sandbox's fault plan, and writes
the call to the sandbox's journal.

Each call has a time budget and runs under its sandbox's lock, so the
sandbox's connection is used by one call at a time; how the tool's body runs
(on the event loop for a slice, else in a worker thread, stopped at its
budget) is `servers.core.calls`. A call past its budget, or one that would
grow the sandbox past its storage cap, is rolled back and answered with an
error.
Journal entries keep arguments and results up to the limits in `limits`.
"""

from __future__ import annotations

import inspect
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import anyio
from mcp.server.context import CallNext, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools import Tool
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, TextContent
from pydantic import ValidationError

try:  # how the SDK writes a tool's result as text content (`convert_result`); without it, `convert_result` itself
    from mcp.server.mcpserver.utilities.func_metadata import _convert_to_content as _to_content
except ImportError:  # pragma: no cover - another SDK version
    _to_content = None  # type: ignore[assignment]  # this SDK has no converter: results are written without it

from servers.core import calls, faults
from servers.core.app import App
from servers.core.calls import INTERNAL_ERROR as INTERNAL_ERROR  # re-exported: the fuzz tests look for its words
from servers.core.calls import InlinePolicy, registered_tools
from servers.core.calls import without_generated_titles as without_generated_titles  # re-exported for the tests
from servers.core.limits import (
    DEFAULT_CALL_TIMEOUT,
    DEFAULT_MAX_SANDBOX_MB,
    bounded,
    bounded_arguments,
    bounded_text,
)
from servers.core.sandbox import Sandbox
from servers.core.store import SandboxStore, UnknownSandbox
from servers.core.world import CLOCK_META

SANDBOX_SCOPE_KEY = "clawgym.sandbox"
"""Where the HTTP router leaves the sandbox id in the ASGI scope."""

_bound: ContextVar[str | None] = ContextVar("clawgym_bound_sandbox", default=None)


@contextmanager
def bind_sandbox(sandbox_id: str) -> Iterator[None]:
    """Address in-process tool calls made inside this block to `sandbox_id`.

    The SDK runs an in-process handler in the context of the task that sent
    the request, so wrapping each call lets one `MCPServer` serve many
    sandboxes in process, as the HTTP route does.
    """
    token = _bound.set(sandbox_id)
    try:
        yield
    finally:
        _bound.reset(token)


def build_mcp_server(
    app: App,
    store: SandboxStore,
    *,
    sandbox_id: str = "default",
    call_timeout: float = DEFAULT_CALL_TIMEOUT,
    max_sandbox_mb: float = DEFAULT_MAX_SANDBOX_MB,
) -> MCPServer:
    """The MCP server of `app`; calls without an HTTP route go to `sandbox_id`.

    `call_timeout` is each call's time budget in seconds; `max_sandbox_mb` caps a sandbox's stored size.
    """
    from servers import __version__

    if not call_timeout > 0:
        raise ValueError(f"call_timeout must be a positive number of seconds, got {call_timeout!r}")
    if not max_sandbox_mb > 0:
        raise ValueError(f"max_sandbox_mb must be a positive number of megabytes, got {max_sandbox_mb!r}")
    server: MCPServer = MCPServer(
        name=f"clawgym-{app.name}",
        title=app.title,
        instructions=app.instructions,
        version=__version__,
        log_level="WARNING",
        tools=list(registered_tools(app)),
    )
    server.middleware.append(
        SandboxMiddleware(store, sandbox_id, call_timeout=call_timeout, max_sandbox_mb=max_sandbox_mb)
    )
    return server


@dataclass
class _DirectRequest:
    """What `SandboxMiddleware` reads of a request, for a call made without the JSON-RPC layer."""

    params: dict[str, Any]
    method: str = "tools/call"
    request: None = None


async def call_in_process(
    server: MCPServer, sandbox_id: str, name: str, arguments: dict[str, Any], meta: dict[str, Any] | None = None
) -> CallToolResult:
    """Call tool `name` on sandbox `sandbox_id` of an app server in this process, without the JSON-RPC layer.

    The call takes the same way through the server as one over MCP, less the
    request and result (de)serialization: the sandbox middleware (lock,
    transaction, faults, time budget, storage cap, journal) and then the SDK's
    tool handling (arguments validated against the tool's signature, the
    result against its output model, a failing tool answered with `isError`).
    For the gateway's connections to apps in the same process, whose results
    then reach the agent over MCP, through the gateway's server.
    """
    middleware = next(m for m in server.middleware if isinstance(m, SandboxMiddleware))
    params: dict[str, Any] = {"name": name, "arguments": arguments}
    if meta is not None:
        params["_meta"] = meta
    tool = middleware.tools.get(name)

    async def run_tool(_: Any) -> CallToolResult:
        try:
            if tool is None:
                raise ToolError(f"Unknown tool: {name}")
            result = await _run_tool(tool, arguments)
        except MCPError:
            raise
        except Exception as exc:  # as the SDK's own tools/call handler answers it
            return CallToolResult(content=[TextContent(type="text", text=str(exc))], is_error=True)
        assert isinstance(result, CallToolResult), f"{name} asked for input, which no ClawGym tool does"
        return result

    with bind_sandbox(sandbox_id):
        result = await middleware(_DirectRequest(params), run_tool)  # type: ignore[arg-type]  # _DirectRequest carries what the middleware reads of a request
    return result if isinstance(result, CallToolResult) else CallToolResult.model_validate(result)


async def _run_tool(tool: Tool, arguments: dict[str, Any]) -> Any:
    """What the SDK's `Tool.run` does for one of an app's tools (`registered_tools`: async, no context, no resolvers),
    with the same errors, less its dispatch (a `Context` and the tool manager's lookup) and, for a result that is
    already an instance of the tool's output model, less validating it against that model again: the validator
    hands back the very instance it was given, so its dump is the same."""
    try:
        validated = tool.fn_metadata.validate_arguments(arguments)
    except ValidationError as exc:
        raise ToolError(f"Error executing tool {tool.name}: {exc}") from exc
    except MCPError:
        raise
    except Exception as exc:
        raise UnexpectedToolError(f"Error executing tool {tool.name}") from exc
    try:
        result = await tool.fn(**validated)
        metadata = tool.fn_metadata
        model = metadata.output_model if metadata.output_schema is not None else None
        if model is not None and not metadata.wrap_output and type(result) is model and _to_content is not None:
            return CallToolResult(
                content=_to_content(result), structured_content=result.model_dump(mode="json", by_alias=True)
            )
        return metadata.convert_result(result)
    except MCPError:
        raise
    except UnexpectedToolError as exc:
        raise UnexpectedToolError(f"Error executing tool {tool.name}: {exc}") from exc
    except ToolError as exc:
        raise ToolError(f"Error executing tool {tool.name}: {exc}") from exc
    except Exception as exc:
        raise UnexpectedToolError(f"Error executing tool {tool.name}") from exc


class SandboxMiddleware:
    """Runs each tool call in its caller's sandbox: time budget, size limit, faults, journal and errors."""

    def __init__(
        self,
        store: SandboxStore,
        default_sandbox: str,
        *,
        call_timeout: float = DEFAULT_CALL_TIMEOUT,
        max_sandbox_mb: float = DEFAULT_MAX_SANDBOX_MB,
    ) -> None:
        self.store = store
        self.default_sandbox = default_sandbox
        self.call_timeout = call_timeout
        self.max_sandbox_bytes = int(max_sandbox_mb * 1024 * 1024)
        self.inline = InlinePolicy()
        """Which tools run on the event loop (every call, over any transport)."""
        self.parameters = {
            name: list(inspect.signature(tool.fn).parameters)[1:] for name, tool in store.app.tools.tools.items()
        }
        self.tools = {tool.name: tool for tool in registered_tools(store.app)}
        """The app's tools as the SDK registered them, by name, for calls made in process (`call_in_process`)."""

    def unknown_arguments(self, tool: str, arguments: dict[str, Any]) -> str | None:
        """Arguments the tool does not take would otherwise be dropped silently; say so instead."""
        known = self.parameters.get(tool)
        extra = [a for a in arguments if known is not None and a not in known]
        if not extra:
            return None
        listed = ", ".join(known or []) or "none"
        return f"{tool} does not take {', '.join(repr(a) for a in extra)}. Its arguments are: {listed}."

    def sandbox_id(self, ctx: ServerRequestContext[Any, Any]) -> str:
        """The sandbox a call is for: the one its HTTP request names, else the task's bound one, else the default."""
        request = ctx.request
        if request is not None:
            return request.scope.get(SANDBOX_SCOPE_KEY, self.default_sandbox)
        return _bound.get() or self.default_sandbox

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> Any:
        if ctx.method != "tools/call":
            return await call_next(ctx)
        params = ctx.params or {}
        name = str(params.get("name", ""))
        arguments = params.get("arguments") or {}
        async with AsyncExitStack() as held:
            try:
                sandbox = await held.enter_async_context(self.store.locked(self.sandbox_id(ctx)))
            except UnknownSandbox as error:
                return _error_result(f"{error}: it was deleted or never created.")
            if sandbox.follows_clock:  # the episode's time, sent by the gateway (an agent never reaches this field)
                meta = params.get("_meta")
                sandbox.follow_clock(meta.get(CLOCK_META) if isinstance(meta, dict) else None)
            wall = datetime.now(UTC)
            started = time.perf_counter()
            fault: dict[str, Any] | None = None
            committed = False
            shown: Any = None
            refusal = self.unknown_arguments(name, arguments)
            rule = self._draw_fault(sandbox, name, wall) if sandbox.faults.rules else None
            if isinstance(rule, tuple):  # refused by an injected fault before the tool runs
                rule_, fault = rule
                if rule_.kind == "timeout":
                    # Journaled before the hang: the gateway gives up at its deadline and may cancel this call.
                    sandbox.record(
                        tool=name,
                        arguments=bounded_arguments(arguments),
                        result=None,
                        error=fault["message"],
                        is_error=True,
                        latency_ms=rule_.hang_s() * 1000,
                        wall=wall,
                        fault=fault,
                    )
                    await anyio.sleep(rule_.hang_s())
                    return _error_result(fault["message"])
                result: Any = _error_result(fault["message"])
            elif refusal is not None:
                result = _error_result(refusal)
            else:
                if rule is not None and rule.kind == "latency":
                    await anyio.sleep(rule.latency_ms / 1000)
                if rule is not None and rule.kind == "stale_read":
                    sandbox.stale_s = rule.delay_s
                try:
                    result = await self._call_in_transaction(sandbox, ctx, call_next)
                finally:
                    hidden, sandbox.stale_s, sandbox.stale_hidden = sandbox.stale_hidden, None, 0
                if rule is not None:
                    fault = faults.record(
                        rule, message=None if rule.kind in ("latency", "stale_read") else rule.message
                    )
                    if rule.kind == "stale_read":
                        fault["hidden_changes"] = hidden
                    elif rule.kind == "lost_reply":
                        if _get(result, "isError", "is_error"):
                            fault = None  # the tool failed by itself: nothing was committed, nothing lost
                        else:
                            committed, shown = True, result
                            result = _error_result(rule.message)
            latency_ms = (time.perf_counter() - started) * 1000
            # A lost reply did not fail in the app (its change is committed): journaled as a success whose `error`
            # holds what the agent was told instead, so every rule on what calls did sees its change.
            is_error = bool(_get(result, "isError", "is_error")) and not committed
            kept = shown if committed else result
            structured = _get(kept, "structuredContent", "structured_content")
            sandbox.record(
                tool=name,
                arguments=bounded_arguments(arguments),
                result=bounded(structured if structured is not None else _text(kept) if not is_error else None),
                error=bounded_text(_text(result)) if is_error or committed else None,
                is_error=is_error,
                latency_ms=latency_ms,
                wall=wall,
                fault=fault,
            )
        return result

    def _draw_fault(self, sandbox: Sandbox, name: str, wall: datetime) -> Any:
        """The fault this call meets: `(rule, journal record)` when it is refused before the tool runs (an open
        rate-limit or downtime window, or a new error, timeout, rate_limit or unavailable), the rule when it
        changes how the tool runs (latency, lost_reply, stale_read), else None."""
        plan, state = sandbox.faults, sandbox.fault_state
        clock, now = sandbox.now(), wall.timestamp()
        rule: faults.FaultRule | None  # a rule of the plan, or None: no fault drawn
        if state.down is not None and state.down.left(clock, now) > 0:
            rule = next(
                (r for r in plan.rules if r.kind == "unavailable"), faults.FaultRule(kind="unavailable", calls=[1])
            )
            message = faults.message_for(rule, state.down, clock, now)
            return rule, faults.record(
                rule,
                message=message,
                repeat=True,
                retry_after_s=round(state.down.left(clock, now), 3),
                until=state.down.until().isoformat(timespec="seconds"),
            )
        limited = state.open_rate_limit(plan, name, clock, now)
        if limited is not None:
            index, window = limited
            rule = plan.rules[index]
            return rule, faults.record(
                rule,
                message=faults.message_for(rule, window, clock, now),
                repeat=True,
                retry_after_s=round(window.left(clock, now), 3),
                until=window.until().isoformat(timespec="seconds"),
            )
        tool = self.store.app.tools.tools.get(name)
        read_only = bool(tool is not None and tool.annotations.read_only_hint)
        index, rule = plan.draw_indexed(
            name, sandbox.calls_so_far(name) + 1, sandbox.spec.rng_seed, read_only=read_only
        )
        if rule is None or rule.kind in ("latency", "lost_reply", "stale_read"):
            return rule
        if rule.kind in ("rate_limit", "unavailable"):
            window = faults.Window(
                clock=clock, wall=now, seconds=rule.retry_after_s if rule.kind == "rate_limit" else rule.duration_s
            )
            if rule.kind == "rate_limit":
                state.rate_limits[index] = window
            else:
                state.down = window
            return rule, faults.record(
                rule,
                message=faults.message_for(rule, window, clock, now),
                retry_after_s=window.seconds,
                until=window.until().isoformat(timespec="seconds"),
            )
        return rule, faults.record(rule, message=rule.message)

    async def _call_in_transaction(
        self, sandbox: Sandbox, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> Any:
        token = calls.current.set((sandbox, self.inline))
        sandbox.budget = self.call_timeout
        sandbox.deadline = time.monotonic() + self.call_timeout
        sandbox.db.execute("BEGIN")
        changes = sandbox.db.total_changes
        try:
            result = await call_next(ctx)
        except BaseException:
            sandbox.rollback()
            raise
        finally:
            sandbox.deadline = None
            calls.current.reset(token)
        if not _get(result, "isError", "is_error") and sandbox.db.total_changes != changes:  # a read adds no page
            used = _stored_bytes(sandbox.db)
            if used > self.max_sandbox_bytes:
                result = _error_result(
                    f"This change would make the sandbox's stored data {used / 2**20:.1f} MB, over its limit of "
                    f"{self.max_sandbox_bytes / 2**20:g} MB; nothing was changed. Delete or shorten something first."
                )
        if _get(result, "isError", "is_error"):
            sandbox.rollback()
            result = _tidy_error(result)
        elif sandbox.stale_s is not None:
            sandbox.rollback()  # a read on the stale view: what was undone for it is restored
        else:
            sandbox.db.execute("COMMIT")
        return result


def _stored_bytes(db: sqlite3.Connection) -> int:
    """Bytes of the database's pages in use (free pages left by deletions not counted)."""
    used = db.execute(
        "SELECT (c.page_count - f.freelist_count) * s.page_size FROM pragma_page_count() AS c, "
        "pragma_freelist_count() AS f, pragma_page_size() AS s"
    ).fetchone()[0]
    return int(used)


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
    """Error text as the model should read it: the SDK's 'Error executing tool X:' prefix and
    pydantic's documentation links are noise."""
    if isinstance(result, CallToolResult):
        for block in result.content:
            if isinstance(block, TextContent):
                block.text = _tidy_text(block.text)
    elif isinstance(result, dict):
        for block in result.get("content") or []:
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                block["text"] = _tidy_text(block["text"])
    return result


def _tidy_text(text: str) -> str:
    text = _SDK_PREFIX.sub("", text, count=1)
    return "\n".join(line for line in text.splitlines() if "errors.pydantic.dev" not in line)


_SDK_PREFIX = re.compile(r"^Error executing tool [A-Za-z0-9_.-]+: ")
