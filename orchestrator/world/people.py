"""People who answer: the `people:` rules of a scenario, compiled to events.

Each rule watches the rows the agent's calls add or change (the gateway
compares an app's state after each successful call that writes) and, the
first time a row matches, schedules a world change `delay` later:

- mail: a message the agent sent to the person (to or cc) matching `match`
  gets a reply in the same thread, its body from the rule's template;
- invitations: an event the agent created or moved that lists the person
  as an attendee gets their response (accept, decline, tentative, or by
  their own busy times in the calendar: decline when busy, else accept);
- tickets: a comment of the agent's matching `match` gets the person's comment
  on the same ticket.

Templates use `$first_name`, `$name` (the person), `$persona`,
`$persona_first` (the user) and `$subject` (of the message answered).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from string import Template
from typing import Any

from orchestrator.scenario.conditions import Context, row_matches
from orchestrator.scenario.model import Scenario
from orchestrator.scenario.worldspec import MailRule, PersonSpec, TicketRule

Row = dict[str, Any]
Snapshot = Mapping[str, list[Row]]


@dataclass
class Reaction:
    """A world change to make `delay` seconds from now."""

    name: str
    app: str
    delay: float
    change: dict[str, Any]


@dataclass
class Watcher:
    """One rule of one person, watching one table."""

    name: str
    app: str
    table: str
    person: PersonSpec
    rule: MailRule | TicketRule | None
    fired: bool = False

    def react(
        self, scenario: Scenario, before: Row | None, after: Row, ctx: Context, state: Mapping[str, Snapshot]
    ) -> Reaction | None:
        if self.fired:
            return None
        if self.app == "mail":
            reaction = _mail(self, scenario, before, after, ctx)
        elif self.app == "calendar":
            reaction = _invitation(self, scenario, before, after, state)
        else:
            reaction = _ticket(self, scenario, before, after, ctx)
        if reaction is not None and self.rule is not None:
            self.fired = True  # mail and ticket rules answer once; invitations answer every time
        return reaction


def compile_people(scenario: Scenario) -> list[Watcher]:
    """The watchers of a scenario's people: one per mail or ticket rule, one for invitations."""
    out: list[Watcher] = []
    for index, person in enumerate(scenario.world.people if scenario.world else []):
        tag = f"person{index}-{person.email.partition('@')[0]}"
        out += [Watcher(f"{tag}-mail{i}", "mail", "messages", person, rule) for i, rule in enumerate(person.mail)]
        if person.invitations:
            out.append(Watcher(f"{tag}-invitations", "calendar", "events", person, None))
        out += [
            Watcher(f"{tag}-ticket{i}", "tickets", "comments", person, rule) for i, rule in enumerate(person.tickets)
        ]
    return out


def _words(scenario: Scenario, person: PersonSpec, subject: str = "") -> dict[str, str]:
    persona = scenario.persona.name or scenario.persona.email
    return {
        "first_name": person.first_name,
        "name": person.name or person.email,
        "persona": persona,
        "persona_first": persona.split()[0] if persona else "",
        "subject": subject,
    }


def _id(prefix: str, *parts: Any) -> str:
    return f"{prefix}_w" + hashlib.blake2s("/".join(map(str, parts)).encode(), digest_size=5).hexdigest()


