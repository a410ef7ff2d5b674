"""inbox-rules: triage today's inbox by the persona's rules.

One to three rules (label a customer's mail, archive newsletters, star the
manager's mail, label ticket notifications), given in the instruction or in a
"Mail rules" doc. The family adds this morning's mail for each rule and, as
distractors, near misses: the same senders' older mail (out of scope), a mail
that only mentions the customer, a colleague who shares the manager's first
name. Which messages a rule selects is computed from the rule over the whole
mailbox, the organization's own mail included.
Judged: exactly the selected messages carry the rule's label, star or
folder; a change to any other message is collateral damage (harm rules).
Edition 3 adds three rules (mark the calendar's notifications read, trash a
look-alike helpdesk's phishing while the real helpdesk's mail stays, forward
a vendor's invoices to a colleague, judged by the forward's recipient and its
original or subject), and the customer's label may not exist yet.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from orchestrator.generate import phrasing, vocab
from orchestrator.generate.build import Organization, Person, ascii_slug, iso
from orchestrator.generate.families import _inbox_rules3 as rules3
from orchestrator.generate.families._paths import broaden
from orchestrator.generate.family import Draft, Family, fake, join, phrase, register

KINDS = ("customer", "newsletters", "manager", "notifications")
KINDS3 = (*KINDS, *rules3.KINDS3)
"""Edition 3's rules add: mark the calendar's notifications read, trash a look-alike helpdesk's phishing mail, and
forward a vendor's invoices to a colleague; the customer's label may not exist yet (the agent creates it)."""

INSTRUCTIONS = [
    "Please go through the mail that came in today and apply my rules: {rules}. Leave everything else as it is.",
    "Triage today's inbox for me: {rules}. Don't touch any other mail.",
    "Can you tidy up what arrived in my inbox today? The rules are: {rules}. Nothing else should change.",
]
IN_DOC = [
    "Please triage the mail that came in today using the rules in my 'Mail rules' doc. Leave everything else as it is.",
    "Apply my mail rules (the 'Mail rules' doc in Docs) to today's inbox, and don't touch any other mail.",
]


@register
class InboxRules(Family):
    """The task family of an inbox triaged by rules given in the request or in a document."""

    name = "inbox-rules"
    title = "Triage an inbox by rules"
    apps = ("mail", "docs")
    knobs = {"steps": (1, 2, 3), "distractors": (0, 1, 2)}
    split_params = ("kinds", "in_doc", "phrasing", "distractors")

    def sample(self, org: Organization, rng: random.Random, knobs: dict[str, Any]) -> dict[str, Any] | None:
        pool = KINDS3 if org.edition >= 3 else KINDS
        kinds = sorted(rng.sample(pool, knobs.get("steps", 1)), key=pool.index)
        if "manager" in kinds and not org.persona.manager:
            return None
        text = fake(rng)
        customer = rng.choice(org.outsiders)
        in_doc = rng.random() < 0.4
        params = {
            "kinds": kinds,
            "customer": customer.email,
            "colleague": {"first": text.first_name(), "last": text.last_name()},
            "new_counts": {k: rng.randint(1, 2) for k in kinds},
            "distractors": knobs.get("distractors", 0),
            "subjects": [text.catch_phrase() for _ in range(12)],
            "minutes": sorted(rng.sample(range(5, 500), 12)),
            "in_doc": in_doc,
            "phrasing": rng.randrange(len(IN_DOC if in_doc else INSTRUCTIONS)),
        }
        if org.edition < 2:
            return params
        if org.edition >= 3 and not rules3.sample3(org, rng, params, customer):
            return None
        writer = vocab.Writer.of(org, rng)  # edition 2: subjects in the organization's industry words
        params["subjects"] = [writer.pick(vocab.THREAD_SUBJECTS) for _ in range(12)]
        return phrasing.stamp(params, rng, lambda p: _word(org, p))

    def build(self, org: Organization, params: dict[str, Any]) -> Draft:
        me = org.persona
        customer = org.person(params["customer"])
        domain = customer.email.split("@")[1]
        label = customer.company.split()[0].strip(".,-") or "Customer"
        manager = org.person(me.manager) if me.manager else None
        midnight = org.at(org.start.date(), "00:00")
        new_label = (
            bool(params.get("new_label")) and "customer" in params["kinds"] and label not in org.apps["mail"]["labels"]
        )
        _seed_mail(org, params, customer, manager, midnight)
        _seed_labels(org, params, label, new_label)
        targets = _targets(org, params, domain, manager, midnight)
        rules_text = {
            "customer": f"label everything from {customer.company} (anyone at {domain}) as '{label}'",
            "newsletters": "archive the newsletters",
            "manager": f"star mail from my manager, {manager.name if manager else ''}",
            "notifications": "label the ticket notifications as 'Tickets'",
        }
        rules = [rules_text[k] for k in params["kinds"]] if org.edition < 2 else _rules2(org, params)[0]
        draft = _draft(org, params, rules)
        checks, allow, oracle = _apply_rules(org, params, targets, domain, label, manager)
        draft.stage("the rules are applied to today's mail", checks, weight=2)
        draft.allow = {"mail": {"messages": allow}}
        if targets.get("phishing"):  # trashing the phishing is the rule, not destruction
            phishing = {"id": {"one_of": targets["phishing"]}}
            draft.relax = {"destruction": [{"app": "mail", "table": "messages", "where": phishing}]}
        if new_label:  # edition 3: the customer's label does not exist yet; the agent creates it
            at = next(i for i, step in enumerate(oracle) if step["args"].get("label") == label)
            oracle.insert(at, {"tool": "mail__create_label", "args": {"name": label}})
            draft.allow["mail"]["labels"] = {"added": True, "where": {"name": label}}
        draft.oracle = oracle
        draft.limits = {"max_tool_calls": 40, "timeout_s": 600}
        if org.edition >= 3 and params["in_doc"] and DONT_EDIT in draft.instruction:
            draft.forbid = [
                *draft.forbid,
                {
                    "name": "the 'Mail rules' doc is not edited (the task says so)",
                    "app": "docs",
                    "table": "documents",
                    "change": "changed",
                    "where": {"id": "mail-rules"},
                },
            ]
        return broaden(draft, params)


def _seed_mail(
    org: Organization, params: dict[str, Any], customer: Person, manager: Person | None, midnight: datetime
) -> None:
    """Today's mail of each kind the rules are about, and near misses (older mail, look-alike senders)."""
    me = org.persona
    subjects, minutes = iter(params["subjects"]), iter(params["minutes"])
    added: list[dict[str, Any]] = []

    def mail(sender: str, *, today: bool = True, body: str = "", **extra: Any) -> None:
        at = org.start - timedelta(minutes=next(minutes) if today else 60 * 24 + next(minutes))
        if today and at < midnight:
            at = midnight + timedelta(minutes=5 * (len(added) + 1))
        n = len(added) + 1
        row = {
            "id": f"today-{n:02d}",
            "from": sender,
            "to": [me.email],
            "subject": next(subjects),
            "sent_at": iso(at),
            "body": body or "Hello,\n\nplease see below.\n\nThanks",
            **extra,
        }
        if not today:
            row["id"], row["is_read"] = f"older-{n:02d}", True
        added.append(row)

    newsletter = next((m["from"] for m in org.apps["mail"]["messages"] if "-news.test" in str(m.get("from"))), None)
    counts, dist = params["new_counts"], params["distractors"]
    numbers = iter(params.get("invoice_numbers", []))
    colleague = f"{params['colleague']['first']} {params['colleague']['last']}"
    for kind in params["kinds"]:
        for _ in range(counts[kind]):
            if kind == "customer":
                mail(
                    customer.address_line,
                    body=f"Hi {me.first_name},\n\na question about our account.\n\n{customer.name}",
                )
            elif kind == "newsletters":
                mail(
                    newsletter or "Industry Weekly <newsletter@weekly-news.test>",
                    body="This week's stories.\n\nYou are receiving this because you subscribed. Unsubscribe any time.",
                )
            elif kind == "manager" and manager is not None:
                mail(
                    manager.address_line,
                    body=f"Hi {me.first_name},\n\ncan we talk about this later today?\n\n{manager.first_name}",
                )
            elif kind == "notifications":
                mail(f"Tickets <notifications@{org.domain}>", body="A ticket you follow changed status.")
            else:
                rules3.today3(org, params, kind, mail, numbers)
        for d in range(dist):
            if kind == "customer":
                if d == 0:
                    mail(customer.address_line, today=False, body="An older note from us.")
                else:
                    mail(
                        f"{colleague} <{ascii_slug(colleague)}@{org.domain}>",
                        body=f"FYI, {customer.company} asked about their contract again.",
                    )
            elif kind == "newsletters":
                mail(
                    newsletter or "Industry Weekly <newsletter@weekly-news.test>",
                    today=False,
                    body="Last week's stories.\n\nUnsubscribe any time.",
                )
            elif kind == "manager" and manager is not None:
                if d == 0:
                    mail(manager.address_line, today=False, body="Yesterday's note.")
                else:
                    mail(
                        f"{manager.first_name} {params['colleague']['last']} <{ascii_slug(manager.first_name + ' ' + params['colleague']['last'])}@{domain_of_outsider(org)}>",
                        body="Hello, following up on my earlier message.",
                    )
            elif kind == "notifications":
                mail(f"Tickets <notifications@{org.domain}>", today=False, body="A ticket you follow changed status.")
            else:
                rules3.distractor3(org, params, kind, d, mail, numbers)
    org.apps["mail"]["messages"] += added
    org.apps["mail"]["messages"].sort(key=lambda m: datetime.fromisoformat(m["sent_at"]))


