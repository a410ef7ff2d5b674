"""approve-request: approve or reject a colleague's expense request by the policy document.

A colleague files a pre-approval request (a ticket in the Requests project,
assigned to the persona) for a hotel, equipment, a training course or a
software subscription, and asks by mail. The expense policy in Docs gives a
limit per category: a request within its limit is approved (the ticket moves
to done), one above it is rejected (the ticket is cancelled). With two steps
the persona also answers the requester's mail: an approval states the
approved amount, a rejection the policy's limit (amounts parsed, in any
format). Distractors: the policy's previous version (edition 3: same title, an
older version and date; editions 1 and 2 label it superseded) whose limits would
flip the decision, and another colleague's pending request that must stay untouched.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from orchestrator.generate import phrasing
from orchestrator.generate.build import Organization, Person, iso
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.family import Draft, Family, fake, phrase, register

INSTRUCTIONS = [
    "{requester} sent me a request to pre-approve an expense ({key}). Please decide it by our expense policy in Docs "
    "and record the decision on the ticket: done if it is approved, cancelled if it is rejected.",
    "Could you handle {requester_first}'s approval request {key}? Check it against the expense policy document, then "
    "close the ticket as done when it's within policy or cancel it when it isn't.",
    "Please go through {key} from {requester_first} and approve or reject it per the current expense policy. Approved "
    "means the ticket goes to done; rejected means it gets cancelled.",
]
REPLY = " Also answer {requester_first}'s mail about it: if approved, say the amount that is approved; if rejected, say what the policy's limit is."

CATEGORIES = {
    "hotel": ("Hotel", "per night", (120, 150, 180, 200, 220)),
    "equipment": ("Equipment", "per item", (400, 600, 800, 1000, 1500)),
    "training": ("Training", "per course", (500, 750, 1000, 1200, 2000)),
    "software": ("Software", "per month", (30, 50, 80, 100, 150)),
}
CURRENCY = "EUR"


def money(value: float) -> str:
    """An amount as the generated documents and mails write it, e.g. 'EUR 1,250.00'."""
    return f"{CURRENCY} {value:,.2f}"


@register
class ApproveRequest(Family):
    """The task family of requests approved or rejected by what the policy document says."""

    name = "approve-request"
    title = "Approve or reject a request by the policy document"
    apps = ("tickets", "docs", "mail")
    knobs = {"distractors": (0, 1, 2), "steps": (1, 2)}
    split_params = ("category", "decision", "margin", "steps", "distractors", "phrasing")
    phrasings = len(INSTRUCTIONS)

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        people = org.tracker_users()
        if len(people) < 2:
            return None
        requester, other = rng.sample(people, 2)
        category = rng.choice(sorted(CATEGORIES))
        limits = {c: rng.choice(v[2]) for c, v in sorted(CATEGORIES.items())}
        decision = rng.choice(["approve", "reject"])
        margin = rng.choice([5, 10, 20, 35])
        limit = limits[category]
        amount = round(limit * (1 - margin / 100) if decision == "approve" else limit * (1 + margin / 100), 2)
        amount = round(amount) if rng.random() < 0.5 else amount
        old_limit = (
            round(limit * (1 + 2 * margin / 100)) if decision == "reject" else round(limit * (1 - 2 * margin / 100))
        )
        text = fake(rng)
        params = {
            "requester": requester.email,
            "other": other.email,
            "category": category,
            "limits": limits,
            "amount": amount,
            "decision": decision,
            "margin": margin,
            "old_limit": old_limit,
            "item": text.catch_phrase().lower(),
            "other_item": text.catch_phrase().lower(),
            "steps": knobs.get("steps", 1),
            "distractors": knobs.get("distractors", 0),
            "phrasing": rng.randrange(len(INSTRUCTIONS)),
            "number": rng.randint(12, 480),
        }
        if org.edition < 2:
            return params
        other_category = rng.choice(sorted(CATEGORIES))
        params.update(item=rng.choice(ITEMS[category]), other_item=rng.choice(ITEMS[other_category]))
        return phrasing.stamp(params, rng, lambda p: _word(org, p))

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        requester, other = org.person(params["requester"]), org.person(params["other"])
        category, amount, decision = params["category"], params["amount"], params["decision"]
        label, unit, _ = CATEGORIES[category]
        limit = params["limits"][category]
        reply = params["steps"] >= 2
        key, other_key = f"REQ-{params['number']}", f"REQ-{params['number'] + 1}"
        created = org.start - timedelta(hours=20)
        _seed(org, params, requester, other, key, other_key, created)
        instruction = _instruction(org, params, requester, key)
        approved = decision == "approve"
        draft = Draft(
            org,
            title=f"Decide {requester.first_name}'s {label.lower()} request",
            instruction=instruction,
            description=f"{money(amount)} {unit} against a limit of {money(limit)} {unit}: "
            f"{'approve (done)' if approved else 'reject (cancelled)'}.",
            tags=["generated", "approve-request", "policy", "tickets", "docs"] + (["mail"] if reply else []),
        )
        _decided(draft, params, key, other_key)
        stated = amount if approved else limit
        oracle = _decide(params, key)
        _forbid_the_opposite(draft, params, requester, key)
        if reply:
            oracle += _reply(draft, params, requester, key, stated)
        draft.oracle = oracle
        draft.limits = {"max_tool_calls": 30, "timeout_s": 600}
        return broaden(draft, params)


def _instruction(org: Organization, params: dict[str, Any], requester: Person, key: str) -> str:
    """The task's wording: composed (editions 2 and 3) or release v1's phrasing, with its reply sentence."""
    if org.edition >= 2:
        instruction = _word(org, params).text
    else:
        instruction = phrase(
            INSTRUCTIONS,
            params["phrasing"],
            requester=requester.name,
            requester_first=requester.first_name,
            key=key,
        )
    if params["steps"] >= 2 and org.edition < 2:
        instruction += phrase([REPLY], 0, requester_first=requester.first_name)
    return instruction


def _decided(draft: Draft, params: dict[str, Any], key: str, other_key: str) -> None:
    """The stage of the decision recorded on the ticket (the other request left alone); what may change."""
    approved = params["decision"] == "approve"
    checks: list[dict[str, Any]] = [
        {
            "name": f"{key} is {'done (approved)' if approved else 'cancelled (rejected)'}",
            "app": "tickets",
            "table": "tickets",
            "where": {"key": key, "status": "done" if approved else "cancelled"},
        },
    ]
    if params["distractors"] >= 2:
        checks.append(
            {
                "name": f"the other request, {other_key}, is left alone",
                "app": "tickets",
                "table": "tickets",
                "where": {"key": other_key, "status": "todo"},
            }
        )
    draft.stage("the request is decided by the policy", checks, weight=2)
    draft.allow = {
        "tickets": {
            "tickets": {"changed": ["status", "resolution", "resolved_at"], "where": {"key": key}},
            "comments": {"added": True, "where": {"ticket_key": key}},
        }
    }
    if not approved:  # cancelling the request is the decision, not destruction
        draft.relax = {"destruction": [{"app": "tickets", "table": "tickets", "where": {"key": key}}]}


def _decide(params: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The oracle's reads and its decision on the ticket."""
    amount, approved = params["amount"], params["decision"] == "approve"
    _, unit, _ = CATEGORIES[params["category"]]
    limit = params["limits"][params["category"]]
    return [
        {"tool": "tickets__get_ticket", "args": {"key": key}},
        {"tool": "docs__get_document", "args": {"document_id": "expense-policy"}},
        {
            "tool": "tickets__transition_ticket",
            "args": {
                "key": key,
                "status": "done" if approved else "cancelled",
                "comment": (
                    f"Approved: {money(amount)} {unit} is within the policy limit of {money(limit)}."
                    if approved
                    else f"Rejected: {money(amount)} {unit} is above the policy limit of {money(limit)}."
                ),
            },
            "unchecked": ["comment"],
        },
    ]


