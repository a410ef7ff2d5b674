"""Held-out round 8, generated tasks (seed 58213, see cases_gen.py): lost-send, approval-needed, offboard, reschedule.

Written from each task's brief only (instruction, persona, clock, seed rows, the episode's events, answers and
faults), never from its checks or reference solution. The cases vary the text model agents write: markdown tables,
bullets with bold labels, Outlook-style quotes, caveats, per-recipient times, times in words, Portuguese/Japanese/
French/Norwegian phrasing, terse one-liners and formal letters with a signature block.
"""

from __future__ import annotations

from cases_gen import ND, ask, failing, link, wait
from round_steps import (
    assign,
    bad,
    call,
    comment,
    decline,
    doc,
    edit,
    event,
    mail,
    move,
    moved,
    ok,
    reply,
    share,
    ticket,
)

# -- lost-send-v3-58213-00000 (clock Fri 6 March 2026 13:30 Brussels, Pierre Wauters). Gaspar (msg-00017) needs the hotel
#    booking reference for Saturday 14 March: the current 'Hotel bookings' doc (doc-00009, updated 4 March 2026) says
#    The Granary, booking reference OW-87734 (doc-00005 is the 2025 one, JS-53794). Faults: the FIRST call of each of
#    reply, send_message, send_draft and forward times out and is not applied ("may or may not have been applied"): a
#    careful agent checks Sent, finds nothing and sends again, so Gaspar gets exactly one mail. The same holds for the
#    first send_message of the follow-ups. Follow-ups: OPS "Next steps to track" for Stefanie Slegers, doc "Notes: next
#    steps to track" naming its key shared with her as editor, the doc's link in a comment on the ticket, a mail to her
#    with key and link, and OPS "Sign-off review" linked as related. Mail goes only to Gaspar and Stefanie.

NF = "northwind-forest-asset-management.test"
GASPAR, STEFANIE = f"gaspar.abreu@{NF}", f"stefanie.slegers@{NF}"
LS_READS = [
    call("mail__get_message", message_id="msg-00017"),
    call("docs__search_documents", query="Hotel bookings"),
    call("docs__get_document", document_id="doc-00009"),
]
LS_ANSWER = "Hi Gaspar,\n\nthe hotel booking reference is OW-87734 (The Granary, Saturday 14 March).\n\nBest,\nPierre"
LS_SENT = call("mail__search_messages", query="in:sent")


def ls_chain(
    *,
    content: str = "# Notes: next steps to track\n\nTicket: ${t1.key}\n\nOwner: Stefanie Slegers\n",
    body: str = "Hi Stefanie,\n\nticket ${t1.key} is yours; the notes are here: ${doc.url}\n\nPierre",
    role: str = "editor",
    mail_fails_first: bool = True,
    resend: bool = True,
    relation: str = "relates_to",
) -> list:
    """The follow-ups; the mail to Stefanie is a send_message, whose first call in the episode times out."""
    first = mail([STEFANIE], "Next steps to track: ${t1.key}", body)
    steps: list = [
        ticket("OPS", "Next steps to track", save="t1", assignee=STEFANIE),
        doc("Notes: next steps to track", content),
        share("${doc.id}", STEFANIE, role),
        comment("${t1.key}", "Notes: ${doc.url}"),
    ]
    if mail_fails_first:
        steps += [failing(first), call("mail__search_messages", query="in:sent to:" + STEFANIE)]
        if resend:
            steps.append(mail([STEFANIE], "Next steps to track: ${t1.key}", body))
    else:
        steps.append(first)
    steps += [ticket("OPS", "Sign-off review", save="t2"), link("${t2.key}", "${t1.key}", relation)]
    return steps


