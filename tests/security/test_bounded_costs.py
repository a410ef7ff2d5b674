"""One tool call has a bounded cost: it cannot stall the server, run forever, or store without limit.

Threat: an agent (or a confused model) sends calls built to be expensive — a free-slot search over a
crowded calendar, a window of decades, a find-and-replace that multiplies a document, a forward of a huge
message, years at the ends of the calendar — to stall the app server for every other sandbox, exhaust its
memory, or crash a tool. Each test below makes such a call over real HTTP or a real MCP client and checks
that the server answers it with a clear error (or quickly), that the journal records it once, and that
nothing else waits.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import anyio
import httpx2
import pytest
from helpers import TRAVEL_PATH, app_process, error_text, in_memory, structured

from servers import registry
from servers.core import SandboxSpec, SandboxStore
from servers.core.limits import ENTRY_LIMIT, STRING_LIMIT, bounded

PEOPLE = [f"p{i}@acme.test" for i in range(20)]
ME = "alex@example.test"


def crowded_calendar(events: int) -> dict[str, Any]:
    """A calendar where 20 people share `events` meetings in March 2026: free-slot search over it is heavy."""
    return {
        "events": [
            {
                "id": f"e{i}",
                "title": f"Meeting {i}",
                "start": f"2026-03-{2 + i % 25:02d}T{8 + i % 9:02d}:{i % 4 * 15:02d}:00+00:00",
                "end": f"2026-03-{2 + i % 25:02d}T{8 + i % 9:02d}:{i % 4 * 15 + 10:02d}:00+00:00",
                "organizer": PEOPLE[i % 20],
                "attendees": [*PEOPLE[i % 7 : i % 7 + 4], ME],
            }
            for i in range(events)
        ]
    }


HEAVY_CALL = {
    "attendees": PEOPLE,
    "duration_minutes": 30,
    "time_min": "2026-03-02T00:00",
    "time_max": "2026-06-01T00:00",
    "working_hours_only": False,
}


def create(server: Any, sandbox_id: str, seed: dict[str, Any]) -> None:
    with server.admin() as admin:
        response = admin.post("/sandboxes", json={"id": sandbox_id, "seed": seed, "replace": True}, timeout=120)
        assert response.status_code == 201, response.text[:500]


async def heavy_calendar(server: Any, sandbox_id: str, at_least_ms: float) -> int:
    """Seed `sandbox_id` with a calendar crowded enough that HEAVY_CALL takes `at_least_ms` on this machine
    (machines differ several-fold in speed); the number of events it took."""
    events = 3000
    while True:
        create(server, sandbox_id, crowded_calendar(events))
        async with server.client(sandbox_id) as client:
            started = time.perf_counter()
            structured(await client.call_tool("find_free_slots", HEAVY_CALL))
            took = (time.perf_counter() - started) * 1000
        if took >= at_least_ms or events >= 48_000:
            return events
        events = min(48_000, int(events * min(4.0, max(1.5, 1.3 * at_least_ms / max(took, 1.0)))))


def journal(server: Any, sandbox_id: str) -> list[dict[str, Any]]:
    with server.admin() as admin:
        return admin.get(f"/sandboxes/{sandbox_id}/journal").json()["entries"]


# -- the time budget ----------------------------------------------------------------


@pytest.mark.slow
async def test_a_heavy_call_stalls_neither_healthz_nor_another_sandbox() -> None:
    """While one sandbox runs heavy calls back to back, /healthz and another sandbox's calls stay fast."""
    with app_process("calendar", "--call-timeout", "60", "--max-sandbox-mb", "512") as server:
        await heavy_calendar(server, "heavy", at_least_ms=1500)
        create(server, "light", {})
        heavy_ms: list[float] = []
        health_ms: list[float] = []
        light_ms: list[float] = []
        async with server.client("heavy") as heavy, server.client("light") as light:
            async with httpx2.AsyncClient(base_url=server.url, timeout=30) as http:
                done = anyio.Event()

                async def run_heavy() -> None:
                    started = time.monotonic()
                    while time.monotonic() - started < 4 or len(heavy_ms) < 2:
                        t = time.perf_counter()
                        structured(await heavy.call_tool("find_free_slots", HEAVY_CALL))
                        heavy_ms.append((time.perf_counter() - t) * 1000)
                    done.set()

                async def probe() -> None:
                    await anyio.sleep(0.2)  # the first heavy call is under way
                    while not done.is_set():
                        t = time.perf_counter()
                        assert (await http.get("/healthz")).status_code == 200
                        health_ms.append((time.perf_counter() - t) * 1000)
                        t = time.perf_counter()
                        structured(await light.call_tool("list_calendars", {}))
                        light_ms.append((time.perf_counter() - t) * 1000)
                        await anyio.sleep(0.05)

                async with anyio.create_task_group() as tg:
                    tg.start_soon(run_heavy)
                    tg.start_soon(probe)
    heavy, health, light = (statistics.median(x) for x in (heavy_ms, health_ms, light_ms))
    report = f"heavy call median {heavy:.0f} ms, /healthz {health:.0f} ms, other sandbox {light:.0f} ms"
    assert heavy > 800, f"the heavy call was not heavy enough to show anything: {report}"
    assert len(health_ms) >= 5, report
    print(report)  # run on the event loop, each probe would wait for the heavy call in progress: half of it on average
    assert health < 1000 and light < 2000, report


