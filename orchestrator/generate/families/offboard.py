"""offboard: hand a leaving colleague's work over to their successor.

A colleague leaves after a given day. The persona is asked to reassign every
open ticket assigned to them (todo, in progress, in review or blocked; done
and cancelled ones stay as they are) to the successor, to give the successor
edit access to every document the persona owns that the leaver can edit, and
to decline the leaver's meetings (the persona is invited) that fall after
their last day. The family adds some of each to the organization, and the organization's
own rows that match count too. Distractors: the leaver's closed tickets,
their meetings before the last day, documents the leaver can only view, and
open tickets of other people.

Judged on the seeded rows by value: each open ticket's assignee, each
document's sharing (the successor as editor), the persona's answer to each
later meeting; allow rules confine the changes to exactly those rows.
Edition 3 may add the persona's own 1:1s with the leaver after the last day,
cancelled or deleted (either is right; the reference does one of them), and
a handover folder the handed-over documents are filed in.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from orchestrator.generate import phrasing, vocab
from orchestrator.generate.build import Organization, Person, iso
from orchestrator.generate.families import _offboard3 as extra3
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.family import Draft, Family, fake, human_day, phrase, register

INSTRUCTIONS = [
    "{leaver} is leaving; {day} is their last day. Please hand their work over to {successor}: reassign all of "
    "{leaver_first}'s open tickets to {successor_first}, give {successor_first} edit access to my documents that "
    "{leaver_first} can edit, and decline {leaver_first}'s meetings after their last day.",
    "Offboarding for {leaver}: their last day is {day} and {successor} takes over. Move every open ticket of theirs to "
    "{successor_first}, share each of my docs {leaver_first} has edit rights on with {successor_first} as editor, and "
    "decline the meetings {leaver_first} organized for after {day}.",
    "Can you do the handover from {leaver_first} to {successor_first}? {leaver_first} leaves after {day}. Open tickets "
    "go to {successor_first}; {successor_first} needs edit access wherever {leaver_first} could edit my documents; "
    "and please decline {leaver_first}'s invitations for any meeting after {day}.",
]

OPEN = ("todo", "in_progress", "in_review", "blocked")
CLOSED = ("done", "cancelled")


@register
class Offboard(Family):
    """The task family of offboarding a colleague: tickets reassigned, documents handed over, meetings declined."""

    name = "offboard"
    title = "Offboard a colleague: reassign tickets, hand over documents, decline their meetings"
    apps = ("tickets", "docs", "calendar")
    knobs = {"steps": (1, 2, 3), "distractors": (0, 1, 2)}
    split_params = ("tickets_added", "distractors", "last_day", "statuses", "phrasing")
    phrasings = len(INSTRUCTIONS)

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        candidates = list(org.people[1:-1])  # not the directory's owner nor the offsite's organizer
        users = {u["email"] for u in org.apps["tickets"]["users"]}
        candidates = [p for p in candidates if p.email in users]
        if org.edition >= 2:  # a leaver or successor sharing the persona's first name would be ambiguous
            firsts = [p.first_name for p in candidates]
            candidates = [
                p for p in candidates if p.first_name != org.persona.first_name and firsts.count(p.first_name) == 1
            ]
        if len(candidates) < 2:
            return None
        leaver, successor = rng.sample(candidates, 2)
        steps, distractors = knobs.get("steps", 1), knobs.get("distractors", 0)
        last = rng.randint(1, 4)
        while org.edition >= 2 and org.day(last).weekday() >= 5:  # edition 2: the last day is a working day
            last += 1
        projects = [p["key"] for p in org.apps["tickets"]["projects"]]
        text = fake(rng)
        params = {
            "leaver": leaver.email,
            "successor": successor.email,
            "last_day": last,
            "tickets_added": steps,
            "docs_added": max(1, steps - 1),
            "meetings_added": steps,
            "distractors": distractors,
            "projects": [rng.choice(projects) for _ in range(steps + distractors)],
            "titles": [text.bs().capitalize() for _ in range(4 * steps + 4 * distractors + 4)],
            "statuses": [rng.choice(OPEN) for _ in range(steps)],
            "closed": [rng.choice(CLOSED) for _ in range(distractors)],
            "hours": [rng.choice(["10:00", "11:30", "14:00", "15:30"]) for _ in range(steps + distractors)],
            "phrasing": rng.randrange(len(INSTRUCTIONS)),
        }
        if org.edition < 2:
            return params
        if org.edition >= 3:  # edition 3: the persona's own 1:1s with the leaver, a handover folder
            params["cancel_one_on_ones"] = rng.random() < 0.5
            params["delete_one_on_ones"] = rng.random() < 0.5  # the reference deletes them; cancelling is as right
            params["handover_folder"] = rng.random() < 0.5
        writer = vocab.Writer.of(org, rng)  # edition 2: titles in the organization's industry words
        params["titles"] = [writer.ticket()[1] for _ in params["titles"]]
        return phrasing.stamp(params, rng, lambda p: _word(org, p))

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        leaver, successor = org.person(params["leaver"]), org.person(params["successor"])
        last = org.day(params["last_day"])
        titles = list(params["titles"])
        _seed_tickets(org, params, leaver, successor, titles)
        _seed_docs(org, params, leaver, titles)
        _seed_meetings(org, params, leaver, titles)
        mine = extra3.seed_one_on_ones(org, params, leaver) if params.get("cancel_one_on_ones") else []
        if params.get("handover_folder"):
            org.apps["docs"]["folders"].append({"id": "handover-folder", "name": extra3.folder_name(leaver)})
        open_keys, closed_keys, doc_ids, later = _handover(org, leaver, last)
        draft = Draft(
            org,
            title=f"Offboard {leaver.name}",
            instruction="",
            tags=["generated", "offboard", "tickets", "docs", "calendar", "multi-app"],
        )
        if org.edition >= 2:
            draft.instruction = _word(org, params).text
        else:
            draft.instruction = phrase(
                INSTRUCTIONS,
                params["phrasing"],
                leaver=leaver.name,
                leaver_first=leaver.first_name,
                successor=successor.name,
                successor_first=successor.first_name,
                day=human_day(last),
            )
        draft.description = (
            f"{leaver.name} leaves after {human_day(last)}: {len(open_keys)} open ticket(s) to {successor.name}, "
            f"{len(doc_ids)} document(s) shared with them as editor, {len(later)} meeting(s) declined."
        )
        _stages(draft, leaver, successor, open_keys, closed_keys, doc_ids, later)
        oracle: list[dict[str, Any]] = [
            {"tool": "tickets__search_tickets", "args": {"assignee": leaver.email, "resolved": False}},
        ]
        oracle += [
            {"tool": "tickets__assign_ticket", "args": {"key": key, "assignee": successor.email}} for key in open_keys
        ]
        docs = org.apps["docs"]["documents"]
        already = {
            d["id"]
            for d in docs
            if any(s["email"] == successor.email and s["role"] == "editor" for s in d.get("shared_with", []))
        }
        oracle += [
            {"tool": "docs__share_document", "args": {"document_id": doc, "email": successor.email, "role": "editor"}}
            for doc in doc_ids
            if doc not in already
        ]
        oracle += [
            {"tool": "calendar__respond_to_event", "args": {"event_id": event, "response": "declined"}}
            for event in later
        ]
        if params.get("handover_folder"):
            oracle += extra3.into_folder(draft, doc_ids, leaver)
        if mine:
            oracle += extra3.cancelled(draft, mine, leaver, last, delete=bool(params.get("delete_one_on_ones")))
        draft.oracle = oracle
        draft.limits = {
            "max_tool_calls": 30
            + 2 * (len(open_keys) + len(doc_ids) + len(later))
            + 2 * (len(mine) + (len(doc_ids) if params.get("handover_folder") else 0)),
            "timeout_s": 600,
        }
        return broaden(draft, params)


def _seed_tickets(
    org: Organization, params: dict[str, Any], leaver: Person, successor: Person, titles: list[str]
) -> None:
    """The leaver's open tickets, and distractors: their closed tickets and others' open ones in the same projects."""
    me = org.persona
    tickets = org.apps["tickets"]
    numbers: dict[str, int] = {}
    for t in tickets["tickets"]:
        project, _, n = t["key"].rpartition("-")
        numbers[project] = max(numbers.get(project, 0), int(n))

    def new_ticket(project: str, status: str, assignee: str) -> str:
        numbers[project] = numbers.get(project, 0) + 1
        key = f"{project}-{numbers[project]}"
        created = org.start - timedelta(days=10 + numbers[project] % 7)
        row = {
            "key": key,
            "title": titles.pop(0),
            "description": f"Owned by {org.person(assignee).name}.",
            "type": "task",
            "status": status,
            "priority": "medium",
            "assignee": assignee,
            "reporter": me.email,
            "created_at": iso(created),
            "updated_at": iso(created + timedelta(days=1)),
        }
        if status in CLOSED:
            row["resolution"] = "done" if status == "done" else "wont_do"
        tickets["tickets"].append(row)
        return key

    steps, distractors = params["tickets_added"], params["distractors"]
    for i in range(steps):
        new_ticket(params["projects"][i], params["statuses"][i], leaver.email)
    for i in range(distractors):
        new_ticket(params["projects"][steps + i], params["closed"][i], leaver.email)
        others = [p for p in org.people if p.email not in (leaver.email, successor.email)]
        new_ticket(params["projects"][steps + i], "in_progress", others[i % len(others)].email)


def _seed_docs(org: Organization, params: dict[str, Any], leaver: Person, titles: list[str]) -> None:
    """Docs the leaver edits (to hand over), and distractors they only read."""
    me, docs = org.persona, org.apps["docs"]["documents"]
    for i in range(params["docs_added"]):
        docs.append(
            {
                "id": f"handover-{i + 1}",
                "title": titles.pop(0),
                "owner": me.email,
                "shared_with": [{"email": leaver.email, "role": "editor"}],
                "content": f"# Notes\n\nKept up to date by {leaver.name} and {me.name}.\n",
                "updated_at": iso(org.start - timedelta(days=3 + i)),
            }
        )
    for i in range(params["distractors"]):
        docs.append(
            {
                "id": f"read-only-{i + 1}",
                "title": titles.pop(0),
                "owner": me.email,
                "shared_with": [{"email": leaver.email, "role": "viewer"}],
                "content": "# Reference\n\nFor reading.\n",
                "updated_at": iso(org.start - timedelta(days=5 + i)),
            }
        )


def _seed_meetings(org: Organization, params: dict[str, Any], leaver: Person, titles: list[str]) -> None:
    """The leaver's meetings with the persona after the last day (to decline), and distractors before it."""
    me, events = org.persona, org.apps["calendar"]["events"]
    for i in range(params["meetings_added"] + params["distractors"]):
        after = i < params["meetings_added"]
        day = org.day(params["last_day"] + 1 + i) if after else org.day(min(i, params["last_day"]))
        start = org.at(day, params["hours"][i])
        events.append(
            {
                "id": f"leaver-mtg-{i + 1}",
                "title": f"{leaver.first_name} / {me.first_name}: {titles.pop(0) if titles else 'sync'}",
                "start": iso(start),
                "end": iso(start + timedelta(minutes=30)),
                "organizer": leaver.email,
                "attendees": [{"email": me.email, "response": "accepted"}],
            }
        )


