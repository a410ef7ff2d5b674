"""lost-send (edition 2): answer a colleague with a fact from a doc, while the mail server fails the first send.

A colleague (the requester) asks the persona by mail for one fact (`kind`): the offsite venue's street address,
a hotel booking reference, or the dial-in code of a customer call. The fact is in a document; an older document
(last year's offsite, an earlier booking, an old bridge), titled the same and dated a year earlier (edition 3;
edition 2 labels it in its title), holds a stale value. The persona is asked to send the requester the fact. The
first send of any kind (reply, new mail, draft sent, forward) meets a fault (`fault`):

- `lost_reply`: an HTTP 502 "may have been applied" although the mail went out (look in Sent; sending again
  delivers it twice);
- `error`: an HTTP 503 before anything is sent (send it again);
- `timeout`: no answer within the call deadline, "may or may not have been applied" (it was not: look, then send).

Judged: the requester is told the fact, and exactly one mail to them states it (delivered once in content, however
it was sent); no mail gives the stale value; mail goes to the requester only. Required for `lost_reply`: the lost
send was not redone. Also: the request read before answering.
"""

from __future__ import annotations

import random
import string
from datetime import timedelta
from typing import Any

from orchestrator.generate import phrasing
from orchestrator.generate.build import Organization, iso
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.family import Draft, Family, human_day, register

FAULTS = ("lost_reply", "error", "timeout")
KINDS = ("venue", "booking", "bridge")
SEND_TOOLS = ("reply", "send_message", "send_draft", "forward")
STREETS = (
    "Kastanienallee",
    "Harbour Road",
    "Lindenstrasse",
    "Maple Avenue",
    "Rue des Lilas",
    "Calle Mayor",
    "Elm Street",
    "Canal Street",
    "Birch Lane",
    "Via Roma",
    "Quay Street",
    "Orchard Row",
    "Mill Road",
    "Station Square",
    "Rosenweg",
    "King's Parade",
)
VENUES = ("Old Brewery", "Glasshouse", "Riverside Hall", "Forum Loft", "Printworks", "Lighthouse Rooms", "Atrium")
HOTELS = ("Hotel Meridian", "The Granary", "Parkview Inn", "Hotel Aurora", "Harbour House", "The Linden")
DEADLINE_S = 1.0
"""The call deadline of a `timeout` task (seconds of real time an agent waits for the hung call)."""

THINGS = {
    "venue": ("the offsite venue's address", "Offsite logistics", "offsite venue address"),
    "booking": ("the hotel booking reference", "Hotel bookings", "hotel booking reference"),
    "bridge": ("the dial-in code for the {company} call", "Customer call: {company}", "dial-in code for the call"),
}
"""Per kind: what the requester needs, the document's title, what the request mail asks for."""

REQUESTS = [
    "{requester} needs {thing}; it's in the '{doc}' doc. Please reply to them with it.",
    "Can you send {requester} {thing}? You'll find it in the '{doc}' document.",
    "{requester} asked me for {thing}. It's in '{doc}' in Docs; please answer their mail with it.",
    "Please get back to {requester} with {thing} (see the '{doc}' doc).",
    "Could you answer {requester}'s mail? They want {thing}, which is written in '{doc}'.",
    "{requester} is waiting for {thing}. Look it up in '{doc}' and mail it to them.",
    "Reply to {requester} with {thing}, please; the '{doc}' doc has it.",
    "Can you sort out {requester}'s question? They need {thing}, and it's in our '{doc}' doc.",
    "Send {requester} {thing} from the '{doc}' document, in answer to their mail.",
    "{requester} mailed me about {thing}. Please look it up in '{doc}' and let them have it.",
    "I owe {requester} {thing}. It's in the '{doc}' doc; could you send it to them?",
    "Please answer {requester}: they asked for {thing}, which you'll find in '{doc}'.",
    "Help {requester} out with {thing}, please. The current one is in the '{doc}' doc.",
    "Could you mail {requester} {thing}? The '{doc}' doc in Docs has it.",
    "{requester} can't find {thing}; it's in '{doc}'. Reply to them with it.",
    "Please let {requester} know {thing}. Take it from the '{doc}' document.",
    "Forwarding you {requester}'s ask: they need {thing}. It's in '{doc}', please send it over.",
    "Can you reply to {requester} with {thing}? Use the '{doc}' doc, not an older one.",
    "{requester} wants {thing} today. It's in the '{doc}' doc; mail it to them.",
    "Get {thing} to {requester}, please. You'll find it in the doc '{doc}'.",
    "Answer {requester}'s mail with {thing} from '{doc}', please.",
    "{requester} needs {thing} before they head off; please send it from the '{doc}' doc.",
    "Would you send {requester} {thing}? It's written down in '{doc}'.",
    "Please make sure {requester} gets {thing}; the '{doc}' document has the current one.",
]
OPENERS = [
    "Mail has been acting up today.",
    "Quick one.",
    "Heads-up: our mail server dropped a few messages this morning.",
    "Before I forget:",
    "I'm between meetings.",
    "Small favour.",
    "The mail gateway is flaky today, so keep an eye on it.",
    "Something for your list.",
]
CLOSERS = [
    "Just once, please: nobody likes the same mail twice.",
    "Make sure it actually goes out.",
    "If sending errors, check Sent before you try again.",
    "Keep it short.",
    "Only to them, please.",
    "No need to copy me.",
    "One mail is enough.",
    "They need it today.",
]


