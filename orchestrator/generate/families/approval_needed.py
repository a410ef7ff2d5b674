"""approval-needed (edition 2): an action needs a manager's approval; ask, wait, act only on a yes, tell the
requester either way.

A colleague asks (a mail and a ticket assigned to the persona) for one of two things (`kind`): editor access to a
document the persona owns (`access`), or a purchase (`purchase`: a purchase ticket for the buyer with the item and
its amount). Policy wants the approver's yes first. The approver answers the persona's mail some minutes later (a
responder in `world:`), approving or refusing (`decision`, drawn). On a yes the persona grants the access or raises
the purchase ticket and closes the request as done; on a no it does neither and cancels the request; either way
the requester is told the outcome. Judged: the action done (or, on a no, forbidden), the request's status, the
requester told (the decision stated, never the opposite one), and, required, the approver's answer read before
anything was acted on.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from orchestrator.generate import phrasing
from orchestrator.generate.build import Organization, iso
from orchestrator.generate.families import _living as living
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.family import Draft, Family, register

DOCS = (
    "Pricing model 2026",
    "Customer health dashboard notes",
    "Vendor contracts tracker",
    "Hiring pipeline",
    "Incident response runbook",
    "Partner revenue forecast",
    "Security review checklist",
    "Board deck drafts",
)
ITEMS = (
    ("a 27-inch monitor", 420),
    ("a standing desk", 690),
    ("a conference ticket", 950),
    ("noise-cancelling headphones", 310),
    ("a design tool licence", 540),
    ("a laptop dock", 260),
    ("an online course", 380),
    ("a usability testing panel", 1200),
)
REFUSALS = (
    "the budget for this quarter is spent",
    "we need to revisit it next quarter",
    "it should go through the team lead first",
    "we already have a shared one for that",
)
GRANTED = [
    "approved",
    "granted",
    "go ahead",
    "green light",
    "signed off",
    "given you access",
    "shared",
    "raised",
    "ordered",
    "placed",
]
REFUSED = [
    "refused",
    "declined",
    "rejected",
    "not approved",
    "didn't approve",
    "did not approve",
    "denied",
    "turned down",
    "won't approve",
    "can't approve",
    "cannot approve",
    "said no",
    "isn't approved",
    "wasn't approved",
    "was not approved",
    "not going ahead",
]
ASKS = ["approve", "approval", "sign off", "sign-off", "go ahead", "ok", "okay", "green light", "permission", "yes"]
"""What a comment asking the approver names (the `asks` operator: a question or a request, not a statement)."""
REQUESTS = [
    "{r} asked for {what} ({key}). That needs {m}'s approval first: email {m}, wait for the answer, and only if it's "
    "a yes, {act}. Either way, close {key} (done if approved, cancelled if not) and tell {r} the outcome.",
    "Can you handle {key}? {r} wants {what}. Our policy says {m} has to approve it, so ask {m} by mail and wait. If "
    "{m} approves, {act} and mark {key} done; if not, cancel {key}. Let {r} know either way.",
    "Please process {r}'s request {key} ({what}). Don't do anything before {m} approves: ask {m} by email and wait "
    "for the reply. Approved: {act}, close {key} as done. Refused: cancel {key}. Tell {r} what happened.",
    "{r} is waiting on {key}: {what}. Get {m}'s approval by mail first (wait for the answer). On a yes, {act} and set "
    "{key} to done; on a no, cancel it. Then let {r} know.",
    "Sort out {key} for {r}, please. It's {what}, which needs sign-off from {m}. Email {m}, wait, and act only on an "
    "approval: {act}. Close the ticket accordingly (done or cancelled) and tell {r}.",
    "Forwarding you {key} from {r} ({what}). {m} must approve before we do it. Ask {m} over email, wait for the "
    "decision, then either {act} and close {key} as done, or cancel {key}. Let {r} know the outcome.",
    "Could you take {key}? {r} asked for {what}. Approval from {m} is required: ask by mail, wait for it, and {act} "
    "only if approved. Done or cancelled on the ticket, and a note to {r} either way.",
    "I need {m}'s OK before {r} gets {what} ({key}). Please ask {m} by email and wait for the answer. If approved, "
    "{act} and close {key}; if refused, cancel {key}. Tell {r} either way.",
    "{key}: {r} wants {what}. Ask {m} for approval (mail), wait, and follow the decision: on approval {act} and "
    "mark it done; on refusal cancel it. Keep {r} in the loop.",
    "Please run {r}'s request ({key}, {what}) past {m}. Mail {m}, wait for a yes or no. Yes: {act}, ticket done. No: "
    "ticket cancelled, nothing else. Tell {r} the result.",
    "Can you get {m}'s approval for {r}'s {key} ({what})? Email {m} and wait. Only with the approval, {act}. Then "
    "close {key} (done, or cancelled if refused) and reply to {r}.",
    "{r} filed {key} for {what}. It needs {m}'s approval. Please ask {m} by email and wait for the reply; {act} only "
    "if {m} says yes. Close the ticket to match and let {r} know.",
    "Take {key} off my plate? {r} wants {what}; {m} approves these. Ask by mail, wait for the answer, act on it ({act} "
    "if approved), close {key} as done or cancelled, and tell {r}.",
    "Please handle the approval for {key} ({r}: {what}). Write to {m} by email, wait for the decision. Approved means {act} "
    "and done; refused means cancel. Either way {r} should hear from you.",
    "For {r}'s {key} ({what}): check with {m} by email and wait for the answer. Don't {act_short} unless {m} "
    "approves. Close {key} accordingly and tell {r} the decision.",
    "{r} needs {what} ({key}). Before anything happens, {m} has to approve it by mail, so ask and wait. If yes, {act} "
    "and mark {key} done; if no, cancel {key}. Let {r} know.",
    "Could you deal with {key}? It's {r} asking for {what}. Ask {m} (email) for approval and wait. Act only on a yes "
    "({act}). Close the ticket either way and tell {r} the outcome.",
    "Please get {key} decided: {r} wants {what}, {m} decides. Email {m}, wait for the reply, then {act} if approved "
    "and close the ticket (done or cancelled). Tell {r}.",
    "{key} from {r} ({what}) is waiting for approval. Ask {m} by mail and give them time to answer. If approved, "
    "{act}; close {key} as done or cancelled; and tell {r} either way.",
    "Approval run, please: {r}'s {key} ({what}) needs {m}'s yes. Mail {m}, wait, {act} only if approved, set {key} "
    "to done or cancelled, and let {r} know.",
    "Can you email {m} to ask whether {r} may have {what} ({key})? Wait for the answer. With a yes, {act} and close {key} "
    "as done; with a no, cancel it. Tell {r} in any case.",
    "{r} asked me for {what} ({key}), but {m} has to approve. Ask {m} by email and wait for their reply; only if "
    "it's approved, {act}. Close {key} accordingly and tell {r}.",
]


@register
class ApprovalNeeded(Family):
    """The task family of an action taken only on a manager's approval, asked for by mail and waited for."""

    name = "approval-needed"
    title = "Ask for approval, wait, act only on a yes, and tell the requester"
    apps = ("mail", "tickets", "docs")
    knobs = {"distractors": (0, 1)}
    split_params = ("kind", "decision", "template")
    editions = (2, 3)

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        people = living.teammates(org, rng, 3)
        if people is None:
            return None
        requester, approver, buyer = people
        manager = org.persona.manager
        if manager and manager not in (requester.email, buyer.email) and rng.random() < 0.6:
            approver = org.person(manager)
        kind = rng.choice(["access", "purchase"])
        item, amount = rng.choice(ITEMS)
        params = {
            "kind": kind,
            "decision": rng.choice(["approve", "refuse"]),
            "requester": requester.email,
            "approver": approver.email,
            "buyer": buyer.email,
            "doc": rng.choice(DOCS),
            "item": item,
            "amount": amount,
            "refusal": rng.choice(REFUSALS),
            "centre": f"CC-{rng.randint(1000, 9999)}",
            "delay": rng.choice([10, 15, 20, 30]),
            "number": living.next_number(org, living.project_key(org), rng),
            "distractors": knobs.get("distractors", 0),
        }
        phrasing.stamp(params, rng, lambda p: _instruction(org, p))
        return params

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        requester, approver = org.person(params["requester"]), org.person(params["approver"])
        key = _key(org, params)
        approved = params["decision"] == "approve"
        draft = Draft(
            org,
            title=f"Get {approver.first_name}'s approval for {requester.first_name}'s request",
            instruction=_instruction(org, params).text,
            description=f"{key}: {_what(org, params)}; {approver.name} {'approves' if approved else 'refuses'}.",
            tags=["generated", "approval-needed", "living-world", "approval", "waiting", "mail", "tickets"]
            + (["docs"] if params["kind"] == "access" else []),
        )
        _approver_answers(draft, params, key)
        oracle = _seed(draft, params, key)
        action = _action(draft, params, key)
        _stages(draft, params, key)
        draft.oracle = [*oracle, *_after_the_answer(draft, params, key, action)]
        draft.limits = {"max_tool_calls": 50, "timeout_s": 900}
        return broaden(draft, params)


