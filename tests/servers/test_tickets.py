"""The tickets app, driven through a real MCP client."""

from __future__ import annotations

import pytest
from helpers import error_text, in_memory, structured

from servers.core import SandboxSpec, SandboxStore, SeedError
from servers.tickets import APP

PERSONA = {"name": "Dana Lee", "email": "dana@acme.test", "timezone": "Europe/Berlin"}
CLOCK = {"start": "2026-03-02T09:00:00+01:00"}
NOW = "2026-03-02T09:00:00+01:00"
SEED = {
    "projects": [
        {"key": "OPS", "name": "Operations", "lead": "priya@acme.test", "description": "Infrastructure and on-call"},
        {"key": "WEB", "name": "Website"},
        {"key": "HR", "name": "People"},
    ],
    "users": [
        {"email": "Priya@acme.test", "name": "Priya Shah", "team": "Platform", "role": "Engineer"},
        {"email": "sam@acme.test", "name": "Sam Ortiz", "team": "Web", "role": "Designer"},
        {"email": "lee@acme.test", "name": "Lee Wong", "team": "Support", "role": "Agent"},
    ],
    "tickets": [
        {
            "key": "OPS-7",
            "title": "Renew TLS certificate",
            "description": "The wildcard certificate expires on Friday.",
            "type": "bug",
            "status": "in_progress",
            "priority": "high",
            "assignee": "priya@acme.test",
            "labels": ["Security"],
            "due_date": "2026-03-05",
            "created_at": "2026-02-20T10:00",
        },
        {
            "key": "OPS-12",
            "title": "Book travel for the Berlin offsite",
            "type": "request",
            "labels": ["travel", "offsite"],
            "due_date": "2026-03-20",
            "reporter": "lee@acme.test",
        },
        {
            "project": "OPS",
            "title": "Rotate the on-call schedule",
            "status": "blocked",
            "priority": "low",
            "assignee": "dana@acme.test",
            "reporter": "priya@acme.test",
        },
        {
            "project": "WEB",
            "title": "Landing page hero image",
            "type": "story",
            "status": "in_review",
            "priority": "highest",
            "assignee": "sam@acme.test",
            "labels": ["design"],
            "due_date": "2026-03-03",
        },
        {
            "key": "WEB-3",
            "title": "Fix broken signup link",
            "type": "bug",
            "status": "done",
            "resolution": "fixed",
            "assignee": "sam@acme.test",
            "updated_at": "2026-03-01T12:00",
            "created_at": "2026-02-27T12:00",
        },
        {"project": "WEB", "title": "Dark mode", "status": "cancelled", "priority": "lowest"},
    ],
    "comments": [
        {"ticket_key": "OPS-12", "author": "priya@acme.test", "body": "Hotel options near Alexanderplatz attached."},
        {"ticket_key": "ops-7", "body": "Waiting on the registrar."},
    ],
    "links": [
        {"source": "OPS-7", "type": "blocks", "target": "OPS-13"},
        {"source": "WEB-5", "type": "duplicates", "target": "WEB-4"},
    ],
}
STATUSES = ["todo", "in_progress", "in_review", "blocked", "done", "cancelled"]
# The workflow as documented for the model: from each status, where a ticket may go next.
ALLOWED = {
    "todo": ["in_progress", "blocked", "done", "cancelled"],
    "in_progress": ["todo", "in_review", "blocked", "done", "cancelled"],
    "in_review": ["in_progress", "blocked", "done", "cancelled"],
    "blocked": ["todo", "in_progress", "cancelled"],
    "done": ["todo", "in_progress"],
    "cancelled": ["todo"],
}
# How to walk a fresh 'todo' ticket to each status.
PATH = {
    "todo": [],
    "in_progress": ["in_progress"],
    "in_review": ["in_progress", "in_review"],
    "blocked": ["blocked"],
    "done": ["done"],
    "cancelled": ["cancelled"],
}


def session(seed: dict | None = None):
    return in_memory(APP, SEED if seed is None else seed, persona=PERSONA, clock=CLOCK)


def rows(sandbox, table: str) -> dict:
    key = APP.tables[table].key
    return {r[key]: r for r in sandbox.snapshot()[table]}


async def search(client, **filters) -> list[str]:
    return [t["key"] for t in structured(await client.call_tool("search_tickets", filters))["tickets"]]


