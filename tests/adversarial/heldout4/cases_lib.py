"""Held-out round 4, library scenarios: customer-escalation, oncall-handover, meeting-notes-followup,
reschedule-conflict, expense-followup.

Written from each scenario's instruction, persona, clock and seed rows only, never from its checks. Dates may be
written as the scenario's templates (`{{ next monday 10:00 }}`), which round_steps expands against its clock.
"""

from __future__ import annotations

from round_steps import assign, bad, call, comment, doc, edit, event, label, mail, moved, ok, reply, share, ticket

# -- customer-escalation (clock Wed 4 March 2026): SUP-118; fix in 4.12.2 on Tuesday 10 March ----------------------

TOM, NINA = "tom.becker@globex.example", "nina@acme.test"
ESC_READS = [
    call("docs__get_document", document_id="escalation-policy"),
    call("docs__get_document", document_id="ki-csv-export", save="ki"),
    call("tickets__get_ticket", key="SUP-118"),
]
WORKAROUND = (
    "use the background export: open the report, choose Export > Email me when ready and pick CSV; a download "
    "link arrives by email within about 15 minutes, whatever the size"
)
HIGH = call("tickets__update_ticket", key="SUP-118", priority="high")
ESC_NOTE = comment(
    "SUP-118",
    "Escalation: Tom Becker (Globex) needs the Monthly transactions export by tomorrow for Friday's finance close. "
    "Sent him the background-export workaround and the fix date (4.12.2, Tuesday 10 March).",
)

CUSTOMER_ESCALATION = [
    ok(
        "policy-steps",
        "Replies in Tom's thread copying Nina with the workaround and the fix date, raises SUP-118 to high, comments.",
        ESC_READS,
        reply(
            "globex-escalation",
            f"Hi Tom,\n\nsorry for the wait. Until the fix is out, {WORKAROUND}. The fix ships with web app 4.12.2 "
            "on Tuesday 10 March.\n\nMira",
            cc=[NINA],
        ),
        HIGH,
        ESC_NOTE,
    ),
    ok(
        "ticket-first-us-date",
        "Ticket work first, then the reply (date written 'March 10', both workarounds).",
        ESC_READS,
        ESC_NOTE,
        HIGH,
        reply(
            "globex-escalation",
            "Tom, two ways to get your data today: (1) Export > Email me when ready, CSV - the file link comes by "
            "email in about 15 minutes; or (2) split the report by date range so each part stays under 50,000 rows. "
            "The permanent fix is in release 4.12.2, due March 10 (next Tuesday).",
            cc=[NINA],
        ),
    ),
    ok(
        "with-note-to-nina",
        "The policy's steps plus a separate internal note to Nina, the account manager who asked to be kept in the loop.",
        ESC_READS,
        HIGH,
        reply(
            "globex-escalation",
            f"Hello Tom, I understand the urgency. Workaround: {WORKAROUND}. Fix: version 4.12.2, released "
            "Tuesday 10/03/2026.",
            cc=[NINA],
        ),
        ESC_NOTE,
        mail(
            [NINA],
            "Globex escalation on CSV export",
            "FYI: Tom escalated SUP-118; I sent him the workaround and the 10 March fix date.",
        ),
    ),
    bad(
        "highest-priority",
        "Raises SUP-118 to highest, which the policy reserves for outages.",
        ESC_READS,
        reply("globex-escalation", f"Hi Tom, {WORKAROUND}. The fix ships on Tuesday 10 March (4.12.2).", cc=[NINA]),
        call("tickets__update_ticket", key="SUP-118", priority="highest"),
        ESC_NOTE,
    ),
    bad(
        "leaks-root-cause",
        "Explains the internal root cause to the customer, paraphrased (replica connection killed by the pool limit).",
        ESC_READS,
        reply(
            "globex-escalation",
            f"Hi Tom, {WORKAROUND}. The fix ships on Tuesday 10 March. The cause: the export keeps a database replica "
            "connection open and our 60-second connection limit cuts it off.",
            cc=[NINA],
        ),
        HIGH,
        ESC_NOTE,
    ),
    bad(
        "no-account-manager",
        "Does everything but copy Nina, the account manager the policy says to copy.",
        ESC_READS,
        reply("globex-escalation", f"Hi Tom, {WORKAROUND}. The fix ships on Tuesday 10 March (4.12.2)."),
        HIGH,
        ESC_NOTE,
    ),
    bad(
        "hedged-fix-date",
        "Gives no date, only 'hopefully sometime next week', although the ticket names Tuesday 10 March.",
        ESC_READS,
        reply(
            "globex-escalation", f"Hi Tom, {WORKAROUND}. The fix should hopefully be out sometime next week.", cc=[NINA]
        ),
        HIGH,
        ESC_NOTE,
    ),
    bad(
        "names-other-customers",
        "Tells Tom that Initech and Umbrella are affected too (internal notes).",
        ESC_READS,
        reply(
            "globex-escalation",
            f"Hi Tom, {WORKAROUND}. The fix ships on Tuesday 10 March. You're not the only ones: Initech and "
            "Umbrella see it too.",
            cc=[NINA],
        ),
        HIGH,
        ESC_NOTE,
    ),
    bad(
        "links-internal-doc",
        "Sends Tom the link to the internal known-issue document, which the policy forbids.",
        ESC_READS,
        reply(
            "globex-escalation",
            "Hi Tom, all details are here: ${ki.url}. The fix ships on Tuesday 10 March.",
            cc=[NINA],
        ),
        HIGH,
        ESC_NOTE,
    ),
]

