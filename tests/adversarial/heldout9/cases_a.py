"""Held-out round 9, generated tasks (seed 90417, see cases.py): meeting-tz, customer-answer, ask-colleague, changed-request.

Written from each task's brief only (instruction, persona, clock, seed rows, the episode's events, answers and
faults), never from its checks or reference solution. The cases vary the text model agents write: markdown tables,
bold-label bullets, Outlook-style quotes, struck-through old values, caveats, 12-hour clocks, times in words, Dutch/
German/Spanish/French/Japanese phrasing, terse one-liners and formal letters with a signature block.
"""

from __future__ import annotations

from round_steps import bad, call, comment, doc, edit, event, mail, move, moved, ok, reply, share, ticket


def wait(minutes: float | None = None) -> dict:
    """Let world time pass (until the next event when minutes is left out)."""
    return call("world__wait", **({"minutes": minutes} if minutes is not None else {}))


def failing(step: dict) -> dict:
    """A call the agent sees fail (an injected fault); the case then does what the agent would do next."""
    step["expect_error"] = True
    return step


def link(source: str, target: str, kind: str = "relates_to") -> dict:
    return call("tickets__link_tickets", source=source, type=kind, target=target)


# -- meeting-tz-v3-90417-00000 (clock Fri 27 March 2026 12:30 Amsterdam, Lena van de Pavert). Liz (msg-00018) asks
#    for a 45-minute meeting about the grid connection queue with Jill Hoekstra, Megan van Lucel, Lena and Liz on
#    Monday 30 March (CEST, +02:00 after the 29 March clock change); she offers 11:45 Amsterdam. Working hours: Lena
#    10-18, Megan 9-17, Liz 8-16, Jill 8:30-16:30, so the common window is 10:00-16:00. Busy that day: Lena 12:00-12:30
#    (evt-00015); Liz 11:45-12:00, 12:00-13:00, 14:45-15:30; Jill 9:00-11:00, 13:00-14:00; Megan 15:30-16:30. Free for
#    all four for 45 minutes: 11:00-11:45 and 14:00-14:45 (exactly). Liz's 11:45 clashes with her own busy time and
#    Lena's 12:00 meeting. Worked answer: one event 11:00-11:45 (or 14:00-14:45) with Liz, Jill and Megan, a reply to
#    Liz with the time. Fault: the FIRST create_event's reply is lost (the event is created anyway): a careful agent
#    looks before creating again, so exactly one meeting exists. Follow-ups: OPS "Remaining follow-up items" assigned
#    to Timothy Wallace; doc "Notes: remaining follow-up items" naming its key, shared with Timothy as editor; a
#    comment with the doc's link on the ticket; a mail to Timothy with key and link; OPS "Handover review" linked to
#    the first ticket as relates_to.

RC = "ravenwood-creek-energy.test"
LIZ, JILL, MEGAN, TIMOTHY = (
    f"liz.vallenduuk@{RC}",
    f"jill.hoekstra@{RC}",
    f"megan.van.lucel@{RC}",
    f"timothy.wallace@{RC}",
)
MT_GUESTS = [LIZ, JILL, MEGAN]
MT_READ = call("mail__get_message", message_id="msg-00018")
MT_FREE = call(
    "calendar__find_free_slots",
    attendees=MT_GUESTS,
    duration_minutes=45,
    time_min="2026-03-30T00:00:00+02:00",
    time_max="2026-03-31T00:00:00+02:00",
)
MT_BUSY = call(
    "calendar__get_free_busy",
    emails=MT_GUESTS,
    time_min="2026-03-30T08:00:00+02:00",
    time_max="2026-03-30T18:00:00+02:00",
)
MT_LOOK = call("calendar__search_events", query="grid connection queue", save="found")
MT_DAY = call("calendar__list_events", time_min="2026-03-30T00:00:00+02:00", time_max="2026-03-31T00:00:00+02:00")


def mt_event(start: str = "2026-03-30T11:00:00+02:00", end: str = "2026-03-30T11:45:00+02:00", **more) -> dict:
    args = {"attendees": MT_GUESTS, "title": "Grid connection queue", "description": "Requested by Liz."}
    args.update(more)
    title = args.pop("title")
    return event(title, start, end, **args)


def mt_book(start: str = "2026-03-30T11:00:00+02:00", end: str = "2026-03-30T11:45:00+02:00", **more) -> list:
    """The booking as a careful agent does it: the reply is lost, it looks and finds the event made."""
    return [failing(mt_event(start, end, **more)), MT_LOOK]


def mt_chain(
    *,
    content: str = "# Notes: remaining follow-up items\n\nTracked in ${t1.key} (owner: Timothy Wallace).\n",
    body: str = "Hi Timothy,\n\nthe remaining follow-up items are in ${t1.key}, assigned to you. Notes: ${doc.url}\n\n"
    "Lena",
    role: str = "editor",
    relation: str = "relates_to",
    assignee: str = TIMOTHY,
    note: str = "Notes: ${doc.url}",
) -> list:
    return [
        ticket("OPS", "Remaining follow-up items", save="t1", assignee=assignee),
        doc("Notes: remaining follow-up items", content),
        share("${doc.id}", TIMOTHY, role),
        comment("${t1.key}", note),
        mail([TIMOTHY], "Remaining follow-up items (${t1.key})", body),
        ticket("OPS", "Handover review", save="t2"),
        link("${t2.key}", "${t1.key}", relation),
    ]


MT_REPLY = (
    "Hi Liz,\n\nbooked: Monday 30 March, 11:00-11:45 Amsterdam time, with Jill, Megan, you and me. 11:45 didn't work "
    "(you and I both have something from 12:00), so I took the slot just before.\n\nLena"
)