async def test_seed_keys_continue_after_the_highest_seeded_number() -> None:
    async with session() as (client, sandbox):
        tickets = sandbox.snapshot()["tickets"]
        assert [(t["key"], t["number"]) for t in tickets] == [
            ("OPS-7", 7),
            ("OPS-12", 12),
            ("OPS-13", 13),
            ("WEB-4", 4),
            ("WEB-3", 3),
            ("WEB-5", 5),
        ]
        for project, expected in [("OPS", "OPS-14"), ("WEB", "WEB-6"), ("HR", "HR-1"), ("ops", "OPS-15")]:
            created = structured(await client.call_tool("create_ticket", {"project": project, "title": "New"}))
            assert created["key"] == expected
        by_key = rows(sandbox, "tickets")
        assert by_key["OPS-7"]["labels"] == ["security"]
        assert by_key["OPS-7"]["created_at"] == by_key["OPS-7"]["updated_at"] == "2026-02-20T10:00:00+01:00"
        assert by_key["OPS-12"]["created_at"] == NOW and by_key["OPS-12"]["reporter"] == "lee@acme.test"
        assert (by_key["WEB-3"]["resolution"], by_key["WEB-3"]["resolved_at"]) == ("fixed", "2026-03-01T12:00:00+01:00")
        assert by_key["WEB-5"]["resolution"] == "wont_do"
        assert by_key["OPS-13"]["resolution"] is None and by_key["OPS-13"]["reporter"] == "priya@acme.test"


async def test_new_keys_never_collide_with_explicit_keys_in_any_order() -> None:
    seed = {
        "projects": [{"key": "OPS", "name": "Ops"}],
        "tickets": [{"project": "OPS", "title": "a"}, {"key": "OPS-3", "title": "b"}, {"key": "OPS-2", "title": "c"}],
    }
    async with session(seed) as (client, sandbox):
        assert [t["key"] for t in sandbox.snapshot()["tickets"]] == ["OPS-4", "OPS-3", "OPS-2"]
        created = structured(await client.call_tool("create_ticket", {"project": "OPS", "title": "d"}))
        assert created["key"] == "OPS-5"
        sandbox.reset()
        again = structured(await client.call_tool("create_ticket", {"project": "OPS", "title": "e"}))
        assert again["key"] == "OPS-5"
        assert [t["key"] for t in sandbox.snapshot()["tickets"]] == ["OPS-4", "OPS-3", "OPS-2", "OPS-5"]


async def test_lists_projects_and_users() -> None:
    async with session() as (client, _):
        projects = structured(await client.call_tool("list_projects", {}))["projects"]
        assert [(p["key"], p["lead"], p["open_tickets"], p["total_tickets"]) for p in projects] == [
            ("OPS", "priya@acme.test", 3, 3),
            ("WEB", "dana@acme.test", 1, 3),
            ("HR", "dana@acme.test", 0, 0),
        ]
        users = structured(await client.call_tool("list_users", {}))["users"]
        assert [(u["email"], u["is_you"]) for u in users] == [
            ("dana@acme.test", True),
            ("priya@acme.test", False),
            ("sam@acme.test", False),
            ("lee@acme.test", False),
        ]
        assert users[0]["name"] == "Dana Lee"
        support = structured(await client.call_tool("list_users", {"query": "SUPPORT agent"}))["users"]
        assert [u["email"] for u in support] == ["lee@acme.test"]


async def test_search_filters_one_by_one() -> None:
    async with session() as (client, _):
        assert await search(client, project="web", sort="key") == ["WEB-3", "WEB-4", "WEB-5"]
        assert await search(client, status="blocked") == ["OPS-13"]
        assert await search(client, status=["todo", "in_review"]) == ["WEB-4", "OPS-12"]
        assert await search(client, resolved=True, sort="key") == ["WEB-3", "WEB-5"]
        assert await search(client, resolved=False, sort="key") == ["OPS-7", "OPS-12", "OPS-13", "WEB-4"]
        assert await search(client, assignee="sam@acme.test") == ["WEB-4", "WEB-3"]
        assert await search(client, assignee="me") == ["OPS-13"]
        assert await search(client, assignee="unassigned", sort="key") == ["OPS-12", "WEB-5"]
        assert await search(client, reporter="priya@acme.test") == ["OPS-13"]
        assert await search(client, type="bug") == ["OPS-7", "WEB-3"]
        assert await search(client, priority="low") == ["OPS-13"]
        assert await search(client, label="TRAVEL") == ["OPS-12"]
        assert await search(client, text="berlin OFFSITE") == ["OPS-12"]
        assert await search(client, text="wildcard") == ["OPS-7"]  # description
        assert await search(client, text="alexanderplatz") == ["OPS-12"]  # a comment
        assert await search(client, text="ops-13") == ["OPS-13"]  # the key
        assert await search(client, text="berlin registrar") == []
        assert await search(client, due_before="2026-03-05") == ["WEB-4", "OPS-7"]
        assert await search(client, due_after="2026-03-05") == ["OPS-7", "OPS-12"]
        assert await search(client, due_after="2026-03-04", due_before="2026-03-10") == ["OPS-7"]
        assert await search(client, project="OPS", status="in_progress", assignee="priya@acme.test") == ["OPS-7"]


