"""meeting-tz: schedule a meeting across time zones around busy calendars.

The persona is asked (directly, or by a colleague's mail) to book a meeting of
a given length with colleagues in one to three time zones on a given day,
inside everyone's working hours. The family fills the guests' calendars so that
exactly one slot of that length is free for everyone that day; a mail request
may suggest times that do not work (distractors). Judged: one new event at
that slot, with exactly those guests; for a mail request, a reply to the
colleague that states the time (parsed, in any zone or format).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from orchestrator.generate.family import Draft, Family, fake, human_day, join, phrase, register
from orchestrator.generate.scheduling import aligned_starts, day_window, fill, pick_guests
from orchestrator.generate.world import Person, World, iso

DIRECT = [
    "Please set up a {minutes}-minute meeting about {topic} with {names} on {day}. Find a time when all of us are free "
    "within everyone's working hours and send them the invite.",
    "Can you find a slot on {day} for a {minutes}-minute {topic} meeting with {names}? It has to fit everyone's "
    "calendar and working hours ({places}). Book it and invite them.",
    "Book a {minutes}-minute slot for me with {names} on {day} to talk about {topic}. Pick the time that works for "
    "everybody's calendars, inside each person's working day, and invite them.",
    "I need a {minutes} min call with {names} on {day} ({topic}). Put it in my calendar at a time when everyone is "
    "free during their working hours, with all of them invited.",
]
VIA_MAIL = [
    "{requester} emailed me about a meeting. Set it up the way they ask: find a time when everyone is free within "
    "their working hours, send the invite, and reply to {requester} with the time.",
    "Please handle {requester}'s mail about getting a meeting on the calendar: book it when all of us are free "
    "(working hours only), invite everyone, and let {requester} know when it is.",
    "Could you sort out the meeting {requester} asked me for by mail? Everyone must be free and inside their working "
    "day. Invite them and answer {requester} with the time you picked.",
]


def _names(people: list[Person]) -> str:
    return join([p.name for p in people])


def _places(world: World, people: list[Person]) -> str:
    cities = list(dict.fromkeys([world.persona.city, *(p.city for p in people)]))
    return f"we're all in {cities[0]}" if len(cities) == 1 else f"we're spread over {join(cities)}"


@register
class MeetingAcrossZones(Family):
    """The task family of meetings scheduled across the guests' time zones and working hours."""

    name = "meeting-tz"
    title = "Schedule a meeting across time zones"
    apps = ("calendar", "mail")
    knobs = {"tz_spread": (1, 2, 3), "distractors": (0, 1, 2), "steps": (1, 2)}
    split_params = ("zones", "minutes", "guests_count", "via", "phrasing", "suggestions_count")

    def sample(self, world: World, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        via = "mail" if knobs.get("steps", 1) == 2 else "direct"
        minutes = rng.choice([30, 45, 60])
        count = rng.choice([2, 3])
        for _ in range(12):
            guests = pick_guests(world, rng, count, knobs.get("tz_spread", 1))
            if guests is None:
                return None
            offset = rng.randint(1, 4)
            window = day_window(world, offset)
            emails = [g.email for g in guests]
            starts = aligned_starts(world.free_windows(emails, window), minutes)
            if not starts:
                continue
            slot = rng.choice(starts)
            keep = (slot, slot + timedelta(minutes=minutes))
            blocks = fill(world, emails, window, keep)
            busy_starts = [datetime.fromisoformat(b["start"]) for b in blocks]
            suggestions = (
                sorted(rng.sample(busy_starts, min(len(busy_starts), knobs.get("distractors", 0))))
                if via == "mail"
                else []
            )
            requester = rng.choice(guests).email if via == "mail" else None
            topic = world_topic(rng)
            zones = sorted({world.persona.timezone, *(g.timezone for g in guests)})
            return {"guests": emails, "day": offset, "minutes": minutes, "slot": iso(slot), "topic": topic,
                    "via": via, "requester": requester, "suggestions": [iso(s) for s in suggestions],
                    "suggestions_count": len(suggestions), "zones": zones, "guests_count": len(guests),
                    "phrasing": rng.randrange(len(VIA_MAIL if via == "mail" else DIRECT))}  # fmt: skip
        return None

    def build(self, world: World, params: dict[str, Any]) -> Draft:
        guests = [world.person(e) for e in params["guests"]]
        minutes = params["minutes"]
        slot = datetime.fromisoformat(params["slot"])
        end = slot + timedelta(minutes=minutes)
        window = day_window(world, params["day"])
        day = human_day(world.day(params["day"]))
        me = world.persona
        for block in fill(world, params["guests"], window, (slot, end)):
            world.apps["calendar"].setdefault("busy", []).append(block)
        values = {"minutes": minutes, "topic": params["topic"], "names": _names(guests), "day": day,
                  "places": _places(world, guests)}  # fmt: skip
        if params["via"] == "mail":
            requester = world.person(params["requester"])
            values["requester"] = requester.first_name
            instruction = phrase(VIA_MAIL, params["phrasing"], **values)
        else:
            requester = None
            instruction = phrase(DIRECT, params["phrasing"], **values)
        draft = Draft(world, title=f"Schedule a {minutes}-minute meeting across time zones", instruction=instruction,
                      description=f"Book the one {minutes}-minute slot on {day} when {_names(guests)} and the user are all "
                      f"free inside their working hours ({_places(world, guests)}).",
                      tags=["generated", "meeting-tz", "scheduling", "time-zones", "calendar"] + (["mail"] if requester else []))  # fmt: skip
        _booked_stage(draft, params, guests, slot, end, day)
        draft.allow = {"calendar": {"events": {"added": True}}}
        oracle: list[dict[str, Any]] = []
        if requester is not None:
            oracle += _asked_by_mail(draft, params, guests, requester, slot, day)
        oracle += [
            {"tool": "calendar__find_free_slots",
             "args": {"attendees": params["guests"], "duration_minutes": minutes, "time_min": iso(window[0]),
                      "time_max": iso(window[1])}, "save": "free"},
            {"tool": "calendar__create_event",
             "args": {"title": params["topic"][:1].upper() + params["topic"][1:], "start": "${free.slots.0.start}",
                      "end": "${free.slots.0.end}", "attendees": params["guests"],
                      "description": f"{minutes} minutes about {params['topic']}."},
             "unchecked": ["title", "description"]},
        ]  # fmt: skip
        if requester is not None:
            theirs = slot.astimezone(requester_tz(requester))
            oracle.append({"tool": "mail__reply", "args": {"message_id": "${request.id}", "body":
                           f"Hi {requester.first_name},\n\ndone: the meeting is on {day}, {slot:%H:%M}-{end:%H:%M} {me.city} time "
                           f"({theirs:%H:%M} in {requester.city}). The invite is out.\n\n{me.first_name}"}})  # fmt: skip
        draft.oracle = oracle
        draft.limits = {"max_tool_calls": 40, "timeout_s": 600}
        return draft


def _booked_stage(
    draft: Draft, params: dict[str, Any], guests: list[Person], slot: datetime, end: datetime, day: str
) -> None:
    """The stage of the one new event at the only free slot, with exactly the guests invited."""
    me = draft.world.persona
    everyone = [*params["guests"], me.email]
    draft.stage("the meeting is booked at the only free slot", [
        {"name": "exactly one new event", "app": "calendar", "table": "events", "added": True, "expect": {"count": 1}},
        {"name": f"it runs {slot:%H:%M}-{end:%H:%M} on {day} ({me.timezone}), confirmed", "app": "calendar",
         "table": "events", "added": True,
         "where": {"start": {"equals": iso(slot)}, "end": {"equals": iso(end)}, "status": "confirmed"}},
        {"name": f"{_names(guests)} are invited, and nobody else", "app": "calendar", "table": "events", "added": True,
         "expect": {"count": 1, "all": {"attendees": {
             **{"has": {"email": params["guests"][0]}},
             "not": {"has": {"email": {"not_one_of": everyone}}}}}}},
    ] + [
        {"name": f"{g.name} is invited", "app": "calendar", "table": "events", "added": True,
         "where": {"attendees": {"has": {"email": g.email}}}}
        for g in guests[1:]
    ], weight=2)  # fmt: skip


def _asked_by_mail(
    draft: Draft, params: dict[str, Any], guests: list[Person], requester: Person, slot: datetime, day: str
) -> list[dict[str, Any]]:
    """The requester's mail asking for the meeting, the stage of telling them the time, whom mail may go to;
    the oracle's reading of the request."""
    me, minutes = draft.world.persona, params["minutes"]
    oracle: list[dict[str, Any]] = []
    message_id = f"req-{params['slot'][:10]}-{requester.email.split('@')[0]}"[:60]
    others = [g for g in guests if g is not requester]
    lines = [f"Hi {me.first_name},", "",
             f"could you set up a {minutes}-minute meeting about {params['topic']} with {_names(others)}, you and me "
             f"on {day}? Please send the invite to all of us."]  # fmt: skip
    if params["suggestions"]:
        local = [datetime.fromisoformat(s).astimezone(requester_tz(requester)) for s in params["suggestions"]]
        times = " or ".join(f"{t:%H:%M}" for t in local)
        lines += ["", f"I could do {times} my time ({requester.city}), if that works for the others."]
    lines += ["", "Thanks!", requester.first_name]
    sent = draft.world.start - timedelta(minutes=47)
    draft.add("mail", "messages", {"id": message_id, "from": requester.address_line, "to": [me.email],
                                   "subject": f"Meeting about {params['topic']}", "sent_at": iso(sent),
                                   "body": "\n".join(lines)})  # fmt: skip
    draft.allow["mail"] = {"messages": {"added": True}}
    draft.stage(f"{requester.first_name} is told the time", [
        {"name": f"{requester.name} is told {day}, {slot:%H:%M} (any zone or format), and no other time for it",
         "told": {"who": [requester.email], "facts": [{"mentions_time": iso(slot)}]}},
    ])  # fmt: skip
    draft.forbid.append({"name": "mail goes only to the meeting's guests", "app": "mail", "table": "messages",
                         "change": "added", "where": {"folder": "sent", "any": [
                             {"to": {"has": {"not_one_of": params["guests"]}}},
                             {"cc": {"has": {"not_one_of": params["guests"]}}},
                             {"bcc": {"has": {"not_one_of": params["guests"]}}}]}})  # fmt: skip
    oracle += [
        {"tool": "mail__search_messages", "args": {"query": f"from:{requester.email}"}, "save": "found"},
        {"tool": "mail__get_message", "args": {"message_id": "${found.messages.0.id}"}, "save": "request"},
    ]
    return oracle


def requester_tz(person: Person) -> ZoneInfo:
    """The time zone of the person who asks for the meeting."""
    return ZoneInfo(person.timezone)


def world_topic(rng: random.Random) -> str:
    """A made-up meeting topic, drawn from `rng`."""
    return fake(rng).catch_phrase().lower()
