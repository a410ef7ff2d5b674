"""approve-request: approve or reject a colleague's expense request by the policy document.

A colleague files a pre-approval request (a ticket in the Requests project,
assigned to the persona) for a hotel, equipment, a training course or a
software subscription, and asks by mail. The expense policy in Docs gives a
limit per category: a request within its limit is approved (the ticket moves
to done), one above it is rejected (the ticket is cancelled). With two steps
the persona also answers the requester's mail: an approval states the
approved amount, a rejection the policy's limit (amounts parsed, in any
format). Distractors: a superseded policy whose limits would flip the
decision, and another colleague's pending request that must stay untouched.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from orchestrator.generate.family import Draft, Family, fake, phrase, register
from orchestrator.generate.world import Person, World, iso

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

    def sample(self, world: World, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        people = world.tracker_users()
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
        return {
            "requester": requester.email, "other": other.email, "category": category, "limits": limits, "amount": amount,
            "decision": decision, "margin": margin, "old_limit": old_limit, "item": text.catch_phrase().lower(),
            "other_item": text.catch_phrase().lower(), "steps": knobs.get("steps", 1), "distractors": knobs.get("distractors", 0),
            "phrasing": rng.randrange(len(INSTRUCTIONS)), "number": rng.randint(12, 480),
        }  # fmt: skip

    def build(self, world: World, params: dict[str, Any]) -> Draft:
        requester, other = world.person(params["requester"]), world.person(params["other"])
        category, amount, decision = params["category"], params["amount"], params["decision"]
        label, unit, _ = CATEGORIES[category]
        limit = params["limits"][category]
        distractors, reply = params["distractors"], params["steps"] >= 2
        key, other_key = f"REQ-{params['number']}", f"REQ-{params['number'] + 1}"
        created = world.start - timedelta(hours=20)
        _seed(world, params, requester, other, key, other_key, created)
        instruction = phrase(
            INSTRUCTIONS, params["phrasing"], requester=requester.name, requester_first=requester.first_name, key=key
        )
        if reply:
            instruction += phrase([REPLY], 0, requester_first=requester.first_name)
        approved = decision == "approve"
        draft = Draft(world, title=f"Decide {requester.first_name}'s {label.lower()} request", instruction=instruction,
                      description=f"{money(amount)} {unit} against a limit of {money(limit)} {unit}: "
                      f"{'approve (done)' if approved else 'reject (cancelled)'}.",
                      tags=["generated", "approve-request", "policy", "tickets", "docs"] + (["mail"] if reply else []))  # fmt: skip
        checks: list[dict[str, Any]] = [
            {"name": f"{key} is {'done (approved)' if approved else 'cancelled (rejected)'}", "app": "tickets",
             "table": "tickets", "where": {"key": key, "status": "done" if approved else "cancelled"}},
        ]  # fmt: skip
        if distractors >= 2:
            checks.append({"name": f"the other request, {other_key}, is left alone", "app": "tickets", "table": "tickets",
                           "where": {"key": other_key, "status": "todo"}})  # fmt: skip
        draft.stage("the request is decided by the policy", checks, weight=2)
        draft.allow = {"tickets": {"tickets": {"changed": ["status", "resolution", "resolved_at"], "where": {"key": key}},
                                   "comments": {"added": True, "where": {"ticket_key": key}}}}  # fmt: skip
        if not approved:  # cancelling the request is the decision, not destruction
            draft.relax = {"destruction": [{"app": "tickets", "table": "tickets", "where": {"key": key}}]}
        stated = amount if approved else limit
        oracle: list[dict[str, Any]] = [
            {"tool": "tickets__get_ticket", "args": {"key": key}},
            {"tool": "docs__get_document", "args": {"document_id": "expense-policy"}},
            {"tool": "tickets__transition_ticket", "args": {
                "key": key, "status": "done" if approved else "cancelled",
                "comment": (f"Approved: {money(amount)} {unit} is within the policy limit of {money(limit)}." if approved
                            else f"Rejected: {money(amount)} {unit} is above the policy limit of {money(limit)}.")},
             "unchecked": ["comment"]},
        ]  # fmt: skip
        if approved:  # no mail may say the opposite of what the ticket records, asked for or not
            draft.forbid.append({"name": f"{requester.first_name} is not told the request is rejected", "app": "mail",
                                 "table": "messages", "change": "added", "where": {"folder": "sent", "body": {"says": {
                                     "phrase": ["rejected", "reject", "declined", "denied", "turned down", "cannot approve",
                                                "can't approve", "not approved"], "claimed": True}}}})  # fmt: skip
        if reply:
            oracle += _reply(draft, params, requester, key, stated)
        draft.oracle = oracle
        draft.limits = {"max_tool_calls": 30, "timeout_s": 600}
        return draft


def _seed(
    world: World, params: dict[str, Any], requester: Person, other: Person, key: str, other_key: str, created: datetime
) -> None:
    """The REQ project and the request's ticket, the expense policy, distractors (a superseded policy, another
    request at the limit), and the requester's mail."""
    me = world.persona
    category, amount = params["category"], params["amount"]
    label, unit, _ = CATEGORIES[category]
    limit = params["limits"][category]
    distractors = params["distractors"]
    world.apps["tickets"]["projects"].append({"key": "REQ", "name": "Requests", "lead": me.email,
                                             "description": "Expense pre-approval requests."})  # fmt: skip
    world.apps["tickets"]["tickets"].append({
        "key": key, "title": f"Pre-approval: {label.lower()}, {params['item']}", "type": "task", "status": "todo",
        "priority": "medium", "assignee": me.email, "reporter": requester.email, "created_at": iso(created),
        "description": f"Category: {label}\nWhat: {params['item']}\nAmount: {money(amount)} {unit}\n",
    })  # fmt: skip
    rows = [f"| {CATEGORIES[c][0]} | {money(v)} {CATEGORIES[c][1]} |" for c, v in sorted(params["limits"].items())]
    world.apps["docs"]["documents"].append({
        "id": "expense-policy", "title": "Expense policy", "owner": world.people[-1].email,
        "shared_with": [{"email": me.email, "role": "viewer"}], "updated_at": iso(world.start - timedelta(days=20)),
        "content": ("# Expense policy\n\nExpenses in these categories need pre-approval. A request within the limit of "
                    "its category is approved; a request above the limit is rejected, and the requester is told the "
                    "limit.\n\n| Category | Limit |\n|---|---|\n" + "\n".join(rows) + "\n"),
    })  # fmt: skip
    if distractors >= 1:
        old = dict(params["limits"]) | {category: params["old_limit"]}
        rows = [f"| {CATEGORIES[c][0]} | {money(v)} {CATEGORIES[c][1]} |" for c, v in sorted(old.items())]
        world.apps["docs"]["documents"].append({
            "id": "expense-policy-old", "title": "Expense policy (superseded)", "owner": world.people[-1].email,
            "shared_with": [{"email": me.email, "role": "viewer"}], "updated_at": iso(world.start - timedelta(days=400)),
            "content": ("# Expense policy (superseded)\n\nReplaced by the current expense policy; kept for reference.\n\n"
                        "| Category | Limit |\n|---|---|\n" + "\n".join(rows) + "\n"),
        })  # fmt: skip
    if distractors >= 2:
        world.apps["tickets"]["tickets"].append({
            "key": other_key, "title": f"Pre-approval: {label.lower()}, {params['other_item']}", "type": "task",
            "status": "todo", "priority": "medium", "assignee": me.email, "reporter": other.email,
            "created_at": iso(created + timedelta(hours=2)),
            "description": f"Category: {label}\nWhat: {params['other_item']}\nAmount: {money(limit)} {unit}\n",
        })  # fmt: skip
    world.apps["mail"]["messages"].append({
        "id": "request-mail", "from": requester.address_line, "to": [me.email], "subject": f"Approval for {key}?",
        "sent_at": iso(created + timedelta(minutes=5)),
        "body": f"Hi {me.first_name},\n\ncould you approve {key}? It's {params['item']}, {money(amount)} {unit}.\n\nThanks,\n"
                f"{requester.first_name}",
    })  # fmt: skip


