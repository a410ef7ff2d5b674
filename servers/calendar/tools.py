"""The calendar's tools, written for the model that calls them."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from servers.calendar.model import (
    Attendee,
    Calendar,
    Event,
    EventStatus,
    Interval,
    ResponseStatus,
    bounds,
    event_model,
    intersect,
    involves,
    merge,
    overlaps,
    subtract,
    working_windows,
)
from servers.core import Sandbox, ToolError, ToolModel, Toolset
from servers.core.clock import isoformat, localize, zone

tools = Toolset()

FIRST_YEAR, LAST_YEAR = 1900, 2199
"""Dates and times outside these years are refused: far enough for any calendar, and clear of the ends of the
calendar where converting between zones would overflow."""
MAX_LIST_DAYS = 366
"""Longest window list_events looks at."""
MAX_FREE_DAYS = 92
"""Longest window find_free_slots and get_free_busy look at."""


def _in_years(when: datetime) -> datetime:
    if not FIRST_YEAR <= when.year <= LAST_YEAR:
        raise ValueError(f"the year must be between {FIRST_YEAR} and {LAST_YEAR}, got {when.year}")
    return when


EventId = Annotated[
    str, Field(min_length=1, max_length=100, description="The event's id, as returned by list_events or search_events.")
]
CalendarId = Annotated[str, Field(min_length=1, max_length=100, description="A calendar's id, from list_calendars.")]
Email = Annotated[str, Field(max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$", description="An email address.")]
TimeZone = Annotated[
    str, Field(max_length=64, description="IANA time zone such as 'Europe/Berlin'. Defaults to the user's.")
]
When = Annotated[
    datetime,
    AfterValidator(_in_years),
    Field(
        description=f"ISO 8601 date-time, e.g. '2026-03-10T14:00' (read in `timezone`) or with an offset; "
        f"years {FIRST_YEAR}-{LAST_YEAR}."
    ),
]
Description = Annotated[str, Field(max_length=8_000, description="Free text shown with the event.")]
Location = Annotated[str, Field(max_length=500, description="Where it happens: a room, an address or a link.")]
Attendees = Annotated[list[Email], Field(max_length=100)]


class CalendarList(ToolModel):
    """What list_calendars returns: the calendars the user can see."""

    calendars: list[Calendar]


class EventList(ToolModel):
    """What list_events returns: the events in the window asked for."""

    events: list[Event]
    count: int
    time_min: str | None = None
    time_max: str | None = None


class PersonBusy(ToolModel):
    """One person's busy times and working hours, as free_busy returns them."""

    email: str
    timezone: str
    working_hours: str = Field(description="e.g. 'Mon-Fri 09:00-17:00 Europe/Berlin'")
    busy: list[Interval]


class FreeBusy(ToolModel):
    """What free_busy returns: each person's busy times in the window."""

    time_min: str
    time_max: str
    people: list[PersonBusy]


class FreeSlots(ToolModel):
    """What find_free_slots returns: the free windows for everyone considered."""

    slots: list[Interval] = Field(description="Free windows at least `duration_minutes` long, earliest first.")
    timezone: str
    considered: list[str] = Field(description="Whose calendars and working hours were taken into account.")


# -- helpers ----------------------------------------------------------------


def _tz(sb: Sandbox, timezone: str | None) -> str:
    tz = timezone or sb.persona.timezone
    try:
        zone(tz)
    except ValueError as exc:
        raise ToolError(str(exc)) from None
    return tz


def _window(
    sb: Sandbox, time_min: datetime | None, time_max: datetime | None, tz: str, *, longest: int, days: int = 7
) -> tuple[datetime, datetime]:
    start = localize(time_min, tz) if time_min else sb.now().astimezone(zone(tz))
    end = localize(time_max, tz) if time_max else start + timedelta(days=days)
    if end <= start:
        raise ToolError(f"time_max ({isoformat(end)}) must be after time_min ({isoformat(start)}).")
    if end - start > timedelta(days=longest):
        raise ToolError(
            f"The window from {isoformat(start)} to {isoformat(end)} is {(end - start).days} days long; this tool looks "
            f"at {longest} days at most. Ask for a shorter window, or several in turn."
        )
    return start, end


