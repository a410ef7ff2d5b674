"""A tool call made in process without the JSON-RPC layer (`call_in_process`, the in-process backend's
gateway connections) answers and journals exactly as the same call over MCP does."""

from __future__ import annotations

import statistics
import time
from typing import Any

import anyio
import pytest
from helpers import structured
from mcp import Client

from servers import registry
from servers.core import FaultPlan, FaultRule, SandboxSpec, SandboxStore, build_mcp_server
from servers.core.mcp import bind_sandbox, call_in_process, registered_tools

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


# -- on the event loop, and off it when a call is heavy -------------------------------------------------------


def _bulk_mail(messages: int) -> dict[str, Any]:
    return {
        "labels": ["Bulk"],
        "messages": [
            {
                "id": f"m{i}",
                "from": "bulk@vendor.test",
                "subject": f"Offer {i}",
                "body": "x",
                "labels": ["Bulk"],
                "sent_at": "2026-03-01T10:00",
            }
            for i in range(messages)
        ],
    }


async def test_a_write_past_the_inline_slice_is_redone_once_in_a_thread() -> None:
    """A call over MCP that runs past the slice on the loop is undone there and run again off it, once: the answer,
    the state and the journal are those of the same call made in process afterwards (straight in a thread, the tool
    now being known as heavy), each of them one call."""
    app = registry.load("mail")
    store = SandboxStore(app)
    try:
        for sandbox in ("over-mcp", "direct"):
            store.create(sandbox, SandboxSpec(seed=_bulk_mail(1500)))
        server = build_mcp_server(app, store)
        policy = next(m for m in server.middleware if hasattr(m, "inline")).inline
        policy.slice_s = 0.001  # far less than deleting a label from 1,500 messages takes
        async with Client(server) as client:
            with bind_sandbox("over-mcp"):
                expected = (await client.call_tool("delete_label", {"name": "Bulk"})).model_dump(exclude={"meta"})
        assert policy.heavy == {"delete_label"}
        got = (await call_in_process(server, "direct", "delete_label", {"name": "Bulk"})).model_dump(exclude={"meta"})
        assert got == expected and not got["is_error"] and len(got["structured_content"]["removed_from"]) == 1500
        assert "delete_label" in policy.heavy
        assert store.get("direct").snapshot() == store.get("over-mcp").snapshot()
        entries = [
            [{k: v for k, v in e.items() if k not in VOLATILE} for e in store.get(s).journal()]
            for s in ("direct", "over-mcp")
        ]
        assert entries[0] == entries[1] and len(entries[0]) == 1 and len(entries[0][0]["changes"]) > 1500
    finally:
        store.close()


@pytest.mark.slow
async def test_a_heavy_call_in_process_does_not_hold_up_other_sandboxes() -> None:
    """While one sandbox runs heavy calls back to back in process, another sandbox's calls on the same event loop
    keep answering within a few slices: past its first slice a heavy tool runs in a worker thread."""
    from security.test_bounded_costs import HEAVY_CALL, crowded_calendar

    app = registry.load("calendar")
    store = SandboxStore(app)
    try:
        store.create("heavy", SandboxSpec(seed=crowded_calendar(12_000)))
        store.create("light", SandboxSpec(seed={}))
        server = build_mcp_server(app, store, call_timeout=60)
        heavy_ms: list[float] = []
        light_ms: list[float] = []
        done = anyio.Event()

        async def heavy() -> None:
            for _ in range(3):
                started = time.perf_counter()
                result = await call_in_process(server, "heavy", "find_free_slots", HEAVY_CALL)
                assert not result.is_error, result.content
                heavy_ms.append((time.perf_counter() - started) * 1000)
            done.set()

        async def light() -> None:
            while not done.is_set():
                started = time.perf_counter()
                assert not (await call_in_process(server, "light", "list_calendars", {})).is_error
                light_ms.append((time.perf_counter() - started) * 1000)
                await anyio.sleep(0.01)

        async with anyio.create_task_group() as tg:
            tg.start_soon(heavy)
            tg.start_soon(light)
        report = f"heavy calls {[round(ms) for ms in heavy_ms]} ms, other sandbox median {statistics.median(light_ms):.0f} ms"
        assert min(heavy_ms) > 100, f"the heavy call was not heavy enough to show anything: {report}"
        assert len(light_ms) >= 5 and statistics.median(light_ms) < 50, report
    finally:
        store.close()


async def test_two_servers_of_one_app_share_its_tools_and_each_calls_its_own_store() -> None:
    """An app's tools are made once per process and shared by every server of it (the launcher makes them before it
    forks); a shared tool still runs against the store of the server that was called, never another's."""
    from servers.tickets import APP

    stores = [SandboxStore(APP), SandboxStore(APP)]
    for store, title in zip(stores, ["Rotate keys", "Renew certificates"], strict=True):
        store.create(
            "default",
            SandboxSpec(
                seed={"projects": [{"key": "OPS", "name": "Operations"}], "tickets": [{"key": "OPS-1", "title": title}]}
            ),
        )
    servers = [build_mcp_server(APP, store) for store in stores]
    assert registered_tools(APP) is registered_tools(APP)
    titles = []
    for server in servers:
        async with Client(server, raise_exceptions=True) as client:
            listed = (await client.list_tools()).tools
            assert {t.name for t in listed} == set(APP.tools.tools)
            titles.append(structured(await client.call_tool("get_ticket", {"key": "OPS-1"}))["title"])
    assert titles == ["Rotate keys", "Renew certificates"]
    for store in stores:
        store.close()