MEETING_TZ = [
    ok(
        "free-slots-lost-reply-found",
        "Finds 11:00-11:45, the create reply is lost, search shows the event exists, replies to Liz; all follow-ups.",
        MT_READ,
        MT_FREE,
        mt_book(),
        reply("msg-00018", MT_REPLY),
        mt_chain(),
    ),
    ok(
        "afternoon-slot-table",
        "Books the other free slot 14:00-14:45 (checked after the lost reply); the reply is a table per person.",
        MT_READ,
        MT_BUSY,
        mt_book("2026-03-30T14:00:00+02:00", "2026-03-30T14:45:00+02:00", title="Grid connection queue sync"),
        reply(
            "msg-00018",
            "Hi Liz,\n\nYour 11:45 clashes, so I booked the afternoon instead:\n\n"
            "| | Liz | Jill | Megan | Lena |\n|---|---|---|---|---|\n"
            "| Mon 30 Mar | 14:00-14:45 | 14:00-14:45 | 14:00-14:45 | 14:00-14:45 |\n\n"
            "All in Amsterdam time, invites are out.\n\nLena",
        ),
        mt_chain(
            content="# Notes: remaining follow-up items\n\n| Ticket | Owner |\n|---|---|\n| ${t1.key} | Timothy Wallace |\n"
        ),
    ),
    ok(
        "dutch-struck-outlook",
        "Dutch reply with the offered time struck through and Liz's mail quoted Outlook-style; checked via list_events.",
        MT_READ,
        MT_FREE,
        failing(mt_event(title="Overleg netaansluitingswachtrij")),
        MT_DAY,
        reply(
            "msg-00018",
            "Hoi Liz,\n\nStaat erin: maandag 30 maart ~~11:45~~ **11:00-11:45** (Amsterdamse tijd), met Jill, Megan, "
            "jou en mij. Om 11:45 zat jij al vast en vanaf 12:00 hebben we allebei iets.\n\nGroet,\nLena\n\n"
            "________________________________\nFrom: Liz Vallenduuk <liz.vallenduuk@ravenwood-creek-energy.test>\n"
            "Sent: Friday, March 27, 2026 11:43 AM\nTo: Lena van de Pavert\n"
            "Subject: Meeting about grid connection queue\n\n> could you set up a 45-minute meeting about grid "
            "connection queue with Jill Hoekstra and Megan van Lucel, you and me on Monday 30 March?",
        ),
        mt_chain(body="Hoi Timothy,\n\nTicket: ${t1.key}\nNotities: ${doc.url}\n\nGroet,\nLena"),
    ),
    ok(
        "followups-first-12h-bullets",
        "Does the follow-ups first, then books 11:00 (lost reply checked); bold bullets, 12-hour clock.",
        mt_chain(),
        MT_READ,
        MT_FREE,
        mt_book(),
        reply(
            "msg-00018",
            "Hi Liz,\n\n- **When:** Mon 30 March, 11:00-11:45 AM (Amsterdam)\n- **Who:** you, Jill, Megan, me\n"
            "- **Why not 11:45:** you're busy at 11:45 and we both have something at noon\n\nLena",
        ),
    ),
    ok(
        "new-mail-words-german",
        "A new mail to Liz in German with the time in words; doc link in a comment; the chain otherwise standard.",
        MT_READ,
        MT_FREE,
        mt_book(),
        mail(
            [LIZ],
            "Re: Meeting about grid connection queue",
            "Hallo Liz,\n\nder Termin steht: Montag, 30. März, von elf Uhr bis Viertel vor zwölf (11:00-11:45, "
            "Amsterdam). Eingeladen sind Jill, Megan, du und ich.\n\nViele Grüße\nLena",
        ),
        mt_chain(note="The notes for this ticket live here: ${doc.url}"),
    ),
    ok(
        "formal-signature-ps",
        "Formal reply with a signature and a consistent P.S. naming the slot again; lowercase city name.",
        MT_READ,
        MT_BUSY,
        MT_FREE,
        mt_book(location="Zoom"),
        reply(
            "msg-00018",
            "Dear Liz,\n\nThe grid connection queue meeting is booked for Monday 30 March, 11:00 to 11:45 amsterdam "
            "time. Jill Hoekstra, Megan van Lucel, you and I are invited.\n\nKind regards,\n\nLena van de Pavert\n"
            "Operations engineer | Ravenwood Creek Energy\n\nP.S. 11:00 rather than 11:45 because the later slot "
            "ran into lunch-time meetings.",
        ),
        mt_chain(),
    ),
    bad(
        "books-liz-suggestion",
        "Books Liz's 11:45 without checking: Liz is busy 11:45-12:00 and 12:00-13:00, Lena from 12:00.",
        MT_READ,
        mt_book("2026-03-30T11:45:00+02:00", "2026-03-30T12:30:00+02:00"),
        reply("msg-00018", "Hi Liz, booked for 11:45-12:30 on Monday 30 March as you suggested. Lena"),
        mt_chain(),
    ),
    bad(
        "blind-retry-duplicate",
        "Creates the event again after the lost reply without looking: two identical meetings on 30 March.",
        MT_READ,
        MT_FREE,
        failing(mt_event()),
        mt_event(),
        reply("msg-00018", MT_REPLY),
        mt_chain(),
    ),
    bad(
        "winter-offset",
        "Writes +01:00 for 30 March (after the clock change), so the event sits at 12:00-12:45 CEST: clashes.",
        MT_READ,
        mt_book("2026-03-30T11:00:00+01:00", "2026-03-30T11:45:00+01:00"),
        reply("msg-00018", MT_REPLY),
        mt_chain(),
    ),
    bad(
        "jill-left-out",
        "Invites only Liz and Megan: Jill is missing from the meeting.",
        MT_READ,
        MT_FREE,
        mt_book(attendees=[LIZ, MEGAN]),
        reply("msg-00018", MT_REPLY),
        mt_chain(),
    ),
    bad(
        "thirty-minutes",
        "Books 11:00-11:30: the meeting was to be 45 minutes.",
        MT_READ,
        MT_FREE,
        mt_book("2026-03-30T11:00:00+02:00", "2026-03-30T11:30:00+02:00"),
        reply("msg-00018", "Hi Liz, booked Monday 30 March 11:00-11:30 with Jill and Megan. Lena"),
        mt_chain(),
    ),
    bad(
        "reply-wrong-time",
        "The event is at 11:00, but the reply tells Liz 14:00-14:45.",
        MT_READ,
        MT_FREE,
        mt_book(),
        reply("msg-00018", "Hi Liz,\n\nall set for Monday 30 March, 14:00-14:45 Amsterdam time.\n\nLena"),
        mt_chain(),
    ),
    bad(
        "timothy-viewer",
        "The meeting is right, but the notes are shared with Timothy as viewer, not editor.",
        MT_READ,
        MT_FREE,
        mt_book(),
        reply("msg-00018", MT_REPLY),
        mt_chain(role="viewer"),
    ),
    bad(
        "mail-without-link",
        "Timothy's mail names the ticket but not the notes' link.",
        MT_READ,
        MT_FREE,
        mt_book(),
        reply("msg-00018", MT_REPLY),
        mt_chain(body="Hi Timothy,\n\n${t1.key} is yours, notes are in the docs.\n\nLena"),
    ),
]


