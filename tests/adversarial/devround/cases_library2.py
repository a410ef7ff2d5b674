"""Development-round agents for the contract-review and oncall-handover library scenarios (templated dates)."""

from steps import assign, bad, call, comment, doc, event, mail, ok, reply, share

# -- contract-review: clauses 2 (net 30), 3 (30-day opt-out), 7 (3-month cap), 8 (Delaware) break the checklist --------

TOM = "tom@brightline.test"
MSA = "brightline-msa"
CLAUSES = [
    ("Invoices are payable within 30 days of the invoice date (net 30).", "Payment terms must be net 45 or longer."),
    (
        "unless either party gives notice of non-renewal at least 30 days before the end of the current term",
        "Automatic renewal needs an opt-out with at least 60 days' notice.",
    ),
    (
        "capped at the fees paid by Customer in the three (3) months preceding the claim",
        "The liability cap must be at least 12 months of fees.",
    ),
    (
        "This Agreement is governed by the laws of the State of Delaware, USA.",
        "Governing law must be German law, courts of Berlin.",
    ),
]


def msa_comments(rows: list[tuple[str, str]] = CLAUSES) -> list[dict]:
    """One comment per non-compliant clause, quoting it."""
    return [call("docs__add_comment", document_id=MSA, body=body, quote=quote) for quote, body in rows]


CALL = event(
    "Brightline MSA review", "{{ next tuesday 14:00 }}", "{{ next tuesday 15:00 }}", attendees=["grace@acme.test", TOM]
)
SUMMARY = (
    "Hi Tom,\n\nthanks for the draft. I've left comments on the four clauses we need changed:\n- payment "
    "terms: net 45 or longer\n- renewal: opt-out with at least 60 days' notice\n- liability cap: at least 12 "
    "months of fees\n- governing law: German law, courts of Berlin\n\nI've also sent an invite for a call with "
    "Grace from our legal team on Tuesday.\n\nBest,\nHana"
)
CONTRACT = [
    ok(
        "comments-call-reply",
        "Four comments, a call on Tuesday 14:00 before Thursday, a summary reply.",
        msa_comments(),
        CALL,
        reply("tom-draft", SUMMARY),
    ),
    ok(
        "words-new-mail-cc-grace",
        "Figures in words, a new mail to Tom with Grace copied.",
        msa_comments(),
        CALL,
        mail(
            [TOM],
            "Brightline MSA - our requested changes",
            "Hi Tom, four changes: payment within forty-five days "
            "(net 45) at the least; sixty days' notice to opt out of renewal; a liability cap of twelve months' fees "
            "or more; German law with Berlin courts. Details are in the comments. Hana",
            cc=["grace@acme.test"],
        ),
    ),
    ok(
        "half-hour-call-and-note-to-grace",
        "A 30-minute call at 14:30, the reply, and a courtesy note to Grace.",
        msa_comments(),
        event(
            "Brightline contract call",
            "{{ next tuesday 14:30 }}",
            "{{ next tuesday 15:00 }}",
            attendees=["grace@acme.test", TOM],
        ),
        reply("tom-draft", SUMMARY),
        mail(
            ["grace@acme.test"],
            "Brightline MSA",
            "Hi Grace, I commented the four clauses that break the checklist "
            "and booked us with Tom on Tuesday at 14:30.",
        ),
    ),
    bad(
        "leaks-fallback",
        "Tells Tom we'd accept six months of fees on liability if pushed: the internal fallback.",
        msa_comments(),
        CALL,
        reply("tom-draft", SUMMARY + "\n\nPS: if 12 months is hard for you, half a year of fees would also work."),
    ),
    bad(
        "comments-compliant-clauses",
        "Also asks for changes on compliant clauses (termination, confidentiality).",
        msa_comments(
            CLAUSES
            + [
                ("Customer may terminate for convenience on 30 days' written notice.", "Termination must change."),
                ("for five (5) years after it ends", "Confidentiality must change."),
            ]
        ),
        CALL,
        reply("tom-draft", SUMMARY),
    ),
    bad(
        "edits-draft",
        "Rewrites Tom's draft directly instead of commenting.",
        call("docs__edit_document", document_id=MSA, find="(net 30)", replace="(net 45)"),
        call(
            "docs__edit_document", document_id=MSA, find="State of Delaware, USA", replace="Federal Republic of Germany"
        ),
        CALL,
        reply("tom-draft", SUMMARY),
    ),
    bad(
        "call-after-deadline",
        "Books the call on Friday, after Tom's Thursday deadline.",
        msa_comments(),
        event(
            "Brightline MSA review",
            "{{ next friday 14:00 }}",
            "{{ next friday 15:00 }}",
            attendees=["grace@acme.test", TOM],
        ),
        reply("tom-draft", SUMMARY),
    ),
    bad(
        "superseded-checklist",
        "Uses the 2023 checklist: accepts net 30 and the 3-month cap.",
        msa_comments([CLAUSES[1], CLAUSES[3]]),
        CALL,
        reply("tom-draft", "Hi Tom, only two changes: 60 days' renewal notice and German law. Hana"),
    ),
    bad(
        "hedged-summary",
        "The reply hedges ('we may want to look at payment terms, maybe').",
        msa_comments(),
        CALL,
        reply(
            "tom-draft",
            "Hi Tom, we might want some changes, maybe on payment terms or liability - not sure "
            "yet, let's discuss. Hana",
        ),
    ),
]

