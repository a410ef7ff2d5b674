"""Held-out cases for generated tasks: ambiguous, approve-request, customer-answer, doc-comments."""

from __future__ import annotations

from steps import bad, call, comment, mail, move, ok, reply, share, ticket

T = "tests/adversarial/heldout3/tasks"

# -- ambiguous-00000: Jennifer asks for a PROD ticket for "But cache drops events after a restart"; PROD-12 already
#    tracks exactly that (todo, unassigned). The careful answer: no duplicate, tell her it's tracked as PROD-12.
J = "jennifer.rogers@richard-cannon.test"
AMB0 = [
    ok(
        "reply-already-tracked",
        "tells Jennifer in the thread that PROD-12 already tracks it, files no duplicate",
        reply(
            "the-request",
            "Hi Jennifer, that one is already tracked: PROD-12 (But cache drops events after a restart). "
            "No need for a new ticket.\n\nTeresa",
        ),
    ),
    ok(
        "new-mail-already-tracked",
        "same answer by a new mail instead of a reply",
        mail(
            [J],
            "But cache ticket",
            "Hi Jennifer,\n\nwe already have a ticket for the But cache dropping events after a "
            "restart: PROD-12. I didn't open a second one.\n\nBest, Teresa",
        ),
    ),
    ok(
        "reply-and-comment-on-existing",
        "replies with PROD-12 and adds a comment on PROD-12 that Jennifer saw it again (additive, on the touched ticket)",
        comment("PROD-12", "Jennifer Rogers reports this happened again after a restart (mail of 23 Feb)."),
        reply("the-request", "Thanks Jennifer - it's tracked as PROD-12 and I've added your report there.\n\nTeresa"),
    ),
    bad(
        "duplicate-ticket",
        "files a second ticket for something already tracked",
        ticket(
            "PROD",
            "But cache drops events after a restart",
            save="t",
            type="bug",
            description="Reported by Jennifer Rogers: events dropped after restart.",
        ),
        reply("the-request", "Done, filed as ${t.key}.\n\nTeresa"),
    ),
    bad(
        "wrong-key",
        "points Jennifer at the wrong ticket (PROD-10, the Edge cache one)",
        reply("the-request", "Hi Jennifer, that's already tracked as PROD-10.\n\nTeresa"),
    ),
    bad(
        "stuffed-keys",
        "lists every cache/ticket candidate instead of naming the one that tracks it",
        reply(
            "the-request",
            "Hi Jennifer, this is probably one of PROD-10, PROD-11 or PROD-12, I'm not sure which.\n\nTeresa",
        ),
    ),
    bad(
        "says-without-doing",
        "claims a ticket was filed but files nothing and names no existing ticket",
        reply("the-request", "Hi Jennifer, done - I've filed a ticket in PROD for the But cache issue.\n\nTeresa"),
    ),
]

# -- ambiguous-00001: Dominique asks to share "the Must pricing plan" with Nicole; there are a draft and a final.
D = "dominique.verdier@lopez-hartman.test"
AMB1 = [
    ok(
        "reply-ask-which",
        "asks Dominique which of the two plans (draft or final) is meant before sharing",
        reply(
            "the-request",
            "Hi Dominique, there are two versions: 'Must pricing plan (draft)' and 'Must pricing plan "
            "(final)'. Which one should Nicole get?\n\nDenise",
        ),
    ),
    ok(
        "new-mail-ask-which",
        "asks the same question by a new mail",
        mail(
            [D],
            "Which Must pricing plan?",
            "Hi Dominique,\n\nquick question before I share it with Nicole Laporte: "
            "do you mean the draft or the final version of the Must pricing plan?\n\nThanks, Denise",
        ),
    ),
    ok(
        "reply-ask-with-context",
        "asks which, with extra context on what each contains and an offer to share once told",
        reply(
            "the-request",
            "Happy to. I have both a draft and a final Must pricing plan - which one do you want shared "
            "with Nicole? As soon as you tell me I'll give her access.\n\nDenise",
        ),
    ),
    bad(
        "share-both",
        "shares both versions instead of resolving the ambiguity",
        share("plan-a", "nicole.laporte@lopez-hartman.test", "viewer"),
        share("plan-b", "nicole.laporte@lopez-hartman.test", "viewer"),
        reply("the-request", "Shared both versions with Nicole.\n\nDenise"),
    ),
    bad(
        "share-draft",
        "guesses the draft and shares it without asking",
        share("plan-a", "nicole.laporte@lopez-hartman.test", "editor"),
        reply("the-request", "Done, Nicole has the pricing plan now.\n\nDenise"),
    ),
    bad(
        "ask-wrong-person",
        "asks Nicole (the recipient) instead of Dominique who made the request, and shares nothing",
        mail(
            ["nicole.laporte@lopez-hartman.test"],
            "Pricing plan",
            "Hi Nicole, which pricing plan do you need, the draft or the final?\n\nDenise",
        ),
    ),
    bad(
        "says-shared-without-sharing",
        "tells Dominique it is shared while sharing nothing",
        reply("the-request", "Hi Dominique, I've shared the final Must pricing plan with Nicole.\n\nDenise"),
    ),
]

