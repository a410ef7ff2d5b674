"""The parts a composite task chains (see `composite`): per part family, its request sentences and their values.

A composite words each part with a sentence of that part's own list (`Part.requests`, filled from
`Part.values(world, params)`), so the parts read as one request; the sentences start in lower case (the
composite puts a linking word before them, or capitalizes the first). Each sentence asks for everything the
part's checks judge, as the part family's own instruction does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from orchestrator.generate.families import customer_answer
from orchestrator.generate.families.reschedule import Move
from orchestrator.generate.family import human_day, join
from orchestrator.generate.world import World


@dataclass(frozen=True)
class Part:
    """One family as a part of a composite: its stage label, request sentences, values and knob ranges."""

    family: str
    label: str
    """The prefix of the part's stage names."""
    requests: tuple[str, ...]
    values: Callable[[World, dict[str, Any]], dict[str, Any]]
    knobs: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    """Knob ranges inside a composite (narrower than the family's own, so the chain stays long enough)."""


def _incident(world: World, params: dict[str, Any]) -> dict[str, Any]:
    return {"service": params["service"], "lead": world.person(params["lead"]).first_name}


def _reschedule(world: World, params: dict[str, Any]) -> dict[str, Any]:
    target = Move.of(world, params).target[0]
    return {
        "organizer": world.person(params["organizer"]).first_name,
        "clash": params["clash"].lower(),
        "when": "the same day" if params["same_day"] else f"on {human_day(target)}",
        "doc": " Also fix the time in the meeting's agenda doc." if params["with_doc"] else "",
    }


def _customer(world: World, params: dict[str, Any]) -> dict[str, Any]:
    customer = world.person(params["customer"])
    note = " Then add a comment on the ticket saying you updated them." if params["with_note"] else ""
    feature = customer_answer.spoken(world, params)
    return {"customer": customer.first_name, "company": customer.company, "feature": feature, "note": note}


def _offboard(world: World, params: dict[str, Any]) -> dict[str, Any]:
    leaver, successor = world.person(params["leaver"]), world.person(params["successor"])
    return {
        "leaver": leaver.name,
        "leaver_first": leaver.first_name,
        "successor": successor.name,
        "successor_first": successor.first_name,
        "day": human_day(world.day(params["last_day"])),
    }


def _comments(world: World, params: dict[str, Any]) -> dict[str, Any]:
    resolve = " Once a comment has its ticket, resolve the comment." if params["steps"] >= 2 else ""
    return {"title": params["title"], "project": params["project"], "resolve": resolve}


TRAVEL_TODO = {
    2: "block my travel days in the calendar and confirm to {organizer} which days I travel",
    3: "block my travel days in the calendar, write the itinerary into a doc the team can edit, and reply to "
    "{organizer} with the doc's link",
    4: "block my travel days in the calendar, write the itinerary into a doc the team can edit, file the "
    "travel-approval ticket our travel policy asks for, and reply to {organizer} with the doc's link",
}


def _travel(world: World, params: dict[str, Any]) -> dict[str, Any]:
    organizer = world.person(params["organizer"]).first_name
    return {
        "organizer": organizer,
        "city": params["city"],
        "todo": TRAVEL_TODO[params["steps"]].format(organizer=organizer),
    }


MEETING_TODO = {
    "direct": "set up a {minutes}-minute meeting about {topic} with {names} on {day}: a time when all of us are free "
    "within everyone's working hours, with all of them invited",
    "mail": "set up the meeting {requester} asked me for by mail (a time when everyone is free within their working "
    "hours), invite everyone, and reply to {requester} with the time",
}


def _meeting(world: World, params: dict[str, Any]) -> dict[str, Any]:
    values = {
        "minutes": params["minutes"],
        "topic": params["topic"],
        "day": human_day(world.day(params["day"])),
        "names": join([world.person(e).name for e in params["guests"]]),
        "requester": world.person(params["requester"]).first_name if params.get("requester") else "",
    }
    return {"todo": MEETING_TODO[params["via"]].format(**values)}


INCIDENT = Part(
    "incident",
    "incident",
    (
        "yesterday's {service} incident is resolved: wrap it up the way {lead} asks in the incident thread (the bug "
        "ticket for the fix, the postmortem doc and the status update).",
        "please do the follow-up for the {service} outage, everything {lead} listed in the incident thread: a fix "
        "ticket, a postmortem document and the status mail.",
        "close out the {service} incident as {lead} describes at the end of the thread: file the bug, start the "
        "postmortem, send the status update.",
        "can you sort out the paperwork for yesterday's {service} incident? {lead}'s last mail in the thread says what's "
        "needed: ticket, postmortem, status update.",
        "{lead} wants the {service} incident closed out: a ticket for the fix, a postmortem doc and the status update, "
        "all as the incident thread says.",
        "the {service} outage needs its follow-up: read the incident thread and do what {lead} asks there (fix ticket, "
        "postmortem, status mail).",
        "take care of the {service} incident wrap-up. {lead}'s thread names the owner, the priority and where the status "
        "goes; file the ticket, write the postmortem and send the update.",
        "for yesterday's {service} incident, file the follow-up bug, start the postmortem and send the status update, "
        "exactly as {lead} laid it out in the thread.",
        "{lead} is waiting on the ticket for the {service} fix, the postmortem doc and the status mail; the details are "
        "all in the incident thread.",
        "please handle what's left of yesterday's {service} incident per {lead}'s mail in the thread: bug ticket, "
        "postmortem, status update.",
    ),
    _incident,
    {"steps": (3, 4), "distractors": (0, 1)},
)

