"""Docs data as tools return it, and the rules for who may do what to a document."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field

from servers.core import ToolModel

BASE_URL = "https://docs.example.test"
EMAIL_PATTERN = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"

Role = Literal["viewer", "commenter", "editor"]
Access = Literal["owner", "editor", "commenter", "viewer"]
LinkSharing = Literal["restricted", "viewer", "commenter", "editor"]
Email = Annotated[str, Field(max_length=254, pattern=EMAIL_PATTERN, description="An email address.")]

RANK = {"viewer": 1, "commenter": 2, "editor": 3, "owner": 4}
DOCUMENT_URL = re.compile(re.escape(BASE_URL) + r"/d/([^/?#\s]+)")


def document_url(document_id: str) -> str:
    """The link to a document, as tools show it."""
    return f"{BASE_URL}/d/{document_id}"


def folder_url(folder_id: str) -> str:
    """The link to a folder, as tools show it."""
    return f"{BASE_URL}/folders/{folder_id}"


def document_id_from(reference: str) -> str:
    """A document id from an id or a pasted link such as `https://docs.example.test/d/<id>/edit`."""
    reference = reference.strip()
    match = DOCUMENT_URL.match(reference)
    return match.group(1) if match else reference


def access_of(doc: dict[str, Any], email: str) -> Access | None:
    """What `email` may do with a document: its own role or the link's, whichever is higher; None without access."""
    if doc["owner"] == email:
        return "owner"
    roles = [s["role"] for s in doc["shared_with"] if s["email"] == email]
    if doc["link_sharing"] != "restricted":
        roles.append(doc["link_sharing"])
    return max(roles, key=RANK.__getitem__, default=None)


def listed_for(doc: dict[str, Any], email: str) -> bool:
    """Whether a document shows up in `email`'s Drive: they own it or it was shared with them by name."""
    return doc["owner"] == email or any(s["email"] == email for s in doc["shared_with"])


class Share(ToolModel):
    """Someone a document is shared with, and their role."""

    email: str
    role: Role


class Folder(ToolModel):
    """A folder row as tools return it, with its path and link."""

    id: str
    name: str
    parent_id: str | None = Field(description="The folder it sits in; null at the top of My Drive.")
    path: str = Field(description="Where it is, e.g. 'My Drive/Trips/Berlin'.")
    url: str
    created_at: str


class DocumentSummary(ToolModel):
    """A document as lists show it: title, link, owner, folder and the user's access, without its text."""

    id: str
    title: str
    url: str = Field(description="Link to the document; paste it into messages to point people at it.")
    owner: str
    folder_id: str | None = Field(description="The folder it is in; null at the top of My Drive.")
    your_access: Access
    trashed: bool
    updated_at: str = Field(description="When its title or content last changed.")
    snippet: str = Field("", description="The start of the content, or the text around the first word searched for.")


class Document(ToolModel):
    """A document row as get_document returns it: its full text, folder path, sharing and the user's access."""

    id: str
    title: str
    url: str = Field(description="Link to the document; paste it into messages to point people at it.")
    owner: str
    folder_id: str | None = Field(description="The folder it is in; null at the top of My Drive.")
    folder_path: str = Field(description="e.g. 'My Drive/Trips/Berlin'.")
    content: str = Field(description="The full text, in markdown.")
    shared_with: list[Share] = Field(description="People the document is shared with by name, besides its owner.")
    link_sharing: LinkSharing = Field(
        description="What anyone with the link may do; 'restricted' means only people named."
    )
    your_access: Access = Field(description="What you may do: owner or editor edit; commenter comments; viewer reads.")
    trashed: bool
    revision: int = Field(description="Number of the current revision; list_revisions shows the history.")
    open_comments: int
    created_at: str
    updated_at: str = Field(description="When its title or content last changed.")


class Reply(ToolModel):
    """A reply in a comment's thread."""

    author: str
    body: str
    created_at: str


class Comment(ToolModel):
    """A comment row as tools return it: the quoted text, its author, whether it is resolved, and its replies."""

    id: str
    document_id: str
    author: str
    body: str
    quote: str | None = Field(description="The text the comment is about; null for a comment on the whole document.")
    created_at: str
    resolved: bool
    resolved_by: str | None
    resolved_at: str | None
    replies: list[Reply]


class RevisionSummary(ToolModel):
    """One saved version of a document, as list_revisions shows it (without its text)."""

    number: int
    title: str
    author: str
    created_at: str
    summary: str = Field(description="What changed, e.g. 'Appended text' or \"Renamed from 'A' to 'B'\".")


class Revision(RevisionSummary):
    """One saved version of a document with its full text."""

    document_id: str
    content: str