async def test_search_sorting_limit_and_errors() -> None:
    async with session() as (client, sandbox):
        assert await search(client) == ["WEB-4", "OPS-7", "OPS-12", "WEB-3", "OPS-13", "WEB-5"]
        assert await search(client, sort="due_date") == ["WEB-4", "OPS-7", "OPS-12", "WEB-3", "OPS-13", "WEB-5"]
        assert await search(client, sort="key") == ["OPS-7", "OPS-12", "OPS-13", "WEB-3", "WEB-4", "WEB-5"]
        assert (await search(client, sort="created"))[-1] == "OPS-7"
        sandbox.set_clock(advance=60)
        structured(await client.call_tool("add_comment", {"key": "WEB-5", "body": "Reconsider?"}))
        assert (await search(client, sort="updated"))[0] == "WEB-5"
        limited = structured(await client.call_tool("search_tickets", {"limit": 2}))
        assert (limited["count"], limited["total"], [t["key"] for t in limited["tickets"]]) == (
            2,
            6,
            ["WEB-4", "OPS-7"],
        )
        assert "Projects: OPS, WEB, HR" in error_text(await client.call_tool("search_tickets", {"project": "XYZ"}))
        unknown = error_text(await client.call_tool("search_tickets", {"assignee": "ghost@acme.test"}))
        assert "No user with email 'ghost@acme.test'" in unknown and "priya@acme.test (Priya Shah)" in unknown
        assert "valid" in error_text(await client.call_tool("search_tickets", {"status": "open"}))
        assert "status is an empty list" in error_text(await client.call_tool("search_tickets", {"status": []}))


async def test_get_ticket_shows_comments_links_history_and_next_statuses() -> None:
    async with session() as (client, _):
        ticket = structured(await client.call_tool("get_ticket", {"key": "ops-7"}))
        assert ticket["key"] == "OPS-7"
        assert ticket["allowed_transitions"] == ["todo", "in_review", "blocked", "done", "cancelled"]
        assert [(c["author"], c["body"]) for c in ticket["comments"]] == [
            ("dana@acme.test", "Waiting on the registrar.")
        ]
        assert [(link["relation"], link["key"], link["status"]) for link in ticket["links"]] == [
            ("blocks", "OPS-13", "blocked")
        ]
        blocked = structured(await client.call_tool("get_ticket", {"key": "OPS-13"}))
        assert [(link["relation"], link["key"], link["title"]) for link in blocked["links"]] == [
            ("is blocked by", "OPS-7", "Renew TLS certificate")
        ]
        duplicate = structured(await client.call_tool("get_ticket", {"key": "WEB-4"}))
        assert [(link["relation"], link["key"]) for link in duplicate["links"]] == [("is duplicated by", "WEB-5")]
        assert duplicate["history"] == []
        done = structured(await client.call_tool("get_ticket", {"key": "WEB-3"}))
        assert done["allowed_transitions"] == ["todo", "in_progress"]


async def test_unknown_and_malformed_keys() -> None:
    async with session() as (client, _):
        assert "No ticket OPS-99 in project OPS (its tickets run up to OPS-13)" in error_text(
            await client.call_tool("get_ticket", {"key": "OPS-99"})
        )
        assert "HR (it has no tickets yet)" in error_text(await client.call_tool("get_ticket", {"key": "HR-1"}))
        assert "No project with key 'NOPE'" in error_text(await client.call_tool("get_ticket", {"key": "NOPE-1"}))
        assert "not a ticket key" in error_text(await client.call_tool("get_ticket", {"key": "twelve"}))
        assert "No project with key 'XYZ'. Projects: OPS, WEB, HR." in error_text(
            await client.call_tool("create_ticket", {"project": "XYZ", "title": "x"})
        )
        assert "No link with id 'lnk_nope'" in error_text(
            await client.call_tool("unlink_tickets", {"link_id": "lnk_nope"})
        )


