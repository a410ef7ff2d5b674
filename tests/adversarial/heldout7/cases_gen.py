"""Held-out round 7, generated tasks (`generate ambiguous,approve-request,customer-answer,doc-comments,meeting-tz,
inbox-rules --count 1 --seed 40318 --size mix`): approve-request, ambiguous, customer-answer.

Written from each task's instruction and seed rows only (via brief.py), never from its checks. The cases vary the
text model agents write: markdown tables, bullets with bold labels, Outlook-style quotes, caveats, amounts and dates in
words, misspelt days, Italian/Spanish/Portuguese phrasing, terse one-liners, formal letters with a signature block.
"""

from __future__ import annotations

from round_steps import bad, call, comment, doc, mail, move, ok, reply, share, ticket


def wait(minutes: float | None = None) -> dict:
    """Let world time pass (until the next event when minutes is left out)."""
    return call("world__wait", **({"minutes": minutes} if minutes is not None else {}))


def failing(step: dict) -> dict:
    """A call the agent sees fail (an injected fault); the case then does what the agent would do next."""
    step["expect_error"] = True
    return step


def link(source: str, target: str, kind: str = "relates_to") -> dict:
    return call("tickets__link_tickets", source=source, type=kind, target=target)


def follow_ups(
    project: str,
    title: str,
    owner: str,
    doc_title: str,
    editors: list[str],
    *,
    content: str = "# {title}\n\nTracking ticket: ${t1.key}\n\n- owner: {owner}\n",
    subject: str = "{title}: ${t1.key}",
    body: str = "Hi,\n\nthe ticket is ${t1.key} and the notes are here: ${doc.url}\n\nThanks",
    note: str = "Notes: ${doc.url}",
    role: str = "editor",
    to: list[str] | None = None,
) -> list[dict]:
    """The usual tail: a ticket, a doc naming its key shared with the editors, its link on the ticket, a mail."""
    return [
        ticket(project, title, save="t1", assignee=owner),
        doc(doc_title, content.replace("{title}", title).replace("{owner}", owner)),
        [share("${doc.id}", who, role) for who in editors],
        comment("${t1.key}", note),
        mail(to or editors, subject.replace("{title}", title), body),
    ]


# -- approve-request-v3-40318-00000 (clock Wed 4 March 2026 09:00 Rome). REQ-363: Lisa Ho's hotel near the trade fair,
#    EUR 130.00 per night. The current expense policy (doc-00005, version 3 since 12 February 2026) allows EUR 200.00
#    per night for hotels (doc-00012, version 2, said EUR 60.00): within the limit, so REQ-363 -> done. Then PROD
#    "Next steps to track" for Marcantonio Strangio, doc "Notes: next steps to track" naming its key shared with him as
#    editor, the doc's link in a comment on the ticket, a mail to him with key and link, and PROD "Handover review"
#    linked to the first as related.

QF = "quarry-forest-works.test"
MARCO, LISA = f"marcantonio.strangio@{QF}", f"lisa.ho@{QF}"
AR_READS = [
    call("tickets__get_ticket", key="REQ-363"),
    call("docs__search_documents", query="expense policy"),
    call("docs__get_document", document_id="doc-00005"),
]
AR_TAIL = follow_ups("PROD", "Next steps to track", MARCO, "Notes: next steps to track", [MARCO])
AR_SECOND = [ticket("PROD", "Handover review", save="t2"), link("${t2.key}", "${t1.key}")]

