"""The ticket tracker's tools, written for the model that calls them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import Field

from servers.core import Sandbox, ToolError, ToolModel, Toolset
from servers.tickets.model import (
    CLOSED,
    LABEL,
    LINK_RELATIONS,
    PRIORITY_RANK,
    RESOLUTIONS,
    WORKFLOW,
    Comment,
    Link,
    LinkedTicket,
    LinkType,
    Priority,
    Project,
    Resolution,
    Status,
    Ticket,
    TicketDetails,
    TicketType,
    User,
    allocate_key,
    clean_labels,
    existing_link,
    link_model,
    parse_key,
    ticket_model,
)

tools = Toolset()

TicketKey = Annotated[
    str,
    Field(
        min_length=1,
        max_length=20,
        description="A ticket key such as 'OPS-12' (project key, dash, number), as shown by search_tickets.",
    ),
]
ProjectKey = Annotated[
    str, Field(min_length=1, max_length=10, description="A project key such as 'OPS', from list_projects.")
]
Person = Annotated[
    str, Field(min_length=1, max_length=254, description="A user's email (see list_users), or 'me' for yourself.")
]
Title = Annotated[str, Field(min_length=1, max_length=255, description="A one-line summary.")]
Text = Annotated[str, Field(max_length=20000)]
Label = Annotated[
    str,
    Field(
        min_length=1,
        max_length=50,
        pattern=LABEL.pattern,
        description="One word without spaces or commas, e.g. 'travel'; labels are stored in lower case.",
    ),
]
Sort = Literal["priority", "due_date", "updated", "created", "key"]


class ProjectList(ToolModel):
    """What list_projects returns: every project."""

    projects: list[Project]


class UserList(ToolModel):
    """What list_users returns: the users tickets can be assigned to."""

    users: list[User]


class TicketList(ToolModel):
    """What search_tickets returns: the matching tickets, and how many matched before the limit."""

    tickets: list[Ticket]
    count: int = Field(description="Tickets returned.")
    total: int = Field(description="Tickets that matched before `limit` was applied.")


# -- helpers ----------------------------------------------------------------


def _project_keys(sb: Sandbox) -> str:
    return ", ".join(p["key"] for p in sb.select("projects")) or "none"


def _project(sb: Sandbox, key: str) -> dict[str, Any]:
    row = sb.get("projects", key.strip().upper())
    if row is None:
        raise ToolError(f"No project with key {key!r}. Projects: {_project_keys(sb)}.")
    return row


def _ticket(sb: Sandbox, key: str) -> dict[str, Any]:
    parsed = parse_key(key)
    if parsed is None:
        raise ToolError(f"{key!r} is not a ticket key. Keys look like 'OPS-12'; use search_tickets to find them.")
    project, number = parsed
    row = sb.get("tickets", f"{project}-{number}")
    if row is not None:
        return row
    if sb.get("projects", project) is None:
        raise ToolError(f"No project with key {project!r}, so no ticket {key!r}. Projects: {_project_keys(sb)}.")
    highest = sb.db.execute("SELECT max(number) FROM tickets WHERE project = ?", (project,)).fetchone()[0]
    extent = f"its tickets run up to {project}-{highest}" if highest else "it has no tickets yet"
    raise ToolError(f"No ticket {project}-{number} in project {project} ({extent}). Use search_tickets to find keys.")


def _user(sb: Sandbox, who: str) -> str:
    """A known user's email from an email or 'me'."""
    email = who.strip().lower()
    if email == "me":
        return sb.persona.email
    if sb.get("users", email) is not None:
        return email
    users = sb.select("users", order="name, email")
    shown = ", ".join(f"{u['email']} ({u['name']})" if u["name"] else u["email"] for u in users[:8])
    more = f" and {len(users) - 8} more" if len(users) > 8 else ""
    raise ToolError(f"No user with email {who!r}. Known users: {shown}{more}. Use list_users to see everyone.")