async def test_create_ticket_reports_as_the_persona() -> None:
    async with session() as (client, sandbox):
        created = structured(
            await client.call_tool(
                "create_ticket",
                {
                    "project": "OPS",
                    "title": "Order a new VPN token",
                    "description": "For the travel week",
                    "type": "request",
                    "priority": "high",
                    "assignee": "Priya@acme.test",
                    "labels": ["Travel", "vpn", "travel"],
                    "due_date": "2026-03-09",
                },
            )
        )
        assert created["key"] == "OPS-14"
        assert created["allowed_transitions"] == ["in_progress", "blocked", "done", "cancelled"]
        row = rows(sandbox, "tickets")["OPS-14"]
        assert row == {
            "key": "OPS-14",
            "project": "OPS",
            "number": 14,
            "title": "Order a new VPN token",
            "description": "For the travel week",
            "type": "request",
            "status": "todo",
            "priority": "high",
            "assignee": "priya@acme.test",
            "reporter": "dana@acme.test",
            "labels": ["travel", "vpn"],
            "due_date": "2026-03-09",
            "resolution": None,
            "resolved_at": None,
            "created_at": NOW,
            "updated_at": NOW,
        }
        plain = structured(await client.call_tool("create_ticket", {"project": "HR", "title": "Onboarding laptop"}))
        assert (plain["type"], plain["priority"], plain["assignee"], plain["labels"], plain["due_date"]) == (
            "task",
            "medium",
            None,
            [],
            None,
        )
        mine = structured(await client.call_tool("create_ticket", {"project": "HR", "title": "Mine", "assignee": "me"}))
        assert mine["assignee"] == "dana@acme.test"


async def test_update_changes_only_passed_fields_and_keeps_history() -> None:
    async with session() as (client, sandbox):
        before = rows(sandbox, "tickets")["OPS-12"]
        sandbox.set_clock(advance=3600)
        updated = structured(
            await client.call_tool(
                "update_ticket",
                {"key": "OPS-12", "priority": "high", "add_labels": ["urgent"], "remove_labels": ["offsite"]},
            )
        )
        after = rows(sandbox, "tickets")["OPS-12"]
        assert after == before | {
            "priority": "high",
            "labels": ["travel", "urgent"],
            "updated_at": "2026-03-02T10:00:00+01:00",
        }
        assert [(h["field"], h["old_value"], h["new_value"], h["author"]) for h in updated["history"]] == [
            ("priority", "medium", "high", "dana@acme.test"),
            ("labels", "travel, offsite", "travel, urgent", "dana@acme.test"),
        ]
        structured(
            await client.call_tool(
                "update_ticket",
                {"key": "OPS-12", "title": "Book travel for the offsite", "type": "task", "description": "Trains"},
            )
        )
        cleared = structured(await client.call_tool("update_ticket", {"key": "OPS-12", "clear_due_date": True}))
        assert cleared["due_date"] is None
        row = rows(sandbox, "tickets")["OPS-12"]
        assert (row["title"], row["type"], row["description"], row["status"], row["assignee"]) == (
            "Book travel for the offsite",
            "task",
            "Trains",
            "todo",
            None,
        )
        # Only real changes are recorded: the title passed again with a new due date adds one entry.
        again = structured(
            await client.call_tool(
                "update_ticket", {"key": "OPS-12", "title": "Book travel for the offsite", "due_date": "2026-04-01"}
            )
        )
        assert [(h["field"], h["old_value"], h["new_value"]) for h in again["history"][-1:]] == [
            ("due_date", None, "2026-04-01")
        ]
        assert len(sandbox.snapshot()["history"]) == 7