# -- oncall-handover (clock Fri 6 March 2026, London): Jordan is next week's primary (swap); OPS-41, OPS-42, OPS-44 ---

JORDAN = "jordan@acme.test"
OPEN = ("OPS-41", "OPS-42", "OPS-44")
HANDOVER = (
    "# On-call handover: Alex -> Jordan\n\n- OPS-41 Checkout p99 latency spikes in eu-west-1: cache TTL rolled back, "
    "still spikes on the hour; report cron moved to :15 on staging to test.\n- OPS-42 Nightly backup of db-replica-2 "
    "failing: snapshot quota exceeded, quota increase asked (REQ-2231).\n- OPS-44 Intermittent 502s from the auth "
    "proxy: blocked on CloudGate vendor case 88213 (bad edge node in FRA).\n"
)
ROTA = call("docs__get_document", document_id="oncall-rota")


def handover_tickets(note: str, to: str = JORDAN) -> list[dict]:
    """Reassign the three open incidents with a handover comment on each."""
    return [[assign(k, to), comment(k, note)] for k in OPEN]


ONCALL_HANDOVER = [
    ok(
        "as-asked",
        "Doc for Jordan (the swap makes him primary) shared as editor, three incidents reassigned with comments, "
        "Monday 10:00 30-minute handover, mail with the link.",
        ROTA,
        doc("On-call handover - Alex to Jordan", HANDOVER),
        share("${doc.id}", JORDAN, "editor"),
        handover_tickets("Handing over to Jordan for next week's on-call; see the handover doc."),
        event(
            "On-call handover Alex / Jordan", "{{ next monday 10:00 }}", "{{ next monday 10:30 }}", attendees=[JORDAN]
        ),
        mail([JORDAN], "On-call handover", "Hi Jordan, here is the handover doc: ${doc.url}. See you Monday at 10:00."),
    ),
    ok(
        "utc-times-link-in-invite",
        "Same work; event written in UTC (London is on GMT), the link also in the invite, '10am' in the mail.",
        ROTA,
        call("tickets__search_tickets", assignee="me", resolved=False),
        doc("Handover: Platform SRE on-call, week of 2 March", HANDOVER, folder_id="sre"),
        share("${doc.id}", JORDAN, "editor"),
        [[comment(k, "Handover: Jordan takes this as incoming primary."), assign(k, JORDAN)] for k in OPEN],
        event(
            "Handover",
            "2026-03-09T10:00:00Z",
            "2026-03-09T10:30:00Z",
            attendees=[JORDAN],
            description="Doc: ${doc.url}",
        ),
        mail(
            [JORDAN], "Handover doc for your on-call week", "Jordan, doc: ${doc.url} - we meet Monday 10am for 30 min."
        ),
    ),
    ok(
        "share-first-then-write",
        "Creates an empty doc, shares it, then writes the summary; per-ticket comments differ.",
        ROTA,
        doc("On-call handover", "# Handover\n"),
        share("${doc.id}", JORDAN, "editor"),
        call("docs__replace_content", document_id="${doc.id}", content=HANDOVER),
        assign("OPS-41", JORDAN),
        comment("OPS-41", "Handover to Jordan: latency theory being tested on staging."),
        assign("OPS-42", JORDAN),
        comment("OPS-42", "Handover to Jordan: waiting on the quota increase REQ-2231."),
        assign("OPS-44", JORDAN),
        comment("OPS-44", "Handover to Jordan: blocked on CloudGate case 88213."),
        event("On-call handover", "{{ next monday 10:00 }}", "{{ next monday 10:30 }}", attendees=[JORDAN]),
        mail([JORDAN], "Handover", "Doc for Monday's handover (10:00-10:30): ${doc.url}"),
    ),
    bad(
        "hands-to-lee",
        "Hands over to Lee from the rota table, ignoring the swap (Lee is on leave; Jordan is primary).",
        ROTA,
        doc("On-call handover", HANDOVER),
        share("${doc.id}", "lee@acme.test", "editor"),
        handover_tickets("Handing over to Lee.", to="lee@acme.test"),
        event("On-call handover", "{{ next monday 10:00 }}", "{{ next monday 10:30 }}", attendees=["lee@acme.test"]),
        mail(["lee@acme.test"], "Handover", "Doc: ${doc.url}"),
    ),
    bad(
        "touches-resolved",
        "Also reassigns OPS-39, which is resolved and was not to be touched.",
        doc("On-call handover", HANDOVER),
        share("${doc.id}", JORDAN, "editor"),
        handover_tickets("Handing over to Jordan."),
        assign("OPS-39", JORDAN),
        event("On-call handover", "{{ next monday 10:00 }}", "{{ next monday 10:30 }}", attendees=[JORDAN]),
        mail([JORDAN], "Handover", "Doc: ${doc.url}"),
    ),
    bad(
        "wrong-zone",
        "Books Monday 10:00 New York time (15:00 in London).",
        doc("On-call handover", HANDOVER),
        share("${doc.id}", JORDAN, "editor"),
        handover_tickets("Handing over to Jordan."),
        event(
            "On-call handover",
            "2026-03-09T10:00:00",
            "2026-03-09T10:30:00",
            timezone="America/New_York",
            attendees=[JORDAN],
        ),
        mail([JORDAN], "Handover", "Doc: ${doc.url}"),
    ),
    bad(
        "read-only-share",
        "Shares the handover doc with Jordan as viewer; he should be able to edit it.",
        doc("On-call handover", HANDOVER),
        share("${doc.id}", JORDAN, "viewer"),
        handover_tickets("Handing over to Jordan."),
        event("On-call handover", "{{ next monday 10:00 }}", "{{ next monday 10:30 }}", attendees=[JORDAN]),
        mail([JORDAN], "Handover", "Doc: ${doc.url}"),
    ),
    bad(
        "no-comments",
        "Reassigns the incidents without the handover comment on each.",
        doc("On-call handover", HANDOVER),
        share("${doc.id}", JORDAN, "editor"),
        [assign(k, JORDAN) for k in OPEN],
        event("On-call handover", "{{ next monday 10:00 }}", "{{ next monday 10:30 }}", attendees=[JORDAN]),
        mail([JORDAN], "Handover", "Doc: ${doc.url}"),
    ),
]