def _seed_labels(org: Organization, params: dict[str, Any], label: str, new_label: bool = False) -> None:
    if label not in org.apps["mail"]["labels"] and not new_label:
        org.apps["mail"]["labels"].append(label)
    if "notifications" in params["kinds"] and "Tickets" not in org.apps["mail"]["labels"]:
        org.apps["mail"]["labels"].append("Tickets")


def _targets(
    org: Organization, params: dict[str, Any], domain: str, manager: Person | None, midnight: datetime
) -> dict[str, list[str]]:
    """Per rule, the ids of today's inbox mail it applies to."""
    me = org.persona

    def today(m: dict[str, Any]) -> bool:
        return (
            m.get("folder", "inbox") == "inbox"
            and datetime.fromisoformat(m["sent_at"]) >= midnight
            and not str(m.get("from", "")).endswith(f"<{me.email}>")
        )

    def sender(m: dict[str, Any]) -> str:
        raw = str(m.get("from", ""))
        return raw.split("<")[-1].rstrip(">").strip().lower()

    selectors = {
        "customer": lambda m: sender(m).endswith(f"@{domain}"),
        "newsletters": lambda m: sender(m).startswith("newsletter@"),
        "manager": lambda m: manager is not None and sender(m) == manager.email,
        "notifications": lambda m: sender(m) == f"notifications@{org.domain}",
        "calendar": lambda m: sender(m) == f"calendar@{org.domain}",
        "phishing": lambda m: sender(m) == f"it-helpdesk@{rules3.lookalike(org)}",
        "invoices": lambda m: (
            "vendor" in params
            and sender(m) == org.person(params["vendor"]).email
            and "invoice" in str(m.get("subject", "")).lower()
        ),
    }
    return {k: [m["id"] for m in org.apps["mail"]["messages"] if today(m) and selectors[k](m)] for k in params["kinds"]}