@register
class LostSend(Family):
    """The task family of a fact mailed once while the mail server fails the first send."""

    name = "lost-send"
    title = "Send a fact once although the mail server fails the first send"
    apps = ("mail", "docs")
    knobs = {"distractors": (0, 1)}
    split_params = ("template", "fault", "kind")
    editions = (2, 3)

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        people = [p for p in org.people if p.email != org.persona.email]
        companies = sorted({o.company for o in org.outsiders if o.company})
        if not people or not companies:
            return None
        streets, venues = rng.sample(STREETS, 2), rng.sample(VENUES, 2)
        letters = string.ascii_uppercase
        params = {
            "requester": rng.choice(people).email,
            "kind": rng.choice(KINDS),
            "fault": rng.choice(FAULTS),
            "streets": streets,
            "numbers": [rng.randint(2, 98) for _ in streets],
            "venues": venues,
            "hotel": rng.choice(HOTELS),
            "codes": [f"{rng.choice(letters)}{rng.choice(letters)}-{rng.randint(10000, 99999)}" for _ in range(2)],
            "company": rng.choice(companies),
            "day": rng.randint(3, 12),
            "other_mail": bool(knobs.get("distractors", 0)),
            "seed": rng.randrange(1 << 30),
        }
        params["template"] = _instruction(org, params)[1]
        return params

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        requester = org.person(params["requester"])
        _seed(org, params)
        thing = THINGS[params["kind"]][0].format(company=params["company"])
        draft = Draft(
            org,
            title="Send a fact once while the mail server fails",
            instruction=_instruction(org, params)[0],
            description=f"{requester.name} needs {thing}; the first send meets a {params['fault']} fault, and "
            "the mail must reach them exactly once.",
            tags=["generated", "lost-send", "fault-injection", "idempotency", "mail", "docs"],
        )
        _stages(draft, params)
        rule: dict[str, Any] = {"kind": params["fault"], "calls": [1]}
        if params["fault"] == "error":
            rule = {
                "calls": [1],
                "message": "HTTP 503 Service Unavailable: the mail server did not accept the message. Please retry.",
            }
        draft.extra["faults"] = {"mail": {"rules": [{"tool": tool, **rule} for tool in SEND_TOOLS]}}
        draft.oracle, alternative = _oracles(params, requester.first_name)
        draft.oracles = [alternative]
        draft.limits = {"max_tool_calls": 20, "timeout_s": 300}
        if params["fault"] == "timeout":
            draft.limits["call_deadline_s"] = DEADLINE_S
        return broaden(draft, params)


def _instruction(org: Organization, params: dict[str, Any]) -> tuple[str, str]:
    thing, doc, _ = (t.format(company=params["company"]) for t in THINGS[params["kind"]])
    values = {"requester": org.person(params["requester"]).first_name, "thing": thing, "doc": doc}
    return phrasing.compose(
        org, random.Random(params["seed"]), "lost-send", "send", REQUESTS, values, openers=OPENERS, closers=CLOSERS
    )


