"""reschedule: move a meeting off a new conflict, to the one time everyone is free.

A colleague puts a must-attend event on the persona's calendar (and says so in
a mail) right on top of one of the persona's meetings. The persona asks for
that meeting to move, the same day or the next, to a time when all its guests
(spread over time zones) are free inside their working hours, keeping its
length; then the guests are told by mail, and with more steps the time in the
meeting's agenda doc is fixed too. Distractors are other meetings of the
persona that day with similar titles, which must stay where they are.
Judged: the seeded meeting itself (not a new copy) runs at the only free slot
with the same guests; each guest gets a mail stating the new time (parsed);
the agenda states the new time and no other for it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from orchestrator.generate import coherence, phrasing, vocab
from orchestrator.generate.build import Organization, Person, iso
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.families._rebook import allow_rebook, moved_checks, rebooked
from orchestrator.generate.families._reschedule_text import DOCS, MOVE
from orchestrator.generate.family import Draft, Family, fake, human_day, join, phrase, register
from orchestrator.generate.scheduling import aligned_starts, day_window, fill, moved_in_place, pick_guests, workday
from servers.calendar.model import subtract

CLASHES = ["All-hands", "Quarterly business review", "Security incident review", "Board prep", "Customer visit"]

INSTRUCTIONS = [
    "{organizer} just put the {clash} on my calendar (see their mail) and it lands on one of my meetings. Move my "
    "meeting to a time {when} when all its guests and I are free, inside everyone's working hours, and keep its "
    "length. Then email the guests the new time.{doc}",
    "The {clash} that {organizer} scheduled clashes with a meeting of mine. Please find the slot {when} that works "
    "for everyone on that meeting (working hours only, same length), move it there and let the guests know by "
    "mail.{doc}",
    "Can you sort out my calendar? {organizer}'s {clash} now overlaps one of my meetings. Reschedule mine to a time "
    "{when} when every guest and I are free during working hours, same duration, and mail the guests about the "
    "change.{doc}",
]
DOC = [
    " Also fix the time in the meeting's agenda doc.",
    " Update the agenda doc linked from the meeting as well.",
    " The agenda doc (linked in the invite) should show the new time too.",
]


@register
class Reschedule(Family):
    """The task family of a meeting moved to a free slot after a conflict."""

    name = "reschedule"
    title = "Reschedule a meeting after a conflict"
    apps = ("calendar", "mail", "docs")
    knobs = {"tz_spread": (1, 2, 3), "distractors": (0, 1, 2), "steps": (1, 2)}
    split_params = ("zones", "minutes", "guests_count", "clash", "same_day", "with_doc", "phrasing", "distractor_count")

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        minutes = rng.choice([30, 60])
        count = rng.choice([2, 3])
        organizer = rng.choice([p for p in org.people if p.email != org.persona.manager] or org.people)
        for _ in range(12):
            guests = pick_guests(org, rng, count, knobs.get("tz_spread", 1))
            if guests is None:
                return None
            emails = [g.email for g in guests]
            offset = rng.randint(1, 3)
            same_day = rng.random() < 0.5
            following = offset + 1
            if org.edition >= 2:  # any weekday may be today: the meeting and its new day are working days
                offset = workday(org, offset)
                following = workday(org, offset + 1)
            old_window = day_window(org, offset)
            # the meeting's current time: a free hour for all of them on that day
            olds = aligned_starts(org.free_windows(emails, old_window), minutes)
            if not olds:
                continue
            old = rng.choice(olds)
            target = old_window if same_day else day_window(org, following)
            clash = (old - timedelta(minutes=30), old + timedelta(minutes=minutes + 30))
            free = [w for w in org.free_windows(emails, target) if not (w[0] < clash[1] and clash[0] < w[1])]
            # the meeting and the clash are both on the calendar when the agent looks: keep their times out
            free = _minus(free, [(old, old + timedelta(minutes=minutes)), clash])
            starts = aligned_starts(free, minutes)
            if not starts:
                continue
            new = rng.choice(starts)
            text = fake(rng)
            distractors = []
            for _ in range(knobs.get("distractors", 0)):
                spots = aligned_starts(
                    _minus(org.free_windows([], old_window), [clash, (new, new + timedelta(minutes=minutes))]), 30
                )
                if spots:
                    distractors.append(iso(rng.choice(spots)))
            params = {
                "guests": emails,
                "day": offset,
                "same_day": same_day,
                "minutes": minutes,
                "old": iso(old),
                "new": iso(new),
                "clash": rng.choice(CLASHES),
                "organizer": organizer.email,
                "topic": text.catch_phrase().lower(),
                "with_doc": knobs.get("steps", 1) == 2,
                "distractors": sorted(set(distractors)),
                "distractor_count": len(set(distractors)),
                "zones": sorted({org.persona.timezone, *(g.timezone for g in guests)}),
                "guests_count": len(guests),
                "phrasing": rng.randrange(len(INSTRUCTIONS)),
            }
            if org.edition >= 2:
                del params["phrasing"]
                params["topic"] = vocab.Writer.of(org, rng).meeting()[0]  # the industry's words, not Faker's
                params.update(next_day=following, wording=rng.randrange(1 << 30))
                made = _word(org, params)
                params.update(template=made.template, parts=list(made.parts))
            return params
        return None

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        mv = Move.of(org, params)
        draft = _draft(mv)
        _seed(draft, mv)
        _stages(draft, mv)
        oracle = _find_and_move(mv)
        if params["with_doc"]:
            oracle += _agenda(draft, mv)
        oracle.append(_tell(mv))
        draft.oracle = oracle
        if org.edition >= 3:  # cancelling it and booking it anew at the new slot is right too
            draft.oracles = [rebooked(oracle, params["guests"])]
        draft.limits = {"max_tool_calls": 40, "timeout_s": 600}
        return broaden(draft, params)


@dataclass
class Move:
    """One drawn move: the meeting (old and new times), its guests, the clash that displaces it, the ids it uses."""

    org: Organization
    params: dict[str, Any]
    guests: list[Person]
    organizer: Person
    minutes: int
    old: datetime
    new: datetime
    target: tuple[datetime, datetime]
    title: str
    tag: str

    @classmethod
    def of(cls, org: Organization, params: dict[str, Any]) -> Move:
        old = datetime.fromisoformat(params["old"])
        return cls(
            org,
            params,
            [org.person(e) for e in params["guests"]],
            org.person(params["organizer"]),
            params["minutes"],
            old,
            datetime.fromisoformat(params["new"]),
            day_window(org, params["day"] if params["same_day"] else params.get("next_day", params["day"] + 1)),
            params["topic"][:1].upper() + params["topic"][1:],
            f"{params['new'][:10]}-{old:%H%M}",
        )

    @property
    def old_end(self) -> datetime:
        return self.old + timedelta(minutes=self.minutes)

    @property
    def new_end(self) -> datetime:
        return self.new + timedelta(minutes=self.minutes)

    @property
    def clash(self) -> tuple[datetime, datetime]:
        return self.old - timedelta(minutes=30), self.old_end + timedelta(minutes=30)

    @property
    def meeting_id(self) -> str:
        return f"mtg-{self.tag}"

    @property
    def doc_id(self) -> str:
        return f"agenda-{self.tag}"


def _draft(mv: Move) -> Draft:
    params, old = mv.params, mv.old
    when = "the same day" if params["same_day"] else f"on {human_day(mv.target[0])}"
    if mv.org.edition >= 2:
        instruction = _word(mv.org, params).text
    else:
        instruction = phrase(
            INSTRUCTIONS,
            params["phrasing"],
            organizer=mv.organizer.first_name,
            clash=params["clash"].lower() if params["clash"] != "All-hands" else "all-hands",
            when=when,
            doc=DOC[params["phrasing"] % len(DOC)] if params["with_doc"] else "",
        )
    return Draft(
        mv.org,
        title=f"Move a {mv.minutes}-minute meeting off a new conflict",
        instruction=instruction,
        description=f"The {params['clash']} lands on '{mv.title}' ({human_day(old)}, {old:%H:%M}); move it {when} to the only slot "
        f"when {join([g.name for g in mv.guests])} and the user are free, and tell them.",
        tags=["generated", "reschedule", "scheduling", "time-zones", "calendar", "mail"]
        + (["docs"] if params["with_doc"] else []),
    )


def _seed(draft: Draft, mv: Move) -> None:
    """The guests' busy blocks, the meeting, the clash, distractor events, the organizer's mail, the agenda doc."""
    org, params = mv.org, mv.params
    # The fill comes first: it sees the organization before the meeting and the clash are added, as `sample` did.
    for block in fill(org, params["guests"], mv.target, (mv.new, mv.new_end)):
        draft.add("calendar", "busy", block)
    _seed_events(draft, mv)
    _seed_notice(draft, mv)


def _seed_events(draft: Draft, mv: Move) -> None:
    """The meeting, the clash on top of it, and the distractor events with similar titles."""
    params, me, guests, organizer, title, tag = mv.params, mv.org.persona, mv.guests, mv.organizer, mv.title, mv.tag
    old, old_end = mv.old, mv.old_end
    clash_start, clash_end = mv.clash
    draft.add(
        "calendar",
        "events",
        {
            "id": mv.meeting_id,
            "title": title,
            "location": "Zoom",
            "description": f"Agenda: https://docs.example.test/d/{mv.doc_id}"
            if params["with_doc"]
            else "Agenda to follow.",
            "start": iso(old),
            "end": iso(old_end),
            "attendees": [{"email": g.email, "response": "accepted"} for g in guests],
        },
    )
    draft.add(
        "calendar",
        "events",
        {
            "id": f"clash-{tag}",
            "title": params["clash"],
            "organizer": organizer.email,
            "location": "Main room and Zoom",
            "description": "Attendance expected.",
            "start": iso(clash_start),
            "end": iso(clash_end),
            "attendees": [
                {"email": me.email, "response": "accepted"},
                {"email": organizer.email, "response": "accepted"},
            ],
        },
    )
    for n, at in enumerate(params["distractors"]):
        start = datetime.fromisoformat(at)
        draft.add(
            "calendar",
            "events",
            {
                "id": f"prep-{tag}-{n}",
                "title": f"{title} - prep" if n == 0 else f"{title} follow-up notes",
                "start": iso(start),
                "end": iso(start + timedelta(minutes=30)),
            },
        )


def _seed_notice(draft: Draft, mv: Move) -> None:
    """The organizer's mail about the clash and, with the agenda step, the meeting's agenda doc."""
    org, params, me, guests, organizer, title, tag = (
        mv.org,
        mv.params,
        mv.org.persona,
        mv.guests,
        mv.organizer,
        mv.title,
        mv.tag,
    )
    old, old_end, day = mv.old, mv.old_end, human_day(mv.old)
    clash_start, clash_end = mv.clash
    agenda = (
        f"# {title}\n\n**When:** {day}, {old:%H:%M}–{old_end:%H:%M} ({me.city} time)\n**Where:** Zoom\n\n"
        f"## Agenda\n1. Where we are\n2. Open questions\n3. Next steps\n"
    )
    draft.add(
        "mail",
        "messages",
        {
            "id": f"clash-mail-{tag}",
            "from": organizer.address_line,
            "to": [me.email],
            "subject": f"{params['clash']} on {day}",
            "sent_at": iso(org.start - timedelta(minutes=25)),
            "body": f"Hi {me.first_name},\n\nI've put the {params['clash']} in your calendar: {day}, "
            f"{clash_start:%H:%M}-{clash_end:%H:%M} ({me.city} time). Please keep that time free, it can't move.\n\n"
            f"Thanks,\n{organizer.first_name}",
        },
    )
    if params["with_doc"]:
        draft.add(
            "docs",
            "documents",
            {
                "id": mv.doc_id,
                "title": f"{title} - agenda",
                "content": agenda,
                "shared_with": [{"email": g.email, "role": "commenter"} for g in guests],
            },
        )


def _stages(draft: Draft, mv: Move) -> None:
    """The meeting moved (and nothing standing in for it), the guests told; what may change, whom mail may go to."""
    params, me, guests, title, meeting_id = mv.params, mv.org.persona, mv.guests, mv.title, mv.meeting_id
    new, new_end, new_day = mv.new, mv.new_end, human_day(mv.new)
    everyone = [*params["guests"], me.email]
    moved = [
        {
            "name": f"'{title}' itself now runs {new_day}, {new:%H:%M}-{new_end:%H:%M} ({me.timezone}), still confirmed",
            "app": "calendar",
            "table": "events",
            "where": {
                "id": meeting_id,
                "start": {"equals": iso(new)},
                "end": {"equals": iso(new_end)},
                "status": "confirmed",
            },
        },
        *moved_in_place(meeting_id, len(guests), everyone),
    ]
    if mv.org.edition >= 3:  # moved in place, or cancelled and booked anew there
        name = f"'{title}' now runs {new_day}, {new:%H:%M}-{new_end:%H:%M} ({me.timezone}), once, with its guests"
        moved = moved_checks(name, meeting_id, title, params["guests"], me.email, new, new_end)
    draft.stage("the meeting is moved to the only free slot", moved, weight=2)
    draft.stage(
        "the guests are told",
        [
            {
                "name": f"{g.name} is told {new_day}, {new:%H:%M} (any zone or format) and no other time for it",
                "told": {"who": [g.email], "facts": [{"mentions_time": iso(new)}]},
            }
            for g in guests
        ],
        weight=1.5,
    )
    draft.allow = {
        "calendar": {"events": {"changed": ["start", "end", "timezone"], "where": {"id": meeting_id}}},
        "mail": {"messages": {"added": True}},
    }
    draft.forbid = [
        {
            "name": "mail goes only to the meeting's guests",
            "app": "mail",
            "table": "messages",
            "change": "added",
            "where": {
                "folder": "sent",
                "any": [{f: {"has": {"not_one_of": params["guests"]}}} for f in ("to", "cc", "bcc")],
            },
        }
    ]
    if mv.org.edition >= 3:
        allow_rebook(draft, meeting_id, new)


def _find_and_move(mv: Move) -> list[dict[str, Any]]:
    """The oracle: read the organizer's mail and the meeting, find the free slot, move the meeting there."""
    return [
        {"tool": "mail__search_messages", "args": {"query": f"from:{mv.organizer.email}"}, "save": "news"},
        {"tool": "mail__get_message", "args": {"message_id": "${news.messages.0.id}"}},
        {"tool": "calendar__get_event", "args": {"event_id": mv.meeting_id}, "save": "meeting"},
        {
            "tool": "calendar__find_free_slots",
            "args": {
                "attendees": mv.params["guests"],
                "duration_minutes": mv.minutes,
                "time_min": iso(mv.target[0]),
                "time_max": iso(mv.target[1]),
            },
            "save": "free",
        },
        {
            "tool": "calendar__update_event",
            "args": {"event_id": "${meeting.id}", "start": "${free.slots.0.start}", "end": "${free.slots.0.end}"},
        },
    ]