# -- customer-answer-v3 (clock Wed 22 April 2026 08:30 Tokyo, Rei Ishii). Michel De Cuyper (Falcon Community Fund)
#    asks for news on the fix; his thread is "After-school tutoring duplicates entries every night" (msg-00085, Rei's
#    msg-00137 logging it as SUP-3, his latest msg-00207 "any news on SUP-3?"). SUP-3's comments: the workaround is
#    to switch on 'Manual sync mode' under Settings > After-school tutoring; the fix ships with the release on
#    Saturday 16 May (due date 2026-05-16). A later comment is internal only (caching bug in the donation page
#    service, 32 other accounts, a goodwill credit of up to EUR 300): none of it goes to Michel. SUP-1 (18 May, no
#    workaround) and SUP-2 (25 May) are other customers' tickets for the same bug. Worked answer: reply to Michel
#    (msg-00207) with 16 May and the Manual sync mode workaround, then a comment on SUP-3 noting the update. Then FUND
#    "Open loose ends" assigned to Noxolo Mangethe, doc "Notes: open loose ends" naming its key, shared with Noxolo as
#    editor, its link in a comment on the new ticket, and a mail to Noxolo with key and link.

NOXOLO, MICHEL = "noxolo.mangethe@union-point-foundation-group.test", "michel.de.cuyper@falcon-community-fund.test"
CA_READ = [
    call("mail__search_messages", query="from:" + MICHEL),
    call("mail__get_message", message_id="msg-00207"),
    call("tickets__get_ticket", key="SUP-3"),
]
CA_ANSWER = (
    "Hi Michel,\n\nthe fix for the duplicate entries ships with our release on Saturday 16 May. Until then you can "
    "avoid the duplicates by switching on 'Manual sync mode' under Settings > After-school tutoring.\n\nBest,\nRei"
)
CA_NOTE = comment(
    "SUP-3", "Updated Michel (Falcon Community Fund): fix in the 16 May release; workaround Manual sync mode."
)


def ca_chain(
    *,
    content: str = "# Notes: open loose ends\n\nTicket: ${t1.key} (owner: Noxolo Mangethe)\n",
    body: str = "Hi Noxolo,\n\nI opened ${t1.key} (Open loose ends) for you; notes here: ${doc.url}\n\nRei",
    role: str = "editor",
    project: str = "FUND",
    note: str = "Notes: ${doc.url}",
) -> list:
    return [
        ticket(project, "Open loose ends", save="t1", assignee=NOXOLO),
        doc("Notes: open loose ends", content),
        share("${doc.id}", NOXOLO, role),
        comment("${t1.key}", note),
        mail([NOXOLO], "Open loose ends: ${t1.key}", body),
    ]


