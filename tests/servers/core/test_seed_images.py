"""Sandboxes built from a cached seeded image are the same as ones seeded from scratch, and start fresh."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import structured
from mcp import Client

from servers.calendar import APP
from servers.core import FaultPlan, FaultRule, SandboxSpec, SandboxStore, build_mcp_server
from servers.core.images import SEED_IMAGES, SeedImages

SEED = {
    "events": [
        {
            "id": f"e{i}",
            "title": f"Event {i}",
            "start": f"2026-03-0{2 + i % 5}T1{i % 8}:00",
            "end": f"2026-03-0{2 + i % 5}T1{i % 8}:30",
        }
        for i in range(12)
    ]
}


def spec(**extra: Any) -> SandboxSpec:
    return SandboxSpec(seed=SEED, clock={"start": "2026-03-02T09:00:00+01:00"}, rng_seed=7, **extra)


def core_rows(sandbox, table: str) -> list[tuple]:
    return [tuple(r) for r in sandbox.db.execute(f"SELECT * FROM {table} ORDER BY rowid")]


def stored_spec(sandbox) -> dict[str, Any]:
    """The spec a sandbox stored: in memory, the seeded image's spec with the sandbox's own episode seed
    (`_meta.rng_seed`: an image of a seed that drew no ids serves any)."""
    meta = dict(core_rows(sandbox, "_meta"))
    return {**json.loads(meta["spec"]), "rng_seed": int(meta["rng_seed"])}


def no_reseeding(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> None:
        raise AssertionError("the seed was loaded again")

    monkeypatch.setattr(APP, "load_seed", refuse)
    monkeypatch.setattr(APP, "validate_seed", refuse)


async def calls(store: SandboxStore, sandbox_id: str) -> list[Any]:
    async with Client(build_mcp_server(APP, store), raise_exceptions=True) as client:
        from servers.core.mcp import bind_sandbox

        with bind_sandbox(sandbox_id):
            made = structured(await client.call_tool("create_event", {"title": "N", "start": "2026-03-04T10:00"}))
            moved = structured(await client.call_tool("update_event", {"event_id": "e3", "title": "moved"}))
            missing = (await client.call_tool("get_event", {"event_id": "nope"})).is_error
            return [made, moved, missing]


async def test_a_cached_sandbox_is_the_same_as_a_freshly_seeded_one(monkeypatch: pytest.MonkeyPatch) -> None:
    SEED_IMAGES.clear()
    fresh_store, cached_store = SandboxStore(APP), SandboxStore(APP)
    fresh = fresh_store.create("a", spec())
    assert len(SEED_IMAGES) == 1
    with monkeypatch.context() as m:
        no_reseeding(m)
        cached = cached_store.create("a", spec())
    assert cached.snapshot() == fresh.snapshot()
    assert cached.journal() == fresh.journal() == []
    for table in ("_counters", "_changes"):
        assert core_rows(cached, table) == core_rows(fresh, table)
    assert cached.now_iso() == fresh.now_iso()
    # The same calls give the same ids, results, journals and final state.
    assert await calls(cached_store, "a") == await calls(fresh_store, "a")
    strip = ("wall", "latency_ms")
    assert [{k: v for k, v in e.items() if k not in strip} for e in cached.journal()] == [
        {k: v for k, v in e.items() if k not in strip} for e in fresh.journal()
    ]
    assert [e["changes"] for e in cached.journal()][:2] != [[], []]  # the change-log triggers are there
    assert cached.snapshot() == fresh.snapshot()
    assert cached.new_id("evt") == fresh.new_id("evt")
    # A reset takes both back to the same seeded state.
    cached.reset()
    fresh.reset()
    assert cached.snapshot() == fresh.snapshot() and cached.journal() == []
    fresh_store.close()
    cached_store.close()


def test_a_cached_sandbox_starts_with_nothing_of_the_earlier_one(monkeypatch: pytest.MonkeyPatch) -> None:
    SEED_IMAGES.clear()
    store = SandboxStore(APP)
    first = store.create("first", spec(), secret="s3cret")
    first.set_faults(FaultPlan(rules=[FaultRule(tool="create_event", calls=[1], message="603 busy")]))
    with first.transaction():
        first.update("events", "e1", {"title": "changed"})
    first.record(tool="x", arguments={}, result=None, error=None, is_error=False, latency_ms=1, wall=first.now())
    first.clock.advance(600)
    first.set_clock(advance=0)
    with monkeypatch.context() as m:
        no_reseeding(m)
        second = store.create("second", spec())
    assert second.journal() == [] and core_rows(second, "_changes") == []
    assert second.faults == FaultPlan() and second.access["secret_sha256"] is None
    assert not second.admits("s3cret")
    assert second.now_iso() == "2026-03-02T09:00:00+01:00"
    assert [r["title"] for r in second.snapshot()["events"] if r["id"] == "e1"] == ["Event 1"]
    meta = {r[0]: r[1] for r in core_rows(second, "_meta")}
    assert "603 busy" not in meta["faults"] and "create_event" not in meta["faults"]
    assert second.clock.anchor >= first.clock.anchor
    assert f'"anchor": {second.clock.anchor}' in meta["clock"]
    store.close()


def test_only_equal_frozen_specs_share_an_image(monkeypatch: pytest.MonkeyPatch) -> None:
    SEED_IMAGES.clear()
    store = SandboxStore(APP)
    a = store.create("a", spec())
    assert len(SEED_IMAGES) == 1
    # A seed that draws no ids serves every episode seed; the ids drawn later still follow each one's own.
    other = SandboxSpec(seed=SEED, clock={"start": "2026-03-02T09:00:00+01:00"}, rng_seed=8)
    with monkeypatch.context() as m:
        no_reseeding(m)
        b = store.create("b", other)
    SEED_IMAGES.clear()
    fresh = SandboxStore(APP).create("b", other)
    assert stored_spec(b) == stored_spec(fresh)  # the spec, with its episode seed
    assert b.new_id("evt") == fresh.new_id("evt") != a.new_id("evt")
    b.reset()
    assert b.spec.rng_seed == 8 and stored_spec(b) == stored_spec(fresh)
    # A seed that drew ids (busy rows get generated ids) is kept for its own episode seed only.
    busy = {**SEED, "busy": [{"email": "x@y.test", "start": "2026-03-03T10:00", "end": "2026-03-03T11:00"}]}
    c = store.create("c", SandboxSpec(seed=busy, clock={"start": "2026-03-02T09:00:00+01:00"}, rng_seed=1))
    d = store.create("d", SandboxSpec(seed=busy, clock={"start": "2026-03-02T09:00:00+01:00"}, rng_seed=2))
    assert c.snapshot()["busy"][0]["id"] != d.snapshot()["busy"][0]["id"]
    assert len(SEED_IMAGES) == 3
    store.create("e", SandboxSpec(seed=SEED, clock={"start": "2026-03-02T09:00:00+01:00", "mode": "running"}))
    assert len(SEED_IMAGES) == 3  # a seed may stamp rows with a running clock's time: never shared
    store.close()


def test_the_cache_is_bounded_by_count_and_bytes() -> None:
    images = SeedImages(max_items=2, max_bytes=10)
    images.put(APP, "k1", b"1234")
    images.put(APP, "k2", b"5678")
    assert images.get(APP, "k1") == b"1234"  # now the most recently used
    images.put(APP, "k3", b"9")
    assert len(images) == 2 and images.get(APP, "k2") is None and images.get(APP, "k1") == b"1234"
    images.put(APP, "k4", b"abcdefgh")
    assert images.get(APP, "k1") is None and images.get(APP, "k4") == b"abcdefgh"
    images.put(APP, "big", b"x" * 11)
    assert images.get(APP, "big") is None


async def test_seeded_rows_are_decoded_once_per_image_and_a_snapshot_decodes_only_the_changed_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    SEED_IMAGES.clear()
    store = SandboxStore(APP)
    first = store.create("a", spec())
    seeded = first.snapshot()  # decoded from the database, then kept beside the image
    decoded = []
    original = type(APP.tables["events"]).frozen_rows

    def counted(self: Any, stored: Any) -> dict[int, Any]:
        rows = original(self, stored)
        decoded.extend(rows.values())
        return rows

    monkeypatch.setattr(type(APP.tables["events"]), "frozen_rows", counted)
    second = store.create("b", spec())
    again = second.snapshot()
    assert again == seeded and decoded == []  # read from the kept tables, nothing decoded
    await calls(store, "b")  # changes rows: the snapshot reads only them from the database
    after = second.snapshot()
    assert [row["title"] for row in decoded] == ["moved", "N"]  # the moved event and the new one
    assert any(e["title"] == "moved" for e in after["events"]) and len(after["events"]) == len(seeded["events"]) + 1
    monkeypatch.undo()
    assert first.snapshot() == seeded  # the untouched sandbox still reads the seeded rows
    second.reset()
    assert second.snapshot() == seeded  # back to the seeded state: the kept rows again


def test_decoded_rows_are_kept_only_with_their_image() -> None:
    images = SeedImages(max_items=1)
    images.put(APP, "a", b"image a")
    images.put_decoded(APP, "a", {"events": {}})
    images.put_decoded(APP, "b", {"events": {}})  # no image b kept: its rows are not kept either
    assert images.decoded(APP, "a") == {"events": {}} and images.decoded(APP, "b") is None
    images.put(APP, "b", b"image b")  # a's image goes (one kept), and its rows with it
    assert images.get(APP, "a") is None and images.decoded(APP, "a") is None