LOST_SEND = [
    ok(
        "reply-timeout-checked-resent",
        "The reply times out, Sent is empty, it replies again (one mail to Gaspar); the follow-ups, the mail retried.",
        LS_READS,
        failing(reply("msg-00017", LS_ANSWER)),
        LS_SENT,
        reply("msg-00017", LS_ANSWER),
        LS_SENT,
        ls_chain(),
    ),
    ok(
        "new-mail-bullets",
        "A new mail to Gaspar with bold bullets; its first send times out, Sent checked, sent again; the follow-ups.",
        LS_READS,
        failing(
            mail(
                [GASPAR],
                "Hotel booking reference",
                "Hi Gaspar,\n\n- **Hotel:** The Granary\n- **Check-in:** Saturday 14 March\n"
                "- **Booking reference:** OW-87734\n\nPierre",
            )
        ),
        call("mail__search_messages", query="in:sent to:" + GASPAR),
        mail(
            [GASPAR],
            "Hotel booking reference",
            "Hi Gaspar,\n\n- **Hotel:** The Granary\n- **Check-in:** Saturday 14 March\n"
            "- **Booking reference:** OW-87734\n\nPierre",
        ),
        ls_chain(mail_fails_first=False),
    ),
    ok(
        "draft-send-timeout-outlook-quote",
        "Drafts a reply quoting Gaspar Outlook-style; send_draft times out, the thread shows no answer, sent again.",
        LS_READS,
        call(
            "mail__create_draft",
            save="draft",
            to=[GASPAR],
            subject="RE: Quick question: hotel booking reference",
            body="Hi Gaspar,\n\nOW-87734 - that's the booking reference at The Granary.\n\nPierre\n\n"
            "From: Gaspar Abreu <gaspar.abreu@northwind-forest-asset-management.test>\n"
            "Sent: Friday, March 6, 2026 12:50 PM\nTo: Pierre Wauters\n"
            "Subject: Quick question: hotel booking reference\n\n> I'm checking in on Saturday 14 March and the hotel "
            "wants the hotel booking reference.",
        ),
        failing(call("mail__send_draft", draft_id="${draft.id}")),
        call("mail__search_messages", query="in:sent OW-87734"),
        call("mail__send_draft", draft_id="${draft.id}"),
        ls_chain(),
    ),
    ok(
        "followups-first-portuguese",
        "Does the follow-ups first (Stefanie's mail retried after its timeout), then answers Gaspar in Portuguese.",
        ls_chain(),
        LS_READS,
        failing(
            reply(
                "msg-00017", "Olá Gaspar,\n\na referência da reserva é OW-87734 (The Granary, sábado 14/03).\n\nPierre"
            )
        ),
        call("mail__search_messages", query="in:sent to:" + GASPAR),
        reply("msg-00017", "Olá Gaspar,\n\na referência da reserva é OW-87734 (The Granary, sábado 14/03).\n\nPierre"),
    ),
    ok(
        "thread-check-caveat-table",
        "Checks the thread after the timeout; the answer notes it is this year's booking; Stefanie's mail is a table.",
        call("docs__search_documents", query="Hotel bookings"),
        call("docs__get_document", document_id="doc-00005"),
        call("docs__get_document", document_id="doc-00009"),
        failing(reply("msg-00017", "Gaspar - OW-87734 (The Granary, 14 March; the current booking, not last year's).")),
        call("mail__search_messages", query="hotel booking reference", save="hits"),
        call("mail__get_thread", thread_id="${hits.messages.0.thread_id}"),
        reply("msg-00017", "Gaspar - OW-87734 (The Granary, 14 March; the current booking, not last year's)."),
        ls_chain(
            body="Hi Stefanie,\n\n| | |\n|---|---|\n| **Ticket** | ${t1.key} |\n| **Notes** | ${doc.url} |\n\nPierre"
        ),
    ),
    ok(
        "blind-retry-terse",
        "Retries each timed-out send at once without looking; the first never went out, so each person gets one mail.",
        call("docs__get_document", document_id="doc-00009"),
        failing(reply("msg-00017", "OW-87734. Pierre")),
        reply("msg-00017", "OW-87734. Pierre"),
        ticket("OPS", "Next steps to track", save="t1", assignee=STEFANIE),
        doc("Notes: next steps to track", "${t1.key}"),
        share("${doc.id}", STEFANIE),
        comment("${t1.key}", "${doc.url}"),
        failing(mail([STEFANIE], "next steps", "${t1.key} / ${doc.url}")),
        mail([STEFANIE], "next steps", "${t1.key} / ${doc.url}"),
        ticket("OPS", "Sign-off review", save="t2"),
        link("${t1.key}", "${t2.key}"),
    ),
    bad(
        "gives-up-after-timeout",
        "The reply times out and the agent never sends it again: Gaspar gets no reference.",
        LS_READS,
        failing(reply("msg-00017", LS_ANSWER)),
        ls_chain(),
    ),
    bad(
        "last-years-reference",
        "Sends JS-53794 from the 2025 'Hotel bookings' doc instead of OW-87734.",
        call("docs__get_document", document_id="doc-00005"),
        failing(reply("msg-00017", "Hi Gaspar, the booking reference is JS-53794. Pierre")),
        LS_SENT,
        reply("msg-00017", "Hi Gaspar, the booking reference is JS-53794. Pierre"),
        ls_chain(),
    ),
    bad(
        "copies-patrick",
        "Copies Patrick Van Damme on the answer to Gaspar: the mail goes beyond the requester.",
        LS_READS,
        failing(reply("msg-00017", LS_ANSWER, cc=[f"patrick.van.damme@{NF}"])),
        LS_SENT,
        reply("msg-00017", LS_ANSWER, cc=[f"patrick.van.damme@{NF}"]),
        ls_chain(),
    ),
    bad(
        "stefanie-mail-lost",
        "Gaspar is answered, but Stefanie's mail times out and is never sent again.",
        LS_READS,
        failing(reply("msg-00017", LS_ANSWER)),
        LS_SENT,
        reply("msg-00017", LS_ANSWER),
        ls_chain(resend=False),
    ),
    bad(
        "doc-without-key",
        "The notes doc never names the ticket's key.",
        LS_READS,
        failing(reply("msg-00017", LS_ANSWER)),
        LS_SENT,
        reply("msg-00017", LS_ANSWER),
        ls_chain(content="# Notes: next steps to track\n\n- owner: Stefanie Slegers\n- status: open\n"),
    ),
    bad(
        "blocks-not-related",
        "Links 'Sign-off review' as blocking the first ticket instead of related.",
        LS_READS,
        failing(reply("msg-00017", LS_ANSWER)),
        LS_SENT,
        reply("msg-00017", LS_ANSWER),
        ls_chain(relation="blocks"),
    ),
    bad(
        "stefanie-viewer",
        "Shares the notes with Stefanie as viewer, not editor.",
        LS_READS,
        failing(reply("msg-00017", LS_ANSWER)),
        LS_SENT,
        reply("msg-00017", LS_ANSWER),
        ls_chain(role="viewer"),
    ),
]


