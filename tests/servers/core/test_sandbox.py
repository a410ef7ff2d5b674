"""Sandboxes: seeding, reset exactness, snapshots, durability, clock, ids, faults."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
import tiny
from helpers import error_text, in_memory, structured
from mcp import Client

from servers.calendar import APP
from servers.core import FaultPlan, FaultRule, SandboxSpec, SandboxStore, build_mcp_server
from servers.core.mcp import bind_sandbox
from servers.core.store import UnknownSandbox

SEED = {
    "events": [
        {
            "id": f"e{i}",
            "title": f"Event {i}",
            "start": f"2026-03-0{2 + i % 5}T1{i % 8}:00",
            "end": f"2026-03-0{2 + i % 5}T1{i % 8}:30",
        }
        for i in range(20)
    ]
}
SPEC = SandboxSpec(seed=SEED, clock={"start": "2026-03-02T09:00:00+01:00"})


def mutate(sandbox) -> None:
    with sandbox.transaction():
        sandbox.update("events", "e1", {"title": "changed"})
        sandbox.delete("events", "e2")
        sandbox.insert(
            "events",
            {
                "id": sandbox.new_id("evt"),
                "calendar_id": "primary",
                "title": "new",
                "start": "2026-03-05T10:00:00+01:00",
                "end": "2026-03-05T11:00:00+01:00",
                "timezone": "Europe/Berlin",
                "organizer": "a@b.test",
                "created_at": sandbox.now_iso(),
                "updated_at": sandbox.now_iso(),
            },
        )


@pytest.mark.parametrize("durable", [False, True], ids=["memory", "disk"])
def test_reset_restores_the_seeded_snapshot_exactly(tmp_path: Path, durable: bool) -> None:
    store = SandboxStore(APP, tmp_path if durable else None)
    sandbox = store.create("s1", SPEC)
    seeded = sandbox.snapshot()
    first_id = sandbox.new_id("evt")
    mutate(sandbox)
    sandbox.record(tool="x", arguments={}, result=None, error="e", is_error=True, latency_ms=1, wall=sandbox.now())
    sandbox.clock.advance(3600)
    assert sandbox.snapshot() != seeded
    sandbox.reset()
    assert sandbox.snapshot() == seeded
    assert sandbox.journal() == []
    assert sandbox.now_iso() == "2026-03-02T09:00:00+01:00"
    # Id generation restarts too: the same calls after a reset give the same ids.
    assert sandbox.new_id("evt") == first_id
    store.close()


def test_snapshot_is_stable_json_with_decoded_columns() -> None:
    store = SandboxStore(APP)
    snap = store.create("a", SPEC).snapshot()
    assert list(snap) == ["calendars", "events", "people", "busy"]
    assert [e["id"] for e in snap["events"]] == [f"e{i}" for i in range(20)]
    assert snap["events"][0]["attendees"] == [] and snap["events"][0]["all_day"] is False
    assert snap == store.create("b", SPEC).snapshot()


def test_ids_depend_on_the_episode_seed() -> None:
    store = SandboxStore(APP)
    a = store.create("a", SandboxSpec(rng_seed=1))
    b = store.create("b", SandboxSpec(rng_seed=1))
    c = store.create("c", SandboxSpec(rng_seed=2))
    ids_a = [a.new_id("evt") for _ in range(3)]
    assert ids_a == [b.new_id("evt") for _ in range(3)]
    assert ids_a != [c.new_id("evt") for _ in range(3)]
    assert len(set(ids_a)) == 3


def test_disk_sandboxes_survive_a_new_store(tmp_path: Path) -> None:
    store = SandboxStore(APP, tmp_path)
    sandbox = store.create("keep", SPEC)
    seeded = sandbox.snapshot()
    mutate(sandbox)
    sandbox.clock.advance(60)
    sandbox.set_clock()
    changed = sandbox.snapshot()
    store.close()

    reopened = SandboxStore(APP, tmp_path)
    again = reopened.get("keep")
    assert again.snapshot() == changed
    assert again.now_iso() == "2026-03-02T09:01:00+01:00"
    again.reset()
    assert again.snapshot() == seeded
    reopened.delete("keep")
    assert not (tmp_path / "keep").exists()
    assert SandboxStore(APP, tmp_path).sandboxes == {}


def test_store_refuses_duplicates_bad_ids_and_unknown_sandboxes() -> None:
    store = SandboxStore(APP)
    store.create("one", SandboxSpec())
    with pytest.raises(FileExistsError):
        store.create("one", SandboxSpec())
    store.create("one", SPEC, replace=True)
    assert store.get("one").size() == 21
    with pytest.raises(ValueError, match="invalid sandbox id"):
        store.create("../etc", SandboxSpec())
    with pytest.raises(UnknownSandbox, match="no sandbox with id 'two'"):
        store.get("two")


def test_running_clock_moves_and_frozen_clock_does_not() -> None:
    store = SandboxStore(APP)
    frozen = store.create("f", SandboxSpec(clock={"start": "2026-03-02T09:00:00Z", "mode": "frozen"}))
    running = store.create("r", SandboxSpec(clock={"start": "2026-03-02T09:00:00Z", "mode": "running"}))
    running.clock.anchor -= 90  # as if 90 s of wall time had passed
    assert frozen.now_iso() == "2026-03-02T09:00:00+00:00"
    assert running.now() - frozen.now() >= timedelta(seconds=90)


async def test_tool_writes_use_the_sandbox_clock_and_calls_are_journaled() -> None:
    async with in_memory(APP, clock={"start": "2031-07-01T08:00:00+00:00"}) as (client, sandbox):
        event = structured(await client.call_tool("create_event", {"title": "A", "start": "2031-07-02T10:00"}))
        assert event["created_at"] == "2031-07-01T08:00:00+00:00"
        error_text(await client.call_tool("get_event", {"event_id": "missing"}))
        error_text(await client.call_tool("no_such_tool", {}))
        journal = sandbox.journal()
        assert [(j["seq"], j["tool"], j["is_error"]) for j in journal] == [
            (1, "create_event", False),
            (2, "get_event", True),
            (3, "no_such_tool", True),
        ]
        assert journal[0]["arguments"] == {"title": "A", "start": "2031-07-02T10:00"}
        assert journal[0]["result"]["id"] == event["id"]
        assert journal[0]["clock"] == "2031-07-01T08:00:00+00:00"
        assert "No event with id 'missing'" in journal[1]["error"]
        assert all(j["latency_ms"] >= 0 for j in journal)
        assert sandbox.journal(after=2)[0]["seq"] == 3


async def test_fault_plans_fail_chosen_calls_and_are_journaled() -> None:
    async with in_memory(APP) as (client, sandbox):
        sandbox.set_faults(FaultPlan(rules=[FaultRule(tool="create_event", calls=[1], message="503 try again")]))
        assert (
            error_text(await client.call_tool("create_event", {"title": "A", "start": "2026-03-03T10:00"}))
            == "503 try again"
        )
        assert sandbox.snapshot()["events"] == []
        structured(await client.call_tool("create_event", {"title": "A", "start": "2026-03-03T10:00"}))
        journal = sandbox.journal()
        assert journal[0]["fault"]["message"] == "503 try again" and journal[0]["is_error"]
        assert journal[1]["fault"] is None and not journal[1]["is_error"]
        assert len(sandbox.snapshot()["events"]) == 1


def test_probabilistic_faults_are_reproducible_from_the_seed() -> None:
    plan = FaultPlan(rules=[FaultRule(tool="*", probability=0.3)])
    draws = [plan.draw("list_events", n, rng_seed=7) is not None for n in range(1, 201)]
    assert draws == [plan.draw("list_events", n, rng_seed=7) is not None for n in range(1, 201)]
    assert draws != [plan.draw("list_events", n, rng_seed=8) is not None for n in range(1, 201)]
    assert 30 < sum(draws) < 90
    with pytest.raises(ValueError, match="needs `calls`"):
        FaultRule(tool="x")


async def test_a_failing_tool_rolls_back_its_partial_writes() -> None:
    async with in_memory(tiny.APP, {"notes": [{"text": "seeded", "tags": ["a"]}]}) as (client, sandbox):
        before = sandbox.snapshot()
        assert before["notes"][0]["tags"] == ["a"] and before["notes"][0]["pinned"] is False
        result = await client.call_tool("add_note", {"text": "half", "fail_after_write": True})
        assert error_text(result) == "failed after writing"
        assert sandbox.snapshot() == before
        structured(await client.call_tool("add_note", {"text": "whole", "tags": ["b"]}))
        assert [n["text"] for n in sandbox.snapshot()["notes"]] == ["seeded", "whole"]


async def test_unknown_arguments_are_errors_not_silently_dropped() -> None:
    async with in_memory(tiny.APP) as (client, sandbox):
        refused = error_text(await client.call_tool("add_note", {"text": "x", "colour": "red"}))
        assert refused == "add_note does not take 'colour'. Its arguments are: text, tags, fail_after_write."
        assert sandbox.snapshot()["notes"] == []
        assert sandbox.journal()[0]["is_error"] is True


async def test_one_server_serves_many_sandboxes_in_process() -> None:
    store = SandboxStore(tiny.APP)
    for name in ("left", "right"):
        store.create(name, SandboxSpec())
    server = build_mcp_server(tiny.APP, store)
    async with Client(server) as client:
        for name in ("left", "right", "left"):
            with bind_sandbox(name):
                structured(await client.call_tool("add_note", {"text": name}))
    assert [n["text"] for n in store.get("left").snapshot()["notes"]] == ["left", "left"]
    assert [n["text"] for n in store.get("right").snapshot()["notes"]] == ["right"]