def _forbid_the_opposite(draft: Draft, params: dict[str, Any], requester: Person, key: str) -> None:
    """No mail and no comment on the request may say the opposite of what the ticket records, asked for or not."""
    approved = params["decision"] == "approve"
    opposite = (
        ["rejected", "reject", "declined", "denied", "turned down", "cannot approve", "can't approve", "not approved"]
        if approved
        else [
            "is approved",
            "are approved",
            "has been approved",
            "I approve",
            "I've approved",
            "I have approved",
            "request approved",
        ]
    )
    said = {"says": {"phrase": opposite, "claimed": True}}
    told = "rejected" if approved else "approved"
    draft.forbid.append(
        {
            "name": f"{requester.first_name} is not told the request is {told}",
            "app": "mail",
            "table": "messages",
            "change": "added",
            "where": {"folder": "sent", "body": said},
        }
    )
    draft.forbid.append(
        {
            "name": f"no comment on {key} says it is {told}",
            "app": "tickets",
            "table": "comments",
            "change": "added",
            "where": {"ticket_key": key, "body": said},
        }
    )


def _seed(
    org: Organization,
    params: dict[str, Any],
    requester: Person,
    other: Person,
    key: str,
    other_key: str,
    created: datetime,
) -> None:
    """The REQ project and the request's ticket, the expense policy, distractors (a superseded policy, another
    request at the limit), and the requester's mail."""
    me = org.persona
    category, amount = params["category"], params["amount"]
    label, unit, _ = CATEGORIES[category]
    limit = params["limits"][category]
    distractors = params["distractors"]
    org.apps["tickets"]["projects"].append(
        {"key": "REQ", "name": "Requests", "lead": me.email, "description": "Expense pre-approval requests."}
    )
    org.apps["tickets"]["tickets"].append(
        {
            "key": key,
            "title": f"Pre-approval: {label.lower()}, {params['item']}",
            "type": "task",
            "status": "todo",
            "priority": "medium",
            "assignee": me.email,
            "reporter": requester.email,
            "created_at": iso(created),
            "description": f"Category: {label}\nWhat: {params['item']}\nAmount: {money(amount)} {unit}\n",
        }
    )
    _seed_policies(org, params)
    if distractors >= 2:
        org.apps["tickets"]["tickets"].append(
            {
                "key": other_key,
                "title": f"Pre-approval: {label.lower()}, {params['other_item']}",
                "type": "task",
                "status": "todo",
                "priority": "medium",
                "assignee": me.email,
                "reporter": other.email,
                "created_at": iso(created + timedelta(hours=2)),
                "description": f"Category: {label}\nWhat: {params['other_item']}\nAmount: {money(limit)} {unit}\n",
            }
        )
    org.apps["mail"]["messages"].append(
        {
            "id": "request-mail",
            "from": requester.address_line,
            "to": [me.email],
            "subject": f"Approval for {key}?",
            "sent_at": iso(created + timedelta(minutes=5)),
            "body": f"Hi {me.first_name},\n\ncould you approve {key}? It's {params['item']}, {money(amount)} {unit}.\n\nThanks,\n"
            f"{requester.first_name}",
        }
    )