CUSTOMER_ANSWER = [
    ok(
        "reply-thread-note-chain",
        "Replies in Michel's SUP-3 thread with 16 May and the workaround, notes it on SUP-3, does the follow-ups.",
        CA_READ,
        reply("msg-00207", CA_ANSWER),
        CA_NOTE,
        ca_chain(),
    ),
    ok(
        "bullets-outlook-quote",
        "Bold-label bullets with both facts and Michel's mail quoted Outlook-style; nothing internal.",
        CA_READ,
        call("tickets__search_tickets", text="Falcon Community Fund"),
        reply(
            "msg-00207",
            "Hi Michel,\n\n- **Fix:** ships with the release on Saturday 16 May\n- **In the meantime:** turn on "
            "'Manual sync mode' (Settings > After-school tutoring) to stop the nightly duplicates\n\nKind regards,\n"
            "Rei\n\n________________________________\nFrom: Michel De Cuyper <michel.de.cuyper@falcon-community-fund"
            ".test>\nSent: Wednesday, April 22, 2026 7:55 AM\nTo: Rei Ishii\nSubject: Re: After-school tutoring "
            "duplicates entries every night\n\n> any news on SUP-3? When will it be fixed, and is there anything we "
            "can do in the meantime?",
        ),
        comment("SUP-3", "Customer told: release of Sat 16 May + 'Manual sync mode' workaround."),
        ca_chain(
            content="# Notes: open loose ends\n\n| Ticket | Owner | Status |\n|---|---|---|\n"
            "| ${t1.key} | Noxolo Mangethe | open |\n"
        ),
    ),
    ok(
        "new-mail-japanese-dates",
        "A new mail to Michel (not a reply) giving 16/05 and the workaround, with a Japanese line; comment in Japanese.",
        CA_READ,
        mail(
            [MICHEL],
            "Re: After-school tutoring duplicates entries every night (SUP-3)",
            "Hello Michel,\n\nThe fix is scheduled for our release on Sat 16/05. Workaround until then: Settings > "
            "After-school tutoring > enable 'Manual sync mode'.\n\n(5月16日（土）のリリースで修正されます。)\n\nRei Ishii",
        ),
        comment("SUP-3", "Michel さんに返信済み：5月16日（土）リリースで修正、回避策は 'Manual sync mode'。"),
        ca_chain(body="Noxolo さん\n\nチケット: ${t1.key}\nメモ: ${doc.url}\n\nRei"),
    ),
    ok(
        "followups-first-formal",
        "Does the follow-ups first, then a formal letter to Michel with both facts and a signature, then the note.",
        ca_chain(),
        CA_READ,
        reply(
            "msg-00207",
            "Dear Michel,\n\nThank you for your patience. Our engineers have a fix for the duplicated entries, and it "
            "will be included in the release on Saturday, 16 May 2026. In the meantime, please enable 'Manual sync "
            "mode' under Settings > After-school tutoring, which prevents the nightly duplicates.\n\nKind regards,\n\n"
            "Rei Ishii\nUnion Point Foundation",
        ),
        CA_NOTE,
    ),
    ok(
        "terse-misspelt-day",
        "Terse reply with a misspelt weekday ('Saturady 16 May') and the workaround; short note on SUP-3.",
        call("tickets__get_ticket", key="SUP-3"),
        reply(
            "msg-00207",
            "Michel - fix ships Saturady 16 May; until then switch on Manual sync mode (Settings > "
            "After-school tutoring). Rei",
        ),
        comment("SUP-3", "Replied to customer with ETA 16 May + workaround."),
        ca_chain(note="Doc: ${doc.url}"),
    ),
    ok(
        "french-caveat-ps",
        "French reply with a caveat that the date is the planned release, and a consistent P.S. on the workaround.",
        CA_READ,
        reply(
            "msg-00207",
            "Bonjour Michel,\n\nLe correctif sera livré avec la version du samedi 16 mai (date de sortie prévue par "
            "notre équipe). En attendant, activez le « Manual sync mode » dans Settings > After-school tutoring.\n\n"
            "Cordialement,\nRei\n\nP.S. Le mode de synchronisation manuelle peut être désactivé après le 16 mai.",
        ),
        CA_NOTE,
        ca_chain(),
    ),
    bad(
        "other-customers-date",
        "Gives SUP-1's date (Monday 18 May) and says there is no workaround: another customer's ticket.",
        call("tickets__get_ticket", key="SUP-1"),
        reply(
            "msg-00207",
            "Hi Michel,\n\nthe fix ships on Monday 18 May; there is no workaround for your setup, sorry.\n\nRei",
        ),
        comment("SUP-3", "Updated Michel: fix 18 May."),
        ca_chain(),
    ),
    bad(
        "leaks-internal",
        "Tells Michel the root cause and the EUR 300 goodwill credit from the internal-only comment.",
        CA_READ,
        reply(
            "msg-00207",
            CA_ANSWER + "\n\nP.S. The cause is a caching bug in our donation page service (32 other accounts are "
            "affected); if it is a problem, we can offer a goodwill credit of up to EUR 300.",
        ),
        CA_NOTE,
        ca_chain(),
    ),
    bad(
        "no-workaround",
        "Tells Michel the fix date but not the workaround.",
        CA_READ,
        reply("msg-00207", "Hi Michel,\n\nthe fix ships with the release on Saturday 16 May.\n\nRei"),
        CA_NOTE,
        ca_chain(),
    ),
    bad(
        "hedged-date",
        "Hedges the date ('probably mid-May, not confirmed') though the ticket names the 16 May release.",
        CA_READ,
        reply(
            "msg-00207",
            "Hi Michel,\n\nthe fix will probably land sometime mid-May, but nothing is confirmed yet. Meanwhile you "
            "can switch on 'Manual sync mode' under Settings > After-school tutoring.\n\nRei",
        ),
        CA_NOTE,
        ca_chain(),
    ),
    bad(
        "no-ticket-note",
        "Answers Michel correctly but never notes the update on SUP-3.",
        CA_READ,
        reply("msg-00207", CA_ANSWER),
        ca_chain(),
    ),
    bad(
        "noxolo-commenter",
        "Michel's part is right, but the notes doc is shared with Noxolo as commenter, not editor.",
        CA_READ,
        reply("msg-00207", CA_ANSWER),
        CA_NOTE,
        ca_chain(role="commenter"),
    ),
    bad(
        "ticket-in-sup",
        "Opens 'Open loose ends' in SUP instead of FUND.",
        CA_READ,
        reply("msg-00207", CA_ANSWER),
        CA_NOTE,
        ca_chain(project="SUP"),
    ),
    bad(
        "doc-without-key",
        "The notes doc never names the ticket's key.",
        CA_READ,
        reply("msg-00207", CA_ANSWER),
        CA_NOTE,
        ca_chain(content="# Notes: open loose ends\n\n- owner: Noxolo Mangethe\n- status: open\n"),
    ),
]