async def test_workflow_allows_exactly_the_documented_transitions() -> None:
    async with session() as (client, sandbox):
        for current in STATUSES:
            for target in STATUSES:
                key = structured(await client.call_tool("create_ticket", {"project": "HR", "title": "x"}))["key"]
                for step in PATH[current]:
                    structured(await client.call_tool("transition_ticket", {"key": key, "status": step}))
                result = await client.call_tool("transition_ticket", {"key": key, "status": target})
                if target in ALLOWED[current]:
                    moved = structured(result)
                    assert moved["status"] == target, (current, target)
                    assert moved["allowed_transitions"] == ALLOWED[target]
                else:
                    message = error_text(result)
                    allowed = ", ".join(ALLOWED[current])
                    assert f"From '{current}' it can move to: {allowed}." in message, (current, target)
                    assert rows(sandbox, "tickets")[key]["status"] == current


async def test_invalid_transition_names_current_and_next_statuses() -> None:
    async with session() as (client, sandbox):
        message = error_text(await client.call_tool("transition_ticket", {"key": "OPS-12", "status": "in_review"}))
        assert message.endswith(
            "Cannot move OPS-12 from 'todo' to 'in_review'. From 'todo' it can move to: in_progress, blocked, done, "
            "cancelled. To get to 'in_review', move it to 'in_progress' first."
        )
        assert "OPS-7 is already 'in_progress'" in error_text(
            await client.call_tool("transition_ticket", {"key": "OPS-7", "status": "in_progress"})
        )
        assert "valid" in error_text(await client.call_tool("transition_ticket", {"key": "OPS-7", "status": "closed"}))
        assert rows(sandbox, "tickets")["OPS-12"]["status"] == "todo"


async def test_closing_sets_a_resolution_and_reopening_clears_it() -> None:
    async with session() as (client, sandbox):
        sandbox.set_clock(advance=600)
        done = structured(
            await client.call_tool(
                "transition_ticket", {"key": "OPS-7", "status": "done", "comment": "Renewed until 2027."}
            )
        )
        assert (done["status"], done["resolution"], done["resolved_at"]) == (
            "done",
            "done",
            "2026-03-02T09:10:00+01:00",
        )
        assert done["comments"][-1]["body"] == "Renewed until 2027."
        assert done["comments"][-1]["author"] == "dana@acme.test"
        assert [(h["field"], h["old_value"], h["new_value"]) for h in done["history"]] == [
            ("status", "in_progress", "done"),
            ("resolution", None, "done"),
        ]
        reopened = structured(await client.call_tool("transition_ticket", {"key": "OPS-7", "status": "in_progress"}))
        assert (reopened["resolution"], reopened["resolved_at"]) == (None, None)
        dup = structured(
            await client.call_tool(
                "transition_ticket", {"key": "OPS-12", "status": "cancelled", "resolution": "duplicate"}
            )
        )
        assert dup["resolution"] == "duplicate"
        fixed = structured(await client.call_tool("transition_ticket", {"key": "OPS-13", "status": "in_progress"}))
        assert fixed["resolution"] is None
        fixed = structured(
            await client.call_tool("transition_ticket", {"key": "OPS-13", "status": "done", "resolution": "fixed"})
        )
        assert fixed["resolution"] == "fixed"
        tickets = rows(sandbox, "tickets")
        assert (tickets["OPS-7"]["status"], tickets["OPS-7"]["resolution"]) == ("in_progress", None)
        assert (tickets["OPS-12"]["status"], tickets["OPS-12"]["resolution"]) == ("cancelled", "duplicate")
        assert tickets["OPS-13"]["resolution"] == "fixed"
        before = sandbox.snapshot()
        assert "only set when moving to done or cancelled" in error_text(
            await client.call_tool("transition_ticket", {"key": "WEB-4", "status": "in_progress", "resolution": "done"})
        )
        assert "resolution is one of: done, fixed; not 'duplicate'" in error_text(
            await client.call_tool("transition_ticket", {"key": "WEB-4", "status": "done", "resolution": "duplicate"})
        )
        assert sandbox.snapshot() == before