def _agenda(draft: Draft, mv: Move) -> list[dict[str, Any]]:
    """The stage of the agenda doc showing the new time, its rules; the oracle's edit of it."""
    doc_id, new, new_end, new_day = mv.doc_id, mv.new, mv.new_end, human_day(mv.new)
    draft.stage(
        "the agenda shows the new time",
        [
            {
                "name": f"the agenda states {new_day}, {new:%H:%M} and no other time for the meeting",
                "app": "docs",
                "table": "documents",
                "where": {"id": doc_id, "content": {"mentions_time": {"at": iso(new), "claimed": True}}},
            },
        ],
    )
    draft.allow["docs"] = {"documents": {"changed": ["content"], "where": {"id": doc_id}}}
    draft.forbid.append(
        {
            "name": "the agenda is not shared any further",
            "app": "docs",
            "table": "documents",
            "where": {"id": doc_id, "shared_with": {"has": {"email": {"not_one_of": mv.params["guests"]}}}},
        }
    )
    return [
        {"tool": "docs__get_document", "args": {"document_id": doc_id}, "save": "agenda"},
        {
            "tool": "docs__edit_document",
            "args": {
                "document_id": "${agenda.id}",
                "find": f"{human_day(mv.old)}, {mv.old:%H:%M}–{mv.old_end:%H:%M}",
                "replace": f"{new_day}, {new:%H:%M}–{new_end:%H:%M}",
            },
        },
    ]