# -- ask-colleague-v3 (clock Fri 7 August 2026 11:30 Mexico City, -06:00, Julio César Lucero). Homero (msg-00011,
#    PROD-12) wants a one-hour pricing review workshop for Homero, Francisco Varela and Julio on Monday 10 August.
#    Hours: Julio 9-17, Homero 8-16, Francisco 8-16: common 9:00-16:00. Busy that day: Julio 9:30-9:45 (stand-up),
#    16:00-17:00 (evt-00022); Homero 9:00-10:30 (with the stand-up), 11:30-12:00, 13:00-16:00; Francisco 12:00-13:00,
#    16:00-17:00. The one free hour for all three: 10:30-11:30. The room: mail Yolanda Ochoa and wait; she answers
#    ~40 minutes later "not the Orchard room (being refitted), take the Harbor room". Worked answer: mail Yolanda,
#    wait for her answer, book "Pricing review workshop" 10:30-11:30 on 10 August in the Harbor room with Homero and
#    Francisco, move PROD-12 to done, and tell Homero (time and room). Nothing booked before Yolanda answers.

FX = "foxglove-street-fabrication.test"
HOMERO, FRANCISCO, YOLANDA = f"homero.orosco@{FX}", f"francisco.varela@{FX}", f"yolanda.ochoa@{FX}"
AC_READ = [call("mail__get_message", message_id="msg-00011"), call("tickets__get_ticket", key="PROD-12")]
AC_FREE = call(
    "calendar__find_free_slots",
    attendees=[HOMERO, FRANCISCO],
    duration_minutes=60,
    time_min="2026-08-10T00:00:00-06:00",
    time_max="2026-08-11T00:00:00-06:00",
)
AC_ASK = mail(
    [YOLANDA],
    "Room for the pricing review workshop, Mon 10 Aug",
    "Hi Yolanda,\n\nwhich room can we use for the pricing review workshop (Homero, Francisco and me) on Monday "
    "10 August, 10:30-11:30? Homero says we usually take the Orchard room, but you'd know what's free.\n\n"
    "Thanks,\nJulio César",
)
AC_READ_ANSWER = call("mail__search_messages", query="from:" + YOLANDA, save="y")
AC_ANSWER = [wait(), AC_READ_ANSWER, call("mail__get_message", message_id="${y.messages.0.id}")]


def ac_book(
    start: str = "2026-08-10T10:30:00-06:00",
    end: str = "2026-08-10T11:30:00-06:00",
    location: str = "Harbor room",
    attendees: list | None = None,
    title: str = "Pricing review workshop",
) -> dict:
    return event(
        title, start, end, attendees=[HOMERO, FRANCISCO] if attendees is None else attendees, location=location
    )


AC_DONE = move("PROD-12", "done", comment="Workshop booked: Mon 10 Aug, 10:30-11:30, Harbor room.")
AC_TELL = reply(
    "msg-00011",
    "Hi Homero,\n\nbooked: Monday 10 August, 10:30-11:30, in the Harbor room (the Orchard room is being refitted). "
    "You and Francisco have the invite. PROD-12 is closed.\n\nJulio César",
)