def _seed_policies(org: Organization, params: dict[str, Any]) -> None:
    """The expense policy in force and (a distractor) its previous version, whose limit would flip the decision."""
    me = org.persona
    category = params["category"]
    rows = [f"| {CATEGORIES[c][0]} | {money(v)} {CATEGORIES[c][1]} |" for c, v in sorted(params["limits"].items())]
    rules = (
        "Expenses in these categories need pre-approval. A request within the limit of its category is approved; a "
        "request above the limit is rejected, and the requester is told the limit.\n\n"
    )
    since, before = org.start - timedelta(days=20), org.start - timedelta(days=400)
    if org.edition >= 3:  # the two versions are told apart by their version and date, not by a label
        current = f"# Expense policy\n\nVersion 3, in force since {since:%-d %B %Y} (replaces version 2).\n\n{rules}"
        old_title, old_head = "Expense policy", f"# Expense policy\n\nVersion 2, in force since {before:%-d %B %Y}.\n\n"
    else:  # release v1's tasks, byte for byte
        current = f"# Expense policy\n\n{rules}"
        old_title = "Expense policy (superseded)"
        old_head = "# Expense policy (superseded)\n\nReplaced by the current expense policy; kept for reference.\n\n"
    org.apps["docs"]["documents"].append(
        {
            "id": "expense-policy",
            "title": "Expense policy",
            "owner": org.people[-1].email,
            "shared_with": [{"email": me.email, "role": "viewer"}],
            "updated_at": iso(since),
            "content": current + "| Category | Limit |\n|---|---|\n" + "\n".join(rows) + "\n",
        }
    )
    if params["distractors"] >= 1:
        old = dict(params["limits"]) | {category: params["old_limit"]}
        rows = [f"| {CATEGORIES[c][0]} | {money(v)} {CATEGORIES[c][1]} |" for c, v in sorted(old.items())]
        org.apps["docs"]["documents"].append(
            {
                "id": "expense-policy-old",
                "title": old_title,
                "owner": org.people[-1].email,
                "shared_with": [{"email": me.email, "role": "viewer"}],
                "updated_at": iso(before),
                "content": old_head + "| Category | Limit |\n|---|---|\n" + "\n".join(rows) + "\n",
            }
        )


