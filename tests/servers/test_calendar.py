"""The calendar app, driven through a real MCP client."""

from __future__ import annotations

import pytest
from helpers import error_text, in_memory, structured

from servers.calendar import APP
from servers.core import SandboxSpec, SandboxStore, SeedError

PERSONA = {"name": "Dana Lee", "email": "dana@acme.test", "timezone": "Europe/Berlin"}
CLOCK = {"start": "2026-03-02T09:00:00+01:00"}  # a Monday
SEED = {
    "calendars": [
        {"id": "primary", "name": "Dana Lee", "primary": True},
        {"id": "team", "name": "Team", "owner": "ops@acme.test", "access": "reader"},
    ],
    "people": [
        {"email": "priya@acme.test", "name": "Priya Shah", "timezone": "Europe/Berlin"},
        {"email": "sam@acme.test", "name": "Sam Ortiz", "timezone": "America/New_York"},
    ],
    "events": [
        {
            "id": "standup",
            "title": "Daily standup",
            "start": "2026-03-02T10:00",
            "end": "2026-03-02T10:15",
            "attendees": ["priya@acme.test"],
        },
        {
            "id": "review",
            "title": "Quarterly review",
            "description": "Budget and hiring",
            "location": "Room 4",
            "start": "2026-03-03T14:00",
            "end": "2026-03-03T15:00",
            "organizer": "priya@acme.test",
            "attendees": [{"email": "dana@acme.test"}, {"email": "sam@acme.test", "response": "accepted"}],
        },
        {"id": "holiday", "title": "Team holiday", "calendar_id": "team", "all_day": True, "start": "2026-03-06"},
    ],
    "busy": [{"email": "sam@acme.test", "start": "2026-03-02T15:00", "end": "2026-03-02T16:00"}],
}


def session():
    return in_memory(APP, SEED, persona=PERSONA, clock=CLOCK)


async def test_lists_calendars_and_events_in_a_window() -> None:
    async with session() as (client, _):
        calendars = structured(await client.call_tool("list_calendars", {}))["calendars"]
        assert [(c["id"], c["access"], c["is_primary"]) for c in calendars] == [
            ("primary", "owner", True),
            ("team", "reader", False),
        ]
        listed = structured(await client.call_tool("list_events", {}))
        assert [e["id"] for e in listed["events"]] == ["standup", "review", "holiday"]
        assert listed["time_min"] == "2026-03-02T09:00:00+01:00"
        day = structured(
            await client.call_tool("list_events", {"time_min": "2026-03-03T00:00", "time_max": "2026-03-04T00:00"})
        )
        assert [e["id"] for e in day["events"]] == ["review"]
        team = structured(await client.call_tool("list_events", {"calendar_id": "team"}))
        assert [e["id"] for e in team["events"]] == ["holiday"]
        assert team["events"][0]["start"] == team["events"][0]["end"] == "2026-03-06"


async def test_search_get_and_unknown_ids() -> None:
    async with session() as (client, _):
        found = structured(await client.call_tool("search_events", {"query": "BUDGET review"}))
        assert [e["id"] for e in found["events"]] == ["review"]
        by_guest = structured(await client.call_tool("search_events", {"attendee": "sam@acme.test"}))
        assert [e["id"] for e in by_guest["events"]] == ["review"]
        event = structured(await client.call_tool("get_event", {"event_id": "review"}))
        assert event["organizer"] == "priya@acme.test"
        assert {a["email"]: a["response"] for a in event["attendees"]} == {
            "dana@acme.test": "needsAction",
            "sam@acme.test": "accepted",
        }
        assert "No event with id 'nope'" in error_text(await client.call_tool("get_event", {"event_id": "nope"}))
        assert "Give a query" in error_text(await client.call_tool("search_events", {}))