def _tell(mv: Move) -> dict[str, Any]:
    """The oracle's mail to the guests, with the new time in each guest's city."""
    me, guests, new, new_end, new_day, title = (
        mv.org.persona,
        mv.guests,
        mv.new,
        mv.new_end,
        human_day(mv.new),
        mv.title,
    )
    cities = dict.fromkeys((g.city, g.timezone) for g in guests if g.timezone != me.timezone)
    places = ", ".join(f"{new.astimezone(zone_named(tz)):%H:%M} in {city}" for city, tz in cities)
    return {
        "tool": "mail__send_message",
        "unchecked": ["subject"],
        "args": {
            "to": mv.params["guests"],
            "subject": f"{title} moves to {new_day}",
            "body": f"Hi {join([g.first_name for g in guests])},\n\nthe {mv.params['clash']} now takes our slot, so I've moved "
            f"'{title}' to {new_day}, {new:%H:%M}-{new_end:%H:%M} {me.city} time"
            + (f" ({places})" if places else "")
            + ". It's the only time that works for all of us.\n\n"
            + me.first_name,
        },
    }


def zone_named(name: str) -> ZoneInfo:
    """The time zone named `name` (an IANA name of the generated organization)."""
    return ZoneInfo(name)


def _minus(
    free: list[tuple[datetime, datetime]], taken: list[tuple[datetime, datetime]]
) -> list[tuple[datetime, datetime]]:
    return subtract(free, taken)


def _word(org: Organization, params: dict[str, Any]) -> phrasing.Composition:
    """The edition-2 instruction of these parameters (the same in `sample` and `build`)."""
    seed = params["wording"]
    target = day_window(org, params.get("next_day", params["day"] + 1) if not params["same_day"] else params["day"])
    when = "the same day" if params["same_day"] else f"on {human_day(target[0])}"
    doc, doc_id = phrasing.pick(org, seed, "reschedule", "move", "doc", DOCS) if params["with_doc"] else ("", "")
    clash = params["clash"].lower() if params["clash"] != "All-hands" else "all-hands"
    values = {"organizer": org.person(params["organizer"]).first_name, "clash": clash, "when": when, "doc": doc}
    made = phrasing.word(org, seed, "reschedule", "move", MOVE, values)
    text = made.text
    if org.edition >= 3:  # "The review ... It can't move"; "move my meeting to Friday", not "my meeting on Friday"
        text = coherence.moved_to(coherence.pronouns(text), when)
    return phrasing.Composition(text, made.template, made.parts + ((doc_id,) if doc_id else ()))


PHRASEBOOKS = {"move": MOVE}
"""Edition 2's phrasebooks by intent."""