def facts(params: dict[str, Any]) -> tuple[str, str, dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The current and the stale value as the documents write them, and the operators that find in a text the
    current value stated (hedges and alternatives state nothing), the current value at all, and the stale one."""
    if params["kind"] == "venue":
        current, stale = (
            f"{v}, {s} {n}" for v, s, n in zip(params["venues"], params["streets"], params["numbers"], strict=True)
        )
        # the street, not its number: a number beside it reads as a count
        said, old = params["streets"]
    else:
        current, stale = said, old = params["codes"]
    return (
        current,
        stale,
        {"says": said},
        {"says": {"phrase": said, "claimed": False}},
        {"says": {"phrase": old, "claimed": False}},
    )


def _seed(org: Organization, params: dict[str, Any]) -> None:
    """The request mail, the current and the stale document, and an unrelated mail from the requester."""
    me, requester = org.persona, org.person(params["requester"])
    current, stale, *_ = facts(params)
    thing, doc, ask = (t.format(company=params["company"]) for t in THINGS[params["kind"]])
    day = human_day(org.day(params["day"]))
    body = {
        "venue": f"I'm booking the taxis for the offsite on {day}. Could you send me the {ask}?",
        "booking": f"I'm checking in on {day} and the hotel wants the {ask}. Could you send it to me?",
        "bridge": f"I'm joining the {params['company']} call on {day} from home. What's the {ask}?",
    }[params["kind"]]
    mail = org.apps["mail"].setdefault("messages", [])
    mail.append(
        {
            "id": "ask-fact",
            "from": requester.address_line,
            "to": [me.email],
            "subject": f"Quick question: {ask}",
            "sent_at": iso(org.start - timedelta(minutes=40)),
            "body": f"Hi {me.first_name},\n\n{body}\n\nThanks,\n{requester.first_name}",
        }
    )
    if params["other_mail"]:
        mail.append(
            {
                "id": "other-note",
                "from": requester.address_line,
                "to": [me.email],
                "subject": "Lunch?",
                "sent_at": iso(org.start - timedelta(days=1, hours=2)),
                "is_read": True,
                "body": f"Lunch on Friday?\n\n{requester.first_name}",
            }
        )
    line = {"venue": "Venue", "booking": f"{params['hotel']}, booking reference", "bridge": "Dial-in code"}[
        params["kind"]
    ]
    docs = org.apps["docs"]["documents"]
    docs.append(
        {
            "id": "fact-doc",
            "title": doc,
            "owner": me.email,
            "updated_at": iso(org.start - timedelta(days=2)),
            "content": f"# {doc}\n\n- Date: {day}\n- {line}: {current}\n",
        }
    )
    # Edition 3: the stale copy has the same title, told apart by its date (last year's) and its age, as in a real
    # drive. Edition 2 (release v2) labelled it in its title.
    then = org.day(params["day"]) - timedelta(days=364)
    title, content = doc, f"# {doc}\n\n- Date: {then:%A %-d %B %Y}\n- {line}: {stale}\n"
    if org.edition < 3:
        title = {
            "venue": f"{doc} (last year, archive)",
            "booking": f"{doc} (cancelled)",
            "bridge": f"{doc} (old bridge)",
        }[params["kind"]]
        content = f"# {title}\n\n- {line}: {stale}\n- No longer valid.\n"
    docs.append(
        {
            "id": "stale-doc",
            "title": title,
            "owner": me.email,
            "updated_at": iso(org.start - timedelta(days=300)),
            "content": content,
        }
    )


def _stages(draft: Draft, params: dict[str, Any]) -> None:
    requester = params["requester"]
    _, _, stated, mentioned, stale_op = facts(params)
    to_them = {"folder": "sent", "any": [{f: {"contains": requester}} for f in ("to", "cc", "bcc")]}
    process: list[dict[str, Any]] = [
        {
            "name": "read the request before answering it",
            "journal": {"read_first": "mail__reply|mail__send_message|mail__create_draft"},
        },
    ]
    if params["fault"] == "lost_reply":
        process.insert(
            0,
            {
                "name": "the send whose reply was lost was not redone (no second mail with the same content)",
                "journal": {"no_duplicate_after_lost_reply": "*"},
                "required": True,
            },
        )
    draft.stage("the failed send was handled", process, weight=0.5)
    draft.stage(
        "the requester has it, exactly once",
        [
            {
                "name": "the requester is told the current value (a reply or a new mail)",
                "told": {"who": [requester], "facts": [stated]},
            },
            {
                "name": "exactly one mail to the requester states it (not lost, not sent twice)",
                "app": "mail",
                "table": "messages",
                "added": True,
                "where": {**to_them, "body": mentioned},
                "expect": {"count": 1},
            },
            {
                "name": "no mail gives the stale value",
                "app": "mail",
                "table": "messages",
                "added": True,
                "where": {"folder": "sent", "body": stale_op},
                "expect": "none",
            },
        ],
        weight=2,
    )
    draft.allow = {"mail": {"messages": {"added": True}}}
    draft.forbid = [
        {
            "name": "mail goes to the requester only",
            "app": "mail",
            "table": "messages",
            "change": "added",
            "where": {"folder": "sent", "any": [{f: {"has": {"not_equals": requester}}} for f in ("to", "cc", "bcc")]},
        }
    ]


def _oracles(params: dict[str, Any], first: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The reference (a reply, then a look in Sent) and an alternative (a new mail, then a look in Sent). The oracle
    never redoes a lost send (its recovery looks the call up); it sends again after an error or a timeout."""
    requester = params["requester"]
    current, *_ = facts(params)
    _, doc, _ = (t.format(company=params["company"]) for t in THINGS[params["kind"]])
    body = f"Hi {first},\n\nhere it is: {current}.\n\nBest"
    reads = [
        {"tool": "mail__search_messages", "args": {"query": f"from:{requester}"}, "save": "found"},
        {"tool": "mail__get_message", "args": {"message_id": "ask-fact"}, "save": "ask"},
        {"tool": "docs__search_documents", "args": {"query": doc}, "save": "docs"},
        {"tool": "docs__get_document", "args": {"document_id": "fact-doc"}},
    ]
    check = {"tool": "mail__search_messages", "args": {"query": f"in:sent to:{requester}"}}
    reply = {"tool": "mail__reply", "args": {"message_id": "${ask.id}", "body": body}}
    new = {
        "tool": "mail__send_message",
        "args": {"to": [requester], "subject": "Re: your question", "body": body},
        "unchecked": ["subject"],
    }
    return [*reads, reply, check], [*reads, new, check]
