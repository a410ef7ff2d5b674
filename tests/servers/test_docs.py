"""The docs app, driven through a real MCP client."""

from __future__ import annotations

import pytest
from helpers import error_text, in_memory, structured

from servers.core import SandboxSpec, SandboxStore, SeedError
from servers.docs import APP

PERSONA = {"name": "Dana Lee", "email": "dana@acme.test", "timezone": "Europe/Berlin"}
CLOCK = {"start": "2026-03-02T09:00:00+01:00"}
NOW = "2026-03-02T09:00:00+01:00"
ITINERARY = "# Berlin\n\nDay 1: arrive, check in at Hotel Adlon.\nDay 2: museums.\nDay 3: fly home.\n"
SEED = {
    "folders": [
        {"id": "trips", "name": "Trips"},
        {"id": "berlin", "name": "Berlin 2026", "parent_id": "trips"},
        {"id": "work", "name": "Work"},
    ],
    "documents": [
        {
            "id": "itinerary",
            "title": "Berlin itinerary",
            "folder_id": "berlin",
            "content": ITINERARY,
            "shared_with": [{"email": "Priya@acme.test", "role": "editor"}],
            "updated_at": "2026-02-20T10:00",
        },
        {
            "id": "packing",
            "title": "Packing list",
            "folder_id": "trips",
            "content": "- passport\n- charger\n- charger cable\n",
            "created_at": "2026-02-01T08:00",
            "updated_at": "2026-02-25T10:00",
        },
        {
            "id": "budget",
            "title": "Q3 budget",
            "owner": "priya@acme.test",
            "content": "Travel: 2000 EUR\nHotels: 1500 EUR\n",
            "shared_with": [{"email": "dana@acme.test"}, {"email": "sam@acme.test", "role": "editor"}],
        },
        {
            "id": "roadmap",
            "title": "Product roadmap",
            "owner": "sam@acme.test",
            "folder_id": "work",
            "content": "Q2: open the Berlin office",
            "shared_with": [{"email": "dana@acme.test", "role": "commenter"}],
        },
        {
            "id": "minutes",
            "title": "Team minutes",
            "owner": "priya@acme.test",
            "content": "Decisions: none yet",
            "shared_with": [{"email": "dana@acme.test", "role": "editor"}],
        },
        {"id": "private", "title": "Salary notes", "owner": "sam@acme.test", "content": "confidential"},
        {
            "id": "handbook",
            "title": "Team handbook",
            "owner": "sam@acme.test",
            "content": "Be kind.",
            "link_sharing": "commenter",
        },
        {"id": "old", "title": "Old itinerary draft", "content": "Berlin draft", "trashed": True},
    ],
    "comments": [
        {
            "id": "c1",
            "document_id": "itinerary",
            "author": "priya@acme.test",
            "body": "Right hotel?",
            "quote": "Hotel Adlon",
        },
        {"id": "c2", "document_id": "itinerary", "author": "sam@acme.test", "body": "Looks good", "resolved": True},
    ],
}


def session():
    return in_memory(APP, SEED, persona=PERSONA, clock=CLOCK)


async def call(client, tool: str, **arguments):
    return structured(await client.call_tool(tool, arguments))


async def fail(client, tool: str, **arguments) -> str:
    return error_text(await client.call_tool(tool, arguments))


def rows(sandbox, table: str, **where) -> list[dict]:
    return [r for r in sandbox.snapshot()[table] if all(r[k] == v for k, v in where.items())]


def row(sandbox, table: str, key: str) -> dict:
    (found,) = rows(sandbox, table, id=key)
    return found


def ids(listing: dict, key: str = "documents") -> list[str]:
    return [d["id"] for d in listing[key]]


