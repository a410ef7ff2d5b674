"""A tool's body run for one call, and an app's tools as the MCP SDK registers them (`registered_tools`).

Each call has a time budget, and calls to one sandbox stay serialized by its lock (`servers.core.mcp` holds it),
so its connection is used by one call at a time. A call runs on the event loop first (over HTTP, stdio or in
process), for at most `INLINE_SLICE_S`: the apps' calls are SQLite transactions of microseconds to a few
milliseconds, and the hop to a worker thread and back costs more than most of them. One that runs past the slice is
rolled back to where it began and run again in a worker thread with its whole budget, and its tool goes to a thread
from then on (`InlinePolicy`), so a heavy call holds up the event loop (other sandboxes, `/healthz`, the admin API)
for one slice at most once per tool. A call past its budget is stopped (SQLite statements by a progress handler,
Python loops at `Sandbox.checkpoint()`) and answered with an error. An exception a tool does not expect never
reaches the agent as such: it is logged with its traceback and answered with an error that names no internals.

May import `servers.core.app`, `errors`, `limits` and `sandbox`; never the store, the admin plane or a transport.
"""

from __future__ import annotations

import functools
import inspect
import logging
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import asdict
from typing import Any, get_type_hints

import anyio
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import ToolAnnotations

from servers.core.app import App, ToolDef
from servers.core.errors import ToolError as AppToolError
from servers.core.limits import CallTimeout
from servers.core.sandbox import Sandbox

log = logging.getLogger("clawgym.server")

INTERNAL_ERROR = "could not be completed because of an internal error"
"""Words of the answer to a call whose tool raised an exception it did not expect (the fuzz tests look for them)."""

current: ContextVar[tuple[Sandbox, InlinePolicy]] = ContextVar("clawgym_sandbox")
"""The sandbox a tool call runs in, and its server's `InlinePolicy`: set by the middleware around each call."""


@functools.cache
def registered_tools(app: App) -> tuple[Tool, ...]:
    """`app`'s tools as the SDK registers them, made once per process: their schemas are generated from the
    functions' signatures (about 2 to 4 ms a tool), and they hold nothing of a server or a store, so every server
    of the app shares them (the local backend's launcher makes them before it forks a server for each app)."""
    tools = []
    for tool in app.tools.tools.values():
        hints = ToolAnnotations(**asdict(tool.annotations))
        registered = Tool.from_function(
            _bind(tool), name=tool.name, title=tool.title, description=tool.description, annotations=hints
        )
        # A tool takes exactly the arguments it lists (the middleware refuses any other), so its schema says so.
        registered.parameters = without_generated_titles({**registered.parameters, "additionalProperties": False})
        if registered.output_schema is not None:
            registered.output_schema = without_generated_titles(registered.output_schema)
        tools.append(registered)
    return tuple(tools)