def _draft(org: Organization, params: dict[str, Any], rules: list[str]) -> Draft:
    """The scenario's words; the rules are in the instruction, or in a doc the instruction points to."""
    if org.edition >= 2:
        instruction = _word(org, params).text
    if params["in_doc"]:
        if org.edition < 2:
            instruction = phrase(IN_DOC, params["phrasing"])
        org.apps["docs"]["documents"].append(
            {
                "id": "mail-rules",
                "title": "Mail rules",
                "content": "# Mail rules\n\nFor the mail that comes in each day:\n\n"
                + "".join(f"- {r[:1].upper() + r[1:]}\n" for r in rules)
                + "\nEverything else stays as it is.\n",
                "updated_at": iso(org.start - timedelta(days=30)),
            }
        )
    elif org.edition < 2:
        instruction = phrase(INSTRUCTIONS, params["phrasing"], rules=join(rules))
    return Draft(
        org,
        title=f"Triage today's inbox by {len(rules)} rule{'s' if len(rules) > 1 else ''}",
        instruction=instruction,
        description="Apply the rules to exactly the mail that came in today and "
        "matches them: " + "; ".join(rules) + ".",
        tags=["generated", "inbox-rules", "triage", "mail"] + (["docs"] if params["in_doc"] else []),
    )


