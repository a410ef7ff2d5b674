"""A tool call made in process without the JSON-RPC layer (`call_in_process`, the in-process backend's
gateway connections) answers and journals exactly as the same call over MCP does."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from servers import registry
from servers.core import FaultPlan, FaultRule, SandboxSpec, SandboxStore, build_mcp_server
from servers.core.mcp import bind_sandbox, call_in_process

SEED = {"projects": [{"key": "OPS", "name": "Operations"}], "tickets": [{"key": "OPS-1", "title": "Rotate keys"}]}
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("get_ticket", {"key": "OPS-1"}),
    ("get_ticket", {"key": "NOPE-9"}),  # the tool refuses: isError, rolled back
    ("get_ticket", {"key": 5}),  # fails argument validation
    ("get_ticket", {}),  # a required argument missing
    ("get_ticket", {"key": "OPS-1", "extra": 1}),  # an argument the tool does not take
    ("update_ticket", {"key": "OPS-1", "priority": "urgent"}),  # not in the enum
    ("update_ticket", {"key": "OPS-1", "title": "New title", "add_labels": ["ops"]}),  # a change, with row changes
    ("no_such_tool", {}),
    ("get_ticket", {"key": "OPS-1"}),  # meets the injected fault
    ("search_tickets", {"query": "title"}),
]
VOLATILE = {"wall", "latency_ms"}


@pytest.fixture
def server_and_store() -> tuple[Any, SandboxStore]:
    app = registry.load("tickets")
    store = SandboxStore(app)
    for sandbox in ("over-mcp", "direct"):
        store.create(sandbox, SandboxSpec(seed=SEED, clock={"start": "2026-03-02T09:00:00+01:00"}))
        store.get(sandbox).set_faults(FaultPlan(rules=[FaultRule(tool="get_ticket", calls=[5], message="busy")]))
    yield build_mcp_server(app, store), store
    store.close()


async def test_answers_and_journal_match_a_call_over_mcp(server_and_store: tuple[Any, SandboxStore]) -> None:
    server, store = server_and_store
    over_mcp, direct = [], []
    async with Client(server) as client:
        for tool, arguments in CALLS:
            with bind_sandbox("over-mcp"):
                over_mcp.append((await client.call_tool(tool, arguments)).model_dump(mode="json", exclude={"meta"}))
    for tool, arguments in CALLS:
        direct.append(
            (await call_in_process(server, "direct", tool, arguments)).model_dump(mode="json", exclude={"meta"})
        )
    assert direct == over_mcp
    assert sum(r["is_error"] for r in direct) == 7  # the cases above do reach the error paths

    def journal(sandbox: str) -> list[dict[str, Any]]:
        return [{k: v for k, v in e.items() if k not in VOLATILE} for e in store.get(sandbox).journal()]

    assert journal("direct") == journal("over-mcp") and len(journal("direct")) == len(CALLS)
    assert store.get("direct").snapshot() == store.get("over-mcp").snapshot()
    assert any(entry["changes"] for entry in journal("direct"))


async def test_a_deleted_sandbox_is_an_error_result(server_and_store: tuple[Any, SandboxStore]) -> None:
    server, store = server_and_store
    store.delete("direct")
    result = await call_in_process(server, "direct", "get_ticket", {"key": "OPS-1"})
    assert result.is_error and "deleted or never created" in result.content[0].text
