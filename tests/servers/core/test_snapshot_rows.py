"""Snapshots share their rows instead of copying them, and no reader can change what another reads: every row is
read-only all the way down, on every path (the first sandbox of an image, whose rows are kept beside it; a sandbox
still as seeded; one whose rows changed; one reset; one on disk). A snapshot after changes reads only the changed
rows and equals a full read of the tables."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from test_seed_images import calls, spec

from servers.calendar import APP
from servers.core import App, Sandbox, SandboxSpec, SandboxStore, Toolset
from servers.core.images import SEED_IMAGES
from servers.core.schema import Table, _json


def full_read(sandbox: Sandbox) -> dict[str, list[dict[str, Any]]]:
    """Every table decoded from the database as tools read rows: plain dicts, nothing kept."""
    return {
        name: [table.decode(r) for r in sandbox.db.execute(f'SELECT * FROM "{name}" ORDER BY rowid')]
        for name, table in sandbox.app.tables.items()
    }


def refuses_every_change(snapshot: dict[str, list[dict[str, Any]]]) -> None:
    """Each way of changing a row, or a list or object in one, raises; the row stays as it was."""
    event = next(e for e in snapshot["events"] if e["attendees"])
    before = copy.deepcopy(event)
    attendees, attendee = event["attendees"], event["attendees"][0]
    changes = [
        lambda: event.__setitem__("title", "changed"),
        lambda: event.__delitem__("title"),
        lambda: event.update(title="changed"),
        lambda: event.pop("title"),
        lambda: event.popitem(),
        lambda: event.setdefault("new", 1),
        lambda: event.clear(),
        lambda: event.__ior__({"title": "changed"}),
        lambda: attendees.append({"email": "x@example.test"}),
        lambda: attendees.extend([1]),
        lambda: attendees.insert(0, 1),
        lambda: attendees.remove(attendee),
        lambda: attendees.pop(),
        lambda: attendees.clear(),
        lambda: attendees.sort(key=str),
        lambda: attendees.reverse(),
        lambda: attendees.__setitem__(0, 1),
        lambda: attendees.__delitem__(0),
        lambda: attendees.__iadd__([1]),
        lambda: attendees.__imul__(2),
        lambda: attendee.__setitem__("email", "x@example.test"),
    ]
    for change in changes:
        with pytest.raises(TypeError, match="read-only"):
            change()
    assert event == before


def seed_with_attendees() -> SandboxSpec:
    data = spec().model_dump(mode="json")
    data["seed"]["events"][0]["attendees"] = [{"email": "a@example.test"}, {"email": "b@example.test"}]
    return SandboxSpec.model_validate(data)


async def test_no_snapshot_reader_can_change_the_rows_another_reads(tmp_path: Path) -> None:
    SEED_IMAGES.clear()
    store = SandboxStore(APP)
    first = store.create("a", seed_with_attendees())
    seeded = first.snapshot()  # decoded from the database and kept beside the image
    refuses_every_change(seeded)
    second = store.create("b", seed_with_attendees())
    pristine = second.snapshot()  # the kept rows
    assert pristine == seeded and pristine["events"][0] is seeded["events"][0]  # shared, not copied
    refuses_every_change(pristine)
    await calls(store, "b")
    changed = second.snapshot()  # the kept rows beside the changed ones
    assert changed == full_read(second)
    refuses_every_change(changed)
    second.reset()
    refuses_every_change(second.snapshot())
    on_disk = SandboxStore(APP, data_dir=tmp_path).create("c", seed_with_attendees())
    refuses_every_change(on_disk.snapshot())
    assert on_disk.snapshot() == seeded == full_read(first)


def test_a_snapshot_row_is_a_dict_to_every_reader_and_copies_of_it_are_the_reader_s() -> None:
    SEED_IMAGES.clear()
    snapshot = SandboxStore(APP).create("a", seed_with_attendees()).snapshot()
    event = snapshot["events"][0]
    plain = json.loads(json.dumps(event))
    assert event == plain and isinstance(event, dict) and isinstance(event["attendees"], list)
    assert json.dumps(snapshot) == json.dumps(json.loads(json.dumps(snapshot)))
    mine = copy.deepcopy(event)  # a plain copy all the way down, the caller's to change
    mine["attendees"].append({"email": "mine@example.test"})
    mine["attendees"][0]["email"] = "changed@example.test"
    assert type(mine) is dict and event == plain
    shallow = dict(event) | {"title": "changed"}
    assert shallow["title"] == "changed" and event["title"] == plain["title"]
    again = pickle.loads(pickle.dumps(snapshot))  # another process's rows: equal, and read-only too
    assert again == snapshot
    refuses_every_change(again)


async def test_a_changed_sandbox_decodes_only_the_rows_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    SEED_IMAGES.clear()
    store = SandboxStore(APP)
    seeded = store.create("a", spec()).snapshot()
    sandbox = store.create("b", spec())
    decoded: list[dict[str, Any]] = []
    original = Table.frozen_rows

    def counted(self: Table, stored: Any) -> Any:
        rows = original(self, stored)
        decoded.extend(rows.values())
        return rows

    monkeypatch.setattr(Table, "frozen_rows", counted)
    assert sandbox.snapshot() == seeded and decoded == []
    await calls(store, "b")  # a new event, one moved
    decoded.clear()
    assert sandbox.snapshot() == full_read(sandbox)
    assert sorted(row["title"] for row in decoded) == ["N", "moved"]
    last = seeded["events"][-1]["id"]
    with sandbox.transaction():
        sandbox.delete("events", next(e["id"] for e in sandbox.snapshot()["events"] if e["title"] == "N"))
        sandbox.delete("events", last)  # the largest seeded rowid, the largest left: the next insert takes it
        sandbox.insert("events", {**seeded["events"][-1], "id": "in-its-place", "title": "in its place"})
        sandbox.delete("events", "e0")
        sandbox.update("events", "e3", {"title": seeded["events"][3]["title"]})  # the title back as seeded
        sandbox.update("events", "e5", {"title": "five"})
    decoded.clear()
    now = sandbox.snapshot()
    assert now == full_read(sandbox)
    titles = [row["title"] for row in now["events"]]
    assert titles == [f"Event {i}" if i != 5 else "five" for i in range(1, 11)] + ["in its place"]
    assert sorted(row["title"] for row in decoded) == ["Event 3", "five", "in its place"]
    sandbox.reset()
    assert sandbox.snapshot() == seeded


def test_a_table_keyed_by_its_rowid_is_read_whole_in_order() -> None:
    """A key declared INTEGER PRIMARY KEY is the rowid: a row may be inserted below the seeded rows' largest."""

    class Seed(BaseModel):
        ids: list[int] = []

    def load(sb: Sandbox, seed: Seed) -> None:
        for n in seed.ids:
            sb.insert("items", {"id": n, "tags": [n]})

    app = App(
        "rowids",
        title="Rowid keys",
        instructions="For core tests.",
        schema="CREATE TABLE items (id INTEGER PRIMARY KEY, tags JSON NOT NULL);",
        seed_model=Seed,
        load_seed=load,
        tools=Toolset(),
    )
    assert app.tables["items"].rowid_key and not APP.tables["events"].rowid_key
    store = SandboxStore(app)
    seed = SandboxSpec(seed={"ids": [1, 5, 9]}, clock={"start": "2026-03-02T09:00:00+01:00"})
    store.create("a", seed).snapshot()
    sandbox = store.create("b", seed)
    with sandbox.transaction():
        sandbox.insert("items", {"id": 3, "tags": []})
        sandbox.update("items", 9, {"tags": [9, 9]})
    assert sandbox.snapshot() == full_read(sandbox)
    assert [row["id"] for row in sandbox.snapshot()["items"]] == [1, 3, 5, 9]


@pytest.mark.parametrize(
    "text",
    [
        '{"a": [1, 2.5, "x\\n\\u00e9", null, true, false, {}], "b": -0.0}',
        "123456789012345678901234567890",  # past 64 bits: orjson would read a float
        "-9223372036854775809",
        '[18446744073709551616, "18446744073709551616"]',
        "NaN",
        "[Infinity, -Infinity, 1e400]",
        '"\\ud800"',  # a lone surrogate, which json.dumps writes and orjson refuses
        '{"a": 1, "a": 2}',
        "[5e-324, 1.7976931348623157e308, 0.1, 1E5, 123456789.123456789123456789]",
    ],
)
def test_json_columns_decode_as_the_standard_library_decodes_them(text: str) -> None:
    assert repr(_json(text)) == repr(json.loads(text))  # the same values of the same types (NaN included)
