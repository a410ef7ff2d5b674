"""The mail app, driven through a real MCP client."""

from __future__ import annotations

import json

import pytest
from helpers import error_text, in_memory, structured

from servers.core import SandboxSpec, SandboxStore, SeedError
from servers.mail import APP

PERSONA = {"name": "Dana Lee", "email": "dana@acme.test", "timezone": "Europe/Berlin"}
CLOCK = {"start": "2026-03-06T09:00:00+01:00"}  # a Friday
SEED = {
    "labels": ["Receipts", "Q1 Reports"],
    "contacts": [
        {"email": "priya@acme.test", "name": "Priya Shah"},
        {"email": "sam@acme.test", "name": "Sam Ortiz"},
        {"email": "Lee Chen <lee@partner.test>"},
    ],
    "messages": [
        {
            "id": "budget",
            "thread_id": "t-budget",
            "from": "Priya Shah <Priya@Acme.test>",
            "to": ["dana@acme.test"],
            "cc": ["sam@acme.test", "lee@partner.test"],
            "subject": "Q1 budget review",
            "body": "Can you review the attached numbers before Friday?",
            "sent_at": "2026-03-02T10:00",
            "labels": ["q1 reports"],
            "attachments": [{"name": "budget-q1.xlsx", "content": "Travel 12000\nHiring 50000"}],
        },
        {
            "id": "budget-re",
            "in_reply_to": "budget",
            "to": ["priya@acme.test"],
            "subject": "Re: Q1 budget review",
            "body": "Looks good, one question on travel.",
            "sent_at": "2026-03-02T11:30",
        },
        {
            "id": "invoice",
            "from": "billing@vendor.test",
            "subject": "Invoice 0042",
            "body": "Your invoice is attached.",
            "sent_at": "2026-02-19T23:00:00Z",  # midnight starting the 20th in Berlin
            "is_read": True,
            "labels": ["Receipts"],
            "attachments": [{"name": "invoice-0042.pdf", "content": "Amount due: 300 EUR, PO-7781"}],
        },
        {
            "id": "lunch",
            "from": "sam@acme.test",
            "subject": "Lunch on Thursday?",
            "body": "Tacos?",
            "sent_at": "2026-03-05T12:00",
            "is_starred": True,
        },
        {
            "id": "prize",
            "from": "winner@lottery.test",
            "folder": "spam",
            "subject": "You won a prize",
            "sent_at": "2026-03-04T09:00",
        },
        {
            "id": "old-news",
            "from": "news@paper.test",
            "folder": "trash",
            "subject": "Weekly budget digest",
            "sent_at": "2026-01-10T07:00",
            "is_read": True,
        },
        {
            "id": "draft-1",
            "folder": "drafts",
            "to": ["lee@partner.test"],
            "subject": "Partnership follow-up",
            "body": "Hi Lee,",
            "sent_at": "2026-03-05T18:00",
        },
        {
            "id": "offsite",
            "from": "priya@acme.test",
            "to": ["sam@acme.test"],
            "cc": ["dana@acme.test"],
            "folder": "archive",
            "subject": "Offsite venue",
            "body": "The Berlin venue is confirmed.",
            "sent_at": "2026-02-25T15:00",
            "is_read": True,
        },
    ],
}
VISIBLE = ["draft-1", "lunch", "budget-re", "budget", "offsite", "invoice"]  # newest first, no trash or spam


def session():
    return in_memory(APP, SEED, persona=PERSONA, clock=CLOCK)


def rows(sandbox, table: str = "messages", key: str = "id") -> dict[str, dict]:
    return {r[key]: r for r in sandbox.snapshot()[table]}


async def call(client, tool: str, arguments: dict) -> dict:
    """The structured result of a tool call that must succeed."""
    return structured(await client.call_tool(tool, arguments))


async def fail(client, tool: str, arguments: dict) -> str:
    """The error text of a tool call that must fail."""
    return error_text(await client.call_tool(tool, arguments))


async def search(client, query: str) -> list[str]:
    found = await call(client, "search_messages", {"query": query})
    return [m["id"] for m in found["messages"]]


# -- seed and reading -----------------------------------------------------------