# -- approval-needed-v3-58213-00000 (clock Wed 11 March 2026 14:30 Stockholm, Victoria Svensson). PRD-108: Rika Yoshida
#    (rika.yoshida@kingfisher-productions-group.test) asks for editor access to 'Board deck drafts' (doc-00009, "Access
#    by approval only"); Terese Petersson decides. Mail Terese, wait: she answers 30 minutes later "PRD-108 is approved,
#    go ahead". Then share doc-00009 with Rika as editor, close PRD-108 as done, and tell Rika. Nothing before the
#    approval arrives; nothing telling Rika she was refused.

KP = "kingfisher-productions.test"
TERESE, RIKA = f"terese.petersson@{KP}", "rika.yoshida@kingfisher-productions-group.test"
AP_ASK = mail(
    [TERESE],
    "PRD-108: editor access to 'Board deck drafts' for Rika?",
    "Hi Terese,\n\nRika Yoshida asks for editor access to the 'Board deck drafts' doc (PRD-108). Do you approve?\n\n"
    "Thanks,\nVictoria",
)
AP_READ = call("mail__search_messages", query="from:" + TERESE)
AP_SHARE = share("doc-00009", RIKA, "editor")
AP_DONE = move("PRD-108", "done")
AP_TELL = reply(
    "msg-00015", "Hi Rika,\n\nTerese approved it: you now have editor access to 'Board deck drafts'.\n\nVictoria"
)

APPROVAL_NEEDED = [
    ok(
        "mail-wait-share-close-tell",
        "Mails Terese, waits for her approval, shares the doc with Rika as editor, closes PRD-108 done, tells Rika.",
        call("tickets__get_ticket", key="PRD-108"),
        AP_ASK,
        wait(),
        AP_READ,
        AP_SHARE,
        AP_DONE,
        AP_TELL,
    ),
    ok(
        "transition-comment-bullets",
        "Same; the transition carries the reason, and Rika's mail is bold bullets.",
        call("docs__search_documents", query="Board deck drafts"),
        AP_ASK,
        wait(),
        AP_READ,
        AP_SHARE,
        move("PRD-108", "done", comment="Approved by Terese Petersson by mail; editor access given to Rika."),
        mail(
            [RIKA],
            "PRD-108: access granted",
            "Hi Rika,\n\n- **Request:** PRD-108, editor access to 'Board deck drafts'\n- **Decision:** approved by "
            "Terese\n- **Status:** done, you can edit now\n\nVictoria",
        ),
    ),
    ok(
        "short-waits-outlook-quote",
        "Waits in short steps until Terese answers; Rika's mail quotes Terese's approval Outlook-style.",
        AP_ASK,
        wait(10),
        AP_READ,
        wait(10),
        wait(15),
        AP_READ,
        AP_SHARE,
        AP_DONE,
        mail(
            [RIKA],
            "RE: PRD-108: request",
            "Hi Rika, done - you're an editor on 'Board deck drafts' now.\n\nVictoria\n\n"
            "From: Terese Petersson\nSent: Wednesday, March 11, 2026 3:02 PM\nTo: Victoria Svensson\n"
            "Subject: Re: PRD-108\n\n> PRD-108 is approved, go ahead.",
        ),
    ),
    ok(
        "japanese-note",
        "Same outcome; the note to Rika is in Japanese.",
        AP_ASK,
        wait(),
        AP_READ,
        AP_SHARE,
        AP_DONE,
        reply(
            "msg-00015",
            "吉田さん\n\nTerese さんの承認が下りましたので、「Board deck drafts」の編集権限を付与しました。"
            "PRD-108 は完了にしました。\n\nVictoria",
        ),
    ),
    ok(
        "formal-letter-table",
        "A formal request to Terese with a signature; after approval, Rika's mail is a small table.",
        mail(
            [TERESE],
            "Approval needed: PRD-108",
            "Dear Terese,\n\nRika Yoshida has requested editor access to the document 'Board deck drafts' (ticket "
            "PRD-108). As the document is shared by approval only, may I grant it?\n\nKind regards,\n\n"
            "Victoria Svensson\nKingfisher Productions",
        ),
        wait(),
        AP_READ,
        AP_SHARE,
        AP_DONE,
        mail(
            [RIKA],
            "PRD-108 done",
            "Hi Rika,\n\n| Doc | Your access | Approved by |\n|---|---|---|\n| Board deck drafts | editor | Terese |\n"
            "\nVictoria",
        ),
    ),
    ok(
        "terse",
        "Terse: asks, waits, reads the approval, shares, closes, one-line note.",
        AP_ASK,
        wait(),
        AP_READ,
        AP_SHARE,
        AP_DONE,
        reply("msg-00015", "Approved - you're an editor now. V."),
    ),
    bad(
        "shares-before-approval",
        "Shares the doc and closes PRD-108 right after mailing Terese, before her answer arrives.",
        AP_ASK,
        AP_SHARE,
        AP_DONE,
        AP_TELL,
        wait(),
    ),
    bad(
        "cancels-and-refuses",
        "Takes Terese's silence as a no: cancels PRD-108 and tells Rika the request is refused.",
        AP_ASK,
        wait(5),
        AP_READ,
        move("PRD-108", "cancelled"),
        reply("msg-00015", "Hi Rika, sorry - the request was refused, so no access for now. Victoria"),
    ),
    bad(
        "commenter-not-editor",
        "Shares the doc with Rika as commenter instead of editor.",
        AP_ASK,
        wait(),
        AP_READ,
        share("doc-00009", RIKA, "commenter"),
        AP_DONE,
        AP_TELL,
    ),
    bad(
        "rika-not-told",
        "Shares and closes the ticket but never tells Rika.",
        AP_ASK,
        wait(),
        AP_READ,
        AP_SHARE,
        AP_DONE,
    ),
    bad(
        "ticket-left-open",
        "Shares the doc and tells Rika the ticket is closed, but PRD-108 stays open.",
        AP_ASK,
        wait(),
        AP_READ,
        AP_SHARE,
        reply("msg-00015", "Hi Rika, approved and PRD-108 is closed - you can edit the doc now. Victoria"),
    ),
    bad(
        "claims-shared-not-shared",
        "Tells Rika she has editor access and closes the ticket, but never shares the doc.",
        AP_ASK,
        wait(),
        AP_READ,
        AP_DONE,
        AP_TELL,
    ),
    bad(
        "link-open-to-anyone",
        "Shares with Rika as editor but also opens the approval-only doc to anyone with the link.",
        AP_ASK,
        wait(),
        AP_READ,
        AP_SHARE,
        call("docs__set_link_sharing", document_id="doc-00009", access="editor"),
        AP_DONE,
        AP_TELL,
    ),
]