async def test_seed_becomes_rows_with_urls_and_first_revisions() -> None:
    async with session() as (_, sandbox):
        itinerary = row(sandbox, "documents", "itinerary")
        assert itinerary["url"] == "https://docs.example.test/d/itinerary"
        assert itinerary["owner"] == "dana@acme.test"
        assert itinerary["shared_with"] == [{"email": "priya@acme.test", "role": "editor"}]
        assert (itinerary["created_at"], itinerary["updated_at"]) == ("2026-02-20T10:00:00+01:00",) * 2
        assert row(sandbox, "documents", "budget")["shared_with"][0] == {"email": "dana@acme.test", "role": "viewer"}
        assert row(sandbox, "documents", "old")["trashed"] is True
        revisions = sandbox.snapshot()["revisions"]
        assert len(revisions) == len(SEED["documents"])
        assert {(r["document_id"], r["number"], r["summary"]) for r in revisions} >= {
            ("itinerary", 1, "Created"),
            ("budget", 1, "Created"),
        }
        assert rows(sandbox, "revisions", document_id="budget")[0]["author"] == "priya@acme.test"
        c2 = row(sandbox, "comments", "c2")
        assert (c2["resolved"], c2["resolved_by"], c2["quote"]) == (True, "sam@acme.test", None)


async def test_search_filters_and_order() -> None:
    async with session() as (client, _):
        everything = await call(client, "search_documents")
        # Most recently updated first; never-shared and trashed documents are left out.
        assert ids(everything) == ["budget", "roadmap", "minutes", "packing", "itinerary"]
        assert everything["count"] == 5
        berlin = await call(client, "search_documents", query="BERLIN")
        assert ids(berlin) == ["roadmap", "itinerary"]
        assert "Berlin" in berlin["documents"][1]["snippet"]
        assert ids(await call(client, "search_documents", query="berlin hotel")) == ["itinerary"]
        assert ids(await call(client, "search_documents", owner="priya@acme.test")) == ["budget", "minutes"]
        assert ids(await call(client, "search_documents", shared_with="dana@acme.test")) == [
            "budget",
            "roadmap",
            "minutes",
        ]
        assert ids(await call(client, "search_documents", shared_with="priya@acme.test")) == ["itinerary"]
        assert ids(await call(client, "search_documents", folder_id="trips")) == ["packing", "itinerary"]
        assert ids(await call(client, "search_documents", query="itinerary", in_trash=True)) == ["old"]
        assert ids(await call(client, "search_documents", query="salary")) == []
        limited = await call(client, "search_documents", max_results=2)
        assert (ids(limited), limited["count"]) == (["budget", "roadmap"], 2)
        assert "No folder with id 'nope'" in await fail(client, "search_documents", folder_id="nope")


async def test_list_folder_shows_subfolders_and_documents() -> None:
    async with session() as (client, _):
        root = await call(client, "list_folder")
        assert root["folder"] is None and root["path"] == "My Drive"
        assert [f["name"] for f in root["folders"]] == ["Trips", "Work"]
        assert ids(root) == ["budget", "minutes"]
        assert root["documents"][0]["your_access"] == "viewer"
        trips = await call(client, "list_folder", folder_id="trips")
        assert trips["path"] == "My Drive/Trips"
        assert [(f["id"], f["path"], f["url"]) for f in trips["folders"]] == [
            ("berlin", "My Drive/Trips/Berlin 2026", "https://docs.example.test/folders/berlin")
        ]
        assert ids(trips) == ["packing"]
        berlin = await call(client, "list_folder", folder_id="berlin")
        assert (berlin["folder"]["parent_id"], berlin["folders"], ids(berlin)) == ("trips", [], ["itinerary"])
        assert "list_folder" in await fail(client, "list_folder", folder_id="nope")


async def test_get_document_by_id_or_url() -> None:
    async with session() as (client, _):
        doc = await call(client, "get_document", document_id="itinerary")
        assert doc["content"] == ITINERARY
        assert doc["url"] == "https://docs.example.test/d/itinerary"
        assert doc["folder_path"] == "My Drive/Trips/Berlin 2026"
        assert doc["shared_with"] == [{"email": "priya@acme.test", "role": "editor"}]
        assert (doc["your_access"], doc["revision"], doc["open_comments"], doc["trashed"]) == ("owner", 1, 1, False)
        by_link = await call(client, "get_document", document_id="https://docs.example.test/d/budget/edit")
        assert (by_link["id"], by_link["your_access"], by_link["owner"]) == ("budget", "viewer", "priya@acme.test")
        # The link alone gives access to a document shared by link, though it is not in your Drive.
        handbook = await call(client, "get_document", document_id="https://docs.example.test/d/handbook")
        assert handbook["your_access"] == "commenter"
        assert "do not have access" in await fail(client, "get_document", document_id="private")
        assert "No document with id 'nope'" in await fail(client, "get_document", document_id="nope")


