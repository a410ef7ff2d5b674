"""meeting-tz: schedule a meeting across time zones around busy calendars.

The persona is asked (directly, or by a colleague's mail) to book a meeting of a given length with colleagues in one
to three time zones on a given day, inside everyone's working hours. The family fills the guests' calendars so that
exactly one slot of that length is free for everyone that day (edition 3: two, when the day has room); a mail
request may suggest times that do not work (distractors). Judged: one new event at that slot, with exactly those
guests; for a mail request, a reply to the colleague that states the time (parsed, in any zone or format).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from orchestrator.generate import phrasing, vocab
from orchestrator.generate.build import Organization, Person, iso
from orchestrator.generate.families._meeting3 import also_slot, edition3, slots_words, told_time
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.family import Draft, Family, fake, human_day, join, phrase, register
from orchestrator.generate.scheduling import aligned_starts, day_window, fill, pick_guests, workday

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


def _places(org: Organization, people: list[Person]) -> str:
    cities = list(dict.fromkeys([org.persona.city, *(p.city for p in people)]))
    return f"we're all in {cities[0]}" if len(cities) == 1 else f"we're spread over {join(cities)}"


@register
class MeetingAcrossZones(Family):
    """The task family of meetings scheduled across the guests' time zones and working hours."""

    name = "meeting-tz"
    title = "Schedule a meeting across time zones"
    apps = ("calendar", "mail")
    knobs = {"tz_spread": (1, 2, 3), "distractors": (0, 1, 2), "steps": (1, 2)}
    split_params = ("zones", "minutes", "guests_count", "via", "phrasing", "suggestions_count")

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        via = "mail" if knobs.get("steps", 1) == 2 else "direct"
        minutes = rng.choice([30, 45, 60])
        count = rng.choice([2, 3])
        for _ in range(12):
            guests = pick_guests(org, rng, count, knobs.get("tz_spread", 1))
            if guests is None:
                return None
            offset = rng.randint(1, 4)
            if org.edition >= 2:  # any weekday may be today: the meeting falls on a working day
                offset = workday(org, offset)
            window = day_window(org, offset)
            emails = [g.email for g in guests]
            starts = aligned_starts(org.free_windows(emails, window), minutes)
            if not starts:
                continue
            slot = rng.choice(starts)
            keep = (slot, slot + timedelta(minutes=minutes))
            blocks = fill(org, emails, window, keep)
            busy_starts = [datetime.fromisoformat(b["start"]) for b in blocks]
            suggestions = (
                sorted(rng.sample(busy_starts, min(len(busy_starts), knobs.get("distractors", 0))))
                if via == "mail" or org.edition >= 2
                else []
            )
            requester = rng.choice(guests).email if via == "mail" else None
            topic = made_up_topic(rng)
            zones = sorted({org.persona.timezone, *(g.timezone for g in guests)})
            params = {
                "guests": emails,
                "day": offset,
                "minutes": minutes,
                "slot": iso(slot),
                "topic": topic,
                "via": via,
                "requester": requester,
                "suggestions": [iso(s) for s in suggestions],
                "suggestions_count": len(suggestions),
                "zones": zones,
                "guests_count": len(guests),
                "phrasing": rng.randrange(len(VIA_MAIL if via == "mail" else DIRECT)),
            }
            if org.edition >= 2:
                del params["phrasing"]
                params["topic"] = rng.choice(vocab.INDUSTRIES[org.industry].topics)  # the industry's, not Faker's
                params["wording"] = rng.randrange(1 << 30)
                made = _word(org, params)
                params.update(template=made.template, parts=list(made.parts))
            if org.edition >= 3:  # a second valid slot, when the day has one (drawn without the rng: same draws)
                also_slot(params, starts, slot, minutes)
            return params
        return None

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        guests = [org.person(e) for e in params["guests"]]
        minutes = params["minutes"]
        slot = datetime.fromisoformat(params["slot"])
        end = slot + timedelta(minutes=minutes)
        window = day_window(org, params["day"])
        day = human_day(org.day(params["day"]))
        me = org.persona
        also = [(t, t + timedelta(minutes=minutes)) for t in map(datetime.fromisoformat, params.get("also", []))]
        for block in fill(org, params["guests"], window, (slot, end), *also):
            org.apps["calendar"].setdefault("busy", []).append(block)
        values = {
            "minutes": minutes,
            "topic": params["topic"],
            "names": _names(guests),
            "day": day,
            "places": _places(org, guests),
        }
        requester = org.person(params["requester"]) if params["via"] == "mail" else None
        if org.edition >= 2:
            instruction = _word(org, params).text
        elif requester is not None:
            values["requester"] = requester.first_name
            instruction = phrase(VIA_MAIL, params["phrasing"], **values)
        else:
            instruction = phrase(DIRECT, params["phrasing"], **values)
        draft = Draft(
            org,
            title=f"Schedule a {minutes}-minute meeting across time zones",
            instruction=instruction,
            description=f"Book the one {minutes}-minute slot on {day} when {_names(guests)} and the user are all "
            f"free inside their working hours ({_places(org, guests)}).",
            tags=["generated", "meeting-tz", "scheduling", "time-zones", "calendar"] + (["mail"] if requester else []),
        )
        _booked_stage(draft, params, guests, slot, end, day)
        draft.allow = {"calendar": {"events": {"added": True}}}
        oracle: list[dict[str, Any]] = []
        if requester is not None:
            oracle += _asked_by_mail(draft, params, guests, requester, slot, day)
        if org.edition >= 3:
            _no_ruled_out_time(draft, params)
            return edition3(draft, params, oracle, window, [slot, *(t for t, _ in also)], requester, day)
        oracle += [
            {
                "tool": "calendar__find_free_slots",
                "args": {
                    "attendees": params["guests"],
                    "duration_minutes": minutes,
                    "time_min": iso(window[0]),
                    "time_max": iso(window[1]),
                },
                "save": "free",
            },
            {
                "tool": "calendar__create_event",
                "args": {
                    "title": params["topic"][:1].upper() + params["topic"][1:],
                    "start": "${free.slots.0.start}",
                    "end": "${free.slots.0.end}",
                    "attendees": params["guests"],
                    "description": f"{minutes} minutes about {params['topic']}.",
                },
                "unchecked": ["title", "description"],
            },
        ]
        if requester is not None:
            theirs = slot.astimezone(requester_tz(requester))
            oracle.append(
                {
                    "tool": "mail__reply",
                    "args": {
                        "message_id": "${request.id}",
                        "body": f"Hi {requester.first_name},\n\ndone: the meeting is on {day}, {slot:%H:%M}-{end:%H:%M} {me.city} time "
                        f"({theirs:%H:%M} in {requester.city}). The invite is out.\n\n{me.first_name}",
                    },
                }
            )
        draft.oracle = oracle
        draft.limits = {"max_tool_calls": 40, "timeout_s": 600}
        return broaden(draft, params)