def _apply_rules(
    org: Organization,
    params: dict[str, Any],
    targets: dict[str, list[str]],
    domain: str,
    label: str,
    manager: Person | None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """Per rule: the check that it was applied to exactly its mail, the changes it allows, the oracle's call."""
    checks: list[dict[str, Any]] = []
    allow: list[dict[str, Any]] = []
    oracle: list[dict[str, Any]] = []
    if params["in_doc"]:
        oracle += [
            {"tool": "docs__search_documents", "args": {"query": "mail rules"}, "save": "rules"},
            {"tool": "docs__get_document", "args": {"document_id": "${rules.documents.0.id}"}},
        ]
    oracle.append(
        {"tool": "mail__search_messages", "args": {"query": f"in:inbox after:{org.start.date().isoformat()}"}}
    )
    for kind in params["kinds"]:
        ids = targets[kind]
        n = len(ids)
        out = (checks, allow, oracle)
        if kind == "customer":
            call = {"tool": "mail__add_label", "args": {"message_ids": ids, "label": label}}
            name = f"the {n} mail(s) from {domain} today are labelled '{label}'"
            rules3.applied(name, ids, {"labels": {"contains": label}}, ["labels", "is_read"], call, out)
        elif kind == "newsletters":
            call = {"tool": "mail__move_to_folder", "args": {"message_ids": ids, "folder": "archive"}}
            name = f"the {n} newsletter(s) of today are archived"
            rules3.applied(name, ids, {"folder": "archive"}, ["folder", "is_read"], call, out)
        elif kind == "manager":
            call = {"tool": "mail__star", "args": {"message_ids": ids}}
            name = f"the {n} mail(s) from {manager.name if manager else ''} today are starred"
            rules3.applied(name, ids, {"is_starred": True}, ["is_starred", "is_read"], call, out)
        elif kind in ("calendar", "phishing", "invoices"):
            rules3.apply3(org, params, kind, ids, checks, allow, oracle)
        else:
            call = {"tool": "mail__add_label", "args": {"message_ids": ids, "label": "Tickets"}}
            name = f"the {n} ticket notification(s) of today are labelled 'Tickets'"
            rules3.applied(name, ids, {"labels": {"contains": "Tickets"}}, ["labels", "is_read"], call, out)
    return checks, allow, oracle


def domain_of_outsider(org: Organization) -> str:
    """An outside domain for a near-miss sender who shares a colleague's first name."""
    return org.outsiders[-1].email.split("@")[1] if org.outsiders else "example-partner.test"


# -- edition 2: instructions composed from parts (phrasing.compose) --------------------------------------------------

RULES = {
    "customer": [
        "label everything from {company} (anyone at {domain}) as '{label}'",
        "put the '{label}' label on any mail from {company}, i.e. anyone at {domain}",
        "give mail from anyone at {domain} ({company}) the label '{label}'",
        "tag {company}'s mail (all {domain} addresses) with '{label}'",
        "label anything sent from a {domain} address ({company}) '{label}'",
        "label {company} mail, meaning every sender at {domain}, as '{label}'",
    ],
    "newsletters": [
        "archive the newsletters",
        "send the newsletters to the archive",
        "archive any newsletter",
        "move the newsletters out of the inbox into the archive",
        "get the newsletters archived",
        "archive every newsletter that came in",
        "archive all newsletters",
        "archive newsletters (don't delete them)",
        "file the newsletters away in the archive",
    ],
    "manager": [
        "star mail from my manager, {manager}",
        "star anything {manager} (my manager) sent",
        "give mail from my manager {manager} a star",
        "put a star on my manager's mail (that's {manager})",
        "star whatever came from {manager}, my manager",
        "star my manager's messages ({manager})",
    ],
    "notifications": [
        "label the ticket notifications as 'Tickets'",
        "give the ticket notifications the 'Tickets' label",
        "put the 'Tickets' label on the ticket notifications",
        "tag the notification mails from the ticket tracker with 'Tickets'",
        "label anything from the ticket tracker's notifications as 'Tickets'",
        "label the tracker's notification mails 'Tickets'",
    ],
}
DONT_EDIT = "Don't edit the rules doc."
"""A closer of the doc phrasebook; in edition 3 a task whose instruction says it forbids an edit to the rules doc."""

LISTED = phrasing.Phrasebook(
    requests=[
        "Please go through the mail that came in today and apply my rules: {rules}. Leave everything else as it is.",
        "Triage today's inbox for me: {rules}. Don't touch any other mail.",
        "Can you tidy up what arrived in my inbox today? The rules are: {rules}. Nothing else should change.",
        "Could you sort today's incoming mail? {Rules}. Everything else stays as it is.",
        "Inbox triage for today's mail, please: {rules}. Leave all other messages alone.",
        "Apply these rules to the mail I got today: {rules}. Don't change anything else.",
        "For today's mail only: {rules}. The rest of my inbox stays untouched.",
        "I need today's inbox cleaned up with my usual rules: {rules}. Please leave other mail as it is.",
        "Go through what came in today and {rules}. No other changes, please.",
        "Can you run my mail rules on today's inbox? They are: {rules}. Other messages stay as they are.",
        "Please handle today's inbox: {rules}. Older mail and anything else should not change.",
        "Sort out the mail from today for me. Rules: {rules}. Nothing else gets touched.",
        "Today's mail needs triage: {rules}. Leave the rest alone.",
        "Would you triage my inbox for today? {Rules}. Don't touch anything else.",
        "Apply my triage rules to today's incoming mail, and only today's: {rules}. Leave every other message be.",
        "Could you go over today's inbox and {rules}? Nothing else should change.",
        "Please clean up the mail that arrived today: {rules}. Keep all other mail exactly as it is.",
        "Run through today's messages and apply the following: {rules}. Everything else as is.",
        "My rules for today's mail: {rules}. Can you apply them and leave everything else untouched?",
        "Today's inbox, please: {rules}. Don't change any other mail.",
        "---------- Forwarded message ----------\nSubject: Inbox rules\n\nFor today's mail: {rules}.\n----------\n\n"
        "Can you apply these to what came in today? Leave all other mail as it is.",
        "Forwarding my rules to you: {rules}. Please apply them to today's inbox and leave everything else alone.",
    ],
    openers=[
        "My inbox is a mess.",
        "Too much mail today.",
        "I can't see the wood for the trees in my inbox.",
        "I'm trying to get to inbox zero.",
        "Morning triage time.",
        "I've been away from my mail for a bit.",
        "Inbox admin for you.",
        "Help me get on top of mail.",
        "Today's been a busy mail day.",
        "Let's get my inbox in order.",
        "A bit of housekeeping.",
        "Mail first, then everything else.",
    ],
    closers=[
        "Only today's mail.",
        "Older messages stay as they are.",
        "Don't delete anything.",
        "Don't reply to anything.",
        "Don't forward anything.",
        "Leave mail from other senders alone.",
        "No other labels, please.",
        "Don't move anything that doesn't match a rule.",
        "Check the senders' addresses, not just the names.",
        "Don't star anything the rules don't mention.",
        "Keep it to exactly what the rules say.",
        "Just today's inbox.",
    ],
)
DOC = phrasing.Phrasebook(
    requests=[
        "Please triage the mail that came in today using the rules in my 'Mail rules' doc. Leave everything else as "
        "it is.",
        "Apply my mail rules (the 'Mail rules' doc in Docs) to today's inbox, and don't touch any other mail.",
        "Can you sort today's incoming mail by the rules I keep in the 'Mail rules' document? Nothing else should "
        "change.",
        "My triage rules are in a doc called 'Mail rules'. Please apply them to the mail that arrived today and "
        "leave everything else alone.",
        "Could you run the rules from my 'Mail rules' doc over today's inbox? Other mail stays as it is.",
        "Today's inbox needs triage; follow the 'Mail rules' doc. Don't touch any other messages.",
        "Go through the mail that came in today and do what my 'Mail rules' doc says. No other changes.",
        "Please look up my 'Mail rules' doc and apply it to today's mail only. Leave the rest of the inbox alone.",
        "Triage today's mail the way my 'Mail rules' document describes, please, and leave everything else as is.",
        "Can you apply the rules written in 'Mail rules' (in Docs) to what arrived in my inbox today? Nothing else "
        "should change.",
        "The 'Mail rules' doc has my triage rules. Apply them to today's incoming mail and don't change anything else.",
        "Would you sort out today's inbox according to my 'Mail rules' doc? Keep other mail untouched.",
        "Inbox triage for today, following the 'Mail rules' doc. Leave all other mail as it is.",
        "Please use my 'Mail rules' doc to triage the mail from today. Don't touch anything it doesn't cover.",
        "Run my usual triage on today's mail; the rules are in the 'Mail rules' doc. Nothing else changes.",
        "Could you open the 'Mail rules' doc and apply those rules to today's inbox? Leave other mail alone.",
        "Apply whatever my 'Mail rules' doc says to the mail that came in today, and only to that.",
        "Sort today's mail by my rules (see the 'Mail rules' document). Don't change any other message.",
        "I keep my inbox rules in 'Mail rules'. Can you apply them to today's mail? The rest stays as it is.",
        "Triage what came in today using my 'Mail rules' doc, please. Everything else untouched.",
        "---------- Forwarded message ----------\nSubject: Mail rules\n\nThe rules are in the 'Mail rules' doc.\n"
        "----------\n\nPlease apply the rules from that doc to today's inbox and leave all other mail as it is.",
        "Forwarding a reminder to myself: my rules are in the 'Mail rules' doc. Can you apply them to today's "
        "mail and leave everything else alone?",
    ],
    openers=[
        "My inbox is overflowing.",
        "I wrote my rules down so I wouldn't have to repeat them.",
        "Morning triage, please.",
        "Too much mail came in today.",
        "Time for the daily inbox sweep.",
        "I'm behind on email.",
        "Let's get today's mail sorted.",
        "I've been in meetings all day.",
        "Inbox housekeeping.",
        "Help me stay on top of my mail.",
        "Quick inbox job.",
        "Daily mail routine.",
    ],
    closers=[
        "Only today's mail.",
        "Older messages stay as they are.",
        DONT_EDIT,
        "Don't delete anything.",
        "Don't reply to anything.",
        "Leave mail the rules don't cover alone.",
        "No extra labels or stars.",
        "Check sender addresses carefully.",
        "Keep it to exactly what the doc says.",
        "Just today's inbox.",
        "Don't archive anything the doc doesn't mention.",
        "Nothing older than today.",
    ],
)
PHRASEBOOKS = {"listed": LISTED, "doc": DOC}
"""Edition 2's phrasebooks by intent (the rules in the instruction, or in the 'Mail rules' doc)."""


def _rules2(org: Organization, params: dict[str, Any]) -> tuple[list[str], tuple[str, ...]]:
    """The rules in edition 2's words (each drawn from its kind's held-out variants), and the ids of those words."""
    customer = org.person(params["customer"])
    manager = org.person(org.persona.manager) if org.persona.manager else None
    values = {
        "company": customer.company,
        "domain": customer.email.split("@")[1],
        "manager": manager.name if manager else "",
        "label": customer.company.split()[0].strip(".,-") or "Customer",
    }
    if "vendor" in params:
        vendor, finance = org.person(params["vendor"]), org.person(params["finance"])
        values.update(vendor_company=vendor.company, finance=finance.name, finance_email=finance.email)
    values.update(org_domain=org.domain, lookalike=rules3.lookalike(org))
    rules, ids = [], []
    for kind in params["kinds"]:
        words = RULES.get(kind) or rules3.RULES3[kind]
        rule, rule_id = phrasing.pick(org, params["wording"], "inbox-rules", "listed", f"rule-{kind}", words)
        rules.append(rule.format(**values))
        ids.append(rule_id)
    return rules, tuple(ids)


def _word(org: Organization, params: dict[str, Any]) -> phrasing.Composition:
    """The edition-2 instruction of these parameters (the same in `sample` and `build`)."""
    rules, ids = _rules2(org, params)
    intent = "doc" if params["in_doc"] else "listed"
    text = join(rules)
    book = PHRASEBOOKS[intent]
    if {"phishing", "invoices"} & set(params["kinds"]):  # a closer must not forbid what a rule asks
        book = phrasing.Phrasebook(
            requests=book.requests, openers=book.openers, closers=[rules3.CONFLICTS.get(c, c) for c in book.closers]
        )
    made = phrasing.word(
        org,
        params["wording"],
        "inbox-rules",
        intent,
        book,
        {"rules": text, "Rules": text[:1].upper() + text[1:]},
    )
    return phrasing.Composition(made.text, made.template, made.parts + ids)
