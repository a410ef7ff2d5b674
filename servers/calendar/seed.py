"""What a scenario may seed into the calendar, and how it becomes rows."""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any

from pydantic import Field, field_validator

from servers.calendar.model import Access, EventStatus, ResponseStatus
from servers.core import Sandbox, SeedError, SeedRow
from servers.core.clock import isoformat, localize, zone


def _check_zone(value: str | None) -> str | None:
    if value is not None:
        zone(value)
    return value


class CalendarSeed(SeedRow):
    """A calendar in a scenario's seed: owner (the persona by default), time zone and the user's access."""

    id: str
    name: str
    owner: str | None = Field(None, description="Owner's email; defaults to the persona.")
    timezone: str | None = None
    description: str = ""
    primary: bool = False
    access: Access = "owner"

    _zone = field_validator("timezone")(_check_zone)


class AttendeeSeed(SeedRow):
    """A guest of a seeded event and their response."""

    email: str
    name: str = ""
    response: ResponseStatus = "needsAction"
    optional: bool = False


class EventSeed(SeedRow):
    """An event in a scenario's seed: its calendar, times (dates for all-day events) and guests."""

    id: str | None = None
    calendar_id: str | None = Field(None, description="Defaults to the primary calendar.")
    title: str
    description: str = ""
    location: str = ""
    start: datetime | date
    end: datetime | date | None = None
    timezone: str | None = None
    all_day: bool = False
    organizer: str | None = None
    attendees: list[AttendeeSeed | str] = Field(default_factory=list)
    status: EventStatus = "confirmed"

    _zone = field_validator("timezone")(_check_zone)


class PersonSeed(SeedRow):
    """Someone whose free/busy the calendar knows: time zone and working hours and days."""

    email: str
    name: str = ""
    timezone: str | None = None
    work_start: time = time(9)
    work_end: time = time(17)
    work_days: list[int] = Field(default_factory=lambda: [0, 1, 2, 3, 4], description="Monday = 0 … Sunday = 6")

    _zone = field_validator("timezone")(_check_zone)


class BusySeed(SeedRow):
    """A busy block in someone's calendar that the user cannot see the event of."""

    email: str
    start: datetime
    end: datetime


class Seed(SeedRow):
    """The calendar's seed data in a scenario: calendars, events, people and their busy times."""

    calendars: list[CalendarSeed] = Field(default_factory=list)
    events: list[EventSeed] = Field(default_factory=list)
    people: list[PersonSeed] = Field(default_factory=list)
    busy: list[BusySeed] = Field(default_factory=list)


def load(sb: Sandbox, seed: Seed) -> None:
    """Write a validated seed into a new sandbox: calendars (a primary one at least), people, events, busy times."""
    now = sb.now_iso()
    zones, primary = _load_calendars(sb, seed)
    _load_people(sb, seed)
    _load_events(sb, seed, zones, primary, now)
    _load_busy(sb, seed)


def load_more(sb: Sandbox, seed: Seed) -> bool:
    """Write more seed rows (a world event's) into a sandbox holding its seed, as `load` writes them listed after
    the seed's own: its calendars' time zones and primary are the sandbox's. Not with calendars of their own (they
    could take the default calendar's place, or be the primary one)."""
    if seed.calendars:
        return False
    zones = {r[0]: r[1] for r in sb.db.execute("SELECT id, timezone FROM calendars ORDER BY rowid")}
    primary = sb.db.execute("SELECT id FROM calendars WHERE is_primary ORDER BY rowid LIMIT 1").fetchone()[0]
    now = sb.now_iso()
    _load_people(sb, seed)
    _load_events(sb, seed, zones, primary, now)
    _load_busy(sb, seed)
    return True


def _load_calendars(sb: Sandbox, seed: Seed) -> tuple[dict[str, str], str]:
    """The seed's calendars (or the persona's own), the first primary unless one is; returns each one's time zone
    by id and the primary's id."""
    me = sb.persona
    calendars = seed.calendars or [CalendarSeed(id="primary", name=me.name, primary=True)]
    if not any(c.primary for c in calendars):
        calendars[0] = calendars[0].model_copy(update={"primary": True})
    zones: dict[str, str] = {}
    for c in calendars:
        if c.id in zones:
            raise SeedError.at("calendar", ("calendars", calendars.index(c), "id"), f"duplicate calendar id {c.id!r}")
        zones[c.id] = c.timezone or me.timezone
        sb.insert(
            "calendars",
            {
                "id": c.id,
                "name": c.name,
                "owner": (c.owner or me.email).lower(),
                "timezone": zones[c.id],
                "description": c.description,
                "is_primary": c.primary,
                "access": c.access,
            },
        )
    return zones, next(c.id for c in calendars if c.primary)