def _mail(w: Watcher, scenario: Scenario, before: Row | None, after: Row, ctx: Context) -> Reaction | None:
    assert isinstance(w.rule, MailRule)
    if after.get("folder") != "sent" or (before is not None and before.get("folder") == "sent"):
        return None  # a message sent now (new, or a draft just sent), not one sent before
    if w.person.email.lower() not in [a.lower() for a in (after.get("to") or []) + (after.get("cc") or [])]:
        return None
    if not row_matches(after, w.rule.match, ctx.for_app("mail"), "messages"):
        return None
    subject = after.get("subject") or ""
    reply_subject = w.rule.subject or (subject if subject.lower().startswith("re:") else f"Re: {subject}")
    words = _words(scenario, w.person, subject)
    message_id = _id("msg", w.name, after["id"])
    sender = f"{w.person.name} <{w.person.email}>" if w.person.name else w.person.email
    change = {
        "add": {
            "messages": [
                {
                    "id": message_id,
                    "thread_id": after["thread_id"],
                    "from": sender,
                    "to": [scenario.persona.email],
                    "subject": Template(reply_subject).safe_substitute(words),
                    "body": Template(w.rule.reply).safe_substitute(words),
                }
            ]
        },
        "update": [{"table": "messages", "key": message_id, "set": {"in_reply_to": after["id"]}}],
    }
    return Reaction(w.name, "mail", w.rule.delay, change)


def _attendee(row: Row, email: str) -> Row | None:
    for attendee in row.get("attendees") or []:
        if isinstance(attendee, dict) and str(attendee.get("email", "")).lower() == email.lower():
            return attendee
    return None


def _invitation(
    w: Watcher, scenario: Scenario, before: Row | None, after: Row, state: Mapping[str, Snapshot]
) -> Reaction | None:
    person = w.person
    attendee = _attendee(after, person.email)
    if attendee is None or after.get("status") == "cancelled":
        return None
    moved = (
        before is None
        or _attendee(before, person.email) is None
        or any(before.get(k) != after.get(k) for k in ("start", "end"))
    )
    if not moved and attendee.get("response") not in (None, "needsAction"):
        return None
    if (
        not moved
        and before is not None
        and attendee.get("response") == (_attendee(before, person.email) or {}).get("response")
    ):
        return None
    answer = person.invitations
    if answer == "busy":
        answer = "decline" if _busy(state, person.email, after) else "accept"
    response = {"accept": "accepted", "decline": "declined", "tentative": "tentative"}[answer or "accept"]
    change = {
        "update": [
            {
                "table": "events",
                "key": after["id"],
                "items": [
                    {"column": "attendees", "match": {"email": attendee.get("email")}, "set": {"response": response}}
                ],
            }
        ]
    }
    return Reaction(f"{w.name}-{after['id']}-{after.get('start')}", "calendar", person.invitation_delay, change)


def _instant(value: Any) -> datetime | None:
    try:
        when = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


def _busy(state: Mapping[str, Snapshot], email: str, event: Row) -> bool:
    """Whether the person's own calendar (busy times, other events they attend) overlaps the event."""
    start, end = _instant(event.get("start")), _instant(event.get("end"))
    if start is None or end is None:
        return False
    calendar = state.get("calendar", {})
    spans = [
        (b.get("start"), b.get("end"))
        for b in calendar.get("busy", [])
        if str(b.get("email", "")).lower() == email.lower()
    ]
    spans += [
        (e.get("start"), e.get("end"))
        for e in calendar.get("events", [])
        if e.get("id") != event.get("id")
        and e.get("status") != "cancelled"
        and (
            (_attendee(e, email) or {}).get("response") in ("accepted", "tentative")
            or str(e.get("organizer", "")).lower() == email.lower()
        )
    ]
    for s, e in spans:
        s_at, e_at = _instant(s), _instant(e)
        if s_at is not None and e_at is not None and s_at < end and start < e_at:
            return True
    return False


def _ticket(w: Watcher, scenario: Scenario, before: Row | None, after: Row, ctx: Context) -> Reaction | None:
    assert isinstance(w.rule, TicketRule)
    if before is not None or str(after.get("author", "")).lower() != scenario.persona.email.lower():
        return None
    if not row_matches(after, w.rule.match, ctx.for_app("tickets"), "comments"):
        return None
    words = _words(scenario, w.person)
    comment = {
        "ticket_key": after["ticket_key"],
        "author": w.person.email,
        "body": Template(w.rule.comment).safe_substitute(words),
    }
    return Reaction(w.name, "tickets", w.rule.delay, {"add": {"comments": [comment]}})