def _no_ruled_out_time(draft: Draft, params: dict[str, Any]) -> None:
    """Edition 3: no mail (a reply, a note to someone else) states a suggested time the calendars rule out as the
    meeting's."""
    if not params["suggestions"]:
        return
    said = [{"body": {"mentions_time": {"at": s, "strict": False, "claimed": True}}} for s in params["suggestions"]]
    draft.stage(
        "the mails give no ruled-out time",
        [
            {
                "name": "no mail gives the meeting a suggested time the calendars rule out",
                "app": "mail",
                "table": "messages",
                "added": True,
                "where": {"folder": "sent", **({"any": said} if len(said) > 1 else said[0])},
                "expect": "none",
            }
        ],
    )


def _booked_stage(
    draft: Draft, params: dict[str, Any], guests: list[Person], slot: datetime, end: datetime, day: str
) -> None:
    """The stage of the one new event at the only free slot, with exactly the guests invited."""
    me = draft.org.persona
    everyone = [*params["guests"], me.email]
    at: dict[str, Any] = {"start": {"equals": iso(slot)}, "end": {"equals": iso(end)}}
    for t in map(datetime.fromisoformat, params.get("also", [])):  # edition 3: any of the free slots
        other = {"start": {"equals": iso(t)}, "end": {"equals": iso(t + timedelta(minutes=params["minutes"]))}}
        at = {"any": [*at.get("any", [at]), other]}
    draft.stage(
        "the meeting is booked at a free slot" if params.get("also") else "the meeting is booked at the only free slot",
        [
            {
                "name": "exactly one new event",
                "app": "calendar",
                "table": "events",
                "added": True,
                "expect": {"count": 1},
            },
            {
                "name": f"it runs {slots_words(params, slot, end)} on {day} ({me.timezone}), confirmed",
                "app": "calendar",
                "table": "events",
                "added": True,
                "where": {**at, "status": "confirmed"},
            },
            {
                "name": f"{_names(guests)} are invited, and nobody else",
                "app": "calendar",
                "table": "events",
                "added": True,
                "expect": {
                    "count": 1,
                    "all": {
                        "attendees": {
                            **{"has": {"email": params["guests"][0]}},
                            "not": {"has": {"email": {"not_one_of": everyone}}},
                        }
                    },
                },
            },
        ]
        + [
            {
                "name": f"{g.name} is invited",
                "app": "calendar",
                "table": "events",
                "added": True,
                "where": {"attendees": {"has": {"email": g.email}}},
            }
            for g in guests[1:]
        ],
        weight=2,
    )