@pytest.mark.slow
async def test_a_call_past_its_budget_is_stopped_and_answered_with_an_error() -> None:
    with app_process("calendar", "--call-timeout", "60", "--max-sandbox-mb", "512") as server:
        events = await heavy_calendar(server, "heavy", at_least_ms=1500)
    with app_process("calendar", "--call-timeout", "0.3", "--max-sandbox-mb", "512") as server:
        create(server, "heavy", crowded_calendar(events))
        async with server.client("heavy") as client:
            started = time.monotonic()
            result = await client.call_tool("find_free_slots", HEAVY_CALL)
            elapsed = time.monotonic() - started
            text = error_text(result)
            assert "time budget of 0.3 s" in text and "nothing was changed" in text
            assert elapsed < 2.5, f"a 0.3 s budget took {elapsed:.1f} s to enforce"
            # The sandbox is usable right after, and the timeout was journaled once, as an error.
            structured(await client.call_tool("list_calendars", {}))
        entries = journal(server, "heavy")
        assert [(e["tool"], e["is_error"]) for e in entries] == [("find_free_slots", True), ("list_calendars", False)]
        assert "time budget" in entries[0]["error"]


@pytest.mark.slow
async def test_a_write_past_its_budget_is_rolled_back() -> None:
    """A tool stopped halfway through its writes leaves nothing behind (mail's delete_label over many messages)."""
    messages = [
        {
            "id": f"m{i}",
            "from": "bulk@vendor.test",
            "subject": f"Offer {i}",
            "body": "x",
            "labels": ["Bulk"],
            "sent_at": "2026-03-01T10:00",
        }
        for i in range(8000)
    ]
    with app_process("mail", "--call-timeout", "0.05") as server:
        create(server, "bulk", {"labels": ["Bulk"], "messages": messages})
        with server.admin() as admin:
            before = admin.get("/sandboxes/bulk/snapshot").json()
        async with server.client("bulk") as client:
            text = error_text(await client.call_tool("delete_label", {"name": "Bulk"}))
        assert "time budget of 0.05 s" in text
        with server.admin() as admin:
            after = admin.get("/sandboxes/bulk/snapshot").json()
        assert after == before
        entries = journal(server, "bulk")
        assert len(entries) == 1 and entries[0]["is_error"] and not entries[0].get("changes")


