"""What a scenario may seed into the ticket tracker, and how it becomes rows."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime

from pydantic import Field, field_validator

from servers.core import Sandbox, SeedError, SeedRow
from servers.core.clock import isoformat, localize
from servers.tickets.model import (
    CLOSED,
    LABEL,
    PROJECT_KEY,
    RESOLUTIONS,
    LinkType,
    Priority,
    Resolution,
    Status,
    TicketType,
    allocate_key,
    clean_labels,
    existing_link,
    parse_key,
)


def _email(value: str | None) -> str | None:
    if value is None:
        return None
    if "@" not in value:
        raise ValueError(f"{value!r} is not an email address")
    return value.strip().lower()


def _ticket_key(value: str | None) -> str | None:
    if value is None:
        return None
    parsed = parse_key(value)
    if parsed is None:
        raise ValueError(f"{value!r} is not a ticket key; keys look like 'OPS-12'")
    return f"{parsed[0]}-{parsed[1]}"


def _labels(values: list[str]) -> list[str]:
    for value in values:
        if not LABEL.match(value.strip()):
            raise ValueError(f"label {value!r} must be one word without spaces or commas")
    return clean_labels(values)


class ProjectSeed(SeedRow):
    """A project in a scenario's seed: key, name and lead (the persona by default)."""

    key: str = Field(pattern=PROJECT_KEY.pattern, description="2-10 capital letters or digits, e.g. 'OPS'.")
    name: str = Field(min_length=1)
    lead: str | None = Field(None, description="Lead's email; defaults to the persona.")
    description: str = ""

    _lead = field_validator("lead")(_email)


class UserSeed(SeedRow):
    """A user of the tracker in a scenario's seed."""

    email: str
    name: str = ""
    team: str = ""
    role: str = ""

    _lower = field_validator("email")(_email)


class TicketSeed(SeedRow):
    """A ticket in a scenario's seed: its project or key, its fields and the people on it."""

    key: str | None = Field(None, description="e.g. 'OPS-12'; generated when left out.")
    project: str | None = Field(None, description="Project key; may be left out when `key` is given.")
    title: str = Field(min_length=1)
    description: str = ""
    type: TicketType = "task"
    status: Status = "todo"
    priority: Priority = "medium"
    assignee: str | None = None
    reporter: str | None = Field(None, description="Reporter's email; defaults to the persona.")
    labels: list[str] = Field(default_factory=list)
    due_date: date | None = None
    resolution: Resolution | None = Field(None, description="Only for done or cancelled tickets; defaulted for them.")
    created_at: datetime | None = Field(None, description="Defaults to the sandbox clock's start.")
    updated_at: datetime | None = Field(None, description="Defaults to created_at.")

    _key = field_validator("key")(_ticket_key)
    _people = field_validator("assignee", "reporter")(_email)
    _labels = field_validator("labels")(_labels)


class CommentSeed(SeedRow):
    """A comment on a seeded ticket."""

    ticket_key: str
    author: str | None = Field(None, description="Author's email; defaults to the persona.")
    body: str = Field(min_length=1)
    created_at: datetime | None = None

    _key = field_validator("ticket_key")(_ticket_key)
    _author = field_validator("author")(_email)


class LinkSeed(SeedRow):
    """A link between two seeded tickets."""

    source: str
    type: LinkType
    target: str

    _keys = field_validator("source", "target")(_ticket_key)


class Seed(SeedRow):
    """The tracker's seed data in a scenario: projects, users, tickets, comments and links."""

    projects: list[ProjectSeed] = Field(default_factory=list)
    users: list[UserSeed] = Field(default_factory=list)
    tickets: list[TicketSeed] = Field(default_factory=list)
    comments: list[CommentSeed] = Field(default_factory=list)
    links: list[LinkSeed] = Field(default_factory=list)


def _error(loc: Iterable[str | int], message: str) -> SeedError:
    return SeedError.at("tickets", loc, message)


def _require_user(sb: Sandbox, email: str, loc: Iterable[str | int]) -> str:
    if sb.get("users", email) is None:
        raise _error(loc, f"no user with email {email!r}; add them under users")
    return email


def load(sb: Sandbox, seed: Seed) -> None:
    """Write a validated seed into the sandbox: users, projects, tickets, comments, then links."""
    _load_users(sb, seed.users)
    _load_projects(sb, seed.projects)
    _load_tickets(sb, seed.tickets)
    _load_comments(sb, seed.comments)
    _load_links(sb, seed.links)


def load_more(sb: Sandbox, seed: Seed) -> bool:
    """Write more seed rows (a world event's) into a sandbox holding its seed, as `load` writes them listed after
    the seed's own (each row is checked against the sandbox's). Not with the persona as a user (the seed adds it
    unless listed) or keyed tickets when the seed's own have keys generated (keys are generated after every key the
    seed and the rows name)."""
    if any(u.email == sb.persona.email for u in seed.users):
        return False
    seeded = sb.spec.seed.get("tickets") or []
    if any(t.key for t in seed.tickets) and any(not (isinstance(t, dict) and t.get("key")) for t in seeded):
        return False
    _load_users(sb, seed.users, persona=False)
    _load_projects(sb, seed.projects)
    _load_tickets(sb, seed.tickets)
    _load_comments(sb, seed.comments)
    _load_links(sb, seed.links)
    return True


def _load_users(sb: Sandbox, users: list[UserSeed], persona: bool = True) -> None:
    """The seed's users, and the persona unless listed (`persona`: the sandbox has no users yet)."""
    me = sb.persona
    if persona and not any(u.email == me.email for u in users):
        sb.insert("users", {"email": me.email, "name": me.name, "team": "", "role": ""})
    for i, u in enumerate(users):
        if sb.get("users", u.email) is not None:
            raise _error(("users", i, "email"), f"duplicate user {u.email!r}")
        sb.insert("users", u.model_dump())