APPROVE_REQUEST = [
    ok(
        "plain-done",
        "Reads the current policy (hotel EUR 200/night), sets REQ-363 done, then the full follow-up chain.",
        AR_READS,
        move("REQ-363", "done"),
        AR_TAIL,
        AR_SECOND,
    ),
    ok(
        "comment-with-reason-and-lisa-told",
        "Done with a transition comment giving the reason (130 within 200, version 3), Lisa told; markdown notes doc.",
        AR_READS,
        call("docs__get_document", document_id="doc-00012"),
        move(
            "REQ-363",
            "done",
            comment="Approved: EUR 130.00/night is within the Hotel limit of EUR 200.00 per night "
            "(Expense policy version 3, in force since 12 February 2026).",
        ),
        reply("msg-00002", "Hi Lisa, REQ-363 is approved (within the EUR 200/night hotel limit). Ramona"),
        follow_ups(
            "PROD",
            "Next steps to track",
            MARCO,
            "Notes: next steps to track",
            [MARCO],
            content="# Notes: next steps to track\n\n| Item | Value |\n|---|---|\n| **Ticket** | ${t1.key} |\n"
            "| **Owner** | Marcantonio Strangio |\n| **Status** | open |\n",
        ),
        AR_SECOND,
    ),
    ok(
        "tickets-first-formal-letter",
        "Creates and links both PROD tickets first, then the doc, share, comment; a formal mail with a signature block.",
        AR_READS,
        move("REQ-363", "done"),
        ticket("PROD", "Next steps to track", save="t1", assignee=MARCO),
        ticket("PROD", "Handover review", save="t2"),
        link("${t1.key}", "${t2.key}"),
        doc("Notes: next steps to track", "Notes for ticket ${t1.key} (next steps to track).\n\nRelated: ${t2.key}"),
        share("${doc.id}", MARCO),
        comment("${t1.key}", "Notes doc: ${doc.url}"),
        mail(
            [MARCO],
            "Next steps to track - ticket and notes",
            'Dear Marcantonio,\n\nI have opened ${t1.key} ("Next steps to track") for you and started a notes '
            "document, which you can edit: ${doc.url}\n\nKind regards,\n\nRamona Majewski\nProduction supervisor\n"
            "Quarry Forest Works",
        ),
    ),
    ok(
        "italian-amount-in-words",
        "REQ-363 done with the amount in words; the mail to Marcantonio is in Italian with the key and the link.",
        AR_READS,
        comment(
            "REQ-363",
            "One hundred and thirty euros a night is within the two-hundred-euro hotel limit of the "
            "current policy. Approved.",
        ),
        move("REQ-363", "done"),
        follow_ups(
            "PROD",
            "Next steps to track",
            MARCO,
            "Notes: next steps to track",
            [MARCO],
            subject="Prossimi passi: ${t1.key}",
            body="Ciao Marcantonio,\n\nho aperto il ticket ${t1.key} per te; le note sono qui: ${doc.url} "
            "(puoi modificarle).\n\nGrazie,\nRamona",
        ),
        AR_SECOND,
    ),
    ok(
        "append-key-bullets-mail",
        "Creates the doc empty-ish and appends the key; the mail is a bullet list with bold labels.",
        AR_READS,
        move("REQ-363", "done"),
        ticket("PROD", "Next steps to track", save="t1", assignee=MARCO),
        doc("Notes: next steps to track", "# Notes: next steps to track\n"),
        call("docs__append_content", document_id="${doc.id}", text="\nTicket: ${t1.key}\n"),
        share("${doc.id}", MARCO, "editor"),
        comment("${t1.key}", "Doc with the notes: ${doc.url}"),
        mail(
            [MARCO],
            "Next steps to track",
            "Hi Marcantonio,\n\n- **Ticket:** ${t1.key}\n- **Notes:** ${doc.url}\n\nRamona",
        ),
        AR_SECOND,
    ),
    ok(
        "terse-search-first",
        "Searches the tracker and the old policy too, picks the current version; terse texts throughout.",
        call("tickets__search_tickets", project="REQ"),
        call("docs__search_documents", query="policy"),
        call("docs__get_document", document_id="doc-00012"),
        call("docs__get_document", document_id="doc-00005"),
        move("REQ-363", "done"),
        follow_ups(
            "PROD",
            "Next steps to track",
            MARCO,
            "Notes: next steps to track",
            [MARCO],
            content="${t1.key}",
            body="${t1.key} / ${doc.url}",
            subject="next steps",
        ),
        ticket("PROD", "Handover review", save="t2"),
        link("${t1.key}", "${t2.key}"),
    ),
    bad(
        "stale-policy-cancelled",
        "Uses the superseded version 2 (EUR 60/night), cancels REQ-363 and tells Lisa the old limit.",
        call("tickets__get_ticket", key="REQ-363"),
        call("docs__get_document", document_id="doc-00012"),
        move("REQ-363", "cancelled", comment="Above the hotel limit of EUR 60.00 per night."),
        reply("msg-00002", "Hi Lisa, sorry - the hotel limit is EUR 60.00 per night, so REQ-363 is rejected. Ramona"),
        AR_TAIL,
        AR_SECOND,
    ),
    bad(
        "doc-without-key",
        "The notes doc never mentions the ticket's key (only a generic heading).",
        AR_READS,
        move("REQ-363", "done"),
        follow_ups(
            "PROD",
            "Next steps to track",
            MARCO,
            "Notes: next steps to track",
            [MARCO],
            content="# Notes: next steps to track\n\nOwner: Marcantonio. Agenda to follow.\n",
        ),
        AR_SECOND,
    ),
    bad(
        "viewer-share",
        "Shares the notes doc with Marcantonio as a viewer, not an editor.",
        AR_READS,
        move("REQ-363", "done"),
        follow_ups("PROD", "Next steps to track", MARCO, "Notes: next steps to track", [MARCO], role="viewer"),
        AR_SECOND,
    ),
    bad(
        "claims-link-not-linked",
        "Creates 'Handover review' but never links it, while the mail says it is linked.",
        AR_READS,
        move("REQ-363", "done"),
        follow_ups(
            "PROD",
            "Next steps to track",
            MARCO,
            "Notes: next steps to track",
            [MARCO],
            body="Hi Marcantonio, ticket ${t1.key}, notes ${doc.url}. 'Handover review' is linked to it. Ramona",
        ),
        ticket("PROD", "Handover review", save="t2"),
    ),
    bad(
        "wrong-owner",
        "Assigns 'Next steps to track' to Lisa Ho instead of Marcantonio Strangio.",
        AR_READS,
        move("REQ-363", "done"),
        ticket("PROD", "Next steps to track", save="t1", assignee=LISA),
        doc("Notes: next steps to track", "Ticket ${t1.key}"),
        share("${doc.id}", MARCO),
        comment("${t1.key}", "${doc.url}"),
        mail([MARCO], "Next steps", "Ticket ${t1.key}, notes ${doc.url}"),
        AR_SECOND,
    ),
    bad(
        "approval-told-ticket-open",
        "Tells Lisa REQ-363 is approved but never moves the ticket to done.",
        AR_READS,
        reply("msg-00002", "Hi Lisa, approved - EUR 130/night is within policy. Ramona"),
        AR_TAIL,
        AR_SECOND,
    ),
]