def _handover(org: Organization, leaver: Person, last: date) -> tuple[list[str], list[str], list[str], list[str]]:
    """What the organization now holds, the organization's own rows included: the leaver's open and closed ticket keys, the
    persona's docs the leaver edits, and the leaver's meetings with the persona after the last day."""
    me, tickets = org.persona, org.apps["tickets"]
    docs, events = org.apps["docs"]["documents"], org.apps["calendar"]["events"]
    open_keys = sorted(
        t["key"] for t in tickets["tickets"] if t.get("assignee") == leaver.email and t.get("status", "todo") in OPEN
    )
    closed_keys = sorted(
        t["key"] for t in tickets["tickets"] if t.get("assignee") == leaver.email and t.get("status") in CLOSED
    )
    doc_ids = sorted(
        d["id"]
        for d in docs
        if d.get("owner") == me.email
        and not d.get("trashed")
        and any(s["email"] == leaver.email and s["role"] == "editor" for s in d.get("shared_with", []))
    )
    cutoff = org.at(last + timedelta(days=1), "00:00")
    later = sorted(
        e["id"]
        for e in events
        if e.get("organizer") == leaver.email
        and e.get("status", "confirmed") != "cancelled"
        and _start(org, e) >= cutoff
        and any(_email(a) == me.email for a in e.get("attendees", []))
    )
    return open_keys, closed_keys, doc_ids, later