async def test_seed_becomes_rows_with_defaults() -> None:
    async with session() as (_, sandbox):
        messages = rows(sandbox)
        assert list(messages) == [m["id"] for m in SEED["messages"]]
        budget, reply, invoice = messages["budget"], messages["budget-re"], messages["invoice"]
        assert (budget["from"], budget["from_name"], budget["folder"]) == ("priya@acme.test", "Priya Shah", "inbox")
        assert budget["labels"] == ["Q1 Reports"] and budget["is_read"] is False
        assert budget["sent_at"] == "2026-03-02T10:00:00+01:00"
        assert (reply["thread_id"], reply["in_reply_to"], reply["folder"]) == ("t-budget", "budget", "sent")
        assert (reply["from"], reply["from_name"], reply["is_read"]) == ("dana@acme.test", "Dana Lee", True)
        assert invoice["to"] == ["dana@acme.test"]
        assert invoice["sent_at"] == "2026-02-20T00:00:00+01:00"
        assert invoice["thread_id"].startswith("thr_") and invoice["thread_id"] != budget["thread_id"]
        assert messages["lunch"]["from_name"] == "Sam Ortiz"
        assert rows(sandbox, "contacts", "email")["lee@partner.test"]["name"] == "Lee Chen"
        assert list(rows(sandbox, "labels", "name")) == ["Receipts", "Q1 Reports"]


async def test_search_operators() -> None:
    expected = {
        "": VISIBLE,
        "from:priya": ["budget", "offsite"],
        'from:"Priya Shah"': ["budget", "offsite"],
        "from:Sam": ["lunch"],
        "to:priya@acme.test": ["budget-re"],
        "to:lee@partner": ["draft-1", "budget"],
        "to:chen": ["draft-1", "budget"],
        "to:ortiz": ["budget", "offsite"],
        "cc:sam": ["budget"],
        "bcc:sam": [],
        "subject:budget": ["budget-re", "budget"],
        'subject:"budget review"': ["budget-re", "budget"],
        "SUBJECT:INVOICE": ["invoice"],
        "is:unread": ["lunch", "budget"],
        "is:read": ["draft-1", "budget-re", "offsite", "invoice"],
        "is:starred": ["lunch"],
        "has:attachment": ["budget", "invoice"],
        "filename:pdf": ["invoice"],
        "in:inbox": ["lunch", "budget", "invoice"],
        "in:sent": ["budget-re"],
        "in:drafts": ["draft-1"],
        "in:archive": ["offsite"],
        "in:trash": ["old-news"],
        "in:spam": ["prize"],
        "in:anywhere": ["draft-1", "lunch", "prize", "budget-re", "budget", "offsite", "invoice", "old-news"],
        "label:receipts": ["invoice"],
        "label:q1-reports": ["budget"],
        'label:"Q1 Reports"': ["budget"],
        "in:receipts": ["invoice"],
        "after:2026-03-02": ["draft-1", "lunch", "budget-re", "budget"],
        "before:2026-03-02": ["offsite", "invoice"],
        "after:2026/02/21 before:2026-03-02": ["offsite"],
        "after:2026-02-20": ["draft-1", "lunch", "budget-re", "budget", "offsite", "invoice"],
        "before:2026-02-20": [],
        "newer_than:2d": ["draft-1", "lunch"],
        "older_than:1w": ["offsite", "invoice"],
        "tacos": ["lunch"],
        "PO-7781": ["invoice"],
        "budget-q1.xlsx": ["budget"],
        '"one question"': ["budget-re"],
        "ortiz": ["lunch", "budget", "offsite"],
        "budget travel": ["budget-re", "budget"],
        "subject:budget -in:sent": ["budget"],
        "-is:read": ["lunch", "budget"],
        "from:sam OR from:billing": ["lunch", "invoice"],
        "budget in:trash": ["old-news"],
        'is:unread label:"Q1 Reports"': ["budget"],
        "no such words": [],
    }
    async with session() as (client, _):
        for query, ids in expected.items():
            assert await search(client, query) == ids, query
        limited = await call(client, "search_messages", {"query": "", "max_results": 2})
        assert [m["id"] for m in limited["messages"]] == VISIBLE[:2]
        assert (limited["count"], limited["total"]) == (2, len(VISIBLE))
        summary = limited["messages"][1]
        assert summary["from"] == "sam@acme.test" and summary["snippet"] == "Tacos?"
        with_files = await call(client, "search_messages", {"query": "has:attachment"})
        assert [m["attachment_names"] for m in with_files["messages"]] == [["budget-q1.xlsx"], ["invoice-0042.pdf"]]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("is:urgent", "is:urgent is not supported; use is:unread"),
        ("has:pdf", "use has:attachment"),
        ("in:nowhere", "in:nowhere names no folder or label"),
        ("label:taxes", "your labels: Receipts, Q1 Reports"),
        ("after:2026-13-01", "after: needs a date as YYYY-MM-DD"),
        ("before:yesterday", "before: needs a date"),
        ("newer_than:5x", "newer_than: needs an age such as 3d"),
        ("foo:bar", "unknown search operator 'foo:'"),
        ('subject:"unclosed', "unclosed quote"),
        ("from: priya", "from: needs a value right after the colon, e.g. from:priya"),
        ("is: unread", "e.g. is:unread"),
        ("OR from:sam", "OR needs a search term on each side"),
        ("from:sam OR", "OR needs a search term on each side"),
        ('""', "empty quotes"),
    ],
)
async def test_invalid_queries_are_clear_errors(query: str, message: str) -> None:
    async with session() as (client, _):
        text = await fail(client, "search_messages", {"query": query})
        assert "Invalid search query: " in text and message in text, text


