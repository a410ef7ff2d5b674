"""The mailbox's tools, written for the model that calls them."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import Field, WithJsonSchema

from servers.core import Sandbox, ToolError, ToolModel, Toolset
from servers.core.clock import zone
from servers.mail.model import (
    HIDDEN_FOLDERS,
    SYSTEM_FOLDERS,
    Attachment,
    Message,
    MessageSummary,
    SearchContext,
    check_label_name,
    compile_query,
    find_label,
    message_model,
    parse_address,
    sent_time,
    stamp,
    summary_model,
)

tools = Toolset()

MAX_MESSAGE_CHARS = 1_000_000
"""Characters one message you write or forward may hold: its body plus its attachments' contents."""
MAX_THREAD_CHARS = 2_000_000
"""Characters get_thread returns at most; a longer conversation is read message by message."""

MessageId = Annotated[
    str, Field(min_length=1, max_length=100, description="A message id, as returned by search_messages or get_thread.")
]
MessageIds = Annotated[
    list[MessageId],
    Field(min_length=1, max_length=100, description="One or more message ids from search_messages or get_thread."),
]
DraftId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=100,
        description="The draft's id, from create_draft or search_messages with 'in:drafts'.",
    ),
]
Recipients = Annotated[
    list[Annotated[str, Field(max_length=320)]],
    Field(max_length=100, description="Email addresses, e.g. ['priya@acme.test'] or ['Priya Shah <priya@acme.test>']."),
]
Subject = Annotated[str, Field(max_length=500)]
Body = Annotated[str, Field(max_length=100_000, description="Plain-text body.")]
Attachments = Annotated[
    list[Attachment],
    Field(max_length=20, description="Files to attach: name and text content."),
    # Spelled out in place rather than as a $ref, so the schema is usable as it is in strict tool-calling modes.
    WithJsonSchema(
        {
            "type": "array",
            "items": Attachment.model_json_schema(),
            "maxItems": 20,
            "description": "Files to attach: name and text content.",
        }
    ),
]
LabelName = Annotated[
    str, Field(min_length=1, max_length=60, description="A label's name, any case, as listed by list_folders.")
]


class MessageList(ToolModel):
    """What search_messages returns: the matching messages, and how many matched in all."""

    messages: list[MessageSummary]
    count: int = Field(description="How many messages are listed here.")
    total: int = Field(description="How many messages matched; more than `count` when max_results cut the list.")


class Thread(ToolModel):
    """What get_thread returns: every message of a conversation, oldest first."""

    thread_id: str
    subject: str
    messages: list[Message] = Field(description="Every message of the conversation, oldest first, drafts included.")
    count: int


class FolderInfo(ToolModel):
    """A folder or label with its message and unread counts."""

    name: str
    kind: Literal["system", "label"]
    total: int = Field(description="Messages in the folder; for a label, labelled messages outside trash and spam.")
    unread: int


class FolderList(ToolModel):
    """What list_folders returns: the system folders and the user's labels."""

    folders: list[FolderInfo]


class Changed(ToolModel):
    """What a tool that changes messages returns: which it changed and which were already as asked."""

    changed: list[str] = Field(description="Ids of the messages this call changed.")
    unchanged: list[str] = Field(description="Ids that were already as requested and were left alone.")


class DeletedDraft(ToolModel):
    """What delete_draft returns: the id and subject of the draft deleted."""

    deleted: str
    subject: str


class DeletedLabel(ToolModel):
    """What delete_label returns: the label deleted and the messages that carried it."""

    deleted: str
    removed_from: list[str] = Field(description="Ids of the messages that carried the label.")


class Contact(ToolModel):
    """Someone the user can write to: a saved contact, or a person known only from the mail."""

    email: str
    name: str
    saved: bool = Field(description="True for saved contacts; false for people known only from your mail.")


class ContactList(ToolModel):
    """What list_contacts returns: the matching contacts."""

    contacts: list[Contact]


# -- helpers ----------------------------------------------------------------