RESCHEDULE = Part(
    "reschedule",
    "meeting",
    (
        "{organizer} put the {clash} on my calendar (see their mail) and it lands on one of my meetings: move my meeting "
        "to a time {when} when all its guests and I are free, inside everyone's working hours and with the same length, "
        "and email the guests the new time.{doc}",
        "the {clash} that {organizer} scheduled clashes with a meeting of mine; find the slot {when} that works for "
        "everyone on that meeting (working hours only, same length), move it there and let the guests know by mail.{doc}",
        "{organizer}'s {clash} now overlaps one of my meetings, so reschedule mine to a time {when} when every guest and "
        "I are free during working hours, same duration, and mail the guests about the change.{doc}",
        "my meeting that collides with {organizer}'s {clash} has to move: same length, {when}, at a time all of its "
        "guests and I are free within working hours. Tell the guests the new time by email.{doc}",
        "can you sort out the clash between the {clash} ({organizer} just booked it, there's a mail) and my meeting? "
        "Move my meeting {when} to when all of us are free in working hours, keeping its length, and mail its guests.{doc}",
        "there's a conflict on my calendar now: {organizer} booked the {clash} over one of my meetings. Please move that "
        "meeting (not a copy) to the free slot {when} for its guests and me, working hours only, same duration, and send "
        "the guests the new time.{doc}",
        "the {clash} from {organizer} takes the slot of one of my meetings; shift my meeting {when} to a time that fits "
        "everybody's calendar and working hours, keep the length, and let the guests know by mail.{doc}",
        "please move the meeting of mine that the {clash} ({organizer}'s mail) lands on to a slot {when} when its guests "
        "and I are all free during working hours, same length, then mail the guests the new time.{doc}",
        "{organizer} says the {clash} can't move, so my overlapping meeting has to: find a time {when} when all its "
        "guests and I are free inside working hours, keep the duration, move it and email them the new time.{doc}",
        "a mail from {organizer} says the {clash} is now on my calendar, on top of a meeting of mine. Move my meeting "
        "(the same one, same length) {when} to the time all its guests and I are free in working hours, and mail the "
        "guests when it is now.{doc}",
    ),
    _reschedule,
    {"steps": (1, 2), "distractors": (0, 1), "tz_spread": (1, 2)},
)

CUSTOMER = Part(
    "customer-answer",
    "customer",
    (
        "{customer} from {company} is chasing me about their {feature} problem: answer them from what's on their "
        "ticket, when the fix ships and what they can do until then.{note}",
        "please reply to {customer}'s latest mail about {feature}: tell them when the fix is due and give them the "
        "workaround from the ticket.{note}",
        "get back to {customer} ({company}), who wants an update on the {feature} issue; the fix date and the workaround "
        "are on their ticket.{note}",
        "{customer} at {company} asked again about {feature}; send them the fix date and the workaround from their "
        "ticket, and nothing internal.{note}",
        "can you answer {customer}'s chaser about the {feature} issue? Give them the release date of the fix and the "
        "workaround, both on the ticket.{note}",
        "{company} is waiting on us about {feature}: reply to {customer} with when it gets fixed and how to work around "
        "it meanwhile, from their ticket.{note}",
        "answer {customer} from {company} on the {feature} problem: the date the fix ships and the workaround, as the "
        "ticket has them.{note}",
        "{customer}'s {feature} issue needs a reply: look at their ticket and tell them the fix date and the "
        "workaround.{note}",
        "please update {customer} ({company}) on {feature}: the fix date and the workaround from the ticket, in an answer "
        "to their mail.{note}",
        "{customer} ({company}) wrote again about {feature}. Can you sort that out? They need the fix date and the "
        "workaround that are on their ticket.{note}",
    ),
    _customer,
    {"distractors": (0, 1, 2), "steps": (1, 2)},
)

