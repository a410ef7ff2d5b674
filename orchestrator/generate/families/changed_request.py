"""changed-request (edition 2): the requester changes the ask after the first action; the end state follows the
latest request.

A colleague asks the persona by mail to book a session with two colleagues at a given time and to note it in the
team's schedule doc, warning that it may still change. Once the persona has booked it (an event the agent added),
the requester's follow-up arrives some minutes later (a `world:` event) and moves it to another time, on the same
day or another one but never at the same hour (else the old time would also be right), and may also swap one guest
for another (`change`: `time` or `time+guest`). Judged: one session
(found by its guests, not its title) at the new time, none left at the old one, the dropped guest off the invite;
the schedule doc states the new time and no other for it; the requester is told the new time. A process check
wants the follow-up read before the requester is answered.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from orchestrator.generate import phrasing
from orchestrator.generate.build import Organization, iso
from orchestrator.generate.families import _living as living
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.family import Draft, Family, human_day, join, register
from orchestrator.generate.scheduling import aligned_starts, day_window

TOPICS = (
    "design critique",
    "pricing sync",
    "launch dry run",
    "hiring debrief",
    "vendor review",
    "budget check-in",
    "roadmap walkthrough",
    "onboarding review",
    "support escalation review",
    "quarterly planning",
)
REQUESTS = [
    "{r} asked me (by mail) to book the {topic} with {guests} for {when} and to add it to our {doc}. {r} said it might "
    "still change, so watch for a follow-up and make sure everything matches the latest version. Then confirm to {r}.",
    "Please set up the {topic} {r} asked for ({when}, with {guests}) and put it in the {doc}. Plans may shift: if {r} "
    "sends an update, follow it. Let {r} know the final time when you're done.",
    "Can you sort out {r}'s {topic}? Book it with {guests} for {when}, note it in the {doc}, and keep an eye out for "
    "changes from {r} before you confirm.",
    "{r} needs the {topic} booked ({when}, {guests}) and listed in the {doc}. They warned me the details could change "
    "within the hour, so check for their follow-up and adjust. Confirm to {r} at the end.",
    "Book the {topic} for {r}: {when}, guests {guests}. Add it to the {doc} too. If {r} changes anything afterwards, "
    "the latest request wins; tell {r} what you ended up with.",
    "Forwarding {r}'s request: the {topic} with {guests}, {when}, plus an entry in the {doc}. Expect a change from {r} "
    "(there usually is one) and make the calendar and the doc match it, then reply to {r}.",
    "Could you handle the {topic} for {r}? It's {when} with {guests}, and it should be in the {doc}. Wait a bit for "
    "{r}'s final word and go with whatever that says; then confirm.",
    "{r} wants the {topic} with {guests} on the calendar for {when}, and written into the {doc}. Heads-up: {r} tends "
    "to change plans, so check the thread again after booking. Let {r} know the final slot.",
    "Please put the {topic} in for {when} with {guests}, as {r} asked, and update the {doc}. Watch {r}'s thread for "
    "an update and follow the latest ask. Close the loop with {r} by mail.",
    "Take {r}'s {topic} request: book it ({when}; {guests}), record it in the {doc}, and if a change comes in from {r}, "
    "redo what needs redoing. Finish with a confirmation to {r}.",
    "Set up {r}'s {topic} ({when}) with {guests} and log it in the {doc}. {r} may send a correction shortly; the "
    "calendar and the doc must match the latest request. Then tell {r}.",
    "I need the {topic} booked: {when}, {guests}, as {r} asked. Add it to the {doc}. Before you tell {r} it's done, "
    "check whether they changed anything, and follow the change.",
    "Please handle the {topic} that {r} asked about. Book {when} with {guests}, update the {doc}, then wait for {r}'s "
    "follow-up (it's coming) and make sure the final setup matches it. Confirm to {r}.",
    "{r} is organising the {topic}. Book it for {when} with {guests} and add it to the {doc}; they'll probably adjust "
    "it once they see the invite, so follow up on that before confirming to them.",
    "Book {r}'s {topic} ({guests}, {when}) and put it in the {doc}. Things may still move: go with {r}'s latest mail, "
    "and undo whatever the change makes wrong. Reply to {r} with the final time.",
    "Could you get the {topic} on the calendar for {when} with {guests} and into the {doc}? {r} said to expect a "
    "change; follow it, then let {r} know.",
    "For {r}: the {topic} with {guests}, {when}. Calendar plus {doc} entry, please. {r}'s last word counts, so check "
    "for a follow-up after you book. Confirm to {r} when all is in place.",
    "Please book the {topic} {r} wants ({when}, with {guests}), note it in the {doc}, and then wait for {r}'s "
    "follow-up. Whatever they change, the invite and the doc should end up matching it. Tell {r} once done.",
    "{r} pinged about the {topic}: {when}, {guests}. Put it on the calendar and in the {doc}. They mentioned a "
    "possible change; if it comes, apply it. Then confirm to {r}.",
    "Handle the {topic} for {r}, please: book {when} with {guests}, update the {doc}, and stay on the thread for "
    "{r}'s update. Final state should match the latest ask. Send {r} the confirmation.",
    "Can you book the {topic} with {guests} for {when}? {r} asked for it and wants it in the {doc} too. Give {r} a "
    "little time to confirm or change it, follow the latest, and let them know.",
    "The {topic} ({r}'s request) needs booking for {when} with {guests} and a line in the {doc}. {r} may revise it "
    "after the invite goes out; if so, update both. Confirm the final version to {r}.",
    "Please get the {topic} set up per {r}'s mail ({when}; {guests}), add it to the {doc}, then look out for {r}'s "
    "follow-up and make everything match it before confirming.",
    "{r} asked for the {topic} with {guests} at {when}. Book it, add it to the {doc}, and check back for a change from "
    "{r} (they said one might come). Wrap up with a note to {r}.",
    "Could you take care of the {topic}? {r} wants it {when} with {guests}, listed in the {doc}. Expect {r} to tweak "
    "it; follow the newest request and then confirm to them.",
]


@register
class ChangedRequest(Family):
    """The task family of a booking whose request changes after the first action."""

    name = "changed-request"
    title = "Follow the requester's latest change after acting on the first request"
    apps = ("mail", "calendar", "docs")
    knobs = {"distractors": (0, 1)}
    split_params = ("change", "template", "topic")
    editions = (2, 3)

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        people = living.teammates(org, rng, 4, near=True)
        if people is None:
            return None
        requester, g1, g2, g3 = people
        change = rng.choice(["time", "time+guest"])
        minutes = rng.choice([30, 45, 60])
        first = living.one_slot(org, rng, [g1.email, g2.email], minutes, [1, 2, 3])
        if first is None:
            return None
        final_guests = [g1.email, g3.email if change == "time+guest" else g2.email]
        taken = (first[1] - timedelta(minutes=minutes), first[1] + timedelta(minutes=2 * minutes))
        later = [first[0] + k for k in (1, 2, 3) if org.day(first[0] + k).weekday() < 5][:1]
        days = [first[0], *later] if rng.random() < 0.5 else [*later, first[0]]
        for offset2 in days:  # the same day or the next working day, whichever has room
            starts = [
                s
                for s in aligned_starts(org.free_windows(final_guests, day_window(org, offset2)), minutes)
                if not (taken[0] <= s < taken[1]) and s.time() != first[1].time()
            ]  # a new hour
            if starts:
                break
        else:
            return None
        params = {
            "change": change,
            "requester": requester.email,
            "guests": [g1.email, g2.email],
            "new_guest": g3.email,
            "minutes": minutes,
            "day": first[0],
            "start": iso(first[1]),
            "new_day": offset2,
            "new_start": iso(rng.choice(starts)),
            "topic": rng.choice(TOPICS),
            "delay": rng.choice([5, 10, 15]),
            "distractors": knobs.get("distractors", 0),
        }
        phrasing.stamp(params, rng, lambda p: _instruction(org, p))
        return params

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        c = _Case(org, params)
        draft = Draft(
            org,
            title=f"Book the {params['topic']} and follow {c.requester.first_name}'s change",
            instruction=_instruction(org, params).text,
            description=f"Booked for {human_day(c.start)} {c.start:%H:%M}; the follow-up moves it to "
            f"{human_day(c.new_start)} {c.new_start:%H:%M}"
            + (f" and swaps {c.dropped.first_name} for {c.added.first_name}." if c.swap else "."),
            tags=["generated", "changed-request", "living-world", "follow-up", "calendar", "docs", "mail"],
        )
        _seed(draft, c)
        _stages(draft, c)
        draft.oracle = _oracle(c)
        draft.limits = {"max_tool_calls": 50, "timeout_s": 900}
        return broaden(draft, params)


class _Case:
    """One drawn task: the people, the first and the final booking, the ids it uses."""

    def __init__(self, org: Organization, params: dict[str, Any]) -> None:
        self.org, self.params = org, params
        self.requester = org.person(params["requester"])
        self.guests = [org.person(e) for e in params["guests"]]
        self.swap = params["change"] == "time+guest"
        self.dropped = self.guests[1]
        self.added = org.person(params["new_guest"])
        self.final = [self.guests[0], self.added if self.swap else self.guests[1]]
        self.minutes = params["minutes"]
        self.start = datetime.fromisoformat(params["start"])
        self.new_start = datetime.fromisoformat(params["new_start"])
        self.doc_id = "team-schedule"
        self.line = f"- {params['topic'][:1].upper()}{params['topic'][1:]}: TBD"

    @property
    def end(self) -> datetime:
        return self.start + timedelta(minutes=self.minutes)

    @property
    def new_end(self) -> datetime:
        return self.new_start + timedelta(minutes=self.minutes)


def _values(org: Organization, params: dict[str, Any]) -> dict[str, Any]:
    c = _Case(org, params)
    return {
        "r": c.requester.first_name,
        "topic": params["topic"],
        "guests": join([g.first_name for g in c.guests]),
        "when": f"{human_day(c.start)} at {c.start:%H:%M} for {c.minutes} minutes",
        "doc": "team schedule doc",
    }


def _instruction(org: Organization, params: dict[str, Any]) -> phrasing.Composition:
    return living.compose(org, params["wording"], "changed-request", "change", REQUESTS, _values(org, params))


def _seed(draft: Draft, c: _Case) -> None:
    """The request, the schedule doc, the follow-up the organization sends after the first booking."""
    org, me, topic = c.org, c.org.persona, c.params["topic"]
    guests = join([g.first_name for g in c.guests])
    living.mail(
        draft,
        "request-mail",
        c.requester,
        f"{topic[:1].upper()}{topic[1:]}",
        f"Hi {me.first_name},\n\ncould you book the {topic} with {guests} for {human_day(c.start)}, "
        f"{c.start:%H:%M}-{c.end:%H:%M}, and add it to the team schedule doc? I'm still checking a couple of "
        f"things, so it may change; I'll mail you if it does.\n\nThanks,\n{c.requester.first_name}",
        35,
    )
    if c.params["distractors"]:
        living.mail(
            draft,
            "request-earlier",
            c.requester,
            "Schedule doc",
            f"Hi {me.first_name},\n\nreminder that everything we book goes into the team schedule doc.\n\n"
            f"{c.requester.first_name}",
            2000,
        )
    draft.add(
        "docs",
        "documents",
        {
            "id": c.doc_id,
            "title": "Team schedule",
            "owner": me.email,
            "updated_at": iso(org.start - timedelta(days=2)),
            "shared_with": [{"email": p.email, "role": "editor"} for p in [c.requester, *c.guests]],
            "content": f"# Team schedule\n\nSessions coming up (time in {me.city} time):\n\n{c.line}\n- Team offsite: "
            "next quarter\n",
        },
    )
    swap = (
        f" Also, {c.dropped.first_name} can't join after all; please invite {c.added.first_name} instead."
        if c.swap
        else ""
    )
    follow = (
        f"Hi {me.first_name},\n\nchange of plan, sorry: please make it {human_day(c.new_start)}, "
        f"{c.new_start:%H:%M}-{c.new_end:%H:%M} instead.{swap} Same length.\n\nThanks,\n{c.requester.first_name}"
    )
    draft.extra["world"] = living.world_section(
        events=[
            {
                "name": "requester-changes-the-request",
                "when": {
                    "app": "calendar",
                    "table": "events",
                    "added": True,
                    "where": {"attendees": {"has": {"email": c.guests[0].email}}},
                },
                "delay": f"{c.params['delay']}m",
                "app": "mail",
                "add": {
                    "messages": [
                        {
                            "id": "follow-up",
                            "from": c.requester.address_line,
                            "to": [me.email],
                            "in_reply_to": "request-mail",
                            "subject": f"Re: {topic[:1].upper()}{topic[1:]}",
                            "body": follow,
                        }
                    ]
                },
            }
        ]
    )


def _stages(draft: Draft, c: _Case) -> None:
    new, new_end = c.new_start, c.new_end
    first = c.guests[0].email
    checks: list[dict[str, Any]] = [
        {
            "name": f"the session runs {human_day(new)} {new:%H:%M}-{new_end:%H:%M} with {c.guests[0].first_name}",
            "app": "calendar",
            "table": "events",
            "added": True,
            "where": {
                "start": {"equals": iso(new)},
                "end": {"equals": iso(new_end)},
                "status": "confirmed",
                "attendees": {"has": {"email": first}},
            },
        },
        {
            "name": f"{c.final[1].first_name} is invited to it",
            "app": "calendar",
            "table": "events",
            "added": True,
            "where": {
                "start": {"equals": iso(new)},
                "status": "confirmed",
                "attendees": {"has": {"email": c.final[1].email}},
            },
        },
        {
            "name": "one session is booked, and none is left at the first time",
            "app": "calendar",
            "table": "events",
            "added": True,
            "where": {"status": "confirmed", "attendees": {"has": {"email": first}}},
            "expect": {"count": 1},
        },
    ]
    if c.swap:
        checks.append(
            {
                "name": f"{c.dropped.first_name} is no longer invited",
                "app": "calendar",
                "table": "events",
                "added": True,
                "where": {"status": "confirmed", "attendees": {"has": {"email": c.dropped.email}}},
                "expect": {"count": 0},
            }
        )
    draft.stage("the booking follows the latest request", checks, weight=2)
    draft.stage(
        "the schedule doc and the requester have the new time",
        [
            {
                "name": f"the schedule doc states {human_day(new)} {new:%H:%M} and no other time for it",
                "app": "docs",
                "table": "documents",
                "where": {"id": c.doc_id, "content": {"mentions_time": {"at": iso(new), "claimed": True}}},
            },
            {
                "name": f"{c.requester.name} is told {human_day(new)} {new:%H:%M}",
                "told": {"who": [c.requester.email], "facts": [{"mentions_time": iso(new)}]},
            },
        ],
    )
    draft.stage(
        "noticed the change",
        [
            {
                "name": "the follow-up was read before the requester was answered",
                "journal": {
                    "read_first": "mail__send_message|mail__reply|mail__forward|mail__send_draft",
                    "entity": {"app": "mail", "table": "messages", "where": {"id": "follow-up"}},
                },
                "required": True,
            },
        ],
    )
    draft.allow = _allow(c.doc_id)


def _allow(doc_id: str) -> dict[str, Any]:
    """What the agent may change: new mail and events, the schedule doc's content."""
    return {
        "mail": {"messages": {"added": True}},
        "calendar": {"events": {"added": True}},
        "docs": {"documents": {"changed": ["content"], "where": {"id": doc_id}}},
    }


