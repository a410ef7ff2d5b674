"""The gateway: one MCP server per episode, aggregating the scenario's apps.

Tools are named `app__tool`; schemas, annotations, results and `isError`
pass through unchanged. The task is offered as the prompt `task` and the
resource `clawgym://task`. Checks and the reference solution never leave the
orchestrator. Every request the agent makes is recorded in the trace, with
its result and latency, each entry bounded in size (long strings and lists
cut, with the full size and a sha256 digest). Tool calls refused because the
call limit was reached are counted on one trace entry, not stored one by one,
and past `Trace.max_entries` entries or `Trace.max_bytes` characters of JSON per episode requests are only
counted (results.json's `episode.trace_capped` says so).
"""

from __future__ import annotations

import json
import pickle
import re
import time
from collections import OrderedDict
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server
from mcp.server.context import CallNext, ServerRequestContext
from mcp.shared.exceptions import MCPError

from orchestrator.backends.base import Upstream
from orchestrator.scenario.model import GATEWAY_SEPARATOR, Scenario
from servers import __version__
from servers.core.limits import bounded_line

TOOL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
TASK_PROMPT = "task"
TASK_URI = "clawgym://task"
AGENT_TITLE = "Your task"
"""How the gateway names the task to the agent (never the scenario's own id or title)."""


def gateway_name(app: str, tool: str) -> str:
    """The name an agent sees for `tool` of `app` (`app__tool`); ValueError when it is not a valid tool name."""
    name = f"{app}{GATEWAY_SEPARATOR}{tool}"
    if not TOOL_NAME.match(name):
        raise ValueError(f"tool name {name!r} is not 1-64 letters, digits, '_' or '-'")
    return name


def task_text(scenario: Scenario) -> str:
    """What the agent is asked to do: the scenario's instruction, trimmed."""
    return scenario.instruction.strip()


