"""Reset by rollback: an in-memory sandbox seeded with a frozen clock is put back to its seeded state by undoing what
its episode changed (`Sandbox.restore_seeded`), on `reset` and when it is deleted (then parked, warm, for the next
sandbox of its spec: `WarmDatabases`). Whatever the episode did, the result is the sandbox a fresh seed makes: the
same tables (rows, values and rowids), journal, change log, id counters and metadata, the same ids drawn after, and
the clock, faults and the rest of its Python-side state as new."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from helpers import structured
from mcp import Client
from test_empty_databases import comparable, delete, seed
from test_seed_images import core_rows, no_reseeding

from servers.calendar import APP
from servers.core import FaultPlan, FaultRule, SandboxSpec, SandboxStore, build_mcp_server
from servers.core import sandbox as sandbox_module
from servers.core.images import EMPTY_DATABASES, SEED_IMAGES, WARM_DATABASES
from servers.core.mcp import bind_sandbox
from servers.core.world import WorldChange
from servers.core.world import apply as apply_world

CLOCK = {"start": "2026-03-02T09:00:00+01:00"}


@pytest.fixture(autouse=True)
def cold(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts with nothing kept: no image, no parked or emptied database; and a database seeded for one
    episode seed is parked however small (the last test: only a large one, by default)."""
    monkeypatch.setattr(sandbox_module, "PARK_MIN_BYTES", 0)
    SEED_IMAGES.clear()
    WARM_DATABASES.clear()
    EMPTY_DATABASES.clear()


def spec(rng_seed: int = 1, title: str = "Old", busy: bool = True) -> SandboxSpec:
    data = seed(12, title)
    if not busy:
        del data["busy"]  # then the seed draws no id, and its image serves every episode seed
    return SandboxSpec(seed=data, clock=CLOCK, rng_seed=rng_seed)


def full(sandbox) -> dict[str, Any]:
    """`comparable`, and the whole metadata but the sandbox's access (given to each sandbox) and its clock anchor
    (the wall time it started at)."""
    out = comparable(sandbox)
    meta = dict(core_rows(sandbox, "_meta"))
    meta.pop("access", None)
    # In memory the stored spec is the seeded image's, whose episode seed may be another (a seed that drew no ids
    # serves any); the sandbox's own is `rng_seed`.
    out["spec"] = meta["spec"] = {k: v for k, v in json.loads(meta["spec"]).items() if k != "rng_seed"}
    meta["clock"] = meta["clock"].split('"anchor"')[0]
    out["meta"] = meta
    out["undo"] = {t: core_rows(sandbox, f"_undo_{t}") for t in APP.tables}
    return out


async def episode(store: SandboxStore, sandbox_id: str) -> list[Any]:
    """An episode that changes everything a sandbox holds: rows added (ids drawn), changed, deleted (the last
    seeded row too, whose rowid a new row then takes), a row deleted and made again under its key, a world event,
    a failed call, the clock moved, a fault plan and its open windows, the clock following calls."""
    sandbox = store.get(sandbox_id)
    async with Client(build_mcp_server(APP, store), raise_exceptions=True) as client:
        with bind_sandbox(sandbox_id):
            out = [structured(await client.call_tool("delete_event", {"event_id": "e11"}))]
            out.append(structured(await client.call_tool("create_event", {"title": "N", "start": "2026-03-04T10:00"})))
            out.append(structured(await client.call_tool("update_event", {"event_id": "e3", "title": "moved"})))
            out.append(structured(await client.call_tool("update_event", {"event_id": "e3", "title": "again"})))
            out.append(structured(await client.call_tool("create_event", {"title": "M", "start": "2026-03-05T10:00"})))
            out.append((await client.call_tool("get_event", {"event_id": "nope"})).is_error)
    with sandbox.transaction():
        old = sandbox.require("events", "e1")
        sandbox.delete("events", "e1")
        sandbox.insert("events", {**old, "title": "made again"})
        sandbox.new_id("evt")
    apply_world(
        sandbox,
        WorldChange(
            event="a colleague's update", update=[{"table": "events", "key": "e2", "set": {"title": "theirs"}}]
        ),
    )
    sandbox.set_clock(advance=3600)
    sandbox.set_faults(FaultPlan(rules=[FaultRule(kind="rate_limit", tool="list_events", calls=[1], retry_after_s=60)]))
    sandbox.fault_state.down = object()  # type: ignore[assignment]  # an open window
    sandbox.set_follow_clock(True)
    rowids = [r[0] for r in sandbox.db.execute("SELECT rowid FROM events WHERE id LIKE 'evt%' ORDER BY rowid")]
    assert rowids == [12, 13] and sandbox.get("events", "e11") is None  # the first took the deleted e11's rowid
    assert sandbox.db.execute("SELECT rowid FROM events WHERE id = 'e1'").fetchone()[0] == 14
    return out


