"""ambiguous: a request that is already done, or that cannot be done without asking.

A colleague asks the persona by mail for something, and the instruction says
to take care of it. Two kinds (the parameter `mode`):

- `done`: they ask for a ticket about a problem the persona already filed
  (the ticket exists). The right move is no new ticket, and a reply that
  points them to the existing one (its key).
- `ask`: they ask for a document to be shared with someone, but two of the
  persona's documents fit the description equally well. The right move is
  to share nothing and ask which one they mean, naming both.

Distractors: closed tickets about other components, another document on
another topic. Judged: one reply in the requester's thread (its key, or both
documents named by title or link); a forbid on any new ticket, or on any
change to the candidate documents.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from orchestrator.generate import phrasing, vocab
from orchestrator.generate.build import Organization, iso
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.family import Draft, Family, fake, phrase, register

INSTRUCTIONS = [
    "{requester} emailed me with a request. Please take care of it.",
    "Can you handle {requester_first}'s latest mail to me?",
    "Please deal with what {requester_first} asked for in their email.",
]
PROBLEMS = (
    "times out under load",
    "drops events after a restart",
    "shows stale data",
    "leaks memory overnight",
    "rejects valid input",
)
COMPONENTS = ("exporter", "cache", "webhook", "importer", "dashboard", "scheduler", "sync job")


@register
class Ambiguous(Family):
    """The task family of requests that are ambiguous (ask) or already done (point to what exists)."""

    name = "ambiguous"
    title = "An ambiguous or already-done request: ask, or point to what exists"
    apps = ("mail", "tickets", "docs")
    knobs = {"distractors": (0, 1, 2)}
    split_params = ("mode", "problem", "distractors", "phrasing")
    phrasings = len(INSTRUCTIONS)

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        people = org.tracker_users()
        if len(people) < 2:
            return None
        requester, target = rng.sample(people, 2)
        text = fake(rng)
        word = text.word().capitalize()
        params = {
            "mode": rng.choice(["done", "ask"]),
            "requester": requester.email,
            "target": target.email,
            "component": f"{word} {rng.choice(COMPONENTS)}",
            "problem": rng.randrange(len(PROBLEMS)),
            "others": [
                f"{text.word().capitalize()} {rng.choice(COMPONENTS)}" for _ in range(knobs.get("distractors", 0))
            ],
            "topic": f"{word} {rng.choice(['launch', 'migration', 'pricing', 'hiring', 'roadmap'])}",
            "variants": rng.choice([["Q3", "Q4"], ["draft", "final"], ["EMEA", "Americas"], ["2025", "2026"]]),
            "project": org.apps["tickets"]["projects"][0]["key"],
            "distractors": knobs.get("distractors", 0),
            "phrasing": rng.randrange(len(INSTRUCTIONS)),
        }
        if org.edition < 2:
            return params
        _words2(org, rng, params)
        return phrasing.stamp(params, rng, lambda p: _word(org, p))

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        requester, target = org.person(params["requester"]), org.person(params["target"])
        if org.edition >= 2:
            instruction = _word(org, params).text
        else:
            instruction = phrase(
                INSTRUCTIONS, params["phrasing"], requester=requester.name, requester_first=requester.first_name
            )
        draft = Draft(org, title="", instruction=instruction, tags=["generated", "ambiguous", "mail"])
        sent = org.start - timedelta(minutes=35)
        if params["mode"] == "done":
            self._done(org, draft, params, requester, sent)
        else:
            self._ask(org, draft, params, requester, target, sent)
        draft.allow = {"mail": {"messages": {"added": True}}}
        draft.limits = {"max_tool_calls": 30, "timeout_s": 600}
        return broaden(draft, params)

    def _done(self, org: Organization, draft: Draft, params: dict[str, Any], requester: Any, sent: Any) -> None:
        me, project, component = org.persona, params["project"], params["component"]
        problem = PROBLEMS[params["problem"]]
        tickets = org.apps["tickets"]["tickets"]
        numbers = [int(t["key"].rpartition("-")[2]) for t in tickets if t["key"].startswith(f"{project}-")]
        number = max(numbers, default=0)
        for i, other in enumerate(params["others"]):
            number += 1
            tickets.append(
                {
                    "key": f"{project}-{number}",
                    "title": f"{other} {PROBLEMS[(params['problem'] + i + 1) % len(PROBLEMS)]}",
                    "type": "bug",
                    "status": "done",
                    "resolution": "fixed",
                    "reporter": me.email,
                    "assignee": me.email,
                    "created_at": iso(org.start - timedelta(days=30 + i)),
                }
            )
        number += 1
        key = f"{project}-{number}"
        title = f"{component} {problem}"
        if org.edition >= 3:  # inside a sentence the component is not capitalized (the ticket's title still is)
            component = vocab.inside(component)
        tickets.append(
            {
                "key": key,
                "title": title,
                "type": "bug",
                "status": "todo",
                "priority": "high",
                "reporter": me.email,
                "description": f"The {component} {problem}. Seen in production.",
                "created_at": iso(org.start - timedelta(days=1, hours=2)),
            }
        )
        org.apps["mail"]["messages"].append(
            {
                "id": "the-request",
                "thread_id": "the-request",
                "from": requester.address_line,
                "to": [me.email],
                "subject": f"{params['component']} problem",
                "sent_at": iso(sent),
                "body": f"Hi {me.first_name},\n\nthe {component} {problem} again. Could you file a ticket for it in {project}?\n\n"
                f"Thanks,\n{requester.first_name}",
            }
        )
        draft.title = "A request for a ticket that already exists"
        draft.description = (
            f"{requester.name} asks for a ticket about the {component}; {key} already exists: point to it."
        )
        draft.stage(
            f"{requester.first_name} is pointed to {key}",
            [
                {
                    "name": f"{requester.name} is told of {key}, by any mail",
                    "told": {
                        "who": [requester.email],
                        "facts": [{"mentions_code": {"code": key, "only": True, "claimed": True}}],
                    },
                },
            ],
        )
        draft.forbid = [{"name": "no duplicate ticket", "app": "tickets", "table": "tickets", "change": "added"}]
        draft.oracle = [
            {"tool": "mail__search_messages", "args": {"query": f"from:{requester.email}"}, "save": "found"},
            {"tool": "mail__get_message", "args": {"message_id": "${found.messages.0.id}"}, "save": "request"},
            {"tool": "tickets__search_tickets", "args": {"text": component}},
            {
                "tool": "mail__reply",
                "args": {
                    "message_id": "${request.id}",
                    "body": f"Hi {requester.first_name},\n\nI already filed this one yesterday: {key}. I'll add anything new there.\n\n{me.first_name}",
                },
            },
        ]

    def _ask(
        self, org: Organization, draft: Draft, params: dict[str, Any], requester: Any, target: Any, sent: Any
    ) -> None:
        me, topic = org.persona, params["topic"]
        docs = org.apps["docs"]["documents"]
        titles = [f"{topic} plan ({v})" for v in params["variants"]]
        if org.edition >= 3:  # inside a sentence the topic is not capitalized (its titles still are)
            topic = vocab.inside(topic)
        ids = ["plan-a", "plan-b"]
        for doc_id, title in zip(ids, titles, strict=True):
            docs.append(
                {
                    "id": doc_id,
                    "title": title,
                    "owner": me.email,
                    "updated_at": iso(org.start - timedelta(days=6)),
                    "content": f"# {title}\n\nGoals, owners and dates for the {topic}.\n",
                }
            )
        for i, other in enumerate(params["others"]):
            docs.append(
                {
                    "id": f"other-plan-{i + 1}",
                    "title": f"{other} plan",
                    "owner": me.email,
                    "updated_at": iso(org.start - timedelta(days=9 + i)),
                    "content": f"# {other} plan\n\nNotes.\n",
                }
            )
        org.apps["mail"]["messages"].append(
            {
                "id": "the-request",
                "thread_id": "the-request",
                "from": requester.address_line,
                "to": [me.email],
                "subject": f"{params['topic']} plan",
                "sent_at": iso(sent),
                "body": f"Hi {me.first_name},\n\ncould you share the {topic} plan with {target.name}? They need it this week.\n\n"
                f"Thanks,\n{requester.first_name}",
            }
        )
        draft.title = "An ambiguous request: ask which document"
        draft.description = (
            f'{requester.name} asks to share "the {topic} plan" with {target.name}, but two documents fit '
            f"({' and '.join(titles)}): share nothing, ask which one."
        )
        names = [
            {"says": {"phrase": [t, v], "claimed": False}} for t, v in zip(titles, params["variants"], strict=True)
        ]
        draft.stage(
            f"{requester.first_name} is asked which plan",
            [
                {
                    "name": f"{requester.name} is asked, by any mail, naming both plans ({' and '.join(titles)})",
                    "told": {"who": [requester.email], "facts": names},
                },
            ],
        )
        draft.forbid = [
            {
                "name": "neither plan is shared before the requester says which",
                "app": "docs",
                "table": "documents",
                "change": "changed",
                "where": {"id": {"one_of": ids}},
            }
        ]
        draft.oracle = [
            {"tool": "mail__search_messages", "args": {"query": f"from:{requester.email}"}, "save": "found"},
            {"tool": "mail__get_message", "args": {"message_id": "${found.messages.0.id}"}, "save": "request"},
            {"tool": "docs__search_documents", "args": {"query": f"{topic} plan"}},
            {
                "tool": "mail__reply",
                "args": {
                    "message_id": "${request.id}",
                    "body": f'Hi {requester.first_name},\n\nI have two: "{titles[0]}" and "{titles[1]}". Which one should {target.first_name} '
                    f"get?\n\n{me.first_name}",
                },
            },
        ]


# -- edition 2: instructions composed from parts (phrasing.compose) --------------------------------------------------

HANDLE = phrasing.Phrasebook(
    requests=[
        "{requester} emailed me with a request. Please take care of it.",
        "Can you handle {requester_first}'s latest mail to me?",
        "Please deal with what {requester_first} asked for in their email.",
        "{requester_first} sent me something this morning. Could you sort it out?",
        "There's a mail from {requester} in my inbox asking me for something. Take care of it for me, please.",
        "Could you look after {requester_first}'s request? It's the latest mail from them.",
        "Can you sort out whatever {requester_first} needs? They emailed me about it.",
        "Please answer {requester_first}'s request from their mail, doing whatever it properly takes.",
        "{requester_first} needs something from me, it's in their email. Can you handle it?",
        "I got a mail from {requester} asking for a favour. Please deal with it.",
        "Would you mind handling {requester_first}'s email request for me?",
        "Take care of {requester_first}'s ask from this morning's mail, please.",
        "Please action the request {requester} sent me by email.",
        "{requester_first} is waiting on me for something (see their mail). Can you take it from here?",
        "Handle {requester_first}'s mail please.",
        "Could you pick up {requester_first}'s request in my inbox and see it through?",
        "Can you respond to {requester_first}'s request properly? It's in their latest email to me.",
        "There's an ask from {requester_first} in my mail. Please handle it the right way.",
        "Please work through {requester}'s email to me and take care of what they need.",
        "{requester_first} wrote to me asking for something. Sort it out for me?",
        "---------- Forwarded message ----------\nFrom: {requester}\n\n(see my request in the mail I sent you)\n"
        "----------\n\nCan you handle this one from {requester_first}? Their original mail is in my inbox.",
        "Forwarding {requester_first}'s request to you: the mail is in my inbox. Please take care of it.",
        "Could you deal with the thing {requester_first} emailed me about?",
        "Please look at {requester_first}'s latest email and handle the request in it.",
        "What does {requester_first} want in their latest mail? Please take care of it properly.",
        "Could you see to {requester}'s email request? I haven't opened it yet.",
        "{requester_first} pinged me by mail about something. Can you deal with it for me?",
        "Please respond to {requester_first}'s request in my inbox, whatever it turns out to need.",
        "Can you get {requester_first}'s request sorted? It's the newest mail from them.",
        "I'd like {requester_first}'s email request handled today. Can you do it?",
        "Take over {requester}'s request from their mail and close it out, please.",
        "There's something {requester_first} needs from me by mail. Handle it as you see fit, properly.",
    ],
    openers=[
        "I'm swamped today.",
        "I'm heading into meetings.",
        "Can you help me with my inbox?",
        "{requester_first} has been chasing me.",
        "I haven't had a chance to look at this.",
        "Mail to catch up on.",
        "I'm out of the office this afternoon.",
        "This has been sitting in my inbox.",
        "Helping me with mail again.",
        "Not sure how long this will take.",
        "One from my inbox.",
        "I'd rather not keep {requester_first} waiting.",
        "I'm travelling today.",
        "My inbox is getting away from me.",
        "I'm off sick-ish today.",
        "Back-to-back calls all day.",
    ],
    closers=[
        "Answer them by mail.",
        "If anything about it is unclear, ask {requester_first} rather than guessing.",
        "Check what's already there before doing anything new.",
        "Don't do more than the request needs.",
        "Write back to {requester_first} when you're done.",
        "Write to {requester_first} directly.",
        "Use your judgement.",
        "Make sure {requester_first} hears back from you.",
        "Don't create anything that already exists.",
        "Answer {requester_first} by mail.",
        "Don't share anything unless you're sure it's the right thing.",
        "Let {requester_first} know what you did.",
        "Make sure your answer reaches {requester_first}.",
        "Be careful not to duplicate work.",
        "Don't guess if there's more than one possibility.",
        "Keep it to the one request.",
        "Look before you act.",
        "A short mail back is fine.",
    ],
)
PHRASEBOOKS = {"handle": HANDLE}
PLANS = ("launch", "migration", "pricing", "rollout", "roadmap", "budget")


def _words2(org: Organization, rng: random.Random, params: dict[str, Any]) -> None:
    """Edition 2: the component, the other components and the plan's topic in the organization's industry words."""
    industry = vocab.INDUSTRIES[org.industry]
    names = rng.sample(industry.components, 1 + len(params["others"]))
    names = [n[:1].upper() + n[1:] for n in names]
    product = rng.choice(industry.products).removeprefix("the ")
    params.update(
        component=names[0], others=names[1:], topic=f"{product[:1].upper() + product[1:]} {rng.choice(PLANS)}"
    )


"""Edition 2's phrasebooks by intent (one: the same words whether the request is done or needs asking)."""


def _word(org: Organization, params: dict[str, Any]) -> phrasing.Composition:
    """The edition-2 instruction of these parameters (the same in `sample` and `build`)."""
    requester = org.person(params["requester"])
    values = {"requester": requester.name, "requester_first": requester.first_name}
    return phrasing.word(org, params["wording"], "ambiguous", "handle", HANDLE, values)