class Trace:
    """The agent-side record of an episode: every request, its result and its latency, in bounded memory."""

    MAX_ENTRIES = 20_000
    MAX_BYTES = 32_000_000
    """Characters of JSON the trace keeps per episode (as an app's journal is bounded by its sandbox's size)."""

    def __init__(self, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
        self.entries: list[dict[str, Any]] = []
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.size = 0
        """Characters of JSON of the entries kept."""
        self.refused = 0
        """Tool calls refused over the call limit."""
        self.dropped = 0
        """Requests only counted because the trace was full."""
        self.lines: dict[int, str] = {}
        """Each kept entry's line of trace.jsonl, encoded once when it was added, by the entry's `id()` while the
        entry is unchanged (`write_episode`'s `encoded`)."""
        self._refusals: dict[str, Any] | None = None
        self._full: dict[str, Any] | None = None

    def add(self, **entry: Any) -> None:
        """Append one entry (its params and result bounded); past `max_entries` or `max_bytes`, count it as dropped
        and note once that the trace is full."""
        if self._full is None:
            line = {"seq": len(self.entries) + 1, **entry}
            text = bounded_line(line, ("params", "result"))
            if len(self.entries) < self.max_entries and self.size + len(text) <= self.max_bytes:
                self.size += len(text)
                self.entries.append(line)
                self.lines[id(line)] = text
                return
            self._full = {
                "seq": len(self.entries) + 1,
                "source": "gateway",
                "wall": entry.get("wall"),
                "method": "trace/full",
                "params": {},
                "result": None,
                "error": None,
                "is_error": False,
                "latency_ms": 0.0,
            }
            self.entries.append(self._full)
        self.dropped += 1
        self._full["dropped"] = self.dropped
        self.lines.pop(id(self._full), None)

    @property
    def capped(self) -> dict[str, int] | None:
        """What the record says of a trace that was cut (results.json's `episode.trace_capped`): the entries kept,
        the requests only counted past the cap, and the calls refused over the call limit; None when nothing was."""
        if not self.dropped:
            return None
        return {"kept": len(self.entries), "dropped": self.dropped, "refused": self.refused}

    def add_refused(self, **entry: Any) -> None:
        """A tool call refused over the call limit: the first is kept (bounded), the others only counted on it."""
        self.refused += 1
        if self._refusals is None:
            self.add(**entry)
            self._refusals = self.entries[-1]
        self._refusals["refused_calls"] = self.refused
        self.lines.pop(id(self._refusals), None)


class Gateway:
    """The one MCP server an agent talks to: it lists every app's tools under gateway names and forwards calls."""

    def __init__(self, scenario: Scenario, upstreams: Mapping[str, Upstream], trace: Trace | None = None) -> None:
        self.scenario = scenario
        self.upstreams = dict(upstreams)
        self.trace = trace or Trace()
        self.tools: dict[str, tuple[str, str, types.Tool]] = {}
        self._wire: dict[str, list[dict[str, Any]]] = {}
        """Each app's tools in their wire form, as the gateway lists them."""
        """Gateway name → (app, the app's own tool name, the tool as the agent sees it)."""
        self.calls = 0
        self.world: Any = None
        """The living world (`orchestrator.world.events.WorldEngine`), when the scenario has one: its events run
        before each call is forwarded, its time goes with each call, and it answers the `world__*` tools."""
        self._refused: set[Any] = set()
        """Ids of the requests refused over the call limit, until they are traced."""
        # The agent sees the instruction and nothing else of the scenario: an id or a title written for the
        # scenario's readers ("... while the tracker rate-limits") could tell it what the world has in store.
        self.server: Server[Any] = Server(
            "clawgym",
            version=__version__,
            title=AGENT_TITLE,
            instructions=f"A ClawGym task. The task is the prompt '{TASK_PROMPT}' and the resource {TASK_URI}.",
            get_tool_input_schema=self._input_schema,
            on_list_tools=self._list_tools,  # type: ignore[arg-type]  # the listing as a dict, which the SDK validates as a ListToolsResult
            on_call_tool=self._call_tool,
            on_list_prompts=self._list_prompts,
            on_get_prompt=self._get_prompt,
            on_list_resources=self._list_resources,
            on_list_resource_templates=self._list_resource_templates,
            on_read_resource=self._read_resource,
        )
        self.server.middleware.append(self._record)

    async def load_tools(self) -> None:
        """Learn every app's tools from the app servers themselves."""
        for app, client in self.upstreams.items():
            tools, self._wire[app] = _as_gateway_tools(app, await client.list_tools())
            for name, original, tool in tools:
                self.tools[name] = (app, original, tool)

    # -- handlers ---------------------------------------------------------------

    def _input_schema(self, name: str) -> dict[str, Any] | None:
        entry = self.tools.get(name)
        if entry is None and self.world is not None and name in self.world.tools:
            return self.world.tools[name].input_schema
        return None if entry is None else entry[2].input_schema

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> dict[str, Any]:
        own = [_wire(tool) for tool in self.world.tools.values()] if self.world is not None else []
        return {**_EMPTY_LISTING, "tools": [tool for wire in self._wire.values() for tool in wire] + own}

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        result, refused = await self.call(params.name, params.arguments)
        if refused:
            self._refused.add(ctx.request_id)
        return result

    async def call(self, name: str, arguments: dict[str, Any] | None) -> tuple[types.CallToolResult, bool]:
        """Run one tool call as the agent asked it: the result, and whether it was refused over the call limit."""
        entry = self.tools.get(name)
        own = self.world is not None and name in self.world.tools
        if entry is None and not own:
            return _error(f"Unknown tool {name!r}. Call tools/list to see the tools of this task."), False
        limit = self.scenario.limits.max_tool_calls
        self.calls += 1
        if limit is not None and self.calls > limit:
            return _error(f"Tool-call limit reached: this task allows at most {limit} tool calls."), True
        if entry is None:
            return await self.world.call_tool(name, arguments or {}), False
        app, original, _ = entry
        if self.world is None:
            return await self._forward(app, original, arguments or {}, None), False
        meta = await self.world.before_call(name)  # what is due happens first; the call carries the time
        result = await self._forward(app, original, arguments or {}, meta)
        await self.world.after_call(name, arguments or {}, bool(result.is_error))
        return result, False

    async def _forward(
        self, app: str, original: str, arguments: dict[str, Any], meta: dict[str, Any] | None
    ) -> types.CallToolResult:
        deadline = self.scenario.limits.call_deadline_s
        try:
            with anyio.move_on_after(deadline):
                return _as_gateways(await self.upstreams[app].call_tool(original, arguments, meta=meta))
        except MCPError as exc:
            return _error(f"{app} could not run {original}: {exc}")
        # Past the deadline (a hung app, or a `timeout` fault): the app may still finish the call; see servers.core.faults.
        return _error(
            f"{app} did not answer {original} within {deadline:g} s (timed out); it may or may not have been applied."
        )

    async def _list_prompts(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=TASK_PROMPT,
                    title=AGENT_TITLE,
                    description="The task to carry out, with the apps of this session.",
                )
            ]
        )

    async def _get_prompt(
        self, ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        if params.name != TASK_PROMPT:
            raise MCPError(
                code=types.INVALID_PARAMS, message=f"unknown prompt {params.name!r}; the prompt is {TASK_PROMPT!r}"
            )
        return types.GetPromptResult(
            description=AGENT_TITLE,
            messages=[
                types.PromptMessage(role="user", content=types.TextContent(type="text", text=task_text(self.scenario)))
            ],
        )

    async def _list_resources(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[types.Resource(uri=TASK_URI, name="task", title=AGENT_TITLE, mime_type="text/markdown")]
        )

    async def _list_resource_templates(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[])  # the resources capability answers it: none

    async def _read_resource(
        self, ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        if str(params.uri) != TASK_URI:
            raise MCPError(
                code=types.INVALID_PARAMS, message=f"unknown resource {params.uri}; the task is at {TASK_URI}"
            )
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(uri=TASK_URI, text=task_text(self.scenario), mime_type="text/markdown")
            ]
        )

    async def _record(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> Any:
        if ctx.request_id is None:  # a notification: nothing to answer, nothing to trace
            return await call_next(ctx)
        wall = datetime.now(UTC)
        started = time.perf_counter()
        error: str | None = None
        result: Any = None
        try:
            result = await call_next(ctx)
            return result
        except Exception as exc:
            error = str(exc)
            raise
        finally:
            params = {k: v for k, v in (ctx.params or {}).items() if k != "_meta"}
            if isinstance(result, Mapping):
                result = dict(result)
            elif result is not None and hasattr(result, "model_dump"):
                result = result.model_dump(mode="json", by_alias=True, exclude_none=True)
            refused = ctx.request_id in self._refused
            self._refused.discard(ctx.request_id)
            self.record(ctx.method, params, result, error, refused, wall, started)

    def record(
        self,
        method: str,
        params: dict[str, Any],
        result: dict[str, Any] | None,
        error: str | None,
        refused: bool,
        wall: datetime,
        started: float,
    ) -> None:
        """Trace one request the agent made: its params, its result in wire form (or the error it raised)."""
        if method == "tools/list" and result is not None:
            # The same listing in every episode of the scenario, and its largest answer: its names are enough here.
            result = {"tools": [tool.get("name") for tool in result.get("tools") or [] if isinstance(tool, Mapping)]}
        (self.trace.add_refused if refused else self.trace.add)(
            source="gateway",
            wall=wall.isoformat(timespec="milliseconds"),
            method=method,
            params=params,
            result=result,
            error=error,
            is_error=bool(error) or bool(isinstance(result, dict) and result.get("isError")),
            latency_ms=round((time.perf_counter() - started) * 1000, 3),
        )


class InProcessSession:
    """The gateway as the orchestrator's own agents reach it in the same process (the oracle, the environment API,
    a proof's scripts; `Episode.connect(trusted=True)`): the handlers an MCP session on the gateway runs, traced the
    same way, without a JSON-RPC round trip inside one process. No request is encoded, decoded and validated again,
    no result is shaped for the wire and parsed back; the trace gets each result in the wire form an MCP session
    would have sent (tests/episode/test_in_process_session.py compares the two over the library).

    It answers `call_tool` and `list_tools` as `mcp.Client` does. The first session of a process opens one real MCP
    session on its gateway, whose `server/discover` answer (the same for every gateway) is traced again for the
    later ones, as a client's connection would be."""

    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway

    async def __aenter__(self) -> InProcessSession:
        server = self.gateway.server
        key = (server.name, server.version, server.instructions)
        wall, started = datetime.now(UTC), time.perf_counter()
        known = _discovered.get(key)
        if known is None:
            from mcp import Client

            async with Client(server):  # traces its server/discover: the entry every later session repeats
                pass
            entry = self.gateway.trace.entries[-1] if self.gateway.trace.entries else None
            if entry is not None and entry.get("method") == DISCOVER and not entry.get("error"):
                _discovered[key] = json.dumps(entry["result"])
        else:
            self.gateway.record(DISCOVER, {}, json.loads(known), None, False, wall, started)
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None) -> types.CallToolResult:
        """Call `name` through the gateway (the call limit, the living world, the trace), as an MCP session would."""
        wall, started = datetime.now(UTC), time.perf_counter()
        params: dict[str, Any] = {"name": name} if arguments is None else {"name": name, "arguments": arguments}
        wire: dict[str, Any] | None = None
        error: str | None = None
        refused = False
        try:
            result, refused = await self.gateway.call(name, arguments)
            wire = self._wire(result)
        except Exception as exc:
            error = str(exc)
            raise
        finally:
            self.gateway.record("tools/call", params, wire, error, refused, wall, started)
        return result

    async def list_tools(self) -> types.ListToolsResult:
        """Every tool of the task, as the gateway lists them (the gateway's own `Tool` objects: not to be changed)."""
        await self.list_wire_tools(copy=False)
        tools = [tool for _, _, tool in self.gateway.tools.values()]
        if self.gateway.world is not None:
            tools += list(self.gateway.world.tools.values())
        return types.ListToolsResult(tools=tools)

    async def list_wire_tools(self, *, copy: bool = True) -> list[dict[str, Any]]:
        """Every tool of the task in the wire form tools/list sends (fresh copies the caller may change)."""
        wall, started = datetime.now(UTC), time.perf_counter()
        listing = await self.gateway._list_tools(None, None)  # type: ignore[arg-type]  # the handler's context is not read when listing
        self.gateway.record("tools/list", {}, self._wire(listing), None, False, wall, started)
        return pickle.loads(pickle.dumps(listing["tools"])) if copy else listing["tools"]

    def _wire(self, result: types.Result | dict[str, Any]) -> dict[str, Any]:
        """`result` as the gateway's MCP session sends it: dumped, its result type said and the gateway's name
        stamped in its `_meta` (the result object gets the same stamp, as a client would read it)."""
        wire = (
            dict(result)
            if isinstance(result, dict)
            else result.model_dump(by_alias=True, mode="json", exclude_none=True)
        )
        wire.setdefault("resultType", "complete")
        meta = wire.get("_meta")
        if not isinstance(meta, dict) or meta.get(types.SERVER_INFO_META_KEY) is None:
            stamp = self.gateway.server.server_info_stamp
            wire["_meta"] = {**(meta or {}), types.SERVER_INFO_META_KEY: stamp}
            if isinstance(result, types.Result):
                result.meta = {**(result.meta or {}), types.SERVER_INFO_META_KEY: dict(stamp)}
        return wire


