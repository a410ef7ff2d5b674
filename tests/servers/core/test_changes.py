"""The per-call change log: every row a tool call inserts, updates or deletes, with before and after.

Real SQLite, real MCP calls (in process and over HTTP), every app.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import anyio
import pytest
import tiny
from helpers import app_process, error_text, in_memory, structured
from mcp import Client

from servers.calendar import APP as CALENDAR
from servers.core import SandboxSpec, SandboxStore, build_mcp_server
from servers.core.mcp import bind_sandbox
from servers.docs import APP as DOCS
from servers.mail import APP as MAIL
from servers.tickets import APP as TICKETS

PERSONA = {"name": "Dana Lee", "email": "dana@acme.test", "timezone": "Europe/Berlin"}
CLOCK = {"start": "2026-03-02T09:00:00+01:00"}
NOW = "2026-03-02T09:00:00+01:00"

MAIL_SEED = {
    "messages": [
        {
            "id": "m1",
            "from": "priya@acme.test",
            "to": ["dana@acme.test"],
            "subject": "Berlin offsite",
            "body": "Can you book the travel for the offsite? Budget is 2000 EUR.",
            "sent_at": "2026-03-01T10:00:00+01:00",
            "labels": ["travel"],
        },
        {
            "id": "m2",
            "from": "news@vendor.test",
            "to": ["dana@acme.test"],
            "subject": "Deals",
            "body": "Cheap flights!",
            "sent_at": "2026-03-01T11:00:00+01:00",
        },
        {
            "id": "d1",
            "folder": "drafts",
            "from": "dana@acme.test",
            "to": ["priya@acme.test"],
            "subject": "Notes",
            "body": "Draft notes",
            "sent_at": "2026-03-01T12:00:00+01:00",
        },
    ],
    "labels": ["travel"],
}
DOCS_SEED = {
    "folders": [{"id": "trips", "name": "Trips"}],
    "documents": [
        {
            "id": "itinerary",
            "title": "Berlin itinerary",
            "folder_id": "trips",
            "content": "# Berlin\n\nDay 1: arrive, check in at Hotel Adlon.\nDay 2: museums.\nDay 3: fly home.\n",
            "shared_with": [{"email": "priya@acme.test", "role": "editor"}],
        },
        {"id": "notes", "title": "Notes", "content": "Root cause: expired certificate on the edge proxy."},
    ],
}
TICKETS_SEED = {
    "projects": [{"key": "OPS", "name": "Operations", "lead": "priya@acme.test"}],
    "users": [
        {"email": "priya@acme.test", "name": "Priya Shah"},
        {"email": "dana@acme.test", "name": "Dana Lee"},
    ],
    "tickets": [
        {
            "key": "OPS-1",
            "title": "Renew TLS certificate",
            "description": "The wildcard certificate expires on Friday; renew it with the vendor.",
            "reporter": "priya@acme.test",
            "assignee": "priya@acme.test",
        },
        {"key": "OPS-2", "title": "Rotate on-call", "reporter": "priya@acme.test"},
    ],
}
CALENDAR_SEED = {
    "calendars": [{"id": "primary", "name": "Dana Lee", "primary": True}],
    "people": [{"email": "priya@acme.test", "name": "Priya Shah", "timezone": "Europe/Berlin"}],
    "events": [
        {
            "id": "standup",
            "title": "Daily standup",
            "description": "Round the table",
            "start": "2026-03-02T10:00",
            "end": "2026-03-02T10:15",
            "attendees": ["priya@acme.test"],
        },
        {
            "id": "offsite",
            "title": "Berlin offsite",
            "start": "2026-03-05T09:00",
            "end": "2026-03-05T17:00",
            "organizer": "priya@acme.test",
            "attendees": [{"email": "dana@acme.test"}, {"email": "priya@acme.test", "response": "accepted"}],
        },
    ],
}
SEEDS = {
    "mail": (MAIL, MAIL_SEED),
    "docs": (DOCS, DOCS_SEED),
    "tickets": (TICKETS, TICKETS_SEED),
    "calendar": (CALENDAR, CALENDAR_SEED),
}


def world(app_name: str):
    app, seed = SEEDS[app_name]
    return in_memory(app, seed, persona=PERSONA, clock=CLOCK)


def last(sandbox) -> dict[str, Any]:
    return sandbox.journal()[-1]


def ops(entry: dict[str, Any]) -> list[tuple[str, Any, str]]:
    return [(c["table"], c["key"], c["op"]) for c in entry["changes"]]


# -- every app's writes -------------------------------------------------------


async def test_mail_changes_with_before_and_after() -> None:
    async with world("mail") as (client, sb):
        sent = structured(
            await client.call_tool("send_message", {"to": ["priya@acme.test"], "subject": "Hi", "body": "Booked."})
        )
        entry = last(sb)
        assert ops(entry) == [("messages", sent["id"], "insert")]
        change = entry["changes"][0]
        assert change["before"] is None
        # Decoded exactly like snapshot rows: JSON lists and booleans, not their stored text.
        assert change["after"] == sb.get("messages", sent["id"])
        assert change["after"]["to"] == ["priya@acme.test"] and change["after"]["is_read"] is True

        structured(await client.call_tool("mark_read", {"message_ids": ["m1", "m2"]}))
        entry = last(sb)
        assert ops(entry) == [("messages", "m1", "update"), ("messages", "m2", "update")]
        assert [(c["before"]["is_read"], c["after"]["is_read"]) for c in entry["changes"]] == [(False, True)] * 2

        structured(await client.call_tool("create_label", {"name": "Offsite"}))
        assert ops(last(sb)) == [("labels", "Offsite", "insert")]

        structured(await client.call_tool("delete_draft", {"draft_id": "d1"}))
        entry = last(sb)
        assert ops(entry) == [("messages", "d1", "delete")]
        assert entry["changes"][0]["before"]["body"] == "Draft notes" and entry["changes"][0]["after"] is None

        # A read changes nothing.
        structured(await client.call_tool("get_message", {"message_id": "m1"}))
        assert last(sb)["changes"] == []


async def test_docs_changes_include_revisions_and_sharing() -> None:
    async with world("docs") as (client, sb):
        doc = structured(
            await client.call_tool("create_document", {"title": "Plan", "content": "x", "folder_id": "trips"})
        )
        entry = last(sb)
        assert [(t, op) for t, _, op in ops(entry)] == [("documents", "insert"), ("revisions", "insert")]
        assert entry["changes"][0]["key"] == doc["id"]
        assert entry["changes"][1]["after"]["document_id"] == doc["id"]

        structured(
            await client.call_tool(
                "share_document", {"document_id": "itinerary", "email": "sam@outside.test", "role": "viewer"}
            )
        )
        change = last(sb)["changes"][0]
        assert (change["table"], change["key"], change["op"]) == ("documents", "itinerary", "update")
        assert change["before"]["shared_with"] == [{"email": "priya@acme.test", "role": "editor"}]
        assert change["after"]["shared_with"][-1] == {"email": "sam@outside.test", "role": "viewer"}

        structured(await client.call_tool("trash_document", {"document_id": "notes"}))
        change = last(sb)["changes"][0]
        assert change["before"]["trashed"] is False and change["after"]["trashed"] is True


async def test_tickets_changes_include_history_rows() -> None:
    async with world("tickets") as (client, sb):
        structured(await client.call_tool("update_ticket", {"key": "OPS-1", "title": "Renew the TLS certificate"}))
        entry = last(sb)
        tables = [t for t, _, _ in ops(entry)]
        assert tables.count("tickets") == 1 and "history" in tables
        ticket = next(c for c in entry["changes"] if c["table"] == "tickets")
        assert ticket["key"] == "OPS-1" and ticket["op"] == "update"
        assert (
            ticket["before"]["title"] == "Renew TLS certificate"
            and ticket["after"]["title"] == "Renew the TLS certificate"
        )
        assert ticket["after"]["labels"] == []

        created = structured(await client.call_tool("create_ticket", {"project": "OPS", "title": "New"}))
        assert ("tickets", created["key"], "insert") in ops(last(sb))
        # The counter behind the key is a core table: it is not in the change log.
        assert all(not t.startswith("_") for t, _, _ in ops(last(sb)))


async def test_calendar_changes_for_update_respond_and_delete() -> None:
    async with world("calendar") as (client, sb):
        structured(await client.call_tool("respond_to_event", {"event_id": "offsite", "response": "accepted"}))
        change = last(sb)["changes"][0]
        assert (change["table"], change["key"], change["op"]) == ("events", "offsite", "update")
        mine = [a for a in change["after"]["attendees"] if a["email"] == "dana@acme.test"]
        assert mine[0]["response"] == "accepted"

        structured(await client.call_tool("delete_event", {"event_id": "standup"}))
        entry = last(sb)
        assert ops(entry) == [("events", "standup", "delete")]
        assert entry["changes"][0]["before"]["all_day"] is False


async def test_an_error_result_records_no_changes() -> None:
    async with world("tickets") as (client, sb):
        # The tool writes a history row and then fails: all of it is rolled back and nothing is logged.
        error_text(await client.call_tool("transition_ticket", {"key": "OPS-1", "status": "in_review", "comment": "x"}))
        error_text(await client.call_tool("get_ticket", {"key": "NOPE-1"}))
        structured(await client.call_tool("add_comment", {"key": "OPS-2", "body": "ok"}))
        entries = sb.journal()
        assert [e["is_error"] for e in entries] == [True, True, False]
        assert entries[0]["changes"] == [] and entries[1]["changes"] == []
        assert ops(entries[2]) == [("comments", entries[2]["changes"][0]["key"], "insert")]
        assert sb.db.execute("SELECT count(*) FROM _changes").fetchone()[0] == 1


async def test_an_error_after_writing_rolls_back_the_logged_changes() -> None:
    """A tool that writes a row and then fails: the change it logged goes with the rollback."""
    async with in_memory(tiny.APP, {"notes": [{"text": "seeded"}]}) as (client, sb):
        error_text(await client.call_tool("add_note", {"text": "half", "fail_after_write": True}))
        note = structured(await client.call_tool("add_note", {"text": "whole", "tags": ["x"]}))
        failed, done = sb.journal()
        assert failed["is_error"] and failed["changes"] == []
        assert done["changes"] == [
            {
                "table": "notes",
                "key": note["id"],
                "op": "insert",
                "before": None,
                "after": {"id": note["id"], "text": "whole", "tags": ["x"], "pinned": False},
            },
        ]
        assert sb.db.execute("SELECT count(*) FROM _changes").fetchone()[0] == 1


async def test_an_update_that_changes_nothing_is_not_logged() -> None:
    async with world("mail") as (client, sb):
        structured(await client.call_tool("mark_read", {"message_ids": ["m1"]}))
        # Tools refuse no-op changes, so write one the way a tool would, through the sandbox.
        with sb.transaction():
            sb.update("messages", "m1", {"is_read": True, "labels": ["travel"]})
            sb.update("messages", "m2", {"labels": ["deals"]})
        sb.record(tool="relabel", arguments={}, result={}, error=None, is_error=False, latency_ms=1, wall=sb.now())
        first, second = sb.journal()
        assert ops(first) == [("messages", "m1", "update")]
        assert ops(second) == [("messages", "m2", "update")]


async def test_seeding_logs_nothing_and_reset_clears_the_log() -> None:
    async with world("docs") as (client, sb):
        assert sb.db.execute("SELECT count(*) FROM _changes").fetchone()[0] == 0
        structured(await client.call_tool("append_content", {"document_id": "notes", "text": "More."}))
        assert last(sb)["changes"]
        sb.reset()
        assert sb.journal() == []
        assert sb.db.execute("SELECT count(*) FROM _changes").fetchone()[0] == 0
        # The triggers survive the reset: the next call is logged again, as the first one.
        structured(await client.call_tool("append_content", {"document_id": "notes", "text": "More."}))
        (entry,) = sb.journal()
        assert entry["seq"] == 1 and [t for t, _, _ in ops(entry)] == ["documents", "revisions"]


async def test_journal_pages_keep_their_changes() -> None:
    async with world("mail") as (client, sb):
        for message in ("m1", "m2"):
            structured(await client.call_tool("star", {"message_ids": [message]}))
        structured(await client.call_tool("trash_message", {"message_ids": ["m2"]}))
        full = sb.journal()
        assert [ops(e) for e in full] == [
            [("messages", "m1", "update")],
            [("messages", "m2", "update")],
            [("messages", "m2", "update")],
        ]
        assert sb.journal(after=1, limit=1) == full[1:2]
        assert sb.journal(after=2) == full[2:]


async def test_changes_are_kept_per_sandbox() -> None:
    store = SandboxStore(MAIL)
    for name in ("a", "b"):
        store.create(name, SandboxSpec(seed=MAIL_SEED, persona=PERSONA, clock=CLOCK))
    async with Client(build_mcp_server(MAIL, store), raise_exceptions=True) as client:
        with bind_sandbox("a"):
            structured(await client.call_tool("star", {"message_ids": ["m1"]}))
        with bind_sandbox("b"):
            structured(await client.call_tool("trash_message", {"message_ids": ["m2"]}))
    assert ops(store.get("a").journal()[0]) == [("messages", "m1", "update")]
    assert ops(store.get("b").journal()[0]) == [("messages", "m2", "update")]
    store.close()


async def test_on_disk_sandbox_logs_changes_and_resets(tmp_path: Path) -> None:
    store = SandboxStore(DOCS, tmp_path)
    store.create("default", SandboxSpec(seed=DOCS_SEED, persona=PERSONA, clock=CLOCK))
    async with Client(build_mcp_server(DOCS, store), raise_exceptions=True) as client:
        structured(await client.call_tool("set_link_sharing", {"document_id": "notes", "access": "viewer"}))
    store.close()
    # Reopened from disk: the log is still there and the triggers still work.
    store = SandboxStore(DOCS, tmp_path)
    sb = store.get("default")
    (entry,) = sb.journal()
    assert ops(entry) == [("documents", "notes", "update")]
    assert (entry["changes"][0]["before"]["link_sharing"], entry["changes"][0]["after"]["link_sharing"]) == (
        "restricted",
        "viewer",
    )
    async with Client(build_mcp_server(DOCS, store), raise_exceptions=True) as client:
        structured(await client.call_tool("trash_document", {"document_id": "notes"}))
        assert ops(sb.journal()[-1]) == [("documents", "notes", "update")]
        sb.reset()
        assert sb.journal() == [] and sb.db.execute("SELECT count(*) FROM _changes").fetchone()[0] == 0
        structured(await client.call_tool("trash_document", {"document_id": "notes"}))
        assert ops(sb.journal()[-1]) == [("documents", "notes", "update")]
    store.close()


def test_sandbox_kept_by_a_version_without_the_change_log_gains_it(tmp_path: Path) -> None:
    store = SandboxStore(CALENDAR, tmp_path)
    store.create("old", SandboxSpec(seed=CALENDAR_SEED, persona=PERSONA, clock=CLOCK))
    store.close()
    for name in ("state.db", "seed.db"):
        db = sqlite3.connect(tmp_path / "old" / name)
        for (trigger,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            db.execute(f'DROP TRIGGER "{trigger}"')
        db.execute("DROP TABLE _changes")
        db.commit()
        db.close()
    store = SandboxStore(CALENDAR, tmp_path)
    sb = store.get("old")
    with sb.transaction():
        sb.update("events", "standup", {"title": "Standup"})
    sb.record(tool="update_event", arguments={}, result={}, error=None, is_error=False, latency_ms=1, wall=sb.now())
    assert ops(sb.journal()[0]) == [("events", "standup", "update")]
    sb.reset()
    with sb.transaction():
        sb.delete("events", "standup")
    sb.record(tool="delete_event", arguments={}, result={}, error=None, is_error=False, latency_ms=1, wall=sb.now())
    assert ops(sb.journal()[0]) == [("events", "standup", "delete")]
    store.close()


def test_admin_journal_over_http_carries_changes(tmp_path: Path) -> None:
    with app_process("calendar", data_dir=tmp_path, token="t0k") as proc:
        with proc.admin() as admin:
            body = {"id": "w", "seed": CALENDAR_SEED, "clock": CLOCK, "persona": PERSONA}
            assert admin.post("/sandboxes", json=body).status_code == 201

        async def calls() -> None:
            async with proc.client("w") as client:
                structured(await client.call_tool("cancel_event", {"event_id": "standup"}))
                error_text(await client.call_tool("cancel_event", {"event_id": "standup"}))

        anyio.run(calls)
        with proc.admin() as admin:
            entries = admin.get("/sandboxes/w/journal").json()["entries"]
            assert [ops(e) for e in entries] == [[("events", "standup", "update")], []]
            change = entries[0]["changes"][0]
            assert change["before"]["status"] == "confirmed" and change["after"]["status"] == "cancelled"
            assert change["after"]["attendees"][0]["email"] == "priya@acme.test"
            admin.post("/sandboxes/w/reset")
            assert admin.get("/sandboxes/w/journal").json()["entries"] == []


@pytest.mark.parametrize("app_name", list(SEEDS))
def test_every_app_table_has_change_triggers(app_name: str) -> None:
    app, seed = SEEDS[app_name]
    store = SandboxStore(app)
    sb = store.create("t", SandboxSpec(seed=seed, persona=PERSONA, clock=CLOCK))
    triggers = {r[0] for r in sb.db.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger'")}
    assert triggers == set(app.tables)
    logging = "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE '\\_changes\\_%' ESCAPE '\\'"
    assert sb.db.execute(logging).fetchone()[0] == 3 * len(app.tables)
    undoing = "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE '\\_undo\\_%' ESCAPE '\\'"
    assert sb.db.execute(undoing).fetchone()[0] == 2 * len(app.tables)  # update and delete (rollback reset)
    store.close()


def test_every_write_is_logged_by_the_triggers_and_nothing_without_them() -> None:
    """Each write logs its change through the triggers; with the triggers dropped nothing is logged (what they cost
    per call is benchmarks/bench_change_log.py's figure: a timing ratio flakes on a loaded machine)."""

    async def logged(with_triggers: bool) -> int:
        store = SandboxStore(MAIL)
        sb = store.create("default", SandboxSpec(seed=MAIL_SEED, persona=PERSONA, clock=CLOCK))
        if not with_triggers:
            for (name,) in sb.db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
                sb.db.execute(f'DROP TRIGGER "{name}"')
        async with Client(build_mcp_server(MAIL, store), raise_exceptions=True) as client:
            for i in range(5):
                await client.call_tool(
                    "send_message", {"to": ["priya@acme.test"], "subject": f"s{i}", "body": "b" * 200}
                )
        count = sum(len(e["changes"]) for e in sb.journal())
        store.close()
        return count

    assert anyio.run(logged, True) == 5
    assert anyio.run(logged, False) == 0


def test_change_rows_are_plain_json() -> None:
    """Keys and values in the stored log are what `json_object` wrote: the journal decodes them per table."""
    store = SandboxStore(MAIL)
    sb = store.create("t", SandboxSpec(seed=MAIL_SEED, persona=PERSONA, clock=CLOCK))
    with sb.transaction():
        sb.update("messages", "m1", {"labels": ["a", "b"], "is_starred": True})
    stored = sb.db.execute("SELECT tbl, key, op, before, after FROM _changes").fetchone()
    assert (stored["tbl"], stored["key"], stored["op"]) == ("messages", "m1", "update")
    assert json.loads(stored["after"])["labels"] == '["a", "b"]' and json.loads(stored["after"])["is_starred"] == 1
    store.close()