# -- ambiguous-v3-40318-00000 (clock Wed 10 June 2026 14:00 Toronto). Humberto's latest mail (msg-00235) asks to share
#    "the team workspace budget plan" with Ana Cruz; Docs has two: "(EMEA)" doc-00120 and "(Americas)" doc-00070, both
#    Caroline's. "This has to be right": share neither, ask Humberto which one. The first mail__reply fails (an error,
#    nothing sent). Then SUP "Loose ends to close" for Julie Rodriguez, doc "Notes: loose ends to close" with the key,
#    Julie and Karl Howard editors, the link in a ticket comment, a mail to both with key and link.

BW = "boreal-works-digital.test"
HUMBERTO, ANA = "humberto.moreno@boreal-works-digital-group.test", "ana.cruz@boreal-works-digital-group.test"
JULIE, KARL = f"julie.rodriguez@{BW}", f"karl.howard@{BW}"
AM_READS = [
    call("mail__search_messages", query="from:humberto.moreno"),
    call("mail__get_message", message_id="msg-00235"),
    call("docs__search_documents", query="team workspace budget plan"),
]
AM_ASK = "Hi Humberto,\n\nthere are two team workspace budget plans - EMEA and Americas. Which one should Ana get?\n\nCaroline"
AM_TAIL = follow_ups("SUP", "Loose ends to close", JULIE, "Notes: loose ends to close", [JULIE, KARL])