async def test_create_append_replace_rename_record_revisions() -> None:
    async with session() as (client, sandbox):
        created = await call(client, "create_document", title="  Lisbon trip  ", content="# Lisbon", folder_id="work")
        doc_id = created["id"]
        assert created["title"] == "Lisbon trip"
        assert created["url"] == f"https://docs.example.test/d/{doc_id}"
        assert (created["owner"], created["folder_path"], created["revision"]) == ("dana@acme.test", "My Drive/Work", 1)
        assert created["created_at"] == created["updated_at"] == NOW

        sandbox.set_clock(advance=3600)
        appended = await call(client, "append_content", document_id=doc_id, text="Day 1: tram 28")
        assert appended["content"] == "# Lisbon\nDay 1: tram 28"
        assert (appended["revision"], appended["updated_at"]) == (2, "2026-03-02T10:00:00+01:00")
        assert appended["created_at"] == NOW

        replaced = await call(client, "replace_content", document_id=doc_id, content="# Lisbon\n\nTBD\n")
        assert replaced["revision"] == 3
        again = await call(client, "append_content", document_id=doc_id, text="More")
        assert again["content"] == "# Lisbon\n\nTBD\nMore"

        renamed = await call(client, "rename_document", document_id=doc_id, title="Lisbon itinerary")
        assert renamed["title"] == "Lisbon itinerary"

        history = rows(sandbox, "revisions", document_id=doc_id)
        assert [(r["number"], r["summary"]) for r in history] == [
            (1, "Created"),
            (2, "Appended text"),
            (3, "Replaced the content"),
            (4, "Appended text"),
            (5, "Renamed from 'Lisbon trip' to 'Lisbon itinerary'"),
        ]
        assert [r["content"] for r in history][:3] == ["# Lisbon", "# Lisbon\nDay 1: tram 28", "# Lisbon\n\nTBD\n"]
        assert history[4]["title"] == "Lisbon itinerary" and history[4]["author"] == "dana@acme.test"
        stored = row(sandbox, "documents", doc_id)
        assert (stored["title"], stored["content"], stored["folder_id"]) == (
            "Lisbon itinerary",
            "# Lisbon\n\nTBD\nMore",
            "work",
        )
        listed = await call(client, "list_revisions", document_id=doc_id)
        assert [r["number"] for r in listed["revisions"]] == [5, 4, 3, 2, 1]


async def test_find_and_replace_requires_a_unique_match_unless_replacing_all() -> None:
    async with session() as (client, sandbox):
        edit = {"document_id": "packing", "find": "charger"}
        assert "occurs 2 times" in await fail(client, "edit_document", **edit, replace="cable")
        every = await call(client, "edit_document", **edit, replace="adapter", replace_all=True)
        assert every["replacements"] == 2
        assert every["document"]["content"] == "- passport\n- adapter\n- adapter cable\n"
        one = await call(client, "edit_document", document_id="packing", find="- adapter\n", replace="")
        assert (one["replacements"], one["document"]["content"]) == (1, "- passport\n- adapter cable\n")
        missing = await fail(client, "edit_document", document_id="packing", find="sunscreen", replace="x")
        assert "does not occur" in missing
        assert "'Passport'" not in missing
        assert "different case exists: 'passport'" in await fail(
            client, "edit_document", document_id="packing", find="PASSPORT", replace="ID card"
        )
        assert "same text" in await fail(
            client, "edit_document", document_id="packing", find="passport", replace="passport"
        )
        summaries = [r["summary"] for r in rows(sandbox, "revisions", document_id="packing")]
        assert summaries == [
            "Created",
            "Replaced 'charger' with 'adapter' (2 times)",
            "Replaced '- adapter\\n' with ''",
        ]


