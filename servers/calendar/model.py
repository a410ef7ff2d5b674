"""Calendar data as tools return it, and the time arithmetic events need."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any, Literal

from pydantic import Field

from servers.core import ToolModel
from servers.core.clock import zone

ResponseStatus = Literal["needsAction", "accepted", "declined", "tentative"]
EventStatus = Literal["confirmed", "tentative", "cancelled"]
Access = Literal["owner", "writer", "reader"]


class Calendar(ToolModel):
    """A calendar row as tools return it: its owner, time zone and what the user may do with it."""

    id: str
    name: str
    owner: str = Field(description="Email of the calendar's owner.")
    timezone: str
    description: str
    is_primary: bool
    access: Access = Field(description="What you may do: owner or writer can add and change events; reader only views.")


class Attendee(ToolModel):
    """A guest of an event: email, name, whether they accepted, and whether they are optional."""

    email: str
    name: str = ""
    response: ResponseStatus = "needsAction"
    optional: bool = False


class Event(ToolModel):
    """An event row as tools return it: times in its time zone, organizer, guests and status."""

    id: str
    calendar_id: str
    title: str
    description: str
    location: str
    start: str = Field(description="ISO 8601 start in the event's time zone; a date (YYYY-MM-DD) for all-day events.")
    end: str = Field(description="ISO 8601 end (exclusive); for all-day events the last day (inclusive).")
    timezone: str
    all_day: bool
    organizer: str
    attendees: list[Attendee]
    status: EventStatus
    created_at: str
    updated_at: str


class Interval(ToolModel):
    """A span of time, start and end as ISO 8601 text."""

    start: str
    end: str


def event_model(row: dict[str, Any]) -> Event:
    """An events row as the `Event` tools return."""
    return Event.model_validate(row)


def bounds(row: dict[str, Any]) -> tuple[datetime, datetime]:
    """The instants an event (or busy block) covers, end exclusive."""
    tz = row.get("timezone") or "UTC"
    if row.get("all_day"):
        first = date.fromisoformat(row["start"])
        last = date.fromisoformat(row["end"])
        return (
            datetime.combine(first, time(0), zone(tz)),
            datetime.combine(last + timedelta(days=1), time(0), zone(tz)),
        )
    return datetime.fromisoformat(row["start"]), datetime.fromisoformat(row["end"])


def overlaps(a: tuple[datetime, datetime], b: tuple[datetime, datetime]) -> bool:
    """Whether two half-open spans of time share an instant."""
    return a[0] < b[1] and b[0] < a[1]


def involves(row: dict[str, Any], email: str) -> bool:
    """Whether the event takes up `email`'s time: they organize it or are a guest who has not declined."""
    if row["organizer"] == email:
        return True
    return any(a["email"] == email and a["response"] != "declined" for a in row["attendees"])


def merge(intervals: list[tuple[datetime, datetime]]) -> list[tuple[datetime, datetime]]:
    """The spans sorted, with overlapping or touching ones joined."""
    merged: list[tuple[datetime, datetime]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def subtract(
    free: list[tuple[datetime, datetime]], busy: list[tuple[datetime, datetime]]
) -> list[tuple[datetime, datetime]]:
    """`free` without `busy`, in one sweep over both (sorted) lists."""
    busy = merge(busy)
    out: list[tuple[datetime, datetime]] = []
    first = 0
    for start, end in sorted(free):
        while first < len(busy) and busy[first][1] <= start:
            first += 1
        cursor = start
        k = first
        while k < len(busy) and busy[k][0] < end:
            b_start, b_end = busy[k]
            if b_start > cursor:
                out.append((cursor, b_start))
            cursor = max(cursor, b_end)
            k += 1
        if cursor < end:
            out.append((cursor, end))
    return out


def intersect(
    a: list[tuple[datetime, datetime]], b: list[tuple[datetime, datetime]]
) -> list[tuple[datetime, datetime]]:
    """The instants in both `a` and `b`, in one sweep over both (merged) lists."""
    a, b = merge(a), merge(b)
    out: list[tuple[datetime, datetime]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        start, end = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if start < end:
            out.append((start, end))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return merge(out)


def working_windows(person: dict[str, Any], window: tuple[datetime, datetime]) -> list[tuple[datetime, datetime]]:
    """The person's working hours that fall inside `window`."""
    tz = zone(person["timezone"])
    first = window[0].astimezone(tz).date() - timedelta(days=1)
    last = window[1].astimezone(tz).date() + timedelta(days=1)
    opens = time.fromisoformat(person["work_start"])
    closes = time.fromisoformat(person["work_end"])
    out = []
    day = first
    while day <= last:
        if day.weekday() in person["work_days"]:
            out.append((datetime.combine(day, opens, tz), datetime.combine(day, closes, tz)))
        day += timedelta(days=1)
    return intersect(out, [window])