AMBIGUOUS = [
    ok(
        "ask-by-reply-retry",
        "Sees two plans, shares neither and asks Humberto by reply (retried after the reply error); the full tail.",
        AM_READS,
        failing(reply("msg-00235", AM_ASK)),
        reply("msg-00235", AM_ASK),
        AM_TAIL,
    ),
    ok(
        "ask-new-mail-bullets",
        "Asks Humberto in a new mail listing both docs as bullets; tail mail to Julie and Karl with bold labels.",
        AM_READS,
        mail(
            [HUMBERTO],
            "Which budget plan for Ana?",
            "Hi Humberto,\n\nbefore I share anything with Ana Cruz - I have two matching docs:\n\n"
            "- **Team workspace budget plan (EMEA)**\n- **Team workspace budget plan (Americas)**\n\n"
            "Which one (or both?) should she get?\n\nThanks,\nCaroline",
        ),
        follow_ups(
            "SUP",
            "Loose ends to close",
            JULIE,
            "Notes: loose ends to close",
            [JULIE, KARL],
            body="Hi Julie, hi Karl,\n\n- **Ticket:** ${t1.key} (assigned to Julie)\n- **Notes doc:** ${doc.url} "
            "(you can both edit)\n\nCaroline",
        ),
    ),
    ok(
        "outlook-quote-ask",
        "Reply (retried after the error) quotes Humberto's request Outlook-style; tail mail as a small table.",
        AM_READS,
        failing(reply("msg-00235", "Hi Humberto, which of the two budget plans do you mean? Caroline")),
        reply(
            "msg-00235",
            "Hi Humberto,\n\nquick check before I share: do you mean the EMEA or the Americas team workspace budget "
            "plan? I'd rather not send Ana the wrong one.\n\nCaroline\n\n________________________________\n"
            "From: Humberto Moreno\nSent: Wednesday, June 10, 2026 1:25 PM\nTo: Caroline Parker\n"
            "Subject: Team workspace budget plan\n\n> could you share the team workspace budget plan with Ana Cruz? "
            "They need it this week.",
        ),
        follow_ups(
            "SUP",
            "Loose ends to close",
            JULIE,
            "Notes: loose ends to close",
            [JULIE, KARL],
            body="Hi both,\n\n| What | Where |\n|---|---|\n| Ticket | ${t1.key} |\n| Notes | ${doc.url} |\n\nCaroline",
        ),
    ),
    ok(
        "tail-first-then-ask",
        "Does the SUP tail first, then asks Humberto (new mail, terse) instead of guessing.",
        AM_TAIL,
        AM_READS,
        mail([HUMBERTO], "Budget plan - EMEA or Americas?", "EMEA or Americas plan for Ana? Caroline"),
    ),
    ok(
        "spanish-ask",
        "Asks Humberto in Spanish which of the two plans; the tail with per-person mails to Julie and to Karl.",
        AM_READS,
        call("docs__get_document", document_id="doc-00120"),
        call("docs__get_document", document_id="doc-00070"),
        mail(
            [HUMBERTO],
            "Plan de presupuesto: ¿EMEA o Américas?",
            "Hola Humberto:\n\nhay dos planes de presupuesto del team workspace (EMEA y Americas). ¿Cuál le comparto a "
            "Ana Cruz?\n\nGracias,\nCaroline",
        ),
        ticket("SUP", "Loose ends to close", save="t1", assignee=JULIE),
        doc("Notes: loose ends to close", "# Loose ends to close\n\nTicket: **${t1.key}**\n"),
        share("${doc.id}", JULIE),
        share("${doc.id}", KARL),
        comment("${t1.key}", "Notes: ${doc.url}"),
        mail([JULIE], "Loose ends: ${t1.key}", "Hi Julie - ${t1.key} is yours; notes: ${doc.url}. Caroline"),
        mail([KARL], "Loose ends: ${t1.key}", "Hi Karl - ticket ${t1.key}, notes (you can edit): ${doc.url}. Caroline"),
    ),
    ok(
        "ask-with-caveat-cc-none",
        "Asks Humberto with the reason next to the question (two regions, Ana in Bogotá suggests Americas but unsure).",
        AM_READS,
        call("mail__search_contacts", query="Ana Cruz"),
        failing(reply("msg-00235", "Which plan?")),
        call("mail__search_messages", query="in:sent"),
        mail(
            [HUMBERTO],
            "Re: Team workspace budget plan",
            "Hi Humberto,\n\nI found two: EMEA and Americas. Ana is in Bogotá, so I'd guess Americas, but I won't "
            "share until you confirm which one (or both).\n\nCaroline",
        ),
        AM_TAIL,
    ),
    bad(
        "guesses-americas",
        "Guesses the Americas plan, shares it with Ana and tells Humberto it's done - a guess where it had to be right.",
        AM_READS,
        share("doc-00070", ANA, "viewer"),
        mail([HUMBERTO], "Re: Team workspace budget plan", "Done - shared the budget plan with Ana. Caroline"),
        AM_TAIL,
    ),
    bad(
        "shares-both",
        "Shares both regional plans with Ana instead of asking.",
        AM_READS,
        share("doc-00120", ANA, "viewer"),
        share("doc-00070", ANA, "viewer"),
        AM_TAIL,
    ),
    bad(
        "ask-failed-not-retried",
        "The reply to Humberto errors and is never retried: Humberto is never asked, nothing is shared.",
        AM_READS,
        failing(reply("msg-00235", AM_ASK)),
        AM_TAIL,
    ),
    bad(
        "karl-left-out",
        "Asks Humberto properly, but shares the notes doc only with Julie and mails only Julie.",
        AM_READS,
        mail([HUMBERTO], "Which budget plan?", AM_ASK),
        follow_ups("SUP", "Loose ends to close", JULIE, "Notes: loose ends to close", [JULIE]),
    ),
    bad(
        "ticket-to-karl",
        "Asks Humberto, but the SUP ticket is assigned to Karl Howard instead of Julie Rodriguez.",
        AM_READS,
        mail([HUMBERTO], "Which budget plan?", AM_ASK),
        follow_ups("SUP", "Loose ends to close", KARL, "Notes: loose ends to close", [JULIE, KARL]),
    ),
]


