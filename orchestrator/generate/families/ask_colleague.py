"""ask-colleague (edition 2): the fact a request needs is known only to a colleague, who answers by mail later.

A colleague (the requester) asks the persona by mail, with a tracking ticket, for one of three things (`kind`):

- `room`: set up a workshop with them and a third colleague on a given day, at the only time all three are free
  (the calendar's free/busy), in a room only the office manager (the expert) can name;
- `budget`: fill in the budget of a plan document, a figure only the finance colleague (the expert) knows;
- `day`: set up a review with them and a colleague (the expert) on the day that suits the expert best, at the only
  time that day all three are free.

The expert answers the persona's mail (any mail to them) some minutes later (a responder in `world:`), naming the
room, the figure or the day; their answer also sets aside a stale guess (the usual room, last year's budget, the
weekday the requester thought they liked) that the request mentions. The persona books the workshop there (or writes the figure into the plan), closes the ticket
and tells the requester. Judged: the event (one, found by its guests and time) or the plan's figure; the ticket
done; the requester told the room or the amount; and, required, the expert's answer read before acting.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from orchestrator.generate import phrasing
from orchestrator.generate.build import Organization, iso
from orchestrator.generate.families import _living as living
from orchestrator.generate.families._ask_colleague_text import QUESTIONS, REQUESTS, ROOMS, TOPICS
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.family import Draft, Family, human_day, register
from orchestrator.generate.scheduling import day_window


@register
class AskColleague(Family):
    """The task family of a request that needs a fact only a colleague knows, asked for by mail and waited for."""

    name = "ask-colleague"
    title = "Ask a colleague for the missing fact, wait for the answer, then act"
    apps = ("mail", "calendar", "docs", "tickets")
    knobs = {"distractors": (0, 1)}
    split_params = ("kind", "template", "topic")
    editions = (2, 3)

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        kind = rng.choice(["room", "budget", "day"])
        people = living.teammates(org, rng, 3, near=True)
        if people is None:
            return None
        requester, expert, guest = people
        params: dict[str, Any] = {
            "kind": kind,
            "requester": requester.email,
            "expert": expert.email,
            "topic": rng.choice(TOPICS),
            "delay": rng.choice([10, 15, 20, 30, 40]),
            "distractors": knobs.get("distractors", 0),
            "number": living.next_number(org, living.project_key(org), rng),
        }
        if kind == "room":
            slot = living.one_slot(org, rng, [requester.email, guest.email], 60, [1, 2, 3])
            if slot is None:
                return None
            room, stale = rng.sample(ROOMS, 2)
            params |= {"guest": guest.email, "day": slot[0], "start": iso(slot[1]), "room": room, "stale": stale}
        elif kind == "day":
            days = [o for o in range(1, 8) if org.day(o).weekday() < 5][:5]
            slot = living.one_slot(org, rng, [requester.email, expert.email], 45, days)
            if slot is None:
                return None
            params |= {
                "day": slot[0],
                "start": iso(slot[1]),
                "stale_day": rng.choice([o for o in days if o != slot[0]]),
            }
        else:
            amount = rng.randrange(40, 400) * 100
            params |= {"amount": amount, "stale_amount": amount + rng.choice([-1, 1]) * rng.randrange(5, 30) * 100}
        phrasing.stamp(params, rng, lambda p: _instruction(org, p))
        return params

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        requester, expert = org.person(params["requester"]), org.person(params["expert"])
        key = f"{living.project_key(org)}-{params['number']}"
        kind = params["kind"]
        room = kind == "room"
        draft = Draft(
            org,
            title=f"Ask {expert.first_name} for the {kind}, then act on the answer",
            instruction=_instruction(org, params).text,
            description=f"{key}: only {expert.name} knows the {kind}; ask by mail, wait for the "
            "answer, act on it, close the ticket and tell the requester.",
            tags=[
                "generated",
                "ask-colleague",
                "living-world",
                "waiting",
                "mail",
                "tickets",
                "docs" if kind == "budget" else "calendar",
            ],
        )
        fact = _fact(org, params)
        draft.extra["world"] = living.world_section(
            people=[
                {
                    "email": expert.email,
                    "name": expert.name,
                    "mail": [{"reply": _answer(org, params, fact), "delay": f"{params['delay']}m"}],
                }
            ]
        )
        token = params["room"] if room else fact
        answer = {"app": "mail", "table": "messages", "where": {"from": expert.email, "body": {"contains": token}}}
        oracle = _start(draft, params, key, requester, expert)
        oracle += {"room": _room, "budget": _budget, "day": _day}[kind](draft, params, requester, answer)
        oracle += _finish(draft, params, key, requester)
        draft.oracle = oracle
        draft.limits = {"max_tool_calls": 50, "timeout_s": 900}
        return broaden(draft, params)


def _money(amount: int) -> str:
    return f"EUR {amount:,}"


def _fact(org: Organization, params: dict[str, Any]) -> str:
    """What the expert's answer names: the room, the amount or the day."""
    if params["kind"] == "day":
        return human_day(org.day(params["day"]))
    return f"the {params['room']} room" if params["kind"] == "room" else _money(params["amount"])


