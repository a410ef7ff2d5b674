"""declined-invite (edition 2): a guest declines an existing meeting mid-task; it moves to the one time that works.

The persona organizes a meeting (with an agenda doc that states its time) with two or three colleagues; one guest
has not answered yet. Some minutes into the task (a `world:` event at a sandbox time) that guest declines: their
calendar gets a conflict over the meeting, their response turns to declined, and they mail the reason. The persona
finds the only time the same day when everyone is free (calendar free/busy; the guests answer the moved invitation
by their calendars), moves the meeting there, fixes the agenda and tells every guest. Judged: the seeded meeting
itself runs at that time with the same guests (no stand-in event); each guest is told the new time; the agenda
states it and no other time for the meeting. A process check wants the decline read before the move.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from orchestrator.generate import phrasing
from orchestrator.generate.build import Organization, iso
from orchestrator.generate.families import _living as living
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.families._rebook import MOVED_FIRST, allow_rebook, moved_checks, rebooked
from orchestrator.generate.family import Draft, Family, human_day, join, register
from orchestrator.generate.scheduling import aligned_starts, day_window, moved_in_place
from servers.calendar.model import subtract

TOPICS = (
    "Design review",
    "Pipeline review",
    "Partner sync",
    "Incident follow-up",
    "Pricing workshop",
    "Hiring calibration",
    "Roadmap review",
    "Release go/no-go",
    "Customer feedback review",
    "Budget review",
)
REASONS = (
    "a customer call landed on it",
    "I have to cover the on-call handover then",
    "I'm at the dentist",
    "the quarterly audit interview got put there",
    "my flight was moved",
)
REQUESTS = [
    "{d} still hasn't answered the invite to the {title} ({when}); they said they'd let me know within the half "
    "hour. If anyone can't make it, move the meeting to a time that day when everyone is free, fix the time in the "
    "agenda doc and tell all the guests.",
    "Can you keep an eye on the {title} ({when})? {d} hasn't replied yet. If it turns out someone can't come, find "
    "another slot the same day that works for all of us, move it, update the agenda and let everyone know.",
    "Please make sure the {title} on {day} still works. Wait for {d}'s answer to the invite; if it's a no, reschedule "
    "to a time that day when {guests} and I are all free (same length), update the agenda doc, and mail the guests.",
    "I'm not sure {d} can make the {title} ({when}). Give them a little time to respond. If they decline, move it "
    "to when everyone is free that day, correct the agenda and tell all guests the new time.",
    "Sort out the {title} for me? {d} hasn't confirmed ({when}). If they or anyone else declines, find the time that "
    "works for everybody on the same day, move the meeting there, fix the agenda and send the guests the new time.",
    "The {title} is {when} with {guests}. Watch for {d}'s reply; if the slot doesn't work, pick the time that day "
    "when everyone's calendar is free, move the meeting, update its agenda, and let people know.",
    "{d} owes me an answer on the {title} ({when}). Once it comes in, and if it's a decline, reschedule to a time "
    "that day that suits all the guests and me, fix the agenda doc, and email everyone.",
    "Please babysit the {title} invite ({when}). If {d} (or anyone) can't come, move it within the same day to a "
    "time everyone is free, keep the length, update the agenda and tell the guests.",
    "Could you make sure everyone can attend the {title} on {day}? {d} is still pending. If it doesn't work for "
    "someone, move it to a slot that day that works for all, then agenda and guests need the new time.",
    "Heads-up: {d} may not make the {title} ({when}); they'll answer soon. Wait for it. If it's a decline, find "
    "the free time that day for all of us, move the meeting, update the agenda doc and mail every guest.",
    "For the {title} ({when}): wait for {d}'s response. If the time is a no for them, move the meeting to when "
    "{guests} and I are all free that same day, fix the agenda, and let them all know.",
    "Please follow up on the {title} invite. {d} hasn't responded; they said they'd answer shortly. If someone "
    "declines, reschedule it that day to a time everyone can do, fix the agenda doc and tell everyone.",
    "Can you handle the {title} RSVPs? {d} is the one outstanding ({when}). If the answer is no, move it to a time "
    "the same day that suits everyone, update the agenda and send the guests the new time.",
    "The {title} on {day} might need to move: {d} hasn't confirmed. Wait for the reply; on a decline, pick the one "
    "time that day when all guests and I are free, move it, fix the agenda, and tell the guests.",
    "Please get the {title} ({when}) settled. Wait until {d} answers the invite. If they can't come, move it to a "
    "slot that day when everyone is free, update the agenda doc, and email the guests the new time.",
    "I set up the {title} for {when} with {guests}; {d} hasn't accepted yet. If they end up declining, move it "
    "(same day, same length) to when we're all free, fix the agenda, and tell everyone.",
    "{d} said they'd confirm the {title} ({when}) in a few minutes. Wait for it. If they decline, find the slot that "
    "day that works for the whole group, move the meeting there, update the agenda doc and mail the guests.",
    "Keep the {title} on track, please: {d}'s answer is pending. If anyone declines, reschedule to a free time that "
    "day for everyone, change the agenda to match, and let all the guests know.",
    "Could you deal with the {title} ({when})? Wait for {d}'s RSVP; if it's a no, move the meeting to when everyone "
    "can make it that day, update the agenda doc, and tell the guests by mail.",
    "Please watch the {title} invite: {d} hasn't replied. If they decline, move it to the time that day when "
    "{guests} and I are all free, keep it the same length, fix the agenda and let everyone know.",
    "{title}, {when}: {d} should answer within half an hour. If they can't attend, reschedule the same day to a "
    "time that works for everybody, update the agenda, and send everyone the new time.",
]


@register
class DeclinedInvite(Family):
    """The task family of a meeting a guest declines mid-task, moved to the one time everyone is free."""

    name = "declined-invite"
    title = "Move a meeting a guest declines to the time that works for everyone"
    apps = ("calendar", "mail", "docs")
    knobs = {"distractors": (0, 1)}
    split_params = ("guests_count", "template", "topic")
    editions = (2, 3)

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        count = rng.choice([2, 3])
        guests = living.teammates(org, rng, count, near=True)
        if guests is None:
            return None
        emails = sorted(g.email for g in guests)
        minutes = rng.choice([30, 45, 60])
        for offset in rng.sample([1, 2, 3], 3):
            window = day_window(org, offset)
            olds = [
                s
                for s in aligned_starts(org.free_windows(emails, window), minutes)
                if s >= org.start + timedelta(hours=3)
            ]
            if not olds:
                continue
            old = rng.choice(olds)
            taken = (old - timedelta(minutes=30), old + timedelta(minutes=minutes + 30))
            news = aligned_starts(subtract(org.free_windows(emails, window), [taken]), minutes)
            if not news:
                continue
            params = {
                "guests": emails,
                "decliner": rng.choice(emails),
                "minutes": minutes,
                "day": offset,
                "old": iso(old),
                "new": iso(rng.choice(news)),
                "topic": rng.choice(TOPICS),
                "reason": rng.choice(REASONS),
                "delay": rng.choice([10, 15, 20, 25]),
                "guests_count": count,
                "distractors": knobs.get("distractors", 0),
            }
            phrasing.stamp(params, rng, lambda p: _instruction(org, p))
            return params
        return None

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        text = _instruction(org, params).text
        draft = Draft(
            org,
            title=f"Move the {params['topic'].lower()} after a guest declines",
            instruction=text,
            description=f"{org.person(params['decliner']).name} declines; the only time that day for everyone is "
            f"{params['new'][11:16]}.",
            tags=["generated", "declined-invite", "living-world", "scheduling", "calendar", "docs", "mail"],
        )
        _seed(draft, params)
        _stages(draft, params)
        draft.oracle = _oracle(draft, params)
        if org.edition >= 3:  # cancelling it and booking it anew at the new slot is right too
            draft.oracles = [rebooked(draft.oracle, params["guests"])]
        draft.limits = {"max_tool_calls": 50, "timeout_s": 900}
        return broaden(draft, params)


def _values(org: Organization, params: dict[str, Any]) -> dict[str, Any]:
    old = datetime.fromisoformat(params["old"])
    guests = [org.person(e) for e in params["guests"]]
    return {
        "d": org.person(params["decliner"]).first_name,
        "title": params["topic"].lower(),
        "day": human_day(old),
        "when": f"{human_day(old)} at {old:%H:%M}",
        "guests": join([g.first_name for g in guests]),
    }


def _instruction(org: Organization, params: dict[str, Any]) -> phrasing.Composition:
    return living.compose(org, params["wording"], "declined-invite", "move", REQUESTS, _values(org, params))


def _seed(draft: Draft, params: dict[str, Any]) -> None:
    """The meeting and its agenda; busy blocks leaving one free slot; the decline (`_decline`)."""
    org, me = draft.org, draft.org.persona
    old = datetime.fromisoformat(params["old"])
    end = old + timedelta(minutes=params["minutes"])
    new = datetime.fromisoformat(params["new"])
    decliner = org.person(params["decliner"])
    draft.add(
        "calendar",
        "events",
        {
            "id": "the-meeting",
            "title": params["topic"],
            "location": "Zoom",
            "start": iso(old),
            "end": iso(end),
            "description": "Agenda: https://docs.example.test/d/meeting-agenda",
            "attendees": [
                {"email": e, "response": "needsAction" if e == decliner.email else "accepted"} for e in params["guests"]
            ],
        },
    )
    living.keep_only(draft, params["guests"], params["day"], new, params["minutes"])
    if params["distractors"]:
        draft.add(
            "calendar",
            "events",
            {
                "id": "meeting-prep",
                "title": f"{params['topic']} - prep",
                "start": iso(old - timedelta(days=1)),
                "end": iso(old - timedelta(days=1, minutes=-30)),
            },
        )
    draft.add(
        "docs",
        "documents",
        {
            "id": "meeting-agenda",
            "title": f"{params['topic']} - agenda",
            "owner": me.email,
            "updated_at": iso(org.start - timedelta(days=1)),
            "shared_with": [{"email": e, "role": "commenter"} for e in params["guests"]],
            "content": f"# {params['topic']}\n\n**When:** {human_day(old)}, {old:%H:%M}–{end:%H:%M} ({me.city} time)\n"
            "**Where:** Zoom\n\n## Agenda\n1. Status\n2. Decisions needed\n3. Next steps\n",
        },
    )
    _decline(draft, params, old, end)


def _decline(draft: Draft, params: dict[str, Any], old: datetime, end: datetime) -> None:
    """The decline as world events (the guest's busy block and response, their mail saying why) and the guests
    answering a moved invitation by their calendars."""
    org, me = draft.org, draft.org.persona
    decliner = org.person(params["decliner"])
    at = org.start + timedelta(minutes=params["delay"])
    draft.extra["world"] = living.world_section(
        events=[
            {
                "name": "guest-declines",
                "at": iso(at),
                "app": "calendar",
                "add": {
                    "busy": [{"email": decliner.email, "start": iso(old - timedelta(minutes=15)), "end": iso(end)}]
                },
                "update": [
                    {
                        "table": "events",
                        "key": "the-meeting",
                        "items": [
                            {"column": "attendees", "match": {"email": decliner.email}, "set": {"response": "declined"}}
                        ],
                    }
                ],
            },
            {
                "name": "guest-says-why",
                "at": iso(at),
                "app": "mail",
                "add": {
                    "messages": [
                        {
                            "id": "decline-mail",
                            "from": decliner.address_line,
                            "to": [me.email],
                            "subject": f"Declined: {params['topic']}",
                            "body": f"Hi {me.first_name},\n\nsorry, I can't make {old:%H:%M} on {human_day(old)}: {params['reason']}. "
                            f"Any other time that day is fine if my calendar is free.\n\n{decliner.first_name}",
                        }
                    ]
                },
            },
        ],
        people=[{"email": e, "name": org.person(e).name, "invitations": "busy"} for e in params["guests"]],
    )


def _stages(draft: Draft, params: dict[str, Any]) -> None:
    org, me = draft.org, draft.org.persona
    new = datetime.fromisoformat(params["new"])
    new_end = new + timedelta(minutes=params["minutes"])
    guests = params["guests"]
    everyone = [*guests, me.email]
    moved = [
        {
            "name": f"the meeting itself now runs {human_day(new)}, {new:%H:%M}-{new_end:%H:%M}",
            "app": "calendar",
            "table": "events",
            "where": {
                "id": "the-meeting",
                "start": {"equals": iso(new)},
                "end": {"equals": iso(new_end)},
                "status": "confirmed",
            },
        },
        *moved_in_place("the-meeting", len(guests), everyone),
    ]
    if org.edition >= 3:  # moved in place, or cancelled and booked anew there
        name = f"the meeting now runs {human_day(new)}, {new:%H:%M}-{new_end:%H:%M}, once, with its guests"
        moved = moved_checks(name, "the-meeting", params["topic"], guests, me.email, new, new_end)
    draft.stage("the meeting moves to the one time everyone is free", moved, weight=2)
    draft.stage(
        "the agenda and the guests have the new time",
        [
            {
                "name": f"the agenda states {new:%H:%M} and no other time for the meeting",
                "app": "docs",
                "table": "documents",
                "where": {"id": "meeting-agenda", "content": {"mentions_time": {"at": iso(new), "claimed": True}}},
            },
            *(
                {
                    "name": f"{org.person(e).name} is told {human_day(new)}, {new:%H:%M}",
                    "told": {"who": [e], "facts": [{"mentions_time": iso(new)}]},
                }
                for e in guests
            ),
        ],
    )
    draft.stage(
        "noticed the decline",
        [
            {
                "name": "the decline was read before the meeting moved",
                "journal": {
                    "read_first": MOVED_FIRST if org.edition >= 3 else "calendar__update_event",
                    "entity": {"app": "mail", "table": "messages", "where": {"id": "decline-mail"}},
                },
                "required": True,
            },
        ],
    )
    draft.allow = {
        "calendar": {"events": {"changed": ["start", "end", "timezone"], "where": {"id": "the-meeting"}}},
        "mail": {"messages": {"added": True}},
        "docs": {"documents": {"changed": ["content"], "where": {"id": "meeting-agenda"}}},
    }
    if org.edition >= 3:
        allow_rebook(draft, "the-meeting", new)


def _oracle(draft: Draft, params: dict[str, Any]) -> list[dict[str, Any]]:
    org, me = draft.org, draft.org.persona
    old, new = datetime.fromisoformat(params["old"]), datetime.fromisoformat(params["new"])
    end, new_end = old + timedelta(minutes=params["minutes"]), new + timedelta(minutes=params["minutes"])
    window = day_window(org, params["day"])
    decliner = org.person(params["decliner"])
    firsts = join([org.person(e).first_name for e in params["guests"]])
    return [
        {"tool": "calendar__get_event", "args": {"event_id": "the-meeting"}},
        {"tool": "world__wait", "args": {}},
        {"tool": "mail__search_messages", "args": {"query": f"from:{decliner.email}"}, "save": "news"},
        {"tool": "mail__get_message", "args": {"message_id": "${news.messages.0.id}"}},
        {"tool": "calendar__get_event", "args": {"event_id": "the-meeting"}, "save": "meeting"},
        {
            "tool": "calendar__find_free_slots",
            "save": "free",
            "args": {
                "attendees": params["guests"],
                "duration_minutes": params["minutes"],
                "time_min": iso(window[0]),
                "time_max": iso(window[1]),
            },
        },
        {
            "tool": "calendar__update_event",
            "args": {"event_id": "${meeting.id}", "start": "${free.slots.0.start}", "end": "${free.slots.0.end}"},
        },
        {"tool": "docs__get_document", "args": {"document_id": "meeting-agenda"}},
        {
            "tool": "docs__edit_document",
            "args": {
                "document_id": "meeting-agenda",
                "find": f"{human_day(old)}, {old:%H:%M}–{end:%H:%M}",
                "replace": f"{human_day(new)}, {new:%H:%M}–{new_end:%H:%M}",
            },
        },
        {
            "tool": "mail__send_message",
            "unchecked": ["subject"],
            "args": {
                "to": params["guests"],
                "subject": f"{params['topic']}: new time",
                "body": f"Hi {firsts},\n\n{decliner.first_name} can't make {old:%H:%M}, so I've moved the "
                f"{params['topic'].lower()} to {human_day(new)}, {new:%H:%M}-{new_end:%H:%M} ({me.city} time), the "
                f"one time we're all free. The agenda is updated.\n\n{me.first_name}",
            },
        },
    ]