def _oracle(c: _Case) -> list[dict[str, Any]]:
    org, topic = c.org, c.params["topic"]
    title = f"{topic[:1].upper()}{topic[1:]}"
    window = day_window(org, c.params["day"])
    entry = f"{title}: {human_day(c.start)}, {c.start:%H:%M}-{c.end:%H:%M}"
    new_entry = f"{title}: {human_day(c.new_start)}, {c.new_start:%H:%M}-{c.new_end:%H:%M}"
    update: dict[str, Any] = {"event_id": "${event.id}", "start": iso(c.new_start)}  # it keeps its length
    if c.swap:
        update |= {"add_attendees": [c.added.email], "remove_attendees": [c.dropped.email]}
    return [
        {"tool": "mail__search_messages", "args": {"query": f"from:{c.requester.email}"}},
        {
            "tool": "mail__get_message",
            "args": {"message_id": "request-mail"},
            "save": "req",
        },  # (not the newest of theirs)
        {
            "tool": "calendar__find_free_slots",
            "args": {
                "attendees": [g.email for g in c.guests],
                "duration_minutes": c.minutes,
                "time_min": iso(window[0]),
                "time_max": iso(window[1]),
            },
        },
        {
            "tool": "calendar__create_event",
            "unchecked": ["title"],
            "save": "event",
            "args": {
                "title": title,
                "start": iso(c.start),
                "end": iso(c.end),
                "attendees": [g.email for g in c.guests],
            },
        },
        {"tool": "docs__get_document", "args": {"document_id": c.doc_id}},
        {"tool": "docs__edit_document", "args": {"document_id": c.doc_id, "find": c.line[2:], "replace": entry}},
        {"tool": "world__wait", "args": {}},
        {"tool": "mail__get_thread", "args": {"thread_id": "${req.thread_id}"}},
        {"tool": "calendar__update_event", "args": update},
        {"tool": "docs__edit_document", "args": {"document_id": c.doc_id, "find": entry, "replace": new_entry}},
        {
            "tool": "mail__reply",
            "args": {
                "message_id": "follow-up",
                "body": (
                    f"Hi {c.requester.first_name},\n\ndone: the {topic} is now {human_day(c.new_start)}, "
                    f"{c.new_start:%H:%M}-{c.new_end:%H:%M} with {join([g.first_name for g in c.final])}, and the team schedule "
                    f"doc says so.\n\n{org.persona.first_name}"
                ),
            },
        },
    ]