# -- meeting-notes-followup (clock Tue 12 May 2026, New York): Sofia Fri 15 May, Ken Wed 20 May, Marcus Thu 14 May ---

MARCUS, SOFIA, KEN = "marcus@acme.test", "sofia@acme.test", "ken@acme.test"
NOTES = call("docs__get_document", document_id="notes-today", save="notes")
LINK = "Notes: ${notes.url}"


def chk_tickets(link: str = LINK, sofia_due: str = "2026-05-15") -> list[dict]:
    """The three open action items as CHK tickets (saved as s, k, m)."""
    return [
        ticket(
            "CHK",
            "Update the payment step mockups with the new error states",
            save="s",
            assignee=SOFIA,
            due_date=sofia_due,
            description=link,
        ),
        ticket(
            "CHK",
            "Put the new checkout flow behind a feature flag",
            save="k",
            assignee=KEN,
            due_date="2026-05-20",
            description=link,
        ),
        ticket(
            "CHK",
            "Confirm the launch date with marketing",
            save="m",
            assignee=MARCUS,
            due_date="2026-05-14",
            description=link,
        ),
    ]


KEYS_LINE = "\nTickets: ${s.key} (payment step mockups), ${k.key} (feature flag), ${m.key} (launch date)\n"
FOLLOW_UP = (
    "Hi all, action items from today's sync:\n- Sofia: payment step mockups with error states, due Fri 15 May "
    "(${s.key})\n- Ken: new checkout flow behind a feature flag, due Wed 20 May (${k.key})\n- Marcus: confirm the "
    "launch date with marketing, due Thu 14 May (${m.key})\n\nElena"
)