def _load_people(sb: Sandbox, seed: Seed) -> None:
    """The people whose working hours and time zones the calendar knows."""
    for p in seed.people:
        sb.insert(
            "people",
            {
                "email": p.email.lower(),
                "name": p.name,
                "timezone": p.timezone or sb.persona.timezone,
                "work_start": p.work_start.strftime("%H:%M"),
                "work_end": p.work_end.strftime("%H:%M"),
                "work_days": p.work_days,
            },
        )


def _event_times(i: int, e: EventSeed, tz: str) -> tuple[str, str]:
    """Event `i`'s start and end as stored: dates for an all-day event, date-times in `tz` for a timed one."""
    if e.all_day:
        first = e.start.date() if isinstance(e.start, datetime) else e.start
        last = e.end.date() if isinstance(e.end, datetime) else (e.end or first)
        if last < first:
            raise SeedError.at("calendar", ("events", i, "end"), "an all-day event cannot end before it starts")
        return first.isoformat(), last.isoformat()
    if not isinstance(e.start, datetime) or (e.end is not None and not isinstance(e.end, datetime)):
        raise SeedError.at("calendar", ("events", i, "start"), "a timed event needs date-times (or set all_day: true)")
    start_at = localize(e.start, tz)
    end_at = localize(e.end, tz) if isinstance(e.end, datetime) else None
    if end_at is None:
        raise SeedError.at("calendar", ("events", i, "end"), "a timed event needs an end")
    if end_at.timestamp() <= start_at.timestamp():  # instants: a shared zone would compare wall times
        raise SeedError.at("calendar", ("events", i, "end"), "end must be after start")
    return isoformat(start_at), isoformat(end_at)


def _attendees(sb: Sandbox, e: EventSeed) -> list[dict[str, Any]]:
    """An event's attendees as stored: emails in lower case, names filled in from the people the calendar knows."""
    attendees = [(AttendeeSeed(email=a) if isinstance(a, str) else a).model_dump() for a in e.attendees]
    for a in attendees:
        a["email"] = a["email"].lower()
        person = sb.get("people", a["email"])
        if not a["name"] and person:
            a["name"] = person["name"]
    return attendees


def _load_events(sb: Sandbox, seed: Seed, zones: dict[str, str], primary: str, now: str) -> None:
    """The seed's events, each on its calendar (the primary by default) and in its time zone (its calendar's),
    created and updated at `now`."""
    for i, e in enumerate(seed.events):
        calendar_id = e.calendar_id or primary
        if calendar_id not in zones:
            raise SeedError.at("calendar", ("events", i, "calendar_id"), f"no calendar with id {calendar_id!r}")
        tz = e.timezone or zones[calendar_id]
        start, end = _event_times(i, e, tz)
        attendees = _attendees(sb, e)
        sb.insert(
            "events",
            {
                "id": e.id or sb.new_id("evt"),
                "calendar_id": calendar_id,
                "title": e.title,
                "description": e.description,
                "location": e.location,
                "start": start,
                "end": end,
                "timezone": tz,
                "all_day": e.all_day,
                "organizer": (e.organizer or sb.persona.email).lower(),
                "attendees": attendees,
                "status": e.status,
                "created_at": now,
                "updated_at": now,
            },
        )


def _load_busy(sb: Sandbox, seed: Seed) -> None:
    """Times other people are busy (a time without an offset is in the persona's time zone)."""
    me = sb.persona
    for i, b in enumerate(seed.busy):
        start_at, end_at = localize(b.start, me.timezone), localize(b.end, me.timezone)
        if end_at.timestamp() <= start_at.timestamp():
            raise SeedError.at("calendar", ("busy", i, "end"), "end must be after start")
        sb.insert(
            "busy",
            {"id": sb.new_id("busy"), "email": b.email.lower(), "start": isoformat(start_at), "end": isoformat(end_at)},
        )
