"""Snapshots hand out rows of their own on every path: a sandbox still as seeded from a kept image, one whose rows
changed, and the first sandbox of an image (whose decoded rows are kept beside the image)."""

from __future__ import annotations

from typing import Any

from test_seed_images import calls, spec

from servers.calendar import APP
from servers.core import SandboxStore
from servers.core.images import SEED_IMAGES


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


async def test_each_snapshot_caller_owns_its_rows_all_the_way_down() -> None:
    SEED_IMAGES.clear()
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