async def test_a_reset_rolls_back_to_exactly_what_a_fresh_seed_makes() -> None:
    store = SandboxStore(APP)
    sandbox = store.create("a", spec())
    seeded = full(sandbox)
    first = await episode(store, "a")
    assert full(sandbox) != seeded
    image = sandbox._image
    sandbox.reset()
    assert sandbox._image is image and sandbox._reusable  # rolled back, not copied from the image
    after = full(sandbox)
    # A reset keeps the fault plan and following the clock (below): the rest of the metadata is as seeded.
    assert {k: v for k, v in after.pop("meta").items() if k in ("spec", "clock")} == {
        k: v for k, v in seeded["meta"].items() if k in ("spec", "clock")
    }
    assert after == {k: v for k, v in seeded.items() if k != "meta"}
    assert sandbox.now_iso() == "2026-03-02T09:00:00+01:00" and sandbox.fault_state.down is None
    # A reset keeps the fault plan, the access and following the clock, as a reset always did.
    assert sandbox.faults.rules and sandbox.follows_clock

    SEED_IMAGES.clear()
    fresh_store = SandboxStore(APP)
    fresh = fresh_store.create("a", spec())
    assert full(fresh) == seeded
    fresh.set_faults(sandbox.faults)
    fresh.set_follow_clock(True)
    # The same episode again: the same results, ids, journal, change log and final state as on a fresh seed.
    assert await episode(store, "a") == await episode(fresh_store, "a") == first
    assert sandbox.journal() and full(sandbox) == full(fresh)


async def test_a_deleted_sandbox_is_parked_and_the_next_of_its_spec_starts_from_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = SandboxStore(APP)
    first = store.create("first", spec())
    seeded = full(first)
    used = first.db
    results = await episode(store, "first")
    await delete(store, "first")
    assert len(WARM_DATABASES) == 1
    with pytest.raises(sqlite3.ProgrammingError):  # the deleted sandbox cannot reach its database any more
        first.db.execute("SELECT 1")
    with monkeypatch.context() as m:
        no_reseeding(m)
        m.setattr(SEED_IMAGES, "get", lambda *a: pytest.fail("the image was copied"))
        second = store.create("second", spec())
    assert second.db is used and len(WARM_DATABASES) == 0
    assert second.id == "second" and second.access["generation"] != first.access["generation"]
    # Python-side state as new: the default fault plan, no open window, the clock at its start, not following calls.
    assert second.faults == FaultPlan() and second.fault_state.down is None and not second.follows_clock
    assert second.now_iso() == "2026-03-02T09:00:00+01:00"
    assert full(second) == seeded
    assert await episode(store, "second") == results

    # Another spec does not take it.
    await delete(store, "second")
    other = store.create("other", spec(title="New"))
    assert other.db is not used and len(WARM_DATABASES) == 1


async def test_a_parked_seed_without_drawn_ids_serves_another_episode_seed_as_its_fresh_seed() -> None:
    store = SandboxStore(APP)
    store.create("a", spec(rng_seed=1, busy=False))
    await episode(store, "a")
    await delete(store, "a")
    warm = store.create("b", spec(rng_seed=2, busy=False))
    assert len(WARM_DATABASES) == 0
    SEED_IMAGES.clear()
    fresh_store = SandboxStore(APP)
    fresh = fresh_store.create("b", spec(rng_seed=2, busy=False))
    assert full(warm) == full(fresh)
    assert warm.spec.rng_seed == 2 and dict(core_rows(warm, "_meta"))["rng_seed"] == "2"
    assert await episode(store, "b") == await episode(fresh_store, "b")  # ids drawn from episode seed 2
    assert full(warm) == full(fresh)
    # Parked again, it is rolled back to its own spec's metadata.
    await delete(store, "b")
    again = store.create("c", spec(rng_seed=2, busy=False))
    assert dict(core_rows(again, "_meta"))["rng_seed"] == "2"


async def test_parking_is_bounded_per_spec_and_by_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    store = SandboxStore(APP)
    monkeypatch.setattr(WARM_DATABASES, "per_key", 2)
    for name in ("a", "b", "c"):
        store.create(name, spec())
    for name in ("a", "b", "c"):
        await delete(store, name)
    assert len(WARM_DATABASES) == 2  # the third went to the app's emptied connections
    monkeypatch.setattr(WARM_DATABASES, "max_bytes", 1)
    store.create("d", spec(title="New"))
    await delete(store, "d")
    assert len(WARM_DATABASES) == 2  # too large to keep


def test_a_sandbox_on_disk_or_with_a_running_clock_is_reset_from_its_image(tmp_path) -> None:
    running = SandboxStore(APP).create("r", SandboxSpec(seed=seed(3, "A"), clock={**CLOCK, "mode": "running"}))
    durable = SandboxStore(APP, tmp_path).create("d", spec())
    for sandbox in (running, durable):
        assert sandbox._seeded_state is None
        with sandbox.transaction():
            sandbox.delete("events", "e1")
        sandbox.reset()
        assert sandbox.get("events", "e1") is not None


async def test_a_small_database_of_one_episode_seed_is_emptied_for_the_next_sandbox_not_parked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Parked, it would serve only a later episode of its own seed, which `--repeat` never runs: a small one is
    emptied for the app's next sandbox instead (`EmptyDatabases`); one whose seed drew no ids is parked."""
    monkeypatch.setattr(sandbox_module, "PARK_MIN_BYTES", 512 * 1024)
    store = SandboxStore(APP)
    first = store.create("a", spec())  # its busy rows draw ids
    used = first.db
    await delete(store, "a")
    assert len(WARM_DATABASES) == 0 and store.create("b", spec(rng_seed=2, title="New")).db is used
    store.create("c", spec(busy=False))
    await delete(store, "c")
    assert len(WARM_DATABASES) == 1
