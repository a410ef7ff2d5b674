"""The parts a composite task chains (see `composite`): per part family, its request sentences and their values.

A composite words each part with a sentence of that part's own list (`Part.requests`, filled from
`Part.values(org, params)`), so the parts read as one request; the sentences start in lower case (the
composite puts a linking word before them, or capitalizes the first). Each sentence asks for everything the
part's checks judge, as the part family's own instruction does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from orchestrator.generate.build import Organization
from orchestrator.generate.families import customer_answer
from orchestrator.generate.families.reschedule import Move
from orchestrator.generate.family import digest, human_day, join
from orchestrator.generate.phrasing import usable


@dataclass(frozen=True)
class Part:
    """One family as a part of a composite: its stage label, request sentences, values and knob ranges."""

    family: str
    label: str
    """The prefix of the part's stage names."""
    requests: tuple[str, ...]
    values: Callable[[Organization, dict[str, Any]], dict[str, Any]]
    knobs: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    """Knob ranges inside a composite (narrower than the family's own, so the chain stays long enough)."""


def step(org: Organization, params: dict[str, Any], key: str, texts: tuple[str, ...]) -> str:
    """The words of one step of a part: edition 1 and 2 the first text (release v2's words); edition 3 one of the
    texts on the organization's side of the split (ids `composite/<key>/step/<n>`, by each id's hash), picked by the part's
    parameters, so no step text is in both train and test."""
    if getattr(org, "edition", 1) < 3:
        return texts[0]
    picks = usable("composite", key, "step", texts, getattr(org, "split", None))
    if not picks:
        raise ValueError(f"composite/{key}: no step text on the {org.split} side of the split; add more")
    return texts[picks[int(digest(params), 16) % len(picks)]]


AGENDA = (
    "Also fix the time in the meeting's agenda doc.",
    "The meeting's agenda doc should show the new time too.",
    "Update the agenda document with the new time as well.",
    "And put the new time in the meeting's agenda doc.",
    "Please correct the time in its agenda document too.",
    "Make sure the agenda doc gives the new time.",
    "Fix the agenda doc so it has the new time.",
    "Its agenda doc needs the new time as well.",
)
NOTE = (
    "Then add a comment on the ticket saying you updated them.",
    "Afterwards, note on the ticket that they have been updated.",
    "Leave a comment on their ticket that you answered them.",
    "Also record on the ticket that they've been told.",
    "Then comment on the ticket that the customer has been updated.",
    "Add a note to the ticket once they've had the update.",
    "Please also comment on the ticket that you replied.",
    "Finish with a comment on the ticket saying they were updated.",
)
RESOLVE = (
    "Once a comment has its ticket, resolve the comment.",
    "Resolve each comment once its ticket exists.",
    "After filing each ticket, mark its comment resolved.",
    "Mark every ticketed comment as resolved.",
    "When a comment is ticketed, resolve it.",
    "Then resolve the comments you filed tickets for.",
    "Each comment that gets a ticket should be resolved afterwards.",
    "Close out each ticketed comment by resolving it.",
)


def _incident(org: Organization, params: dict[str, Any]) -> dict[str, Any]:
    return {"service": params["service"], "lead": org.person(params["lead"]).first_name}


def _reschedule(org: Organization, params: dict[str, Any]) -> dict[str, Any]:
    target = Move.of(org, params).target[0]
    return {
        "organizer": org.person(params["organizer"]).first_name,
        "clash": params["clash"].lower(),
        "when": "the same day" if params["same_day"] else f"on {human_day(target)}",
        "doc": " " + step(org, params, "agenda", AGENDA) if params["with_doc"] else "",
    }


def _customer(org: Organization, params: dict[str, Any]) -> dict[str, Any]:
    customer = org.person(params["customer"])
    note = " " + step(org, params, "note", NOTE) if params["with_note"] else ""
    feature = customer_answer.spoken(org, params)
    return {"customer": customer.first_name, "company": customer.company, "feature": feature, "note": note}


def _offboard(org: Organization, params: dict[str, Any]) -> dict[str, Any]:
    leaver, successor = org.person(params["leaver"]), org.person(params["successor"])
    return {
        "leaver": leaver.name,
        "leaver_first": leaver.first_name,
        "successor": successor.name,
        "successor_first": successor.first_name,
        "day": human_day(org.day(params["last_day"])),
    }


def _comments(org: Organization, params: dict[str, Any]) -> dict[str, Any]:
    resolve = " " + step(org, params, "resolve", RESOLVE) if params["steps"] >= 2 else ""
    return {"title": params["title"], "project": params["project"], "resolve": resolve}


TRAVEL_TODO = {
    2: "block my travel days in the calendar and confirm to {organizer} which days I travel",
    3: "block my travel days in the calendar, write the itinerary into a doc the team can edit, and reply to "
    "{organizer} with the doc's link",
    4: "block my travel days in the calendar, write the itinerary into a doc the team can edit, file the "
    "travel-approval ticket our travel policy asks for, and reply to {organizer} with the doc's link",
}