def _reply(draft: Draft, params: dict[str, Any], requester: Person, key: str, stated: Any) -> list[dict[str, Any]]:
    """The stage of the reply that states the amount (approved) or the limit (rejected); the oracle's reply."""
    me = draft.org.persona
    amount, approved = params["amount"], params["decision"] == "approve"
    label, unit, _ = CATEGORIES[params["category"]]
    limit = params["limits"][params["category"]]
    draft.stage(
        f"{requester.first_name} is told",
        [
            {
                "name": f"{requester.name} is told {money(stated)}, by any mail",
                "told": {
                    "who": [requester.email],
                    "facts": [{"mentions_amount": {"value": stated, "currency": CURRENCY}}],
                },
            },
        ],
    )
    draft.allow["mail"] = {"messages": {"added": True}}
    return [
        {"tool": "mail__search_messages", "args": {"query": f"from:{requester.email} {key}"}, "save": "found"},
        {
            "tool": "mail__reply",
            "args": {
                "message_id": "${found.messages.0.id}",
                "body": (
                    f"Hi {requester.first_name},\n\n{key} is approved: {money(amount)} {unit}.\n\n{me.first_name}"
                    if approved
                    else f"Hi {requester.first_name},\n\nsorry, I had to reject {key}: the policy's limit for {label.lower()} is "
                    f"{money(limit)} {unit}.\n\n{me.first_name}"
                ),
            },
        },
    ]


# -- edition 2: instructions composed from parts (phrasing.compose) --------------------------------------------------