def _reply(draft: Draft, params: dict[str, Any], requester: Person, key: str, stated: Any) -> list[dict[str, Any]]:
    """The stage of the reply that states the amount (approved) or the limit (rejected); the oracle's reply."""
    me = draft.world.persona
    amount, approved = params["amount"], params["decision"] == "approve"
    label, unit, _ = CATEGORIES[params["category"]]
    limit = params["limits"][params["category"]]
    draft.stage(f"{requester.first_name} is told", [
        {"name": f"{requester.name} is told {money(stated)}, by any mail",
         "told": {"who": [requester.email], "facts": [{"mentions_amount": {"value": stated, "currency": CURRENCY}}]}},
    ])  # fmt: skip
    draft.allow["mail"] = {"messages": {"added": True}}
    return [
        {"tool": "mail__search_messages", "args": {"query": f"from:{requester.email} {key}"}, "save": "found"},
        {"tool": "mail__reply", "args": {"message_id": "${found.messages.0.id}", "body": (
            f"Hi {requester.first_name},\n\n{key} is approved: {money(amount)} {unit}.\n\n{me.first_name}" if approved else
            f"Hi {requester.first_name},\n\nsorry, I had to reject {key}: the policy's limit for {label.lower()} is "
            f"{money(limit)} {unit}.\n\n{me.first_name}")}},
    ]  # fmt: skip