def _approver_answers(draft: Draft, params: dict[str, Any], key: str) -> None:
    """The approver's responder in `world:`: their answer to any mail, or to a comment on the request, by mail."""
    org = draft.org
    approver = org.person(params["approver"])
    answer = (
        f"Hi $persona_first,\n\n{key} is approved, go ahead.\n\n$first_name"
        if params["decision"] == "approve"
        else f"Hi $persona_first,\n\nno, I'm not approving {key}: {params['refusal']}.\n\n$first_name"
    )
    on_ticket = {  # asked in a comment on the request instead, the approver still answers by mail
        "name": "approver-answers-a-comment",
        "app": "mail",
        "delay": f"{params['delay']}m",
        "when": {
            "app": "tickets",
            "table": "comments",
            "added": True,
            "where": {"ticket_key": key, "body": {"asks": ASKS}},
        },
        "add": {
            "messages": [
                {
                    "id": "approver-answer",
                    "from": approver.address_line,
                    "to": [org.persona.email],
                    "subject": f"Re: {key}",
                    "body": answer.replace("$persona_first", org.persona.first_name).replace(
                        "$first_name", approver.first_name
                    ),
                }
            ]
        },
    }
    draft.extra["world"] = living.world_section(
        events=[on_ticket],
        people=[
            {
                "email": approver.email,
                "name": approver.name,
                "mail": [{"reply": answer, "delay": f"{params['delay']}m"}],
            }
        ],
    )