def _as_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, list):
        return ", ".join(value)
    return str(value)


def _record(sb: Sandbox, key: str, field: str, old: Any, new: Any) -> None:
    sb.insert(
        "history",
        {
            "id": sb.new_id("chg"),
            "ticket_key": key,
            "author": sb.persona.email,
            "field": field,
            "old_value": _as_text(old),
            "new_value": _as_text(new),
            "created_at": sb.now_iso(),
        },
    )


# Derived from other changes, so left out of the history.
UNTRACKED = {"resolved_at"}


def _change(sb: Sandbox, ticket: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """Apply field changes to a ticket, recording each in its history and bumping updated_at."""
    for field, value in changes.items():
        if field not in UNTRACKED:
            _record(sb, ticket["key"], field, ticket[field], value)
    return sb.update("tickets", ticket["key"], {**changes, "updated_at": sb.now_iso()})


def _touch(sb: Sandbox, key: str) -> None:
    sb.update("tickets", key, {"updated_at": sb.now_iso()})


def _linked(sb: Sandbox, link: dict[str, Any], key: str) -> LinkedTicket:
    outward = link["source"] == key
    other = sb.require("tickets", link["target"] if outward else link["source"], "ticket")
    return LinkedTicket(
        link_id=link["id"],
        type=link["type"],
        relation=LINK_RELATIONS[link["type"]][0 if outward else 1],
        key=other["key"],
        title=other["title"],
        status=other["status"],
    )


def _details(sb: Sandbox, ticket: dict[str, Any]) -> TicketDetails:
    key = ticket["key"]
    links = sb.select("links", "source = ? OR target = ?", (key, key))
    return TicketDetails.model_validate(
        {
            **ticket,
            "allowed_transitions": list(WORKFLOW[ticket["status"]]),
            "comments": sb.select("comments", "ticket_key = ?", (key,)),
            "links": [_linked(sb, link, key) for link in links],
            "history": sb.select("history", "ticket_key = ?", (key,)),
        }
    )


def _comment(sb: Sandbox, key: str, body: str) -> dict[str, Any]:
    if not body.strip():
        raise ToolError("The comment is empty; write some text.")
    return sb.insert(
        "comments",
        {
            "id": sb.new_id("cmt"),
            "ticket_key": key,
            "author": sb.persona.email,
            "body": body,
            "created_at": sb.now_iso(),
        },
    )


def _next_steps(current: str) -> str:
    return ", ".join(WORKFLOW[current])


def _via(current: str, target: str) -> str:
    """A hint naming a status that leads from `current` to `target`, if there is one."""
    for step in WORKFLOW[current]:
        if target in WORKFLOW[step]:
            return f" To get to '{target}', move it to '{step}' first."
    return ""


def _resolution(status: str, resolution: str | None) -> str | None:
    if status not in CLOSED:
        if resolution is not None:
            raise ToolError(f"A resolution is only set when moving to done or cancelled, not to '{status}'.")
        return None
    allowed = RESOLUTIONS[status]
    if resolution is None:
        return allowed[0]
    if resolution not in allowed:
        raise ToolError(f"A '{status}' ticket's resolution is one of: {', '.join(allowed)}; not '{resolution}'.")
    return resolution


def _sort_key(order: Sort) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    def due(row: dict[str, Any]) -> tuple[bool, str]:
        return (row["due_date"] is None, row["due_date"] or "")

    def by_key(row: dict[str, Any]) -> tuple[str, int]:
        return (row["project"], row["number"])

    def instant(value: str) -> float:
        return datetime.fromisoformat(value).timestamp()

    if order == "priority":
        return lambda r: (PRIORITY_RANK[r["priority"]], *due(r), *by_key(r))
    if order == "due_date":
        return lambda r: (*due(r), PRIORITY_RANK[r["priority"]], *by_key(r))
    if order == "updated":
        return lambda r: (-instant(r["updated_at"]), *by_key(r))
    if order == "created":
        return lambda r: (-instant(r["created_at"]), *by_key(r))
    return by_key


# -- reading ------------------------------------------------------------------


@tools.tool(read_only=True, title="List projects")
def list_projects(sb: Sandbox) -> ProjectList:
    """List every project with its key, name, lead and how many of its tickets are open.

    A project's key is the prefix of its ticket keys: project 'OPS' has tickets OPS-1, OPS-2, …"""
    counts = {
        r[0]: (r[1], r[2])
        for r in sb.db.execute(
            "SELECT project, count(*), sum(status NOT IN ('done', 'cancelled')) FROM tickets GROUP BY project"
        )
    }
    projects = []
    for p in sb.select("projects"):
        total, open_ = counts.get(p["key"], (0, 0))
        projects.append(Project.model_validate({**p, "open_tickets": open_, "total_tickets": total}))
    return ProjectList(projects=projects)


@tools.tool(read_only=True, title="List users")
def list_users(
    sb: Sandbox,
    query: Annotated[str, Field(max_length=200, description="Words to find in name, email, team or role.")] = "",
) -> UserList:
    """List the people tickets can be assigned to, with their email, name, team and role.

    Without a query every user is listed; `is_you` marks the signed-in user you act as. Use these emails
    for assign_ticket and for the assignee and reporter filters of search_tickets."""
    words = query.lower().split()
    users = []
    for u in sb.select("users"):
        text = " ".join([u["email"], u["name"], u["team"], u["role"]]).lower()
        if all(w in text for w in words):
            users.append(User.model_validate({**u, "is_you": u["email"] == sb.persona.email}))
    return UserList(users=users)


@tools.tool(read_only=True, title="Search tickets")
def search_tickets(
    sb: Sandbox,
    project: ProjectKey | None = None,
    status: Annotated[
        Status | Annotated[list[Status], Field(max_length=10)] | None,
        Field(description="One status or several, e.g. ['todo', 'in_progress']."),
    ] = None,
    resolved: Annotated[
        bool | None, Field(description="true: only done or cancelled tickets; false: only open ones.")
    ] = None,
    assignee: Annotated[
        str | None, Field(max_length=254, description="A user's email, 'me' for yourself, or 'unassigned'.")
    ] = None,
    reporter: Person | None = None,
    type: TicketType | None = None,  # noqa: A002 - the field's name
    priority: Priority | None = None,
    label: Annotated[str | None, Field(max_length=50, description="Tickets carrying this label (any case).")] = None,
    text: Annotated[
        str, Field(max_length=500, description="Words that must all appear in the key, title, description or comments.")
    ] = "",
    due_before: Annotated[date | None, Field(description="Due on or before this date (YYYY-MM-DD).")] = None,
    due_after: Annotated[date | None, Field(description="Due on or after this date (YYYY-MM-DD).")] = None,
    sort: Annotated[
        Sort,
        Field(
            description="priority (highest first, then earliest due), due_date (earliest first, undated last), "
            "updated or created (newest first), key (project, then number)."
        ),
    ] = "priority",
    limit: Annotated[int, Field(ge=1, le=200)] = 50,
) -> TicketList:
    """Find tickets. Every filter is optional and filters combine (all must hold); with none, all tickets match.

    Text matching ignores case. Due-date filters leave out tickets without a due date. Sorted by priority
    by default; `total` tells how many matched before `limit` (default 50). Use get_ticket for one ticket's
    comments, links, history and allowed next statuses."""
    clauses: list[str] = []
    params: list[Any] = []

    def where(sql: str, *values: Any) -> None:
        clauses.append(sql)
        params.extend(values)

    if project is not None:
        where("project = ?", _project(sb, project)["key"])
    if status is not None:
        statuses = [status] if isinstance(status, str) else list(dict.fromkeys(status))
        if not statuses:
            raise ToolError("status is an empty list; give one or more statuses, or leave it out.")
        where(f"status IN ({', '.join('?' for _ in statuses)})", *statuses)
    if resolved is not None:
        where(f"status {'IN' if resolved else 'NOT IN'} (?, ?)", *CLOSED)
    if assignee is not None:
        if assignee.strip().lower() == "unassigned":
            where("assignee IS NULL")
        else:
            where("assignee = ?", _user(sb, assignee))
    if reporter is not None:
        where("reporter = ?", _user(sb, reporter))
    if type is not None:
        where("type = ?", type)
    if priority is not None:
        where("priority = ?", priority)
    if due_before is not None:
        where("due_date <= ?", due_before.isoformat())
    if due_after is not None:
        where("due_date >= ?", due_after.isoformat())
    rows = sb.select("tickets", " AND ".join(clauses), params)

    if label is not None:
        rows = [r for r in rows if label.strip().lower() in r["labels"]]
    words = text.lower().split()
    if words:
        comments: dict[str, list[str]] = {}
        for c in sb.select("comments"):
            comments.setdefault(c["ticket_key"], []).append(c["body"])
        rows = [
            r
            for r in rows
            if all(
                w in " ".join([r["key"], r["title"], r["description"], *comments.get(r["key"], [])]).lower()
                for w in words
            )
        ]
    rows.sort(key=_sort_key(sort))
    hits = rows[:limit]
    return TicketList(tickets=[ticket_model(r) for r in hits], count=len(hits), total=len(rows))


@tools.tool(read_only=True, title="Get ticket")
def get_ticket(sb: Sandbox, key: TicketKey) -> TicketDetails:
    """Get one ticket with everything about it: fields, comments (oldest first), links to other tickets
    (from this ticket's side, e.g. 'is blocked by OPS-3'), its change history, and `allowed_transitions`,
    the statuses transition_ticket can move it to next."""
    return _details(sb, _ticket(sb, key))


# -- changing -----------------------------------------------------------------


@tools.tool(title="Create ticket")
def create_ticket(
    sb: Sandbox,
    project: ProjectKey,
    title: Title,
    description: Text = "",
    type: TicketType = "task",  # noqa: A002 - the field's name
    priority: Priority = "medium",
    assignee: Person | None = None,
    labels: Annotated[list[Label], Field(max_length=20)] = [],  # noqa: B006 - copied by pydantic
    due_date: Annotated[date | None, Field(description="YYYY-MM-DD.")] = None,
) -> TicketDetails:
    """Create a ticket in a project (see list_projects). You are its reporter.

    The key is assigned for you: the project's key and its next number, e.g. OPS-15. The ticket starts in
    status 'todo', unassigned unless you give `assignee` (an email from list_users, or 'me'). Defaults:
    type 'task', priority 'medium', no labels, no due date. Use transition_ticket to move it on."""
    row = _project(sb, project)
    key, number = allocate_key(sb, row["key"])
    now = sb.now_iso()
    ticket = sb.insert(
        "tickets",
        {
            "key": key,
            "project": row["key"],
            "number": number,
            "title": title,
            "description": description,
            "type": type,
            "status": "todo",
            "priority": priority,
            "assignee": _user(sb, assignee) if assignee is not None else None,
            "reporter": sb.persona.email,
            "labels": clean_labels(labels),
            "due_date": due_date.isoformat() if due_date else None,
            "resolution": None,
            "resolved_at": None,
            "created_at": now,
            "updated_at": now,
        },
    )
    return _details(sb, ticket)


@tools.tool(idempotent=True, title="Update ticket")
def update_ticket(
    sb: Sandbox,
    key: TicketKey,
    title: Title | None = None,
    description: Text | None = None,
    type: TicketType | None = None,  # noqa: A002 - the field's name
    priority: Priority | None = None,
    add_labels: Annotated[list[Label], Field(max_length=20)] | None = None,
    remove_labels: Annotated[list[Label], Field(max_length=20)] | None = None,
    due_date: Annotated[date | None, Field(description="New due date, YYYY-MM-DD.")] = None,
    clear_due_date: Annotated[bool, Field(description="true removes the due date.")] = False,
) -> TicketDetails:
    """Change a ticket's fields: only the fields you pass change, and each change is kept in its history.

    Labels are added or removed individually (others stay). The status is not changed here: use
    transition_ticket for that, and assign_ticket to change the assignee."""
    ticket = _ticket(sb, key)
    changes: dict[str, Any] = {
        field: value
        for field, value in (("title", title), ("description", description), ("type", type), ("priority", priority))
        if value is not None
    }
    if due_date is not None and clear_due_date:
        raise ToolError("Give either due_date or clear_due_date=true, not both.")
    if due_date is not None:
        changes["due_date"] = due_date.isoformat()
    if clear_due_date:
        changes["due_date"] = None
    if add_labels is not None or remove_labels is not None:
        changes["labels"] = _relabel(ticket, clean_labels(add_labels or []), clean_labels(remove_labels or []))
    if not changes:
        raise ToolError(
            "Nothing to change: pass at least one field to update. To change the status use transition_ticket; "
            "to change the assignee use assign_ticket."
        )
    effective = {field: value for field, value in changes.items() if value != ticket[field]}
    if not effective:
        current = "; ".join(f"{field} {_as_text(ticket[field]) or 'none'!r}" for field in changes)
        raise ToolError(f"Nothing changed: {ticket['key']} already has {current}.")
    return _details(sb, _change(sb, ticket, effective))


def _relabel(ticket: dict[str, Any], adding: list[str], removing: list[str]) -> list[str]:
    current = ticket["labels"]
    both = [label for label in adding if label in removing]
    if both:
        raise ToolError(f"Label(s) {', '.join(both)} are both added and removed; pick one.")
    missing = [label for label in removing if label not in current]
    if missing:
        has = ", ".join(current) or "none"
        raise ToolError(f"{ticket['key']} has no label(s) {', '.join(missing)} to remove. Its labels: {has}.")
    return [label for label in current if label not in removing] + [label for label in adding if label not in current]


@tools.tool(title="Transition ticket")
def transition_ticket(
    sb: Sandbox,
    key: TicketKey,
    status: Annotated[Status, Field(description="The status to move the ticket to.")],
    comment: Annotated[Text | None, Field(description="Optional comment to add, e.g. why.")] = None,
    resolution: Annotated[
        Resolution | None,
        Field(
            description="Why it is closed. For done: 'done' (default) or 'fixed'; for cancelled: 'wont_do' "
            "(default), 'duplicate' or 'cannot_reproduce'. Only when moving to done or cancelled."
        ),
    ] = None,
) -> TicketDetails:
    """Move a ticket to another status in the workflow, optionally with a comment.

    Statuses: todo, in_progress, in_review, blocked, done, cancelled. Allowed moves:
      todo        -> in_progress, blocked, done, cancelled
      in_progress -> todo, in_review, blocked, done, cancelled
      in_review   -> in_progress, blocked, done, cancelled
      blocked     -> todo, in_progress, cancelled
      done        -> todo, in_progress   (reopen)
      cancelled   -> todo                (reopen)
    Moving to done or cancelled sets a resolution; reopening clears it. get_ticket shows a ticket's
    allowed_transitions."""
    ticket = _ticket(sb, key)
    current = ticket["status"]
    if status == current:
        raise ToolError(
            f"{ticket['key']} is already '{current}'. From '{current}' it can move to: {_next_steps(current)}."
        )
    if status not in WORKFLOW[current]:
        raise ToolError(
            f"Cannot move {ticket['key']} from '{current}' to '{status}'. "
            f"From '{current}' it can move to: {_next_steps(current)}.{_via(current, status)}"
        )
    new_resolution = _resolution(status, resolution)
    changes: dict[str, Any] = {"status": status}
    if new_resolution != ticket["resolution"]:
        changes["resolution"] = new_resolution
        changes["resolved_at"] = sb.now_iso() if new_resolution else None
    if comment is not None:
        _comment(sb, ticket["key"], comment)
    return _details(sb, _change(sb, ticket, changes))


@tools.tool(idempotent=True, title="Assign ticket")
def assign_ticket(
    sb: Sandbox,
    key: TicketKey,
    assignee: Annotated[
        str | None,
        Field(max_length=254, description="A user's email from list_users, 'me' for yourself, or null to unassign."),
    ],
) -> TicketDetails:
    """Assign a ticket to a user (an email from list_users, or 'me'), or pass null to leave it unassigned.

    Assigning to someone who is not a user of the tracker is an error that lists the known users."""
    ticket = _ticket(sb, key)
    email = _user(sb, assignee) if assignee is not None else None
    if email == ticket["assignee"]:
        who = f"assigned to {email}" if email else "unassigned"
        raise ToolError(f"{ticket['key']} is already {who}.")
    return _details(sb, _change(sb, ticket, {"assignee": email}))


@tools.tool(title="Add comment")
def add_comment(
    sb: Sandbox,
    key: TicketKey,
    body: Annotated[str, Field(min_length=1, max_length=20000, description="The comment's text.")],
) -> Comment:
    """Add a comment to a ticket, written as you. Comments cannot be edited afterwards."""
    ticket = _ticket(sb, key)
    comment = _comment(sb, ticket["key"], body)
    _touch(sb, ticket["key"])
    return Comment.model_validate(comment)


@tools.tool(idempotent=True, title="Link tickets")
def link_tickets(
    sb: Sandbox,
    source: TicketKey,
    type: Annotated[  # noqa: A002 - the field's name
        LinkType, Field(description="Read as: source <type> target, e.g. OPS-1 blocks OPS-2.")
    ],
    target: TicketKey,
) -> Link:
    """Link two tickets: 'blocks' (the source must be finished before the target can proceed),
    'relates_to', or 'duplicates' (the source repeats the target).

    Both tickets show the link from their side in get_ticket (OPS-2 'is blocked by' OPS-1). A ticket cannot
    be linked to itself, and two tickets have at most one link of each type."""
    a, b = _ticket(sb, source), _ticket(sb, target)
    if a["key"] == b["key"]:
        raise ToolError(f"A ticket cannot be linked to itself ({a['key']}); give two different tickets.")
    existing = existing_link(sb, type, a["key"], b["key"])
    if existing:
        raise ToolError(
            f"Already linked: {link_model(existing).summary} (link {existing['id']}). "
            "Use unlink_tickets first to change it."
        )
    link = sb.insert(
        "links",
        {
            "id": sb.new_id("lnk"),
            "source": a["key"],
            "target": b["key"],
            "type": type,
            "created_by": sb.persona.email,
            "created_at": sb.now_iso(),
        },
    )
    outward, inward = LINK_RELATIONS[type]
    _record_link(sb, a["key"], None, f"{outward} {b['key']}")
    _record_link(sb, b["key"], None, f"{inward} {a['key']}")
    return link_model(link)


def _record_link(sb: Sandbox, key: str, old: str | None, new: str | None) -> None:
    _record(sb, key, "link", old, new)
    _touch(sb, key)


@tools.tool(destructive=True, idempotent=True, title="Unlink tickets")
def unlink_tickets(
    sb: Sandbox,
    link_id: Annotated[
        str, Field(min_length=1, max_length=100, description="The link's id, from the links of get_ticket.")
    ],
) -> Link:
    """Remove a link between two tickets. Returns the link that was removed."""
    link = sb.get("links", link_id)
    if link is None:
        raise ToolError(f"No link with id {link_id!r}. get_ticket lists a ticket's links with their link_id.")
    sb.delete("links", link_id)
    outward, inward = LINK_RELATIONS[link["type"]]
    _record_link(sb, link["source"], f"{outward} {link['target']}", None)
    _record_link(sb, link["target"], f"{inward} {link['source']}", None)
    return link_model(link)