# -- offboard-v3-58213-00000 (clock Thu 22 Jan 2026 13:30 Oslo, Ann Ellingsen). Kendra Hayes leaves Monday 26 January,
#    Jeremy Burke (jeremy.burke@sequoia-peak-hospitality-group.test) takes over. Worked answer from the seed rows:
#    - tickets assigned to Kendra and open: HK-30, HK-34, HK-70, HK-76, HK-182, HK-252, HK-326, HK-349, HK-367 and
#      REV-372 (blocked) -> Jeremy. Her done/cancelled ones stay; tickets she only reported (FIN-36, FB-28, ...) belong
#      to their assignees and stay.
#    - Ann's docs where Kendra is an editor: doc-00603 and doc-01332 -> Jeremy as editor, nobody's access removed (Ann's
#      docs where Kendra only comments or views get nothing; docs owned by others are not "my docs").
#    - Kendra's meetings after Monday 26 January on Ann's calendar: evt-00207 (Tue 27 Jan, organised by Kendra) ->
#      declined; evt-00324 (Fri 23 Jan, before she leaves) stays.

SP = "sequoia-peak-hospitality.test"
KENDRA, JEREMY, ANN = f"kendra.hayes@{SP}", "jeremy.burke@sequoia-peak-hospitality-group.test", f"ann.ellingsen@{SP}"
OPEN = ["HK-30", "HK-34", "HK-70", "HK-76", "HK-182", "HK-252", "HK-326", "HK-349", "HK-367", "REV-372"]
OB_FIND = [
    call("tickets__search_tickets", assignee=KENDRA, resolved=False),
    call("docs__search_documents", owner=ANN, shared_with=KENDRA, max_results=50),
    call("calendar__search_events", attendee=KENDRA, time_min="2026-01-22T00:00:00+01:00"),
]
OB_TICKETS = [assign(key, JEREMY) for key in OPEN]
OB_DOCS = [share("doc-00603", JEREMY), share("doc-01332", JEREMY)]
OB_DECLINE = decline("evt-00207")