async def test_create_update_cancel_delete_change_state() -> None:
    async with session() as (client, sandbox):
        created = structured(
            await client.call_tool(
                "create_event",
                {
                    "title": "Berlin offsite planning",
                    "start": "2026-03-04T11:00",
                    "attendees": ["priya@acme.test", "SAM@acme.test"],
                    "location": "Zoom",
                },
            )
        )
        assert created["end"] == "2026-03-04T12:00:00+01:00"
        assert created["organizer"] == "dana@acme.test"
        assert [(a["email"], a["name"], a["response"]) for a in created["attendees"]] == [
            ("priya@acme.test", "Priya Shah", "needsAction"),
            ("sam@acme.test", "Sam Ortiz", "needsAction"),
        ]
        moved = structured(
            await client.call_tool(
                "update_event",
                {"event_id": created["id"], "start": "2026-03-05T09:30", "remove_attendees": ["sam@acme.test"]},
            )
        )
        assert (moved["start"], moved["end"]) == ("2026-03-05T09:30:00+01:00", "2026-03-05T10:30:00+01:00")
        assert [a["email"] for a in moved["attendees"]] == ["priya@acme.test"]
        cancelled = structured(await client.call_tool("cancel_event", {"event_id": created["id"]}))
        assert cancelled["status"] == "cancelled"
        assert "already cancelled" in error_text(await client.call_tool("cancel_event", {"event_id": created["id"]}))
        structured(await client.call_tool("delete_event", {"event_id": "standup"}))
        rows = {e["id"]: e for e in sandbox.snapshot()["events"]}
        assert "standup" not in rows
        assert rows[created["id"]]["status"] == "cancelled"
        assert rows[created["id"]]["start"] == "2026-03-05T09:30:00+01:00"


async def test_all_day_events_use_inclusive_last_day() -> None:
    async with session() as (client, _):
        trip = structured(
            await client.call_tool(
                "create_event",
                {"title": "Berlin trip", "all_day": True, "start": "2026-03-09", "end": "2026-03-11"},
            )
        )
        assert (trip["start"], trip["end"], trip["all_day"]) == ("2026-03-09", "2026-03-11", True)
        shifted = structured(await client.call_tool("update_event", {"event_id": trip["id"], "start": "2026-03-16"}))
        assert (shifted["start"], shifted["end"]) == ("2026-03-16", "2026-03-18")
        on_day = structured(
            await client.call_tool("list_events", {"time_min": "2026-03-18T23:00", "time_max": "2026-03-19T01:00"})
        )
        assert [e["id"] for e in on_day["events"]] == [trip["id"]]


async def test_invalid_changes_are_errors_that_change_nothing() -> None:
    async with session() as (client, sandbox):
        before = sandbox.snapshot()
        assert "only the organizer" in error_text(
            await client.call_tool("update_event", {"event_id": "review", "title": "Hijacked"})
        )
        assert "read-only" in error_text(
            await client.call_tool("create_event", {"title": "x", "start": "2026-03-04T10:00", "calendar_id": "team"})
        )
        assert "must be after start" in error_text(
            await client.call_tool(
                "create_event", {"title": "x", "start": "2026-03-04T10:00", "end": "2026-03-04T09:00"}
            )
        )
        assert "unknown time zone" in error_text(
            await client.call_tool("create_event", {"title": "x", "start": "2026-03-04T10:00", "timezone": "Mars/Base"})
        )
        assert "Nothing to change" in error_text(await client.call_tool("update_event", {"event_id": "standup"}))
        assert "Not invited" in error_text(
            await client.call_tool("update_event", {"event_id": "standup", "remove_attendees": ["x@acme.test"]})
        )
        assert "You organize this event" in error_text(
            await client.call_tool("respond_to_event", {"event_id": "standup", "response": "accepted"})
        )
        assert "valid" in error_text(
            await client.call_tool("respond_to_event", {"event_id": "review", "response": "maybe"})
        )
        assert "title" in error_text(await client.call_tool("create_event", {"title": "", "start": "2026-03-04"}))
        assert sandbox.snapshot() == before


async def test_respond_to_invitation() -> None:
    async with session() as (client, sandbox):
        event = structured(await client.call_tool("respond_to_event", {"event_id": "review", "response": "declined"}))
        assert {a["email"]: a["response"] for a in event["attendees"]}["dana@acme.test"] == "declined"
        row = next(e for e in sandbox.snapshot()["events"] if e["id"] == "review")
        assert row["attendees"][0]["response"] == "declined"