DISCOVER = "server/discover"
_discovered: dict[tuple[Any, ...], str] = {}
"""The gateway's `server/discover` answer as a real MCP session traced it, by the gateway's name, version and
instructions (the same for every gateway of a process)."""


MAX_CACHED_LISTINGS = 256
GatewayTools = list[tuple[str, str, types.Tool]]
_listings: OrderedDict[tuple[str, int], tuple[types.ListToolsResult, GatewayTools, list[dict[str, Any]]]] = (
    OrderedDict()
)
"""An app server's listing is the same for every episode (`backends.base.ToolListing`), and so are its tools as the
gateway names them and their wire form: made once per listing, not once per episode. Each entry keeps the listing its
key is made of, so the key can never be reused by another object while it is cached."""

_EMPTY_LISTING = types.ListToolsResult(tools=[]).model_dump(by_alias=True, mode="json", exclude_none=True)


def _as_gateway_tools(app: str, listing: types.ListToolsResult) -> tuple[GatewayTools, list[dict[str, Any]]]:
    """(gateway name, the app's own name, the tool as the agent sees it) for each tool of an app's listing, and
    those tools' wire form (the SDK validates and shapes an answer again before it is sent, as for any result)."""
    hit = _listings.get((app, id(listing)))
    if hit is not None and hit[0] is listing:
        return hit[1], hit[2]
    tools = []
    for tool in listing.tools:
        name = gateway_name(app, tool.name)
        tools.append((name, tool.name, tool.model_copy(update={"name": name})))
    wire = [_wire(tool) for _, _, tool in tools]
    _listings[(app, id(listing))] = (listing, tools, wire)
    if len(_listings) > MAX_CACHED_LISTINGS:
        _listings.popitem(last=False)
    return tools, wire


def _wire(tool: types.Tool) -> dict[str, Any]:
    return tool.model_dump(by_alias=True, mode="json", exclude_none=True)


def _as_gateways(result: types.CallToolResult) -> types.CallToolResult:
    """The result as the gateway answers it: without the app server's own name (`_meta` serverInfo), which an app
    server over HTTP stamps on it and one in process does not, so the agent sees the same answer on every backend
    (the gateway's MCP server stamps its own)."""
    if result.meta and types.SERVER_INFO_META_KEY in result.meta:
        result.meta = {k: v for k, v in result.meta.items() if k != types.SERVER_INFO_META_KEY} or None
    return result


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)