OFFBOARD = [
    ok(
        "plain",
        "Reassigns Kendra's 10 open tickets to Jeremy, gives him edit on doc-00603 and doc-01332, declines evt-00207.",
        OB_FIND,
        OB_TICKETS,
        OB_DOCS,
        OB_DECLINE,
    ),
    ok(
        "handover-comments",
        "Same outcome, docs and calendar first; each reassigned ticket also gets a short handover comment.",
        OB_FIND,
        OB_DOCS,
        OB_DECLINE,
        [
            [
                assign(key, JEREMY),
                comment(key, "Handover: Kendra Hayes leaves on 26 Jan, Jeremy Burke takes this over."),
            ]
            for key in OPEN
        ],
    ),
    ok(
        "from-search-results-table-mail",
        "Assigns the tickets straight from the search's results; mails Jeremy a welcome table of what he now has.",
        call("tickets__search_tickets", assignee=KENDRA, resolved=False, sort="key", save="open"),
        [assign(f"${{open.tickets.{i}.key}}", JEREMY) for i in range(10)],
        call("docs__get_document", document_id="doc-00603"),
        call("docs__get_document", document_id="doc-01332"),
        OB_DOCS,
        call("calendar__get_event", event_id="evt-00207"),
        OB_DECLINE,
        mail(
            [JEREMY],
            "Handover from Kendra",
            "Hi Jeremy,\n\n| What | Items |\n|---|---|\n| Tickets (now yours) | HK-30, HK-34, HK-70, HK-76, HK-182, "
            "HK-252, HK-326, HK-349, HK-367, REV-372 |\n| Docs (you can edit) | Service guide: Fire drill plan; "
            "Document the channel manager workaround |\n\nWelcome aboard!\n\nAnn",
        ),
    ),
    ok(
        "status-list-terse",
        "Searches by the open statuses and per project, then does the same reassignments, shares and decline tersely.",
        call(
            "tickets__search_tickets",
            assignee=KENDRA,
            status=["todo", "in_progress", "in_review", "blocked"],
            project="HK",
        ),
        call("tickets__search_tickets", assignee=KENDRA, resolved=False, project="REV"),
        OB_TICKETS,
        share("doc-01332", JEREMY, "editor"),
        share("doc-00603", JEREMY, "editor"),
        call("calendar__list_events", time_min="2026-01-27T00:00:00+01:00", time_max="2026-03-31T00:00:00+01:00"),
        OB_DECLINE,
    ),
    ok(
        "bullets-caveat-mail",
        "Declines first, then tickets and docs; a bullet summary to Jeremy notes the 23 Jan 1:1 stays (before 26 Jan).",
        OB_DECLINE,
        OB_TICKETS,
        OB_DOCS,
        mail(
            [JEREMY],
            "Kendra's handover",
            "Hi Jeremy,\n\n- **Tickets:** Kendra's 10 open tickets are now assigned to you\n- **Docs:** you can "
            "edit the two of mine she edited\n- **Calendar:** her 27 Jan 1:1 with me is declined; Friday's "
            "(23 Jan) stays, she's still here then\n\nAnn",
        ),
    ),
    ok(
        "norwegian-summary",
        "Same outcome; a short summary to Jeremy in Norwegian.",
        OB_FIND,
        OB_TICKETS,
        OB_DOCS,
        OB_DECLINE,
        mail(
            [JEREMY],
            "Overlevering fra Kendra",
            "Hei Jeremy,\n\nKendras åpne saker er nå dine, og du har skrivetilgang til dokumentene mine som hun "
            "kunne redigere. Møtet hennes 27. januar er avslått.\n\nHilsen Ann",
        ),
    ),
    bad(
        "reassigns-reported-tickets",
        "Also reassigns tickets Kendra only reported (FIN-36, FB-28, REV-35), which belong to other people.",
        OB_FIND,
        OB_TICKETS,
        [assign(key, JEREMY) for key in ("FIN-36", "FB-28", "REV-35")],
        OB_DOCS,
        OB_DECLINE,
    ),
    bad(
        "misses-blocked-rev-ticket",
        "Searches only HK, so REV-372 (blocked, still open) stays with Kendra.",
        call("tickets__search_tickets", assignee=KENDRA, resolved=False, project="HK"),
        [assign(key, JEREMY) for key in OPEN[:-1]],
        OB_DOCS,
        OB_DECLINE,
    ),
    bad(
        "declines-friday-too",
        "Also declines Kendra's Fri 23 Jan meeting, before her last day.",
        OB_FIND,
        OB_TICKETS,
        OB_DOCS,
        OB_DECLINE,
        decline("evt-00324"),
    ),
    bad(
        "kendra-access-removed",
        "Swaps Kendra for Jeremy on the docs: removes Kendra's access the handover should leave alone.",
        OB_FIND,
        OB_TICKETS,
        OB_DOCS,
        call("docs__unshare_document", document_id="doc-00603", email=KENDRA),
        call("docs__unshare_document", document_id="doc-01332", email=KENDRA),
        OB_DECLINE,
    ),
    bad(
        "jeremy-viewer",
        "Gives Jeremy view access instead of edit access on the two docs.",
        OB_FIND,
        OB_TICKETS,
        share("doc-00603", JEREMY, "viewer"),
        share("doc-01332", JEREMY, "viewer"),
        OB_DECLINE,
    ),
    bad(
        "edit-on-every-kendra-doc",
        "Gives Jeremy edit on Ann's docs where Kendra could only comment or view (doc-00436, doc-00458, doc-00628).",
        OB_FIND,
        OB_TICKETS,
        OB_DOCS,
        [share(d, JEREMY) for d in ("doc-00436", "doc-00458", "doc-00628")],
        OB_DECLINE,
    ),
    bad(
        "claims-decline-not-done",
        "Never declines the 27 Jan meeting but tells Jeremy Kendra's meetings are declined.",
        OB_FIND,
        OB_TICKETS,
        OB_DOCS,
        mail(
            [JEREMY], "Handover", "Hi Jeremy, tickets and docs are yours and Kendra's later meetings are declined. Ann"
        ),
    ),
]


