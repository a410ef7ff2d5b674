"""What a scenario may seed into the docs app, and how it becomes rows."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from servers.core import Sandbox, SeedError, SeedRow
from servers.core.clock import isoformat, localize
from servers.docs.model import Email, LinkSharing, Role, document_url, folder_url


class FolderSeed(SeedRow):
    """A folder in a scenario's seed, under a folder listed earlier or at the top of My Drive."""

    id: str | None = None
    name: str = Field(min_length=1)
    parent_id: str | None = Field(None, description="A folder listed earlier; leave out for the top of My Drive.")


class ShareSeed(SeedRow):
    """Someone a seeded document is shared with, and their role."""

    email: Email
    role: Role = "viewer"


class DocumentSeed(SeedRow):
    """A document in a scenario's seed: its text, owner, folder, sharing and whether it is trashed."""

    id: str | None = None
    title: str = Field(min_length=1)
    content: str = Field("", description="Markdown.")
    owner: Email | None = Field(None, description="Owner's email; defaults to the persona.")
    folder_id: str | None = Field(None, description="Leave out for the top of My Drive.")
    shared_with: list[ShareSeed] = Field(default_factory=list)
    link_sharing: LinkSharing = "restricted"
    trashed: bool = False
    created_at: datetime | None = Field(None, description="Defaults to updated_at, or to the sandbox clock.")
    updated_at: datetime | None = Field(None, description="Defaults to created_at, or to the sandbox clock.")


class ReplySeed(SeedRow):
    """A reply to a seeded comment."""

    author: Email | None = Field(None, description="Defaults to the persona.")
    body: str = Field(min_length=1)
    created_at: datetime | None = None


class CommentSeed(SeedRow):
    """A comment in a scenario's seed: the document and text it is about, author, replies, resolution."""

    id: str | None = None
    document_id: str
    author: Email | None = Field(None, description="Defaults to the persona.")
    body: str = Field(min_length=1)
    quote: str | None = Field(None, description="Text of the document the comment is about; must occur in it.")
    created_at: datetime | None = None
    resolved: bool = False
    resolved_by: Email | None = Field(None, description="Defaults to the comment's author when resolved.")
    replies: list[ReplySeed] = Field(default_factory=list)


class Seed(SeedRow):
    """The docs app's seed data in a scenario: folders, documents and comments."""

    folders: list[FolderSeed] = Field(default_factory=list)
    documents: list[DocumentSeed] = Field(default_factory=list)
    comments: list[CommentSeed] = Field(default_factory=list)


def load(sb: Sandbox, seed: Seed) -> None:
    """Write a validated seed into the sandbox: folders, then documents, then comments."""
    for i, f in enumerate(seed.folders):
        _load_folder(sb, i, f)
    for i, d in enumerate(seed.documents):
        _load_document(sb, i, d)
    for i, c in enumerate(seed.comments):
        _load_comment(sb, i, c)


def load_more(sb: Sandbox, seed: Seed) -> bool:
    """Write more seed rows (a world event's) into a sandbox holding its seed, as `load` writes them listed after
    the seed's own (each row is checked against the sandbox's)."""
    load(sb, seed)
    return True


def _when(sb: Sandbox, when: datetime | None) -> datetime:
    """A seeded time, a naive one read in the persona's time zone; the sandbox clock when left out."""
    return localize(when, sb.persona.timezone) if when else sb.now()


def _unique(sb: Sandbox, table: str, i: int, row_id: str | None) -> None:
    if row_id is not None and sb.get(table, row_id) is not None:
        raise SeedError.at("docs", (table, i, "id"), f"duplicate {table.rstrip('s')} id {row_id!r}")