async def test_get_message_and_thread() -> None:
    async with session() as (client, _):
        result = await client.call_tool("get_message", {"message_id": "budget"})
        message = structured(result)
        assert message["from"] == "priya@acme.test" and "from_" not in message
        assert json.loads(result.content[0].text)["from"] == "priya@acme.test"
        assert message["cc"] == ["sam@acme.test", "lee@partner.test"]
        assert message["attachments"] == [{"name": "budget-q1.xlsx", "content": "Travel 12000\nHiring 50000"}]
        assert message["is_read"] is False  # reading does not mark read
        thread = await call(client, "get_thread", {"thread_id": "t-budget"})
        assert thread["subject"] == "Q1 budget review"
        assert [m["id"] for m in thread["messages"]] == ["budget", "budget-re"]
        assert "No message with id 'nope'" in await fail(client, "get_message", {"message_id": "nope"})
        assert "No thread with id 'nope'" in await fail(client, "get_thread", {"thread_id": "nope"})


async def test_list_folders_counts_messages_and_unread() -> None:
    async with session() as (client, sandbox):
        folders = (await call(client, "list_folders", {}))["folders"]
        assert [(f["name"], f["kind"], f["total"], f["unread"]) for f in folders] == [
            ("inbox", "system", 3, 2),
            ("sent", "system", 1, 0),
            ("drafts", "system", 1, 0),
            ("archive", "system", 1, 0),
            ("trash", "system", 1, 0),
            ("spam", "system", 1, 1),
            ("Receipts", "label", 1, 0),
            ("Q1 Reports", "label", 1, 1),
        ]


async def test_search_contacts() -> None:
    async with session() as (client, _):
        found = (await call(client, "search_contacts", {"query": "PRIYA"}))["contacts"]
        assert found == [{"email": "priya@acme.test", "name": "Priya Shah", "saved": True}]
        billing = (await call(client, "search_contacts", {"query": "billing"}))["contacts"]
        assert billing == [{"email": "billing@vendor.test", "name": "", "saved": False}]
        everyone = (await call(client, "search_contacts", {}))["contacts"]
        assert [c["email"] for c in everyone][:3] == ["lee@partner.test", "priya@acme.test", "sam@acme.test"]
        assert "dana@acme.test" not in {c["email"] for c in everyone}
        assert {"news@paper.test", "winner@lottery.test"} <= {c["email"] for c in everyone}


# -- sending --------------------------------------------------------------------


