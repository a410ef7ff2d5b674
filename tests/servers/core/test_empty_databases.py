"""A sandbox seeded on a connection another sandbox used (`EmptyDatabases`) is the same as one on a new
connection, finds nothing of the earlier sandbox, and the earlier sandbox cannot reach it."""

from __future__ import annotations

import os
import sqlite3
from typing import Any

import pytest
from test_seed_images import calls, core_rows

from servers.calendar import APP
from servers.core import SandboxSpec, SandboxStore
from servers.core.images import EMPTY_DATABASES, SEED_IMAGES, WARM_DATABASES, EmptyDatabases


@pytest.fixture(autouse=True)
def nothing_parked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The way a deleted sandbox's connection takes when it is not parked for its own spec (`WarmDatabases`, see
    test_rollback.py): emptied for the app's next sandbox."""
    WARM_DATABASES.clear()
    monkeypatch.setattr(WARM_DATABASES, "per_key", 0)


CLOCK = {"start": "2026-03-02T09:00:00+01:00"}
BUSY = [{"email": "x@y.test", "start": "2026-03-03T10:00", "end": "2026-03-03T11:00"}]  # rows with generated ids


def seed(n: int, title: str) -> dict[str, Any]:
    events = [
        {
            "id": f"e{i}",
            "title": f"{title} {i}",
            "start": f"2026-03-0{2 + i % 5}T1{i % 8}:00",
            "end": f"2026-03-0{2 + i % 5}T1{i % 8}:30",
        }
        for i in range(n)
    ]
    return {"events": events, "busy": BUSY}


def comparable(sandbox) -> dict[str, Any]:
    """What a sandbox holds, less the wall-clock fields of its journal."""
    strip = ("wall", "latency_ms")
    return {
        "tables": sandbox.snapshot(),
        "journal": [{k: v for k, v in e.items() if k not in strip} for e in sandbox.journal()],
        "changes": core_rows(sandbox, "_changes"),
        "counters": core_rows(sandbox, "_counters"),
        "spec": core_rows(sandbox, "_meta")[0],
        "rowids": {
            t: [r[0] for r in sandbox.db.execute(f'SELECT rowid FROM "{t}" ORDER BY rowid')] for t in APP.tables
        },
    }


async def delete(store: SandboxStore, sandbox_id: str) -> None:
    async with store.locked(sandbox_id):  # as the admin plane deletes one: no call is in flight
        store.delete(sandbox_id)


async def test_a_sandbox_on_a_used_connection_is_the_same_as_one_on_a_new_connection() -> None:
    EMPTY_DATABASES.clear()
    SEED_IMAGES.clear()
    store = SandboxStore(APP)
    first = store.create("first", SandboxSpec(seed=seed(12, "Old"), clock=CLOCK, rng_seed=1))
    await calls(store, "first")
    with first.transaction():
        first.delete("events", "e1")
    assert core_rows(first, "_changes") and core_rows(first, "_counters") and first.journal()
    used = first.db
    await delete(store, "first")

    spec = SandboxSpec(seed=seed(5, "New"), clock=CLOCK, rng_seed=2)
    reused = store.create("second", spec)
    assert reused.db is used  # the first sandbox's connection, emptied
    SEED_IMAGES.clear()
    EMPTY_DATABASES.clear()
    new_store = SandboxStore(APP)
    new = new_store.create("second", spec)
    assert new.db is not used
    assert comparable(reused) == comparable(new)
    assert not any("Old" in str(row) for rows in reused.snapshot().values() for row in rows)
    assert await calls(store, "second") == await calls(new_store, "second")
    for sandbox in (reused, new):
        with sandbox.transaction():
            sandbox.delete("events", "e1")
    assert comparable(reused) == comparable(new)
    assert reused.new_id("evt") == new.new_id("evt")
    store.close()
    new_store.close()


async def test_a_deleted_sandbox_cannot_reach_the_one_that_has_its_connection_now() -> None:
    EMPTY_DATABASES.clear()
    store = SandboxStore(APP)
    old = store.create("old", SandboxSpec(seed=seed(3, "Old"), clock=CLOCK))
    await delete(store, "old")
    new = store.create("new", SandboxSpec(seed=seed(3, "New"), clock=CLOCK))
    with pytest.raises(sqlite3.ProgrammingError, match="closed database"):
        old.insert("events", {"id": "x", "title": "leak", "start": "2026-03-02T10:00", "end": "2026-03-02T11:00"})
    with pytest.raises(sqlite3.ProgrammingError):
        old.snapshot()
    assert [r["title"] for r in new.snapshot()["events"]] == ["New 0", "New 1", "New 2"]
    store.close()


async def test_only_a_connection_nothing_else_may_use_is_kept() -> None:
    EMPTY_DATABASES.clear()
    store = SandboxStore(APP)
    spec = SandboxSpec(seed=seed(3, "A"), clock=CLOCK)
    # Replaced while a call might still use it, closed with the store, or reset over compiled statements: closed.
    replaced = store.create("a", spec)
    conns = [replaced.db]
    store.create("a", spec, replace=True)
    # (a running clock: reset by copying its image; one seeded with a frozen clock is rolled back, test_rollback.py)
    reset = store.create("b", SandboxSpec(seed=seed(3, "A"), clock={**CLOCK, "mode": "running"}))
    conns.append(reset.db)
    reset.reset()
    await delete(store, "b")
    conns.append(store.create("c", spec).db)
    store.close()
    for conn in conns:
        with pytest.raises(sqlite3.ProgrammingError, match="closed database"):
            conn.execute("SELECT 1")
    taken = EMPTY_DATABASES.take(APP)
    assert all(taken is not conn for conn in conns)
    # Deleted, against the store's rule, while a heavy call runs in a worker thread: closed, not handed on.
    store = SandboxStore(APP)
    busy = store.create("d", spec)
    conn = busy.db
    busy.in_threads = 1
    store.delete("d")
    with pytest.raises(sqlite3.ProgrammingError, match="closed database"):
        conn.execute("SELECT 1")


def test_the_kept_connections_are_bounded_per_app_and_by_size() -> None:
    pool = EmptyDatabases(SEED_IMAGES, per_app=2, max_bytes=256 * 1024)
    conns = [pool.take(APP) for _ in range(4)]
    assert len({id(c) for c in conns}) == 4  # nothing kept yet: four new ones
    big = conns[3]
    big.execute("CREATE TABLE filler (x)")
    big.execute("INSERT INTO filler VALUES (zeroblob(400000))")  # a sandbox that grew past the bound
    pool.give(APP, big)
    for conn in conns[:3]:
        pool.give(APP, conn)
    for closed in (big, conns[2]):  # too large, and one past the two kept
        with pytest.raises(sqlite3.ProgrammingError):
            closed.execute("SELECT 1")
    taken = [pool.take(APP) for _ in range(3)]
    assert {id(c) for c in taken[:2]} == {id(conns[0]), id(conns[1])}
    assert all(c is not taken[2] for c in conns)
    assert taken[0].execute("SELECT count(*) FROM events").fetchone()[0] == 0


def test_a_forked_child_does_not_take_its_parents_connections() -> None:
    EMPTY_DATABASES.clear()
    store = SandboxStore(APP)
    sandbox = store.create("a", SandboxSpec(seed=seed(2, "A"), clock=CLOCK))
    parents = sandbox.db
    sandbox.close(reuse=True)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through its exit code
        os._exit(0 if EMPTY_DATABASES.take(APP) is not parents else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert EMPTY_DATABASES.take(APP) is parents