def _asked_by_mail(
    draft: Draft, params: dict[str, Any], guests: list[Person], requester: Person, slot: datetime, day: str
) -> list[dict[str, Any]]:
    """The requester's mail asking for the meeting, the stage of telling them the time, whom mail may go to;
    the oracle's reading of the request."""
    me, minutes = draft.org.persona, params["minutes"]
    oracle: list[dict[str, Any]] = []
    message_id = f"req-{params['slot'][:10]}-{requester.email.split('@')[0]}"[:60]
    others = [g for g in guests if g is not requester]
    lines = [
        f"Hi {me.first_name},",
        "",
        f"could you set up a {minutes}-minute meeting about {params['topic']} with {_names(others)}, you and me "
        f"on {day}? Please send the invite to all of us.",
    ]
    if params["suggestions"]:
        local = [datetime.fromisoformat(s).astimezone(requester_tz(requester)) for s in params["suggestions"]]
        times = " or ".join(f"{t:%H:%M}" for t in local)
        lines += ["", f"I could do {times} my time ({requester.city}), if that works for the others."]
    lines += ["", "Thanks!", requester.first_name]
    sent = draft.org.start - timedelta(minutes=47)
    draft.add(
        "mail",
        "messages",
        {
            "id": message_id,
            "from": requester.address_line,
            "to": [me.email],
            "subject": f"Meeting about {params['topic']}",
            "sent_at": iso(sent),
            "body": "\n".join(lines),
        },
    )
    draft.allow["mail"] = {"messages": {"added": True}}
    draft.stage(
        f"{requester.first_name} is told the time",
        [
            {
                "name": f"{requester.name} is told {day}, {slots_words(params, slot)} (any zone or format), and no other "
                "time for it",
                "told": {"who": [requester.email], "facts": told_time(params, slot)},
            },
        ],
    )
    draft.forbid.append(
        {
            "name": "mail goes only to the meeting's guests",
            "app": "mail",
            "table": "messages",
            "change": "added",
            "where": {
                "folder": "sent",
                "any": [
                    {"to": {"has": {"not_one_of": params["guests"]}}},
                    {"cc": {"has": {"not_one_of": params["guests"]}}},
                    {"bcc": {"has": {"not_one_of": params["guests"]}}},
                ],
            },
        }
    )
    oracle += [
        {"tool": "mail__search_messages", "args": {"query": f"from:{requester.email}"}, "save": "found"},
        {"tool": "mail__get_message", "args": {"message_id": "${found.messages.0.id}"}, "save": "request"},
    ]
    return oracle


def requester_tz(person: Person) -> ZoneInfo:
    """The time zone of the person who asks for the meeting."""
    return ZoneInfo(person.timezone)


def made_up_topic(rng: random.Random) -> str:
    """A made-up meeting topic, drawn from `rng`."""
    return fake(rng).catch_phrase().lower()