async def test_send_message_starts_a_thread_in_sent() -> None:
    async with session() as (client, sandbox):
        sent = await call(
            client,
            "send_message",
            {
                "to": ["Priya Shah <Priya@Acme.test>", "sam@acme.test"],
                "cc": ["SAM@acme.test", "lee@partner.test"],
                "bcc": ["boss@acme.test"],
                "subject": "Offsite agenda",
                "body": "Agenda attached.",
                "attachments": [{"name": "agenda.txt", "content": "1. Budget\n2. Hiring"}],
            },
        )
        assert (sent["to"], sent["cc"], sent["bcc"]) == (
            ["priya@acme.test", "sam@acme.test"],
            ["lee@partner.test"],
            ["boss@acme.test"],
        )
        row = rows(sandbox)[sent["id"]]
        assert row["folder"] == "sent" and row["from"] == "dana@acme.test" and row["from_name"] == "Dana Lee"
        assert row["sent_at"] == "2026-03-06T09:00:00+01:00"
        assert row["is_read"] is True and row["in_reply_to"] is None and row["labels"] == []
        assert row["attachments"] == [{"name": "agenda.txt", "content": "1. Budget\n2. Hiring"}]
        assert row["thread_id"] not in {r["thread_id"] for r in sandbox.snapshot()["messages"] if r["id"] != sent["id"]}
        assert await search(client, "to:boss in:sent") == [sent["id"]]
        # Sent at the same moment, the later message still lists first.
        later = await call(client, "send_message", {"to": ["sam@acme.test"], "subject": "P.S.", "body": "Snacks!"})
        assert await search(client, "in:sent") == [later["id"], sent["id"], "budget-re"]


async def test_reply_and_reply_all_keep_the_thread() -> None:
    async with session() as (client, sandbox):
        plain = await call(client, "reply", {"message_id": "budget", "body": "On it."})
        assert (plain["to"], plain["cc"]) == (["priya@acme.test"], [])
        assert (plain["thread_id"], plain["in_reply_to"]) == ("t-budget", "budget")
        assert plain["subject"] == "Re: Q1 budget review"
        everyone = await call(
            client, "reply", {"message_id": "budget", "body": "All good.", "reply_all": True, "cc": ["boss@acme.test"]}
        )
        assert everyone["to"] == ["priya@acme.test"]
        assert everyone["cc"] == ["sam@acme.test", "lee@partner.test", "boss@acme.test"]
        # Replying to your own message goes to its recipients, and "Re:" is not doubled.
        own = await call(client, "reply", {"message_id": "budget-re", "body": "Also hiring."})
        assert (own["to"], own["subject"]) == (["priya@acme.test"], "Re: Q1 budget review")
        lunch = await call(client, "reply", {"message_id": "lunch", "body": "Yes!", "reply_all": True})
        assert (lunch["to"], lunch["cc"]) == (["sam@acme.test"], [])
        # You were only copied: reply-all goes to the sender and the other recipients, never back to you.
        copied = await call(client, "reply", {"message_id": "offsite", "body": "Great", "reply_all": True})
        assert (copied["to"], copied["cc"]) == (["priya@acme.test", "sam@acme.test"], [])
        thread = await call(client, "get_thread", {"thread_id": "t-budget"})
        assert [m["id"] for m in thread["messages"]] == ["budget", "budget-re", plain["id"], everyone["id"], own["id"]]
        stored = rows(sandbox)[everyone["id"]]
        assert stored["folder"] == "sent" and stored["in_reply_to"] == "budget" and stored["body"] == "All good."
        assert "unsent draft" in await fail(client, "reply", {"message_id": "draft-1", "body": "x"})
        assert "No message with id" in await fail(client, "reply", {"message_id": "nope", "body": "x"})