def _message(sb: Sandbox, message_id: str) -> dict[str, Any]:
    row = sb.get("messages", message_id)
    if row is None:
        raise ToolError(f"No message with id {message_id!r}. Use search_messages to find message ids.")
    return row


def _messages(sb: Sandbox, message_ids: list[str]) -> list[dict[str, Any]]:
    ids = list(dict.fromkeys(message_ids))
    rows = [sb.get("messages", i) for i in ids]
    missing = [i for i, row in zip(ids, rows, strict=True) if row is None]
    if missing:
        raise ToolError(
            f"No message with id {', '.join(repr(i) for i in missing)}; nothing was changed. "
            "Use search_messages to find message ids."
        )
    return [r for r in rows if r is not None]


def _draft(sb: Sandbox, draft_id: str) -> dict[str, Any]:
    row = sb.get("messages", draft_id)
    if row is None:
        raise ToolError(f"No draft with id {draft_id!r}. Use search_messages with 'in:drafts' to list your drafts.")
    if row["folder"] != "drafts":
        raise ToolError(
            f"Message {draft_id!r} is not a draft (it is in {row['folder']!r}). Only drafts can be edited, sent "
            "or discarded this way; use search_messages with 'in:drafts' to list your drafts."
        )
    return row


def _answerable(sb: Sandbox, message_id: str, action: str) -> dict[str, Any]:
    row = _message(sb, message_id)
    if row["folder"] == "drafts":
        raise ToolError(
            f"Message {message_id!r} is an unsent draft and cannot be {action}. Edit it with update_draft or send "
            "it with send_draft."
        )
    return row


def _labels(sb: Sandbox) -> list[str]:
    return [r["name"] for r in sb.select("labels")]


def _label(sb: Sandbox, name: str) -> str:
    labels = _labels(sb)
    label = find_label(labels, name)
    if label is None:
        known = ", ".join(labels) or "none yet"
        raise ToolError(f"No label {name!r}. Your labels: {known}. Create one with create_label.")
    return label


def _addresses(field: str, values: list[str]) -> list[str]:
    emails = []
    for value in values:
        try:
            emails.append(parse_address(value)[1])
        except ValueError:
            raise ToolError(
                f"{field}: {value!r} is not an email address. Use a full address such as 'priya@acme.test'; "
                "search_contacts finds people's addresses."
            ) from None
    return list(dict.fromkeys(emails))


def _recipients(to: list[str], cc: list[str], bcc: list[str]) -> dict[str, list[str]]:
    """Checked, lowercased and de-duplicated recipients; an address appears in only its first field."""
    out: dict[str, list[str]] = {}
    seen: set[str] = set()
    for field, values in (("to", to), ("cc", cc), ("bcc", bcc)):
        out[field] = [e for e in _addresses(field, values) if e not in seen]
        seen.update(out[field])
    return out


def _require_recipients(recipients: dict[str, list[str]], what: str) -> None:
    if not any(recipients.values()):
        raise ToolError(f"{what} has no recipients: give at least one address in to, cc or bcc.")


def _reply_recipients(sb: Sandbox, original: dict[str, Any], reply_all: bool) -> tuple[list[str], list[str]]:
    """Who a reply goes to: the sender (or, for your own message, its recipients), plus everyone else on reply-all."""
    me = sb.persona.email
    cc = original["cc"] if reply_all else []
    if original["from"] == me:
        to = original["to"]
    else:
        to = [e for e in [original["from"], *(original["to"] if reply_all else [])] if e != me]
        cc = [e for e in cc if e != me]
    to = list(dict.fromkeys(to))
    return to, [e for e in dict.fromkeys(cc) if e not in to]


def _prefixed(prefix: str, subject: str, already: tuple[str, ...]) -> str:
    """`subject` with `prefix` in front unless it already starts with one of `already` (any case)."""
    if re.match(rf"^\s*({'|'.join(already)})\s*:", subject, re.IGNORECASE):
        return subject
    return f"{prefix}: {subject}".rstrip()