async def test_revisions_can_be_read_and_restored() -> None:
    async with session() as (client, sandbox):
        await call(client, "replace_content", document_id="itinerary", content="scrapped")
        first = await call(client, "get_revision", document_id="itinerary", number=1)
        assert (first["content"], first["author"], first["title"]) == (ITINERARY, "dana@acme.test", "Berlin itinerary")
        restored = await call(client, "restore_revision", document_id="itinerary", number=1)
        assert (restored["content"], restored["revision"]) == (ITINERARY, 3)
        assert rows(sandbox, "revisions", document_id="itinerary")[-1]["summary"] == "Restored revision 1"
        assert "matches the current version" in await fail(
            client, "restore_revision", document_id="itinerary", number=1
        )
        assert "numbered 1 to 3" in await fail(client, "get_revision", document_id="itinerary", number=9)


async def test_sharing_adds_changes_and_removes_people() -> None:
    async with session() as (client, sandbox):
        shared = await call(client, "share_document", document_id="itinerary", email="Sam@Acme.test", role="viewer")
        assert shared["url"] == "https://docs.example.test/d/itinerary"
        assert shared["shared_with"] == [
            {"email": "priya@acme.test", "role": "editor"},
            {"email": "sam@acme.test", "role": "viewer"},
        ]
        await call(client, "share_document", document_id="itinerary", email="sam@acme.test", role="editor")
        await call(client, "unshare_document", document_id="itinerary", email="priya@acme.test")
        assert row(sandbox, "documents", "itinerary")["shared_with"] == [{"email": "sam@acme.test", "role": "editor"}]
        assert "already shared with sam@acme.test as editor" in await fail(
            client, "share_document", document_id="itinerary", email="sam@acme.test", role="editor"
        )
        assert "It is shared with: sam@acme.test (editor)" in await fail(
            client, "unshare_document", document_id="itinerary", email="priya@acme.test"
        )
        linked = await call(client, "set_link_sharing", document_id="itinerary", access="viewer")
        assert linked["link_sharing"] == row(sandbox, "documents", "itinerary")["link_sharing"] == "viewer"
        assert "already 'viewer'" in await fail(client, "set_link_sharing", document_id="itinerary", access="viewer")
        # Editors may share too, but not change the owner's access or their own.
        minutes = await call(client, "share_document", document_id="minutes", email="sam@acme.test", role="commenter")
        assert minutes["owner"] == "priya@acme.test"
        assert "owns 'Team minutes'" in await fail(
            client, "share_document", document_id="minutes", email="priya@acme.test", role="viewer"
        )
        assert "your own access" in await fail(
            client, "share_document", document_id="minutes", email="dana@acme.test", role="viewer"
        )
        # Sharing is the only change: updated_at marks edits to the title or content.
        assert row(sandbox, "documents", "itinerary")["updated_at"] == "2026-02-20T10:00:00+01:00"


async def test_access_decides_what_you_may_do() -> None:
    async with session() as (client, sandbox):
        before = sandbox.snapshot()
        viewer = await fail(client, "edit_document", document_id="budget", find="2000", replace="2500")
        assert "You are a viewer of 'Q3 budget' (owned by priya@acme.test)" in viewer
        assert "needs editor access" in viewer
        assert "needs commenter access" in await fail(client, "add_comment", document_id="budget", body="Too high?")
        assert "needs editor access" in await fail(
            client, "share_document", document_id="budget", email="lee@acme.test", role="viewer"
        )
        commenter = await fail(client, "replace_content", document_id="roadmap", content="x")
        assert "You are a commenter" in commenter and "add_comment" in commenter
        assert "needs editor access" in await fail(client, "rename_document", document_id="roadmap", title="Mine")
        assert "needs editor access" in await fail(client, "move_document", document_id="roadmap", folder_id=None)
        assert (
            "Only the owner of 'Team minutes' (owned by priya@acme.test) can move it to the trash; you are an editor."
            in (await fail(client, "trash_document", document_id="minutes"))
        )
        assert "needs editor access" in await fail(client, "append_content", document_id="handbook", text="x")
        assert sandbox.snapshot() == before

        await call(client, "add_comment", document_id="roadmap", body="Which quarter for Lisbon?")
        await call(client, "add_comment", document_id="handbook", body="Add a section on travel")
        edited = await call(client, "append_content", document_id="minutes", text="Decision: go to Berlin")
        assert edited["your_access"] == "editor"
        assert rows(sandbox, "revisions", document_id="minutes")[-1]["author"] == "dana@acme.test"
        assert [c["author"] for c in rows(sandbox, "comments", document_id="roadmap")] == ["dana@acme.test"]