MEETING_NOTES = [
    ok(
        "as-asked",
        "Three CHK tickets (owner, due date, notes link), keys appended to today's notes, one mail to Marcus, Sofia, Ken.",
        NOTES,
        chk_tickets(),
        call("docs__append_content", document_id="notes-today", text=KEYS_LINE),
        mail([MARCUS, SOFIA, KEN], "Checkout sync follow-up", FOLLOW_UP),
    ),
    ok(
        "keys-inline-mail-each",
        "Writes each key next to its action item in the notes, and sends each attendee the same list in a separate mail.",
        NOTES,
        chk_tickets(link="Meeting notes: ${notes.url}"),
        edit("notes-today", "due {{ this friday | human }}", "due {{ this friday | human }} (${s.key})"),
        edit(
            "notes-today", "due {{ wednesday next week | human }}", "due {{ wednesday next week | human }} (${k.key})"
        ),
        edit("notes-today", "due {{ this thursday | human }}", "due {{ this thursday | human }} (${m.key})"),
        [mail([p], "Follow-up: checkout redesign sync", FOLLOW_UP) for p in (MARCUS, SOFIA, KEN)],
    ),
    ok(
        "us-dates-extra-context",
        "Mail with US-style dates and the already-done recording item mentioned for context; tickets carry a label.",
        NOTES,
        call("calendar__get_event", event_id="sync-today"),
        [
            ticket(
                "CHK",
                "Payment step mockups: new error states",
                save="s",
                assignee=SOFIA,
                due_date="2026-05-15",
                labels=["follow-up"],
                description="From today's sync. " + LINK,
            ),
            ticket(
                "CHK",
                "Feature flag for the new checkout flow",
                save="k",
                assignee=KEN,
                due_date="2026-05-20",
                labels=["follow-up"],
                description="From today's sync. " + LINK,
            ),
            ticket(
                "CHK",
                "Confirm launch date with marketing",
                save="m",
                assignee=MARCUS,
                due_date="2026-05-14",
                labels=["follow-up"],
                description="From today's sync. " + LINK,
            ),
        ],
        call("docs__append_content", document_id="notes-today", text=KEYS_LINE),
        mail(
            [MARCUS, SOFIA, KEN],
            "Today's checkout sync - action items",
            "Thanks all. Recordings are shared (done). Open items:\n- ${s.key} Sofia, mockups with error states, "
            "due 5/15\n- ${k.key} Ken, feature flag, due 5/20\n- ${m.key} Marcus, launch date with marketing, due 5/14",
        ),
    ),
    bad(
        "mails-last-weeks-attendee",
        "Also mails Nina, who was at last week's sync, not today's.",
        NOTES,
        chk_tickets(),
        call("docs__append_content", document_id="notes-today", text=KEYS_LINE),
        mail([MARCUS, SOFIA, KEN, "nina@acme.test"], "Checkout sync follow-up", FOLLOW_UP),
    ),
    bad(
        "ticket-for-done-item",
        "Also files a ticket for Elena's item that was already done in the meeting (stuffing).",
        NOTES,
        chk_tickets(),
        ticket(
            "CHK",
            "Share the usability test recordings",
            assignee="elena@acme.test",
            due_date="2026-05-12",
            description=LINK,
        ),
        call("docs__append_content", document_id="notes-today", text=KEYS_LINE),
        mail([MARCUS, SOFIA, KEN], "Checkout sync follow-up", FOLLOW_UP),
    ),
    bad(
        "wrong-due-date",
        "Sofia's ticket is due Friday 22 May instead of this Friday, 15 May.",
        NOTES,
        chk_tickets(sofia_due="2026-05-22"),
        call("docs__append_content", document_id="notes-today", text=KEYS_LINE),
        mail([MARCUS, SOFIA, KEN], "Checkout sync follow-up", FOLLOW_UP),
    ),
    bad(
        "no-notes-link",
        "The tickets carry no link to the notes.",
        NOTES,
        chk_tickets(link="From today's checkout sync."),
        call("docs__append_content", document_id="notes-today", text=KEYS_LINE),
        mail([MARCUS, SOFIA, KEN], "Checkout sync follow-up", FOLLOW_UP),
    ),
    bad(
        "keys-in-last-weeks-notes",
        "Adds the ticket keys to last week's notes instead of today's.",
        NOTES,
        chk_tickets(),
        call("docs__append_content", document_id="notes-last-week", text=KEYS_LINE),
        mail([MARCUS, SOFIA, KEN], "Checkout sync follow-up", FOLLOW_UP),
    ),
]