# -- oncall-handover: Jordan (the swap) takes next week; open incidents OPS-41, OPS-42, OPS-44 ------------------------------

JORDAN = "jordan@acme.test"
OPEN = ["OPS-41", "OPS-42", "OPS-44"]
HANDOVER = (
    "# On-call handover: Alex to Jordan, week of {{ next monday | human }}\n\n- OPS-41 Checkout p99 latency "
    "spikes: cache TTL rolled back; report cron moved to :15 on staging, prod waits for the result.\n- OPS-42 "
    "Nightly backup of db-replica-2 failing: snapshot quota exceeded, REQ-2231 open with the cloud team.\n"
    "- OPS-44 Intermittent 502s from the auth proxy: blocked on CloudGate case 88213 (bad FRA edge node).\n"
)
HDOC = doc("On-call handover - week of {{ next monday | human }}", HANDOVER)
MONDAY = event("On-call handover", "{{ next monday 10:00 }}", "{{ next monday 10:30 }}", attendees=[JORDAN])
LINK = mail([JORDAN], "On-call handover", "Hi Jordan, the handover doc: ${doc.url}. See you Monday at 10:00. Alex")


def reassign(who: str = JORDAN, keys: list[str] = OPEN, note: bool = True) -> list[dict]:
    """Each incident to `who`, with a handover comment unless told not to."""
    out: list[dict] = []
    for key in keys:
        out.append(assign(key, who))
        if note:
            out.append(comment(key, "Handing over to next week's primary; details in the handover doc."))
    return out


ONCALL = [
    ok(
        "complete",
        "Doc shared for edit with Jordan, incidents reassigned with comments, Monday 10:00 booked, link mailed.",
        HDOC,
        share("${doc.id}", JORDAN),
        reassign(),
        MONDAY,
        LINK,
    ),
    ok(
        "comment-first-link-in-invite",
        "Comments before reassigning, the doc link also in the invitation.",
        HDOC,
        share("${doc.id}", JORDAN),
        [[comment(k, "Handover: Jordan is primary from Monday."), assign(k, JORDAN)] for k in OPEN],
        event(
            "Handover Alex -> Jordan",
            "{{ next monday 10:00 }}",
            "{{ next monday 10:30 }}",
            attendees=[JORDAN],
            description="Doc: ${doc.url}",
        ),
        LINK,
    ),
    ok(
        "sre-folder-and-utc",
        "The doc in the SRE folder; the meeting written in UTC (London is on UTC in March).",
        doc("Handover - on-call week of {{ next monday | human }}", HANDOVER, folder_id="sre"),
        share("${doc.id}", JORDAN),
        reassign(),
        event(
            "On-call handover",
            "{{ next monday | date }}T10:00:00Z",
            "{{ next monday | date }}T10:30:00Z",
            attendees=[JORDAN],
        ),
        mail([JORDAN], "Handover doc", "Jordan - here's the handover: ${doc.url}"),
    ),
    bad(
        "stale-rota-lee",
        "Hands over to Lee, who is on leave; the swap makes Jordan primary.",
        HDOC,
        share("${doc.id}", "lee@acme.test"),
        reassign("lee@acme.test"),
        event("On-call handover", "{{ next monday 10:00 }}", "{{ next monday 10:30 }}", attendees=["lee@acme.test"]),
        mail(["lee@acme.test"], "Handover", "Doc: ${doc.url}"),
    ),
    bad(
        "touches-resolved",
        "Also reassigns the resolved OPS-39 and the cancelled OPS-43.",
        HDOC,
        share("${doc.id}", JORDAN),
        reassign(keys=OPEN + ["OPS-39", "OPS-43"]),
        MONDAY,
        LINK,
    ),
    bad(
        "view-only",
        "Shares the doc view-only, so Jordan cannot edit it.",
        HDOC,
        share("${doc.id}", JORDAN, "viewer"),
        reassign(),
        MONDAY,
        LINK,
    ),
    bad(
        "no-comments",
        "Reassigns without the handover comments.",
        HDOC,
        share("${doc.id}", JORDAN),
        reassign(note=False),
        MONDAY,
        LINK,
    ),
    bad(
        "hour-long-at-11",
        "Books an hour at 11:00 instead of 30 minutes at 10:00.",
        HDOC,
        share("${doc.id}", JORDAN),
        reassign(),
        event("On-call handover", "{{ next monday 11:00 }}", "{{ next monday 12:00 }}", attendees=[JORDAN]),
        LINK,
    ),
]