async def test_forward_quotes_the_original_and_carries_attachments() -> None:
    async with session() as (client, sandbox):
        fwd = await call(
            client, "forward", {"message_id": "invoice", "to": ["accounting@acme.test"], "body": "FYI, please pay."}
        )
        assert (fwd["subject"], fwd["to"]) == ("Fwd: Invoice 0042", ["accounting@acme.test"])
        assert fwd["forwarded_from"] == "invoice" and fwd["in_reply_to"] is None
        assert fwd["attachments"] == [{"name": "invoice-0042.pdf", "content": "Amount due: 300 EUR, PO-7781"}]
        assert fwd["body"] == (
            "FYI, please pay.\n\n---------- Forwarded message ---------\nFrom: billing@vendor.test\n"
            "Date: Fri, 20 Feb 2026 at 00:00\nSubject: Invoice 0042\nTo: dana@acme.test\n\nYour invoice is attached."
        )
        row = rows(sandbox)[fwd["id"]]
        assert row["folder"] == "sent" and row["thread_id"] == rows(sandbox)["invoice"]["thread_id"]
        again = await call(
            client, "forward", {"message_id": fwd["id"], "to": ["sam@acme.test"], "include_attachments": False}
        )
        assert (again["subject"], again["attachments"]) == ("Fwd: Invoice 0042", [])
        assert again["body"].startswith("---------- Forwarded message ---------\nFrom: Dana Lee <dana@acme.test>")
        assert "Cc:" in (await call(client, "forward", {"message_id": "budget", "to": ["x@acme.test"]}))["body"]
        assert "no recipients" in await fail(client, "forward", {"message_id": "invoice", "to": []})
        assert "unsent draft" in await fail(client, "forward", {"message_id": "draft-1", "to": ["sam@acme.test"]})


async def test_draft_lifecycle() -> None:
    async with session() as (client, sandbox):
        draft = await call(client, "create_draft", {"subject": "Hiring plan", "body": "Draft v1"})
        assert (draft["folder"], draft["to"], draft["is_read"]) == ("drafts", [], True)
        assert "no recipients" in await fail(client, "send_draft", {"draft_id": draft["id"]})
        assert "Nothing to change" in await fail(client, "update_draft", {"draft_id": draft["id"]})
        sandbox.set_clock(advance=600)
        updated = await call(
            client, "update_draft", {"draft_id": draft["id"], "to": ["Priya@acme.test"], "body": "Draft v2"}
        )
        assert (updated["to"], updated["subject"], updated["body"]) == (["priya@acme.test"], "Hiring plan", "Draft v2")
        assert updated["sent_at"] == "2026-03-06T09:10:00+01:00"
        sandbox.set_clock(advance=600)
        sent = await call(client, "send_draft", {"draft_id": draft["id"]})
        assert (sent["id"], sent["folder"], sent["sent_at"]) == (draft["id"], "sent", "2026-03-06T09:20:00+01:00")
        assert rows(sandbox)[draft["id"]]["folder"] == "sent"
        assert "is not a draft (it is in 'sent')" in await fail(client, "send_draft", {"draft_id": draft["id"]})
        assert "is not a draft" in await fail(client, "update_draft", {"draft_id": "budget", "subject": "x"})

        reply_draft = await call(client, "create_draft", {"in_reply_to": "lunch", "body": "Sure"})
        assert (reply_draft["to"], reply_draft["subject"], reply_draft["in_reply_to"]) == (
            ["sam@acme.test"],
            "Re: Lunch on Thursday?",
            "lunch",
        )
        assert reply_draft["thread_id"] == rows(sandbox)["lunch"]["thread_id"]
        assert (await call(client, "send_draft", {"draft_id": reply_draft["id"]}))["folder"] == "sent"

        deleted = await call(client, "delete_draft", {"draft_id": "draft-1"})
        assert deleted == {"deleted": "draft-1", "subject": "Partnership follow-up"}
        assert "draft-1" not in rows(sandbox)
        assert "No draft with id 'draft-1'" in await fail(client, "delete_draft", {"draft_id": "draft-1"})
        assert "is not a draft" in await fail(client, "delete_draft", {"draft_id": "budget"})
        assert "draft is empty" in await fail(client, "create_draft", {})


# -- organizing -----------------------------------------------------------------


