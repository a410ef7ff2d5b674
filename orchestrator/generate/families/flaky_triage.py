"""flaky-triage (edition 2): file and triage the bug reports a colleague mailed, while the tracker misbehaves.

A colleague (the reporter) mailed the persona two or three bug reports this morning, each about one component:
an outage (down for everyone), a bug that blocks one customer, or a cosmetic glitch. The team's triage guide in
Docs says where bugs go (one project), their type, and the priority and severity label each kind gets; feature
ideas are not filed (a distractor mail holds one). The persona is asked to file one ticket per report by the guide
and reply to the reporter with the keys. The tracker fails one `create_ticket` call (`fault`):

- `error`: an HTTP 503 before the tool runs (retry it);
- `timeout`: no answer within the call deadline, "may or may not have been applied" (it was not: look, then retry);
- `rate_limit`: an HTTP 429 naming when to retry (wait, then retry);
- `lost_reply`: an HTTP 502 although the ticket was created (look it up; a blind retry files a duplicate).

Judged: exactly one new ticket per report (found by its component), in the guide's project, a bug at the guide's
priority with its severity label and no other; as many new tickets as reports (no duplicate from a blind retry, no
ticket for the idea); the reporter told every new key. Required process check by fault: the failed create retried
(`error`, `timeout`), the rate limit waited out, or the lost create not redone. Also: the guide read before filing.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from orchestrator.generate import phrasing
from orchestrator.generate.build import Organization, iso
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.family import Draft, Family, register

FAULTS = ("error", "timeout", "rate_limit", "lost_reply")
SEVERITY = {"outage": ("highest", "sev1"), "blocker": ("high", "sev2"), "cosmetic": ("low", "sev3")}
COMPONENTS = (
    "checkout page",
    "CSV export",
    "SSO login",
    "invoice PDF",
    "search results",
    "mobile sync",
    "password reset",
    "dashboard charts",
    "notification emails",
    "file upload",
    "audit log",
    "billing portal",
    "calendar sync",
    "API tokens page",
    "report scheduler",
)
SYMPTOMS = {
    "outage": "Since {time} the {component} fails for every customer with an internal error; nobody can use it.",
    "blocker": "{company}'s admins get an error on the {component} every time, which blocks their month-end work. "
    "Other customers are fine.",
    "cosmetic": "On the {component} the labels overlap the icons by a few pixels. Purely cosmetic, nothing breaks.",
}
IDEAS = (
    ("dark mode", "a dark mode for the dashboard"),
    ("keyboard shortcuts", "keyboard shortcuts in the editor"),
    ("emoji reactions", "emoji reactions on comments"),
)
"""Feature ideas a distractor mail holds: (the words a ticket about it would use, the mail's wording)."""
DEADLINE_S = 1.0
"""The call deadline of a `timeout` task (seconds of real time an agent waits for the hung call)."""

REQUESTS = [
    "{reporter} mailed me {count} bug reports this morning. File a ticket for each following our triage guide in "
    "Docs, and reply to {reporter} with the ticket keys.",
    "Please file {reporter}'s bug reports from today ({count} mails) the way the triage guide says, then send "
    "{reporter} the keys.",
    "Can you sort out the bug reports {reporter} sent me today? One ticket per report, triaged by our guide in Docs, "
    "and let {reporter} know the keys.",
    "{reporter} found {count} bugs; the reports are in my inbox. Ticket each one per the triage guide (project, "
    "priority, severity label) and reply with the keys.",
    "Triage and file today's bug reports from {reporter}: one ticket each, as our bug triage guide says. {reporter} "
    "wants the keys back.",
    "Please turn {reporter}'s {count} bug mails from this morning into tickets, following the triage guide, and tell "
    "{reporter} which keys they got.",
    "There are {count} new bug reports from {reporter} in my mail. File them by the book (the triage guide in Docs) "
    "and reply to {reporter} with the keys so they can follow them.",
    "Could you log {reporter}'s bug reports in the tracker? Our triage guide says where and how. Send {reporter} the "
    "ticket keys afterwards.",
    "File a ticket for every bug {reporter} reported today, triaged per our guide, and reply to them with the keys. "
    "Only real bugs, please.",
    "{reporter} is waiting for tickets for the bugs they mailed me today. Create them as the triage guide describes "
    "and reply with the keys.",
    "Get {reporter}'s {count} bug reports into the tracker (the triage guide in Docs has the rules) and let "
    "{reporter} know the keys.",
    "Can you take care of today's bug reports from {reporter}? Each needs a ticket set up per our triage guide; then "
    "mail {reporter} the keys.",
    "I got {count} bug reports from {reporter}. Please file one ticket per bug exactly as our triage guide says and "
    "answer {reporter} with the keys.",
    "Please process {reporter}'s bug mails from this morning: tickets filed per the triage guide, keys sent back to "
    "{reporter}.",
    "{reporter} reported {count} bugs by mail. Put each into the tracker with the priority and label the triage guide "
    "gives, and reply to {reporter} with the keys.",
    "Bug reports from {reporter} need filing: follow the triage guide in Docs for each, one ticket per bug, and send "
    "{reporter} the keys.",
    "Forwarding you the job: {reporter} sent {count} bug reports today. File them as our guide says and reply to "
    "{reporter} with the ticket keys.",
    "Would you file the bugs {reporter} mailed me today? Triage them with our guide and reply with the keys when "
    "they're in.",
    "Today's bug reports from {reporter} ({count} of them) should become tickets, triaged the way the guide in Docs "
    "says. Reply to {reporter} with the keys.",
    "Please log each of {reporter}'s new bug reports as a ticket (triage guide rules) and tell {reporter} the keys "
    "in a reply.",
    "Handle {reporter}'s {count} bug reports for me: a ticket for each as per the triage guide, then the keys to "
    "{reporter}.",
    "{reporter} needs the bugs from this morning's mails filed. Use our triage guide for project, priority and label, "
    "and reply with the keys.",
    "Please get {reporter}'s reported bugs into the tracker today, triaged as the guide says, and send them the keys.",
    "Can you file {reporter}'s bug reports (in my inbox since this morning) following the triage guide, and reply "
    "to {reporter} with the keys?",
]
OPENERS = [
    "The tracker has been flaky all morning, so double-check what you file.",
    "Heads-up: the ticket system is timing out now and then today.",
    "Busy morning here.",
    "QA was busy yesterday.",
    "I'm in workshops until lunch.",
    "Our tracker is having a bad day, sorry in advance.",
    "Quick one before standup.",
    "Something for your list today.",
]
CLOSERS = [
    "Make sure nothing gets filed twice.",
    "No duplicates, please: check before you retry.",
    "Keep the reply short.",
    "Don't file anything that isn't a bug.",
    "Go by the guide for the priorities, not by gut feeling.",
    "If the tracker errors, look before you try again.",
    "One ticket per bug, no more.",
    "The guide is the doc called 'Bug triage guide'.",
]


@register
class FlakyTriage(Family):
    """The task family of bug reports filed and triaged while the tracker fails a call."""

    name = "flaky-triage"
    title = "File and triage bug reports while the tracker fails"
    apps = ("mail", "docs", "tickets")
    knobs = {"steps": (2, 3), "distractors": (0, 1)}
    split_params = ("template", "fault", "kinds")
    editions = (2, 3)

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        users = {u["email"] for u in org.apps["tickets"]["users"]}
        people = [p for p in org.people if p.email in users and p.email != org.persona.email]
        companies = sorted({o.company for o in org.outsiders if o.company})
        if not people or not companies:
            return None
        count = knobs.get("steps", 2)
        kinds = rng.sample(list(SEVERITY), count)
        seed = rng.randrange(1 << 30)
        params = {
            "reporter": rng.choice(people).email,
            "project": rng.choice(org.apps["tickets"]["projects"])["key"],
            "kinds": kinds,
            "components": rng.sample(COMPONENTS, count),
            "company": rng.choice(companies),
            "times": [f"{rng.randint(6, 8):02d}:{rng.choice(['05', '20', '35', '50'])}" for _ in kinds],
            "idea": list(rng.choice(IDEAS)) if knobs.get("distractors", 0) else None,
            "fault": rng.choice(FAULTS),
            "at": rng.randint(1, count),
            "seed": seed,
        }
        params["template"] = _instruction(org, params)[1]
        return params

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        me, reporter = org.persona, org.person(params["reporter"])
        _seed(org, params)
        draft = Draft(
            org,
            title="File the bug reports by the triage guide while the tracker fails",
            instruction=_instruction(org, params)[0],
            description=f"{len(params['kinds'])} bug report(s) from {reporter.name} filed in {params['project']} "
            f"by the triage guide and the keys sent back; the tracker's create_ticket call {params['at']} meets "
            f"a {params['fault']} fault.",
            tags=["generated", "flaky-triage", "fault-injection", "retry", "mail", "docs", "tickets"],
        )
        _stages(draft, params, me.email)
        draft.extra["faults"] = {"tickets": {"rules": [_rule(params)]}}
        draft.oracle = _oracle(params)
        draft.limits = {"max_tool_calls": 40, "timeout_s": 600}
        if params["fault"] == "timeout":
            draft.limits["call_deadline_s"] = DEADLINE_S
        return broaden(draft, params)


def _instruction(org: Organization, params: dict[str, Any]) -> tuple[str, str]:
    count = len(params["kinds"])
    values = {"reporter": org.person(params["reporter"]).first_name, "count": {2: "two", 3: "three"}[count]}
    return phrasing.compose(
        org, random.Random(params["seed"]), "flaky-triage", "file", REQUESTS, values, openers=OPENERS, closers=CLOSERS
    )


def _seed(org: Organization, params: dict[str, Any]) -> None:
    """The reports, the idea, the triage guide."""
    me, reporter = org.persona, org.person(params["reporter"])
    mail = org.apps["mail"].setdefault("messages", [])
    for n, (kind, component, time) in enumerate(
        zip(params["kinds"], params["components"], params["times"], strict=True)
    ):
        body = SYMPTOMS[kind].format(component=component, time=time, company=params["company"])
        mail.append(
            {
                "id": f"bug-report-{n + 1}",
                "from": reporter.address_line,
                "to": [me.email],
                "subject": f"Bug: {component}",
                "sent_at": iso(org.start - timedelta(minutes=90 - 20 * n)),
                "body": f"Hi {me.first_name},\n\n{body}\n\nSteps: open the {component} and try to use it.\n\n"
                f"{reporter.first_name}",
            }
        )
    if params["idea"]:
        mail.append(
            {
                "id": "feature-idea",
                "from": reporter.address_line,
                "to": [me.email],
                "subject": "Idea for the backlog",
                "sent_at": iso(org.start - timedelta(minutes=15)),
                "body": f"Not a bug, just a thought: {params['idea'][1]} would be lovely some day.\n\n{reporter.first_name}",
            }
        )
    rules = "\n".join(
        f"- {label}: {what}, priority **{prio}**, label `{label}`."
        for what, (prio, label) in (
            ("an outage or data loss (down for everyone)", SEVERITY["outage"]),
            ("a bug that blocks one customer's work", SEVERITY["blocker"]),
            ("a cosmetic bug", SEVERITY["cosmetic"]),
        )
    )
    org.apps["docs"]["documents"].append(
        {
            "id": "triage-guide",
            "title": "Bug triage guide",
            "owner": me.email,
            "updated_at": iso(org.start - timedelta(days=20)),
            "content": f"# Bug triage guide\n\nEvery bug goes to project **{params['project']}** as type **bug**, one ticket "
            f"per bug, with a priority and exactly one severity label:\n\n{rules}\n\nFeature ideas are not filed as "
            "tickets. Reply to the reporter with the new keys.\n",
        }
    )


def _about(component: str) -> dict[str, Any]:
    return {"any": [{col: {"says": {"phrase": component, "claimed": False}}} for col in ("title", "description")]}


def _stages(draft: Draft, params: dict[str, Any], me: str) -> None:
    """The recovery from the fault, every report filed once by the guide, the reporter told the keys; the rules."""
    _recovered(draft, params)
    _filed(draft, params)
    _rules(draft, params)


def _recovered(draft: Draft, params: dict[str, Any]) -> None:
    recovery = {
        "error": ("the failed create was retried", {"retried_after_fault": "tickets__create_ticket"}),
        "timeout": ("the create that timed out was retried", {"retried_after_fault": "tickets__create_ticket"}),
        "rate_limit": (
            "the rate limit was waited out before retrying",
            {"waited_for_rate_limit": "tickets__create_ticket"},
        ),
        "lost_reply": (
            "the create whose reply was lost was not redone",
            {"no_duplicate_after_lost_reply": "tickets__create_ticket"},
        ),
    }[params["fault"]]
    draft.stage(
        "recovered from the tracker's fault",
        [
            {"name": recovery[0], "journal": recovery[1], "required": True},
            {
                "name": "read the triage guide before filing",
                "journal": {
                    "read_first": "tickets__create_ticket",
                    "entity": {"app": "docs", "table": "documents", "where": {"id": "triage-guide"}},
                },
            },
        ],
        weight=0.5,
    )


def _filed(draft: Draft, params: dict[str, Any]) -> None:
    project, reporter = params["project"], params["reporter"]
    checks: list[dict[str, Any]] = []
    for kind, component in zip(params["kinds"], params["components"], strict=True):
        prio, label = SEVERITY[kind]
        others = [s[1] for s in SEVERITY.values() if s[1] != label]
        checks.append(
            {
                "name": f"one ticket about the {component}: a {project} bug at {prio} priority labelled {label}",
                "app": "tickets",
                "table": "tickets",
                "added": True,
                "where": _about(component),
                "expect": {
                    "count": 1,
                    "all": {
                        "project": project,
                        "type": "bug",
                        "priority": prio,
                        "labels": {"contains": label, "not": {"has": {"one_of": others}}},
                    },
                },
            }
        )
    checks.append(
        {
            "name": f"{len(params['kinds'])} new tickets in all (no duplicate, nothing for the idea)",
            "app": "tickets",
            "table": "tickets",
            "added": True,
            "expect": {"count": len(params["kinds"])},
        }
    )
    draft.stage("every report filed once, by the guide", checks, weight=2)
    draft.stage(
        "the reporter has the keys",
        [
            {
                "name": "the reporter is told every new key",
                "told": {
                    "who": [reporter],
                    "facts": [
                        {
                            "mentions_code": {
                                "from": {
                                    "app": "tickets",
                                    "table": "tickets",
                                    "added": True,
                                    "where": _about(c),
                                    "field": "key",
                                }
                            }
                        }
                        for c in params["components"]
                    ],
                },
            },
        ],
    )


def _rules(draft: Draft, params: dict[str, Any]) -> None:
    project, reporter = params["project"], params["reporter"]
    draft.allow = {
        "tickets": {"tickets": {"added": True, "where": {"project": project}}},
        "mail": {"messages": {"added": True}},
    }
    draft.forbid = [
        {
            "name": "mail goes to the reporter only",
            "app": "mail",
            "table": "messages",
            "change": "added",
            "where": {"folder": "sent", "any": [{f: {"has": {"not_equals": reporter}}} for f in ("to", "cc", "bcc")]},
        }
    ]
    if params["idea"]:
        draft.forbid.append(
            {
                "name": "the feature idea is not filed",
                "app": "tickets",
                "table": "tickets",
                "change": "added",
                "where": _about(params["idea"][0]),
            }
        )


def _rule(params: dict[str, Any]) -> dict[str, Any]:
    rule: dict[str, Any] = {"tool": "create_ticket", "calls": [params["at"]]}
    if params["fault"] == "error":
        rule["message"] = "HTTP 503 Service Unavailable: upstream tickets-api did not respond in time. Please retry."
    else:
        rule["kind"] = params["fault"]
    if params["fault"] == "rate_limit":
        rule["retry_after_s"] = 0.5
    return rule


def _oracle(params: dict[str, Any]) -> list[dict[str, Any]]:
    """Read the reports and the guide, file each (the oracle recovers from the fault as its policy says: it waits
    and retries, or looks up a lost create), check the project, reply with the keys."""
    reporter, project = params["reporter"], params["project"]
    oracle: list[dict[str, Any]] = [
        {"tool": "mail__search_messages", "args": {"query": f"from:{reporter} subject:bug"}},
        *(
            {"tool": "mail__get_message", "args": {"message_id": f"bug-report-{n + 1}"}, "save": f"report{n + 1}"}
            for n in range(len(params["kinds"]))
        ),
        {"tool": "docs__search_documents", "args": {"query": "triage guide"}, "save": "guides"},
        {"tool": "docs__get_document", "args": {"document_id": "${guides.documents.0.id}"}},
    ]
    for n, (kind, component) in enumerate(zip(params["kinds"], params["components"], strict=True)):
        prio, label = SEVERITY[kind]
        oracle.append(
            {
                "tool": "tickets__create_ticket",
                "save": f"t{n + 1}",
                "unchecked": ["title", "description"],
                "args": {
                    "project": project,
                    "type": "bug",
                    "priority": prio,
                    "labels": [label],
                    "title": f"{component[:1].upper() + component[1:]}: {kind}",
                    "description": SYMPTOMS[kind].format(
                        component=component, time=params["times"][n], company=params["company"]
                    ),
                },
            }
        )
    oracle.append({"tool": "tickets__search_tickets", "args": {"project": project, "status": "todo"}})
    keys = ", ".join(f"${{t{n + 1}.key}} ({c})" for n, c in enumerate(params["components"]))
    oracle.append(
        {"tool": "mail__reply", "args": {"message_id": "${report1.id}", "body": f"Thanks, all filed: {keys}."}}
    )
    return oracle