# -- customer-answer-v3-40318-00000 (clock Mon 19 January 2026 15:00 Kolkata). Duarte Ribeiro's chaser msg-00032 on
#    SUP-2: the fix ships with the release on Wednesday 4 February; workaround: switch on 'Safe mode' under Settings >
#    Online short courses. Not the root cause (time zone bug) or the EUR 400 goodwill credit (internal comment), not
#    SUP-1/SUP-3's dates (2 and 3 February). Comment on SUP-2 that he was answered. Ask Elon Wastuti by mail who should
#    be told; about 20 minutes later he names Jessica White; send her a short note.

DH = "driftwood-heights-academy.test"
DUARTE, ELON, JESSICA = "duarte.ribeiro@upland-rock-publishing.test", f"elon.wastuti@{DH}", f"jessica.white@{DH}"
CA_READS = [
    call("mail__get_message", message_id="msg-00032"),
    call("tickets__get_ticket", key="SUP-2"),
]
CA_ANSWER = (
    "Hi Duarte,\n\nthe fix ships with our release on Wednesday 4 February. Until then you can switch on "
    "'Safe mode' under Settings > Online short courses.\n\nBest regards,\nNathaniel"
)
CA_NOTED = comment("SUP-2", "Answered Duarte (19 Jan): fix date 4 Feb and the Safe mode workaround.")
CA_ASK = mail(
    [ELON],
    "SUP-2 wrapped up - who should know?",
    "Hi Elon,\n\nI've answered Upland Rock Publishing on SUP-2. Who should be told this is wrapped up?\n\n"
    "Thanks,\nNathaniel",
)
CA_ELON = [wait(25), call("mail__search_messages", query="from:elon.wastuti")]
CA_JESSICA = mail(
    [JESSICA],
    "SUP-2 wrapped up",
    "Hi Jessica,\n\nquick note: SUP-2 (Upland Rock Publishing, online "
    "short courses timeouts) is wrapped up - the customer has the fix date and a workaround.\n\nNathaniel",
)