def _calendar(sb: Sandbox, calendar_id: str | None) -> dict[str, Any]:
    if calendar_id is None:
        return sb.select("calendars", "is_primary = 1")[0]
    row = sb.get("calendars", calendar_id)
    if row is None:
        ids = ", ".join(c["id"] for c in sb.select("calendars"))
        raise ToolError(f"No calendar with id {calendar_id!r}. Your calendars: {ids}.")
    return row


def _event(sb: Sandbox, event_id: str) -> dict[str, Any]:
    row = sb.get("events", event_id)
    if row is None:
        raise ToolError(f"No event with id {event_id!r}. Use list_events or search_events to find event ids.")
    return row


def _editable(sb: Sandbox, event: dict[str, Any]) -> None:
    calendar = sb.require("calendars", event["calendar_id"], "calendar")
    me = sb.persona.email
    # An invitation on your own calendar is someone else's event; an event on a
    # shared calendar you can write to is yours to manage.
    shared_writable = calendar["owner"] != me and calendar["access"] in ("owner", "writer")
    if event["organizer"] != me and not shared_writable:
        raise ToolError(
            f"You are a guest of event {event['id']!r} (organized by {event['organizer']}); only the organizer can "
            "change or cancel it. Use respond_to_event to accept, decline or mark it tentative."
        )
    if calendar["access"] == "reader":
        raise ToolError(f"Calendar {calendar['name']!r} is read-only for you.")


def _times(start: datetime, end: datetime | None, tz: str, all_day: bool) -> tuple[str, str]:
    if all_day:
        first = start.date()
        last = end.date() if end else first
        if last < first:
            raise ToolError("An all-day event cannot end before it starts.")
        return first.isoformat(), last.isoformat()
    start_at = localize(start, tz)
    end_at = localize(end, tz) if end else start_at + timedelta(hours=1)
    if end_at <= start_at:
        raise ToolError(f"end ({isoformat(end_at)}) must be after start ({isoformat(start_at)}).")
    return isoformat(start_at), isoformat(end_at)


def _reschedule(event: dict[str, Any], start: datetime | None, end: datetime | None, tz: str) -> dict[str, str]:
    """New start, end and zone; a moved start without an end keeps the event's length."""
    if event["all_day"]:
        old_first, old_last = date.fromisoformat(event["start"]), date.fromisoformat(event["end"])
        first = start.date() if start else old_first
        last = end.date() if end else first + (old_last - old_first)
        new_start, new_end = datetime.combine(first, datetime.min.time()), datetime.combine(last, datetime.min.time())
        first_s, last_s = _times(new_start, new_end, tz, True)
    else:
        old_start, old_end = bounds(event)
        begin = localize(start, tz) if start is not None else old_start.astimezone(zone(tz))
        if end is not None:
            finish = localize(end, tz)
        elif start is not None:
            finish = begin + (old_end - old_start)
        else:
            finish = old_end.astimezone(zone(tz))
        first_s, last_s = _times(begin, finish, tz, False)
    return {"start": first_s, "end": last_s, "timezone": tz}


