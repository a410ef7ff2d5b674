"""Ticket data as tools return it, and the workflow tickets move through."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field

from servers.core import Sandbox, ToolModel

Status = Literal["todo", "in_progress", "in_review", "blocked", "done", "cancelled"]
TicketType = Literal["task", "bug", "story", "incident", "request"]
Priority = Literal["highest", "high", "medium", "low", "lowest"]
Resolution = Literal["done", "fixed", "wont_do", "duplicate", "cannot_reproduce"]
LinkType = Literal["blocks", "relates_to", "duplicates"]

# The workflow: from each status, the statuses a ticket may move to next.
WORKFLOW: dict[str, tuple[str, ...]] = {
    "todo": ("in_progress", "blocked", "done", "cancelled"),
    "in_progress": ("todo", "in_review", "blocked", "done", "cancelled"),
    "in_review": ("in_progress", "blocked", "done", "cancelled"),
    "blocked": ("todo", "in_progress", "cancelled"),
    "done": ("todo", "in_progress"),
    "cancelled": ("todo",),
}
CLOSED = ("done", "cancelled")
# Closing a ticket records why; the first resolution of each is the default.
RESOLUTIONS: dict[str, tuple[str, ...]] = {
    "done": ("done", "fixed"),
    "cancelled": ("wont_do", "duplicate", "cannot_reproduce"),
}
PRIORITY_RANK = {"highest": 0, "high": 1, "medium": 2, "low": 3, "lowest": 4}

# How a link reads from its source and from its target.
LINK_RELATIONS: dict[str, tuple[str, str]] = {
    "blocks": ("blocks", "is blocked by"),
    "relates_to": ("relates to", "relates to"),
    "duplicates": ("duplicates", "is duplicated by"),
}

PROJECT_KEY = re.compile(r"^[A-Z][A-Z0-9]{1,9}$")
TICKET_KEY = re.compile(r"^([A-Z][A-Z0-9]{1,9})-([1-9][0-9]{0,5})$")


LABEL = re.compile(r"^[^\s,]+$")


def parse_key(text: str) -> tuple[str, int] | None:
    """`'ops-12'` as `('OPS', 12)`, or None when it is not shaped like a ticket key."""
    match = TICKET_KEY.match(text.strip().upper())
    return (match.group(1), int(match.group(2))) if match else None


def clean_labels(labels: list[str]) -> list[str]:
    """Labels in lower case, each once, in the order given."""
    return list(dict.fromkeys(label.strip().lower() for label in labels))


def allocate_key(sb: Sandbox, project: str) -> tuple[str, int]:
    """The next ticket key of a project, e.g. ('OPS-13', 13)."""
    number = sb.next_number(f"ticket:{project}")
    return f"{project}-{number}", number


def existing_link(sb: Sandbox, link_type: str, a: str, b: str) -> dict[str, Any] | None:
    """A link of this type between the two tickets, in either direction."""
    rows = sb.select(
        "links",
        "type = ? AND ((source = ? AND target = ?) OR (source = ? AND target = ?))",
        (link_type, a, b, b, a),
    )
    return rows[0] if rows else None


class Project(ToolModel):
    """A project row as tools return it: key, lead and ticket counts."""

    key: str = Field(description="Prefix of the project's ticket keys, e.g. 'OPS' for OPS-12.")
    name: str
    lead: str = Field(description="Email of the project lead.")
    description: str
    open_tickets: int = Field(description="Tickets not yet done or cancelled.")
    total_tickets: int


class User(ToolModel):
    """A user of the tracker as list_users returns them; `is_you` marks the signed-in user."""

    email: str
    name: str
    team: str
    role: str
    is_you: bool = Field(description="True for the signed-in user you act as.")


class Ticket(ToolModel):
    """A ticket row as tools return it: key, title, type, status, priority, assignee, reporter, labels and dates."""

    key: str = Field(description="e.g. 'OPS-12'.")
    project: str
    number: int
    title: str
    description: str
    type: TicketType
    status: Status
    priority: Priority
    assignee: str | None = Field(description="Email of the assignee; null when unassigned.")
    reporter: str = Field(description="Email of whoever reported the ticket.")
    labels: list[str]
    due_date: str | None = Field(description="YYYY-MM-DD, or null.")
    resolution: Resolution | None = Field(description="Why the ticket was closed; null while it is open.")
    resolved_at: str | None
    created_at: str
    updated_at: str


class Comment(ToolModel):
    """A comment on a ticket."""

    id: str
    ticket_key: str
    author: str = Field(description="Email of the comment's author.")
    body: str
    created_at: str


class LinkedTicket(ToolModel):
    """A ticket linked to another one, as get_ticket shows the link from its side."""

    link_id: str
    type: LinkType
    relation: str = Field(description="How this ticket relates to the other one, e.g. 'blocks' or 'is blocked by'.")
    key: str = Field(description="The other ticket's key.")
    title: str
    status: Status


class Change(ToolModel):
    """One field change in a ticket's history: old and new value, who and when."""

    field: str
    old_value: str | None
    new_value: str | None
    author: str
    created_at: str


class TicketDetails(Ticket):
    """A ticket as get_ticket returns it: with its next statuses, comments, links and history."""

    allowed_transitions: list[Status] = Field(description="Statuses transition_ticket can move this ticket to next.")
    comments: list[Comment] = Field(description="Oldest first.")
    links: list[LinkedTicket]
    history: list[Change] = Field(description="Field changes, oldest first.")


class Link(ToolModel):
    """A link between two tickets as link_tickets returns it, with the link in words."""

    id: str
    source: str
    target: str
    type: LinkType
    summary: str = Field(description="The link in words, e.g. 'OPS-1 blocks OPS-2'.")
    created_by: str
    created_at: str


def ticket_model(row: dict[str, Any]) -> Ticket:
    """A tickets row as the `Ticket` tools return."""
    return Ticket.model_validate(row)


def link_model(row: dict[str, Any]) -> Link:
    """A links row as the `Link` tools return, with its summary in words."""
    summary = f"{row['source']} {LINK_RELATIONS[row['type']][0]} {row['target']}"
    return Link.model_validate({**row, "summary": summary})
