"""meeting-tz's edition 3: a second valid slot, checks and answers that accept any valid slot, and references that
book each one (finding the time by `find_free_slots`, or by reading free/busy and converting zones).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from orchestrator.generate.build import Person, iso
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.family import Draft
from orchestrator.generate.scheduling import second_slot


def also_slot(params: dict[str, Any], starts: list[datetime], slot: datetime, minutes: int) -> None:
    """Edition 3: a second valid slot (`also`) when the day has one; a suggestion it makes work is dropped."""
    second = second_slot(starts, slot, minutes)
    if second is None:
        return
    params["also"] = [iso(second)]
    params["suggestions"] = [t for t in params["suggestions"] if datetime.fromisoformat(t) != second]
    params["suggestions_count"] = len(params["suggestions"])


def slots_words(params: dict[str, Any], slot: datetime, end: datetime | None = None) -> str:
    """The valid slots in words: '10:00-10:30 or 14:00-14:30' (their starts only without `end`)."""
    times = [slot, *map(datetime.fromisoformat, params.get("also", []))]
    length = timedelta(minutes=params["minutes"])
    return " or ".join(f"{t:%H:%M}-{t + length:%H:%M}" if end else f"{t:%H:%M}" for t in times)


def told_time(params: dict[str, Any], slot: datetime) -> list[dict[str, Any]]:
    """The facts the requester is told: the booked time; in edition 3, where two slots are free, one of them, and
    the one the agent booked (telling 14:00 for a meeting booked at 11:00 tells a wrong time)."""
    times = [{"mentions_time": t} for t in [iso(slot), *params.get("also", [])]]
    if len(times) == 1:
        return times
    booked = {
        "app": "calendar",
        "table": "events",
        "added": True,
        "where": {"status": "confirmed", "attendees": {"has": {"email": params["guests"][0]}}},
        "field": "start",
    }
    return [{"any": times}, {"mentions_time": {"from": booked}}]


def book(
    draft: Draft,
    params: dict[str, Any],
    window: tuple[datetime, datetime],
    at: datetime,
    requester: Person | None,
    day: str,
) -> list[dict[str, Any]]:
    """Edition 3's reference from the request on: find the time (by `find_free_slots`, or, in half the tasks, by
    reading everyone's free/busy and working hours and converting zones itself), book `at`, answer the requester."""
    me, minutes = draft.org.persona, params["minutes"]
    end = at + timedelta(minutes=minutes)
    span = {"time_min": iso(window[0]), "time_max": iso(window[1])}
    if params.get("wording", 0) % 2:
        read = {"tool": "calendar__get_free_busy", "args": {"emails": [*params["guests"], me.email], **span}}
    else:
        read = {
            "tool": "calendar__find_free_slots",
            "args": {"attendees": params["guests"], "duration_minutes": minutes, **span},
        }
    steps = [
        read,
        {
            "tool": "calendar__create_event",
            "args": {
                "title": params["topic"][:1].upper() + params["topic"][1:],
                "start": iso(at),
                "end": iso(end),
                "attendees": params["guests"],
                "description": f"{minutes} minutes about {params['topic']}.",
            },
            "unchecked": ["title", "description"],
        },
    ]
    if requester is not None:
        theirs = at.astimezone(ZoneInfo(requester.timezone))
        body = (
            f"Hi {requester.first_name},\n\ndone: the meeting is on {day}, {at:%H:%M}-{end:%H:%M} {me.city} time "
            f"({theirs:%H:%M} in {requester.city}). The invite is out.\n\n{me.first_name}"
        )
        steps.append({"tool": "mail__reply", "args": {"message_id": "${request.id}", "body": body}})
    return steps


def edition3(
    draft: Draft,
    params: dict[str, Any],
    oracle: list[dict[str, Any]],
    window: tuple[datetime, datetime],
    slots: list[datetime],
    requester: Person | None,
    day: str,
) -> Draft:
    """Edition 3's references: one booking each valid slot (the first in `oracle`, the others in `oracles`)."""
    draft.oracle = oracle + book(draft, params, window, slots[0], requester, day)
    draft.oracles = [oracle + book(draft, params, window, t, requester, day) for t in slots[1:]]
    draft.limits = {"max_tool_calls": 40, "timeout_s": 600}
    return broaden(draft, params)