def _load_projects(sb: Sandbox, projects: list[ProjectSeed]) -> None:
    now = sb.now_iso()
    for i, p in enumerate(projects):
        if sb.get("projects", p.key) is not None:
            raise _error(("projects", i, "key"), f"duplicate project key {p.key!r}")
        lead = _require_user(sb, p.lead or sb.persona.email, ("projects", i, "lead"))
        sb.insert(
            "projects", {"key": p.key, "name": p.name, "lead": lead, "description": p.description, "created_at": now}
        )


def _load_tickets(sb: Sandbox, tickets: list[TicketSeed]) -> None:
    # Keys generated here and by create_ticket continue after the highest key a scenario wrote out.
    highest: dict[str, int] = {}
    for t in tickets:
        if t.key:
            project, number = parse_key(t.key)  # type: ignore[misc]  # a seed's key was validated: parse_key reads it
            highest[project] = max(highest.get(project, 0), number)
    for project, number in highest.items():
        sb.reserve_numbers(f"ticket:{project}", number)

    tz = sb.persona.timezone
    for i, t in enumerate(tickets):
        project = _ticket_project(sb, t, i)
        if t.key:
            key, number = t.key, parse_key(t.key)[1]  # type: ignore[index]  # a seed's key was validated: parse_key reads it
            if sb.get("tickets", key) is not None:
                raise _error(("tickets", i, "key"), f"duplicate ticket key {key!r}")
        else:
            key, number = allocate_key(sb, project)
        if t.assignee is not None:
            _require_user(sb, t.assignee, ("tickets", i, "assignee"))
        reporter = _require_user(sb, t.reporter or sb.persona.email, ("tickets", i, "reporter"))
        created = localize(t.created_at, tz) if t.created_at else sb.now()
        updated = localize(t.updated_at, tz) if t.updated_at else created
        if updated.timestamp() < created.timestamp():  # instants: a shared zone would compare wall times
            raise _error(("tickets", i, "updated_at"), "updated_at cannot be before created_at")
        resolution = _ticket_resolution(t, i)
        sb.insert(
            "tickets",
            {
                "key": key,
                "project": project,
                "number": number,
                "title": t.title,
                "description": t.description,
                "type": t.type,
                "status": t.status,
                "priority": t.priority,
                "assignee": t.assignee,
                "reporter": reporter,
                "labels": t.labels,
                "due_date": t.due_date.isoformat() if t.due_date else None,
                "resolution": resolution,
                "resolved_at": isoformat(updated) if resolution else None,
                "created_at": isoformat(created),
                "updated_at": isoformat(updated),
            },
        )


def _ticket_project(sb: Sandbox, t: TicketSeed, i: int) -> str:
    from_key = parse_key(t.key)[0] if t.key else None  # type: ignore[index]  # a seed's key was validated: parse_key reads it
    if t.project is None and from_key is None:
        raise _error(("tickets", i, "project"), "give the ticket a project (or a key such as 'OPS-12')")
    project = t.project.upper() if t.project else from_key
    if from_key and project != from_key:
        raise _error(("tickets", i, "project"), f"key {t.key!r} belongs to project {from_key!r}, not {project!r}")
    if sb.get("projects", project) is None:
        known = ", ".join(p["key"] for p in sb.select("projects")) or "none yet"
        field = "project" if t.project else "key"
        raise _error(("tickets", i, field), f"no project with key {project!r} (projects: {known})")
    return project  # type: ignore[return-value]  # not None: a missing project raised above


def _ticket_resolution(t: TicketSeed, i: int) -> str | None:
    if t.status not in CLOSED:
        if t.resolution is not None:
            raise _error(("tickets", i, "resolution"), f"a {t.status!r} ticket is open and cannot have a resolution")
        return None
    allowed = RESOLUTIONS[t.status]
    if t.resolution is not None and t.resolution not in allowed:
        raise _error(
            ("tickets", i, "resolution"),
            f"a {t.status!r} ticket's resolution is one of {', '.join(allowed)}, not {t.resolution!r}",
        )
    return t.resolution or allowed[0]


def _require_ticket(sb: Sandbox, key: str, loc: Iterable[str | int]) -> str:
    if sb.get("tickets", key) is None:
        raise _error(loc, f"no ticket with key {key!r}")
    return key


def _load_comments(sb: Sandbox, comments: list[CommentSeed]) -> None:
    tz = sb.persona.timezone
    for i, c in enumerate(comments):
        _require_ticket(sb, c.ticket_key, ("comments", i, "ticket_key"))
        author = _require_user(sb, c.author or sb.persona.email, ("comments", i, "author"))
        sb.insert(
            "comments",
            {
                "id": sb.new_id("cmt"),
                "ticket_key": c.ticket_key,
                "author": author,
                "body": c.body,
                "created_at": isoformat(localize(c.created_at, tz)) if c.created_at else sb.now_iso(),
            },
        )


def _load_links(sb: Sandbox, links: list[LinkSeed]) -> None:
    for i, link in enumerate(links):
        _require_ticket(sb, link.source, ("links", i, "source"))
        _require_ticket(sb, link.target, ("links", i, "target"))
        if link.source == link.target:
            raise _error(("links", i, "target"), "a ticket cannot be linked to itself")
        if existing_link(sb, link.type, link.source, link.target):
            raise _error(("links", i), f"{link.source} and {link.target} are already linked as {link.type!r}")
        sb.insert(
            "links",
            {
                "id": sb.new_id("lnk"),
                "source": link.source,
                "target": link.target,
                "type": link.type,
                "created_by": sb.persona.email,
                "created_at": sb.now_iso(),
            },
        )