async def test_free_busy_and_free_slots_respect_zones_and_working_hours() -> None:
    async with session() as (client, _):
        window = {"time_min": "2026-03-02T09:00", "time_max": "2026-03-03T00:00"}
        busy = structured(await client.call_tool("get_free_busy", {"emails": ["sam@acme.test"], **window}))
        sam = busy["people"][0]
        assert sam["working_hours"] == "Mon-Fri 09:00-17:00 America/New_York"
        assert sam["busy"] == [{"start": "2026-03-02T15:00:00+01:00", "end": "2026-03-02T16:00:00+01:00"}]
        slots = structured(
            await client.call_tool(
                "find_free_slots", {"attendees": ["sam@acme.test"], "duration_minutes": 30, **window}
            )
        )
        # Sam works 15:00-23:00 Berlin time, Dana 09:00-17:00, and Sam is busy 15:00-16:00.
        assert slots["slots"] == [{"start": "2026-03-02T16:00:00+01:00", "end": "2026-03-02T17:00:00+01:00"}]
        assert slots["considered"] == ["dana@acme.test", "sam@acme.test"]
        none = structured(
            await client.call_tool(
                "find_free_slots", {"attendees": ["sam@acme.test"], "duration_minutes": 90, **window}
            )
        )
        assert none["slots"] == []
        priya = structured(
            await client.call_tool(
                "find_free_slots",
                {"attendees": ["priya@acme.test"], "duration_minutes": 60, **window, "working_hours_only": False},
            )
        )
        # Dana's standup (10:00-10:15) with Priya is the only conflict before midnight.
        assert priya["slots"] == [
            {"start": "2026-03-02T09:00:00+01:00", "end": "2026-03-02T10:00:00+01:00"},
            {"start": "2026-03-02T10:15:00+01:00", "end": "2026-03-03T00:00:00+01:00"},
        ]


async def test_tools_have_descriptions_schemas_and_annotations() -> None:
    async with session() as (client, _):
        listed = (await client.list_tools()).tools
        names = {t.name for t in listed}
        assert names == {
            "list_calendars",
            "list_events",
            "search_events",
            "get_event",
            "get_free_busy",
            "find_free_slots",
            "create_event",
            "update_event",
            "cancel_event",
            "delete_event",
            "respond_to_event",
        }
        for tool in listed:
            assert tool.description and len(tool.description) > 40, tool.name
            assert tool.output_schema and tool.output_schema["type"] == "object", tool.name
            assert tool.annotations is not None
        read_only = {t.name for t in listed if t.annotations.read_only_hint}
        assert read_only == {
            "list_calendars",
            "list_events",
            "search_events",
            "get_event",
            "get_free_busy",
            "find_free_slots",
        }


def test_bad_seed_names_table_row_and_field() -> None:
    store = SandboxStore(APP)
    with pytest.raises(SeedError) as caught:
        store.create(
            "x",
            SandboxSpec(
                seed={
                    "events": [
                        {"title": "A", "start": "2026-03-02T10:00", "end": "2026-03-02T11:00"},
                        {"id": "b", "title": "B", "start": "not a date"},
                    ]
                }
            ),
        )
    assert "events[1] (id 'b').start" in str(caught.value)
    with pytest.raises(SeedError) as caught:
        store.create(
            "x",
            SandboxSpec(
                seed={
                    "events": [
                        {"title": "A", "start": "2026-03-02T10:00", "end": "2026-03-02T11:00", "calendar_id": "work"}
                    ]
                }
            ),
        )
    assert "events[0].calendar_id: no calendar with id 'work'" in str(caught.value)
    with pytest.raises(SeedError) as caught:
        store.create("x", SandboxSpec(seed={"calendars": [{"id": "a", "name": "A", "colour": "red"}]}))
    assert "calendars[0] (id 'a').colour: Extra inputs are not permitted" in str(caught.value)
    assert "x" not in store