async def test_read_flags_and_stars() -> None:
    async with session() as (client, sandbox):
        marked = await call(client, "mark_read", {"message_ids": ["lunch", "budget", "invoice", "lunch"]})
        assert marked == {"changed": ["lunch", "budget"], "unchanged": ["invoice"]}
        assert all(rows(sandbox)[i]["is_read"] for i in ("lunch", "budget", "invoice"))
        assert "already read" in await fail(client, "mark_read", {"message_ids": ["lunch"]})
        unread = await call(client, "mark_unread", {"message_ids": ["invoice"]})
        assert unread == {"changed": ["invoice"], "unchanged": []}
        assert rows(sandbox)["invoice"]["is_read"] is False
        assert "drafts have no read state" in await fail(client, "mark_unread", {"message_ids": ["draft-1"]})
        assert (await call(client, "star", {"message_ids": ["invoice"]}))["changed"] == ["invoice"]
        assert await search(client, "is:starred") == ["lunch", "invoice"]
        unstarred = await call(client, "unstar", {"message_ids": ["lunch", "invoice"]})
        assert unstarred == {"changed": ["lunch", "invoice"], "unchanged": []}
        assert "already unstarred" in await fail(client, "unstar", {"message_ids": ["lunch"]})
        assert not any(r["is_starred"] for r in sandbox.snapshot()["messages"])


async def test_move_and_trash() -> None:
    async with session() as (client, sandbox):
        moved = await call(client, "move_to_folder", {"message_ids": ["lunch"], "folder": "archive"})
        assert moved == {"changed": ["lunch"], "unchanged": []}
        assert await search(client, "in:inbox") == ["budget", "invoice"]
        await call(client, "move_to_folder", {"message_ids": ["lunch"], "folder": "INBOX"})
        assert rows(sandbox)["lunch"]["folder"] == "inbox"
        again = await fail(client, "move_to_folder", {"message_ids": ["lunch"], "folder": "inbox"})
        assert "Nothing to change: 'lunch' is already in 'inbox'" in again

        trashed = await call(client, "trash_message", {"message_ids": ["budget", "old-news"]})
        assert trashed == {"changed": ["budget"], "unchanged": ["old-news"]}
        assert await search(client, "in:trash") == ["budget", "old-news"]
        assert "budget" not in await search(client, "")
        assert "already in the trash" in await fail(client, "trash_message", {"message_ids": ["budget"]})
        assert "delete_draft" in await fail(client, "trash_message", {"message_ids": ["draft-1"]})

        restored = await call(client, "move_to_folder", {"message_ids": ["budget", "old-news"], "folder": "inbox"})
        assert restored["changed"] == ["budget", "old-news"]
        await call(client, "trash_message", {"message_ids": ["budget-re"]})
        await call(client, "move_to_folder", {"message_ids": ["budget-re"], "folder": "sent"})
        await call(client, "move_to_folder", {"message_ids": ["prize"], "folder": "archive"})
        await call(client, "move_to_folder", {"message_ids": ["lunch"], "folder": "spam"})
        folders = {r["id"]: r["folder"] for r in sandbox.snapshot()["messages"]}
        assert folders == {
            "budget": "inbox",
            "budget-re": "sent",
            "invoice": "inbox",
            "lunch": "spam",
            "prize": "archive",
            "old-news": "inbox",
            "draft-1": "drafts",
            "offsite": "archive",
        }


async def test_labels() -> None:
    async with session() as (client, sandbox):
        added = await call(client, "add_label", {"message_ids": ["lunch", "invoice"], "label": "receipts"})
        assert added == {"changed": ["lunch"], "unchanged": ["invoice"]}
        assert rows(sandbox)["lunch"]["labels"] == ["Receipts"]
        assert rows(sandbox)["lunch"]["folder"] == "inbox"
        assert await search(client, "label:Receipts") == ["lunch", "invoice"]
        again = await fail(client, "add_label", {"message_ids": ["lunch"], "label": "Receipts"})
        assert "already labelled 'Receipts'" in again
        removed = await call(client, "remove_label", {"message_ids": ["invoice"], "label": "RECEIPTS"})
        assert removed["changed"] == ["invoice"] and rows(sandbox)["invoice"]["labels"] == []
        again = await fail(client, "remove_label", {"message_ids": ["invoice"], "label": "Receipts"})
        assert "already without the label 'Receipts'" in again

        assert "create_label" in await fail(client, "add_label", {"message_ids": ["lunch"], "label": "Taxes"})
        label = await call(client, "create_label", {"name": "  Taxes  2026 "})
        assert label == {"name": "Taxes 2026", "kind": "label", "total": 0, "unread": 0}
        assert "already exists" in await fail(client, "create_label", {"name": "taxes 2026"})
        assert "system folder" in await fail(client, "create_label", {"name": "Inbox"})
        await call(client, "add_label", {"message_ids": ["lunch", "budget"], "label": "taxes-2026"})
        assert rows(sandbox)["lunch"]["labels"] == ["Receipts", "Taxes 2026"]
        as_folder = await fail(client, "move_to_folder", {"message_ids": ["lunch"], "folder": "Taxes 2026"})
        assert "is a label, not a folder: use add_label" in as_folder

        gone = await call(client, "delete_label", {"name": "Q1 Reports"})
        assert gone == {"deleted": "Q1 Reports", "removed_from": ["budget"]}
        assert rows(sandbox)["budget"]["labels"] == ["Taxes 2026"]
        assert list(rows(sandbox, "labels", "name")) == ["Receipts", "Taxes 2026"]
        assert rows(sandbox, "labels", "name")["Taxes 2026"]["created_at"] == "2026-03-06T09:00:00+01:00"