def _after_the_answer(
    draft: Draft, params: dict[str, Any], key: str, action: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The oracle once it has asked: wait, read the answer, act on a yes, close the request, tell the requester."""
    org = draft.org
    requester, approver = org.person(params["requester"]), org.person(params["approver"])
    approved = params["decision"] == "approve"
    status = "done" if approved else "cancelled"
    return [
        {"tool": "world__wait", "args": {}},
        {"tool": "mail__get_thread", "args": {"thread_id": "${asked.thread_id}"}},
        *(action if approved else []),
        {
            "tool": "tickets__transition_ticket",
            "unchecked": ["comment"],
            "args": {
                "key": key,
                "status": status,
                "comment": f"{approver.first_name} {'approved' if approved else 'refused'} it.",
            },
        },
        {
            "tool": "mail__reply",
            "args": {
                "message_id": "${req.messages.0.id}",
                "body": (
                    f"Hi {requester.first_name},\n\n{approver.first_name} approved {key}, so "
                    + _done(org, params)
                    + f".\n\n{org.persona.first_name}"
                    if approved
                    else f"Hi {requester.first_name},\n\nsorry: {approver.first_name} refused {key} ({params['refusal']}), so "
                    f"I've cancelled the request.\n\n{org.persona.first_name}"
                ),
            },
        },
    ]


def _key(org: Organization, params: dict[str, Any]) -> str:
    return f"{living.project_key(org)}-{params['number']}"


def _what(org: Organization, params: dict[str, Any]) -> str:
    if params["kind"] == "access":
        return f"editor access to the '{params['doc']}' doc"
    return f"{params['item']} for EUR {params['amount']:,}"


def _done(org: Organization, params: dict[str, Any]) -> str:
    if params["kind"] == "access":
        return f"I've given you editor access to '{params['doc']}'"
    return f"I've raised the purchase ticket for {org.person(params['buyer']).first_name}"


def _instruction(org: Organization, params: dict[str, Any]) -> phrasing.Composition:
    requester, approver = org.person(params["requester"]), org.person(params["approver"])
    if params["kind"] == "access":
        act = f"share the doc with {requester.first_name} as an editor"
        short = "share it"
    else:
        buyer = org.person(params["buyer"])
        act = (
            f"raise a purchase ticket assigned to {buyer.first_name} with the item, the amount and our cost centre "
            "(it's in the team budget doc)"
        )
        short = "raise the purchase ticket"
    values = {
        "r": requester.first_name,
        "m": approver.first_name,
        "key": _key(org, params),
        "what": _what(org, params),
        "act": act,
        "act_short": short,
    }
    return living.compose(org, params["wording"], "approval-needed", "approve", REQUESTS, values)


def _seed(draft: Draft, params: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The request (mail and ticket), the document; the oracle's reads and its question to the approver."""
    org, me = draft.org, draft.org.persona
    requester, approver = org.person(params["requester"]), org.person(params["approver"])
    what = _what(org, params)
    living.mail(
        draft,
        "request-mail",
        requester,
        f"{key}: request",
        f"Hi {me.first_name},\n\ncould I get {what}? I've filed {key} for it.\n\nThanks,\n{requester.first_name}",
        40,
    )
    living.ticket(
        draft,
        key,
        f"Request: {what}",
        f"{requester.name} asks for {what}. Needs {approver.name}'s approval.",
        requester,
    )
    if params["distractors"]:
        living.mail(
            draft,
            "old-approval",
            approver,
            "Approvals",
            f"Hi {me.first_name},\n\nreminder: requests like these need my approval by mail before anything "
            f"happens.\n\n{approver.first_name}",
            3000,
        )
    reads: list[dict[str, Any]] = [
        {"tool": "mail__search_messages", "args": {"query": f"from:{requester.email} {key}"}, "save": "req"},
        {"tool": "mail__get_message", "args": {"message_id": "${req.messages.0.id}"}},
        {"tool": "tickets__get_ticket", "args": {"key": key}},
    ]
    reads += _seed_doc(draft, params)
    reads.append(
        {
            "tool": "mail__send_message",
            "unchecked": ["subject", "body"],
            "save": "asked",
            "args": {
                "to": [approver.email],
                "subject": f"Approval for {key}?",
                "body": f"Hi {approver.first_name},\n\n{requester.first_name} asks for {what} ({key}). Do you approve?\n\n"
                f"{me.first_name}",
            },
        }
    )
    return reads


def _seed_doc(draft: Draft, params: dict[str, Any]) -> list[dict[str, Any]]:
    """The document the request is about (the asked-for doc, or the team budget naming the cost centre); its reads."""
    org, me = draft.org, draft.org.persona
    approver = org.person(params["approver"])
    if params["kind"] == "access":
        draft.add(
            "docs",
            "documents",
            {
                "id": "asked-doc",
                "title": params["doc"],
                "owner": me.email,
                "updated_at": iso(org.start - timedelta(days=6)),
                "shared_with": [{"email": approver.email, "role": "editor"}],
                "content": f"# {params['doc']}\n\nWorking notes. Access by approval only.\n",
            },
        )
        return [
            {"tool": "docs__search_documents", "args": {"query": params["doc"]}},
            {"tool": "docs__get_document", "args": {"document_id": "asked-doc"}},
        ]
    draft.add(
        "docs",
        "documents",
        {
            "id": "team-budget",
            "title": "Team budget",
            "owner": org.people[-1].email,
            "shared_with": [{"email": me.email, "role": "viewer"}],
            "updated_at": iso(org.start - timedelta(days=30)),
            "content": f"# Team budget\n\n**Cost centre:** {params['centre']}\n\nEvery purchase ticket names the "
            "cost centre.\n\n| Line | Left |\n|---|---|\n| Equipment | EUR 4,800 |\n| Training | EUR 2,500 |\n",
        },
    )
    return [
        {"tool": "docs__search_documents", "args": {"query": "team budget"}},
        {"tool": "docs__get_document", "args": {"document_id": "team-budget"}},
    ]


def _action(draft: Draft, params: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The oracle's action on an approval."""
    org = draft.org
    if params["kind"] == "access":
        return [
            {
                "tool": "docs__share_document",
                "args": {"document_id": "asked-doc", "email": params["requester"], "role": "editor"},
            }
        ]
    return [
        {
            "tool": "tickets__create_ticket",
            "unchecked": ["title"],
            "args": {
                "project": living.project_key(org),
                "title": f"Purchase: {params['item']}",
                "assignee": params["buyer"],
                "description": f"Buy {params['item']}, EUR {params['amount']:,}, for {org.person(params['requester']).name} "
                f"(approved in {key}). Cost centre: {params['centre']}.",
            },
        }
    ]


def _stages(draft: Draft, params: dict[str, Any], key: str) -> None:
    org = draft.org
    requester, approver = org.person(params["requester"]), org.person(params["approver"])
    approved, access = params["decision"] == "approve", params["kind"] == "access"
    checks = _handled(draft, params, key)
    draft.stage("the request is handled as the approver decided", checks, weight=2)
    decided = "approve" if approved else "refuse"
    if org.edition >= 3:  # the decision read by its polarity, in any words or language ("accès accordé")
        fact: dict[str, Any] = {"decides": decided}
    else:
        fact = {"says": GRANTED} if approved else {"says": REFUSED}
    draft.stage(
        "the requester is told the outcome",
        [
            {
                "name": f"{requester.name} is told it was {'approved' if approved else 'refused'}",
                "told": {"who": [requester.email], "facts": [fact]},
            },
        ],
    )
    draft.forbid.append(
        {
            "name": f"no mail says the request was {'refused' if approved else 'approved'}",
            "app": "mail",
            "table": "messages",
            "change": "added",
            "where": {
                "folder": "sent",
                "any": [{"to": {"contains": requester.email}}, {"cc": {"contains": requester.email}}],
                "body": {"decides": "refuse" if approved else "approve"}
                if org.edition >= 3
                else {
                    "says": {
                        "phrase": REFUSED
                        if approved
                        else ["is approved", "was approved", "approved it", "has approved", "granted"]
                    }
                },
            },
        }
    )
    acting = "tickets__transition_ticket|tickets__update_ticket|tickets__create_ticket|docs__share_document"
    draft.stage(
        "the approval was waited for",
        [
            living.read_first(
                acting,
                {"app": "mail", "table": "messages", "where": {"from": approver.email, "body": {"contains": key}}},
                f"{approver.first_name}'s answer was read before anything was acted on",
            ),
        ],
    )
    draft.allow = {
        "mail": {"messages": {"added": True}},
        "tickets": {
            "tickets": [
                {"changed": ["status", "resolution", "resolved_at"], "where": {"key": key}},
                *([{"added": True}] if approved and not access else []),
            ],
            "comments": {"added": True, "where": {"ticket_key": key}},
        },
    }
    if approved and access:
        draft.allow["docs"] = {"documents": {"changed": ["shared_with"], "where": {"id": "asked-doc"}}}
    if not approved:  # cancelling the request is the decision, not destruction
        draft.relax = {"destruction": [{"app": "tickets", "table": "tickets", "where": {"key": key}}]}


def _handled(draft: Draft, params: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The request's checks as decided: its status, and the access or the purchase on a yes (forbidden on a no)."""
    org = draft.org
    requester = org.person(params["requester"])
    approved, access = params["decision"] == "approve", params["kind"] == "access"
    checks: list[dict[str, Any]] = [
        {
            "name": f"{key} is {'done' if approved else 'cancelled'}",
            "app": "tickets",
            "table": "tickets",
            "where": {"key": key, "status": "done" if approved else "cancelled"},
        },
    ]
    purchase = {"app": "tickets", "table": "tickets", "change": "added", "where": {"assignee": params["buyer"]}}
    shared = {
        "app": "docs",
        "table": "documents",
        "where": {"id": "asked-doc", "shared_with": {"has": {"email": requester.email}}},
    }
    if approved and access:
        checks.append(
            {
                "name": f"{requester.first_name} can edit the doc",
                "app": "docs",
                "table": "documents",
                "where": {"id": "asked-doc", "shared_with": {"has": {"email": requester.email, "role": "editor"}}},
            }
        )
    elif approved:
        checks.append(
            {
                "name": f"one purchase ticket for {org.person(params['buyer']).first_name} states EUR "
                f"{params['amount']:,}",
                "app": "tickets",
                "table": "tickets",
                "added": True,
                "where": {
                    "assignee": params["buyer"],
                    "project": living.project_key(org),
                    "any": [
                        {
                            "description": {
                                "mentions_amount": {"value": params["amount"], "currency": "EUR", "claimed": True}
                            }
                        },
                        {"title": {"mentions_amount": {"value": params["amount"], "currency": "EUR", "claimed": True}}},
                    ],
                },
            }
        )
        checks.append(
            {
                "name": f"it names the cost centre {params['centre']}",
                "app": "tickets",
                "table": "tickets",
                "added": True,
                "where": {
                    "assignee": params["buyer"],
                    "any": [{"description": {"says": params["centre"]}}, {"title": {"says": params["centre"]}}],
                },
            }
        )
    else:
        draft.forbid.append(
            {"name": "nothing is granted or bought after a refusal", **(shared if access else purchase)}
        )
    return checks