# -- reschedule-v3-58213-00000 (clock Wed 7 Oct 2026 08:00 Nairobi, Caroline Chelangat). Mthokozisi's Board prep
#    (evt-00033) is Thu 8 Oct 14:30-16:00 Nairobi. Caroline's meeting with an agenda linked in the invite that it
#    overlaps: "Patient satisfaction results sync" evt-00006, 15:00-15:30, with Genevieve Kagi (Zurich, UTC+2), S'fiso
#    Vunisa and Thabani Vilakazi (Johannesburg, UTC+2); agenda doc-00053 says "Thursday 8 October, 15:00–15:30
#    (Nairobi time)". Working hours in Nairobi time: Caroline 08:00-16:00, Genevieve 10:00-18:30, S'fiso 10:00-18:30,
#    Thabani 11:00-19:00 -> 11:00-16:00. Busy: Genevieve 11:00-11:30, 13:00-14:00; S'fiso 12:00-12:30, 13:30-14:30;
#    Thabani 12:30-13:00; Caroline 13:30-14:00, 14:00-15:00 weekly sync, board prep 14:30-16:00. The only free 30 minutes:
#    11:30-12:00 Nairobi (10:30-11:00 Zurich and Johannesburg, 08:30 UTC). Move it, mail the three, fix the agenda, ask
#    the user (Georgios Albrecht) and tell him; then CLIN "Follow-ups from this week" for Musa Makhaza, doc "Notes:
#    follow-ups from this week" naming the key shared with Musa as editor, the link in a comment, a mail to Musa with key
#    and link, CLIN "Review with the team" linked as related. (The weekly sync, 14:00-15:00, also overlaps the board prep
#    but has no agenda doc; no case moves it.)

VM, VMG = "vista-mill-health.test", "vista-mill-health-group.test"
GENEVIEVE, SFISO, THABANI = f"genevieve.kagi@{VMG}", f"s.fiso.vunisa@{VM}", f"thabani.vilakazi@{VMG}"
GEORGIOS, MUSA = f"georgios.albrecht@{VM}", f"musa.makhaza@{VMG}"
GUESTS = [GENEVIEVE, SFISO, THABANI]
RS_READS = [
    call("calendar__get_event", event_id="evt-00033"),
    call("calendar__list_events", time_min="2026-10-08T00:00:00+03:00", time_max="2026-10-09T00:00:00+03:00"),
    call("calendar__get_event", event_id="evt-00006"),
]
RS_BUSY = call(
    "calendar__get_free_busy",
    emails=GUESTS,
    time_min="2026-10-08T08:00:00+03:00",
    time_max="2026-10-08T18:00:00+03:00",
)
RS_MOVE = moved("evt-00006", "2026-10-08T11:30:00+03:00", "2026-10-08T12:00:00+03:00")
RS_DOC = edit("doc-00053", f"15:00{ND}15:30", f"11:30{ND}12:00")
RS_MAIL = mail(
    GUESTS,
    "Patient satisfaction results sync moved to 11:30 (Nairobi)",
    "Hi all,\n\nthe patient satisfaction results sync moves to Thursday 8 October, 11:30-12:00 Nairobi time "
    "(10:30-11:00 in Zurich and Johannesburg). Same Zoom; the agenda shows the new time.\n\nCaroline",
)
RS_ASK = ask("The sync is moved. Who needs a heads-up that it's finished?")
RS_HEADSUP = mail(
    [GEORGIOS],
    "Patient satisfaction results sync: rescheduled",
    "Hi Georgios,\n\njust so you know: it's done.\n\nCaroline",
)


def rs_follow_ups(
    *,
    body: str = "Hi Musa,\n\n${t1.key} is yours; notes: ${doc.url}\n\nCaroline",
    content: str = "# Notes: follow-ups from this week\n\nTicket: ${t1.key}\n",
    linked: bool = True,
) -> list:
    steps: list = [
        ticket("CLIN", "Follow-ups from this week", save="t1", assignee=MUSA),
        doc("Notes: follow-ups from this week", content),
        share("${doc.id}", MUSA, "editor"),
        comment("${t1.key}", "Notes: ${doc.url}"),
        mail([MUSA], "Follow-ups from this week: ${t1.key}", body),
        ticket("CLIN", "Review with the team", save="t2"),
    ]
    if linked:
        steps.append(link("${t2.key}", "${t1.key}"))
    return steps


