"""Edition 3's two right ways to move a meeting: update it in place, or cancel (or delete) it and book a new one with
the same title and guests at the new slot. The checks, rules and second reference the families that move one share.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from orchestrator.generate.build import iso
from orchestrator.generate.family import Draft

MOVED_FIRST = "calendar__update_event|calendar__cancel_event|calendar__delete_event|calendar__create_event"
"""The calls that move the meeting on either path (what a `read_first` check waits for)."""


def the_meeting(title: str, new: datetime, new_end: datetime) -> dict[str, Any]:
    """The rows that are the meeting at its new slot: the original moved there, or a booking with its title."""
    return {
        "title": {"says": {"phrase": [title], "claimed": False}},
        "start": {"equals": iso(new)},
        "end": {"equals": iso(new_end)},
        "status": "confirmed",
    }


def moved_checks(
    name: str, meeting_id: str, title: str, guests: list[str], me: str, new: datetime, new_end: datetime
) -> list[dict[str, Any]]:
    """The meeting runs at the new slot (moved, or cancelled and booked anew), once, with exactly its guests, and the
    original is not left standing at another time."""
    where = the_meeting(title, new, new_end)
    everyone = [*guests, me]
    return [
        {
            "name": name,
            "app": "calendar",
            "table": "events",
            "where": where,
            "expect": {
                "count": 1,
                "all": {"attendees": {"not": {"has": {"email": {"not_one_of": everyone}}}}},
            },
        },
        *(
            {
                "name": f"{g} is invited to it",
                "app": "calendar",
                "table": "events",
                "where": {**where, "attendees": {"has": {"email": g}}},
            }
            for g in guests
        ),
        {
            "name": "the original is not left at another time",
            "app": "calendar",
            "table": "events",
            "where": {"id": meeting_id, "status": "confirmed", "start": {"not_equals": iso(new)}},
            "expect": "none",
        },
        {
            "name": "no other new event stands in for it",
            "app": "calendar",
            "table": "events",
            "added": True,
            "where": {
                "status": {"not_equals": "cancelled"},
                "any": [
                    {"title": {"not": {"says": {"phrase": [title], "claimed": False}}}},
                    {"start": {"not_equals": iso(new)}},
                ],
            },
            "expect": {"count": 0},
        },
    ]


def allow_cancelled(draft: Draft, where: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of `where` may be cancelled or deleted (neither is destruction); returns the calendar's event
    rules, these added after those the draft had."""
    calendar = draft.allow.setdefault("calendar", {})
    rules = calendar.get("events", [])
    calendar["events"] = [
        *(rules if isinstance(rules, list) else [rules]),
        {"changed": ["status"], "where": where},
        {"removed": True, "where": where},
    ]
    draft.relax.setdefault("destruction", []).append({"app": "calendar", "table": "events", "where": where})
    return calendar["events"]


def allow_rebook(draft: Draft, meeting_id: str, new: datetime) -> None:
    """The original may be moved, cancelled or deleted, and a new event booked at the new slot."""
    allow_cancelled(draft, {"id": meeting_id}).append({"added": True, "where": {"start": {"equals": iso(new)}}})


def rebooked(steps: list[dict[str, Any]], guests: list[str]) -> list[dict[str, Any]]:
    """The reference `steps` with the meeting's `update_event` turned into cancelling it and booking a new one with
    its title, description (the agenda's link) and guests at the slot the update gave."""
    out: list[dict[str, Any]] = []
    for step in steps:
        if step.get("tool") != "calendar__update_event":
            out.append(step)
            continue
        args = step["args"]
        meeting = args["event_id"].removesuffix(".id}")
        out += [
            {"tool": "calendar__cancel_event", "args": {"event_id": args["event_id"]}},
            {
                "tool": "calendar__create_event",
                "args": {
                    "title": meeting + ".title}",
                    "start": args["start"],
                    "end": args["end"],
                    "attendees": guests,
                    "description": meeting + ".description}",
                },
            },
        ]
    return out