def _attendees(sb: Sandbox, emails: list[str], keep: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    existing = {a["email"]: a for a in keep or []}
    out = list(keep or [])
    for email in emails:
        email = email.lower()
        if email in existing or email == sb.persona.email:
            continue
        person = sb.get("people", email)
        attendee = Attendee(email=email, name=person["name"] if person else "").model_dump()
        existing[email] = attendee
        out.append(attendee)
    return out


def _in_window(rows: list[dict[str, Any]], window: tuple[datetime, datetime]) -> list[dict[str, Any]]:
    hits = [r for r in rows if overlaps(bounds(r), window)]
    return sorted(hits, key=lambda r: bounds(r)[0])


def _person(sb: Sandbox, email: str) -> dict[str, Any]:
    return sb.get("people", email) or {
        "email": email,
        "name": "",
        "timezone": sb.persona.timezone,
        "work_start": "09:00",
        "work_end": "17:00",
        "work_days": [0, 1, 2, 3, 4],
    }


def _timed_events(sb: Sandbox) -> list[dict[str, Any]]:
    return sb.select("events", "status != 'cancelled' AND all_day = 0")


def _busy(
    sb: Sandbox, email: str, window: tuple[datetime, datetime], events: list[dict[str, Any]] | None = None
) -> list[tuple[datetime, datetime]]:
    """When `email` is busy in `window`: events they take part in and their busy blocks (`events`: the timed
    events, read once by a caller that asks for several people)."""
    intervals = []
    for e in _timed_events(sb) if events is None else events:
        sb.checkpoint()
        if involves(e, email) and overlaps(bounds(e), window):
            intervals.append(bounds(e))
    for b in sb.select("busy", "email = ?", (email,)):
        sb.checkpoint()
        if overlaps(bounds(b), window):
            intervals.append(bounds(b))
    return merge(intervals)


DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def _hours(person: dict[str, Any]) -> str:
    days = person["work_days"]
    run = (
        f"{DAYS[days[0]]}-{DAYS[days[-1]]}"
        if days == list(range(days[0], days[-1] + 1))
        else ",".join(DAYS[d] for d in days)
    )
    return f"{run} {person['work_start']}-{person['work_end']} {person['timezone']}"


# -- reading ------------------------------------------------------------------


@tools.tool(read_only=True, title="List calendars")
def list_calendars(sb: Sandbox) -> CalendarList:
    """List the calendars you can see, with their ids, owners, time zones and your access (owner, writer or reader).

    Your primary calendar is where new events go unless you name another one."""
    return CalendarList(calendars=[Calendar.model_validate(c) for c in sb.select("calendars")])


@tools.tool(read_only=True, title="List events")
def list_events(
    sb: Sandbox,
    time_min: When | None = None,
    time_max: When | None = None,
    calendar_id: CalendarId | None = None,
    timezone: TimeZone | None = None,
    include_cancelled: bool = False,
    max_results: Annotated[int, Field(ge=1, le=250)] = 50,
) -> EventList:
    """List events that overlap a time window, earliest first.

    The window defaults to the next 7 days from now and can be at most 366 days long. Naive times are read in
    `timezone` (default: yours).
    Leave `calendar_id` empty to list every calendar you can see. Cancelled events are left out unless asked for."""
    tz = _tz(sb, timezone)
    window = _window(sb, time_min, time_max, tz, longest=MAX_LIST_DAYS)
    where, params = ("calendar_id = ?", [_calendar(sb, calendar_id)["id"]]) if calendar_id else ("", [])
    rows = [r for r in sb.select("events", where, params) if include_cancelled or r["status"] != "cancelled"]
    hits = _in_window(rows, window)[:max_results]
    return EventList(
        events=[event_model(r) for r in hits],
        count=len(hits),
        time_min=isoformat(window[0]),
        time_max=isoformat(window[1]),
    )


@tools.tool(read_only=True, title="Search events")
def search_events(
    sb: Sandbox,
    query: Annotated[
        str,
        Field(max_length=500, description="Words to find in the title, description, location, organizer or guests."),
    ] = "",
    attendee: Email | None = None,
    time_min: When | None = None,
    time_max: When | None = None,
    include_cancelled: bool = False,
    max_results: Annotated[int, Field(ge=1, le=250)] = 25,
) -> EventList:
    """Find events by words (all must match, any case) and/or a guest's email, at any time unless a window is given.

    Example: query='berlin offsite', or attendee='priya@acme.test' with a time window."""
    if not query.strip() and not attendee:
        raise ToolError("Give a query, an attendee, or both.")
    words = query.lower().split()
    rows = []
    for r in sb.select("events"):
        if r["status"] == "cancelled" and not include_cancelled:
            continue
        text = " ".join(
            [r["title"], r["description"], r["location"], r["organizer"]]
            + [f"{a['email']} {a['name']}" for a in r["attendees"]]
        ).lower()
        if not all(w in text for w in words):
            continue
        if attendee and attendee.lower() not in {a["email"] for a in r["attendees"]} | {r["organizer"]}:
            continue
        rows.append(r)
    if time_min or time_max:
        tz = sb.persona.timezone
        start = localize(time_min, tz) if time_min else datetime(1970, 1, 1, tzinfo=zone("UTC"))
        end = localize(time_max, tz) if time_max else datetime(9999, 1, 1, tzinfo=zone("UTC"))
        rows = _in_window(rows, (start, end))
    else:
        rows.sort(key=lambda r: bounds(r)[0])
    rows = rows[:max_results]
    return EventList(events=[event_model(r) for r in rows], count=len(rows))


@tools.tool(read_only=True, title="Get event")
def get_event(sb: Sandbox, event_id: EventId) -> Event:
    """Get one event with all its details: time, place, description, organizer and every guest's response."""
    return event_model(_event(sb, event_id))


@tools.tool(read_only=True, title="Free/busy")
def get_free_busy(
    sb: Sandbox,
    emails: Annotated[list[Email], Field(min_length=1, max_length=20)],
    time_min: When | None = None,
    time_max: When | None = None,
    timezone: TimeZone | None = None,
) -> FreeBusy:
    """Show when people are busy in a window (default: the next 7 days), with their working hours.

    Works for anyone, including people whose calendars you cannot open: you see busy times, not event details.
    The window can be at most 92 days long."""
    tz = _tz(sb, timezone)
    window = _window(sb, time_min, time_max, tz, longest=MAX_FREE_DAYS)
    people = []
    events = _timed_events(sb)
    for email in dict.fromkeys(e.lower() for e in emails):
        person = _person(sb, email)
        busy = [
            Interval(start=isoformat(s.astimezone(zone(tz))), end=isoformat(e.astimezone(zone(tz))))
            for s, e in _busy(sb, email, window, events)
        ]
        people.append(PersonBusy(email=email, timezone=person["timezone"], working_hours=_hours(person), busy=busy))
    return FreeBusy(time_min=isoformat(window[0]), time_max=isoformat(window[1]), people=people)


@tools.tool(read_only=True, title="Find free slots")
def find_free_slots(
    sb: Sandbox,
    attendees: Annotated[
        list[Email], Field(max_length=20, description="Guests who must all be free; you are included.")
    ],
    duration_minutes: Annotated[int, Field(ge=5, le=720)],
    time_min: When | None = None,
    time_max: When | None = None,
    timezone: TimeZone | None = None,
    working_hours_only: bool = True,
    max_results: Annotated[int, Field(ge=1, le=50)] = 10,
) -> FreeSlots:
    """Find times when you and every listed guest are free for at least `duration_minutes`.

    Searches the window (default: the next 7 days, never before now) and, by default, only inside everyone's
    working hours in their own time zones. The window can be at most 92 days long. Returns free windows, earliest
    first; book any part of one."""
    tz = _tz(sb, timezone)
    start, end = _window(sb, time_min, time_max, tz, longest=MAX_FREE_DAYS)
    start = max(start, sb.now())
    if end <= start:
        raise ToolError("The window is entirely in the past.")
    everyone = list(dict.fromkeys([sb.persona.email, *(a.lower() for a in attendees)]))
    free = [(start, end)]
    events = _timed_events(sb)
    for email in everyone:
        if working_hours_only:
            free = intersect(free, working_windows(_person(sb, email), (start, end)))
        free = subtract(free, _busy(sb, email, (start, end), events))
    need = timedelta(minutes=duration_minutes)
    slots = [
        Interval(start=isoformat(s.astimezone(zone(tz))), end=isoformat(e.astimezone(zone(tz))))
        for s, e in free
        if e - s >= need
    ][:max_results]
    return FreeSlots(slots=slots, timezone=tz, considered=everyone)


# -- changing -----------------------------------------------------------------


@tools.tool(title="Create event")
def create_event(
    sb: Sandbox,
    title: Annotated[str, Field(min_length=1, max_length=300)],
    start: When,
    end: When | None = None,
    timezone: TimeZone | None = None,
    all_day: bool = False,
    calendar_id: CalendarId | None = None,
    description: Description = "",
    location: Location = "",
    attendees: Attendees = [],  # noqa: B006 - copied by pydantic
    status: EventStatus = "confirmed",
) -> Event:
    """Create an event on your primary calendar (or `calendar_id`) and invite `attendees`, who start as 'needsAction'.

    For a timed event give `start` and `end` (default: one hour); naive times are read in `timezone`
    (default: the calendar's). For an all-day event set all_day=true and give dates: `end` is the last day."""
    calendar = _calendar(sb, calendar_id)
    if calendar["access"] == "reader":
        raise ToolError(f"Calendar {calendar['name']!r} is read-only for you; create the event on one you own.")
    tz = _tz(sb, timezone or calendar["timezone"])
    first, last = _times(start, end, tz, all_day)
    now = sb.now_iso()
    row = sb.insert(
        "events",
        {
            "id": sb.new_id("evt"),
            "calendar_id": calendar["id"],
            "title": title,
            "description": description,
            "location": location,
            "start": first,
            "end": last,
            "timezone": tz,
            "all_day": all_day,
            "organizer": sb.persona.email,
            "attendees": _attendees(sb, attendees),
            "status": status,
            "created_at": now,
            "updated_at": now,
        },
    )
    return event_model(row)


@tools.tool(idempotent=True, title="Update event")
def update_event(
    sb: Sandbox,
    event_id: EventId,
    title: Annotated[str, Field(min_length=1, max_length=300)] | None = None,
    start: When | None = None,
    end: When | None = None,
    timezone: TimeZone | None = None,
    description: Description | None = None,
    location: Location | None = None,
    add_attendees: Attendees | None = None,
    remove_attendees: Attendees | None = None,
    calendar_id: Annotated[CalendarId | None, Field(description="Move the event to this calendar.")] = None,
    status: EventStatus | None = None,
) -> Event:
    """Change an event you organize: only the fields you pass change.

    To reschedule, pass the new `start` (and `end`; if you omit it the event keeps its length). Guests keep
    their responses. Use cancel_event to cancel and respond_to_event for events you were invited to."""
    event = _event(sb, event_id)
    _editable(sb, event)
    changes: dict[str, Any] = {}
    tz = _tz(sb, timezone or event["timezone"])
    if start is not None or end is not None or timezone is not None:
        changes.update(_reschedule(event, start, end, tz))
    if title is not None:
        changes["title"] = title
    if description is not None:
        changes["description"] = description
    if location is not None:
        changes["location"] = location
    if status is not None:
        changes["status"] = status
    if calendar_id is not None:
        target = _calendar(sb, calendar_id)
        if target["access"] == "reader":
            raise ToolError(f"Calendar {target['name']!r} is read-only for you.")
        changes["calendar_id"] = target["id"]
    if add_attendees or remove_attendees:
        removing = {e.lower() for e in remove_attendees or []}
        unknown = removing - {a["email"] for a in event["attendees"]}
        if unknown:
            raise ToolError(f"Not invited to this event, so cannot be removed: {', '.join(sorted(unknown))}.")
        kept = [a for a in event["attendees"] if a["email"] not in removing]
        changes["attendees"] = _attendees(sb, add_attendees or [], kept)
    if not changes:
        raise ToolError("Nothing to change: pass at least one field to update.")
    changes["updated_at"] = sb.now_iso()
    return event_model(sb.update("events", event_id, changes))


@tools.tool(destructive=True, idempotent=True, title="Cancel event")
def cancel_event(sb: Sandbox, event_id: EventId) -> Event:
    """Cancel an event you organize. It stays on record with status 'cancelled' and guests see it as cancelled."""
    event = _event(sb, event_id)
    _editable(sb, event)
    if event["status"] == "cancelled":
        raise ToolError(f"Event {event_id!r} is already cancelled.")
    return event_model(sb.update("events", event_id, {"status": "cancelled", "updated_at": sb.now_iso()}))


class Deleted(ToolModel):
    """What delete_event returns: the id and title of the event deleted."""

    deleted: str
    title: str


@tools.tool(destructive=True, title="Delete event")
def delete_event(sb: Sandbox, event_id: EventId) -> Deleted:
    """Delete an event you organize, permanently. Prefer cancel_event when guests should see the cancellation."""
    event = _event(sb, event_id)
    _editable(sb, event)
    sb.delete("events", event_id)
    return Deleted(deleted=event_id, title=event["title"])


@tools.tool(idempotent=True, title="Respond to invitation")
def respond_to_event(sb: Sandbox, event_id: EventId, response: ResponseStatus) -> Event:
    """Accept, decline or tentatively accept an event you were invited to ('accepted', 'declined', 'tentative')."""
    event = _event(sb, event_id)
    me = sb.persona.email
    if event["organizer"] == me:
        raise ToolError("You organize this event; responses are for guests. Use update_event or cancel_event instead.")
    attendees = event["attendees"]
    mine = next((a for a in attendees if a["email"] == me), None)
    if mine is None:
        raise ToolError(f"You ({me}) are not on the guest list of event {event_id!r}.")
    if event["status"] == "cancelled":
        raise ToolError(f"Event {event_id!r} was cancelled by its organizer.")
    mine["response"] = response
    return event_model(sb.update("events", event_id, {"attendees": attendees, "updated_at": sb.now_iso()}))
