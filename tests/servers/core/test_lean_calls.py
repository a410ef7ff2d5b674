"""The lean in-process call path (`call_in_process`: no SDK dispatch, no second validation of a result that is
already its tool's output model) answers every tool with the bytes the same call gets over MCP.

Every scenario of the library is run by its reference solution on the in-process backend, whose gateway calls the
apps this way; every call, world event, clock move and fault plan each sandbox met is recorded, then replayed in
the same order over MCP (the SDK's client on the app's server) on a sandbox seeded from the same spec. Each
result must be the same JSON, byte for byte. Tools no reference solution calls are called with arguments built
from their input schemas' required fields, and with none, both ways.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from orchestrator.agents.base import OracleAgent
from orchestrator.backends import inprocess
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.episode.episode import Episode
from orchestrator.scenario import discover, load
from servers import registry
from servers.core import SandboxStore, build_mcp_server
from servers.core.admin import SandboxAdmin
from servers.core.mcp import bind_sandbox, call_in_process, registered_tools

ROOT = Path(__file__).resolve().parents[3]
LIBRARY = sorted(discover([ROOT / "scenarios"]))
WALL_TIMED = {"rate_limit", "unavailable", "timeout", "latency"}
"""Fault kinds whose windows run in wall time too."""


def wire(result: Any) -> str:
    return result.model_dump_json(by_alias=True, exclude_none=True, exclude={"meta"})


class Recorder:
    """Everything that reached each sandbox of the in-process backend, in order: ('create', spec), ('call', tool,
    arguments, meta, result bytes), ('admin', method, args)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.log: dict[tuple[str, str], list[tuple[Any, ...]]] = {}
        recorder = self
        original_call = inprocess.DirectClient.call_tool

        async def call_tool(client: Any, name: str, arguments: dict[str, Any] | None = None, *, meta: Any = None):
            result = await original_call(client, name, arguments, meta=meta)
            key = (client.endpoint.app, client.sandbox_id)
            recorder.log[key].append(("call", name, dict(arguments or {}), meta, wire(result)))
            return result

        monkeypatch.setattr(inprocess.DirectClient, "call_tool", call_tool)
        for method in ("create", "set_faults", "set_clock", "apply_world", "reset"):
            monkeypatch.setattr(SandboxAdmin, method, self._admin(getattr(SandboxAdmin, method), method))

    def _admin(self, original: Any, method: str) -> Any:
        recorder = self

        async def recorded(admin: SandboxAdmin, sandbox_id: str, *args: Any, **kwargs: Any) -> Any:
            key = (admin.store.app.name, sandbox_id)
            if sandbox_id == "replayed":  # the replay's own
                return await original(admin, sandbox_id, *args, **kwargs)
            if method == "create":
                recorder.log[key] = []
            recorder.log[key].append(("admin", method, args, kwargs))
            return await original(admin, sandbox_id, *args, **kwargs)

        return recorded


async def replay_over_mcp(app: str, entries: list[tuple[Any, ...]]) -> list[tuple[str, str, str]]:
    """The entries again, on a new store of `app`, the calls over MCP: (tool, in-process bytes, MCP bytes)."""
    store = SandboxStore(registry.load(app))
    admin = SandboxAdmin(store)
    out = []
    async with Client(build_mcp_server(store.app, store)) as client:
        for entry in entries:
            if entry[0] == "admin":
                _, method, args, kwargs = entry
                await getattr(admin, method)("replayed", *args, **kwargs)
            else:
                _, name, arguments, meta, got = entry
                with bind_sandbox("replayed"):
                    over_mcp = await client.call_tool(name, arguments, meta=meta)
                out.append((name, got, wire(over_mcp)))
    store.close()
    return out


@pytest.mark.slow  # the whole library, then every tool it does not call (test_in_process_calls.py is the fast one)
def test_every_tool_answers_the_same_bytes_in_process_and_over_mcp(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder(monkeypatch)

    async def library() -> None:
        async with InProcessBackend() as backend:
            for path in LIBRARY:
                scenario = load(path)
                async with Episode(scenario, await backend.start(scenario.apps), rng_seed=3) as episode:
                    report = await OracleAgent().run(episode)
                    assert not report.errors, (path.name, report.errors)
                    result, _ = await episode.finish()
                    assert result.passed, path.name

    anyio.run(library)
    called: dict[str, set[str]] = {}
    compared = 0
    for (app, _), entries in list(recorder.log.items()):
        if any(e[1] == "set_faults" and any(r.kind in WALL_TIMED for r in e[2][0].rules) for e in entries):
            continue  # its answers depend on when each call came (a window in wall time): not replayable as is
        for name, lean, over_mcp in anyio.run(replay_over_mcp, app, entries):
            assert lean == over_mcp, (app, name)
            called.setdefault(app, set()).add(name)
            compared += 1
    assert compared > 150 and sum(map(len, called.values())) > 25, (compared, called)
    # The tools no reference solution calls: with their required arguments drawn from their schemas, and with none.
    answered = []
    for app, tools in called.items():
        rest = [tool for tool in registered_tools(registry.load(app)) if tool.name not in tools]
        answered += anyio.run(uncalled, app, rest)
    assert sum(not is_error for is_error in answered) >= 10, answered  # many of them did their work, too


def example(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A value of a (small) JSON schema: its first enum value, an example string, a number, a list of one."""
    if "$ref" in schema:
        return example(defs[schema["$ref"].split("/")[-1]], defs)
    for combined in ("anyOf", "oneOf"):
        if combined in schema:
            return example(next(s for s in schema[combined] if s.get("type") != "null"), defs)
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "array":
        return [example(schema.get("items", {}), defs)]
    if kind == "object":
        return {k: example(v, defs) for k, v in schema.get("properties", {}).items() if k in schema.get("required", [])}
    if kind in ("integer", "number"):
        return max(1, schema.get("minimum", 1))
    if kind == "boolean":
        return True
    if schema.get("format") == "date-time":
        return "2026-03-03T10:00:00+01:00"
    if schema.get("format") == "date":
        return "2026-03-03"
    return "x@y.test" if "mail" in str(schema) else "2026-03-03T10:00"


async def uncalled(app: str, tools: list[Any]) -> list[bool]:
    """Call `tools` both ways on sandboxes seeded as a library scenario's; whether each answer was an error."""
    scenario = next(load(p) for p in LIBRARY if app in load(p).apps)
    spec = scenario.sandbox_spec(app, 1)
    store = SandboxStore(registry.load(app))
    server = build_mcp_server(store.app, store)
    errors = []
    async with Client(server) as client:
        for tool in tools:
            schema = tool.parameters
            for arguments in (example(schema, schema.get("$defs", {})), {}):
                for sandbox in ("lean", "mcp"):
                    store.create(sandbox, spec, replace=True)
                answer = await call_in_process(server, "lean", tool.name, arguments)
                errors.append(bool(answer.is_error))
                lean = wire(answer)
                with bind_sandbox("mcp"):
                    over_mcp = wire(await client.call_tool(tool.name, arguments))
                assert lean == over_mcp, (app, tool.name, arguments)
                assert store.get("lean").snapshot() == store.get("mcp").snapshot()
    store.close()
    return errors