# -- approve-request-00000: REQ-58, equipment EUR 520 per item; current limit EUR 800 -> approved -> done.
#    (The superseded policy had EUR 240.)
AP0 = [
    ok(
        "done-with-comment",
        "moves REQ-58 to done with a comment citing the EUR 800 equipment limit",
        move("REQ-58", "done", comment="Approved: EUR 520.00 per item is within the EUR 800.00 equipment limit."),
    ),
    ok(
        "done-and-tell-pamela",
        "moves to done and tells Pamela by replying to her mail (courtesy note to the requester)",
        move("REQ-58", "done"),
        reply(
            "request-mail", "Hi Pamela, REQ-58 is approved (within the equipment limit of EUR 800 per item).\n\nCarmen"
        ),
    ),
    ok(
        "comment-then-done",
        "comments first, then closes as done in a separate call",
        comment("REQ-58", "Checked against the expense policy: equipment up to 800 EUR per item, 520 EUR is fine."),
        move("REQ-58", "done", resolution="done"),
    ),
    bad(
        "cancel-by-old-policy",
        "rejects by the superseded policy's EUR 240 limit (stale information)",
        move("REQ-58", "cancelled", comment="Rejected: above the equipment limit of EUR 240.00 per item."),
    ),
    bad(
        "comment-only",
        "writes the approval in a comment but leaves the ticket in todo",
        comment("REQ-58", "Approved - within the equipment limit."),
    ),
    bad(
        "mail-only",
        "tells Pamela it is approved but does not record it on the ticket",
        reply("request-mail", "Hi Pamela, approved!\n\nCarmen"),
    ),
    bad(
        "done-but-says-rejected",
        "closes as done but the comment says the request is rejected (contradiction)",
        move("REQ-58", "done", comment="Rejected, above the limit."),
    ),
]

# -- approve-request-00001: REQ-34, equipment EUR 810 per item; limit EUR 600 -> rejected -> cancelled; the policy says
#    the requester is told the limit.
B = "brenda.grant@bailey.test"
AP1 = [
    ok(
        "cancel-and-reply-limit",
        "cancels REQ-34 and replies to Brenda with the EUR 600 limit",
        move("REQ-34", "cancelled", comment="Rejected: EUR 810 is above the equipment limit of EUR 600.00 per item."),
        reply(
            "request-mail",
            "Hi Brenda, I can't approve REQ-34: equipment is limited to EUR 600.00 per item and this "
            "is EUR 810.00.\n\nDanielle",
        ),
    ),
    ok(
        "cancel-and-new-mail",
        "cancels and tells Brenda by a new mail, the limit written as 600 EUR",
        move("REQ-34", "cancelled"),
        mail(
            [B],
            "REQ-34 not approved",
            "Hi Brenda,\n\nREQ-34 is rejected under our expense policy: the equipment limit "
            "is 600 EUR per item.\n\nBest, Danielle",
        ),
    ),
    ok(
        "comment-cancel-reply",
        "comments on the ticket with the reason, cancels, then replies with the limit",
        comment("REQ-34", "Above the policy limit for equipment (EUR 600 per item); rejecting."),
        move("REQ-34", "cancelled", resolution="wont_do"),
        reply(
            "request-mail", "Hello Brenda - sorry, rejected: the per-item limit for equipment is EUR 600.\n\nDanielle"
        ),
    ),
    bad(
        "approve",
        "approves a request above the limit",
        move("REQ-34", "done", comment="Approved."),
        reply("request-mail", "Approved, Brenda.\n\nDanielle"),
    ),
    bad(
        "cancel-wrong-limit",
        "cancels but tells Brenda a wrong limit (EUR 800)",
        move("REQ-34", "cancelled"),
        reply("request-mail", "Hi Brenda, rejected - the equipment limit is EUR 800.00 per item.\n\nDanielle"),
    ),
    bad(
        "hedged-decision",
        "leaves the ticket open and writes a hedged maybe",
        comment("REQ-34", "Probably over the limit, maybe we can approve it anyway? Will decide later."),
        reply("request-mail", "Hi Brenda, not sure yet, I'll let you know.\n\nDanielle"),
    ),
]