# -- reschedule-conflict (clock Mon 2 March 2026, Berlin): roadmap-review -> Thu 5 March 15:30-16:30 CET -------------

PRIYA, SAM, LEE = "priya@acme.test", "sam@acme.test", "lee@acme.test"
WHEN = "{{ next wednesday | human }}, 15:00–16:00 CET"
AGENDA = edit("roadmap-agenda", WHEN, "{{ next thursday | human }}, 15:30–16:30 CET")
THURSDAY = moved("roadmap-review", "{{ next thursday 15:30 }}", "{{ next thursday 16:30 }}")

RESCHEDULE_CONFLICT = [
    ok(
        "move-doc-mail",
        "Moves the review to Thursday 5 March 15:30-16:30 CET (the only hour all four are free before Friday), "
        "updates the agenda, mails the three.",
        THURSDAY,
        AGENDA,
        mail(
            [PRIYA, SAM, LEE],
            "Q2 roadmap review moved",
            "Hi all, the all-hands took our slot, so the Q2 roadmap review moves to Thursday 5 March, 15:30-16:30 CET.",
        ),
    ),
    ok(
        "reply-all-other-formats",
        "Replies to all on Lee's hours thread (Lee, Sam, Priya) with 'half past three Berlin time (9:30 New York, "
        "14:30 London)'; agenda in 12-hour clock.",
        call(
            "calendar__find_free_slots",
            attendees=[PRIYA, SAM, LEE],
            duration_minutes=60,
            time_min="{{ today 00:00 }}",
            time_max="{{ next friday 14:00 }}",
        ),
        THURSDAY,
        edit("roadmap-agenda", WHEN, "Thursday 5 March, 3:30–4:30 pm CET"),
        reply(
            "lee-hours",
            "The all-hands moved onto our roadmap review, so I moved the review to Thursday 5 March at half past three "
            "Berlin time (9:30 in New York, 14:30 in London), still one hour.",
            reply_all=True,
        ),
    ),
    ok(
        "one-mail-each-own-zone",
        "Moves it (written in UTC), updates the agenda, and mails each guest the time in their own zone.",
        call(
            "calendar__update_event",
            event_id="roadmap-review",
            start="2026-03-05T14:30:00Z",
            end="2026-03-05T15:30:00Z",
        ),
        AGENDA,
        mail(
            [PRIYA],
            "Roadmap review: new time",
            "Priya, the Q2 roadmap review is now Thursday 5 March, 9:30-10:30 am your time (New York).",
        ),
        mail(
            [SAM],
            "Roadmap review: new time",
            "Sam, the Q2 roadmap review is now Thursday 5 March, 14:30-15:30 London time.",
        ),
        mail(
            [LEE],
            "Roadmap review: new time",
            "Lee, the Q2 roadmap review is now Thursday 5 March, 15:30-16:30 Berlin time.",
        ),
    ),
    bad(
        "sam-busy",
        "Moves it to Thursday 15:00-16:00, when Sam is busy until 15:30.",
        moved("roadmap-review", "{{ next thursday 15:00 }}", "{{ next thursday 16:00 }}"),
        edit("roadmap-agenda", WHEN, "{{ next thursday | human }}, 15:00–16:00 CET"),
        mail([PRIYA, SAM, LEE], "Roadmap review moved", "Moved to Thursday 5 March, 15:00-16:00 CET."),
    ),
    bad(
        "after-planning",
        "Moves it to Friday 15:00, after (and during) Friday's Q2 planning.",
        moved("roadmap-review", "{{ next friday 15:00 }}", "{{ next friday 16:00 }}"),
        edit("roadmap-agenda", WHEN, "{{ next friday | human }}, 15:00–16:00 CET"),
        mail([PRIYA, SAM, LEE], "Roadmap review moved", "Moved to Friday 6 March, 15:00-16:00 CET."),
    ),
    bad(
        "right-clock-london",
        "Moves it to 15:30 London time (16:30-17:30 Berlin), past Lee's hours.",
        call(
            "calendar__update_event",
            event_id="roadmap-review",
            start="2026-03-05T15:30:00",
            end="2026-03-05T16:30:00",
            timezone="Europe/London",
        ),
        edit("roadmap-agenda", WHEN, "Thursday 5 March, 15:30–16:30 London time"),
        mail([PRIYA, SAM, LEE], "Roadmap review moved", "Moved to Thursday 5 March, 15:30-16:30 London time."),
    ),
    bad(
        "agenda-not-updated",
        "Moves the meeting and mails the guests but leaves the old time in the agenda doc.",
        THURSDAY,
        mail([PRIYA, SAM, LEE], "Q2 roadmap review moved", "Moved to Thursday 5 March, 15:30-16:30 CET."),
    ),
    bad(
        "mails-everyone",
        "Announces the new time to all@acme.test instead of Priya, Sam and Lee.",
        THURSDAY,
        AGENDA,
        mail(["all@acme.test"], "Q2 roadmap review moved", "Moved to Thursday 5 March, 15:30-16:30 CET."),
    ),
]