async def test_comments_lifecycle() -> None:
    async with session() as (client, sandbox):
        open_only = await call(client, "list_comments", document_id="itinerary")
        assert (ids(open_only, "comments"), open_only["count"]) == (["c1"], 1)
        assert open_only["comments"][0]["quote"] == "Hotel Adlon"
        everything = await call(client, "list_comments", document_id="itinerary", include_resolved=True)
        assert ids(everything, "comments") == ["c1", "c2"]

        added = await call(client, "add_comment", document_id="itinerary", body="Book tickets", quote="Day 2: museums")
        assert (added["author"], added["quote"], added["resolved"], added["created_at"]) == (
            "dana@acme.test",
            "Day 2: museums",
            False,
            NOW,
        )
        assert "does not occur" in await fail(client, "add_comment", document_id="itinerary", body="?", quote="Day 4")

        replied = await call(client, "reply_to_comment", comment_id="c1", body="Yes, booked")
        assert replied["replies"] == [{"author": "dana@acme.test", "body": "Yes, booked", "created_at": NOW}]
        resolved = await call(client, "resolve_comment", comment_id="c1")
        assert (resolved["resolved"], resolved["resolved_by"], resolved["resolved_at"]) == (True, "dana@acme.test", NOW)
        assert "already resolved by dana@acme.test" in await fail(client, "resolve_comment", comment_id="c1")
        reopened = await call(client, "reply_to_comment", comment_id="c2", body="Actually, one more thing")
        assert (reopened["resolved"], reopened["resolved_by"]) == (False, None)

        assert ids(await call(client, "list_comments", document_id="itinerary"), "comments") == ["c2", added["id"]]
        assert (await call(client, "get_document", document_id="itinerary"))["open_comments"] == 2
        assert row(sandbox, "comments", "c1")["replies"][0]["body"] == "Yes, booked"
        assert "No comment with id 'c9'" in await fail(client, "resolve_comment", comment_id="c9")


async def test_trash_and_restore() -> None:
    async with session() as (client, sandbox):
        trashed = await call(client, "trash_document", document_id="itinerary")
        assert trashed["trashed"] is True
        stored = row(sandbox, "documents", "itinerary")
        assert (stored["trashed"], stored["trashed_at"]) == (True, NOW)
        assert "itinerary" not in ids(await call(client, "search_documents", query="berlin"))
        assert ids(await call(client, "list_folder", folder_id="berlin")) == []
        assert ids(await call(client, "search_documents", in_trash=True)) == ["old", "itinerary"]
        assert (await call(client, "get_document", document_id="itinerary"))["trashed"] is True

        before = sandbox.snapshot()
        assert "is in the trash" in await fail(client, "append_content", document_id="itinerary", text="x")
        assert "is in the trash" in await fail(client, "add_comment", document_id="itinerary", body="x")
        assert "is in the trash" in await fail(
            client, "share_document", document_id="itinerary", email="sam@acme.test", role="viewer"
        )
        assert "already in the trash" in await fail(client, "trash_document", document_id="itinerary")
        assert sandbox.snapshot() == before

        restored = await call(client, "restore_document", document_id="itinerary")
        assert (restored["trashed"], restored["folder_id"]) == (False, "berlin")
        assert row(sandbox, "documents", "itinerary")["trashed_at"] is None
        assert "not in the trash" in await fail(client, "restore_document", document_id="itinerary")
        assert "Only the owner" in await fail(client, "restore_document", document_id="budget")