def _reply_subject(subject: str) -> str:
    return _prefixed("Re", subject, ("re",))


def _display_time(sb: Sandbox, row: dict[str, Any]) -> str:
    when = sent_time(row).astimezone(zone(sb.persona.timezone))
    return f"{when:%a}, {when.day} {when:%b %Y} at {when:%H:%M}"


def _sender(row: dict[str, Any]) -> str:
    return f"{row['from_name']} <{row['from']}>" if row["from_name"] else row["from"]


def _forwarded_body(sb: Sandbox, note: str, original: dict[str, Any]) -> str:
    header = [
        "---------- Forwarded message ---------",
        f"From: {_sender(original)}",
        f"Date: {_display_time(sb, original)}",
        f"Subject: {original['subject']}",
        f"To: {', '.join(original['to'])}",
    ]
    if original["cc"]:
        header.append(f"Cc: {', '.join(original['cc'])}")
    quoted = "\n".join(header) + "\n\n" + original["body"]
    return f"{note.rstrip()}\n\n{quoted}" if note.strip() else quoted


def _check_size(what: str, body: str, attachments: list[dict[str, Any]], hint: str = "") -> None:
    """Refuse a message over MAX_MESSAGE_CHARS before anything is built or stored."""
    size = len(body) + sum(len(a["name"]) + len(a["content"]) for a in attachments)
    if size > MAX_MESSAGE_CHARS:
        raise ToolError(
            f"{what} would hold {size} characters (body and attachments); the limit is {MAX_MESSAGE_CHARS}.{hint}"
        )


def _write(
    sb: Sandbox,
    *,
    folder: str,
    thread_id: str | None,
    recipients: dict[str, list[str]],
    subject: str,
    body: str,
    attachments: list[dict[str, Any]],
    in_reply_to: str | None = None,
    forwarded_from: str | None = None,
) -> dict[str, Any]:
    """Store a message written by the user, in `sent` or `drafts`."""
    _check_size("The message", body, attachments, " Send less text, or fewer or smaller attachments.")
    return sb.insert(
        "messages",
        {
            "id": sb.new_id("msg"),
            "thread_id": thread_id or sb.new_id("thr"),
            "folder": folder,
            "labels": [],
            "from": sb.persona.email,
            "from_name": sb.persona.name,
            **recipients,
            "subject": subject,
            "body": body,
            "sent_at": stamp(sb),
            "is_read": True,
            "is_starred": False,
            "attachments": attachments,
            "in_reply_to": in_reply_to,
            "forwarded_from": forwarded_from,
        },
    )


def _files(attachments: list[Attachment]) -> list[dict[str, Any]]:
    return [a.model_dump() for a in attachments]


def _ids(rows: list[dict[str, Any]]) -> str:
    return ", ".join(repr(r["id"]) for r in rows)


def _change(
    sb: Sandbox, rows: list[dict[str, Any]], update: Callable[[dict[str, Any]], dict[str, Any] | None], already: str
) -> Changed:
    """Apply `update(row)` (None: already as requested) to each row; an error naming `already` when none changes."""
    changed, unchanged = [], []
    for row in rows:
        changes = update(row)
        if changes is None:
            unchanged.append(row["id"])
        else:
            sb.update("messages", row["id"], changes)
            changed.append(row["id"])
    if not changed:
        verb = "is" if len(rows) == 1 else "are"
        raise ToolError(f"Nothing to change: {_ids(rows)} {verb} already {already}.")
    return Changed(changed=changed, unchanged=unchanged)


def _set(sb: Sandbox, rows: list[dict[str, Any]], column: str, value: Any, already: str) -> Changed:
    return _change(sb, rows, lambda row: None if row[column] == value else {column: value}, already)


def _relabel(sb: Sandbox, rows: list[dict[str, Any]], label: str, add: bool) -> Changed:
    def update(row: dict[str, Any]) -> dict[str, Any] | None:
        if (label in row["labels"]) == add:
            return None
        return {"labels": [*row["labels"], label] if add else [x for x in row["labels"] if x != label]}

    return _change(sb, rows, update, f"labelled {label!r}" if add else f"without the label {label!r}")


