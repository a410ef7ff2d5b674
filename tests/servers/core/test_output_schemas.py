"""An app server never sends a tool result that does not fit the tool's published output schema.

The gateway's connections to the app servers rely on this and do not validate
results a second time (`orchestrator.backends.base.UpstreamClient`); the
agent's own client still does. These tests hold the server to it: every
published output schema is the one of the model the server validates each
result against, a tool that returns something else is answered with an error
and no structured content, and real results validate against the listing.
"""

from __future__ import annotations

from typing import Any

import anyio
import jsonschema
import pytest
import tiny
from helpers import SCENARIOS, TRAVEL_PATH
from mcp import Client
from mcp.server.mcpserver.utilities.func_metadata import StrictJsonSchema, _inline_root_ref
from mcp.types import CallToolResult
from pydantic import BaseModel, ConfigDict

from orchestrator.backends.base import remember_output_validators
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.episode.episode import Episode
from orchestrator.scenario import load
from servers import registry
from servers.core import App, Sandbox, SandboxSpec, SandboxStore, Toolset, build_mcp_server
from servers.core.mcp import bind_sandbox, without_generated_titles


@pytest.mark.parametrize("app", sorted(registry.BUILTIN))
def test_every_published_output_schema_is_the_model_the_server_validates_results_against(app: str) -> None:
    server = build_mcp_server(registry.load(app), SandboxStore(registry.load(app)))
    tools = server._tool_manager.list_tools()
    assert tools
    for tool in tools:
        meta = tool.fn_metadata
        assert tool.output_schema is not None, f"{app}.{tool.name} publishes no output schema"
        assert meta.output_model is not None, f"{app}.{tool.name}: its results are not validated by the server"
        derived = _inline_root_ref(
            meta._output_adapter(meta.output_model).json_schema(schema_generator=StrictJsonSchema)
        )
        # The same schema, less the titles pydantic makes up (annotations: they take no part in validation).
        assert tool.output_schema == without_generated_titles(derived), (
            f"{app}.{tool.name}: the published schema is not its output model's"
        )
        jsonschema.validators.validator_for(tool.output_schema).check_schema(tool.output_schema)