async def test_folders_and_moves() -> None:
    async with session() as (client, sandbox):
        lisbon = await call(client, "create_folder", name="Lisbon", parent_id="trips")
        assert (lisbon["parent_id"], lisbon["path"]) == ("trips", "My Drive/Trips/Lisbon")
        assert "already exists in My Drive/Trips" in await fail(
            client, "create_folder", name="lisbon", parent_id="trips"
        )
        assert (await call(client, "create_folder", name="Lisbon"))["path"] == "My Drive/Lisbon"

        moved = await call(client, "move_document", document_id="itinerary", folder_id=lisbon["id"])
        assert moved["folder_id"] == lisbon["id"]
        assert "already in My Drive/Trips/Lisbon" in await fail(
            client, "move_document", document_id="itinerary", folder_id=lisbon["id"]
        )
        assert "No folder with id 'nope'" in await fail(
            client, "move_document", document_id="itinerary", folder_id="nope"
        )
        await call(client, "move_document", document_id="packing", folder_id=None)
        assert row(sandbox, "documents", "packing")["folder_id"] is None

        assert "into itself" in await fail(client, "move_folder", folder_id="trips", parent_id="berlin")
        assert "into itself" in await fail(client, "move_folder", folder_id="trips", parent_id="trips")
        assert "already exists in My Drive" in await fail(client, "move_folder", folder_id=lisbon["id"], parent_id=None)
        assert "already in My Drive/Trips" in await fail(client, "move_folder", folder_id="berlin", parent_id="trips")
        moved_folder = await call(client, "move_folder", folder_id="berlin", parent_id="work")
        assert moved_folder["path"] == "My Drive/Work/Berlin 2026"
        renamed = await call(client, "rename_folder", folder_id="berlin", name="Berlin trip")
        assert renamed["name"] == row(sandbox, "folders", "berlin")["name"] == "Berlin trip"
        assert "already named" in await fail(client, "rename_folder", folder_id="berlin", name="Berlin trip")
        assert row(sandbox, "folders", "berlin")["parent_id"] == "work"
        assert [f["name"] for f in (await call(client, "list_folder", folder_id="work"))["folders"]] == ["Berlin trip"]


async def test_invalid_input_is_an_error_that_changes_nothing() -> None:
    async with session() as (client, sandbox):
        before = sandbox.snapshot()
        assert "valid" in await fail(
            client, "share_document", document_id="itinerary", email="not-an-email", role="viewer"
        )
        assert "role" in await fail(
            client, "share_document", document_id="itinerary", email="sam@acme.test", role="owner"
        )
        assert "owns 'Berlin itinerary'" in await fail(
            client, "share_document", document_id="itinerary", email="dana@acme.test", role="editor"
        )
        assert "title" in await fail(client, "create_document", title="")
        assert "cannot be blank" in await fail(client, "create_document", title="   ")
        assert "No folder with id 'nope'" in await fail(client, "create_document", title="x", folder_id="nope")
        assert "already has exactly this content" in await fail(
            client, "replace_content", document_id="itinerary", content=ITINERARY
        )
        assert "already has exactly this title" in await fail(
            client, "rename_document", document_id="itinerary", title="Berlin itinerary"
        )
        assert "blank" in await fail(client, "append_content", document_id="itinerary", text="  \n ")
        assert "cannot be blank" in await fail(client, "add_comment", document_id="itinerary", body="   ")
        assert "No document with id 'nope'" in await fail(client, "list_comments", document_id="nope")
        assert "No document with id 'nope'" in await fail(client, "list_revisions", document_id="nope")
        assert "number" in await fail(client, "get_revision", document_id="itinerary", number=0)
        assert "No folder with id 'nope'" in await fail(client, "rename_folder", folder_id="nope", name="x")
        assert "No comment with id 'nope'" in await fail(client, "reply_to_comment", comment_id="nope", body="x")
        assert "do not have access" in await fail(
            client, "share_document", document_id="private", email="a@b.test", role="viewer"
        )
        assert sandbox.snapshot() == before