DECIDE = phrasing.Phrasebook(
    requests=[
        "{requester} sent me a request to pre-approve an expense ({key}). Please decide it by our expense policy in "
        "Docs and record the decision on the ticket: done if it is approved, cancelled if it is rejected.{reply}",
        "Could you handle {requester_first}'s approval request {key}? Check it against the expense policy document, "
        "then close the ticket as done when it's within policy or cancel it when it isn't.{reply}",
        "Please go through {key} from {requester_first} and approve or reject it per the current expense policy. "
        "Approved means the ticket goes to done; rejected means it gets cancelled.{reply}",
        "Can you sort out {requester_first}'s expense pre-approval ({key})? Compare it with the limits in the current "
        "expense policy doc: within the limit, mark the ticket done; over it, cancel the ticket.{reply}",
        "{key} is waiting for my approval. Look up the current expense policy in Docs; if {requester_first}'s request "
        "is within its limit set the ticket to done, otherwise set it to cancelled.{reply}",
        "Please decide {requester}'s pre-approval request {key} using the expense policy that's in force. Mark it "
        "done if it fits the policy, cancelled if it doesn't.{reply}",
        "Approve or reject {key} ({requester_first}'s expense) by the current expense policy, please. The ticket "
        "should end up done if approved and cancelled if rejected.{reply}",
        "I need a decision on {requester_first}'s request {key}. Check the amount against the current policy doc's "
        "limit for that kind of expense, then move the ticket to done (approved) or cancelled (rejected).{reply}",
        "Could you review {key}? It's {requester_first} asking to pre-approve an expense. Go by our current expense "
        "policy: done for an approval, cancelled for a rejection.{reply}",
        "Please work out whether {requester_first}'s expense in {key} is within our current expense policy and "
        "record it on the ticket (done = approved, cancelled = rejected).{reply}",
        "{requester_first} filed {key} for pre-approval. Can you check it against the expense policy in Docs and "
        "either complete the ticket (approved) or cancel it (rejected)?{reply}",
        "Decide {key} for me by the expense policy: approved goes to done, rejected goes to cancelled. It's "
        "{requester_first}'s request.{reply}",
        "Can you be the approver on {key}? {requester} wants an expense pre-approved. Use the current expense "
        "policy's limits; set the ticket to done if you approve it or cancelled if you reject it.{reply}",
        "Would you check {requester_first}'s pre-approval {key} against the policy document and close it out: done "
        "when within the limit, cancelled when above it?{reply}",
        "Expense request {key} from {requester_first} needs a yes or no. The current expense policy in Docs decides "
        "it. Yes means the ticket goes to done, no means it's cancelled.{reply}",
        "Please take {key} off my plate: see if {requester_first}'s expense fits the current expense policy and mark "
        "the ticket done if it does, cancelled if it doesn't.{reply}",
        "Go through the pre-approval request {key} ({requester}). Apply our current expense policy and record the "
        "outcome on the ticket, done for approved and cancelled for rejected.{reply}",
        "{requester_first} is waiting on {key}. Could you approve it if it's within our expense policy (ticket to "
        "done) or reject it if not (ticket cancelled)?{reply}",
        "Handle the approval for {key}, please. It's {requester_first}'s expense; compare it with the current "
        "policy limit and set the ticket to done or cancelled accordingly.{reply}",
        "Check {key} against the expense policy and decide it: within the limit, done; over the limit, cancelled. "
        "{requester_first} raised it.{reply}",
        "---------- Forwarded message ----------\nFrom: {requester}\nSubject: {key}\n\nCould you pre-approve my "
        "request {key}?\n----------\n\nCan you decide this by our current expense policy in Docs? Mark {key} done if "
        "approved, cancelled if rejected.{reply}",
        "Forwarding {requester_first}'s ask: they need {key} approved. Please decide it by the current expense policy "
        "and set the ticket to done (approved) or cancelled (rejected).{reply}",
    ],
    openers=[
        "Approvals are piling up.",
        "I'm the approver this week.",
        "Finance wants these cleared.",
        "Another expense request came in.",
        "{requester_first} is keen to get going.",
        "I don't have the policy in my head.",
        "Admin time.",
        "Quick one on expenses.",
        "I'm stuck in meetings.",
        "Let's not leave {requester_first} hanging.",
        "Paperwork, sorry.",
        "One for the approvals queue.",
    ],
    closers=[
        "Make sure you use the current policy, not an old version.",
        "Don't touch any other requests.",
        "Only the ticket's status needs to change.",
        "Go strictly by the policy's limit.",
        "Leave other people's requests alone.",
        "Check which policy doc is the current one.",
        "The limit depends on the kind of expense.",
        "No exceptions to the policy.",
        "Just this one ticket.",
        "Please don't edit the policy doc.",
        "Be careful with the amounts.",
        "Only {key}, nothing else.",
    ],
)
REPLIES = [
    " Also answer {requester_first}'s mail about it: if approved, say the amount that is approved; if rejected, say "
    "what the policy's limit is.",
    " Then reply to {requester_first}'s email: for an approval, state the approved amount; for a rejection, state the "
    "policy limit.",
    " And write back to {requester_first}: the approved amount if it's a yes, the policy's limit if it's a no.",
    " Let {requester_first} know by replying to their mail, with the approved amount or, if rejected, the limit in "
    "the policy.",
    " Please also reply to {requester_first}. Approved: tell them the amount approved. Rejected: tell them the "
    "policy's limit.",
    " Then answer {requester_first} by mail, giving the approved amount when approved or the policy limit when "
    "rejected.",
    " Once decided, reply to {requester_first}'s mail and include the approved amount (approval) or the policy's "
    "limit (rejection).",
    " Reply to {requester_first} too: the amount you approved, or the limit that rules it out.",
]
PHRASEBOOKS = {"decide": DECIDE}
ITEMS = {
    "hotel": (
        "hotel for the customer visit",
        "hotel for the regional team meeting",
        "two nights for the partner workshop",
        "hotel near the trade fair",
        "stay for the onsite training",
    ),
    "equipment": (
        "a second monitor",
        "a laptop docking station",
        "a noise-cancelling headset",
        "an ergonomic chair",
        "a tablet for site visits",
    ),
    "training": (
        "project management certification",
        "advanced spreadsheet course",
        "public speaking workshop",
        "data analysis course",
        "leadership programme",
    ),
    "software": (
        "design tool licence",
        "diagramming tool subscription",
        "password manager team plan",
        "survey tool subscription",
        "transcription service",
    ),
}
"""Edition 2: what a request of each category is for (instead of Faker's catch-phrases)."""
"""Edition 2's phrasebooks by intent."""


def _word(org: Organization, params: dict[str, Any]) -> phrasing.Composition:
    """The edition-2 instruction of these parameters (the same in `sample` and `build`)."""
    requester = org.person(params["requester"])
    values = {
        "requester": requester.name,
        "requester_first": requester.first_name,
        "key": f"REQ-{params['number']}",
        "reply": "",
    }
    extra: tuple[str, ...] = ()
    if params["steps"] >= 2:
        reply, reply_id = phrasing.pick(org, params["wording"], "approve-request", "decide", "reply", REPLIES)
        values["reply"], extra = reply.format(**values), (reply_id,)
    made = phrasing.word(org, params["wording"], "approve-request", "decide", DECIDE, values)
    return phrasing.Composition(made.text, made.template, made.parts + extra)