async def test_assignment_rules() -> None:
    async with session() as (client, sandbox):
        assigned = structured(await client.call_tool("assign_ticket", {"key": "OPS-12", "assignee": "LEE@acme.test"}))
        assert assigned["assignee"] == "lee@acme.test"
        mine = structured(await client.call_tool("assign_ticket", {"key": "OPS-12", "assignee": "me"}))
        assert mine["assignee"] == "dana@acme.test"
        cleared = structured(await client.call_tool("assign_ticket", {"key": "OPS-12", "assignee": None}))
        assert cleared["assignee"] is None
        assert [(h["field"], h["old_value"], h["new_value"]) for h in cleared["history"]] == [
            ("assignee", None, "lee@acme.test"),
            ("assignee", "lee@acme.test", "dana@acme.test"),
            ("assignee", "dana@acme.test", None),
        ]
        before = sandbox.snapshot()
        unknown = error_text(await client.call_tool("assign_ticket", {"key": "OPS-12", "assignee": "ghost@acme.test"}))
        assert "No user with email 'ghost@acme.test'. Known users:" in unknown
        assert "sam@acme.test (Sam Ortiz)" in unknown and "list_users" in unknown
        assert "OPS-12 is already unassigned" in error_text(
            await client.call_tool("assign_ticket", {"key": "OPS-12", "assignee": None})
        )
        assert "already assigned to priya@acme.test" in error_text(
            await client.call_tool("assign_ticket", {"key": "OPS-7", "assignee": "priya@acme.test"})
        )
        assert "required" in error_text(await client.call_tool("assign_ticket", {"key": "OPS-7"})).lower()
        assert sandbox.snapshot() == before


async def test_comments_are_written_as_the_persona() -> None:
    async with session() as (client, sandbox):
        sandbox.set_clock(advance=120)
        comment = structured(await client.call_tool("add_comment", {"key": "web-4", "body": "Looks great, ship it."}))
        assert comment["ticket_key"] == "WEB-4"
        assert (comment["author"], comment["created_at"]) == ("dana@acme.test", "2026-03-02T09:02:00+01:00")
        stored = rows(sandbox, "comments")[comment["id"]]
        assert stored == comment
        assert rows(sandbox, "tickets")["WEB-4"]["updated_at"] == "2026-03-02T09:02:00+01:00"
        shown = structured(await client.call_tool("get_ticket", {"key": "WEB-4"}))
        assert [c["id"] for c in shown["comments"]] == [comment["id"]]
        before = sandbox.snapshot()
        assert "empty" in error_text(await client.call_tool("add_comment", {"key": "WEB-4", "body": "   "}))
        assert "body" in error_text(await client.call_tool("add_comment", {"key": "WEB-4", "body": ""}))
        assert sandbox.snapshot() == before


async def test_link_and_unlink_tickets() -> None:
    async with session() as (client, sandbox):
        link = structured(
            await client.call_tool("link_tickets", {"source": "ops-12", "type": "relates_to", "target": "WEB-4"})
        )
        assert (link["source"], link["target"], link["summary"]) == ("OPS-12", "WEB-4", "OPS-12 relates to WEB-4")
        structured(await client.call_tool("link_tickets", {"source": "OPS-13", "type": "blocks", "target": "OPS-12"}))
        source = structured(await client.call_tool("get_ticket", {"key": "OPS-12"}))
        assert [(x["relation"], x["key"]) for x in source["links"]] == [
            ("relates to", "WEB-4"),
            ("is blocked by", "OPS-13"),
        ]
        target = structured(await client.call_tool("get_ticket", {"key": "WEB-4"}))
        assert ("relates to", "OPS-12") in [(x["relation"], x["key"]) for x in target["links"]]
        assert [(h["field"], h["new_value"]) for h in target["history"]] == [("link", "relates to OPS-12")]
        stored = rows(sandbox, "links")[link["id"]]
        assert (stored["source"], stored["target"], stored["type"], stored["created_by"]) == (
            "OPS-12",
            "WEB-4",
            "relates_to",
            "dana@acme.test",
        )

        before = sandbox.snapshot()
        assert "cannot be linked to itself" in error_text(
            await client.call_tool("link_tickets", {"source": "OPS-12", "type": "blocks", "target": "ops-12"})
        )
        assert f"Already linked: OPS-12 relates to WEB-4 (link {link['id']})" in error_text(
            await client.call_tool("link_tickets", {"source": "WEB-4", "type": "relates_to", "target": "OPS-12"})
        )
        assert "Already linked: OPS-7 blocks OPS-13" in error_text(
            await client.call_tool("link_tickets", {"source": "OPS-13", "type": "blocks", "target": "OPS-7"})
        )
        assert "No ticket HR-1" in error_text(
            await client.call_tool("link_tickets", {"source": "OPS-12", "type": "blocks", "target": "HR-1"})
        )
        assert "valid" in error_text(
            await client.call_tool("link_tickets", {"source": "OPS-12", "type": "causes", "target": "WEB-4"})
        )
        assert sandbox.snapshot() == before

        removed = structured(await client.call_tool("unlink_tickets", {"link_id": link["id"]}))
        assert removed["summary"] == "OPS-12 relates to WEB-4"
        assert link["id"] not in rows(sandbox, "links")
        after = structured(await client.call_tool("get_ticket", {"key": "WEB-4"}))
        assert "OPS-12" not in [x["key"] for x in after["links"]]
        assert (after["history"][-1]["old_value"], after["history"][-1]["new_value"]) == ("relates to OPS-12", None)