def _check_move(sb: Sandbox, row: dict[str, Any], target: str) -> None:
    if row["folder"] == "drafts":
        raise ToolError(
            f"Message {row['id']!r} is a draft: send it with send_draft or discard it with delete_draft. "
            "Nothing was changed."
        )
    mine = row["from"] == sb.persona.email
    if target == "sent" and not mine:
        raise ToolError(
            f"Message {row['id']!r} was sent to you by {row['from']}; only mail you sent belongs in 'sent'."
        )
    if target == "spam" and mine:
        raise ToolError(f"Message {row['id']!r} is from you; only mail you received can be marked as spam.")


def _flag(sb: Sandbox, message_ids: list[str], column: str, value: bool, already: str) -> Changed:
    rows = _messages(sb, message_ids)
    drafts = [r for r in rows if r["folder"] == "drafts"]
    if drafts and column == "is_read":
        raise ToolError(f"{_ids(drafts)}: drafts have no read state. Nothing was changed.")
    return _set(sb, rows, column, value, already)


def _folder_info(name: str, kind: Literal["system", "label"], rows: list[dict[str, Any]]) -> FolderInfo:
    return FolderInfo(name=name, kind=kind, total=len(rows), unread=sum(not r["is_read"] for r in rows))


def _newest_first(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Latest sent_at first; of messages sent at the same moment, the one stored last comes first."""
    return [row for _, row in sorted(enumerate(rows), key=lambda p: (sent_time(p[1]), p[0]), reverse=True)]


def _names(sb: Sandbox) -> dict[str, str]:
    """Every known email → display name: saved contacts first, then names senders used."""
    names = {c["email"]: c["name"] for c in sb.select("contacts")}
    for row in sb.select("messages"):
        if row["from_name"] and not names.get(row["from"]):
            names[row["from"]] = row["from_name"]
    return names


# -- reading ------------------------------------------------------------------


@tools.tool(read_only=True, title="Search messages")
def search_messages(
    sb: Sandbox,
    query: Annotated[str, Field(max_length=1000, description="Gmail-style query; empty lists all mail.")] = "",
    max_results: Annotated[int, Field(ge=1, le=200)] = 25,
) -> MessageList:
    """Search your mail with a Gmail-style query; results are newest first.

    All terms must match, in any case; `a OR b` matches either and a leading `-` excludes (`-in:sent`).
    Plain words and "quoted phrases" match the subject, body, sender and recipients (addresses and names)
    and attachment names and text. Operators:
    from:, to: (any recipient, cc and bcc included), cc:, bcc:, subject:, is:unread, is:read, is:starred,
    has:attachment, filename:, in:inbox|sent|drafts|archive|trash|spam|anywhere, label:NAME,
    after:YYYY-MM-DD (on or after that day), before:YYYY-MM-DD (before that day),
    newer_than:/older_than: with an age such as 3d, 2w, 6m, 1y. Values with spaces go in quotes: subject:"q1 budget".
    Trash and spam are searched only when the query asks for them (in:trash, in:spam, in:anywhere).
    Example: from:priya has:attachment after:2026-03-01 "budget review".
    Results are summaries: use get_message for the full body and attachments, get_thread for the conversation."""
    ctx = SearchContext(labels=_labels(sb), names=_names(sb), timezone=sb.persona.timezone, now=sb.now())
    try:
        matches = compile_query(query, ctx)
    except ValueError as exc:
        raise ToolError(f"Invalid search query: {exc}.") from None
    rows = _newest_first([r for r in sb.select("messages") if matches(r)])
    listed = rows[:max_results]
    return MessageList(messages=[summary_model(r) for r in listed], count=len(listed), total=len(rows))


@tools.tool(read_only=True, title="List folders")
def list_folders(sb: Sandbox) -> FolderList:
    """List the folders (inbox, sent, drafts, archive, trash, spam) and your labels, with message and unread counts.

    Label names are what add_label, remove_label and 'label:NAME' searches take."""
    rows = sb.select("messages")
    folders = [_folder_info(f, "system", [r for r in rows if r["folder"] == f]) for f in SYSTEM_FOLDERS]
    visible = [r for r in rows if r["folder"] not in HIDDEN_FOLDERS]
    folders += [_folder_info(label, "label", [r for r in visible if label in r["labels"]]) for label in _labels(sb)]
    return FolderList(folders=folders)


@tools.tool(read_only=True, title="Get message")
def get_message(sb: Sandbox, message_id: MessageId) -> Message:
    """Get one message in full: sender, recipients, subject, body, attachments (with their text), folder and labels.

    Reading a message does not mark it read; use mark_read for that."""
    return message_model(_message(sb, message_id))


@tools.tool(read_only=True, title="Get conversation")
def get_thread(
    sb: Sandbox,
    thread_id: Annotated[
        str, Field(min_length=1, max_length=100, description="A thread id: the thread_id of any of its messages.")
    ],
) -> Thread:
    """Get a whole conversation: every message sharing `thread_id`, oldest first, in full.

    Includes your replies, drafts and messages in trash, each with its folder."""
    rows = sorted(sb.select("messages", "thread_id = ?", (thread_id,)), key=sent_time)
    if not rows:
        raise ToolError(
            f"No thread with id {thread_id!r}. Thread ids are the thread_id field of search_messages results."
        )
    size = sum(len(r["body"]) + sum(len(a["content"]) for a in r["attachments"]) for r in rows)
    if size > MAX_THREAD_CHARS:
        ids = ", ".join(r["id"] for r in rows[:50])
        raise ToolError(
            f"Thread {thread_id!r} holds {size} characters in {len(rows)} messages, more than get_thread returns at "
            f"once ({MAX_THREAD_CHARS}). Read its messages one by one with get_message: {ids}."
        )
    messages = [message_model(r) for r in rows]
    return Thread(thread_id=thread_id, subject=rows[0]["subject"], messages=messages, count=len(messages))


@tools.tool(read_only=True, title="Search contacts")
def search_contacts(
    sb: Sandbox,
    query: Annotated[str, Field(max_length=200, description="Part of a name or address; empty lists everyone.")] = "",
    max_results: Annotated[int, Field(ge=1, le=200)] = 25,
) -> ContactList:
    """Find people's email addresses by name or address: your saved contacts first, then everyone in your mail.

    Example: query='priya' to find the address to write to."""
    saved = {c["email"] for c in sb.select("contacts")}
    people = _names(sb)
    for row in sb.select("messages"):
        for email in [row["from"], *row["to"], *row["cc"], *row["bcc"]]:
            people.setdefault(email, "")
    people.pop(sb.persona.email, None)
    words = query.lower().split()
    hits = [
        Contact(email=email, name=name, saved=email in saved)
        for email, name in people.items()
        if all(w in f"{email} {name}".lower() for w in words)
    ]
    hits.sort(key=lambda c: (not c.saved, c.name.lower() or c.email))
    return ContactList(contacts=hits[:max_results])


# -- writing ------------------------------------------------------------------


@tools.tool(title="Send message")
def send_message(
    sb: Sandbox,
    to: Recipients,
    subject: Subject,
    body: Body,
    cc: Recipients = [],  # noqa: B006 - copied by pydantic
    bcc: Recipients = [],  # noqa: B006 - copied by pydantic
    attachments: Attachments = [],  # noqa: B006 - copied by pydantic
) -> Message:
    """Send a new email from you, starting a new conversation; it is stored in 'sent'.

    Needs at least one recipient in to, cc or bcc. To answer an existing message use reply (it keeps the
    conversation together); to pass one on use forward."""
    recipients = _recipients(to, cc, bcc)
    _require_recipients(recipients, "The message")
    row = _write(
        sb,
        folder="sent",
        thread_id=None,
        recipients=recipients,
        subject=subject,
        body=body,
        attachments=_files(attachments),
    )
    return message_model(row)


@tools.tool(title="Reply")
def reply(
    sb: Sandbox,
    message_id: MessageId,
    body: Body,
    reply_all: Annotated[bool, Field(description="Also send to everyone else on the message's to and cc.")] = False,
    cc: Annotated[Recipients, Field(description="Extra people to copy.")] = [],  # noqa: B006 - copied by pydantic
    bcc: Recipients = [],  # noqa: B006 - copied by pydantic
    attachments: Attachments = [],  # noqa: B006 - copied by pydantic
) -> Message:
    """Reply to a message and send it right away, in the same conversation.

    Goes to the sender (replying to your own message goes to its recipients); with reply_all=true also to
    everyone else on its to and cc lines, never to you. The subject becomes 'Re: <subject>'. The original's
    attachments are not included; use forward to pass them on. To prepare a reply without sending it, use
    create_draft with in_reply_to."""
    original = _answerable(sb, message_id, "replied to")
    to, copied = _reply_recipients(sb, original, reply_all)
    recipients = _recipients(to, [*copied, *cc], bcc)
    if not any(recipients.values()):
        raise ToolError(f"Message {message_id!r} has no one to reply to. Use send_message to write to someone.")
    row = _write(
        sb,
        folder="sent",
        thread_id=original["thread_id"],
        recipients=recipients,
        subject=_reply_subject(original["subject"]),
        body=body,
        attachments=_files(attachments),
        in_reply_to=original["id"],
    )
    return message_model(row)


@tools.tool(title="Forward")
def forward(
    sb: Sandbox,
    message_id: MessageId,
    to: Recipients,
    body: Annotated[str, Field(max_length=100_000, description="Your note above the forwarded message.")] = "",
    cc: Recipients = [],  # noqa: B006 - copied by pydantic
    bcc: Recipients = [],  # noqa: B006 - copied by pydantic
    include_attachments: Annotated[bool, Field(description="Carry the original's attachments over.")] = True,
) -> Message:
    """Forward a message to new recipients and send it right away.

    The original (sender, date, subject, recipients and body) is quoted below your note and its attachments
    are carried over unless include_attachments=false. The subject becomes 'Fwd: <subject>'."""
    original = _answerable(sb, message_id, "forwarded")
    recipients = _recipients(to, cc, bcc)
    _require_recipients(recipients, "The forward")
    carried = original["attachments"] if include_attachments else []
    # Checked before the quoted text is built: the original may be large.
    _check_size(
        "The forward",
        body + original["body"] + " " * 1_000,
        carried,
        " Forward it with include_attachments=false, or write a shorter note." if carried else "",
    )
    row = _write(
        sb,
        folder="sent",
        thread_id=original["thread_id"],
        recipients=recipients,
        subject=_prefixed("Fwd", original["subject"], ("fwd", "fw")),
        body=_forwarded_body(sb, body, original),
        attachments=carried,
        forwarded_from=original["id"],
    )
    return message_model(row)


# -- drafts -------------------------------------------------------------------


@tools.tool(title="Create draft")
def create_draft(
    sb: Sandbox,
    to: Recipients = [],  # noqa: B006 - copied by pydantic
    subject: Subject = "",
    body: Body = "",
    cc: Recipients = [],  # noqa: B006 - copied by pydantic
    bcc: Recipients = [],  # noqa: B006 - copied by pydantic
    attachments: Attachments = [],  # noqa: B006 - copied by pydantic
    in_reply_to: Annotated[
        str | None, Field(max_length=100, description="Id of a message this draft answers: it joins that conversation.")
    ] = None,
) -> Message:
    """Save a draft in 'drafts' without sending it; send it later with send_draft.

    Recipients may still be missing. With in_reply_to the draft joins that message's conversation, and an
    empty subject or recipient list is filled in as for a reply ('Re: <subject>', to the sender)."""
    recipients = _recipients(to, cc, bcc)
    thread_id = None
    if in_reply_to is not None:
        original = _answerable(sb, in_reply_to, "replied to")
        thread_id = original["thread_id"]
        subject = subject or _reply_subject(original["subject"])
        if not any(recipients.values()):
            recipients["to"] = _reply_recipients(sb, original, reply_all=False)[0]
    if not (any(recipients.values()) or subject.strip() or body.strip() or attachments):
        raise ToolError("The draft is empty: give at least a recipient, a subject or a body.")
    row = _write(
        sb,
        folder="drafts",
        thread_id=thread_id,
        recipients=recipients,
        subject=subject,
        body=body,
        attachments=_files(attachments),
        in_reply_to=in_reply_to,
    )
    return message_model(row)


@tools.tool(idempotent=True, title="Update draft")
def update_draft(
    sb: Sandbox,
    draft_id: DraftId,
    to: Recipients | None = None,
    subject: Subject | None = None,
    body: Body | None = None,
    cc: Recipients | None = None,
    bcc: Recipients | None = None,
    attachments: Attachments | None = None,
) -> Message:
    """Change a draft: only the fields you pass change, and a list you pass replaces the old one.

    To add a recipient, pass the full new list (get_message shows the current one). Use send_draft to send."""
    draft = _draft(sb, draft_id)
    changes: dict[str, Any] = {}
    if to is not None or cc is not None or bcc is not None:
        new = {"to": to, "cc": cc, "bcc": bcc}
        changes.update(_recipients(*(draft[f] if new[f] is None else new[f] for f in ("to", "cc", "bcc"))))  # type: ignore[arg-type]  # a draft's stored recipients are lists of addresses
    if subject is not None:
        changes["subject"] = subject
    if body is not None:
        changes["body"] = body
    if attachments is not None:
        changes["attachments"] = _files(attachments)
    if not changes:
        raise ToolError("Nothing to change: pass at least one of to, cc, bcc, subject, body or attachments.")
    _check_size(
        "The draft",
        changes.get("body", draft["body"]),
        changes.get("attachments", draft["attachments"]),
        " Use less text, or fewer or smaller attachments.",
    )
    changes["sent_at"] = stamp(sb)
    return message_model(sb.update("messages", draft_id, changes))


@tools.tool(title="Send draft")
def send_draft(sb: Sandbox, draft_id: DraftId) -> Message:
    """Send a draft as it is now. It moves to 'sent' with the same id, stamped with the current time.

    The draft needs at least one recipient; add them first with update_draft if it has none."""
    draft = _draft(sb, draft_id)
    _require_recipients({f: draft[f] for f in ("to", "cc", "bcc")}, f"Draft {draft_id!r}")
    return message_model(sb.update("messages", draft_id, {"folder": "sent", "sent_at": stamp(sb)}))


@tools.tool(destructive=True, title="Delete draft")
def delete_draft(sb: Sandbox, draft_id: DraftId) -> DeletedDraft:
    """Discard a draft permanently. Only unsent drafts can be discarded; sent mail goes to trash with trash_message."""
    draft = _draft(sb, draft_id)
    sb.delete("messages", draft_id)
    return DeletedDraft(deleted=draft_id, subject=draft["subject"])


# -- organizing -----------------------------------------------------------------


@tools.tool(idempotent=True, title="Mark read")
def mark_read(sb: Sandbox, message_ids: MessageIds) -> Changed:
    """Mark messages as read. Messages that already are read are reported as unchanged."""
    return _flag(sb, message_ids, "is_read", True, "read")


@tools.tool(idempotent=True, title="Mark unread")
def mark_unread(sb: Sandbox, message_ids: MessageIds) -> Changed:
    """Mark messages as unread, e.g. to come back to them later. Messages already unread are reported as unchanged."""
    return _flag(sb, message_ids, "is_read", False, "unread")


@tools.tool(idempotent=True, title="Star")
def star(sb: Sandbox, message_ids: MessageIds) -> Changed:
    """Star messages to mark them as important; find them again with the search 'is:starred'."""
    return _flag(sb, message_ids, "is_starred", True, "starred")


@tools.tool(idempotent=True, title="Unstar")
def unstar(sb: Sandbox, message_ids: MessageIds) -> Changed:
    """Remove the star from messages. Messages without a star are reported as unchanged."""
    return _flag(sb, message_ids, "is_starred", False, "unstarred")


@tools.tool(idempotent=True, title="Move to folder")
def move_to_folder(
    sb: Sandbox,
    message_ids: MessageIds,
    folder: Annotated[str, Field(max_length=60, description="One of inbox, archive, spam, trash, sent.")],
) -> Changed:
    """Move messages to a folder: 'archive' takes mail out of the inbox, 'inbox' brings it back (also from trash
    or spam), 'spam' reports it, 'trash' deletes it, 'sent' restores your own sent mail from trash.

    Drafts are not moved: send them with send_draft or discard them with delete_draft. Labels are not folders:
    use add_label."""
    target = folder.strip().lower()
    if target not in SYSTEM_FOLDERS:
        label = find_label(_labels(sb), folder)
        if label is not None:
            raise ToolError(
                f"{label!r} is a label, not a folder: use add_label to label messages (and move_to_folder with "
                "'archive' to take them out of the inbox)."
            )
        raise ToolError(f"No folder {folder!r}. Move messages to one of: inbox, archive, spam, trash, sent.")
    if target == "drafts":
        raise ToolError("Messages cannot be moved into drafts; use create_draft to write a new draft.")
    rows = _messages(sb, message_ids)
    for row in rows:
        _check_move(sb, row, target)
    return _set(sb, rows, "folder", target, f"in {target!r}")


@tools.tool(destructive=True, idempotent=True, title="Move to trash")
def trash_message(sb: Sandbox, message_ids: MessageIds) -> Changed:
    """Move one or more messages to the trash. They stay there, searchable with 'in:trash', until moved back
    with move_to_folder. Unsent drafts are discarded with delete_draft instead."""
    rows = _messages(sb, message_ids)
    for row in rows:
        _check_move(sb, row, "trash")
    return _set(sb, rows, "folder", "trash", "in the trash")


@tools.tool(idempotent=True, title="Add label")
def add_label(sb: Sandbox, message_ids: MessageIds, label: LabelName) -> Changed:
    """Put one of your labels on messages; they stay in their folder. list_folders shows your labels and
    create_label makes a new one."""
    return _relabel(sb, _messages(sb, message_ids), _label(sb, label), add=True)


@tools.tool(idempotent=True, title="Remove label")
def remove_label(sb: Sandbox, message_ids: MessageIds, label: LabelName) -> Changed:
    """Take a label off messages. The messages themselves stay where they are."""
    return _relabel(sb, _messages(sb, message_ids), _label(sb, label), add=False)


@tools.tool(title="Create label")
def create_label(sb: Sandbox, name: LabelName) -> FolderInfo:
    """Create a new label, e.g. 'Receipts', to put on messages with add_label. Names are unique in any case."""
    try:
        label = check_label_name(name)
    except ValueError as exc:
        raise ToolError(f"Cannot create label {name!r}: {exc}.") from None
    existing = find_label(_labels(sb), label)
    if existing is not None:
        raise ToolError(f"A label {existing!r} already exists; use it with add_label.")
    sb.insert("labels", {"name": label, "created_at": stamp(sb)})
    return FolderInfo(name=label, kind="label", total=0, unread=0)


@tools.tool(destructive=True, title="Delete label")
def delete_label(sb: Sandbox, name: LabelName) -> DeletedLabel:
    """Delete one of your labels and take it off every message that has it. The messages themselves are kept."""
    label = _label(sb, name)
    tagged = [r for r in sb.select("messages") if label in r["labels"]]
    for row in tagged:
        sb.update("messages", row["id"], {"labels": [x for x in row["labels"] if x != label]})
    sb.delete("labels", label)
    return DeletedLabel(deleted=label, removed_from=[r["id"] for r in tagged])
