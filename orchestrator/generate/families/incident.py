"""incident: turn an incident thread into a follow-up ticket, a status mail and a postmortem document.

Yesterday a service of the organization failed; the responders worked it out
in a mail thread the persona is copied on: when it started, what the cause
was, who owns the fix, when it was resolved. The persona is asked to file a
bug ticket for the fix (in the team's project, assigned to the owner the
thread names, at the priority it asks for), start a postmortem document in
the Postmortems folder with the cause and the timeline (shared with the
responders as commenters, a step knob), and send the status update to the
address the thread gives, naming the ticket. Distractors are older incident
threads about other services with other owners, causes and times.

Judged by role and by value: the one new ticket's project, type, priority
and assignee; the one new document's folder, its cause (the cause's two key
terms) and its timeline (start and resolution times, parsed); the status
mail's recipients, the resolution time it states (parsed, any format or
zone) and the new ticket's key.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from orchestrator.generate import phrasing
from orchestrator.generate.build import Organization, Person, iso
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.family import Draft, Family, human_day, join, phrase, register

INSTRUCTIONS = [
    "Yesterday's {service} incident is over. Please wrap it up the way {lead} asks in the incident thread: file the "
    "bug ticket for the fix, start the postmortem doc, and send the status update.",
    "Can you do the follow-up for the {service} outage from yesterday? Everything is in the incident mail thread: "
    "a bug ticket for the fix, a postmortem document, and the status mail {lead} asked for.",
    "Please take care of the paperwork for yesterday's {service} incident, as {lead} listed it at the end of the "
    "thread (ticket, postmortem, status update).",
    "{lead} wants the {service} incident closed out: read the thread, then file the fix ticket, write up the "
    "postmortem and send the status update as described there.",
]

CAUSES = [
    (
        "a config change that cut the {service} database connection pool from {a} to {b} connections",
        ["connection pool", "{b}"],
    ),
    ("the TLS certificate of {host} expired and clients refused to connect", ["certificate", "{host}"]),
    ("database migration {n} took a lock on the {table} table for the whole deploy", ["{n}", "lock"]),
    ("the disk of {host} filled up with debug logs", ["disk", "{host}"]),
    ("a retry storm from the {table} worker overloaded the {service} API after a deploy", ["retry", "{table}"]),
]

PRIORITIES = ("high", "highest")
OPEN_MINUTES = (25, 40, 55, 70, 95)


def _service(rng: random.Random, words: list[str]) -> str:
    return f"{rng.choice(words)}-{rng.choice(['api', 'service', 'gateway', 'sync', 'search'])}"


@register
class Incident(Family):
    """The task family of an incident thread turned into a ticket, a status mail and a postmortem."""

    name = "incident"
    title = "Turn an incident thread into a ticket, a status mail and a postmortem"
    apps = ("mail", "tickets", "docs")
    knobs = {"distractors": (0, 1, 2), "steps": (3, 4)}
    split_params = ("cause", "priority", "steps", "phrasing", "responders_count")
    phrasings = len(INSTRUCTIONS)

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        team = [p for p in org.people if p.team == org.persona.team]
        if len(team) < 2 or len(org.people) < 4:
            return None
        projects = [p["key"] for p in org.apps["tickets"]["projects"]]
        words = sorted(
            {w for w in (p["name"] for p in org.apps["tickets"]["projects"])}
            | {"orbit", "ledger", "atlas", "relay", "beacon", "harbor", "quartz"}
        )
        words = [w.lower() for w in words if w.isalpha()]
        responders = sorted(rng.sample(org.people, rng.choice([2, 3])), key=lambda p: p.email)
        lead, owner = responders[0], responders[-1]
        service = _service(rng, words)
        cause = rng.randrange(len(CAUSES))
        back = -1  # edition 3: the day before, weekend or not (every composite says "yesterday's incident")
        while org.edition == 2 and org.day(back).weekday() >= 5:  # edition 2: the last working day
            back -= 1
        begin = org.at(org.day(back), f"{rng.randint(9, 15):02d}:{rng.choice(['05', '12', '20', '35', '48'])}")
        minutes = rng.choice(OPEN_MINUTES)
        distractors = []
        for d in range(knobs.get("distractors", 0)):
            other = _service(rng, words)
            if other == service:
                continue
            who = rng.choice([p for p in org.people if p not in responders] or org.people)
            distractors.append(
                {
                    "service": other,
                    "cause": (cause + d + 1) % len(CAUSES),
                    "owner": who.email,
                    "days_ago": 3 + 4 * d,
                    "minutes": rng.choice(OPEN_MINUTES),
                }
            )
        params = {
            "service": service,
            "cause": cause,
            "responders": [p.email for p in responders],
            "lead": lead.email,
            "owner": owner.email,
            "start": iso(begin),
            "minutes": minutes,
            "project": projects[0],
            "priority": rng.choice(PRIORITIES),
            "steps": knobs.get("steps", 3),
            "phrasing": rng.randrange(len(INSTRUCTIONS)),
            "status_to": f"status@{org.domain}",
            "n": rng.randint(100, 999),
            "a": 50,
            "b": rng.choice([4, 5, 8]),
            "host": f"{rng.choice(words)}-{rng.randint(1, 9)}.{org.domain}",
            "table": rng.choice(words),
            "distractors": distractors,
            "responders_count": len(responders),
        }
        return params if org.edition < 2 else phrasing.stamp(params, rng, lambda p: _word(org, p))

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        inc = IncidentFacts.of(org, params)
        self._seed_threads(inc)
        draft = _draft(inc)
        draft.add("docs", "folders", {"id": "postmortems", "name": "Postmortems"})
        draft.stage("the fix is ticketed", _ticket_checks(inc), weight=1.5)
        draft.stage("the postmortem is started", _doc_checks(inc), weight=2)
        draft.stage("the status update is out", _mail_checks(inc), weight=1.5)
        draft.allow = {
            "tickets": {"tickets": {"added": True, "where": {"project": inc.project}}},
            "docs": {"documents": {"added": True}},
            "mail": {"messages": {"added": True}},
        }
        draft.oracle = _oracle(inc)
        draft.limits = {"max_tool_calls": 40, "timeout_s": 600}
        return broaden(draft, params)

    def _seed_threads(self, inc: IncidentFacts) -> None:
        """Older incidents' threads first (distractors), then this one's, which asks for the close-out."""
        org, params = inc.org, inc.params
        for i, other in enumerate(params["distractors"]):
            o_cause, _ = CAUSES[other["cause"]]
            o_begin = inc.begin - timedelta(days=other["days_ago"])
            self._thread(
                org,
                f"inc-old-{i}",
                f"Incident: {other['service']} errors",
                other["service"],
                o_cause.format(**{**inc.values, "service": other["service"]}),
                org.person(other["owner"]),
                org.person(other["owner"]),
                inc.responders[:1],
                o_begin,
                o_begin + timedelta(minutes=other["minutes"]),
                None,
                inc.project,
                "high",
            )
        self._thread(
            org,
            "inc",
            inc.subject,
            params["service"],
            inc.cause,
            inc.lead,
            inc.owner,
            inc.responders,
            inc.begin,
            inc.resolved,
            (params["status_to"], inc.share),
            inc.project,
            inc.priority,
        )

    def _thread(
        self,
        org: Organization,
        prefix: str,
        subject: str,
        service: str,
        cause: str,
        lead: Any,
        owner: Any,
        responders: list[Any],
        begin: datetime,
        resolved: datetime,
        ask: tuple[str, bool] | None,
        project: str,
        priority: str,
    ) -> None:
        me = org.persona
        to = [me.email, *[p.email for p in responders if p is not lead]]
        others = [p for p in responders if p is not lead and p is not owner]
        bodies = [
            (
                lead,
                begin + timedelta(minutes=3),
                f"{service} started failing at {begin:%H:%M} ({me.timezone}): most requests error out. I'm on it"
                + (f"; {owner.first_name} is looking too." if owner is not lead else "."),
            ),
            (
                owner,
                begin + timedelta(minutes=(resolved - begin).seconds // 120),
                f"Found it: {cause}. Working on a mitigation.",
            ),
        ]
        if others:
            bodies.append(
                (others[0], resolved - timedelta(minutes=4), "Customer-facing error rate is dropping here too.")
            )
        closing = f"Resolved at {resolved:%H:%M} ({me.timezone}); error rates are back to normal."
        if ask is not None:
            address, share = ask
            closing += (
                f"\n\n{me.first_name}, could you wrap this up? Please file a bug in {project} for the real fix, "
                f"assigned to {owner.first_name}, priority {priority}; start a postmortem doc in the Postmortems "
                "folder with the cause and the timeline"
                + (f", shared with {join([p.first_name for p in responders])} as commenters" if share else "")
                + f"; and send the status update to {address} with the ticket number and when it was resolved."
            )
        bodies.append((lead, resolved + timedelta(minutes=10), closing))
        previous = None
        for i, (who, when, text) in enumerate(bodies):
            row = {
                "id": f"{prefix}-{i}",
                "from": who.address_line,
                "to": [p for p in to if p != who.email] or [me.email],
                "subject": subject if i == 0 else f"Re: {subject}",
                "sent_at": iso(when),
                "body": f"{text}\n\n{who.first_name}",
                "is_read": ask is None,
            }
            if previous:
                row["in_reply_to"] = previous
            previous = row["id"]
            org.apps["mail"]["messages"].append(row)


def _escape(term: str) -> str:
    return re.escape(term)


@dataclass
class IncidentFacts:
    """One drawn incident: who responded, led and owns the fix, when it began and was resolved, and its cause."""

    org: Organization
    params: dict[str, Any]
    responders: list[Person]
    lead: Person
    owner: Person
    begin: datetime
    resolved: datetime
    values: dict[str, Any]
    cause: str
    key_terms: list[str]
    project: str
    priority: str
    share: bool
    day: str
    subject: str

    @classmethod
    def of(cls, org: Organization, params: dict[str, Any]) -> IncidentFacts:
        begin = datetime.fromisoformat(params["start"])
        cause_text, terms = CAUSES[params["cause"]]
        values = {k: params[k] for k in ("service", "n", "a", "b", "host", "table")}
        return cls(
            org,
            params,
            [org.person(e) for e in params["responders"]],
            org.person(params["lead"]),
            org.person(params["owner"]),
            begin,
            begin + timedelta(minutes=params["minutes"]),
            values,
            cause_text.format(**values),
            [t.format(**values) for t in terms],
            params["project"],
            params["priority"],
            params["steps"] >= 4,
            human_day(begin),
            f"Incident: {params['service']} errors",
        )


def _draft(inc: IncidentFacts) -> Draft:
    params, begin, resolved = inc.params, inc.begin, inc.resolved
    if inc.org.edition >= 2:
        instruction = _word(inc.org, params).text
    else:
        instruction = phrase(INSTRUCTIONS, params["phrasing"], service=params["service"], lead=inc.lead.first_name)
    return Draft(
        inc.org,
        title=f"Close out the {params['service']} incident",
        instruction=instruction,
        description=f"From the incident thread about {params['service']} ({inc.day}): a {inc.priority}-priority bug "
        f"for {inc.owner.name} in {inc.project}, a postmortem in Postmortems with the cause ({inc.cause}) and the "
        f"timeline {begin:%H:%M}-{resolved:%H:%M}"
        + (", shared with the responders" if inc.share else "")
        + f", and a status mail to {params['status_to']} naming the ticket.",
        tags=["generated", "incident", "mail", "tickets", "docs", "multi-app"],
    )


def _ticket_checks(inc: IncidentFacts) -> list[dict[str, Any]]:
    project, owner, priority, service = inc.project, inc.owner, inc.priority, inc.params["service"]
    terms = list(inc.key_terms)
    return [
        {
            "name": f"one new bug in {project} for {owner.name} at {priority} priority",
            "app": "tickets",
            "table": "tickets",
            "added": True,
            "expect": {
                "count": 1,
                "all": {"project": project, "type": "bug", "priority": priority, "assignee": owner.email},
            },
        },
        {
            "name": f"it is about the incident ({service} or its cause)",
            "app": "tickets",
            "table": "tickets",
            "added": True,
            "where": {
                "any": [
                    *(
                        {column: {"says": {"phrase": [service, *terms], "claimed": False}}}
                        for column in ("title", "description")
                    ),
                    {"labels": {"has": {"icontains": service}}},
                ]
            },
        },
    ]


def _doc_checks(inc: IncidentFacts) -> list[dict[str, Any]]:
    begin, resolved, day, key_terms = inc.begin, inc.resolved, inc.day, inc.key_terms
    doc_checks: list[dict[str, Any]] = [
        {
            "name": "one new postmortem, in the Postmortems folder",
            "app": "docs",
            "table": "documents",
            "added": True,
            "expect": {"count": 1, "all": {"folder_id": "postmortems"}},
        },
        {
            "name": f"it gives the cause ({' and '.join(key_terms)})",
            "app": "docs",
            "table": "documents",
            "added": True,
            "where": {"content": {"says": {"phrase": list(key_terms), "all": True, "claimed": False}}},
        },
        {
            "name": f"its timeline runs from {begin:%H:%M} to the resolution at {resolved:%H:%M} on {day}",
            "app": "docs",
            "table": "documents",
            "added": True,
            "where": {"content": {"mentions_time": {"at": iso(begin), "strict": False, "claimed": True}}},
            "expect": {
                "count": 1,
                "all": {"content": {"mentions_time": {"at": iso(resolved), "strict": False, "claimed": True}}},
            },
        },
    ]
    if inc.share:
        doc_checks += [
            {
                "name": f"{p.name} can comment on the postmortem",
                "app": "docs",
                "table": "documents",
                "added": True,
                "where": {"shared_with": {"has": {"email": p.email, "role": "commenter"}}},
            }
            for p in inc.responders
        ]
    return doc_checks


def _mail_checks(inc: IncidentFacts) -> list[dict[str, Any]]:
    to, resolved, day = inc.params["status_to"], inc.resolved, inc.day
    return [
        {
            "name": f"{to} is told the incident was resolved at {resolved:%H:%M} on {day}, and the new ticket",
            "told": {
                "who": [to],
                "facts": [
                    {"mentions_time": {"at": iso(resolved), "strict": False}},
                    {"contains": {"from": {"app": "tickets", "table": "tickets", "added": True, "field": "key"}}},
                ],
            },
        },
    ]


def _oracle(inc: IncidentFacts) -> list[dict[str, Any]]:
    """Read the thread, file the bug, write (and share) the postmortem, send the status mail."""
    me, params, begin, resolved, day, cause = inc.org.persona, inc.params, inc.begin, inc.resolved, inc.day, inc.cause
    owner, to = inc.owner, params["status_to"]
    timeline = "\n".join(
        [
            f"- {begin:%H:%M} errors on {params['service']} start; {inc.lead.name} is paged",
            f"- {(begin + timedelta(minutes=params['minutes'] // 2)):%H:%M} cause found: {cause}",
            f"- {resolved:%H:%M} resolved",
        ]
    )
    content = (
        f"# Postmortem: {params['service']} incident, {day}\n\n## Summary\n{params['service']} failed for "
        f"{params['minutes']} minutes.\n\n## Cause\n{cause[0].upper() + cause[1:]}.\n\n## Timeline ({me.timezone})\n"
        f"{timeline}\n\n## Follow-up\n${{ticket.key}}, owned by {owner.name}.\n"
    )
    oracle: list[dict[str, Any]] = [
        {"tool": "mail__search_messages", "args": {"query": f'subject:"{inc.subject}"'}, "save": "found"},
        {"tool": "mail__get_thread", "args": {"thread_id": "${found.messages.0.thread_id}"}},
        {
            "tool": "tickets__create_ticket",
            "args": {
                "project": inc.project,
                "title": f"Fix the cause of the {params['service']} incident of {day}",
                "description": f"{params['service']} failed on {day}: {cause}. Timeline in the postmortem.",
                "type": "bug",
                "priority": inc.priority,
                "assignee": owner.email,
            },
            "save": "ticket",
            "unchecked": ["title", "description"],
        },
        {
            "tool": "docs__create_document",
            "args": {
                "title": f"Postmortem: {params['service']} incident",
                "content": content,
                "folder_id": "postmortems",
            },
            "save": "doc",
            "unchecked": ["title"],
        },
    ]
    if inc.share:
        oracle += [
            {
                "tool": "docs__share_document",
                "args": {"document_id": "${doc.id}", "email": p.email, "role": "commenter"},
            }
            for p in inc.responders
        ]
    oracle.append(
        {
            "tool": "mail__send_message",
            "args": {
                "to": [to],
                "subject": f"Resolved: {params['service']} incident",
                "body": (
                    f"Hi all,\n\nthe {params['service']} incident of {day} is resolved: it started at {begin:%H:%M} and was "
                    f"resolved at {resolved:%H:%M} ({me.timezone}). The fix is tracked in ${{ticket.key}}, owned by "
                    f"{owner.name}; the postmortem is in progress.\n\n{me.first_name}"
                ),
            },
            "unchecked": ["subject"],
        }
    )
    return oracle


# -- edition 2: instructions composed from parts (phrasing.compose) --------------------------------------------------

WRAPUP = phrasing.Phrasebook(
    requests=[
        "{Whose} {service} incident is over. Please wrap it up the way {lead} asks in the incident thread: file the "
        "bug ticket for the fix, start the postmortem doc, and send the status update.",
        "Can you do the follow-up for the {service} outage {when}? Everything is in the incident mail thread: a bug "
        "ticket for the fix, a postmortem document, and the status mail {lead} asked for.",
        "Please take care of the paperwork for {whose} {service} incident, as {lead} listed it at the end of the "
        "thread (ticket, postmortem, status update).",
        "{lead} wants the {service} incident closed out: read the thread, then file the fix ticket, write up the "
        "postmortem and send the status update as described there.",
        "Could you close out the {service} incident from {when_bare}? {lead}'s last mail in the thread says what's "
        "needed: a bug ticket for the fix, a postmortem doc and a status update.",
        "The {service} outage {when} is resolved. Please do the wrap-up {lead} asked for in the incident thread: the "
        "fix ticket, the postmortem and the status mail.",
        "Incident follow-up for {service}, please. Go through the thread from {when_bare}, file the bug for the real "
        "fix, start the postmortem document and send out the status update, all as {lead} describes.",
        "Can you handle the aftermath of {whose} {service} incident? {lead} spelled out the steps at the end of the "
        "thread: ticket for the fix, postmortem doc, status update.",
        "Please finish off the {service} incident: per {lead}'s mail in the thread, file the follow-up bug, create "
        "the postmortem and send the status update.",
        "{Whose} {service} incident needs closing out. Read the incident thread and do what {lead} asks there: the "
        "bug ticket, the postmortem doc and the status mail.",
        "Would you do the incident admin for {service}? The thread from {when_bare} has everything: a ticket for the "
        "fix, a postmortem, and the status update {lead} wants sent.",
        "Time to wrap up the {service} outage. Following {lead}'s instructions in the incident thread, file the fix "
        "ticket, start the postmortem doc and send the status update.",
        "Please action {lead}'s wrap-up list for the {service} incident {when}: ticket for the fix, postmortem "
        "document, status update. The details are all in the thread.",
        "Can you close the loop on the {service} incident? The incident thread ends with {lead} asking for a bug "
        "ticket, a postmortem doc and a status mail; please do all three.",
        "I need the {service} incident written up and closed: file the ticket for the fix, start the postmortem "
        "and send the status update, the way {lead} asked in the thread.",
        "The {service} incident thread from {when_bare} ends with a to-do list from {lead}. Could you do it: the "
        "bug ticket, the postmortem doc and the status update?",
        "Please do the post-incident tasks for {service} that {lead} listed in the thread: a bug ticket for the fix, "
        "a postmortem document and the status update mail.",
        "{service} went down {when} and it's fixed now. Can you do the follow-ups from {lead}'s last mail in the "
        "thread (ticket, postmortem, status update)?",
        "Wrap-up for {whose} {service} incident: read the thread, then do the three things {lead} asks for at the "
        "end (fix ticket, postmortem, status update).",
        "Could you sort out the {service} incident follow-up? {lead} wants a bug filed for the fix, the postmortem "
        "started and the status update sent; the details are in the incident thread.",
        "---------- Forwarded message ----------\nFrom: {lead}\nSubject: Incident: {service} errors\n\nResolved. "
        "Could you wrap this up? (details in the thread)\n----------\n\nPlease do what {lead} asks in the incident "
        "thread: file the fix ticket, start the postmortem doc and send the status update.",
        "Forwarding {lead}'s ask about the {service} incident: please read the thread and file the bug ticket for "
        "the fix, start the postmortem and send the status update as described.",
    ],
    openers=[
        "The incident is finally over.",
        "That was a long incident, as you saw.",
        "Post-incident admin time.",
        "I'm still catching up after the outage.",
        "{lead} has been chasing me about this.",
        "Things are stable again.",
        "Let's get the incident paperwork done.",
        "I'm on call again today, so I'm short on time.",
        "We said we'd do this properly this time.",
        "Before we forget the details, one for you.",
        "Follow-up from the outage.",
        "Incident hygiene, please.",
    ],
    closers=[
        "Use the times and the cause from the thread.",
        "Make sure the ticket goes to whoever the thread says owns the fix.",
        "Put the postmortem in the Postmortems folder.",
        "Include the ticket number in the status update.",
        "Set the priority the thread asks for.",
        "Don't mix it up with older incidents.",
        "Keep the timeline accurate.",
        "The status update goes to the address in the thread.",
        "One ticket is enough.",
        "Stick to what's in the thread.",
        "Get the resolution time right.",
        "Say in the status update when it was resolved.",
    ],
)
PHRASEBOOKS = {"wrapup": WRAPUP}
"""Edition 2's phrasebooks by intent."""


def _word(org: Organization, params: dict[str, Any]) -> phrasing.Composition:
    """The edition-2 instruction of these parameters (the same in `sample` and `build`)."""
    day = datetime.fromisoformat(params["start"]).date()
    yesterday = (org.start.date() - day).days == 1
    name = f"{day:%A}"
    whose = "yesterday's" if yesterday else f"{name}'s"
    values = {
        "service": params["service"],
        "lead": org.person(params["lead"]).first_name,
        "whose": whose,
        "Whose": whose[:1].upper() + whose[1:],
        "when": "yesterday" if yesterday else f"on {name}",
        "when_bare": "yesterday" if yesterday else f"last {name}",
    }
    return phrasing.word(org, params["wording"], "incident", "wrapup", WRAPUP, values)
