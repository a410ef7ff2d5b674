"""What a scenario may seed into the mailbox, and how it becomes rows."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from servers.core import Sandbox, SeedError, SeedRow
from servers.core.clock import isoformat, localize
from servers.mail.model import FolderName, check_label_name, find_label, parse_address, stamp


class AttachmentSeed(SeedRow):
    """A file attached to a seeded message."""

    name: str = Field(min_length=1)
    content: str = Field("", description="The file's text content.")


class MessageSeed(SeedRow):
    """A message in a scenario's seed: folder, labels, sender, recipients, thread and attachments."""

    id: str | None = None
    thread_id: str | None = Field(
        None,
        description="Messages with the same thread_id form one conversation. Left out, a message joins the thread "
        "of the message it replies to (in_reply_to) or starts its own.",
    )
    folder: FolderName | None = Field(None, description="Defaults to 'sent' for mail from the persona, else 'inbox'.")
    labels: list[str] = Field(default_factory=list, description="Names of labels declared under `labels`.")
    from_: str | None = Field(
        None, alias="from", description="'Name <email>' or a bare email; defaults to the persona (the mailbox owner)."
    )
    from_name: str | None = Field(None, description="Overrides the name in `from` (default: the contact's name).")
    to: list[str] = Field(
        default_factory=list,
        description="'Name <email>' or bare emails; defaults to the persona for mail from someone else.",
    )
    cc: list[str] = Field(default_factory=list)
    bcc: list[str] = Field(default_factory=list)
    subject: str = ""
    body: str = ""
    sent_at: datetime = Field(description="When it was sent; a time without an offset is in the persona's time zone.")
    is_read: bool | None = Field(None, description="Defaults to read for mail from the persona, unread otherwise.")
    is_starred: bool = False
    attachments: list[AttachmentSeed] = Field(default_factory=list)
    in_reply_to: str | None = Field(None, description="Id of an earlier message in this list that this one answers.")


class ContactSeed(SeedRow):
    """A saved contact in a scenario's seed."""

    email: str = Field(description="A bare email or 'Name <email>'.")
    name: str = Field("", description="Display name; defaults to the name in `email`.")


class Seed(SeedRow):
    """The mail app's seed data in a scenario: labels, contacts and messages."""

    labels: list[str] = Field(default_factory=list, description="The user's own labels, e.g. 'Receipts'.")
    contacts: list[ContactSeed] = Field(default_factory=list)
    messages: list[MessageSeed] = Field(default_factory=list, description="A reply comes after the message it answers.")


def _address(loc: tuple[Any, ...], text: str) -> tuple[str, str]:
    try:
        return parse_address(text)
    except ValueError as exc:
        raise SeedError.at("mail", loc, str(exc)) from None


def _emails(loc: tuple[Any, ...], texts: list[str]) -> list[str]:
    return list(dict.fromkeys(_address(loc, t)[1] for t in texts))


def _labels(sb: Sandbox, seed: Seed, names: list[str]) -> list[str]:
    """The labels of `names` (those the mailbox has) and the seed's, added to it."""
    now = stamp(sb)
    for i, raw in enumerate(seed.labels):
        try:
            name = check_label_name(raw)
        except ValueError as exc:
            raise SeedError.at("mail", ("labels", i), str(exc)) from None
        if find_label(names, name):
            raise SeedError.at("mail", ("labels", i), f"duplicate label {name!r}")
        names.append(name)
        sb.insert("labels", {"name": name, "created_at": now})
    return names


def _contacts(sb: Sandbox, seed: Seed, names: dict[str, str]) -> dict[str, str]:
    """Each contact's name by email: those of `names` (the mailbox's) and the seed's, added to it."""
    for i, c in enumerate(seed.contacts):
        name, email = _address(("contacts", i, "email"), c.email)
        if email in names:
            raise SeedError.at("mail", ("contacts", i, "email"), f"duplicate contact {email!r}")
        names[email] = c.name or name
        sb.insert("contacts", {"email": email, "name": names[email]})
    return names