def without_generated_titles(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` without the titles pydantic makes up: the root's (`send_messageArguments`, a model's class name;
    the tool has its own title), each property's (its name capitalized: 'Old Value') and each definition's (its key).

    They say nothing the names do not, and they are about a fifth of every tool listing: every agent reads
    them, every client validates them. A property's or definition's title written on purpose (differing from
    its name) stays.
    """
    out = _untitled(schema, None)
    out.pop("title", None)
    return out


def _untitled(node: Any, name: str | None) -> Any:
    if isinstance(node, list):
        return [_untitled(item, None) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str) and name is not None and value in _generated_titles(name):
            continue
        if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
            out[key] = {child: _untitled(sub, child) for child, sub in value.items()}
        elif key in ("items", "additionalProperties", "anyOf", "oneOf", "allOf", "prefixItems", "not"):
            out[key] = _untitled(value, None)
        else:
            out[key] = value  # keywords whose values are not schemas (enum, default, examples…) are kept as they are
    return out


def _generated_titles(name: str) -> tuple[str, str]:
    return name, name.replace("_", " ").title()


INLINE_SLICE_S = 0.02
"""How long a call may hold the event loop before it is moved to a worker thread."""


class InlinePolicy:
    """Which tools of one app server run on the event loop: every tool until one of its
    calls runs past `INLINE_SLICE_S` (stopped there, rolled back and run again in a worker thread); that tool runs in
    a thread from then on, so a heavy tool costs the loop one slice at most once."""

    def __init__(self, slice_s: float = INLINE_SLICE_S) -> None:
        self.slice_s = slice_s
        self.heavy: set[str] = set()
        """Tools seen running past the slice."""


class _PastSlice(Exception):
    """An inline call ran past its slice: rolled back to where it began, to be run again in a worker thread."""


def _run_inline(tool: ToolDef, sandbox: Sandbox, kwargs: dict[str, Any], policy: InlinePolicy) -> Any:
    """The tool's body on the event loop, within a savepoint: `_PastSlice` (its work undone) when it runs past the
    policy's slice before it is done; a call that finished late is kept, and its tool goes to a thread from then on."""
    db = sandbox.db
    budget_end = sandbox.deadline
    db.execute("SAVEPOINT clawgym_inline")
    started = time.thread_time()
    try:
        result = _run(tool, sandbox, kwargs, slice_s=policy.slice_s)
    except _PastSlice:
        db.execute("ROLLBACK TO clawgym_inline")
        db.execute("RELEASE clawgym_inline")
        policy.heavy.add(tool.name)
        raise
    finally:  # the thread's run, if any, starts its own budget (`_run`); a failed call is rolled back by the middleware
        sandbox.deadline, sandbox.budget_clock = budget_end, time.monotonic
    db.execute("RELEASE clawgym_inline")
    if time.thread_time() - started > policy.slice_s:  # a step Python could not interrupt: no second try on the loop
        policy.heavy.add(tool.name)
    return result


def _run(tool: ToolDef, sandbox: Sandbox, kwargs: dict[str, Any], *, slice_s: float | None = None) -> Any:
    """The tool's body, in a worker thread: stopped at its deadline, unexpected exceptions turned into a plain error.
    With `slice_s` (on the event loop, `_run_inline`), stopped after that many seconds of the thread's CPU time
    instead: `_PastSlice`."""
    db = sandbox.db
    budget_end = None if sandbox.deadline is None else time.monotonic() + sandbox.budget
    if sandbox.deadline is not None:  # the budget runs from the start of the work, not from the wait for a thread
        if slice_s is None:
            sandbox.deadline = budget_end
        else:
            sandbox.budget_clock = time.thread_time
            sandbox.deadline = time.thread_time() + min(slice_s, sandbox.budget)
    if sandbox.stale_s is not None:  # a stale_read fault: this read sees the state as it was (rolled back after)
        sandbox.stale_hidden = sandbox.hide_recent_changes(sandbox.stale_s)
    if sandbox.deadline is not None:
        deadline, clock = sandbox.deadline, sandbox.budget_clock
        db.set_progress_handler(lambda: int(clock() > deadline), 2_000)
    try:
        result = tool.fn(sandbox, **kwargs)
        if budget_end is not None and time.monotonic() > budget_end:
            raise CallTimeout(
                "the call ran past its time budget"
            )  # finished, but late (a step Python could not interrupt): not taken
        return result
    except Exception as exc:
        if slice_s is not None and (isinstance(exc, CallTimeout) or sandbox.over_budget()):
            if budget_end is None or time.monotonic() <= budget_end:
                raise _PastSlice() from None
        if isinstance(exc, CallTimeout) or sandbox.over_budget():
            raise _timeout(tool.name, sandbox) from None
        if isinstance(exc, ToolError):  # the SDK's own, from an app that raises it
            raise
        if isinstance(exc, AppToolError):  # the core's (no MCP import where apps are loaded): answered the same way
            raise ToolError(str(exc)) from None
        log.error("tool %s raised an unexpected exception", tool.name, exc_info=exc)
        raise ToolError(
            f"{tool.name} {INTERNAL_ERROR}; nothing was changed. Check the arguments against the tool's description."
        ) from None
    finally:
        if sandbox.deadline is not None:
            db.set_progress_handler(None, 0)


def _timeout(name: str, sandbox: Sandbox) -> ToolError:
    return ToolError(
        f"{name} ran past its time budget of {sandbox.budget:g} s and was stopped; nothing was changed. "
        "Ask for less at once: a shorter time window, fewer items or a narrower query."
    )


def _bind(tool: ToolDef) -> Callable[..., Any]:
    """The tool as the SDK sees it: the same typed arguments, minus the sandbox."""
    fn = tool.fn
    hints = get_type_hints(fn, include_extras=True)
    signature = inspect.signature(fn)
    params = [p.replace(annotation=hints.get(p.name, p.annotation)) for p in list(signature.parameters.values())[1:]]

    async def call(**kwargs: Any) -> Any:
        sandbox, policy = current.get()
        if tool.name not in policy.heavy:
            try:
                return _run_inline(tool, sandbox, kwargs, policy)
            except _PastSlice:
                pass
        # Off the event loop: a heavy call must not hold up other sandboxes or the admin API. The
        # sandbox lock is held meanwhile, so nothing else uses this sandbox's connection.
        sandbox.in_threads += 1
        try:
            return await anyio.to_thread.run_sync(functools.partial(_run, tool, sandbox, kwargs))
        finally:  # not before the thread is done: a cancelled wait still waits for it
            sandbox.in_threads -= 1

    call.__name__ = tool.name
    call.__doc__ = fn.__doc__
    call.__signature__ = signature.replace(parameters=params, return_annotation=hints["return"])  # type: ignore[attr-defined]  # the signature the SDK reads the tool's arguments from
    call.__annotations__ = {p.name: p.annotation for p in params} | {"return": hints["return"]}
    return call