OFFBOARD = Part(
    "offboard",
    "handover",
    (
        "{leaver} is leaving and {day} is their last day: hand their work over to {successor}, that is all of "
        "{leaver_first}'s open tickets reassigned to {successor_first}, edit access for {successor_first} on my documents "
        "{leaver_first} can edit, and {leaver_first}'s meetings after their last day declined.",
        "offboarding for {leaver}: their last day is {day} and {successor} takes over. Move every open ticket of theirs "
        "to {successor_first}, share each of my docs {leaver_first} can edit with {successor_first} as editor, and "
        "decline {leaver_first}'s meetings after {day}.",
        "can you do the handover from {leaver_first} to {successor_first}? {leaver_first} leaves after {day}. Open "
        "tickets go to {successor_first}; {successor_first} needs edit access wherever {leaver_first} could edit my "
        "documents; and decline {leaver_first}'s meetings after {day}.",
        "{leaver}'s last day is {day}. Give {successor} what {leaver_first} had: their open tickets, editor access to my "
        "docs {leaver_first} could edit, and decline the meetings {leaver_first} set up for after {day}.",
        "{successor} is taking over from {leaver}, whose last day is {day}: reassign {leaver_first}'s open tickets to "
        "{successor_first}, make {successor_first} an editor on my documents {leaver_first} can edit, and decline "
        "{leaver_first}'s meetings after {day}.",
        "please run the offboarding of {leaver} (last day {day}): open tickets to {successor}, {successor_first} as "
        "editor on my docs where {leaver_first} is one, and decline {leaver_first}'s meetings after that day.",
        "HR confirmed {day} is {leaver}'s last day. Hand over to {successor}: every open ticket of {leaver_first}'s, "
        "edit rights on my documents {leaver_first} can edit, and decline {leaver_first}'s meetings after {day}.",
        "sort out {leaver_first}'s handover to {successor_first} (last day: {day}): reassign the open tickets, give "
        "{successor_first} edit access to my docs {leaver_first} could edit, decline {leaver_first}'s meetings after "
        "{day}.",
        "{leaver} is off after {day} and {successor} inherits the work: open tickets reassigned, my documents "
        "{leaver_first} can edit shared with {successor_first} as editor, and {leaver_first}'s meetings after {day} "
        "declined.",
    ),
    _offboard,
    {"steps": (2, 3), "distractors": (0, 1)},
)

COMMENTS = Part(
    "doc-comments",
    "review",
    (
        'people left review comments on my doc "{title}": turn every open comment into a ticket in {project}, assigned '
        "to the person who raised it.{resolve}",
        'go through the open comments on "{title}" and file one {project} ticket for each, assigned to its '
        "commenter.{resolve}",
        'make sure each unresolved comment on my document "{title}" becomes a ticket in the {project} project, owned by '
        "whoever wrote the comment.{resolve}",
        'the review of "{title}" left open comments; file a {project} ticket per open comment and assign it to the '
        "comment's author.{resolve}",
        'can you turn the open review comments on "{title}" into {project} tickets? One each, assigned to whoever left '
        "it; skip the resolved ones.{resolve}",
        'every open comment on my design doc "{title}" needs a ticket in {project}, with the commenter as '
        "assignee.{resolve}",
        'please ticket the open review comments on "{title}" in {project}: one ticket per comment, assigned to its '
        "author.{resolve}",
        'the comments still open on "{title}" should become {project} tickets, each assigned to the person who wrote '
        "it.{resolve}",
        'file the open feedback on "{title}" as {project} tickets, one per open comment, each owned by the '
        "commenter.{resolve}",
    ),
    _comments,
    {"steps": (1, 2), "distractors": (0, 1)},
)

TRAVEL = Part(
    "travel",
    "trip",
    (
        "{organizer} emailed me about the {city} offsite: {todo}.",
        "please plan my trip to the {city} offsite ({organizer}'s mail has the dates): {todo}.",
        "sort out my travel for the offsite in {city} that {organizer} wrote about: {todo}.",
        "for the {city} offsite {organizer} mailed me about, {todo}.",
        "can you handle the {city} offsite trip? {organizer}'s mail has the details; {todo}.",
        "I'm going to the offsite in {city} (see {organizer}'s mail), so {todo}.",
        "the {city} offsite is on. From {organizer}'s mail, {todo}.",
        "get my {city} offsite trip in order per {organizer}'s mail: {todo}.",
        "{organizer} is organizing the {city} offsite; {todo}.",
        "my trip to {city}: {organizer}'s mail says when the offsite is, so {todo}.",
    ),
    _travel,
    {"steps": (3, 4), "distractors": (0, 1)},
)

MEETING = Part(
    "meeting-tz",
    "booking",
    (
        "please {todo}.",
        "can you {todo}?",
        "I need a meeting sorted: {todo}.",
        "could you also {todo}?",
        "one for the calendar: {todo}.",
        "help me {todo}, please.",
        "would you {todo}?",
        "there's a meeting to book: {todo}.",
        "please take care of this: {todo}.",
        "I'd like you to {todo}.",
    ),
    _meeting,
    {"steps": (1, 2), "distractors": (0, 1), "tz_spread": (1, 2)},
)

PARTS = {part.family: part for part in (INCIDENT, RESCHEDULE, CUSTOMER, OFFBOARD, COMMENTS, TRAVEL, MEETING)}
"""Every part a composite may chain, by family name."""

MIDDLE = ("Then ", "After that, ", "Also, ", "Next, ", "On top of that, ", "While you're at it, ", "")
LAST = ("Finally, ", "And ", "Lastly, ", "One more thing: ", "Last, ", "")
"""Linking words before the second and later parts' sentences (wording only; no split rides on them)."""