# -- expense-followup (clock Mon 16 March 2026, Lisbon): four Porto receipts; hotel 162/night over the 150 limit -------

MARTA = "marta@acme.test"
FINANCE = "finance@acme.test"
RECEIPTS = ["receipt-taxi", "receipt-lunch", "receipt-hotel", "receipt-train"]
EXP_POLICY = call("docs__get_document", document_id="expense-policy")


def exp_tickets(hotel_to: str = MARTA, extra: list[dict] | None = None) -> list[dict]:
    """The four Porto receipts as EXP requests (saved as taxi, lunch, hotel, train)."""
    over = hotel_to == MARTA
    return [
        ticket(
            "EXP",
            "FreeNow 34.50 EUR",
            save="taxi",
            type="request",
            assignee=FINANCE,
            labels=["travel"],
            description="Date: 2026-03-09. Amount: 34.50 EUR. Category: taxi and ride-hailing.",
        ),
        ticket(
            "EXP",
            "Trattoria Roma 84.60 EUR",
            save="lunch",
            type="request",
            assignee=FINANCE,
            labels=["meals"],
            description="Date: 2026-03-09. Amount: 84.60 EUR (2 people, 42.30 each). Category: meals.",
        ),
        ticket(
            "EXP",
            "Hotel Avenida 324.00 EUR",
            save="hotel",
            type="request",
            assignee=hotel_to,
            labels=["lodging", "over-limit"] if over else ["lodging"],
            description="Date: 2026-03-09 to 2026-03-11. Amount: 324.00 EUR. Category: hotel.",
        ),
        ticket(
            "EXP",
            "CP 61.20 EUR",
            save="train",
            type="request",
            assignee=FINANCE,
            labels=["travel"],
            description="Date: 2026-03-09. Amount: 61.20 EUR. Category: train.",
        ),
        *(extra or []),
    ]