def _values(org: Organization, params: dict[str, Any]) -> dict[str, Any]:
    requester, expert = org.person(params["requester"]), org.person(params["expert"])
    key = f"{living.project_key(org)}-{params['number']}"
    topic = params["topic"]
    if params["kind"] == "day":
        ef, plain = expert.first_name, f"hold a 45-minute {topic} review with {expert.first_name} in the coming days"
        return {
            "r": requester.first_name,
            "e": expert.name,
            "ef": ef,
            "key": key,
            "task": f"set up a 45-minute {topic} review with them and {ef}, on the day that suits {ef} best",
            "task_we": f"book a 45-minute {topic} review with {ef} in the coming days",
            "task_quote": f"can we get the {topic} review with {ef} in the calendar this week or next?",
            "task_plain": plain,
            "task_plain_they": plain,
            "fact": f"the day that suits {ef} best",
            "act": f"book the review that day at the one time {requester.first_name}, {ef} and I are all free",
        }
    if params["kind"] == "room":
        guest = org.person(params["guest"])
        day = human_day(org.day(params["day"]))
        plain = f"hold the one-hour {topic} workshop with {guest.first_name} on {day}"
        return {
            "r": requester.first_name,
            "e": expert.name,
            "ef": expert.first_name,
            "key": key,
            "task": f"set up a one-hour {topic} workshop with them and {guest.first_name} on "
            f"{day}, at the one time the three of us are free",
            "task_we": f"book a one-hour {topic} workshop with {guest.first_name} on {day} when we're all free",
            "task_quote": f"can we get a room for the {topic} workshop with {guest.first_name} on {day}?",
            "task_plain": plain,
            "task_plain_they": plain,
            "fact": "which room we can use",
            "act": f"book the workshop in that room at the time {requester.first_name}, {guest.first_name} and "
            "I are all free",
        }
    return {
        "r": requester.first_name,
        "e": expert.name,
        "ef": expert.first_name,
        "key": key,
        "task": f"fill in the approved budget in the {topic} plan doc",
        "task_we": f"put the approved budget into the {topic} plan",
        "task_quote": f"could you add the approved budget to the {topic} plan?",
        "task_plain": f"fill in the {topic} budget",
        "task_plain_they": f"see the {topic} budget in the plan",
        "fact": f"the approved budget for the {topic}",
        "act": "write that figure into the plan doc's budget line",
    }


def _instruction(org: Organization, params: dict[str, Any]) -> phrasing.Composition:
    return living.compose(org, params["wording"], "ask-colleague", "ask", REQUESTS, _values(org, params))


def _answer(org: Organization, params: dict[str, Any], fact: str) -> str:
    if params["kind"] == "day":
        return (
            f"Hi $persona_first,\n\n{fact} suits me best (not {org.day(params['stale_day']):%A}, I'm out then). Any "
            "time that day is fine if my calendar is free.\n\n$first_name"
        )
    if params["kind"] == "room":
        return (
            f"Hi $persona_first,\n\nnot the {params['stale']} room, that one is being refitted. Take {fact}: it's "
            f"free for the {params['topic']} workshop and I've put your name on it.\n\n$first_name"
        )
    return (
        f"Hi $persona_first,\n\nthe approved budget for the {params['topic']} is {fact} (not last year's "
        f"{_money(params['stale_amount'])}).\n\n$first_name"
    )