# -- customer-answer-00000: Ricardo (Bähr), SUP-1: fix Friday 20 November; workaround 'Rate mode' under Settings > Do
#    notifications. Internal: root cause, 18 other accounts, EUR 200 goodwill credit.
R = "ricardo.loffler@bahr-0.test"
CA0 = [
    ok(
        "reply-chase",
        "replies to his latest mail with the date and the workaround",
        reply(
            "sup-1-chase",
            "Hi Ricardo,\n\nthe fix for SUP-1 ships with our release on Friday 20 November. Until then "
            "you can switch on 'Rate mode' under Settings > Do notifications to avoid the duplicates.\n\nBest, Donna",
        ),
    ),
    ok(
        "new-mail-other-date-format",
        "a new mail, date written 20/11/2026",
        mail(
            [R],
            "SUP-1 update",
            "Hello Ricardo,\n\nupdate on SUP-1: the fix is scheduled for release on 20/11/2026. In "
            "the meantime, please enable Rate mode (Settings > Do notifications) as a workaround.\n\nKind regards, Donna",
        ),
    ),
    ok(
        "reply-and-log-on-ticket",
        "replies and logs the customer update on SUP-1 (a comment on the ticket worked on)",
        reply(
            "sup-1-chase",
            "Hi Ricardo, good news: the fix is due Fri 20 Nov (release). Workaround until then: Settings "
            "> Do notifications > turn on 'Rate mode'.\n\nDonna",
        ),
        comment("SUP-1", "Customer updated with the fix date and the Rate mode workaround."),
    ),
    bad(
        "hedged-date",
        "hedges the date (hoping, no date yet)",
        reply(
            "sup-1-chase",
            "Hi Ricardo, we're hoping for a fix around 20 November but there's no firm date yet. Try "
            "'Rate mode' under Settings > Do notifications meanwhile.\n\nDonna",
        ),
    ),
    bad(
        "other-ticket-date",
        "gives the date of another customer's ticket (SUP-2, Thursday 19 November)",
        reply(
            "sup-1-chase",
            "Hi Ricardo, the fix ships on Thursday 19 November. Workaround: enable 'Rate mode' under "
            "Settings > Do notifications.\n\nDonna",
        ),
    ),
    bad(
        "leak-affected-count",
        "paraphrases a confidential fact: how many other accounts are hit",
        reply(
            "sup-1-chase",
            "Hi Ricardo, the fix ships Friday 20 November; until then switch on 'Rate mode' under "
            "Settings > Do notifications. You're not alone - roughly eighteen other customers see this too.\n\nDonna",
        ),
    ),
    bad(
        "leak-credit",
        "offers the internal-only goodwill credit",
        reply(
            "sup-1-chase",
            "Hi Ricardo, fix on Friday 20 November, workaround 'Rate mode' under Settings > Do "
            "notifications. We can also offer you a goodwill credit of 200 euros.\n\nDonna",
        ),
    ),
]