def test_the_budget_and_the_cap_must_be_positive_numbers() -> None:
    import subprocess
    import sys

    for option, value in [("--call-timeout", "0"), ("--call-timeout", "nan"), ("--max-sandbox-mb", "-1")]:
        done = subprocess.run(
            [sys.executable, "-m", "servers.calendar", option, value], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2 and "expected a positive number" in done.stderr, done.stderr


# -- bounded inputs -----------------------------------------------------------------


async def test_time_windows_are_bounded() -> None:
    async with in_memory(registry.load("calendar")) as (client, _):
        long = {"time_min": "2026-01-01T00:00", "time_max": "2106-01-01T00:00"}
        text = error_text(await client.call_tool("find_free_slots", {"attendees": [], "duration_minutes": 30, **long}))
        assert "92 days at most" in text
        assert "366 days at most" in error_text(await client.call_tool("list_events", long))
        assert "92 days at most" in error_text(await client.call_tool("get_free_busy", {"emails": [ME], **long}))
        # Within the bounds, the same tools answer.
        structured(
            await client.call_tool("list_events", {"time_min": "2026-01-01T00:00", "time_max": "2026-12-31T00:00"})
        )


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("list_events", {"time_min": "0001-01-01T00:00:00"}, "year must be between 1900 and 2199"),
        ("list_events", {"time_min": "9999-12-31T23:59:59"}, "year must be between 1900 and 2199"),
        ("create_event", {"title": "x", "start": "9999-12-31T23:30:00"}, "year must be between 1900 and 2199"),
        ("search_events", {"query": "x", "time_max": "0001-01-01T00:00:00+14:00"}, "year must be"),
        ("list_events", {"timezone": "America"}, "unknown time zone 'America'"),
        ("list_events", {"timezone": "Europe/" + "x" * 50}, "unknown time zone"),
        ("list_events", {"timezone": "x" * 300}, "at most 64 characters"),
        ("create_event", {"title": "x", "start": "2026-03-03T10:00", "description": "d" * 8_001}, "at most 8000"),
    ],
)
async def test_calendar_edge_values_are_clear_errors(tool: str, arguments: dict[str, Any], expected: str) -> None:
    async with in_memory(registry.load("calendar")) as (client, _):
        assert expected in error_text(await client.call_tool(tool, arguments))


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("newer_than:" + "9" * 30 + "d", "up to 100 years"),
        ("newer_than:99999999y", "up to 100 years"),
        ("older_than:36501d", "up to 100 years"),
        ("after:0001-01-01", "year between 1900 and 2199"),
        ("before:9999-12-31", "year between 1900 and 2199"),
    ],
)
async def test_mail_search_edge_values_are_clear_errors(query: str, expected: str) -> None:
    async with in_memory(registry.load("mail")) as (client, _):
        assert expected in error_text(await client.call_tool("search_messages", {"query": query}))
        structured(await client.call_tool("search_messages", {"query": "newer_than:100y"}))


async def test_docs_revision_numbers_are_bounded() -> None:
    seed = {"documents": [{"id": "d1", "title": "Plan", "content": "hello"}]}
    async with in_memory(registry.load("docs"), seed) as (client, _):
        for tool in ("get_revision", "restore_revision"):
            text = error_text(await client.call_tool(tool, {"document_id": "d1", "number": 2**63}))
            assert "less than or equal to 1000000" in text
        assert "no revision 1000000" in error_text(
            await client.call_tool("get_revision", {"document_id": "d1", "number": 1_000_000})
        )


async def test_replace_all_checks_the_size_before_building_the_text() -> None:
    """200,000 'a's with every 'a' replaced by 200,000 characters would be 40 billion characters: refused at once."""
    seed = {"documents": [{"id": "d1", "title": "Big", "content": "a" * 200_000}]}
    async with in_memory(registry.load("docs"), seed) as (client, sandbox):
        started = time.monotonic()
        text = error_text(
            await client.call_tool(
                "edit_document", {"document_id": "d1", "find": "a", "replace": "b" * 200_000, "replace_all": True}
            )
        )
        assert time.monotonic() - started < 2
        assert "40000000000 characters" in text and "limit is 200000" in text
        assert sandbox.get("documents", "d1")["content"] == "a" * 200_000
        # One that fits still works.
        done = structured(
            await client.call_tool(
                "edit_document", {"document_id": "d1", "find": "aaaa", "replace": "b", "replace_all": True}
            )
        )
        assert done["replacements"] == 50_000


async def test_forwarding_a_huge_message_is_refused_before_it_is_built() -> None:
    attachments = [{"name": f"part{i}.txt", "content": "z" * 100_000} for i in range(12)]
    seed = {
        "messages": [
            {
                "id": "huge",
                "from": "big@vendor.test",
                "subject": "Logs",
                "body": "see attached",
                "sent_at": "2026-03-01T10:00",
                "attachments": attachments,
            }
        ]
    }
    async with in_memory(registry.load("mail"), seed) as (client, sandbox):
        text = error_text(await client.call_tool("forward", {"message_id": "huge", "to": ["sam@acme.test"]}))
        assert "limit is 1000000" in text and "include_attachments=false" in text
        assert len(sandbox.select("messages")) == 1
        sent = structured(
            await client.call_tool(
                "forward", {"message_id": "huge", "to": ["sam@acme.test"], "include_attachments": False}
            )
        )
        assert sent["attachments"] == [] and "see attached" in sent["body"]