def _start(draft: Draft, params: dict[str, Any], key: str, requester: Any, expert: Any) -> list[dict[str, Any]]:
    """The request mail and the ticket; the oracle's reads of them and its question to the expert."""
    org, me, topic = draft.org, draft.org.persona, params["topic"]
    room = params["kind"] == "room"
    if room:
        guest = org.person(params["guest"])
        day = human_day(org.day(params["day"]))
        ask = (
            f"Hi {me.first_name},\n\ncould you set up the {topic} workshop for {requester.first_name}, "
            f"{guest.first_name} and you on {day}, an hour, whenever the three of us are free? We usually take the "
            f"{params['stale']} room, but {expert.first_name} knows what's free these days.\n\nThanks,\n{requester.first_name}"
        )
        title = f"Book a room for the {topic} workshop"
    elif params["kind"] == "day":
        ask = (
            f"Hi {me.first_name},\n\ncould you set up a 45-minute {topic} review with {expert.first_name} and me in the "
            f"coming days? I think {expert.first_name} likes {org.day(params['stale_day']):%A}s, but better ask "
            f"which day suits them best.\n\nThanks,\n{requester.first_name}"
        )
        title = f"Schedule the {topic} review with {expert.first_name}"
    else:
        ask = (
            f"Hi {me.first_name},\n\nthe {topic} plan still says the budget is TBD. Last year it was "
            f"{_money(params['stale_amount'])}, but {expert.first_name} has the approved figure for this year. Could "
            f"you fill it in?\n\nThanks,\n{requester.first_name}"
        )
        title = f"Fill in the {topic} budget"
    living.mail(draft, "request-mail", requester, f"{key}: {title}", ask, 50)
    living.ticket(draft, key, title, f"Requested by {requester.name}. See their mail.", requester)
    if params["distractors"]:
        older = f"Heads-up: {title}" if draft.org.edition >= 3 else f"{title} (older thread)"  # v2: labelled
        living.mail(
            draft,
            "request-older",
            requester,
            older,
            f"Hi {me.first_name},\n\nheads-up, {key} is coming your way.\n\n{requester.first_name}",
            600,
        )
    draft.allow = {
        "mail": {"messages": {"added": True}},
        "tickets": {
            "tickets": {"changed": ["status", "resolution", "resolved_at"], "where": {"key": key}},
            "comments": {"added": True, "where": {"ticket_key": key}},
        },
    }
    return [
        {"tool": "mail__search_messages", "args": {"query": f"from:{requester.email} {key}"}, "save": "req"},
        {"tool": "mail__get_message", "args": {"message_id": "${req.messages.0.id}"}},
        {"tool": "tickets__get_ticket", "args": {"key": key}},
        {
            "tool": "mail__send_message",
            "unchecked": ["subject", "body"],
            "save": "asked",
            "args": {
                "to": [expert.email],
                "subject": f"Quick question about the {topic}",
                "body": f"Hi {expert.first_name},\n\n{QUESTIONS[params['kind']].format(topic=topic)}\n\nThanks,\n{me.first_name}",
            },
        },
    ]


def _room(draft: Draft, params: dict[str, Any], requester: Any, answer: dict[str, Any]) -> list[dict[str, Any]]:
    org = draft.org
    guest = org.person(params["guest"])
    start = datetime.fromisoformat(params["start"])
    end = start + timedelta(hours=1)
    both = [requester.email, guest.email]
    living.keep_only(draft, both, params["day"], start, 60)
    window = day_window(org, params["day"])
    room = params["room"]
    draft.stage(
        "the workshop is booked in the expert's room at the one free time",
        [
            {
                "name": f"an event with {requester.first_name} and {guest.first_name} on {human_day(start)} "
                f"{start:%H:%M}-{end:%H:%M}, in the {room} room",
                "app": "calendar",
                "table": "events",
                "added": True,
                "where": {
                    "start": {"equals": iso(start)},
                    "end": {"equals": iso(end)},
                    "status": "confirmed",
                    "attendees": {"has": {"email": requester.email}},
                    "any": [{"location": {"says": room}}, {"description": {"says": room}}],
                },
            },
            {
                "name": f"{guest.first_name} is invited to it too",
                "app": "calendar",
                "table": "events",
                "added": True,
                "where": {
                    "start": {"equals": iso(start)},
                    "status": "confirmed",
                    "attendees": {"has": {"email": guest.email}},
                },
            },
            {
                "name": "one workshop is booked, not a second one",
                "app": "calendar",
                "table": "events",
                "added": True,
                "where": {"status": "confirmed", "attendees": {"has": {"email": requester.email}}},
                "expect": {"count": 1},
            },
        ],
        weight=2,
    )
    draft.stage(
        "the expert's answer was read first",
        [
            living.read_first(
                "calendar__create_event|calendar__update_event",
                answer,
                f"{org.person(params['expert']).first_name}'s answer was read before the workshop was booked",
            ),
        ],
    )
    draft.allow["calendar"] = {"events": {"added": True}}
    return [
        {
            "tool": "calendar__find_free_slots",
            "save": "free",
            "args": {"attendees": both, "duration_minutes": 60, "time_min": iso(window[0]), "time_max": iso(window[1])},
        },
        {"tool": "world__wait", "args": {}},
        {"tool": "mail__get_thread", "args": {"thread_id": "${asked.thread_id}"}},
        {
            "tool": "calendar__create_event",
            "unchecked": ["title"],
            "args": {
                "title": f"{params['topic'][:1].upper()}{params['topic'][1:]} workshop",
                "start": iso(start),
                "end": iso(end),
                "location": f"{room} room",
                "attendees": both,
            },
        },
    ]