async def test_invalid_calls_change_nothing() -> None:
    async with session() as (client, sandbox):
        before = sandbox.snapshot()
        failures = {
            "transition_ticket": [
                ({"key": "OPS-12", "status": "in_review", "comment": "Starting review"}, "Cannot move"),
                ({"key": "OPS-12", "status": "done", "comment": "  "}, "comment is empty"),
            ],
            "create_ticket": [
                ({"project": "OPS", "title": "x", "assignee": "ghost@acme.test"}, "No user with email"),
                ({"project": "OPS", "title": ""}, "title"),
                ({"project": "OPS", "title": "x", "labels": ["two words"]}, "labels"),
                ({"project": "OPS", "title": "x", "priority": "P1"}, "valid"),
                ({"project": "OPS", "title": "x", "due_date": "next week"}, "due_date"),
            ],
            "update_ticket": [
                ({"key": "OPS-12"}, "Nothing to change"),
                ({"key": "OPS-12", "priority": "medium"}, "Nothing changed: OPS-12 already has priority 'medium'."),
                ({"key": "OPS-12", "add_labels": ["travel"]}, "already has labels 'travel, offsite'"),
                ({"key": "OPS-12", "remove_labels": ["urgent"]}, "has no label(s) urgent"),
                ({"key": "OPS-12", "add_labels": ["a"], "remove_labels": ["a"]}, "both added and removed"),
                ({"key": "OPS-12", "due_date": "2026-04-01", "clear_due_date": True}, "not both"),
                ({"key": "OPS-99", "title": "x"}, "No ticket OPS-99"),
            ],
            "add_comment": [({"key": "OPS-99", "body": "hi"}, "No ticket OPS-99")],
        }
        for tool, cases in failures.items():
            for arguments, expected in cases:
                assert expected in error_text(await client.call_tool(tool, arguments)), (tool, arguments)
        assert sandbox.snapshot() == before
        # The failed create_ticket did not use up a number.
        created = structured(await client.call_tool("create_ticket", {"project": "OPS", "title": "Real"}))
        assert created["key"] == "OPS-14"


async def test_tools_have_descriptions_schemas_and_annotations() -> None:
    async with session() as (client, _):
        listed = (await client.list_tools()).tools
        assert {t.name for t in listed} == {
            "list_projects",
            "list_users",
            "search_tickets",
            "get_ticket",
            "create_ticket",
            "update_ticket",
            "transition_ticket",
            "assign_ticket",
            "add_comment",
            "link_tickets",
            "unlink_tickets",
        }
        for tool in listed:
            assert tool.description and len(tool.description) > 60, tool.name
            assert tool.output_schema and tool.output_schema["type"] == "object", tool.name
            assert tool.annotations is not None and tool.annotations.title, tool.name
        read_only = {t.name for t in listed if t.annotations.read_only_hint}
        assert read_only == {"list_projects", "list_users", "search_tickets", "get_ticket"}
        destructive = {t.name for t in listed if t.annotations.destructive_hint}
        assert destructive == {"unlink_tickets"}
        by_name = {t.name: t for t in listed}
        assert "allowed_transitions" in by_name["get_ticket"].output_schema["properties"]
        assert set(by_name["search_tickets"].input_schema["properties"]) >= {
            "project",
            "status",
            "assignee",
            "reporter",
            "type",
            "priority",
            "label",
            "text",
            "due_before",
            "due_after",
            "limit",
        }
        assert "status" not in by_name["update_ticket"].input_schema["properties"]
        workflow = by_name["transition_ticket"].description
        for current, targets in ALLOWED.items():
            assert f"{current:<11} -> {', '.join(targets)}" in workflow, current


def ops(*tickets: dict, **rest: list) -> dict:
    """A seed with project OPS, the given tickets and any other tables."""
    return {"projects": [{"key": "OPS", "name": "Ops"}], "tickets": list(tickets), **rest}


GHOST = "ghost@acme.test"