class Shape(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    count: int


def make_liar() -> App:
    tools = Toolset()

    @tools.tool(read_only=True)
    def wrong_type(sb: Sandbox) -> Shape:
        """Returns a count that is not a number."""
        return {"id": "x", "count": "many"}  # type: ignore[return-value]  # a wrong result on purpose: the server must refuse it

    @tools.tool(read_only=True)
    def extra_field(sb: Sandbox) -> Shape:
        """Returns a field the schema forbids."""
        return {"id": "x", "count": 1, "secret": "leak"}  # type: ignore[return-value]  # a wrong result on purpose: the server must refuse it

    @tools.tool(read_only=True)
    def missing_field(sb: Sandbox) -> Shape:
        """Leaves out a required field."""
        return {"id": "x"}  # type: ignore[return-value]  # a wrong result on purpose: the server must refuse it

    @tools.tool(read_only=True)
    def honest(sb: Sandbox) -> Shape:
        """Returns a result that fits."""
        return Shape(id="x", count=1)

    base = tiny.APP
    return App(
        "liar",
        title="Liar",
        instructions="Returns results that do not fit.",
        schema=base.schema,
        seed_model=base.seed_model,
        load_seed=base.load_seed,
        tools=tools,
    )


@pytest.mark.parametrize("tool", ["wrong_type", "extra_field", "missing_field"])
def test_a_result_that_does_not_fit_is_refused_by_the_server(tool: str) -> None:
    """A client that does not validate (as the gateway's) still never receives the misfit result."""
    app = make_liar()

    async def main() -> tuple[Any, Any]:
        store = SandboxStore(app)
        store.create("s", SandboxSpec(seed={}))
        server = build_mcp_server(app, store)
        async with Client(server) as client:
            client.session.validate_tool_result = _no_check  # type: ignore[method-assign]  # the SDK's own check turned off, to see the server's
            with bind_sandbox("s"):
                return await client.call_tool(tool, {}), await client.call_tool("honest", {})

    refused, honest = anyio.run(main)
    assert refused.is_error and refused.structured_content is None
    assert "many" not in str(refused.content) and "leak" not in str(refused.content)
    assert not honest.is_error and honest.structured_content == {"id": "x", "count": 1}


async def _no_check(name: str, result: Any) -> None:
    return None


def test_real_results_fit_the_schemas_the_agent_is_given() -> None:
    """The reference solutions of the library's scenarios, checked by a validating client on the app servers."""
    scenarios = [load(SCENARIOS / name) for name in ("travel.yaml", "inbox-triage.yaml", "release-checklist.yaml")]

    async def main() -> int:
        checked = 0
        async with InProcessBackend() as backend:
            for scenario in scenarios:
                endpoints = await backend.start(scenario.apps)
                async with Episode(scenario, endpoints) as episode:
                    listed = {}
                    for app, endpoint in endpoints.items():
                        async with Client(endpoint.server) as client:  # type: ignore[attr-defined]  # an in-process endpoint has its server
                            for tool in (await client.list_tools()).tools:
                                listed[f"{app}__{tool.name}"] = tool.output_schema
                    async with episode.connect() as client:
                        for step in scenario.oracle:
                            if "${" in str(step.args):
                                continue  # needs an earlier result; the calls without one are plenty
                            result = await client.call_tool(step.tool, step.args)
                            if not result.is_error:
                                jsonschema.validate(result.structured_content, listed[step.tool])
                                checked += 1
        return checked

    assert anyio.run(main) >= 10


def test_shared_validators_still_reject_a_misfit_in_a_later_session() -> None:
    """Compiled validators are shared across sessions; each session still validates every result."""
    app = make_liar()

    async def main() -> list[str]:
        store = SandboxStore(app)
        store.create("s", SandboxSpec(seed={}))
        server = build_mcp_server(app, store)
        outcomes = []
        for _ in range(2):
            async with Client(server) as client:
                remember_output_validators(client)
                with bind_sandbox("s"):
                    assert not (await client.call_tool("honest", {})).is_error
                # A server that sends a misfit result: the listed schema says count is an integer.
                misfit = CallToolResult(content=[], structured_content={"id": "x", "count": "many"})
                try:
                    await client.session.validate_tool_result("honest", misfit)
                    outcomes.append("accepted")
                except RuntimeError as exc:
                    outcomes.append(str(exc))
        return outcomes

    first, second = anyio.run(main)
    assert "Invalid structured content" in first and "Invalid structured content" in second


def test_a_trusted_client_takes_the_results_a_validating_one_does() -> None:
    """`Episode.connect(trusted=True)` (the oracle, the environment API) skips the second check and the listing
    it needs; what it receives is what a validating client receives, and every such result fits its schema."""
    scenario = load(TRAVEL_PATH)

    async def run(trusted: bool) -> tuple[list[Any], list[str], dict[str, Any]]:
        async with InProcessBackend() as backend:
            async with Episode(scenario, await backend.start(scenario.apps), rng_seed=3) as episode:
                async with episode.connect(trusted=trusted) as client:
                    results = []
                    for step in scenario.oracle:
                        if "${" not in str(step.args):
                            result = await client.call_tool(step.tool, step.args)
                            results.append(result.model_dump(mode="json", exclude={"meta"}))
                    listed = {t.name: t.output_schema for t in (await client.list_tools()).tools}
                methods = [e["method"] for e in episode.trace.entries]
        return results, methods, listed

    trusted, trusted_methods, listed = anyio.run(run, True)
    validated, validated_methods, _ = anyio.run(run, False)
    assert trusted == validated and len(trusted) >= 5
    assert trusted_methods.count("tools/list") == 1  # only the one asked for above
    assert validated_methods.count("tools/list") == 2  # the validating client listed the tools to learn the schemas
    names = [step.tool for step in scenario.oracle if "${" not in str(step.args)]
    for name, result in zip(names, trusted, strict=True):
        if not result["is_error"]:
            jsonschema.validate(result["structured_content"], listed[name])