def _day(draft: Draft, params: dict[str, Any], requester: Any, answer: dict[str, Any]) -> list[dict[str, Any]]:
    """The review booked on the expert's day at the one time all three are free; the oracle's booking."""
    org = draft.org
    expert = org.person(params["expert"])
    start = datetime.fromisoformat(params["start"])
    end = start + timedelta(minutes=45)
    both = [requester.email, expert.email]
    living.keep_only(draft, both, params["day"], start, 45)
    window = day_window(org, params["day"])
    draft.stage(
        f"the review is booked on {expert.first_name}'s day at the one free time",
        [
            {
                "name": f"an event with {expert.first_name} on {human_day(start)} {start:%H:%M}-{end:%H:%M}",
                "app": "calendar",
                "table": "events",
                "added": True,
                "where": {
                    "start": {"equals": iso(start)},
                    "end": {"equals": iso(end)},
                    "status": "confirmed",
                    "attendees": {"has": {"email": expert.email}},
                },
            },
            {
                "name": f"{requester.first_name} is invited to it too",
                "app": "calendar",
                "table": "events",
                "added": True,
                "where": {
                    "start": {"equals": iso(start)},
                    "status": "confirmed",
                    "attendees": {"has": {"email": requester.email}},
                },
            },
            {
                "name": "one review is booked, not a second one",
                "app": "calendar",
                "table": "events",
                "added": True,
                "where": {"status": "confirmed", "attendees": {"has": {"email": expert.email}}},
                "expect": {"count": 1},
            },
        ],
        weight=2,
    )
    draft.stage(
        "the expert's answer was read first",
        [
            living.read_first(
                "calendar__create_event|calendar__update_event",
                answer,
                f"{expert.first_name}'s answer was read before the review was booked",
            ),
        ],
    )
    draft.allow["calendar"] = {"events": {"added": True}}
    return [
        {"tool": "world__wait", "args": {}},
        {"tool": "mail__get_thread", "args": {"thread_id": "${asked.thread_id}"}},
        {
            "tool": "calendar__find_free_slots",
            "save": "free",
            "args": {"attendees": both, "duration_minutes": 45, "time_min": iso(window[0]), "time_max": iso(window[1])},
        },
        {
            "tool": "calendar__create_event",
            "unchecked": ["title"],
            "args": {
                "title": f"{params['topic'][:1].upper()}{params['topic'][1:]} review",
                "start": iso(start),
                "end": iso(end),
                "attendees": both,
            },
        },
    ]