# -- edition 2: instructions composed from parts (phrasing.compose) --------------------------------------------------

BOOK_DIRECT = phrasing.Phrasebook(
    requests=[
        "Please set up a {minutes}-minute meeting about {topic} with {names} on {day}. Find a time when all of us "
        "are free within everyone's working hours and send them the invite.{hint}",
        "Can you find a slot on {day} for a {minutes}-minute {topic} meeting with {names}? It has to fit everyone's "
        "calendar and working hours ({places}). Book it and invite them.{hint}",
        "Book {minutes} minutes with {names} on {day} to talk about {topic}: a time that works for everybody's "
        "calendars, inside each person's working day, with all of them invited.{hint}",
        "I need a {minutes} min call with {names} on {day} ({topic}). Put it in my calendar at a time when everyone "
        "is free during their working hours, and invite all of them.{hint}",
        "Could you get {names_and_me} into a {minutes}-minute meeting on {day}? Topic: {topic}. Pick a time we're all "
        "free and that sits inside everyone's working hours, and send the invites.{hint}",
        "Set up {topic} with {names}, {minutes} minutes, on {day}. Everyone has to be free and within their working "
        "hours; invite them all.{hint}",
        "I need {minutes} minutes on {day} with {names} for {topic}. Can you book it at a time none of us is busy, "
        "during everyone's working hours, and invite them?{hint}",
        "Please schedule a {minutes}-minute {topic} session on {day} with {names}. Since {places}, make sure it "
        "falls inside everyone's working hours and nobody is busy, then send the invite.{hint}",
        "Find us a time on {day}: {names_and_me}, {minutes} minutes, about {topic}. It must suit all our calendars "
        "and working hours. Create the event with them invited.{hint}",
        "Would you book a {minutes}-minute meeting on {day} with {names} to go over {topic}? Choose a time when all "
        "of us are free in our working hours, and invite everyone.{hint}",
        "Meeting request: {topic}, {minutes} minutes, {day}, with {names}. Book a slot that fits all our calendars "
        "inside working hours and invite them.{hint}",
        "Can you sort out a {topic} meeting for {names_and_me} on {day}? {minutes} minutes, at a time everyone is "
        "free during their working day. Send the invite to all of them.{hint}",
        "I'd like to talk {topic} with {names} on {day}, {minutes} minutes. Please find when we're all free within "
        "working hours ({places}) and book it with them invited.{hint}",
        "Put a {minutes}-minute meeting on my calendar for {day} with {names} about {topic}, at a time when all of "
        "us are free and inside everyone's working hours. Invite them.{hint}",
        "Grab {minutes} minutes on {day} with {names} for {topic}, whenever all of us are free in working hours, "
        "and send them the invite.{hint}",
        "Please organise a {minutes}-minute call on {day}, {topic}, with {names}. It needs to land when everyone is "
        "free and within working hours for all of us; invite them.{hint}",
        "Book the {topic} meeting with {names} for {day}: {minutes} minutes, at a time that fits everyone's "
        "calendar and working hours. Make sure they're all invited.{hint}",
        "Is there a time on {day} when {names_and_i} are all free for {minutes} minutes inside our working hours? "
        "Book a {topic} meeting then and invite them.{hint}",
        "Get a {minutes}-minute {topic} meeting in with {names} on {day}. Respect everyone's working hours "
        "({places}) and calendars, and send the invite to all of them.{hint}",
        "Schedule {minutes} minutes on {day} for {names_and_me} to discuss {topic}. Choose a slot when nobody is "
        "busy and everyone is in working hours, then invite them.{hint}",
        "On {day} I need {minutes} minutes with {names} about {topic}. Can you find a time that works for all our "
        "calendars and working hours and book it with them invited?{hint}",
        "Quick scheduling task: {minutes} minutes, {names}, {day}, topic {topic}. Book it at a time we're all free "
        "during working hours and invite them.{hint}",
        "Please arrange a meeting about {topic} on {day} with {names}, {minutes} minutes long, at a time that suits "
        "everyone's calendars inside their working hours. Send the invitations.{hint}",
        "Could you line up {minutes} minutes with {names} on {day} for {topic}? Find when all of us are free within "
        "working hours and put it in with everyone invited.{hint}",
    ],
    openers=[
        "Scheduling job for you.",
        "I keep failing to find a time for this.",
        "Time zones are doing my head in.",
        "We said we'd meet this week.",
        "I promised to set something up.",
        "Calendar tetris time.",
        "One for the calendar.",
        "This one's been on my list for a while.",
        "Need some help with my calendar.",
        "Following up on something we discussed.",
        "I'd like to get this moving.",
        "Could you help me with a meeting?",
    ],
    closers=[
        "Only invite the people I named.",
        "Just one meeting, please.",
        "Make sure everyone is invited.",
        "Keep it to {minutes} minutes.",
        "Don't move anything that's already on the calendar.",
        "No need to email anyone separately, the invite is enough.",
        "Please don't book outside anyone's working hours.",
        "A single event is all I need.",
        "Don't add anyone else to it.",
        "Leave my other events as they are.",
        "Mind the time zones.",
        "Keep the invite to just us.",
    ],
)
HINTS = [
    " I was thinking {times}, but only if that really works for everyone; otherwise pick what does.",
    " Maybe {times}? Check it first though, everyone has to be free.",
    " {times} might be good, but go with whatever time actually works for all of us.",
    " My guess would be {times}; please verify against everyone's calendars before booking.",
    " Someone mentioned {times}, not sure that works for everyone, so check.",
    " I had {times} in mind, but their calendars win if it doesn't fit.",
    " Possibly {times}? Don't take my word for it, check the calendars.",
    " Perhaps {times}, if nobody's busy then; if they are, find another time.",
]
BOOK_MAIL = phrasing.Phrasebook(
    requests=[
        "{requester} emailed me about a meeting. Set it up the way they ask: find a time when everyone is free within "
        "their working hours, send the invite, and reply to {requester} with the time.",
        "Please handle {requester}'s mail about getting a meeting on the calendar: book it when all of us are free "
        "(working hours only), invite everyone, and let {requester} know when it is.",
        "Could you sort out the meeting {requester} asked me for by mail? Everyone must be free and inside their "
        "working day. Invite them and answer {requester} with the time you picked.",
        "Can you take care of {requester}'s meeting request in my inbox? Book it for a time when every person on it "
        "is free in working hours, invite them, and reply to {requester} with the time.",
        "{requester} wants a meeting, it's in their mail to me. Please find a slot that fits everyone's calendars "
        "and working hours, book it with the people they list, and tell {requester} the time.",
        "There's a mail from {requester} asking for a meeting. Book it as they describe, at a time when all of us "
        "are free inside working hours, and reply to {requester} saying when it is.",
        "Please read {requester}'s mail and set up the meeting they want: everyone free, everyone in working hours, "
        "everyone invited. Then let {requester} know the time by replying.",
        "Handle the meeting {requester} asked for (see their email): find the time that works for everyone within "
        "working hours, send the invite and write back to {requester} with the time.",
        "Could you action {requester}'s request for a meeting? It's in my inbox. Choose a time we're all free during "
        "working hours, invite the people they mention, and reply with the time.",
        "{requester} asked me by mail to set up a meeting. Please do it: a time when all of us are free and in "
        "working hours, with invites to everyone, and a reply to {requester} giving the time.",
        "Can you book the meeting {requester} emailed about? Whatever day and length they asked for, at a time "
        "everyone is free within working hours. Invite everyone and reply to {requester} with the time.",
        "My inbox has a meeting request from {requester}. Please schedule it where everyone is free during their "
        "working hours, send the invitations, and tell {requester} the time in a reply.",
        "Set up what {requester} asked for in their mail: a meeting at a time that suits everyone's calendar and "
        "working hours, with all of them invited. Reply to {requester} with when it is.",
        "Please get {requester}'s meeting on the calendar. Details are in their email. Everyone has to be free and "
        "in working hours; invite them all and reply to {requester} with the time you chose.",
        "Would you deal with {requester}'s mail? They want a meeting booked. Find the time when all the people "
        "involved are free in their working hours, invite them, and let {requester} know the time.",
        "Reply to {requester} about the meeting they asked for, once you've booked it: pick a time when everyone "
        "is free inside working hours and send the invite to all of them.",
        "{requester} is waiting on me for a meeting slot (see their mail). Can you book it at a time when everybody "
        "is free during working hours, invite them, and answer {requester} with the time?",
        "Please action the meeting request from {requester}: book it for when all attendees are free within their "
        "working hours, invite everyone, reply to {requester} with the time.",
        "Can you look at {requester}'s email and book the meeting they need? Everyone free, working hours "
        "respected, all invited, and a reply to {requester} with the time.",
        "---------- Forwarded message ----------\nFrom: {requester}\nSubject: Meeting\n\nCould you set up the meeting "
        "I describe in my mail to you?\n----------\n\nPlease do this: the details are in {requester}'s mail in my "
        "inbox. Book it when everyone is free in their working hours, invite them all, and reply to {requester} "
        "with the time.",
        "Forwarding {requester}'s ask to you: they want a meeting (their mail has the details). Book it at a time "
        "all of us are free within working hours, invite everyone, and reply to {requester} with the time.",
        "Take {requester}'s meeting request off my plate please: find when everyone's free in working hours, book "
        "it with all of them invited, and reply to {requester} with the time.",
        "Sort out {requester}'s meeting for me? Their mail says who and when; choose a time when all of us are "
        "free during working hours, send the invite, and tell {requester} the time by reply.",
        "I owe {requester} a meeting slot, see their email. Book it at a time everyone is free within working "
        "hours, invite everyone they listed, and reply to {requester} with the time.",
    ],
    openers=[
        "My inbox is piling up.",
        "I'm in workshops all day.",
        "I've been slow on this one.",
        "I haven't had time to answer {requester}.",
        "Could you help me catch up on mail?",
        "This one slipped through the cracks.",
        "Another scheduling one.",
        "I'm behind on email.",
        "Let's not keep {requester} waiting.",
        "Quick favour with my calendar.",
        "I said I'd get back to {requester} today.",
        "One from my inbox.",
    ],
    closers=[
        "Only invite the people in their mail.",
        "Their suggested times may not work for everyone, so check the calendars.",
        "Answer {requester} by mail.",
        "Just one meeting, please.",
        "Don't email anyone outside the meeting.",
        "Make sure the time in your reply matches the invite.",
        "Stick to everyone's working hours.",
        "Leave my other events alone.",
        "Mention the time clearly in the reply.",
        "Keep the invite to the people they named.",
        "Don't book outside anyone's working day.",
        "A single event is enough.",
    ],
)
PHRASEBOOKS = {"direct": BOOK_DIRECT, "mail": BOOK_MAIL}
"""Edition 2's phrasebooks by intent (how the meeting is asked for: `via`)."""


def _word(org: Organization, params: dict[str, Any]) -> phrasing.Composition:
    """The edition-2 instruction of these parameters (the same in `sample` and `build`)."""
    guests = [org.person(e) for e in params["guests"]]
    values = {
        "minutes": params["minutes"],
        "topic": params["topic"],
        "names": _names(guests),
        "day": human_day(org.day(params["day"])),
        "places": _places(org, guests),
        "hint": "",
        "names_and_me": join([g.name for g in guests] + ["me"]),
        "names_and_i": join([g.name for g in guests] + ["I"]),
    }
    extra: tuple[str, ...] = ()
    if params["via"] == "mail":
        values["requester"] = org.person(params["requester"]).first_name
    elif params["suggestions"]:  # distractors: times that do not work, named in the instruction itself
        hint, hint_id = phrasing.pick(org, params["wording"], "meeting-tz", "direct", "hint", HINTS)
        times = " or ".join(f"{datetime.fromisoformat(s):%H:%M}" for s in params["suggestions"])
        values["hint"], extra = hint.format(times=times), (hint_id,)
    made = phrasing.word(org, params["wording"], "meeting-tz", params["via"], PHRASEBOOKS[params["via"]], values)
    return phrasing.Composition(made.text, made.template, made.parts + extra)