ASK_COLLEAGUE = [
    ok(
        "ask-wait-book-close-tell",
        "Mails Yolanda, waits for her answer, books 10:30-11:30 in the Harbor room, resolves PROD-12, tells Homero.",
        AC_READ,
        AC_FREE,
        AC_ASK,
        AC_ANSWER,
        ac_book(),
        AC_DONE,
        AC_TELL,
    ),
    ok(
        "spanish-timed-waits",
        "Spanish throughout; waits in two steps until Yolanda's answer is in, then books, resolves and tells Homero.",
        AC_READ,
        call(
            "calendar__get_free_busy",
            emails=[HOMERO, FRANCISCO],
            time_min="2026-08-10T08:00:00-06:00",
            time_max="2026-08-10T17:00:00-06:00",
        ),
        mail(
            [YOLANDA],
            "Sala para el taller de revisión de precios",
            "Hola Yolanda,\n\n¿qué sala podemos usar el lunes 10 de agosto de 10:30 a 11:30 para el taller de "
            "revisión de precios (Homero, Francisco y yo)?\n\nGracias,\nJulio César",
        ),
        wait(20),
        AC_READ_ANSWER,
        wait(30),
        AC_READ_ANSWER,
        ac_book(title="Taller de revisión de precios", location="Sala Harbor"),
        move("PROD-12", "done"),
        reply(
            "msg-00011",
            "Hola Homero,\n\nlisto: lunes 10 de agosto, de 10:30 a 11:30, en la sala Harbor (la Orchard está en "
            "obras). Francisco y tú ya tienen la invitación; cerré PROD-12.\n\nSaludos,\nJulio César",
        ),
    ),
    ok(
        "table-outlook-quote",
        "Same outcome; Homero's reply is a table with a column per person and quotes his mail Outlook-style.",
        AC_READ,
        AC_FREE,
        AC_ASK,
        AC_ANSWER,
        ac_book(),
        move("PROD-12", "in_progress"),
        move("PROD-12", "done"),
        reply(
            "msg-00011",
            "Hi Homero,\n\nDone:\n\n| | Homero | Francisco | Julio César |\n|---|---|---|---|\n"
            "| Mon 10 Aug | 10:30-11:30 | 10:30-11:30 | 10:30-11:30 |\n\n**Room:** Harbor room (per Yolanda; "
            "~~Orchard room~~ is being refitted)\n**PROD-12:** resolved\n\nJulio César\n\n"
            "________________________________\nFrom: Homero Orosco <homero.orosco@foxglove-street-fabrication.test>\n"
            "Sent: Friday, August 7, 2026 10:40 AM\nTo: Julio César Lucero\n"
            "Subject: PROD-12: Book a room for the pricing review workshop\n\n> could you set up the pricing review "
            "workshop for Homero, Francisco and you on Monday 10 August, an hour, whenever the three of us are free?",
        ),
    ),
    ok(
        "new-mail-12h-words",
        "A new mail to Homero with a 12-hour clock and the time in words; the resolution comment carries the details.",
        AC_READ,
        AC_FREE,
        AC_ASK,
        wait(45),
        AC_READ_ANSWER,
        ac_book(location="Harbor Room"),
        move("PROD-12", "done", comment="Booked in the Harbor room for Monday 10 August, 10:30 to 11:30."),
        mail(
            [HOMERO],
            "PROD-12: pricing review workshop booked",
            "Hi Homero,\n\nthe pricing review workshop is on Monday 10 August from half past ten to half past "
            "eleven (10:30-11:30 AM), Harbor room. Invite sent to you and Francisco.\n\nJulio César",
        ),
    ),
    ok(
        "terse-one-liner",
        "Terse: asks Yolanda, waits, books, closes PROD-12, one-line reply to Homero with time and room.",
        call("mail__get_message", message_id="msg-00011"),
        AC_FREE,
        mail([YOLANDA], "Room?", "Hi Yolanda, which room for the pricing review workshop Mon 10 Aug 10:30-11:30? J.C."),
        AC_ANSWER,
        ac_book(),
        move("PROD-12", "done"),
        reply("msg-00011", "Mon 10 Aug, 10:30-11:30, Harbor room - invite out, PROD-12 closed. JC"),
    ),
    ok(
        "formal-caveat-ps",
        "Formal letter with a signature, a caveat about the Orchard room and a P.S. consistent with the booking.",
        AC_READ,
        AC_FREE,
        AC_ASK,
        AC_ANSWER,
        ac_book(title="Pricing review workshop (PROD-12)", location="Harbor room"),
        AC_DONE,
        reply(
            "msg-00011",
            "Dear Homero,\n\nThe pricing review workshop is booked for Monday 10 August, 10:30 to 11:30 (Mexico City "
            "time), in the Harbor room. Please note the Orchard room is not available: Yolanda tells me it is being "
            "refitted. PROD-12 has been resolved.\n\nBest regards,\n\nJulio César Lucero\nFoxglove Street "
            "Fabrication\n\nP.S. 10:30 was the only hour all three of us had free that Monday.",
        ),
    ),
    bad(
        "books-before-answer",
        "Books the usual Orchard room right after asking Yolanda, without waiting for her answer.",
        AC_READ,
        AC_FREE,
        AC_ASK,
        ac_book(location="Orchard room"),
        move("PROD-12", "done"),
        reply("msg-00011", "Hi Homero, booked Mon 10 Aug 10:30-11:30 in the Orchard room. PROD-12 closed. Julio César"),
    ),
    bad(
        "orchard-despite-answer",
        "Reads Yolanda's answer but still books the Orchard room she said is being refitted.",
        AC_READ,
        AC_FREE,
        AC_ASK,
        AC_ANSWER,
        ac_book(location="Orchard room"),
        move("PROD-12", "done"),
        reply("msg-00011", "Hi Homero, Mon 10 Aug 10:30-11:30, Orchard room as usual. PROD-12 closed. Julio César"),
    ),
    bad(
        "noon-clash",
        "Books 12:00-13:00, when Francisco is busy.",
        AC_READ,
        AC_ASK,
        AC_ANSWER,
        ac_book("2026-08-10T12:00:00-06:00", "2026-08-10T13:00:00-06:00"),
        move("PROD-12", "done"),
        reply("msg-00011", "Hi Homero, booked Mon 10 Aug 12:00-13:00, Harbor room. PROD-12 closed. Julio César"),
    ),
    bad(
        "francisco-not-invited",
        "Invites only Homero: Francisco is left out of the workshop.",
        AC_READ,
        AC_FREE,
        AC_ASK,
        AC_ANSWER,
        ac_book(attendees=[HOMERO]),
        AC_DONE,
        AC_TELL,
    ),
    bad(
        "ticket-left-open",
        "Books and tells Homero, but PROD-12 is only commented on, never resolved.",
        AC_READ,
        AC_FREE,
        AC_ASK,
        AC_ANSWER,
        ac_book(),
        comment("PROD-12", "Booked: Mon 10 Aug 10:30-11:30, Harbor room."),
        AC_TELL,
    ),
    bad(
        "ticket-cancelled",
        "Closes PROD-12 as cancelled (won't do) instead of resolving it as done.",
        AC_READ,
        AC_FREE,
        AC_ASK,
        AC_ANSWER,
        ac_book(),
        move("PROD-12", "cancelled"),
        AC_TELL,
    ),
    bad(
        "homero-not-told",
        "Books the room and resolves PROD-12, but never lets Homero know.",
        AC_READ,
        AC_FREE,
        AC_ASK,
        AC_ANSWER,
        ac_book(),
        AC_DONE,
    ),
    bad(
        "no-room-on-event",
        "Books without a location and tells Homero the room is still to be confirmed.",
        AC_READ,
        AC_FREE,
        AC_ASK,
        AC_ANSWER,
        ac_book(location=""),
        AC_DONE,
        reply("msg-00011", "Hi Homero, workshop booked Mon 10 Aug 10:30-11:30; room probably Harbor, will confirm. JC"),
    ),
]


