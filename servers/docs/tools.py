"""The docs app's tools, written for the model that calls them.

Who may do what: the owner may do anything; an editor may change the title,
content and folder, share the document and restore old revisions; a
commenter may comment; a viewer may only read. Anyone with access may read
the content, comments and revision history. Only the owner can move a
document to the trash or restore it, and a trashed document is read-only.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import Field

from servers.core import Sandbox, ToolError, ToolModel, Toolset
from servers.docs.model import (
    RANK,
    Access,
    Comment,
    Document,
    DocumentSummary,
    Email,
    Folder,
    LinkSharing,
    Revision,
    RevisionSummary,
    Role,
    Share,
    access_of,
    document_id_from,
    document_url,
    folder_url,
    listed_for,
)

tools = Toolset()

MAX_CONTENT = 200_000

DocumentId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=300,
        description="The document's id (or its url), as returned by search_documents, list_folder or get_document.",
    ),
]
FolderId = Annotated[
    str, Field(min_length=1, max_length=100, description="A folder's id, as returned by list_folder or create_folder.")
]
Destination = Annotated[
    str | None,
    Field(max_length=100, description="Id of the destination folder (from list_folder); null for the top of My Drive."),
]
CommentId = Annotated[
    str, Field(min_length=1, max_length=100, description="The comment's id, as returned by list_comments.")
]
Title = Annotated[str, Field(min_length=1, max_length=300, description="The document's title.")]
FolderName = Annotated[str, Field(min_length=1, max_length=200, description="The folder's name.")]
Content = Annotated[str, Field(max_length=MAX_CONTENT, description="Markdown text.")]
CommentBody = Annotated[str, Field(min_length=1, max_length=10_000)]
MAX_REVISION = 1_000_000
RevisionNumber = Annotated[
    int, Field(ge=1, le=MAX_REVISION, description="A revision number, as listed by list_revisions.")
]


class DocumentList(ToolModel):
    """What search_documents returns: the matching documents, most recently updated first."""

    documents: list[DocumentSummary] = Field(description="Most recently updated first.")
    count: int


class FolderListing(ToolModel):
    """What list_folder returns: a folder's subfolders and documents."""

    folder: Folder | None = Field(description="The folder listed; null for the top of My Drive.")
    path: str
    folders: list[Folder] = Field(description="Subfolders, by name.")
    documents: list[DocumentSummary] = Field(description="Documents in the folder, most recently updated first.")


class Sharing(ToolModel):
    """Who a document is shared with and how its link works, as the sharing tools return it."""

    document_id: str
    title: str
    url: str
    owner: str
    shared_with: list[Share]
    link_sharing: LinkSharing


class Replaced(ToolModel):
    """What find_and_replace returns: how many occurrences changed, and the document after."""

    replacements: int = Field(description="How many occurrences were replaced.")
    document: Document


class CommentList(ToolModel):
    """What list_comments returns: a document's comments, oldest first."""

    document_id: str
    comments: list[Comment] = Field(description="Oldest first.")
    count: int


class RevisionList(ToolModel):
    """What list_revisions returns: a document's saved versions, newest first."""

    document_id: str
    revisions: list[RevisionSummary] = Field(description="Newest first; the first is the current version.")


# -- helpers ----------------------------------------------------------------


def _me(sb: Sandbox) -> str:
    return sb.persona.email


def _blank_check(value: str, what: str) -> str:
    value = value.strip()
    if not value:
        raise ToolError(f"{what} cannot be blank.")
    return value


