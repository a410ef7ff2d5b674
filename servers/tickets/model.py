"""Ticket data as tools return it, and the workflow tickets move through."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field

from servers.core import Sandbox

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


class Project(BaseModel):
    key: str = Field(description="Prefix of the project's ticket keys, e.g. 'OPS' for OPS-12.")
    name: str
    lead: str = Field(description="Email of the project lead.")
    description: str
    open_tickets: int = Field(description="Tickets not yet done or cancelled.")
    total_tickets: int


class User(BaseModel):
    email: str
    name: str
    team: str
    role: str
    is_you: bool = Field(description="True for the signed-in user you act as.")


class Ticket(BaseModel):
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


class Comment(BaseModel):
    id: str
    ticket_key: str
    author: str = Field(description="Email of the comment's author.")
    body: str
    created_at: str


class LinkedTicket(BaseModel):
    link_id: str
    type: LinkType
    relation: str = Field(description="How this ticket relates to the other one, e.g. 'blocks' or 'is blocked by'.")
    key: str = Field(description="The other ticket's key.")
    title: str
    status: Status


class Change(BaseModel):
    field: str
    old_value: str | None
    new_value: str | None
    author: str
    created_at: str


class TicketDetails(Ticket):
    allowed_transitions: list[Status] = Field(description="Statuses transition_ticket can move this ticket to next.")
    comments: list[Comment] = Field(description="Oldest first.")
    links: list[LinkedTicket]
    history: list[Change] = Field(description="Field changes, oldest first.")


class Link(BaseModel):
    id: str
    source: str
    target: str
    type: LinkType
    summary: str = Field(description="The link in words, e.g. 'OPS-1 blocks OPS-2'.")
    created_by: str
    created_at: str


def ticket_model(row: dict[str, Any]) -> Ticket:
    return Ticket.model_validate(row)


def link_model(row: dict[str, Any]) -> Link:
    summary = f"{row['source']} {LINK_RELATIONS[row['type']][0]} {row['target']}"
    return Link.model_validate({**row, "summary": summary})