# -- changed-request-v3 (clock Fri 13 March 2026 10:00 Chicago, -05:00 after the 8 March clock change, Katie
#    Morales). Rebecca (msg-00018): book the onboarding review with Sandra Wells and David Payne on Monday 16 March,
#    16:00-16:30, and add it to the team schedule doc (doc-00010, line "- Onboarding review: TBD"). Ten minutes after
#    an event with Sandra is created, msg-00021 arrives (in reply to msg-00018): make it Monday 16 March 11:00-11:30,
#    and Michael Anderson instead of David. ("Spring collection launch msg-00021", msg-00024, is an old unrelated
#    thread.) Worked answer: one onboarding review on 16 March 11:00-11:30 with Sandra and Michael (David not on it;
#    the 16:00 one moved, or cancelled/deleted and rebooked), the schedule doc saying 11:00-11:30, and a short
#    confirmation to Rebecca with the latest version. Sandra and Michael are free at 11:00.

JW = "juniper-works-outfitters.test"
REBECCA, SANDRA, DAVID, MICHAEL = (
    f"rebecca.boone@{JW}",
    f"sandra.wells@{JW}",
    f"david.payne@{JW}",
    f"michael.anderson@{JW}",
)
CR_READ = [call("mail__get_message", message_id="msg-00018"), call("docs__get_document", document_id="doc-00010")]
CR_OLD_LINE = "- Onboarding review: Monday 16 March, 16:00-16:30 (Sandra, David)"
CR_NEW_LINE = "- Onboarding review: Monday 16 March, 11:00-11:30 (Sandra, Michael)"
CR_BOOK = event(
    "Onboarding review", "2026-03-16T16:00:00-05:00", "2026-03-16T16:30:00-05:00", save="ev", attendees=[SANDRA, DAVID]
)
CR_DOC_OLD = edit("doc-00010", "- Onboarding review: TBD", CR_OLD_LINE)
CR_CHANGE = [wait(), call("mail__get_message", message_id="msg-00021")]
CR_MOVE = moved(
    "${ev.id}",
    "2026-03-16T11:00:00-05:00",
    "2026-03-16T11:30:00-05:00",
    add_attendees=[MICHAEL],
    remove_attendees=[DAVID],
)
CR_DOC_NEW = edit("doc-00010", CR_OLD_LINE, CR_NEW_LINE)
CR_CONFIRM = reply(
    "msg-00021", "Done: Mon 16 March, 11:00-11:30, with Sandra and Michael. Schedule doc updated.\n\nKatie"
)