async def test_tools_have_descriptions_schemas_and_annotations() -> None:
    async with session() as (client, _):
        listed = (await client.list_tools()).tools
        names = {t.name for t in listed}
        assert names == {
            "search_documents",
            "list_folder",
            "get_document",
            "create_document",
            "replace_content",
            "append_content",
            "edit_document",
            "rename_document",
            "restore_revision",
            "move_document",
            "create_folder",
            "rename_folder",
            "move_folder",
            "trash_document",
            "restore_document",
            "share_document",
            "unshare_document",
            "set_link_sharing",
            "add_comment",
            "reply_to_comment",
            "resolve_comment",
            "list_comments",
            "list_revisions",
            "get_revision",
        }
        for tool in listed:
            assert tool.description and len(tool.description) > 40, tool.name
            assert tool.output_schema and tool.output_schema["type"] == "object", tool.name
            assert tool.annotations is not None and tool.annotations.title, tool.name
        read_only = {t.name for t in listed if t.annotations.read_only_hint}
        assert read_only == {
            "search_documents",
            "list_folder",
            "get_document",
            "list_comments",
            "list_revisions",
            "get_revision",
        }
        destructive = {t.name for t in listed if t.annotations.destructive_hint}
        assert destructive == {"replace_content", "restore_revision", "trash_document", "unshare_document"}
        share = next(t for t in listed if t.name == "share_document")
        assert share.input_schema["required"] == ["document_id", "email", "role"]
        assert "pattern" in str(share.input_schema["properties"]["email"])


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        (
            {"documents": [{"title": "A"}, {"id": "b", "title": "B", "folder_id": "nope"}]},
            "documents[1] (id 'b').folder_id: no folder with id 'nope'",
        ),
        (
            {"folders": [{"id": "a", "name": "A", "parent_id": "b"}, {"id": "b", "name": "B"}]},
            "folders[0] (id 'a').parent_id: no folder with id 'b' (list parents before subfolders)",
        ),
        (
            {"documents": [{"id": "a", "title": "A", "colour": "red"}]},
            "documents[0] (id 'a').colour: Extra inputs are not permitted",
        ),
        (
            {"documents": [{"id": "a", "title": "A", "shared_with": [{"email": "x@acme.test", "role": "owner"}]}]},
            "documents[0] (id 'a').shared_with[0].role",
        ),
        (
            {"documents": [{"id": "a", "title": "A", "shared_with": [{"email": "Dana@acme.test"}]}]},
            "documents[0] (id 'a').shared_with[0].email: dana@acme.test owns the document",
        ),
        (
            {"documents": [{"id": "a", "title": "A"}, {"id": "a", "title": "B"}]},
            "documents[1].id: duplicate document id 'a'",
        ),
        (
            {
                "documents": [{"id": "a", "title": "A", "content": "hi"}],
                "comments": [{"document_id": "a", "body": "?", "quote": "bye"}],
            },
            "comments[0].quote: 'bye' does not occur in document 'a'",
        ),
        (
            {"comments": [{"document_id": "zz", "body": "?"}]},
            "comments[0].document_id: no document with id 'zz'",
        ),
        (
            {
                "documents": [
                    {"id": "a", "title": "A", "created_at": "2026-03-01T10:00", "updated_at": "2026-02-01T10:00"}
                ]
            },
            "documents[0] (id 'a').updated_at: updated_at cannot be before created_at",
        ),
    ],
)
def test_bad_seed_names_table_row_and_field(seed: dict, message: str) -> None:
    store = SandboxStore(APP)
    with pytest.raises(SeedError) as caught:
        store.create("x", SandboxSpec(seed=seed, persona=PERSONA, clock=CLOCK))
    assert message in str(caught.value)
    assert "x" not in store