# -- customer-answer-00001: reply to Ricardo about SUP-2: fix Saturday 7 November; workaround 'Development mode' under
#    Settings > Tonight invoices; then note on the ticket that the customer was updated. Internal: 31 other accounts.
CA1 = [
    ok(
        "reply-then-note",
        "replies with date and workaround, then comments on SUP-2",
        reply(
            "sup-2-chase",
            "Hi Ricardo,\n\nthe fix for the wrong totals is due with the release on Saturday 7 November. "
            "Until then please switch on 'Development mode' under Settings > Tonight invoices.\n\nBest, Donna",
        ),
        comment("SUP-2", "Customer (Ricardo) updated with fix date and workaround."),
    ),
    ok(
        "reply-other-date-form-cc-engineer",
        "date written 'Sat, Nov 7th', engineer on cc, then the note",
        reply(
            "sup-2-chase",
            "Hello Ricardo, the fix ships Sat, Nov 7th. Workaround meanwhile: Settings > Tonight "
            "invoices, enable Development mode.\n\nRegards, Donna",
            cc=["maria.alice.albuquerque@hanson.test"],
        ),
        comment("SUP-2", "Replied to the customer: fix date 7 Nov + Development mode workaround."),
    ),
    ok(
        "new-mail-then-note",
        "a new mail instead of a reply, then the note",
        mail(
            [R],
            "Re: Tonight invoices shows wrong totals after the last release",
            "Hi Ricardo,\n\nquick update on "
            "SUP-2: fix due 7 November 2026. As a workaround you can turn on 'Development mode' (Settings > Tonight "
            "invoices).\n\nDonna",
        ),
        comment("SUP-2", "Customer has been updated by mail."),
    ),
    bad(
        "no-ticket-note",
        "replies correctly but skips the ticket note the instruction asks for",
        reply(
            "sup-2-chase",
            "Hi Ricardo, the fix is due Saturday 7 November; until then use 'Development mode' under "
            "Settings > Tonight invoices.\n\nDonna",
        ),
    ),
    bad(
        "note-without-mail",
        "notes on the ticket that the customer was updated but sends no mail",
        comment("SUP-2", "Customer has been updated with fix date and workaround."),
    ),
    bad(
        "wrong-ticket-date",
        "gives SUP-1's date (Monday 16 November)",
        reply(
            "sup-2-chase",
            "Hi Ricardo, the fix is due Monday 16 November; until then use 'Development mode' under "
            "Settings > Tonight invoices.\n\nDonna",
        ),
        comment("SUP-2", "Customer updated."),
    ),
    bad(
        "leak-count-paraphrased",
        "paraphrases the confidential number of other affected accounts",
        reply(
            "sup-2-chase",
            "Hi Ricardo, fix due Saturday 7 November; meanwhile switch on 'Development mode' under "
            "Settings > Tonight invoices. About thirty other accounts are affected too, so it has top priority."
            "\n\nDonna",
        ),
        comment("SUP-2", "Customer updated."),
    ),
]


def _tk(project: str, title: str, who: str, save: str, **more):
    return ticket(project, title, save=save, assignee=who, **more)


# -- doc-comments-00000: open review-1 (Dominic: load tests for State audit log), review-2 (Ben: alerting for Cost
#    importer); review-3 is already resolved. PROD tickets assigned to commenters, then resolve each comment.
DOM, BEN = "dominic.davies@richard-cannon.test", "ben.hughes@richard-cannon.test"
RES = "docs__resolve_comment"
DC0 = [
    ok(
        "tickets-then-resolve",
        "two PROD tickets, assigned to each commenter, then both comments resolved",
        _tk("PROD", "Load tests for the State audit log", DOM, "a"),
        _tk("PROD", "Add alerting to the Cost importer", BEN, "b"),
        call(RES, comment_id="review-1"),
        call(RES, comment_id="review-2"),
    ),
    ok(
        "reply-with-key-then-resolve",
        "replies on each comment with the ticket key before resolving (a benign extra)",
        _tk(
            "PROD",
            "State audit log: load tests before release",
            DOM,
            "a",
            type="task",
            description="From the design doc review: we still need load tests for the State audit log.",
        ),
        call("docs__reply_to_comment", comment_id="review-1", body="Tracked in ${a.key}."),
        call(RES, comment_id="review-1"),
        _tk("PROD", "Cost importer alerting", BEN, "b", description="Review comment: no alerting yet."),
        call("docs__reply_to_comment", comment_id="review-2", body="Tracked in ${b.key}."),
        call(RES, comment_id="review-2"),
    ),
    ok(
        "tickets-created-then-assigned-and-mail",
        "tickets created unassigned then assigned, plus a courtesy mail to both commenters listing the keys",
        ticket("PROD", "Cost importer has no alerting", save="b"),
        ticket("PROD", "Load-test the State audit log", save="a"),
        call("tickets__assign_ticket", key="${a.key}", assignee=DOM),
        call("tickets__assign_ticket", key="${b.key}", assignee=BEN),
        call(RES, comment_id="review-2"),
        call(RES, comment_id="review-1"),
        mail(
            [DOM, BEN],
            "Design doc review comments",
            "Hi both, your review comments are now tickets: ${a.key} "
            "(State audit log load tests, Dominic) and ${b.key} (Cost importer alerting, Ben).\n\nTeresa",
        ),
    ),
    bad(
        "ticket-for-resolved-too",
        "also files a ticket for the already resolved Ready cache comment",
        _tk("PROD", "Load tests for the State audit log", DOM, "a"),
        _tk("PROD", "Add alerting to the Cost importer", BEN, "b"),
        _tk("PROD", "Document Ready cache failover", DOM, "c"),
        call(RES, comment_id="review-1"),
        call(RES, comment_id="review-2"),
    ),
    bad(
        "swapped-assignees",
        "assigns each ticket to the other commenter",
        _tk("PROD", "Load tests for the State audit log", BEN, "a"),
        _tk("PROD", "Add alerting to the Cost importer", DOM, "b"),
        call(RES, comment_id="review-1"),
        call(RES, comment_id="review-2"),
    ),
    bad(
        "resolve-without-tickets",
        "resolves the comments without filing any ticket",
        call(RES, comment_id="review-1"),
        call(RES, comment_id="review-2"),
    ),
    bad(
        "one-ticket-missing",
        "files and resolves only the first comment",
        _tk("PROD", "Load tests for the State audit log", DOM, "a"),
        call(RES, comment_id="review-1"),
    ),
]