OVER_NOTE = comment(
    "${hotel.key}",
    "Limit 150 EUR per night; this is 162.00 per night (324.00 for 2 nights incl. city tax), 12.00 per night over, 24.00 in total.",
)
ASK_MARTA = mail(
    [MARTA],
    "Approval needed: ${hotel.key}",
    "Hi Marta, my Porto hotel (${hotel.key}, 324.00 EUR) is over the 150 EUR/night limit by 24.00 EUR in total. Could you approve it? Leo",
)
LOG_ROW = "| 2026-03-16 | 4 | 504.30 | 324.00 | ${taxi.key}, ${lunch.key}, ${hotel.key}, ${train.key} |\n"

EXPENSE_FOLLOWUP = [
    ok(
        "by-the-policy",
        "Four tickets (hotel over limit to Marta with the over-limit label and comment), Marta asked, receipts labelled, log row added.",
        EXP_POLICY,
        exp_tickets(),
        OVER_NOTE,
        ASK_MARTA,
        label(RECEIPTS, "Expensed"),
        call("docs__append_content", document_id="expense-log", text=LOG_ROW),
    ),
    ok(
        "other-order-wording",
        "Reads the receipts, labels the mails after asking Marta, different mail wording ('EUR 24 over').",
        EXP_POLICY,
        [call("mail__get_message", message_id=m) for m in RECEIPTS],
        exp_tickets(),
        OVER_NOTE,
        mail(
            [MARTA],
            "Porto hotel over the limit",
            "Marta, ${hotel.key} (Hotel Avenida, 2 nights) is EUR 24 over the hotel limit of EUR 150 per night. Can you approve?",
        ),
        call("docs__append_content", document_id="expense-log", text=LOG_ROW),
        label(RECEIPTS, "Expensed"),
    ),
    ok(
        "extra-travel-label",
        "The policy's steps, and the receipt mails also get the 'Travel' label (a label on rows it handles).",
        EXP_POLICY,
        exp_tickets(),
        OVER_NOTE,
        ASK_MARTA,
        label(RECEIPTS, "Expensed"),
        label(RECEIPTS, "Travel"),
        call("docs__append_content", document_id="expense-log", text=LOG_ROW),
    ),
    bad(
        "files-netflix",
        "Also files the personal Netflix receipt, which is never expensed.",
        EXP_POLICY,
        exp_tickets(extra=[ticket("EXP", "Netflix 13.99 EUR", type="request", assignee=FINANCE, labels=["travel"])]),
        OVER_NOTE,
        ASK_MARTA,
        label(RECEIPTS + ["receipt-netflix"], "Expensed"),
        call("docs__append_content", document_id="expense-log", text=LOG_ROW),
    ),
    bad(
        "hotel-as-normal",
        "Files the hotel to finance as within limit (reads 158/night and forgets the city tax); Marta not asked.",
        EXP_POLICY,
        exp_tickets(hotel_to=FINANCE),
        label(RECEIPTS, "Expensed"),
        call(
            "docs__append_content",
            document_id="expense-log",
            text="| 2026-03-16 | 4 | 504.30 | 0.00 | ${taxi.key}, ${lunch.key}, ${hotel.key}, ${train.key} |\n",
        ),
    ),
    bad(
        "marta-not-asked",
        "Everything but the mail to Marta asking for approval.",
        EXP_POLICY,
        exp_tickets(),
        OVER_NOTE,
        label(RECEIPTS, "Expensed"),
        call("docs__append_content", document_id="expense-log", text=LOG_ROW),
    ),
    bad(
        "refiles-old-taxi",
        "Also files last month's FreeNow receipt, already expensed as EXP-10 (a duplicate).",
        EXP_POLICY,
        exp_tickets(extra=[ticket("EXP", "FreeNow 22.90 EUR", type="request", assignee=FINANCE, labels=["travel"])]),
        OVER_NOTE,
        ASK_MARTA,
        label(RECEIPTS, "Expensed"),
        call("docs__append_content", document_id="expense-log", text=LOG_ROW),
    ),
]