async def test_list_lengths_and_text_fields_are_bounded_in_the_schemas() -> None:
    """Every string an agent sends has a maximum length and every list a maximum number of items, in the schema
    the model reads, so the bounds are part of the tool's contract and not a surprise."""
    problems = []
    for name in registry.BUILTIN:
        async with in_memory(registry.load(name)) as (client, _):
            for tool in (await client.list_tools()).tools:
                problems += [f"{name}.{tool.name}{path}" for path in _unbounded(tool.input_schema, "")]
    assert not problems, problems


def _unbounded(schema: Any, path: str) -> list[str]:
    out = []
    if isinstance(schema, dict):
        kind = schema.get("type")
        if kind == "string" and "maxLength" not in schema and "enum" not in schema and "format" not in schema:
            out.append(path)
        if kind == "array" and "maxItems" not in schema:
            out.append(path)
        for key, value in schema.items():
            out += _unbounded(value, f"{path}/{key}")
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            out += _unbounded(value, f"{path}[{i}]")
    return out


# -- stored size, journal and trace ----------------------------------------------


async def test_a_sandbox_has_a_stored_size_cap() -> None:
    app = registry.load("docs")
    store = SandboxStore(app)
    store.create("default", SandboxSpec())
    from mcp import Client

    from servers.core import build_mcp_server

    async with Client(build_mcp_server(app, store, max_sandbox_mb=2), raise_exceptions=True) as client:
        made = 0
        for i in range(40):
            result = await client.call_tool("create_document", {"title": f"Doc {i}", "content": f"{i}" + "x" * 150_000})
            if result.is_error:
                break
            made += 1
        text = error_text(result)
        assert "over its limit of 2 MB" in text and "nothing was changed" in text
        assert 1 <= made < 40
        assert len(store.get("default").select("documents")) == made
        # A small change still fits; one that copies a document's text (a new revision) does not.
        first = store.get("default").select("documents")[0]["id"]
        structured(await client.call_tool("create_folder", {"name": "Archive"}))
        assert "over its limit" in error_text(
            await client.call_tool("rename_document", {"document_id": first, "title": "New"})
        )
    store.close()


async def test_journal_entries_keep_large_values_only_up_to_a_limit() -> None:
    """Arguments a tool accepts are kept whole (scenario checks read them, so padding cannot hide a forbidden
    word); an oversized, refused argument and a long result are cut, with the full size and a digest."""
    import hashlib

    seed = {"documents": [{"id": "d1", "title": "Plan", "content": "hello"}]}
    async with in_memory(registry.load("docs"), seed) as (client, sandbox):
        big = "q" * 150_000 + "FORBIDDEN"
        structured(await client.call_tool("replace_content", {"document_id": "d1", "content": big}))
        accepted = sandbox.journal()[-1]
        huge = "h" * 1_000_000
        error_text(await client.call_tool("replace_content", {"document_id": "d1", "content": huge}))
        refused = sandbox.journal()[-1]
    assert accepted["arguments"]["content"] == big
    result = accepted["result"]["content"]
    assert len(result) < STRING_LIMIT + 200 and result.startswith("q" * 100)
    assert f"{len(big)} characters in all, sha256 {hashlib.sha256(big.encode()).hexdigest()}" in result
    kept = refused["arguments"]["content"]
    assert (
        len(kept) < 200_200 and f"1000000 characters in all, sha256 {hashlib.sha256(huge.encode()).hexdigest()}" in kept
    )
    assert len(str(accepted["result"])) < ENTRY_LIMIT + 1_000


async def test_a_draft_cannot_grow_past_the_message_size() -> None:
    attachments = [{"name": f"part{i}.txt", "content": "z" * 100_000} for i in range(12)]
    async with in_memory(registry.load("mail")) as (client, sandbox):
        draft = structured(await client.call_tool("create_draft", {"subject": "Logs"}))
        text = error_text(await client.call_tool("update_draft", {"draft_id": draft["id"], "attachments": attachments}))
        assert "limit is 1000000" in text
        assert sandbox.get("messages", draft["id"])["attachments"] == []


def test_bounded_keeps_small_values_and_marks_every_cut() -> None:
    small = {"a": [1, 2, "x"], "b": None}
    assert bounded(small) == small
    cut = bounded({"ids": list(range(1_000))})
    assert len(cut["ids"]) == 101 and "1000 items in all, sha256" in cut["ids"][-1]
    huge = bounded({f"k{i}": "v" * 3_000 for i in range(90)})
    assert huge["truncated"] is True and len(huge["sha256"]) == 64 and huge["chars"] > 270_000