def _budget(draft: Draft, params: dict[str, Any], requester: Any, answer: dict[str, Any]) -> list[dict[str, Any]]:
    org, me, topic = draft.org, draft.org.persona, params["topic"]
    doc_id = "plan-doc"
    line = "**Budget:** TBD"
    draft.add(
        "docs",
        "documents",
        {
            "id": doc_id,
            "title": f"{topic[:1].upper()}{topic[1:]} plan",
            "owner": me.email,
            "shared_with": [{"email": requester.email, "role": "editor"}],
            "updated_at": iso(org.start - timedelta(days=3)),
            "content": f"# {topic[:1].upper()}{topic[1:]} plan\n\n**Owner:** {me.name}\n{line}\n\n## Goals\n1. Scope\n"
            f"2. Timeline\n3. Risks\n",
        },
    )
    amount = params["amount"]
    draft.stage(
        "the plan shows the approved budget",
        [
            {
                "name": f"the plan states {_money(amount)}",
                "app": "docs",
                "table": "documents",
                "where": {
                    "id": doc_id,
                    "content": {"mentions_amount": {"value": amount, "currency": "EUR", "claimed": True}},
                },
            },
            {
                "name": f"the plan does not state last year's {_money(params['stale_amount'])}",
                "app": "docs",
                "table": "documents",
                "where": {
                    "id": doc_id,
                    "content": {
                        "not": {
                            "mentions_amount": {"value": params["stale_amount"], "currency": "EUR", "claimed": True}
                        }
                    },
                },
            },
        ],
        weight=2,
    )
    draft.stage(
        "the expert's answer was read first",
        [
            living.read_first(
                "docs__edit_document|docs__replace_content|docs__append_content",
                answer,
                f"{org.person(params['expert']).first_name}'s answer was read before the plan was edited",
            ),
        ],
    )
    draft.allow["docs"] = {"documents": {"changed": ["content"], "where": {"id": doc_id}}}
    return [
        {"tool": "docs__search_documents", "args": {"query": f"{topic} plan"}},
        {"tool": "docs__get_document", "args": {"document_id": doc_id}},
        {"tool": "world__wait", "args": {}},
        {"tool": "mail__get_thread", "args": {"thread_id": "${asked.thread_id}"}},
        {
            "tool": "docs__edit_document",
            "args": {"document_id": doc_id, "find": line, "replace": f"**Budget:** {_money(amount)} (approved)"},
        },
    ]


def _finish(draft: Draft, params: dict[str, Any], key: str, requester: Any) -> list[dict[str, Any]]:
    """The ticket closed and the requester told; the oracle's transition and reply."""
    kind = params["kind"]
    said = _fact(draft.org, params)
    by_kind: dict[str, dict[str, Any]] = {
        "room": {"says": params.get("room")},
        "budget": {"mentions_amount": {"value": params.get("amount"), "currency": "EUR"}},
        "day": {"mentions_time": params.get("start")},
    }
    facts = [by_kind[kind]]
    if draft.org.edition >= 3:
        facts, said = _told3(params, said)
    draft.stage(
        "the ticket is closed and the requester told",
        [
            {"name": f"{key} is done", "app": "tickets", "table": "tickets", "where": {"key": key, "status": "done"}},
            {"name": f"{requester.name} is told {said}", "told": {"who": [requester.email], "facts": facts}},
        ],
    )
    if kind == "day":
        start = datetime.fromisoformat(params["start"])
        said = f"{human_day(start)}, {start:%H:%M}"
        text = f"the {params['topic']} review is booked for {said}"
    elif kind == "room":
        start = datetime.fromisoformat(params["start"])
        text = f"the workshop is booked for {human_day(start)}, {start:%H:%M}, in {said}"
    else:
        text = f"the {params['topic']} plan now shows the approved budget of {said}"
    return [
        {
            "tool": "tickets__transition_ticket",
            "args": {"key": key, "status": "done", "comment": f"Done: {text}."},
            "unchecked": ["comment"],
        },
        {
            "tool": "mail__reply",
            "args": {
                "message_id": "${req.messages.0.id}",
                "body": f"Hi {requester.first_name},\n\n{text}.\n\n{draft.org.persona.first_name}",
            },
        },
    ]


def _told3(params: dict[str, Any], said: str) -> tuple[list[dict[str, Any]], str]:
    """Edition 3: every fact the requester is told is checked: the workshop's time beside its room (a mail that
    gives the right room and a wrong time fails), and the review's day with its time (the expert's day is the fact
    asked for: "booked for 10:00" does not tell it). The budget's fact is its amount, as before."""
    start = datetime.fromisoformat(params["start"]) if params.get("start") else None
    if params["kind"] == "day" and start is not None:
        return [{"mentions_time": {"at": params["start"], "day": True}}], f"{human_day(start)}, {start:%H:%M}"
    if params["kind"] == "room" and start is not None:
        return [{"says": params["room"]}, {"mentions_time": params["start"]}], f"{said} at {start:%H:%M}"
    return [{"mentions_amount": {"value": params["amount"], "currency": "EUR"}}], said
