"""The rows a world event adds are built on a copy of the sandbox's seeded state by the app's `load_more`, and they are
exactly the rows loading the whole seed with them made before (`servers.core.world._rows_by_seeding`, the path an app
without `load_more` still takes): the same ids and generated values under the event's id seed, the same timestamps,
references to seeded rows naming the sandbox's own generated values, and the same problems for rows an app refuses.

Checked on generated organizations (every app: mail with replies, labels and contacts, calendar events, people and
busy times, documents with folders, revisions and comments, tickets with comments and links) and on the library's
own worlds, in memory and on disk, under several episode seeds."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

import orchestrator.generate.families  # noqa: F401 - the family modules, before the registry is read
from orchestrator.generate.drawing import draw
from orchestrator.generate.family import families
from orchestrator.scenario import model as scenarios
from servers import registry
from servers.core import SandboxSpec
from servers.core.sandbox import Sandbox
from servers.core.world import WorldChange, WorldError, event_rows
from servers.core.world import apply as apply_world

ROOT = Path(__file__).resolve().parents[2]

WORLDS = [("doc-comments", 3), ("offboard-handover", 5), ("incident-followup", 8)]
"""Generated tasks (family, run seed) whose organizations hold seeds of all four apps."""


MAKE_ROWS = {
    "a reply, a new thread and a contact",
    "a colleague's answer in a thread the seed drew",
    "a meeting, a person and a busy time",
    "folders, documents and comments",
    "users, a project, tickets, comments and links",
    "a colleague's comment",
}
"""The events below that make rows; the others are refused, with the same problems either way."""


def scenario_of(family: str, seed: int) -> scenarios.Scenario:
    task = draw(families()[family](), seed, "small", 0, None, edition=2)
    assert task is not None
    return scenarios.load_data(task.scenario)


def both(sb: Sandbox, event: str, add: dict[str, list[dict[str, Any]]]) -> tuple[Any, Any, bool]:
    """What `event_rows` gives (the rows, or the error it raises) with the app's `load_more` and without it (the
    whole seed loaded), and whether the first was built without loading the seed."""

    def outcome() -> Any:
        try:
            return event_rows(sb, event, add)
        except (WorldError, sqlite3.Error) as exc:
            problems = [p.model_dump() for p in exc.problems] if isinstance(exc, WorldError) else None
            return type(exc).__name__, str(exc), problems

    vars(sb).pop("_world_seeded", None)
    fast = outcome()
    on_copy = "_world_seeded" not in vars(sb)  # the whole-seed path keeps the seed built under the live id seed
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sb.app, "load_more", None)
        seeded = outcome()
    return fast, seeded, on_copy


def first(rows: list[dict[str, Any]], key: str) -> Any:
    return next(r[key] for r in rows if r.get(key))


def mail_events(s: scenarios.Scenario, sb: Sandbox) -> dict[str, dict[str, Any]]:
    seed = s.sandbox_spec("mail").seed
    message = first(seed["messages"], "id")
    live = sb.get("messages", message)
    assert live is not None
    label = seed["labels"][0]
    other = first(seed["contacts"], "email")
    return {
        "a reply, a new thread and a contact": {
            "contacts": [{"email": "Wren Example <wren@elsewhere.test>"}],
            "messages": [
                {"id": "w-reply", "from": other, "in_reply_to": message, "subject": "Re: it", "body": "Done."},
                {"from": "wren@elsewhere.test", "subject": "New", "body": "Hello", "labels": [label, label.lower()]},
                {"id": "w-again", "from": other, "in_reply_to": "w-reply", "body": "And again."},
                {"to": [other], "subject": "Sent by me", "body": "x", "sent_at": "2026-01-05T10:00:00"},
            ],
        },
        "a colleague's answer in a thread the seed drew": {
            "messages": [{"id": "w-answer", "thread_id": live["thread_id"], "from": other, "body": "Yes."}]
        },
        "a reply to no message": {"messages": [{"from": other, "in_reply_to": "ghost", "body": "?"}]},
        "a label nobody declared": {"messages": [{"from": other, "body": "?", "labels": ["nope"]}]},
        "a message id the seed has": {"messages": [{"id": message, "from": other, "body": "?"}]},
        "labels, which are no rows": {"labels": ["New"]},
        "a seeded contact again": {"contacts": [{"email": other}]},
        "a field no message has": {"messages": [{"from": other, "bogus": 1}, {"from": "not an address"}]},
    }


def calendar_events(s: scenarios.Scenario) -> dict[str, dict[str, Any]]:
    seed = s.sandbox_spec("calendar").seed
    person = first(seed["people"], "email")
    day = s.clock.start.date().isoformat()
    return {
        "a meeting, a person and a busy time": {
            "people": [{"email": "kai@elsewhere.test", "name": "Kai", "timezone": "Asia/Tokyo"}],
            "events": [
                {
                    "title": "From the world",
                    "start": f"{day}T15:00:00",
                    "end": f"{day}T15:30:00",
                    "attendees": [person, "kai@elsewhere.test", {"email": "x@elsewhere.test", "response": "accepted"}],
                },
                {"id": "w-day", "title": "Offsite", "start": day, "all_day": True},
            ],
            "busy": [{"email": person, "start": f"{day}T11:00:00", "end": f"{day}T12:00:00"}],
        },
        "a meeting on no calendar": {
            "events": [{"title": "?", "calendar_id": "nope", "start": f"{day}T10:00:00", "end": f"{day}T11:00:00"}]
        },
        "a meeting that ends before it starts": {
            "events": [{"title": "?", "start": f"{day}T10:00:00", "end": f"{day}T09:00:00"}]
        },
        "a person the calendar knows": {"people": [{"email": person}]},
    }


def docs_events(s: scenarios.Scenario) -> dict[str, dict[str, Any]]:
    seed = s.sandbox_spec("docs").seed
    folder = first(seed["folders"], "id")
    document = next(d for d in seed["documents"] if d.get("id") and len(d.get("content", "")) > 20)
    return {
        "folders, documents and comments": {
            "folders": [{"name": "From the world"}, {"id": "w-folder", "name": "Sub", "parent_id": folder}],
            "documents": [
                {"title": "Notes", "content": "Some notes.", "folder_id": "w-folder"},
                {
                    "id": "w-doc",
                    "title": "Plan",
                    "content": "The plan is set.",
                    "folder_id": folder,
                    "shared_with": [{"email": "kai@elsewhere.test", "role": "editor"}],
                },
            ],
            "comments": [
                {
                    "document_id": document["id"],
                    "body": "Is this right?",
                    "quote": document["content"][5:15],
                    "replies": [{"body": "Yes."}, {"author": "kai@elsewhere.test", "body": "Agreed."}],
                },
                {"document_id": "w-doc", "body": "Done.", "resolved": True},
            ],
        },
        "a comment on no document": {"comments": [{"document_id": "nope", "body": "?"}]},
        "a quote the document lacks": {"comments": [{"document_id": document["id"], "body": "?", "quote": "zzz9"}]},
        "a document id the seed has": {"documents": [{"id": document["id"], "title": "Again"}]},
    }


def tickets_events(s: scenarios.Scenario) -> dict[str, dict[str, Any]]:
    seed = s.sandbox_spec("tickets").seed
    tickets = [t for t in seed["tickets"] if t.get("key")]
    project = seed["projects"][0]["key"]
    user = first(seed["users"], "email")
    return {
        "users, a project, tickets, comments and links": {
            "users": [{"email": "kai@elsewhere.test", "name": "Kai"}],
            "projects": [{"key": "WLD", "name": "World", "lead": user}],
            "tickets": [
                {"project": project, "title": "From the world", "assignee": "kai@elsewhere.test"},
                {"project": "WLD", "title": "Second", "status": "done"},
                {"key": "WLD-40", "title": "Keyed"},
                {"project": "WLD", "title": "After the keyed one"},
            ],
            "comments": [
                {"ticket_key": tickets[0]["key"], "author": user, "body": "Approved."},
                {"ticket_key": "WLD-40", "body": "Mine."},
            ],
            "links": [{"source": tickets[0]["key"], "type": "relates_to", "target": "WLD-40"}],
        },
        "a colleague's comment": {"comments": [{"ticket_key": tickets[1]["key"], "author": user, "body": "Go ahead."}]},
        "a comment on no ticket": {"comments": [{"ticket_key": "NOPE-1", "body": "?"}]},
        "a comment by nobody": {"comments": [{"ticket_key": tickets[0]["key"], "author": "ghost@x.test", "body": "?"}]},
        "a project the seed has": {"projects": [{"key": project, "name": "Again"}]},
    }


def seed_label(s: scenarios.Scenario) -> str:
    return str(s.sandbox_spec("mail").seed["labels"][0])


def events_of(s: scenarios.Scenario, app: str, sb: Sandbox) -> dict[str, dict[str, Any]]:
    if app == "mail":
        return mail_events(s, sb)
    return {"calendar": calendar_events, "docs": docs_events, "tickets": tickets_events}[app](s)


@pytest.mark.parametrize(("family", "seed"), WORLDS)
def test_event_rows_are_the_whole_seeds_on_generated_worlds(family: str, seed: int) -> None:
    s = scenario_of(family, seed)
    checked = 0
    for app_name in ("mail", "calendar", "docs", "tickets"):
        app = registry.load(app_name)
        for rng_seed in (0, 11):
            sb = Sandbox.create(app, "live", s.sandbox_spec(app_name, rng_seed=rng_seed))
            try:
                for name, add in events_of(s, app_name, sb).items():
                    fast, seeded, on_copy = both(sb, name, add)
                    assert fast == seeded, (app_name, name)
                    assert on_copy, (app_name, name)
                    assert isinstance(fast, dict) == (name in MAKE_ROWS), (app_name, name, fast)  # else an error
                    checked += 1
            finally:
                sb.close()
    assert checked == 2 * (8 + 4 + 4 + 5)


def test_the_rows_made_are_real_rows_with_generated_ids_and_the_events_time() -> None:
    """Not only equal to the whole seed's: the event's rows have ids drawn under its own id seed (none of the seed's,
    none of the sandbox's next ones), the event's time, and a reply joins the thread the live sandbox has."""
    s = scenario_of(*WORLDS[0])
    app = registry.load("mail")
    sb = Sandbox.create(app, "live", s.sandbox_spec("mail", rng_seed=3))
    try:
        add = mail_events(s, sb)["a reply, a new thread and a contact"]
        rows = event_rows(sb, "news", add)
        seeded = {r["id"] for r in sb.select("messages")}
        ids = [r["id"] for r in rows["messages"]]
        assert ids[0] == "w-reply" and ids[2] == "w-again" and not set(ids) & seeded
        assert ids[1].startswith("msg_") and ids[3].startswith("msg_") and ids[1] != sb.new_id("msg")
        replied = sb.get("messages", add["messages"][0]["in_reply_to"])
        assert replied is not None
        assert rows["messages"][0]["thread_id"] == rows["messages"][2]["thread_id"] == replied["thread_id"]
        assert datetime.fromisoformat(rows["messages"][0]["sent_at"]) == sb.now()  # written when the event happens
        assert rows["messages"][3]["sent_at"].startswith("2026-01-05T10:00:00")
        assert rows["messages"][1]["labels"] == [seed_label(s)]
        assert rows["contacts"] == [{"email": "wren@elsewhere.test", "name": "Wren Example"}]
        assert rows["messages"][1]["from_name"] == "Wren Example"
        assert event_rows(sb, "news", add) == rows  # the same event, the same rows
        assert event_rows(sb, "other news", add)["messages"][1]["id"] != ids[1]
    finally:
        sb.close()


def test_an_event_builds_on_the_seed_whatever_the_sandbox_holds_now() -> None:
    """After the world (or the agent) changed the sandbox, an event's rows are still those the seed with them makes:
    a reply to a message deleted since still joins its thread, and earlier events' rows are not the seed's."""
    s = scenario_of(*WORLDS[1])
    app = registry.load("mail")
    sb = Sandbox.create(app, "live", s.sandbox_spec("mail", rng_seed=2))
    try:
        events = mail_events(s, sb)
        apply_world(sb, WorldChange(event="first", add=events["a reply, a new thread and a contact"]))
        replied = events["a reply, a new thread and a contact"]["messages"][0]["in_reply_to"]
        with sb.transaction():
            sb.delete("messages", replied)
        again = {
            "contacts": [{"email": "wren@elsewhere.test"}],  # the first event's contact: not the seed's
            "messages": [{"id": "w-late", "in_reply_to": replied, "body": "Late."}],
        }
        fast, seeded, on_copy = both(sb, "second", again)
        assert fast == seeded and on_copy
        assert [r["email"] for r in fast["contacts"]] == ["wren@elsewhere.test"]
    finally:
        sb.close()


def test_rows_that_change_how_the_seed_loads_load_the_whole_seed() -> None:
    """A calendar event's own calendars (they may take the default calendar's place or be the primary one), the
    persona as a tracker user (the seed adds it unless listed) and keyed tickets beside generated keys (keys are
    generated after every key named): `load_more` declines them, and the whole seed decides, as before."""
    calendar = registry.load("calendar")
    tickets = registry.load("tickets")
    spec = scenarios.load(ROOT / "scenarios" / "approval-wait.yaml").sandbox_spec("tickets")
    tickets_now = [{"project": "OPS", "title": "No key"}, *spec.seed["tickets"]]
    generated = spec.model_copy(update={"seed": {**spec.seed, "tickets": tickets_now}})
    users = [u for u in spec.seed["users"] if u["email"] != spec.persona.email]  # the seed adds the persona itself
    unlisted = spec.model_copy(update={"seed": {**spec.seed, "users": users}})
    cases = [
        (calendar, calendar_spec(True), {"calendars": [{"id": "team", "name": "Team", "primary": True}]}),
        (calendar, calendar_spec(False), {"calendars": [{"id": "team", "name": "Team"}]}),
        (tickets, unlisted, {"users": [{"email": spec.persona.email, "name": "Me again"}]}),
        (tickets, generated, {"tickets": [{"key": "OPS-90", "title": "Keyed"}, {"project": "OPS", "title": "Next"}]}),
    ]
    for app, sandbox_spec, add in cases:
        sb = Sandbox.create(app, "live", sandbox_spec)
        try:
            fast, seeded, on_copy = both(sb, "edge", add)
            assert fast == seeded and not on_copy, add
        finally:
            sb.close()
    sb = Sandbox.create(tickets, "live", spec)  # keyed tickets when the seed's keys are all written out: on the copy
    try:
        fast, seeded, on_copy = both(
            sb, "keyed", {"tickets": [{"key": "OPS-90", "title": "K"}, {"project": "OPS", "title": "N"}]}
        )
        assert fast == seeded and on_copy and [t["key"] for t in fast["tickets"]] == ["OPS-90", "OPS-91"]
    finally:
        sb.close()


def calendar_spec(with_calendars: bool) -> SandboxSpec:
    seed: dict[str, Any] = {
        "people": [{"email": "ana@acme.test", "name": "Ana"}],
        "events": [{"title": "Stand-up", "start": "2026-03-02T09:30:00", "end": "2026-03-02T09:45:00"}],
        "busy": [{"email": "ana@acme.test", "start": "2026-03-02T10:00:00", "end": "2026-03-02T11:00:00"}],
    }
    if with_calendars:
        seed["calendars"] = [{"id": "mine", "name": "Mine"}, {"id": "shared", "name": "Shared", "access": "reader"}]
    return SandboxSpec.model_validate({"seed": seed, "clock": {"start": "2026-03-02T09:00:00+01:00"}, "rng_seed": 4})


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.yaml")), ids=lambda p: p.stem)
def test_the_librarys_events_make_the_rows_they_made(path: Path, tmp_path: Path) -> None:
    """Every event of the library that adds rows, and a colleague's answer in each mailbox, in memory and on disk."""
    s = scenarios.load(path)
    events = [(e.app, e.name, e.add) for e in (s.world.events if s.world else []) if e.add]
    if "mail" in s.apps:
        messages = s.sandbox_spec("mail").seed.get("messages") or []
        if any(m.get("id") for m in messages):
            reply = {"id": "w-reply", "from": "kai@elsewhere.test", "in_reply_to": first(messages, "id"), "body": "Ok"}
            events.append(("mail", "answer", {"messages": [reply, {"from": "kai@elsewhere.test", "body": "New"}]}))
    if not events:
        pytest.skip("no event adds rows, and no mailbox")
    for index, (app_name, name, add) in enumerate(events):
        app = registry.load(app_name)
        for folder in (None, tmp_path / str(index)):
            if folder is not None:
                folder.mkdir()
            sb = Sandbox.create(app, "live", s.sandbox_spec(app_name, rng_seed=6), directory=folder)
            try:
                fast, seeded, on_copy = both(sb, name, add)
                assert fast == seeded and on_copy, (name, folder)
                assert isinstance(fast, dict) and fast, name
            finally:
                sb.close()
