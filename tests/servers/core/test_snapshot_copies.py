"""Snapshots hand out rows of their own, copied whole per table rather than row by row, on every path: a sandbox
still as seeded from a kept image, one whose rows changed, and the first sandbox of an image (whose rows are kept)."""

from __future__ import annotations

from typing import Any

import pytest
from test_seed_images import calls, spec

from servers.calendar import APP
from servers.core import SandboxStore
from servers.core.images import SEED_IMAGES
from servers.core.schema import Table


def shares_nothing(a: Any, b: Any) -> bool:
    """Whether no list or dict of `a` is an object of `b` (the two are equal but apart all the way down)."""
    seen: set[int] = set()

    def mutable(value: Any) -> None:
        if isinstance(value, (list, dict)):
            seen.add(id(value))
            for item in value.values() if isinstance(value, dict) else value:
                mutable(item)

    mutable(b)
    found = []

    def look(value: Any) -> None:
        if isinstance(value, (list, dict)):
            found.append(id(value) in seen)
            for item in value.values() if isinstance(value, dict) else value:
                look(item)

    look(a)
    return not any(found)


def test_copy_rows_equals_copy_row_by_row_and_shares_nothing() -> None:
    table = APP.tables["events"]
    assert table.json_columns  # attendees and the like: the whole-table copy
    rows = [
        {"id": "e1", "title": "T", "attendees": [{"email": "a@example.test", "tags": ["x"]}], "all_day": True},
        {"id": "e2", "title": "U", "attendees": [], "all_day": False, "note": None, "n": 1.5},
    ]
    copied = table.copy_rows(rows)
    assert copied == [table.copy(row) for row in rows] and shares_nothing(copied, rows)
    assert [type(v) for r in copied for v in r.values()] == [type(v) for r in rows for v in r.values()]
    plain = Table(name="plain", columns=("id", "n"), key="id")
    flat = [{"id": "a", "n": 1}]
    again = plain.copy_rows(flat)
    assert again == flat and again[0] is not flat[0]


async def test_no_snapshot_copies_rows_one_by_one_and_each_caller_owns_its_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    SEED_IMAGES.clear()
    one_by_one: list[Any] = []
    original = Table.copy

    def counted(self: Table, row: Any) -> dict[str, Any]:
        one_by_one.append(row)
        return original(self, row)

    monkeypatch.setattr(Table, "copy", counted)
    store = SandboxStore(APP)
    first = store.create("a", spec())
    seeded = first.snapshot()  # decoded and kept beside the image
    seeded["events"][0]["attendees"].append({"email": "first@example.test"})  # the kept rows are not the caller's
    second = store.create("b", spec())
    pristine = second.snapshot()  # the kept rows, copied
    assert pristine["events"][0]["attendees"] != seeded["events"][0]["attendees"]
    kept = SEED_IMAGES.decoded(APP, second.seed_key)
    assert kept is not None and shares_nothing(pristine, kept)
    await calls(store, "b")
    changed = second.snapshot()  # mostly kept rows, some decoded again
    assert shares_nothing(changed, kept)
    changed["events"][0]["attendees"].append({"email": "second@example.test"})
    changed["events"][0]["title"] = "changed by a caller"
    assert second.snapshot()["events"][0] == pristine["events"][0]
    assert store.create("c", spec()).snapshot() == pristine
    assert one_by_one == []