def _stages(
    draft: Draft,
    leaver: Person,
    successor: Person,
    open_keys: list[str],
    closed_keys: list[str],
    doc_ids: list[str],
    later: list[str],
) -> None:
    """A stage per part of the handover (tickets, docs, meetings), and the changes each allows."""
    me = draft.org.persona
    draft.stage(
        "open tickets reassigned",
        [
            {
                "name": f"{key} is assigned to {successor.name}",
                "app": "tickets",
                "table": "tickets",
                "where": {"key": key, "assignee": successor.email},
            }
            for key in open_keys
        ]
        + [
            {
                "name": f"{key} (closed) stays with {leaver.name}",
                "app": "tickets",
                "table": "tickets",
                "where": {"key": key, "assignee": leaver.email},
            }
            for key in closed_keys
        ],
        weight=max(1, len(open_keys)),
    )
    draft.stage(
        "documents handed over",
        [
            {
                "name": f"{doc} is shared with {successor.name} as editor",
                "app": "docs",
                "table": "documents",
                "where": {"id": doc, "shared_with": {"has": {"email": successor.email, "role": "editor"}}},
            }
            for doc in doc_ids
        ],
        weight=max(1, len(doc_ids)),
    )
    draft.stage(
        "later meetings declined",
        [
            {
                "name": f"{event} is declined",
                "app": "calendar",
                "table": "events",
                "where": {"id": event, "attendees": {"has": {"email": me.email, "response": "declined"}}},
            }
            for event in later
        ],
        weight=max(1, len(later)),
    )
    shares = {d["id"]: d.get("shared_with", []) for d in draft.org.apps["docs"]["documents"] if d["id"] in doc_ids}
    draft.forbid += [
        {
            "name": f"{doc} keeps {share['email']}'s access (the handover adds, it takes nothing away)",
            "app": "docs",
            "table": "documents",
            "where": {"id": doc, "shared_with": {"not": {"has": {"email": share["email"]}}}},
        }
        for doc in doc_ids
        for share in shares.get(doc, [])
    ]
    draft.allow = {
        "tickets": {"tickets": {"changed": ["assignee"], "where": {"key": {"one_of": open_keys}}}},
        "docs": {"documents": {"changed": ["shared_with"], "where": {"id": {"one_of": doc_ids or ["-"]}}}},
        "calendar": {"events": {"changed": ["attendees"], "where": {"id": {"one_of": later}}}},
    }