async def test_invalid_calls_are_errors_that_change_nothing() -> None:
    async with session() as (client, sandbox):
        before = sandbox.snapshot()
        calls = [
            ("send_message", {"to": [], "subject": "Hi", "body": "x"}, "no recipients"),
            ("send_message", {"to": ["priya"], "subject": "Hi", "body": "x"}, "'priya' is not an email address"),
            ("send_message", {"to": ["a@b.test"], "cc": ["not an address"], "subject": "Hi", "body": "x"}, "cc:"),
            ("send_message", {"to": "priya@acme.test", "subject": "Hi", "body": "x"}, "valid list"),
            ("send_message", {"to": ["a@b.test"], "subject": "x" * 501, "body": "x"}, "subject"),
            ("reply", {"message_id": "draft-1", "body": "x"}, "unsent draft"),
            ("create_draft", {"to": ["bad@"]}, "is not an email address"),
            ("create_draft", {"in_reply_to": "nope"}, "No message with id 'nope'"),
            ("update_draft", {"draft_id": "draft-1", "bcc": ["@x.test"]}, "bcc:"),
            ("send_draft", {"draft_id": "budget"}, "is not a draft"),
            ("mark_read", {"message_ids": ["lunch", "nope"]}, "No message with id 'nope'; nothing was changed"),
            ("mark_read", {"message_ids": []}, "at least 1 item"),
            ("move_to_folder", {"message_ids": ["lunch"], "folder": "nowhere"}, "No folder 'nowhere'"),
            ("move_to_folder", {"message_ids": ["lunch"], "folder": "drafts"}, "cannot be moved into drafts"),
            ("move_to_folder", {"message_ids": ["lunch", "draft-1"], "folder": "archive"}, "is a draft"),
            ("move_to_folder", {"message_ids": ["budget"], "folder": "sent"}, "only mail you sent"),
            ("move_to_folder", {"message_ids": ["budget-re"], "folder": "spam"}, "is from you"),
            ("trash_message", {"message_ids": ["lunch", "draft-1"]}, "delete_draft"),
            ("add_label", {"message_ids": ["lunch"], "label": "nope"}, "No label 'nope'"),
            ("delete_label", {"name": "nope"}, "No label 'nope'"),
            ("create_label", {"name": "   "}, "blank"),
            ("create_label", {"name": "Spam"}, "system folder"),
        ]
        for tool, arguments, message in calls:
            text = await fail(client, tool, arguments)
            assert message in text, (tool, arguments, text)
        assert sandbox.snapshot() == before