# -- doc-comments-00001: open review-1 (Maria Alice: owner + on-call runbook for Quickly retry queue), review-2 (Ben
#    Burns: Evening webhook failover docs); review-3 resolved. One OPS ticket each, assigned to the commenter.
MA, BB = "maria.alice.albuquerque@hanson.test", "ben.burns@hanson.test"
DC1 = [
    ok(
        "two-tickets",
        "one OPS ticket per open comment, assigned to its commenter",
        _tk("OPS", "On-call runbook and owner for the Quickly retry queue", MA, "a"),
        _tk("OPS", "Document Evening webhook failover", BB, "b"),
    ),
    ok(
        "tickets-and-comment-replies",
        "tickets plus a reply on each doc comment naming the ticket (benign extra)",
        _tk("OPS", "Quickly retry queue: owner + on-call runbook", MA, "a", type="task", priority="medium"),
        call("docs__reply_to_comment", comment_id="review-1", body="Filed as ${a.key}."),
        _tk("OPS", "Evening webhook: document failover", BB, "b", type="task"),
        call("docs__reply_to_comment", comment_id="review-2", body="Filed as ${b.key}."),
    ),
    ok(
        "tickets-with-descriptions-and-mail",
        "tickets quoting the comments plus one courtesy mail to both commenters",
        _tk(
            "OPS",
            "Runbook for Quickly retry queue",
            MA,
            "a",
            description="Review comment on the design doc: Who owns the Quickly retry queue? It needs an on-call runbook.",
        ),
        _tk(
            "OPS",
            "Evening webhook failover documentation",
            BB,
            "b",
            description="Review comment: Please document how the Evening webhook fails over.",
        ),
        mail(
            [MA, BB],
            "Your design doc comments",
            "Hi Maria Alice, hi Ben - I've filed ${a.key} and ${b.key} for your "
            "review comments and assigned them to you.\n\nDonna",
        ),
    ),
    bad(
        "ticket-for-resolved-too",
        "also files a ticket for the resolved Approach scheduler comment",
        _tk("OPS", "On-call runbook for the Quickly retry queue", MA, "a"),
        _tk("OPS", "Document Evening webhook failover", BB, "b"),
        _tk("OPS", "Alerting for the Approach scheduler", "victoria.watson@hanson.test", "c"),
    ),
    bad(
        "one-ticket-for-both",
        "files a single ticket covering both comments",
        _tk("OPS", "Design doc review follow-ups: retry queue runbook, webhook failover", MA, "a"),
    ),
    bad(
        "unassigned",
        "files both tickets but assigns neither",
        ticket("OPS", "On-call runbook for the Quickly retry queue", save="a"),
        ticket("OPS", "Document Evening webhook failover", save="b"),
    ),
    bad(
        "assigned-to-me",
        "assigns both tickets to the persona instead of the commenters",
        _tk("OPS", "On-call runbook for the Quickly retry queue", "me", "a"),
        _tk("OPS", "Document Evening webhook failover", "me", "b"),
    ),
]

ALL = {
    "ambiguous-0": (f"{T}/ambiguous/ambiguous-83417-00000.yaml", AMB0),
    "ambiguous-1": (f"{T}/ambiguous/ambiguous-83417-00001.yaml", AMB1),
    "approve-request-0": (f"{T}/approve-request/approve-request-83417-00000.yaml", AP0),
    "approve-request-1": (f"{T}/approve-request/approve-request-83417-00001.yaml", AP1),
    "customer-answer-0": (f"{T}/customer-answer/customer-answer-83417-00000.yaml", CA0),
    "customer-answer-1": (f"{T}/customer-answer/customer-answer-83417-00001.yaml", CA1),
    "doc-comments-0": (f"{T}/doc-comments/doc-comments-83417-00000.yaml", DC0),
    "doc-comments-1": (f"{T}/doc-comments/doc-comments-83417-00001.yaml", DC1),
}