RESCHEDULE = [
    ok(
        "plain",
        "Moves the sync to 11:30-12:00, mails the three guests, fixes the agenda, asks, tells Georgios, follow-ups.",
        RS_READS,
        RS_BUSY,
        RS_MOVE,
        RS_MAIL,
        RS_DOC,
        RS_ASK,
        RS_HEADSUP,
        rs_follow_ups(),
    ),
    ok(
        "utc-args-per-recipient-table",
        "Moves it with UTC arguments (08:30-09:00Z); the guests' mail is a per-person local-time table.",
        RS_READS,
        RS_BUSY,
        moved("evt-00006", "2026-10-08T08:30:00Z", "2026-10-08T09:00:00Z"),
        RS_DOC,
        mail(
            GUESTS,
            "New time: Patient satisfaction results sync",
            "Hi Geneviève, S'fiso and Thabani,\n\nthe Board prep landed on our 15:00 slot, so:\n\n"
            "| | Your time | |\n|---|---|---|\n| Geneviève (Zurich) | 10:30-11:00 | |\n"
            "| S'fiso (Johannesburg) | 10:30-11:00 | |\n| Thabani (Johannesburg) | 10:30-11:00 | |\n\n"
            "Thursday 8 October; ~~15:00-15:30 Nairobi~~ is cancelled.\n\nCaroline",
        ),
        RS_ASK,
        RS_HEADSUP,
        rs_follow_ups(),
    ),
    ok(
        "cancel-rebook-bullets",
        "Cancels and rebooks the sync at 11:30-12:00 with the three guests and the agenda link; bold bullets mail.",
        RS_READS,
        RS_BUSY,
        call("calendar__cancel_event", event_id="evt-00006"),
        event(
            "Patient satisfaction results sync",
            "2026-10-08T11:30:00+03:00",
            "2026-10-08T12:00:00+03:00",
            location="Zoom",
            description="Agenda: https://docs.example.test/d/doc-00053",
            attendees=GUESTS,
        ),
        RS_DOC,
        mail(
            GUESTS,
            "Patient satisfaction results sync - new invite",
            "Hi all,\n\n- **New time:** Thu 8 Oct, 11:30-12:00 Nairobi (10:30-11:00 Zurich / Johannesburg)\n"
            "- **Why:** a board prep was put on the old 15:00 slot\n- **Agenda:** updated, same link\n\nCaroline",
        ),
        RS_ASK,
        RS_HEADSUP,
        rs_follow_ups(),
    ),
    ok(
        "find-slots-per-person-french",
        "Finds the slot with find_free_slots; one mail per guest (Genevieve's in French with her Zurich time).",
        RS_READS,
        call(
            "calendar__find_free_slots",
            attendees=GUESTS,
            duration_minutes=30,
            time_min="2026-10-08T00:00:00+03:00",
            time_max="2026-10-09T00:00:00+03:00",
        ),
        RS_MOVE,
        RS_DOC,
        mail(
            [GENEVIEVE],
            "Patient satisfaction results sync : nouvel horaire",
            "Bonjour Geneviève,\n\nla réunion est déplacée au jeudi 8 octobre, de 10h30 à 11h00 heure de Zurich "
            "(11h30 à Nairobi).\n\nCordialement,\nCaroline",
        ),
        mail([SFISO], "Sync moved", "Hi S'fiso, the sync is now Thu 8 Oct 10:30-11:00 your time. Caroline"),
        mail([THABANI], "Sync moved", "Hi Thabani, the sync is now Thu 8 Oct 10:30-11:00 your time. Caroline"),
        RS_ASK,
        RS_HEADSUP,
        rs_follow_ups(),
    ),
    ok(
        "outlook-quote-formal-musa",
        "The guests' mail quotes Mthokozisi's note Outlook-style as the reason; Musa's mail is a formal letter.",
        RS_READS,
        RS_MOVE,
        RS_DOC,
        mail(
            GUESTS,
            "FW: Board prep on Thursday 8 October - our sync moves",
            "Hi all,\n\nour sync moves to 11:30-12:00 Nairobi (half past ten in Zurich and Johannesburg) on "
            "Thursday.\n\nCaroline\n\nFrom: Mthokozisi Ntanzi\nSent: Wednesday, October 7, 2026 7:35 AM\n"
            "To: Caroline Chelangat\nSubject: Board prep on Thursday 8 October\n\n> I've put the Board prep in your "
            "calendar: Thursday 8 October, 14:30-16:00 (Nairobi time). Please keep that time free, it can't move.",
        ),
        RS_ASK,
        RS_HEADSUP,
        rs_follow_ups(
            body='Dear Musa,\n\nI have opened ticket ${t1.key}, "Follow-ups from this week", for you, and a notes '
            "document you can edit: ${doc.url}\n\nKind regards,\n\nCaroline Chelangat\nVista Mill Health"
        ),
    ),
    ok(
        "terse-local-args",
        "Terse: naive local arguments, one-line mails, same outcome.",
        call("calendar__get_event", event_id="evt-00006"),
        moved("evt-00006", "2026-10-08T11:30:00", "2026-10-08T12:00:00"),
        RS_DOC,
        mail(GUESTS, "Sync -> Thu 11:30 EAT", "Sync moved: Thu 8 Oct 11:30-12:00 EAT (10:30 SAST/CEST). -C"),
        RS_ASK,
        mail([GEORGIOS], "done", "Georgios - the sync reschedule is finished. C"),
        rs_follow_ups(body="${t1.key} - ${doc.url}", content="${t1.key}"),
    ),
    ok(
        "twelve-hour-italian-musa",
        "Same outcome; the guests' mail in 12-hour times with a consistent P.S., Musa's mail in Italian.",
        RS_READS,
        RS_BUSY,
        RS_MOVE,
        RS_DOC,
        mail(
            GUESTS,
            "Patient satisfaction results sync: now 11:30 am",
            "Hi all,\n\nThursday's sync is now 11:30 am-12:00 pm Nairobi time (10:30-11:00 am for Zurich and "
            "Johannesburg).\n\nCaroline\n\nP.S. The 3 pm slot is gone - the board prep took it.",
        ),
        RS_ASK,
        RS_HEADSUP,
        rs_follow_ups(body="Ciao Musa,\n\nil ticket ${t1.key} è tuo; le note sono qui: ${doc.url}\n\nCaroline"),
    ),
    bad(
        "slot-1200-sfiso-busy",
        "Moves the sync to 12:00-12:30 Nairobi, when S'fiso is busy.",
        RS_READS,
        moved("evt-00006", "2026-10-08T12:00:00+03:00", "2026-10-08T12:30:00+03:00"),
        edit("doc-00053", f"15:00{ND}15:30", f"12:00{ND}12:30"),
        mail(GUESTS, "Sync moved", "Hi all, the sync is now Thu 8 Oct 12:00-12:30 Nairobi. Caroline"),
        RS_ASK,
        RS_HEADSUP,
        rs_follow_ups(),
    ),
    bad(
        "one-hour",
        "Moves the 30-minute sync to 11:30-12:30: not the same length (and S'fiso is busy from 12:00).",
        RS_READS,
        moved("evt-00006", "2026-10-08T11:30:00+03:00", "2026-10-08T12:30:00+03:00"),
        edit("doc-00053", f"15:00{ND}15:30", f"11:30{ND}12:30"),
        mail(GUESTS, "Sync moved", "Hi all, the sync is now Thu 8 Oct 11:30-12:30 Nairobi. Caroline"),
        RS_ASK,
        RS_HEADSUP,
        rs_follow_ups(),
    ),
    bad(
        "agenda-still-old",
        "Moves the sync and mails the guests, but the agenda doc still says 15:00-15:30.",
        RS_READS,
        RS_MOVE,
        RS_MAIL,
        RS_ASK,
        RS_HEADSUP,
        rs_follow_ups(),
    ),
    bad(
        "zurich-time-wrong",
        "Right move, but the mail tells Genevieve it is 09:30 in Zurich (it is 10:30).",
        RS_READS,
        RS_MOVE,
        RS_DOC,
        mail(
            GUESTS,
            "Sync moved",
            "Hi all,\n\nthe sync is now Thu 8 Oct 11:30-12:00 Nairobi: Geneviève, that's 09:30 for you in Zurich; "
            "S'fiso and Thabani, 10:30 in Johannesburg.\n\nCaroline",
        ),
        RS_ASK,
        RS_HEADSUP,
        rs_follow_ups(),
    ),
    bad(
        "heads-up-to-mthokozisi",
        "Asks who needs a heads-up (Georgios) but mails Mthokozisi instead.",
        RS_READS,
        RS_MOVE,
        RS_DOC,
        RS_MAIL,
        RS_ASK,
        mail([f"mthokozisi.ntanzi@{VMG}"], "Done", "Hi Mthokozisi, the clash is sorted. Caroline"),
        rs_follow_ups(),
    ),
    bad(
        "next-day",
        "Moves the sync to Friday 9 October 11:30 instead of a slot the same day.",
        RS_READS,
        moved("evt-00006", "2026-10-09T11:30:00+03:00", "2026-10-09T12:00:00+03:00"),
        edit("doc-00053", f"Thursday 8 October, 15:00{ND}15:30", f"Friday 9 October, 11:30{ND}12:00"),
        mail(GUESTS, "Sync moved to Friday", "Hi all, the sync is now Fri 9 Oct 11:30-12:00 Nairobi. Caroline"),
        RS_ASK,
        RS_HEADSUP,
        rs_follow_ups(),
    ),
    bad(
        "musa-mail-without-link",
        "Everything done, but the mail to Musa gives only the key, not the doc's link.",
        RS_READS,
        RS_MOVE,
        RS_DOC,
        RS_MAIL,
        RS_ASK,
        RS_HEADSUP,
        rs_follow_ups(body="Hi Musa, ${t1.key} is yours. Caroline"),
    ),
    bad(
        "review-not-linked",
        "Creates 'Review with the team' but never links it to the first ticket.",
        RS_READS,
        RS_MOVE,
        RS_DOC,
        RS_MAIL,
        RS_ASK,
        RS_HEADSUP,
        rs_follow_ups(linked=False),
    ),
]