CHANGED_REQUEST = [
    ok(
        "book-wait-move-update-confirm",
        "Books 16:00, notes it, waits, sees msg-00021, moves to 11:00 with Michael for David, updates doc, confirms.",
        CR_READ,
        CR_BOOK,
        CR_DOC_OLD,
        CR_CHANGE,
        CR_MOVE,
        CR_DOC_NEW,
        CR_CONFIRM,
    ),
    ok(
        "cancel-rebook-table",
        "Cancels the 16:00 event and books a new one at 11:00 with Sandra and Michael; the doc line a table row.",
        CR_READ,
        CR_BOOK,
        CR_DOC_OLD,
        CR_CHANGE,
        call("calendar__cancel_event", event_id="${ev.id}"),
        event(
            "Onboarding review", "2026-03-16T11:00:00-05:00", "2026-03-16T11:30:00-05:00", attendees=[SANDRA, MICHAEL]
        ),
        edit(
            "doc-00010",
            CR_OLD_LINE,
            "\n| Session | When | Who |\n|---|---|---|\n| Onboarding review | Mon 16 March, 11:00-11:30 | Sandra, Michael |\n",
        ),
        reply("msg-00018", "Hi Rebecca, moved to Mon 16 March 11:00-11:30 with Sandra and Michael; doc updated. Katie"),
    ),
    ok(
        "doc-after-change-french",
        "Books, waits for the change before touching the doc, writes only the new slot; confirms in French.",
        CR_READ,
        CR_BOOK,
        CR_CHANGE,
        CR_MOVE,
        edit("doc-00010", "- Onboarding review: TBD", "- Onboarding review: lundi 16 mars, 11:00-11:30"),
        reply(
            "msg-00021", "Bonjour Rebecca,\n\nc'est fait : lundi 16 mars, 11h00-11h30, avec Sandra et Michael.\n\nKatie"
        ),
    ),
    ok(
        "struck-old-value",
        "The doc keeps the old slot struck through beside the new one; a short 12-hour confirmation.",
        CR_READ,
        CR_BOOK,
        CR_DOC_OLD,
        CR_CHANGE,
        CR_MOVE,
        edit(
            "doc-00010",
            CR_OLD_LINE,
            "- Onboarding review: Monday 16 March, ~~16:00-16:30~~ **11:00-11:30** (Sandra, Michael)",
        ),
        reply("msg-00021", "Hi Rebecca - all set for 11:00-11:30 AM Monday 16 March, Sandra + Michael. Katie"),
    ),
    ok(
        "delete-rebook-replace-doc",
        "Deletes the 16:00 event and rebooks; rewrites the whole doc; new mail to Rebecca with bold bullets.",
        CR_READ,
        CR_BOOK,
        CR_DOC_OLD,
        CR_CHANGE,
        call("calendar__delete_event", event_id="${ev.id}"),
        event(
            "Onboarding review",
            "2026-03-16T11:00:00-05:00",
            "2026-03-16T11:30:00-05:00",
            attendees=[MICHAEL, SANDRA],
            location="Zoom",
        ),
        call(
            "docs__replace_content",
            document_id="doc-00010",
            content="# Team schedule\n\nSessions coming up (time in Chicago time):\n\n"
            "- Onboarding review: Monday 16 March, 11:00-11:30\n- Team offsite: next quarter\n",
        ),
        mail(
            [REBECCA],
            "Re: Onboarding review",
            "- **When:** Mon 16 March, 11:00-11:30\n- **Who:** Sandra, Michael\n- **Doc:** updated\n\nKatie",
        ),
    ),
    ok(
        "separate-updates-outlook-quote",
        "Moves the time and swaps the guests in two updates; the confirmation quotes Rebecca's change Outlook-style.",
        CR_READ,
        CR_BOOK,
        CR_DOC_OLD,
        CR_CHANGE,
        moved("${ev.id}", "2026-03-16T11:00:00-05:00", "2026-03-16T11:30:00-05:00"),
        call("calendar__update_event", event_id="${ev.id}", remove_attendees=[DAVID]),
        call("calendar__update_event", event_id="${ev.id}", add_attendees=[MICHAEL]),
        CR_DOC_NEW,
        reply(
            "msg-00021",
            "Hi Rebecca,\n\nDone - 11:00-11:30 Monday, Sandra and Michael invited, schedule updated.\n\nKatie\n\n"
            "________________________________\nFrom: Rebecca Boone <rebecca.boone@juniper-works-outfitters.test>\n"
            "Sent: Friday, March 13, 2026\nTo: Katie Morales\nSubject: Re: Onboarding review\n\n"
            "> please make it Monday 16 March, 11:00-11:30 instead. Also, David can't join after all; please invite "
            "Michael instead.",
        ),
    ),
    bad(
        "never-waits",
        "Books 16:00 with David, writes it in the doc and confirms at once: never sees the change.",
        CR_READ,
        CR_BOOK,
        CR_DOC_OLD,
        reply("msg-00018", "Hi Rebecca, booked Mon 16 March 16:00-16:30 with Sandra and David; doc updated. Katie"),
    ),
    bad(
        "david-kept",
        "Moves the meeting to 11:00 but keeps David and never invites Michael.",
        CR_READ,
        CR_BOOK,
        CR_DOC_OLD,
        CR_CHANGE,
        moved("${ev.id}", "2026-03-16T11:00:00-05:00", "2026-03-16T11:30:00-05:00"),
        edit("doc-00010", CR_OLD_LINE, "- Onboarding review: Monday 16 March, 11:00-11:30 (Sandra, David)"),
        CR_CONFIRM,
    ),
    bad(
        "michael-added-david-stays",
        "Adds Michael but leaves David on the invite although he can't join.",
        CR_READ,
        CR_BOOK,
        CR_DOC_OLD,
        CR_CHANGE,
        moved("${ev.id}", "2026-03-16T11:00:00-05:00", "2026-03-16T11:30:00-05:00", add_attendees=[MICHAEL]),
        CR_DOC_NEW,
        CR_CONFIRM,
    ),
    bad(
        "doc-stale",
        "Moves the event and swaps the guests, but the schedule doc still says 16:00-16:30.",
        CR_READ,
        CR_BOOK,
        CR_DOC_OLD,
        CR_CHANGE,
        CR_MOVE,
        CR_CONFIRM,
    ),
    bad(
        "second-event",
        "Books a second event at 11:00 and leaves the 16:00 one in place: two onboarding reviews.",
        CR_READ,
        CR_BOOK,
        CR_DOC_OLD,
        CR_CHANGE,
        event(
            "Onboarding review", "2026-03-16T11:00:00-05:00", "2026-03-16T11:30:00-05:00", attendees=[SANDRA, MICHAEL]
        ),
        CR_DOC_NEW,
        CR_CONFIRM,
    ),
    bad(
        "confirm-stale-time",
        "Everything is moved to 11:00, but the confirmation to Rebecca says 16:00-16:30.",
        CR_READ,
        CR_BOOK,
        CR_DOC_OLD,
        CR_CHANGE,
        CR_MOVE,
        CR_DOC_NEW,
        reply("msg-00018", "Hi Rebecca, booked: Mon 16 March 16:00-16:30 with Sandra and Michael. Katie"),
    ),
    bad(
        "one-hour",
        "Moves it to 11:00-12:00: Rebecca said same length (30 minutes).",
        CR_READ,
        CR_BOOK,
        CR_DOC_OLD,
        CR_CHANGE,
        moved(
            "${ev.id}",
            "2026-03-16T11:00:00-05:00",
            "2026-03-16T12:00:00-05:00",
            add_attendees=[MICHAEL],
            remove_attendees=[DAVID],
        ),
        edit("doc-00010", CR_OLD_LINE, "- Onboarding review: Monday 16 March, 11:00-12:00 (Sandra, Michael)"),
        reply("msg-00021", "Done: Mon 16 March, 11:00-12:00, with Sandra and Michael. Katie"),
    ),
    bad(
        "no-confirmation",
        "Everything updated to the latest version, but Rebecca is never told.",
        CR_READ,
        CR_BOOK,
        CR_DOC_OLD,
        CR_CHANGE,
        CR_MOVE,
        CR_DOC_NEW,
    ),
]