TRAVEL_STEPS = {
    steps: (
        first,
        *{
            2: (
                "put my travel days in the calendar and let {organizer} know which days I travel",
                "block the days I'm travelling on my calendar and tell {organizer} the travel days",
                "add my travel days to the calendar as busy and confirm them to {organizer}",
                "mark the travel days on my calendar, then write to {organizer} with the days I travel",
                "get the travel days onto my calendar and confirm the dates to {organizer}",
                "hold my travel days in the calendar and send {organizer} the days I'll be travelling",
                "reserve my travel days on the calendar and reply to {organizer} with them",
            ),
            3: (
                "put my travel days in the calendar, write up the itinerary in a doc the team can edit, and send "
                "{organizer} the doc's link",
                "block the days I travel on my calendar, put the itinerary in a document my team can edit, and reply to "
                "{organizer} with its link",
                "add the travel days to my calendar, draft the itinerary as a doc the team has edit access to, and "
                "mail {organizer} the link",
                "mark my travel days on the calendar, create an itinerary doc the team can edit, and answer {organizer} "
                "with the link to it",
                "get my travel days onto the calendar, write the itinerary into a team-editable doc, and send its link "
                "to {organizer}",
                "hold the travel days in my calendar, write the itinerary up in a doc the team may edit, and reply to "
                "{organizer} with the doc link",
                "reserve my travel days on the calendar, keep the itinerary in a document the team can edit, and give "
                "{organizer} the link",
            ),
            4: (
                "put my travel days in the calendar, write the itinerary into a doc the team can edit, raise the "
                "travel-approval ticket the travel policy requires, and send {organizer} the doc's link",
                "block the days I travel on my calendar, put the itinerary in a document my team can edit, file the "
                "travel-approval ticket our policy requires, and reply to {organizer} with the link",
                "add the travel days to my calendar, draft the itinerary as a team-editable doc, open the travel-"
                "approval ticket the policy calls for, and mail {organizer} the doc link",
                "mark my travel days on the calendar, create an itinerary doc the team can edit, file the approval "
                "ticket the travel policy asks for, and answer {organizer} with the link",
                "get my travel days onto the calendar, write the itinerary into a doc the team may edit, file the "
                "travel-approval ticket per our travel policy, and send {organizer} its link",
                "hold the travel days in my calendar, write up the itinerary in a doc the team can edit, request "
                "travel approval with the ticket the policy names, and reply to {organizer} with the doc link",
                "reserve my travel days on the calendar, keep the itinerary in a team-editable document, file the "
                "travel-approval ticket the policy wants, and give {organizer} the link",
            ),
        }[steps],
    )
    for steps, first in TRAVEL_TODO.items()
}
"""Edition 3's words for a trip's steps, per `steps` (the first is release v2's, `TRAVEL_TODO`; see `step`)."""


def _travel(org: Organization, params: dict[str, Any]) -> dict[str, Any]:
    organizer = org.person(params["organizer"]).first_name
    return {
        "organizer": organizer,
        "city": params["city"],
        "todo": step(org, params, f"trip-{params['steps']}", TRAVEL_STEPS[params["steps"]]).format(organizer=organizer),
    }


MEETING_TODO = {
    "direct": "set up a {minutes}-minute meeting about {topic} with {names} on {day}: a time when all of us are free "
    "within everyone's working hours, with all of them invited",
    "mail": "set up the meeting {requester} asked me for by mail (a time when everyone is free within their working "
    "hours), invite everyone, and reply to {requester} with the time",
}


MEETING_STEPS = {
    "direct": (
        MEETING_TODO["direct"],
        "book a {minutes}-minute meeting on {topic} with {names} on {day}, at a time all of us are free inside "
        "everyone's working hours, and invite them all",
        "find a {minutes}-minute slot on {day} when {names} and I are all free within working hours, and book a "
        "meeting about {topic} there with all of them invited",
        "schedule {minutes} minutes about {topic} with {names} on {day}, when everyone is free during their working "
        "hours, inviting all of them",
        "put a {minutes}-minute {topic} meeting with {names} on {day} in a slot that suits everyone's calendar and "
        "working hours, with all of them as guests",
        "arrange a {minutes}-minute meeting on {day} with {names} about {topic}: pick a time everyone is free in "
        "working hours and invite them",
        "get {names} and me into a {minutes}-minute {topic} meeting on {day}, at a time free for all of us in working "
        "hours, everyone invited",
        "set a {minutes}-minute meeting about {topic} on {day} with {names}, at a time that is free for all and inside "
        "everyone's working hours; invite them all",
    ),
    "mail": (
        MEETING_TODO["mail"],
        "book the meeting {requester} emailed me about, at a time everyone is free within working hours, invite all "
        "of them, and tell {requester} the time in a reply",
        "sort out the meeting {requester} asked for by mail: a time free for all inside working hours, everyone "
        "invited, and a reply to {requester} with the time",
        "schedule what {requester} requested by email (a slot where everyone is free during working hours), invite "
        "the guests, and answer {requester} with the time",
        "set up {requester}'s requested meeting from their mail at a time everyone is free in working hours, invite "
        "them all, and reply to {requester} saying when",
        "arrange the meeting from {requester}'s email at a time free for everyone within working hours, with all "
        "invited, then let {requester} know the time by reply",
        "find the time for the meeting {requester} mailed about (all free, inside working hours), invite everyone, and "
        "reply to {requester} with it",
        "take care of the meeting {requester} asked for in their mail: a free time for all in working hours, invites "
        "for everyone, and the time in a reply to {requester}",
    ),
}
"""Edition 3's words for a booking part, per way it is asked (the first is release v2's, `MEETING_TODO`)."""


def _meeting(org: Organization, params: dict[str, Any]) -> dict[str, Any]:
    values = {
        "minutes": params["minutes"],
        "topic": params["topic"],
        "day": human_day(org.day(params["day"])),
        "names": join([org.person(e).name for e in params["guests"]]),
        "requester": org.person(params["requester"]).first_name if params.get("requester") else "",
    }
    return {"todo": step(org, params, f"booking-{params['via']}", MEETING_STEPS[params["via"]]).format(**values)}


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