def _email(attendee: Any) -> str:
    return attendee["email"] if isinstance(attendee, dict) else str(attendee)


def _start(org: Organization, event: dict[str, Any]) -> Any:
    from datetime import datetime  # noqa: PLC0415

    value = event["start"]
    if len(value) == 10:
        return org.at(datetime.fromisoformat(value).date(), "00:00")
    return datetime.fromisoformat(value)


# -- edition 2: instructions composed from parts (phrasing.compose) --------------------------------------------------

LEAVE = phrasing.Phrasebook(
    requests=[
        "{leaver} is leaving; {day} is their last day. Please hand their work over to {successor}: reassign all of "
        "{leaver_first}'s open tickets to {successor_first}, give {successor_first} edit access to my documents that "
        "{leaver_first} can edit, and decline {leaver_first}'s meetings after their last day.",
        "Offboarding for {leaver}: their last day is {day} and {successor} takes over. Move every open ticket of "
        "theirs to {successor_first}, share each of my docs {leaver_first} has edit rights on with {successor_first} "
        "as editor, and decline the meetings {leaver_first} organized for after {day}.",
        "Can you do the handover from {leaver_first} to {successor_first}? {leaver_first} leaves after {day}. Open "
        "tickets go to {successor_first}; {successor_first} needs edit access wherever {leaver_first} could edit my "
        "documents; and please decline {leaver_first}'s invitations for any meeting after {day}.",
        "{leaver_first} finishes on {day}, and {successor} is picking up their work. Please reassign "
        "{leaver_first}'s open tickets to {successor_first}, make {successor_first} an editor on every doc of mine "
        "that {leaver_first} can edit, and decline {leaver_first}'s meetings after {day}.",
        "Could you sort out {leaver}'s handover? Last day: {day}. Successor: {successor}. That means: open tickets "
        "reassigned to {successor_first}, edit access for {successor_first} on my documents {leaver_first} can edit, "
        "and {leaver_first}'s meetings after {day} declined.",
        "Please hand {leaver_first}'s work to {successor_first}; {leaver_first}'s last day is {day}. Every open "
        "ticket assigned to {leaver_first} goes to {successor_first}, {successor_first} gets edit rights on my docs "
        "that {leaver_first} can edit, and I decline {leaver_first}'s meetings that come after {day}.",
        "With {leaver} leaving after {day}, can you move their open tickets to {successor}, share with "
        "{successor_first} as editor every document of mine that {leaver_first} can edit, and decline "
        "{leaver_first}'s meetings after that day?",
        "Handover time: {leaver_first} is off after {day} and {successor_first} inherits their work. Reassign the "
        "open tickets, give {successor_first} edit access to my docs {leaver_first} edits, and decline "
        "{leaver_first}'s meetings scheduled after {day}.",
        "I need {leaver}'s offboarding done. They leave after {day}. {successor} should get all of {leaver_first}'s "
        "open tickets and edit access to my documents {leaver_first} can edit; decline {leaver_first}'s meetings "
        "after {day} for me.",
        "Please transfer {leaver_first}'s open tickets to {successor_first}, add {successor_first} as an editor to my "
        "docs that {leaver_first} can edit, and decline any of {leaver_first}'s meetings after {day}, which is "
        "{leaver_first}'s last day.",
        "Could you take care of the handover from {leaver} to {successor}? {leaver_first}'s last day is {day}. Open "
        "tickets to {successor_first}, editor access for {successor_first} on my documents where {leaver_first} is "
        "an editor, and decline {leaver_first}'s meetings after {day}.",
        "{leaver_first} is moving on ({day} is the last day). Please make {successor_first} the assignee of all "
        "{leaver_first}'s open tickets, give {successor_first} edit access to my docs {leaver_first} can edit, and "
        "decline {leaver_first}'s meetings after {day}.",
        "Can you handle offboarding {leaver_first}? {successor} takes over from them after {day}. Reassign their "
        "open tickets, share my documents they can edit with {successor_first} (edit rights), and decline their "
        "meetings after {day}.",
        "Please do the usual leaver handover for {leaver}: last day {day}, successor {successor}. Open tickets move "
        "to {successor_first}; {successor_first} becomes an editor of my documents {leaver_first} can edit; "
        "{leaver_first}'s meetings after {day} get declined.",
        "{successor_first} is taking over from {leaver_first}, who leaves after {day}. Could you reassign "
        "{leaver_first}'s open tickets to {successor_first}, give {successor_first} edit access to each doc of mine "
        "{leaver_first} can edit, and decline {leaver_first}'s meetings after {day}?",
        "Offboard {leaver_first}, please. Last day {day}. Hand the open tickets to {successor_first}, give "
        "{successor_first} editor access to my docs that {leaver_first} can edit, decline {leaver_first}'s meetings "
        "after {day}.",
        "Would you hand over {leaver}'s work to {successor}? {leaver_first} is gone after {day}. All open tickets to "
        "{successor_first}, edit access for {successor_first} on my documents {leaver_first} can edit, and decline "
        "{leaver_first}'s meetings after {day}.",
        "Please get {successor_first} set up to cover for {leaver_first}, who leaves after {day}: reassign "
        "{leaver_first}'s open tickets to them, give them edit access to my documents {leaver_first} can edit, and "
        "decline {leaver_first}'s meetings after {day}.",
        "Before {leaver_first} leaves ({day} is the last day), can you move their open tickets to {successor}, make "
        "{successor_first} an editor on my docs {leaver_first} can edit, and decline {leaver_first}'s meetings after "
        "{day}?",
        "Leaver handover: {leaver} (last day {day}) to {successor}. Open tickets reassigned, edit access on my docs "
        "where {leaver_first} can edit, {leaver_first}'s meetings after {day} declined. Can you do that?",
        "---------- Forwarded message ----------\nSubject: {leaver}'s last day\n\n{leaver_first}'s last day is {day}; "
        "{successor} takes over.\n----------\n\nCan you do the handover? Reassign {leaver_first}'s open tickets to "
        "{successor_first}, give {successor_first} edit access to my documents {leaver_first} can edit, and decline "
        "{leaver_first}'s meetings after {day}.",
        "Forwarding the news that {leaver} leaves after {day} and {successor} takes over. Please reassign "
        "{leaver_first}'s open tickets to {successor_first}, share my docs {leaver_first} can edit with "
        "{successor_first} as editor, and decline {leaver_first}'s meetings after {day}.",
    ],
    openers=[
        "Sad news, but we need to plan for it.",
        "HR confirmed the dates.",
        "{leaver_first} handed in their notice.",
        "Team changes coming up.",
        "I want a clean handover this time.",
        "Let's make sure nothing falls through the cracks.",
        "{successor_first} agreed to take this on.",
        "Admin for a leaver.",
        "I've been putting this off.",
        "Please help me with a handover.",
        "People changes on the team.",
        "Offboarding admin.",
        "{leaver_first}'s leaving do is next week.",
        "The org chart is changing again.",
        "{leaver_first} is moving to another company.",
        "We're losing a good one.",
        "I promised {successor_first} a smooth start.",
    ],
    closers=[
        "Leave closed tickets as they are.",
        "Only open tickets need to move.",
        "Don't decline meetings before {day}.",
        "Documents {leaver_first} can only view don't need changing.",
        "Don't touch other people's tickets.",
        "Don't remove {leaver_first}'s access, just add {successor_first}'s.",
        "Keep meetings on or before {day} as they are.",
        "Don't reassign anything that's already done.",
        "Edit access only, not ownership.",
        "Nothing else needs to change.",
        "Leave other colleagues' work alone.",
        "Only my documents.",
        "Don't reassign tickets that belong to other people.",
        "Keep {leaver_first}'s meetings up to {day} as they are.",
    ],
)
PHRASEBOOKS = {"leave": LEAVE}
"""Edition 2's phrasebooks by intent."""


def _word(org: Organization, params: dict[str, Any]) -> phrasing.Composition:
    """The edition-2 instruction of these parameters (the same in `sample` and `build`)."""
    leaver, successor = org.person(params["leaver"]), org.person(params["successor"])
    values = {
        "leaver": leaver.name,
        "leaver_first": leaver.first_name,
        "successor": successor.name,
        "successor_first": successor.first_name,
        "day": human_day(org.day(params["last_day"])),
    }
    made = phrasing.word(org, params["wording"], "offboard", "leave", LEAVE, values)
    extra, ids = [], []
    for kind, parts in (("cancel", extra3.CANCEL), ("folder", extra3.FOLDER)):
        if params.get({"cancel": "cancel_one_on_ones", "folder": "handover_folder"}[kind]):
            text, part = phrasing.pick(org, params["wording"], "offboard", "leave", kind, parts)
            extra.append(text.format(**values, folder=extra3.folder_name(leaver)))
            ids.append(part)
    if not extra:
        return made
    return phrasing.Composition(" ".join([made.text, *extra]), made.template, made.parts + tuple(ids))