def _load_folder(sb: Sandbox, i: int, f: FolderSeed) -> None:
    _unique(sb, "folders", i, f.id)
    if f.parent_id is not None and sb.get("folders", f.parent_id) is None:
        raise SeedError.at(
            "docs", ("folders", i, "parent_id"), f"no folder with id {f.parent_id!r} (list parents before subfolders)"
        )
    folder_id = f.id or sb.new_id("fld")
    sb.insert(
        "folders",
        {
            "id": folder_id,
            "name": f.name,
            "parent_id": f.parent_id,
            "url": folder_url(folder_id),
            "created_at": sb.now_iso(),
        },
    )


def _load_document(sb: Sandbox, i: int, d: DocumentSeed) -> None:
    _unique(sb, "documents", i, d.id)
    if d.folder_id is not None and sb.get("folders", d.folder_id) is None:
        raise SeedError.at("docs", ("documents", i, "folder_id"), f"no folder with id {d.folder_id!r}")
    owner = (d.owner or sb.persona.email).lower()
    shared: list[dict[str, str]] = []
    for j, s in enumerate(d.shared_with):
        email = s.email.lower()
        if email == owner:
            raise SeedError.at("docs", ("documents", i, "shared_with", j, "email"), f"{email} owns the document")
        if any(x["email"] == email for x in shared):
            raise SeedError.at("docs", ("documents", i, "shared_with", j, "email"), f"{email} is listed twice")
        shared.append({"email": email, "role": s.role})
    created = _when(sb, d.created_at or d.updated_at)
    updated = _when(sb, d.updated_at or d.created_at)
    if updated.timestamp() < created.timestamp():  # instants: a shared zone would compare wall times
        raise SeedError.at("docs", ("documents", i, "updated_at"), "updated_at cannot be before created_at")
    doc_id = d.id or sb.new_id("doc")
    created_at, updated_at = isoformat(created), isoformat(updated)
    sb.insert(
        "documents",
        {
            "id": doc_id,
            "title": d.title,
            "content": d.content,
            "owner": owner,
            "folder_id": d.folder_id,
            "url": document_url(doc_id),
            "shared_with": shared,
            "link_sharing": d.link_sharing,
            "trashed": d.trashed,
            "trashed_at": updated_at if d.trashed else None,
            "created_at": created_at,
            "updated_at": updated_at,
        },
    )
    sb.insert(
        "revisions",
        {
            "id": sb.new_id("rev"),
            "document_id": doc_id,
            "number": 1,
            "title": d.title,
            "content": d.content,
            "author": owner,
            "created_at": updated_at,
            "summary": "Created",
        },
    )


def _reply(sb: Sandbox, r: ReplySeed) -> dict[str, str]:
    return {
        "author": (r.author or sb.persona.email).lower(),
        "body": r.body,
        "created_at": isoformat(_when(sb, r.created_at)),
    }


def _load_comment(sb: Sandbox, i: int, c: CommentSeed) -> None:
    _unique(sb, "comments", i, c.id)
    doc = sb.get("documents", c.document_id)
    if doc is None:
        raise SeedError.at("docs", ("comments", i, "document_id"), f"no document with id {c.document_id!r}")
    if c.quote is not None and c.quote not in doc["content"]:
        raise SeedError.at("docs", ("comments", i, "quote"), f"{c.quote!r} does not occur in document {doc['id']!r}")
    if c.resolved_by is not None and not c.resolved:
        raise SeedError.at("docs", ("comments", i, "resolved_by"), "set resolved: true for a resolved comment")
    author = (c.author or sb.persona.email).lower()
    created = isoformat(_when(sb, c.created_at))
    sb.insert(
        "comments",
        {
            "id": c.id or sb.new_id("cmt"),
            "document_id": doc["id"],
            "author": author,
            "body": c.body,
            "quote": c.quote,
            "created_at": created,
            "resolved": c.resolved,
            "resolved_by": (c.resolved_by or author).lower() if c.resolved else None,
            "resolved_at": created if c.resolved else None,
            "replies": [_reply(sb, r) for r in c.replies],
        },
    )