async def test_tools_have_descriptions_schemas_and_annotations() -> None:
    async with session() as (client, _):
        listed = (await client.list_tools()).tools
        assert {t.name for t in listed} == {
            "search_messages",
            "list_folders",
            "get_message",
            "get_thread",
            "search_contacts",
            "send_message",
            "reply",
            "forward",
            "create_draft",
            "update_draft",
            "send_draft",
            "delete_draft",
            "mark_read",
            "mark_unread",
            "star",
            "unstar",
            "move_to_folder",
            "trash_message",
            "add_label",
            "remove_label",
            "create_label",
            "delete_label",
        }
        for tool in listed:
            assert tool.description and len(tool.description) > 40, tool.name
            assert tool.output_schema and tool.output_schema["type"] == "object", tool.name
            assert tool.annotations is not None
        by_name = {t.name: t for t in listed}
        read_only = {t.name for t in listed if t.annotations.read_only_hint}
        assert read_only == {"search_messages", "list_folders", "get_message", "get_thread", "search_contacts"}
        destructive = {t.name for t in listed if t.annotations.destructive_hint}
        assert destructive == {"delete_draft", "trash_message", "delete_label"}
        idempotent = {t.name for t in listed if t.annotations.idempotent_hint}
        assert idempotent == {
            "update_draft",
            "mark_read",
            "mark_unread",
            "star",
            "unstar",
            "move_to_folder",
            "trash_message",
            "add_label",
            "remove_label",
        }
        message_schema = by_name["get_message"].output_schema
        assert {"from", "to", "cc", "bcc", "sent_at", "attachments"} <= set(message_schema["properties"])
        assert "from_" not in message_schema["properties"]
        assert "in:inbox" in by_name["search_messages"].description
        send_input = by_name["send_message"].input_schema
        assert set(send_input["required"]) == {"to", "subject", "body"}


OK_MESSAGE = {"from": "a@b.test", "sent_at": "2026-03-01T10:00"}


@pytest.mark.parametrize(
    ("seed", "row", "problem"),
    [
        ({"messages": [OK_MESSAGE, {"id": "b", "from": "a@b.test"}]}, "messages[1]", ".sent_at: Field required"),
        (
            {"messages": [{**OK_MESSAGE, "from": "not-an-address"}]},
            "messages[0]",
            ".from: 'not-an-address' is not an email address",
        ),
        ({"messages": [{**OK_MESSAGE, "cc": ["x@"]}]}, "messages[0]", ".cc: 'x@' is not an email address"),
        (
            {"labels": ["Receipts"], "messages": [{**OK_MESSAGE, "labels": ["Taxes"]}]},
            "messages[0]",
            ".labels: no label 'Taxes'; declare it under labels",
        ),
        (
            {"messages": [OK_MESSAGE, {**OK_MESSAGE, "in_reply_to": "later"}, {**OK_MESSAGE, "id": "later"}]},
            "messages[1]",
            ".in_reply_to: no earlier message with id 'later'",
        ),
        (
            {
                "messages": [
                    {**OK_MESSAGE, "id": "a", "thread_id": "t1"},
                    {**OK_MESSAGE, "in_reply_to": "a", "thread_id": "t2"},
                ]
            },
            "messages[1]",
            ".thread_id: the message it replies to is in thread 't1'",
        ),
        (
            {"messages": [{**OK_MESSAGE, "id": "a"}, {**OK_MESSAGE, "id": "a"}]},
            "messages[1]",
            ".id: duplicate message id 'a'",
        ),
        (
            {"messages": [{**OK_MESSAGE, "folder": "drafts"}]},
            "messages[0]",
            ".folder: a message in 'drafts' must be from the persona (dana@acme.test)",
        ),
        ({"messages": [{**OK_MESSAGE, "folder": "outbox"}]}, "messages[0]", ".folder: Input should be 'inbox'"),
        ({"messages": [{**OK_MESSAGE, "form": "x@y.test"}]}, "messages[0]", ".form: Extra inputs are not permitted"),
        ({"labels": ["Receipts", "receipts"]}, "labels[1]", ": duplicate label 'receipts'"),
        ({"labels": ["Inbox"]}, "labels[0]", ": 'Inbox' is a system folder name"),
        (
            {"contacts": [{"email": "p@acme.test"}, {"email": "P@acme.test"}]},
            "contacts[1]",
            ".email: duplicate contact 'p@acme.test'",
        ),
    ],
)
def test_bad_seed_names_table_row_and_field(seed: dict, row: str, problem: str) -> None:
    store = SandboxStore(APP)
    with pytest.raises(SeedError) as caught:
        store.create("x", SandboxSpec(seed=seed, persona=PERSONA))
    lines = str(caught.value).splitlines()
    assert lines[0] == "mail seed is invalid:"
    # The row may carry its id, as in "messages[1] (id 'a').id: ...".
    assert any(line.strip().startswith(row) and problem in line for line in lines[1:]), caught.value
    assert "x" not in store