def _quoted(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _folder(sb: Sandbox, folder_id: str) -> dict[str, Any]:
    row = sb.get("folders", folder_id)
    if row is None:
        raise ToolError(
            f"No folder with id {folder_id!r}. Use list_folder to browse folders; "
            "pass null (not an id) for the top of My Drive."
        )
    return row


def _path(sb: Sandbox, folder_id: str | None) -> str:
    names: list[str] = []
    while folder_id is not None:
        sb.checkpoint()
        row = _folder(sb, folder_id)
        names.append(row["name"])
        folder_id = row["parent_id"]
    return "/".join(["My Drive", *reversed(names)])


def _subtree(sb: Sandbox, folder_id: str) -> set[str]:
    """The folder and every folder below it."""
    found = {folder_id}
    frontier = [folder_id]
    while frontier:
        sb.checkpoint()
        children = sb.select("folders", "parent_id = ?", (frontier.pop(),))
        frontier += [c["id"] for c in children]
        found |= {c["id"] for c in children}
    return found


def _folder_model(sb: Sandbox, row: dict[str, Any]) -> Folder:
    return Folder.model_validate(row | {"path": _path(sb, row["id"])})


def _name_free(sb: Sandbox, name: str, parent_id: str | None) -> None:
    where, params = ("parent_id = ?", (parent_id,)) if parent_id else ("parent_id IS NULL", ())
    clash = next((f for f in sb.select("folders", where, params) if f["name"].lower() == name.lower()), None)
    if clash:
        raise ToolError(
            f"A folder named {clash['name']!r} already exists in {_path(sb, parent_id)} (id {clash['id']!r}). "
            "Use it, or choose another name."
        )


def _document(sb: Sandbox, reference: str) -> dict[str, Any]:
    """A document you can at least read, by id or url."""
    doc_id = document_id_from(reference)
    doc = sb.get("documents", doc_id)
    if doc is None:
        raise ToolError(f"No document with id {doc_id!r}. Use search_documents or list_folder to find document ids.")
    if access_of(doc, _me(sb)) is None:
        raise ToolError(
            f"You do not have access to document {doc_id!r}: its owner {doc['owner']} has not shared it with you. "
            "Ask them to share it."
        )
    return doc


def _need(sb: Sandbox, doc: dict[str, Any], level: Access, action: str) -> None:
    """Refuse `action` unless you have at least `level` access to the document."""
    access = access_of(doc, _me(sb))
    assert access is not None
    if RANK[access] >= RANK[level]:
        return
    where = f"{doc['title']!r} (owned by {doc['owner']})"
    role = f"{'an' if access == 'editor' else 'a'} {access}"
    if level == "owner":
        raise ToolError(f"Only the owner of {where} can {action}; you are {role}.")
    hint = (
        " Suggest the change with add_comment instead, or ask the owner for edit access."
        if access == "commenter"
        else f" Ask {doc['owner']} for {level} access."
    )
    raise ToolError(f"You are {role} of {where}, so you cannot {action}: that needs {level} access.{hint}")


def _changeable(sb: Sandbox, reference: str, level: Access, action: str) -> dict[str, Any]:
    """A document you may `action`: enough access, and not in the trash."""
    doc = _document(sb, reference)
    _need(sb, doc, level, action)
    if doc["trashed"]:
        raise ToolError(
            f"{doc['title']!r} is in the trash, so you cannot {action}. Its owner can restore it with restore_document."
        )
    return doc


def _revision_number(sb: Sandbox, doc_id: str) -> int:
    return int(sb.db.execute("SELECT max(number) FROM revisions WHERE document_id = ?", (doc_id,)).fetchone()[0] or 0)


def _open_comments(sb: Sandbox, doc_id: str) -> int:
    return int(
        sb.db.execute("SELECT count(*) FROM comments WHERE document_id = ? AND resolved = 0", (doc_id,)).fetchone()[0]
    )


def _snippet(content: str, words: list[str], length: int = 160) -> str:
    text = " ".join(content.split())
    hits = [i for i in (text.lower().find(w) for w in words) if i >= 0]
    start = max(0, min(hits) - 40) if hits else 0
    piece = text[start : start + length]
    return ("…" if start else "") + piece + ("…" if start + length < len(text) else "")


def _summary(sb: Sandbox, doc: dict[str, Any], words: list[str] | None = None) -> DocumentSummary:
    return DocumentSummary.model_validate(
        doc | {"your_access": access_of(doc, _me(sb)), "snippet": _snippet(doc["content"], words or [])}
    )


def _full(sb: Sandbox, doc: dict[str, Any]) -> Document:
    return Document.model_validate(
        doc
        | {
            "folder_path": _path(sb, doc["folder_id"]),
            "your_access": access_of(doc, _me(sb)),
            "revision": _revision_number(sb, doc["id"]),
            "open_comments": _open_comments(sb, doc["id"]),
        }
    )


def _sharing(doc: dict[str, Any]) -> Sharing:
    return Sharing(
        document_id=doc["id"],
        title=doc["title"],
        url=doc["url"],
        owner=doc["owner"],
        shared_with=doc["shared_with"],
        link_sharing=doc["link_sharing"],
    )


def _recent_first(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: datetime.fromisoformat(r["updated_at"]), reverse=True)


def _record_revision(sb: Sandbox, doc: dict[str, Any], summary: str) -> None:
    sb.insert(
        "revisions",
        {
            "id": sb.new_id("rev"),
            "document_id": doc["id"],
            "number": _revision_number(sb, doc["id"]) + 1,
            "title": doc["title"],
            "content": doc["content"],
            "author": _me(sb),
            "created_at": doc["updated_at"],
            "summary": summary,
        },
    )


def _revise(sb: Sandbox, doc: dict[str, Any], summary: str, **changes: str) -> dict[str, Any]:
    """Change a document's title and/or content, recording the result as a new revision."""
    if all(doc[k] == v for k, v in changes.items()):
        raise ToolError(f"Nothing changed: {doc['title']!r} already has exactly this {' and '.join(changes)}.")
    if len(changes.get("content", "")) > MAX_CONTENT:
        raise ToolError(f"The content would be {len(changes['content'])} characters; the limit is {MAX_CONTENT}.")
    updated = sb.update("documents", doc["id"], {**changes, "updated_at": sb.now_iso()})
    _record_revision(sb, updated, summary)
    return updated


def _fits(size: int) -> None:
    if size > MAX_CONTENT:
        raise ToolError(f"The content would be {size} characters; the limit is {MAX_CONTENT}. Nothing was changed.")


def _revision(sb: Sandbox, doc: dict[str, Any], number: int) -> dict[str, Any]:
    rows = sb.select("revisions", "document_id = ? AND number = ?", (doc["id"], number))
    if not rows:
        latest = _revision_number(sb, doc["id"])
        raise ToolError(f"{doc['title']!r} has no revision {number}; its revisions are numbered 1 to {latest}.")
    return rows[0]


def _comment(sb: Sandbox, comment_id: str, action: str) -> dict[str, Any]:
    """A comment on a document you may comment on."""
    row = sb.get("comments", comment_id)
    if row is None:
        raise ToolError(
            f"No comment with id {comment_id!r}. Use list_comments with the document's id to find comment ids."
        )
    _changeable(sb, row["document_id"], "commenter", action)
    return row


def _person(sb: Sandbox, doc: dict[str, Any], email: str) -> str:
    """An email to share with or unshare, refusing the owner and yourself."""
    email = email.lower()
    if email == doc["owner"]:
        raise ToolError(f"{email} owns {doc['title']!r} and always has full access; their access cannot be changed.")
    if email == _me(sb):
        raise ToolError("You cannot change your own access to a document; only other people's.")
    return email


# -- finding and reading ----------------------------------------------------


@tools.tool(read_only=True, title="Search documents")
def search_documents(
    sb: Sandbox,
    query: Annotated[
        str, Field(max_length=500, description="Words that must all appear in the title or content.")
    ] = "",
    owner: Annotated[Email | None, Field(description="Only documents this person owns.")] = None,
    shared_with: Annotated[
        Email | None,
        Field(description="Only documents shared with this person; your own email finds those shared with you."),
    ] = None,
    folder_id: Annotated[
        str | None, Field(max_length=100, description="Only documents in this folder or its subfolders.")
    ] = None,
    in_trash: bool = False,
    max_results: Annotated[int, Field(ge=1, le=100)] = 25,
) -> DocumentList:
    """Find documents in your Drive (ones you own or that were shared with you), most recently updated first.

    Every word of `query` must appear in the title or content (any case). Narrow by `owner`, by `shared_with`
    or by `folder_id`. With no arguments, lists your most recently updated documents. Trashed documents are
    left out; set in_trash=true to search the trash instead. Results carry ids and urls for the other tools."""
    words = query.lower().split()
    folders = _subtree(sb, _folder(sb, folder_id)["id"]) if folder_id else None
    hits = []
    for doc in sb.select("documents", "trashed = ?", (int(in_trash),)):
        if not listed_for(doc, _me(sb)):
            continue
        if owner and doc["owner"] != owner.lower():
            continue
        if shared_with and shared_with.lower() not in {s["email"] for s in doc["shared_with"]}:
            continue
        if folders is not None and doc["folder_id"] not in folders:
            continue
        text = f"{doc['title']}\n{doc['content']}".lower()
        if all(w in text for w in words):
            hits.append(doc)
    hits = _recent_first(hits)[:max_results]
    return DocumentList(documents=[_summary(sb, d, words) for d in hits], count=len(hits))


@tools.tool(read_only=True, title="List folder")
def list_folder(
    sb: Sandbox,
    folder_id: Annotated[str | None, Field(max_length=100, description="Leave out for the top of My Drive.")] = None,
) -> FolderListing:
    """List a folder's subfolders and documents (trashed ones excluded); leave folder_id out for the top of My Drive.

    Documents shared with you appear at the top of My Drive unless they were filed into a folder.
    Browse deeper by calling list_folder with a subfolder's id."""
    folder = _folder(sb, folder_id) if folder_id else None
    where, params = ("= ?", (folder_id,)) if folder_id else ("IS NULL", ())
    subfolders = sb.select("folders", f"parent_id {where}", params, order="name COLLATE NOCASE")
    docs = [d for d in sb.select("documents", f"folder_id {where} AND trashed = 0", params) if listed_for(d, _me(sb))]
    return FolderListing(
        folder=_folder_model(sb, folder) if folder else None,
        path=_path(sb, folder_id),
        folders=[_folder_model(sb, f) for f in subfolders],
        documents=[_summary(sb, d) for d in _recent_first(docs)],
    )


@tools.tool(read_only=True, title="Get document")
def get_document(sb: Sandbox, document_id: DocumentId) -> Document:
    """Open a document: its full markdown content, url, owner, folder, who it is shared with and your access.

    Accepts the document's id or a pasted link (https://docs.example.test/d/...)."""
    return _full(sb, _document(sb, document_id))


# -- writing ------------------------------------------------------------------


@tools.tool(title="Create document")
def create_document(
    sb: Sandbox,
    title: Title,
    content: Content = "",
    folder_id: Annotated[
        str | None, Field(max_length=100, description="Folder to create it in; leave out for the top of My Drive.")
    ] = None,
) -> Document:
    """Create a document that you own, with a title and optional markdown content, in a folder or at the top of My Drive.

    It starts shared with nobody (use share_document) and its url is ready to paste into messages."""
    title = _blank_check(title, "The title")
    if folder_id:
        _folder(sb, folder_id)
    doc_id = sb.new_id("doc")
    now = sb.now_iso()
    doc = sb.insert(
        "documents",
        {
            "id": doc_id,
            "title": title,
            "content": content,
            "owner": _me(sb),
            "folder_id": folder_id or None,
            "url": document_url(doc_id),
            "shared_with": [],
            "link_sharing": "restricted",
            "trashed": False,
            "created_at": now,
            "updated_at": now,
        },
    )
    _record_revision(sb, doc, "Created")
    return _full(sb, doc)


@tools.tool(destructive=True, idempotent=True, title="Replace content")
def replace_content(sb: Sandbox, document_id: DocumentId, content: Content) -> Document:
    """Replace a document's whole content with new markdown. Needs editor access.

    The old text stays in the revision history. For a targeted change prefer edit_document; to add at the end,
    append_content."""
    doc = _changeable(sb, document_id, "editor", "edit it")
    return _full(sb, _revise(sb, doc, "Replaced the content", content=content))


@tools.tool(title="Append to document")
def append_content(
    sb: Sandbox,
    document_id: DocumentId,
    text: Annotated[str, Field(min_length=1, max_length=MAX_CONTENT, description="Markdown to add at the end.")],
) -> Document:
    """Add text at the end of a document, starting on a new line. Needs editor access.

    Start `text` with an empty line to begin a new paragraph."""
    doc = _changeable(sb, document_id, "editor", "edit it")
    if not text.strip():
        raise ToolError("The text to append is blank; give some text.")
    content = doc["content"]
    joiner = "\n" if content and not content.endswith("\n") else ""
    _fits(len(content) + len(joiner) + len(text))
    return _full(sb, _revise(sb, doc, "Appended text", content=content + joiner + text))


@tools.tool(title="Find and replace")
def edit_document(
    sb: Sandbox,
    document_id: DocumentId,
    find: Annotated[
        str, Field(min_length=1, max_length=MAX_CONTENT, description="Exact text to find (case-sensitive).")
    ],
    replace: Annotated[str, Field(max_length=MAX_CONTENT, description="Text to put in its place; empty deletes it.")],
    replace_all: Annotated[
        bool, Field(description="Replace every occurrence instead of requiring exactly one.")
    ] = False,
) -> Replaced:
    """Find exact text in a document and replace it. Needs editor access.

    By default `find` must occur exactly once: include enough surrounding text to make it unique, or set
    replace_all=true to change every occurrence. Matching is exact, including case, spaces and markdown."""
    doc = _changeable(sb, document_id, "editor", "edit it")
    if find == replace:
        raise ToolError("`find` and `replace` are the same text; nothing would change.")
    content = doc["content"]
    count = content.count(find)
    if count == 0:
        near = content.lower().find(find.lower())
        hint = f" A match in different case exists: {content[near : near + len(find)]!r}." if near >= 0 else ""
        raise ToolError(
            f"The text {_quoted(find)} does not occur in {doc['title']!r}.{hint} "
            "Matching is exact; copy the text from get_document."
        )
    if count > 1 and not replace_all:
        raise ToolError(
            f"The text {_quoted(find)} occurs {count} times in {doc['title']!r}. Include more surrounding text so it "
            "matches once, or set replace_all=true to replace every occurrence."
        )
    # The size is known before the new text is built: building it first could take count × len(replace) memory.
    _fits(len(content) + count * (len(replace) - len(find)))
    times = f" ({count} times)" if count > 1 else ""
    summary = f"Replaced {_quoted(find)} with {_quoted(replace)}{times}"
    updated = _revise(sb, doc, summary, content=content.replace(find, replace))
    return Replaced(replacements=count, document=_full(sb, updated))


@tools.tool(idempotent=True, title="Rename document")
def rename_document(sb: Sandbox, document_id: DocumentId, title: Title) -> DocumentSummary:
    """Give a document a new title. Needs editor access; the change is recorded in the revision history."""
    doc = _changeable(sb, document_id, "editor", "rename it")
    title = _blank_check(title, "The title")
    return _summary(sb, _revise(sb, doc, f"Renamed from {doc['title']!r} to {title!r}", title=title))


@tools.tool(destructive=True, title="Restore revision")
def restore_revision(sb: Sandbox, document_id: DocumentId, number: RevisionNumber) -> Document:
    """Bring back an earlier revision's title and content (see list_revisions). Needs editor access.

    Restoring adds a new revision on top, so nothing in the history is lost."""
    doc = _changeable(sb, document_id, "editor", "restore a revision")
    old = _revision(sb, doc, number)
    if (old["title"], old["content"]) == (doc["title"], doc["content"]):
        raise ToolError(f"Revision {number} matches the current version of {doc['title']!r}; nothing to restore.")
    updated = _revise(sb, doc, f"Restored revision {number}", title=old["title"], content=old["content"])
    return _full(sb, updated)


# -- organizing -----------------------------------------------------------------


@tools.tool(idempotent=True, title="Move document")
def move_document(sb: Sandbox, document_id: DocumentId, folder_id: Destination) -> DocumentSummary:
    """Move a document into a folder, or to the top of My Drive with folder_id null. Needs editor access."""
    doc = _changeable(sb, document_id, "editor", "move it")
    if folder_id:
        _folder(sb, folder_id)
    if doc["folder_id"] == (folder_id or None):
        raise ToolError(f"{doc['title']!r} is already in {_path(sb, doc['folder_id'])}.")
    return _summary(sb, sb.update("documents", doc["id"], {"folder_id": folder_id or None}))


@tools.tool(title="Create folder")
def create_folder(
    sb: Sandbox,
    name: FolderName,
    parent_id: Annotated[
        str | None, Field(max_length=100, description="Folder to create it in; leave out for the top of My Drive.")
    ] = None,
) -> Folder:
    """Create a folder in My Drive, at the top or inside `parent_id`. Names are unique within a folder (any case)."""
    name = _blank_check(name, "The folder name")
    if parent_id:
        _folder(sb, parent_id)
    _name_free(sb, name, parent_id or None)
    folder_id = sb.new_id("fld")
    row = sb.insert(
        "folders",
        {
            "id": folder_id,
            "name": name,
            "parent_id": parent_id or None,
            "url": folder_url(folder_id),
            "created_at": sb.now_iso(),
        },
    )
    return _folder_model(sb, row)


@tools.tool(idempotent=True, title="Rename folder")
def rename_folder(sb: Sandbox, folder_id: FolderId, name: FolderName) -> Folder:
    """Give a folder a new name; its documents and subfolders stay inside it."""
    folder = _folder(sb, folder_id)
    name = _blank_check(name, "The folder name")
    if name == folder["name"]:
        raise ToolError(f"The folder is already named {name!r}.")
    if name.lower() != folder["name"].lower():
        _name_free(sb, name, folder["parent_id"])
    return _folder_model(sb, sb.update("folders", folder_id, {"name": name}))


@tools.tool(idempotent=True, title="Move folder")
def move_folder(sb: Sandbox, folder_id: FolderId, parent_id: Destination) -> Folder:
    """Move a folder, with everything in it, into another folder, or to the top of My Drive with parent_id null."""
    folder = _folder(sb, folder_id)
    if parent_id:
        _folder(sb, parent_id)
        if parent_id in _subtree(sb, folder_id):
            raise ToolError(f"Cannot move folder {folder['name']!r} into itself or one of its own subfolders.")
    if folder["parent_id"] == (parent_id or None):
        raise ToolError(f"Folder {folder['name']!r} is already in {_path(sb, folder['parent_id'])}.")
    _name_free(sb, folder["name"], parent_id or None)
    return _folder_model(sb, sb.update("folders", folder_id, {"parent_id": parent_id or None}))


@tools.tool(destructive=True, idempotent=True, title="Move to trash")
def trash_document(sb: Sandbox, document_id: DocumentId) -> DocumentSummary:
    """Move a document you own to the trash. It disappears from searches and folders and becomes read-only.

    restore_document brings it back where it was."""
    doc = _document(sb, document_id)
    _need(sb, doc, "owner", "move it to the trash")
    if doc["trashed"]:
        raise ToolError(f"{doc['title']!r} is already in the trash.")
    return _summary(sb, sb.update("documents", doc["id"], {"trashed": True, "trashed_at": sb.now_iso()}))


@tools.tool(idempotent=True, title="Restore from trash")
def restore_document(sb: Sandbox, document_id: DocumentId) -> DocumentSummary:
    """Take a document you own out of the trash, back into the folder it was in.

    Find trashed documents with search_documents(in_trash=true)."""
    doc = _document(sb, document_id)
    _need(sb, doc, "owner", "restore it from the trash")
    if not doc["trashed"]:
        raise ToolError(f"{doc['title']!r} is not in the trash.")
    return _summary(sb, sb.update("documents", doc["id"], {"trashed": False, "trashed_at": None}))


# -- sharing ------------------------------------------------------------------


@tools.tool(idempotent=True, title="Share document")
def share_document(
    sb: Sandbox,
    document_id: DocumentId,
    email: Email,
    role: Annotated[Role, Field(description="viewer reads; commenter also comments; editor also edits and shares.")],
) -> Sharing:
    """Share a document with a person as viewer, commenter or editor; sharing again with someone changes their role.

    The owner and editors can share. Returns the document's sharing list and url."""
    doc = _changeable(sb, document_id, "editor", "share it")
    email = _person(sb, doc, email)
    shared = doc["shared_with"]
    current = next((s for s in shared if s["email"] == email), None)
    if current is None:
        shared.append({"email": email, "role": role})
    elif current["role"] == role:
        raise ToolError(f"{doc['title']!r} is already shared with {email} as {role}.")
    else:
        current["role"] = role
    return _sharing(sb.update("documents", doc["id"], {"shared_with": shared}))


@tools.tool(destructive=True, idempotent=True, title="Stop sharing")
def unshare_document(sb: Sandbox, document_id: DocumentId, email: Email) -> Sharing:
    """Remove a person's access to a document. The owner and editors can do this."""
    doc = _changeable(sb, document_id, "editor", "change its sharing")
    email = _person(sb, doc, email)
    shared = doc["shared_with"]
    if email not in {s["email"] for s in shared}:
        people = ", ".join(f"{s['email']} ({s['role']})" for s in shared) or "nobody besides the owner"
        raise ToolError(f"{doc['title']!r} is not shared with {email}. It is shared with: {people}.")
    kept = [s for s in shared if s["email"] != email]
    return _sharing(sb.update("documents", doc["id"], {"shared_with": kept}))


@tools.tool(idempotent=True, title="Set link sharing")
def set_link_sharing(
    sb: Sandbox,
    document_id: DocumentId,
    access: Annotated[
        LinkSharing,
        Field(description="'restricted' (only people it is shared with), or what anyone with the link may do."),
    ],
) -> Sharing:
    """Set what anyone who has the document's link may do: 'viewer', 'commenter', 'editor', or 'restricted' for nobody.

    People it is shared with by name keep their own role. The owner and editors can change this."""
    doc = _changeable(sb, document_id, "editor", "change its sharing")
    if doc["link_sharing"] == access:
        raise ToolError(f"Link sharing of {doc['title']!r} is already {access!r}.")
    return _sharing(sb.update("documents", doc["id"], {"link_sharing": access}))


# -- comments -----------------------------------------------------------------


@tools.tool(title="Add comment")
def add_comment(
    sb: Sandbox,
    document_id: DocumentId,
    body: CommentBody,
    quote: Annotated[
        str | None,
        Field(
            min_length=1,
            max_length=2_000,
            description="Exact text of the document the comment is about (case-sensitive).",
        ),
    ] = None,
) -> Comment:
    """Comment on a document, optionally anchored to a passage: `quote` must be text that occurs in it.

    Leave quote out to comment on the whole document. Needs commenter or editor access."""
    doc = _changeable(sb, document_id, "commenter", "comment on it")
    body = _blank_check(body, "The comment")
    if quote is not None and quote not in doc["content"]:
        raise ToolError(
            f"The quote {_quoted(quote)} does not occur in {doc['title']!r}. Copy the exact text from get_document, "
            "or leave quote out to comment on the whole document."
        )
    row = sb.insert(
        "comments",
        {
            "id": sb.new_id("cmt"),
            "document_id": doc["id"],
            "author": _me(sb),
            "body": body,
            "quote": quote,
            "created_at": sb.now_iso(),
            "resolved": False,
            "resolved_by": None,
            "resolved_at": None,
            "replies": [],
        },
    )
    return Comment.model_validate(row)


@tools.tool(title="Reply to comment")
def reply_to_comment(sb: Sandbox, comment_id: CommentId, body: CommentBody) -> Comment:
    """Reply to a comment thread. Replying to a resolved comment reopens it. Needs commenter or editor access."""
    comment = _comment(sb, comment_id, "reply to its comments")
    body = _blank_check(body, "The reply")
    replies = [*comment["replies"], {"author": _me(sb), "body": body, "created_at": sb.now_iso()}]
    reopen = {"resolved": False, "resolved_by": None, "resolved_at": None}
    return Comment.model_validate(sb.update("comments", comment_id, {"replies": replies, **reopen}))


@tools.tool(idempotent=True, title="Resolve comment")
def resolve_comment(sb: Sandbox, comment_id: CommentId) -> Comment:
    """Mark a comment as resolved (done), hiding it from list_comments by default. Needs commenter or editor access."""
    comment = _comment(sb, comment_id, "resolve its comments")
    if comment["resolved"]:
        raise ToolError(f"Comment {comment_id!r} was already resolved by {comment['resolved_by']}.")
    changes = {"resolved": True, "resolved_by": _me(sb), "resolved_at": sb.now_iso()}
    return Comment.model_validate(sb.update("comments", comment_id, changes))


@tools.tool(read_only=True, title="List comments")
def list_comments(sb: Sandbox, document_id: DocumentId, include_resolved: bool = False) -> CommentList:
    """List a document's comments with their replies, oldest first. Resolved comments are left out unless asked for."""
    doc = _document(sb, document_id)
    rows = sb.select("comments", "document_id = ?" + ("" if include_resolved else " AND resolved = 0"), (doc["id"],))
    return CommentList(document_id=doc["id"], comments=[Comment.model_validate(r) for r in rows], count=len(rows))


# -- history ------------------------------------------------------------------


@tools.tool(read_only=True, title="List revisions")
def list_revisions(sb: Sandbox, document_id: DocumentId) -> RevisionList:
    """List a document's revision history, newest first: who changed it, when, and what changed.

    Every change to the title or content makes a revision. Read one with get_revision; bring one back with
    restore_revision."""
    doc = _document(sb, document_id)
    rows = sb.select("revisions", "document_id = ?", (doc["id"],), order="number DESC")
    return RevisionList(document_id=doc["id"], revisions=[RevisionSummary.model_validate(r) for r in rows])


@tools.tool(read_only=True, title="Get revision")
def get_revision(sb: Sandbox, document_id: DocumentId, number: RevisionNumber) -> Revision:
    """Read a document as it was at one revision: its title and full content then (numbers from list_revisions)."""
    doc = _document(sb, document_id)
    return Revision.model_validate(_revision(sb, doc, number))