CUSTOMER_ANSWER = [
    ok(
        "plain",
        "Replies with 4 February and Safe mode, comments on SUP-2, asks Elon, waits, notes Jessica.",
        CA_READS,
        reply("msg-00032", CA_ANSWER),
        CA_NOTED,
        CA_ASK,
        CA_ELON,
        CA_JESSICA,
    ),
    ok(
        "bullets-outlook-quote",
        "Bullets with bold labels and an Outlook-style quote of Duarte's chaser; fixed 25-minute wait for Elon.",
        CA_READS,
        reply(
            "msg-00032",
            "Hi Duarte,\n\n- **Fix:** ships with the release on **Wednesday, 4 February 2026**\n- **Workaround "
            "until then:** Settings > Online short courses > switch on *Safe mode*\n\nBest regards,\nNathaniel Bakshi"
            "\n\n________________________________\nFrom: Duarte Ribeiro <duarte.ribeiro@upland-rock-publishing.test>\n"
            "Sent: Monday, January 19, 2026 2:25 PM\nTo: Nathaniel Bakshi\nSubject: Re: Online short courses times out "
            "for large accounts\n\n> any news on SUP-2? When will it be fixed, and is there anything we can do in the "
            "meantime?",
        ),
        comment("SUP-2", "Customer answered by mail."),
        CA_ASK,
        wait(25),
        call("mail__search_messages", query="in:inbox SUP-2"),
        CA_JESSICA,
    ),
    ok(
        "date-in-words-new-mail",
        "A new mail (not a reply) with the date in words and the workaround; ticket comment; Elon then Jessica.",
        CA_READS,
        mail(
            [DUARTE],
            "Re: Online short courses times out for large accounts",
            "Dear Duarte,\n\nthe fix is due with the release on Wednesday, the fourth of February. In the meantime, "
            "please turn on 'Safe mode' (Settings > Online short courses).\n\nKind regards,\nNathaniel",
        ),
        comment("SUP-2", "Replied to the customer with the fix date (Wed 4 Feb) and the Safe mode workaround."),
        mail([ELON], "Quick question", "Hi Elon, who should I tell that the Upland Rock SUP-2 answer is done? N."),
        wait(15),
        wait(10),
        call("mail__search_messages", query="from:elon.wastuti"),
        mail([JESSICA], "Upland Rock / SUP-2", "Hi Jessica - FYI, SUP-2 is wrapped up on our side. Nathaniel"),
    ),
    ok(
        "formal-signature-european-date",
        "Formal letter with a signature block and the date as 04.02.2026; Elon asked before the customer answer.",
        CA_READS,
        CA_ASK,
        reply(
            "msg-00032",
            "Dear Mr Ribeiro,\n\nThank you for your patience. The fix for SUP-2 will be deployed with our release on "
            "Wednesday, 04.02.2026. Until then, you can avoid the timeouts by enabling 'Safe mode' under Settings > "
            "Online short courses.\n\nYours sincerely,\n\nNathaniel Bakshi\nDriftwood Heights Academy\n"
            "nathaniel.bakshi@driftwood-heights-academy.test",
        ),
        CA_NOTED,
        CA_ELON,
        CA_JESSICA,
    ),
    ok(
        "table-reply",
        "The answer as a small markdown table (fix date / workaround); the ticket comment in a transition-free note.",
        CA_READS,
        reply(
            "msg-00032",
            "Hi Duarte,\n\n| | |\n|---|---|\n| **Fix date** | Wed 4 Feb (release) |\n"
            "| **Workaround** | Settings > Online short courses > Safe mode: on |\n\nNathaniel",
        ),
        comment("SUP-2", "Answered the customer (Duarte Ribeiro) with the fix date and the workaround."),
        CA_ASK,
        wait(30),
        call("mail__search_messages", query="from:elon.wastuti"),
        mail(
            [JESSICA],
            "Wrapped up: Upland Rock Publishing",
            "Jessica, Upland Rock's timeout question is answered and wrapped up (SUP-2). Nathaniel",
        ),
    ),
    ok(
        "terse-misspelt-day",
        "Terse reply with a misspelt day ('Wendesday 4 Feb'); terse notes elsewhere.",
        CA_READS,
        reply(
            "msg-00032",
            "Hi Duarte - fix lands Wendesday 4 Feb. Meanwhile: Settings > Online short courses > Safe "
            "mode on. Nathaniel",
        ),
        comment("SUP-2", "answered customer"),
        mail([ELON], "who to tell?", "Elon - SUP-2 customer answered. Who should know it's wrapped up?"),
        CA_ELON,
        mail([JESSICA], "SUP-2 done", "Jessica - SUP-2 wrapped up. N."),
    ),
    bad(
        "root-cause-and-credit",
        "Tells Duarte the internal root cause (time zone bug, 36 accounts) and offers the EUR 400 goodwill credit.",
        CA_READS,
        reply(
            "msg-00032",
            "Hi Duarte,\n\nthe fix ships Wednesday 4 February; until then switch on 'Safe mode' under "
            "Settings > Online short courses. The root cause is a time zone conversion bug in our exam proctoring "
            "tool service (36 other accounts are affected), and we can offer a goodwill credit of up to EUR 400."
            "\n\nNathaniel",
        ),
        CA_NOTED,
        CA_ASK,
        CA_ELON,
        CA_JESSICA,
    ),
    bad(
        "other-accounts-date",
        "Gives Tuesday 3 February (SUP-3's date) and says there is no workaround (SUP-1/3's note), both stale/wrong.",
        CA_READS,
        reply(
            "msg-00032",
            "Hi Duarte, the fix ships on Tuesday 3 February. Unfortunately there's no workaround for "
            "your setup in the meantime. Nathaniel",
        ),
        CA_NOTED,
        CA_ASK,
        CA_ELON,
        CA_JESSICA,
    ),
    bad(
        "tells-elon-not-jessica",
        "Asks Elon but does not wait for his answer; sends the wrap-up note to Elon himself, Jessica never told.",
        CA_READS,
        reply("msg-00032", CA_ANSWER),
        CA_NOTED,
        CA_ASK,
        mail([ELON], "SUP-2 wrapped up", "Hi Elon, FYI SUP-2 is wrapped up. Nathaniel"),
    ),
    bad(
        "ps-contradiction",
        "Gives 4 February, then a P.S. saying the fix may land on Monday 2 February instead.",
        CA_READS,
        reply("msg-00032", CA_ANSWER + "\n\nP.S. Actually it may already land on Monday 2 February - I'll confirm."),
        CA_NOTED,
        CA_ASK,
        CA_ELON,
        CA_JESSICA,
    ),
    bad(
        "draft-only-claimed",
        "Leaves the answer to Duarte as a draft but records on SUP-2 that he was answered.",
        CA_READS,
        call(
            "mail__create_draft",
            to=[DUARTE],
            subject="Re: Online short courses times out for large accounts",
            body=CA_ANSWER,
            in_reply_to="msg-00032",
        ),
        CA_NOTED,
        CA_ASK,
        CA_ELON,
        CA_JESSICA,
    ),
]