def _sender_name(m: MessageSeed, in_address: str, contact: str | None, fallback: str) -> str:
    if m.from_name is not None:
        return m.from_name
    return in_address or contact or fallback


def _thread(sb: Sandbox, at: tuple[Any, ...], m: MessageSeed, threads: dict[str, str]) -> str:
    """The message's thread: its own thread_id, else that of the message it replies to, else a new one."""
    if m.in_reply_to is None:
        return m.thread_id or sb.new_id("thr")
    if m.in_reply_to not in threads:
        raise SeedError.at(
            "mail",
            (*at, "in_reply_to"),
            f"no earlier message with id {m.in_reply_to!r} (list a reply after the message it answers)",
        )
    replied = threads[m.in_reply_to]
    if m.thread_id and m.thread_id != replied:
        raise SeedError.at("mail", (*at, "thread_id"), f"the message it replies to is in thread {replied!r}")
    return replied


def _message_labels(at: tuple[Any, ...], wanted: list[str], labels: list[str]) -> list[str]:
    out = []
    for raw in wanted:
        label = find_label(labels, raw)
        if label is None:
            raise SeedError.at("mail", (*at, "labels"), f"no label {raw!r}; declare it under labels")
        out.append(label)
    return list(dict.fromkeys(out))


def load(sb: Sandbox, seed: Seed) -> None:
    """Write a validated seed into the sandbox: labels, contacts, then messages in their threads."""
    _load(sb, seed, [], {}, {})


def load_more(sb: Sandbox, seed: Seed) -> bool:
    """Write more seed rows (a world event's) into a sandbox holding its seed, as `load` writes them listed after
    the seed's own: the labels, contacts and threads it knows are the sandbox's."""
    labels = [r[0] for r in sb.db.execute("SELECT name FROM labels ORDER BY rowid")]
    names = {r[0]: r[1] for r in sb.db.execute("SELECT email, name FROM contacts ORDER BY rowid")}
    threads = {r[0]: r[1] for r in sb.db.execute("SELECT id, thread_id FROM messages ORDER BY rowid")}
    _load(sb, seed, labels, names, threads)
    return True


def _load(sb: Sandbox, seed: Seed, labels: list[str], names: dict[str, str], threads: dict[str, str]) -> None:
    """`load` in a mailbox that has `labels`, contacts (`names`: name by email) and messages (`threads`: thread id
    by message id) already."""
    me = sb.persona
    labels = _labels(sb, seed, labels)
    names = _contacts(sb, seed, names)

    for i, m in enumerate(seed.messages):
        at = ("messages", i)
        message_id = m.id or sb.new_id("msg")
        if message_id in threads:
            raise SeedError.at("mail", (*at, "id"), f"duplicate message id {message_id!r}")

        thread_id = _thread(sb, at, m, threads)
        sender_name, sender = _address((*at, "from"), m.from_) if m.from_ else (me.name, me.email)
        mine = sender == me.email
        folder = m.folder or ("sent" if mine else "inbox")
        if folder in ("sent", "drafts") and not mine:
            message = f"a message in {folder!r} must be from the persona ({me.email})"
            raise SeedError.at("mail", (*at, "folder"), message)

        to = _emails((*at, "to"), m.to) or ([] if mine else [me.email])
        sb.insert(
            "messages",
            {
                "id": message_id,
                "thread_id": thread_id,
                "folder": folder,
                "labels": _message_labels(at, m.labels, labels),
                "from": sender,
                "from_name": _sender_name(m, sender_name, names.get(sender), me.name if mine else ""),
                "to": to,
                "cc": _emails((*at, "cc"), m.cc),
                "bcc": _emails((*at, "bcc"), m.bcc),
                "subject": m.subject,
                "body": m.body,
                "sent_at": isoformat(localize(m.sent_at, me.timezone)),
                "is_read": m.is_read if m.is_read is not None else mine,
                "is_starred": m.is_starred,
                "attachments": [a.model_dump() for a in m.attachments],
                "in_reply_to": m.in_reply_to,
                "forwarded_from": None,
            },
        )
        threads[message_id] = thread_id