@pytest.mark.parametrize(
    ("seed", "expected"),
    [
        ({"tickets": [{"project": "OPS", "title": "x"}]}, "tickets[0].project: no project with key 'OPS'"),
        ({"tickets": [{"key": "OPS-1", "title": "x"}]}, "tickets[0].key: no project with key 'OPS'"),
        (
            ops({"title": "x", "project": "OPS", "assignee": GHOST}),
            f"tickets[0].assignee: no user with email '{GHOST}'",
        ),
        (
            ops({"title": "x", "key": "OPS-1", "reporter": GHOST}),
            f"tickets[0] (key 'OPS-1').reporter: no user with email '{GHOST}'",
        ),
        (
            ops({"project": "OPS", "title": "a"}, {"project": "OPS", "title": "b", "status": "closed"}),
            "tickets[1].status: Input should be 'todo', 'in_progress'",
        ),
        (
            ops({"key": "OPS-1", "title": "x"}, links=[{"source": "OPS-1", "type": "blocks", "target": "OPS-2"}]),
            "links[0].target: no ticket with key 'OPS-2'",
        ),
        (
            ops({"key": "OPS-1", "title": "x"}, links=[{"source": "OPS-1", "type": "blocks", "target": "OPS-1"}]),
            "links[0].target: a ticket cannot be linked to itself",
        ),
        (
            ops({"key": "OPS-1", "title": "x"}, {"key": "OPS-1", "title": "y"}),
            "tickets[1].key: duplicate ticket key 'OPS-1'",
        ),
        (
            ops({"key": "OPS-1", "project": "WEB", "title": "x"}),
            "tickets[0] (key 'OPS-1').project: key 'OPS-1' belongs to project 'OPS', not 'WEB'",
        ),
        (
            ops({"project": "OPS", "title": "x", "resolution": "fixed"}),
            "tickets[0].resolution: a 'todo' ticket is open and cannot have a resolution",
        ),
        (
            ops({"project": "OPS", "title": "x", "status": "cancelled", "resolution": "fixed"}),
            "tickets[0].resolution: a 'cancelled' ticket's resolution is one of wont_do, duplicate, cannot_reproduce",
        ),
        (
            {"projects": [{"key": "OPS", "name": "Ops", "lead": GHOST}]},
            "projects[0] (key 'OPS').lead: no user with email",
        ),
        ({"projects": [{"key": "ops", "name": "Ops"}]}, "projects[0].key: String should match pattern"),
        ({"tickets": [{"key": "ops12", "title": "x"}]}, "tickets[0].key: Value error, 'ops12' is not a ticket key"),
        (
            {"users": [{"email": "a@acme.test"}, {"email": "A@acme.test"}]},
            "users[1].email: duplicate user 'a@acme.test'",
        ),
        (
            ops({"key": "OPS-1", "title": "x"}, comments=[{"ticket_key": "OPS-1", "body": "hi", "author": GHOST}]),
            f"comments[0].author: no user with email '{GHOST}'",
        ),
        (ops(comments=[{"ticket_key": "OPS-4", "body": "hi"}]), "comments[0].ticket_key: no ticket with key 'OPS-4'"),
        ({"tickets": [{"title": "x", "colour": "red"}]}, "tickets[0].colour: Extra inputs are not permitted"),
    ],
)
def test_bad_seed_names_table_row_and_field(seed: dict, expected: str) -> None:
    store = SandboxStore(APP)
    with pytest.raises(SeedError) as caught:
        store.create("x", SandboxSpec(seed=seed, persona=PERSONA))
    assert expected in str(caught.value)
    assert "x" not in store


def test_minimal_seeds_load() -> None:
    store = SandboxStore(APP)
    empty = store.create("empty", SandboxSpec(persona=PERSONA)).snapshot()
    assert empty["users"] == [{"email": "dana@acme.test", "name": "Dana Lee", "team": "", "role": ""}]
    assert all(empty[t] == [] for t in ("projects", "tickets", "comments", "links", "history"))
    # The base the bad seeds above depart from is itself valid.
    base = store.create("base", SandboxSpec(seed=ops({"project": "OPS", "title": "x"}), persona=PERSONA)).snapshot()
    assert [(t["key"], t["reporter"], t["status"]) for t in base["tickets"]] == [("OPS-1", "dana@acme.test", "todo")]
    assert base["projects"][0]["lead"] == "dana@acme.test"
    store.close()