@pytest.mark.parametrize(
    "result",
    [
        {"a": [1, 2, "x"], "b": None},
        {"ids": list(range(1_000))},
        {"text": "é" * (STRING_LIMIT + 1)},
        {f"k{i}": "v" * 3_000 for i in range(30)},  # every string fits, the whole is over ENTRY_LIMIT
        ("a", "tuple"),
    ],
    ids=["fits", "long-list", "long-string", "over-the-entry-limit", "tuple"],
)
def test_a_line_is_the_entry_with_each_value_bounded(result: Any) -> None:
    """`bounded_line` encodes an entry once when nothing in it is cut, and is otherwise `bounded` on each value."""
    import json

    from servers.core.limits import bounded_line

    entry = {"seq": 1, "params": {"name": "t", "arguments": {"q": "x" * 10}}, "result": result, "is_error": False}
    expected = json.dumps({**entry, "params": bounded(entry["params"]), "result": bounded(result)})
    assert bounded_line(dict(entry), ("params", "result")) == expected


def test_the_trace_file_holds_each_entry_as_it_stands() -> None:
    """Lines encoded when an entry was added are reused only while the entry is unchanged: the refusals counted on
    one entry and a full trace's count are written as they end."""
    import json
    import tempfile
    from pathlib import Path

    from orchestrator.episode.gateway import Trace
    from orchestrator.record import write_episode
    from orchestrator.run.runner import failed_result
    from orchestrator.scenario.model import load

    trace = Trace(max_entries=4)
    trace.add(source="gateway", wall="w", method="tools/call", params={"name": "a"}, result={"x": "y" * 5_000})
    for _ in range(3):
        trace.add_refused(source="gateway", wall="w", method="tools/call", params={"name": "b"}, result=None)
    for _ in range(5):
        trace.add(source="gateway", wall="w", method="tools/list", params={}, result=None)
    with tempfile.TemporaryDirectory() as out:
        result = failed_result(load(TRAVEL_PATH), "error", "a test record", {})
        write_episode(Path(out), result, trace.entries, [], trace.lines)
        lines = [json.loads(line) for line in (Path(out) / "trace.jsonl").read_text().splitlines()]
    assert lines == json.loads(json.dumps(trace.entries))
    assert lines[1]["refused_calls"] == 3 and lines[-1]["dropped"] == 3
    assert "5000 characters in all" in lines[0]["result"]["x"]


async def test_the_gateway_trace_stays_bounded_and_counts_refused_calls() -> None:
    """An agent hammering the gateway past its call limit, with huge arguments, leaves a small trace."""
    from mcp import Client

    from orchestrator.episode.gateway import Gateway
    from orchestrator.scenario.model import load
    from servers.core import build_mcp_server

    scenario = load(TRAVEL_PATH)
    scenario = scenario.model_copy(update={"limits": scenario.limits.model_copy(update={"max_tool_calls": 3})})
    app = registry.load("calendar")
    store = SandboxStore(app)
    store.create("default", scenario.sandbox_spec("calendar"))
    async with Client(build_mcp_server(app, store)) as upstream:
        gateway = Gateway(scenario, {"calendar": upstream})
        await gateway.load_tools()
        async with Client(gateway.server) as agent:
            padded = {"query": "x" * 400, "attendee": None}
            for _ in range(3):
                await agent.call_tool("calendar__search_events", padded)
            for _ in range(200):
                result = await agent.call_tool("calendar__search_events", {"query": "y" * 100_000})
                assert result.is_error and "Tool-call limit reached" in result.content[0].text
    store.close()
    calls = [e for e in gateway.trace.entries if e["method"] == "tools/call"]
    assert len(calls) == 4, "three calls within the limit, then one entry for all refused ones"
    assert calls[-1]["refused_calls"] == 200 and gateway.trace.refused == 200
    kept = calls[-1]["params"]["arguments"]["query"]
    assert len(kept) < STRING_LIMIT + 200 and "100000 characters in all, sha256" in kept
    assert calls[0]["params"]["arguments"]["query"] == "x" * 400


def test_a_full_trace_only_counts() -> None:
    from orchestrator.episode.gateway import Trace

    trace = Trace(max_entries=10)
    for i in range(1_000):
        trace.add(source="gateway", wall=f"2026-03-02T09:00:{i % 60:02d}", method="tools/list", params={}, result=None)
    assert len(trace.entries) == 11 and trace.entries[-1]["method"] == "trace/full"
    assert trace.entries[-1]["dropped"] == 990 == trace.dropped
