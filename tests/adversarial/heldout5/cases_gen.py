"""Held-out round 5, generated tasks (`generate meeting-tz,reschedule,travel,approve-request,customer-answer --count 1
--seed 58213`): one task per family.

Written from each task's instruction and seed rows only (via brief.py), never from its checks. The cases vary the
text model agents write: markdown tables, bullets, Outlook-style quotes, per-recipient times, caveats, times in
words, German/French dates, lowercase cities.
"""

from __future__ import annotations

from round_steps import bad, call, comment, day, doc, event, mail, move, moved, ok, reply, share

# -- meeting-tz-v2-58213-00000 (clock Tue 16 June 2026, Vienna): 45 min on Mon 22 June for Diana (Vienna 10-18),
#    Elaine Banks (London 08:30-16:30), Cynthia Faulkner (Toronto 09-17). Common hours 13:00-15:30 UTC; Cynthia is
#    busy 13:45-15:30 UTC, so the one slot is 13:00-13:45 UTC = 15:00 Vienna = 14:00 London = 09:00 Toronto.

CYN, ELA = "cynthia.faulkner@aspen-park-institute-group.test", "elaine.banks@aspen-park-institute-group.test"
MT_READS = [
    call(
        "calendar__get_free_busy",
        emails=[CYN, ELA],
        time_min="2026-06-22T00:00:00+02:00",
        time_max="2026-06-23T00:00:00+02:00",
    ),
    call("calendar__list_events", time_min="2026-06-22T00:00:00+02:00", time_max="2026-06-23T00:00:00+02:00"),
]


def mt_event(desc: str = "", start: str = "2026-06-22T15:00:00", end: str = "2026-06-22T15:45:00", **more) -> dict:
    return event("Fall term timetable", start, end, attendees=[CYN, ELA], description=desc, **more)


MEETING_TZ = [
    ok(
        "table-in-invite",
        "Books the one common 45-minute slot; the invitation's description carries a per-city time table.",
        MT_READS,
        mt_event(
            "Discussion of the fall term timetable (45 min).\n\n| Who | City | Local time |\n|---|---|---|\n"
            "| Diana | Vienna | 15:00-15:45 |\n| Elaine | London | 14:00-14:45 |\n| Cynthia | Toronto | 09:00-09:45 |"
        ),
    ),
    ok(
        "per-recipient-mail",
        "Same booking, plus one mail with each person's local time ('Cynthia, that's 9:00 your time; Elaine, 14:00').",
        MT_READS,
        mt_event("Fall term timetable discussion"),
        mail(
            [CYN, ELA],
            "Fall term timetable - Monday 22 June",
            "Hi Cynthia, hi Elaine,\n\nI've sent an invite for Monday 22 June to discuss the fall term timetable, 45 "
            "minutes. Cynthia, that's 9:00-9:45 your time in Toronto; Elaine, 14:00-14:45 for you in London (15:00 "
            "for me in Vienna).\n\nBest,\nDiana",
        ),
    ),
    ok(
        "london-timezone-arg",
        "Creates the event with London-time arguments (14:00-14:45 Europe/London), the same instant.",
        MT_READS,
        mt_event(
            "45 minutes on the fall term timetable. 14:00 London / 15:00 Vienna / 9:00 Toronto.",
            start="2026-06-22T14:00:00",
            end="2026-06-22T14:45:00",
            timezone="Europe/London",
        ),
    ),
    ok(
        "utc-args-french-mail",
        "Creates it with UTC arguments; mail in French ('lundi 22 juin, 15h00-15h45 heure de Vienne').",
        MT_READS,
        mt_event("Fall term timetable", start="2026-06-22T13:00:00Z", end="2026-06-22T13:45:00Z"),
        mail(
            [CYN, ELA],
            "Fall term timetable",
            "Bonjour à toutes,\n\ninvitation envoyée : lundi 22 juin, 15h00-15h45 heure de Vienne, soit 14h00 à "
            "Londres et 9h00 à Toronto.\n\nDiana",
        ),
    ),
    ok(
        "caveat-next-to-fact",
        "Same booking; description explains it is the only slot ('Cynthia is busy from 9:45 her time').",
        MT_READS,
        mt_event(
            "Fall term timetable - 45 min.\n\nThis is the one slot that fits everyone on Monday: it is inside all "
            "three working days, and Cynthia is busy from 9:45 Toronto time, so we finish right on time.\n\n"
            "* Vienna: 3:00-3:45 pm\n* London: 2:00-2:45 pm\n* Toronto: 9:00-9:45 am"
        ),
    ),
    ok(
        "lowercase-cities-words",
        "Same booking; a mail in lowercase with times in words ('three o'clock vienna, two in london, nine toronto').",
        MT_READS,
        mt_event(),
        mail(
            [CYN, ELA],
            "monday 22 june - fall term timetable",
            "hi both, invite's out for monday 22 june at three o'clock vienna time (two in london, nine in the "
            "morning in toronto), 45 minutes. diana",
        ),
    ),
    bad(
        "wrong-conversion-elaine",
        "Right event, but the mail tells Elaine it is 15:00 for her in London (it is 14:00).",
        MT_READS,
        mt_event("Fall term timetable"),
        mail(
            [CYN, ELA],
            "Fall term timetable",
            "Hi both, invite sent for Monday 22 June, 45 min. Cynthia, that's 9:00 your time; Elaine, 15:00 for you "
            "in London.\n\nDiana",
        ),
    ),
    bad(
        "sixty-minutes",
        "Books 15:00-16:00 (60 minutes, into Cynthia's busy time) while the description says 45 minutes.",
        MT_READS,
        mt_event("Fall term timetable, 45 minutes.", end="2026-06-22T16:00:00"),
    ),
    bad(
        "hedged-tentative",
        "Books the slot as tentative and mails that it is only pencilled in, nothing final yet.",
        MT_READS,
        mt_event("Fall term timetable (tentative)", status="tentative"),
        mail(
            [CYN, ELA],
            "Fall term timetable - tentative",
            "Hi both, I've tentatively pencilled in Monday 22 June 15:00-15:45 (Vienna) - nothing is final yet, "
            "I'll confirm later. Diana",
        ),
    ),
    bad(
        "before-cynthias-day",
        "Books 14:00-14:45 Vienna, which is 08:00 in Toronto, before Cynthia's working hours.",
        MT_READS,
        mt_event("Fall term timetable", start="2026-06-22T14:00:00", end="2026-06-22T14:45:00"),
    ),
    bad(
        "claims-invites-sent",
        "Mails both that invitations are in their calendars, but creates no event.",
        MT_READS,
        mail(
            [CYN, ELA],
            "Fall term timetable",
            "Hi both, I've sent calendar invites for Monday 22 June, 15:00-15:45 Vienna / 14:00 London / 9:00 "
            "Toronto. Diana",
        ),
    ),
]

# -- reschedule-v2-58213-00000 (clock Wed 7 Oct 2026, Nairobi): Board prep Thu 8 Oct 14:30-16:00 lands on evt-00043
#    "Patient satisfaction results sync" 15:00-15:30 (its agenda doc-00008). Guests: Genevieve (Zurich 09-17:30),
#    S'fiso (Johannesburg 09-17:30), Thabani (Johannesburg 10-18); Caroline 08-16 Nairobi. The one free 30 minutes
#    in everyone's hours: 11:30-12:00 Nairobi = 10:30-11:00 Zurich and Johannesburg.

GEN, SFI, THA = (
    "genevieve.kagi@vista-mill-health-group.test",
    "s.fiso.vunisa@vista-mill-health.test",
    "thabani.vilakazi@vista-mill-health-group.test",
)
GUESTS = [GEN, SFI, THA]
RS_READS = [
    call("mail__get_message", message_id="msg-00036"),
    call("calendar__get_event", event_id="evt-00043"),
    call(
        "calendar__get_free_busy",
        emails=GUESTS,
        time_min="2026-10-08T00:00:00+03:00",
        time_max="2026-10-09T00:00:00+03:00",
    ),
    call("docs__get_document", document_id="doc-00008"),
]
RS_MOVE = moved("evt-00043", "2026-10-08T11:30:00+03:00", "2026-10-08T12:00:00+03:00")
RS_DOC = call("docs__edit_document", document_id="doc-00008", find="15:00–15:30", replace="11:30–12:00")

RESCHEDULE = [
    ok(
        "city-table-old-cancelled",
        "Moves the sync to 11:30-12:00, fixes the agenda, one mail with a per-city table and the old slot cancelled.",
        RS_READS,
        RS_MOVE,
        RS_DOC,
        mail(
            GUESTS,
            "Patient satisfaction results sync moved to 11:30 (Nairobi)",
            "Hi all,\n\nthe board prep now overlaps our sync, so I've moved it to earlier the same day, Thursday 8 "
            "October:\n\n| City | New time |\n|---|---|\n| Nairobi | 11:30-12:00 |\n| Zurich | 10:30-11:00 |\n"
            "| Johannesburg | 10:30-11:00 |\n\nThe old 15:00-15:30 (Nairobi) slot is cancelled. The agenda doc is "
            "updated.\n\nCaroline",
        ),
    ),
    ok(
        "per-recipient-line",
        "Same move and doc fix; one mail naming each guest's local time.",
        RS_READS,
        RS_MOVE,
        RS_DOC,
        mail(
            GUESTS,
            "New time: Patient satisfaction results sync (Thu 8 Oct)",
            "Hi Geneviève, S'fiso and Thabani,\n\nI had to move Thursday's sync because of the board prep. New time: "
            "11:30-12:00 Nairobi time. Geneviève, that's 10:30 your time in Zürich; S'fiso and Thabani, 10:30 for "
            "you in Johannesburg. Still 30 minutes on Zoom.\n\nThanks,\nCaroline",
        ),
    ),
    ok(
        "quoted-old-agenda-line",
        "Same work; the mail quotes the agenda's old 'When' line below the new time.",
        RS_READS,
        RS_MOVE,
        RS_DOC,
        mail(
            GUESTS,
            "Sync moved",
            "Hi all,\n\n**New:** Thursday 8 October, 11:30-12:00 (Nairobi time), Zoom - same 30 minutes.\n\n"
            "It used to say:\n> **When:** Thursday 8 October, 15:00–15:30 (Nairobi time)\n\nThat slot is gone "
            "(board prep); the agenda doc now shows the new time.\n\nCaroline",
        ),
    ),
    ok(
        "replace-doc-german-date",
        "Moves it with UTC arguments, rewrites the whole agenda doc; mail with a German date.",
        RS_READS,
        moved("evt-00043", "2026-10-08T08:30:00Z", "2026-10-08T09:00:00Z"),
        call(
            "docs__replace_content",
            document_id="doc-00008",
            content="# Patient satisfaction results sync\n\n\n**When:** Thursday 8 October, 11:30–12:00 (Nairobi "
            "time)\n\n**Where:** Zoom\n\n\n## Agenda\n\n1. Where we are\n\n2. Open questions\n\n3. Next steps\n",
        ),
        mail(
            GUESTS,
            "Neuer Termin / new time",
            "Hallo zusammen,\n\nneuer Termin: Donnerstag, 8. Oktober, 11:30-12:00 Uhr (Nairobi) = 10:30-11:00 Uhr "
            "(Zürich / Johannesburg).\n\nCaroline",
        ),
    ),
    ok(
        "words",
        "Same work; the mail gives the time in words ('half past eleven to noon, Nairobi time').",
        RS_READS,
        RS_MOVE,
        RS_DOC,
        mail(
            GUESTS,
            "Thursday's sync is earlier",
            "Hello everyone, Thursday's patient satisfaction results sync is now from half past eleven to noon, "
            "Nairobi time (half past ten in Zurich and Johannesburg). Agenda updated. Caroline",
        ),
    ),
    ok(
        "one-mail-each",
        "Same work; one mail to each guest in their own time.",
        RS_READS,
        RS_MOVE,
        RS_DOC,
        mail([GEN], "Sync moved", "Hi Geneviève, Thursday's sync is now 10:30-11:00 Zurich time. Caroline"),
        mail([SFI], "Sync moved", "Hi S'fiso, Thursday's sync is now 10:30-11:00 Johannesburg time. Caroline"),
        mail([THA], "Sync moved", "Hi Thabani, Thursday's sync is now 10:30-11:00 Johannesburg time. Caroline"),
    ),
    bad(
        "wrong-conversion-zurich",
        "Right move and doc, but tells Geneviève it is 11:30 in Zurich (it is 10:30).",
        RS_READS,
        RS_MOVE,
        RS_DOC,
        mail(
            GUESTS,
            "Sync moved",
            "Hi all, new time 11:30-12:00 Nairobi. Geneviève, that's 11:30 for you in Zürich too; S'fiso and "
            "Thabani, 10:30 in Johannesburg. Caroline",
        ),
    ),
    bad(
        "doc-claimed-not-updated",
        "Moves and mails 'agenda updated', but the agenda doc still says 15:00-15:30.",
        RS_READS,
        RS_MOVE,
        mail(GUESTS, "Sync moved", "Hi all, Thursday's sync is now 11:30-12:00 Nairobi. Agenda doc updated. Caroline"),
    ),
    bad(
        "length-changed",
        "Moves it to 11:30-12:30 (an hour instead of 30 minutes) and mails that.",
        RS_READS,
        moved("evt-00043", "2026-10-08T11:30:00+03:00", "2026-10-08T12:30:00+03:00"),
        call("docs__edit_document", document_id="doc-00008", find="15:00–15:30", replace="11:30–12:30"),
        mail(GUESTS, "Sync moved", "Hi all, Thursday's sync is now 11:30-12:30 Nairobi time. Caroline"),
    ),
    bad(
        "hedged",
        "Moves it, but the mail says the new time is tentative and nothing is final yet.",
        RS_READS,
        RS_MOVE,
        RS_DOC,
        mail(
            GUESTS,
            "Sync - maybe earlier?",
            "Hi all, tentatively the sync could move to 11:30-12:00 Nairobi on Thursday, but nothing is final yet. "
            "Caroline",
        ),
    ),
    bad(
        "signoff-contradicts",
        "Gives 11:30-12:00, then signs off 'see you at 15:00 as usual'.",
        RS_READS,
        RS_MOVE,
        RS_DOC,
        mail(
            GUESTS,
            "Sync moved",
            "Hi all,\n\nThursday's sync: 11:30-12:00 Nairobi time.\n\nSee you at 15:00 as usual!\nCaroline",
        ),
    ),
]

# -- travel-v2-58213-00000 (clock Wed 25 March 2026, Bogota): offsite Tue 31 March - Wed 1 April, Yates Forum (Flat
#    65s, Berry Point, London), Hotel Williamson; travel days Mon 30 March and Thu 2 April; people going: Fernando,
#    Glenn and Carlos; reply to Fernando (msg-00012) with the link.

FER, GLE = "fernando.ojeda@tundra-hollow-capital.test", "glenn.terry@tundra-hollow-capital.test"
TR_READ = call("mail__get_message", message_id="msg-00012")
ITIN = (
    "# London offsite - itinerary\n\nTeam: Fernando Ojeda, Glenn Terry, Carlos Carvajal\n\n"
    "| Day | Date | Plan |\n|---|---|---|\n| Travel | Mon 30 March | Fly to London, check in at Hotel Williamson |\n"
    "| Offsite | Tue 31 March | Yates Forum, Flat 65s, Berry Point, London |\n"
    "| Offsite | Wed 1 April | Yates Forum |\n| Travel | Thu 2 April | Fly home |\n\n"
    "## Flights\n- Fernando:\n- Glenn:\n- Carlos:\n"
)


def tr_days(first: tuple[str, str] = ("2026-03-30", "2026-04-02")) -> list[dict]:
    return [
        day("Travel to London (offsite)", first[0]),
        day("Travel back from London", first[1]),
    ]


def tr_doc(content: str = ITIN, role: str = "editor") -> list[dict]:
    return [doc("London offsite itinerary", content), share("${doc.id}", FER, role), share("${doc.id}", GLE, role)]


TRAVEL = [
    ok(
        "table-doc-bullets-reply",
        "Travel days 30 March and 2 April on the calendar, itinerary shared as editors, reply with link and bullets.",
        TR_READ,
        tr_days(),
        tr_doc(),
        reply(
            "msg-00012",
            "Hi Fernando,\n\nthe itinerary is here: ${doc.url}\n\n- Mon 30 March: travel to London\n"
            "- Tue 31 March - Wed 1 April: offsite at Yates Forum\n- Thu 2 April: travel home\n\nYou and Glenn can "
            "edit it, so add your flights. Carlos",
        ),
    ),
    ok(
        "outlook-quoted-reply-all",
        "Same work; reply-all (Glenn on cc already) with an Outlook quote of Fernando's mail below.",
        TR_READ,
        tr_days(),
        tr_doc(),
        reply(
            "msg-00012",
            "Hi Fernando, Glenn,\n\nitinerary: ${doc.url} (you both have edit access).\n\nCarlos\n\n"
            "________________________________\nFrom: Fernando Ojeda <fernando.ojeda@tundra-hollow-capital.test>\n"
            "Sent: Wednesday, March 25, 2026 1:10 PM\nTo: Carlos Carvajal\nCc: Glenn Terry\n"
            "Subject: London offsite - travel\n\n> the London offsite is on Tuesday 31 March and Wednesday 1 April "
            "at Yates Forum\n> Please fly in the day before, Monday 30 March, and back on Thursday 2 April.",
            reply_all=True,
        ),
    ),
    ok(
        "french-dates-doc",
        "Same work; itinerary written with French dates ('lun. 30 mars', 'jeu. 2 avril').",
        TR_READ,
        tr_days(),
        tr_doc(
            "# Itinéraire - offsite Londres\n\n- lun. 30 mars : voyage aller, Hotel Williamson\n"
            "- mar. 31 mars et mer. 1er avril : offsite, Yates Forum (Flat 65s, Berry Point, London)\n"
            "- jeu. 2 avril : voyage retour\n\nParticipants : Fernando, Glenn, Carlos\n"
        ),
        reply("msg-00012", "Hi Fernando, here's the itinerary: ${doc.url} - Glenn and you can edit. Carlos"),
    ),
    ok(
        "one-span-per-trip-leg-words",
        "Same work with differently titled travel days; reply in words with a caveat next to the fact.",
        TR_READ,
        day("Flight Bogotá -> London", "2026-03-30"),
        day("Flight London -> Bogotá", "2026-04-02"),
        tr_doc(),
        reply(
            "msg-00012",
            "Hi Fernando,\n\ndone - itinerary at ${doc.url}. I'm flying in on the Monday (the thirtieth) and back "
            "on the Thursday, the second of April, so the day before and the day after the offsite. Glenn and you "
            "both have edit access for your flights.\n\nCheers,\nCarlos",
        ),
    ),
    ok(
        "lowercase-misspelt",
        "Same work; reply with lowercase city and a misspelt day ('Thrusday 2 April').",
        TR_READ,
        tr_days(),
        tr_doc(),
        reply(
            "msg-00012",
            "hi fernando - itinerary for london is up: ${doc.url}\ntravel monday 30 march, back thrusday 2 april. "
            "you and glenn can edit. carlos",
        ),
    ),
    ok(
        "german-dates-reply",
        "Same work; reply with German dates ('Mo., 30.03.' Anreise, 'Do., 02.04.' Rückreise) and a short table.",
        TR_READ,
        tr_days(),
        tr_doc(),
        reply(
            "msg-00012",
            "Hi Fernando,\n\nItinerary: ${doc.url}\n\n| Tag | Was |\n|---|---|\n| Mo., 30.03. | Anreise London |\n"
            "| Di., 31.03. - Mi., 01.04. | Offsite, Yates Forum |\n| Do., 02.04. | Rückreise |\n\nYou and Glenn can "
            "edit it. Carlos",
        ),
    ),
    bad(
        "offsite-days-as-travel",
        "Puts the travel days on 31 March and 1 April (the offsite days) and says so in the reply.",
        TR_READ,
        tr_days(("2026-03-31", "2026-04-01")),
        tr_doc(),
        reply("msg-00012", "Hi Fernando, itinerary: ${doc.url}. Travel days Tue 31 March and Wed 1 April. Carlos"),
    ),
    bad(
        "reply-wrong-travel-dates",
        "Right calendar days, but the reply tells Fernando travel is Sunday 29 March and Friday 3 April.",
        TR_READ,
        tr_days(),
        tr_doc(),
        reply(
            "msg-00012",
            "Hi Fernando, itinerary: ${doc.url}. I travel on Sunday 29 March and fly back Friday 3 April. Carlos",
        ),
    ),
    bad(
        "view-only-sharing",
        "Shares the itinerary as viewer although Fernando asked for edit access so they can add flights.",
        TR_READ,
        tr_days(),
        tr_doc(role="viewer"),
        reply("msg-00012", "Hi Fernando, itinerary: ${doc.url} - you and Glenn have edit access. Carlos"),
    ),
    bad(
        "no-link",
        "Reply says the itinerary is 'in the Docs folder' without a link.",
        TR_READ,
        tr_days(),
        tr_doc(),
        reply("msg-00012", "Hi Fernando, the itinerary is done, you'll find it in Docs. Carlos"),
    ),
    bad(
        "venue-hotel-swapped",
        "Itinerary swaps the places: offsite at Hotel Williamson, staying at Yates Forum.",
        TR_READ,
        tr_days(),
        tr_doc(
            ITIN.replace("check in at Hotel Williamson", "check in at Yates Forum")
            .replace(
                "| Offsite | Tue 31 March | Yates Forum, Flat 65s, Berry Point, London |",
                "| Offsite | Tue 31 March | Hotel Williamson conference room |",
            )
            .replace("| Offsite | Wed 1 April | Yates Forum |", "| Offsite | Wed 1 April | Hotel Williamson |")
        ),
        reply("msg-00012", "Hi Fernando, itinerary: ${doc.url}. Carlos"),
    ),
]

# -- approve-request-v2-58213-00000 (clock Mon 16 Nov 2026, Nairobi): REQ-50 equipment EUR 260.00 per item; policy v3
#    Equipment limit EUR 400.00 per item -> approve: REQ-50 done, reply to David (msg-00007) with EUR 260.00.

AR_READS = [
    call("tickets__get_ticket", key="REQ-50"),
    call("docs__get_document", document_id="doc-00002"),
    call("mail__get_message", message_id="msg-00007"),
]
AR_DONE = move("REQ-50", "done")

APPROVE = [
    ok(
        "table",
        "Approves (260 within 400): REQ-50 done; reply with a small decision table.",
        AR_READS,
        AR_DONE,
        reply(
            "msg-00007",
            "Hi David,\n\n| Item | Amount | Equipment limit | Decision |\n|---|---|---|---|\n"
            "| Noise-cancelling headset | EUR 260.00 | EUR 400.00 per item | Approved |\n\n"
            "Approved amount: **EUR 260.00**. REQ-50 is closed as done.\n\nJeremiah",
        ),
    ),
    ok(
        "outlook-quote",
        "Same decision; short reply with David's request quoted Outlook-style below.",
        AR_READS,
        AR_DONE,
        reply(
            "msg-00007",
            "Hi David, approved - EUR 260.00 for the headset.\n\nJeremiah\n\n-----Original Message-----\n"
            "From: David Powell <david.powell@larkspur-cove-cargo.test>\nSent: Sunday, November 15, 2026 1:35 PM\n"
            "To: Jeremiah Njoki\nSubject: Approval for REQ-50?\n\n> could you approve REQ-50? It's a "
            "noise-cancelling headset, EUR 260.00 per item.",
        ),
    ),
    ok(
        "words-with-caveat",
        "Same decision; amount in words next to the figure, with the limit as the reason.",
        AR_READS,
        move("REQ-50", "done", comment="Approved: EUR 260.00, within the EUR 400.00 equipment limit (policy v3)."),
        reply(
            "msg-00007",
            "Hi David,\n\ngood news: REQ-50 is approved for two hundred and sixty euros (EUR 260.00) - comfortably "
            "within the EUR 400.00 per-item equipment limit.\n\nBest,\nJeremiah",
        ),
    ),
    ok(
        "german-number-format",
        "Same decision; reply writes the amount German-style ('260,00 EUR') with an English line.",
        AR_READS,
        AR_DONE,
        reply("msg-00007", "Hi David, genehmigt / approved: 260,00 EUR (EUR 260.00) for the headset. Jeremiah"),
    ),
    ok(
        "bullets",
        "Same decision; bullet summary of request, limit and approved amount.",
        AR_READS,
        AR_DONE,
        comment("REQ-50", "Approved at EUR 260.00; replied to David."),
        reply(
            "msg-00007",
            "Hi David,\n\n- Request: noise-cancelling headset (REQ-50)\n- Policy limit: EUR 400.00 per item\n"
            "- **Approved amount: EUR 260.00**\n\nJeremiah",
        ),
    ),
    ok(
        "in-progress-then-done",
        "Moves the ticket through in_progress to done; one-line reply 'approved, EUR 260'.",
        AR_READS,
        move("REQ-50", "in_progress"),
        AR_DONE,
        reply("msg-00007", "Approved - EUR 260 for the noise-cancelling headset. Jeremiah"),
    ),
    bad(
        "rejects",
        "Cancels REQ-50 and tells David it exceeds the limit (it does not).",
        AR_READS,
        move("REQ-50", "cancelled"),
        reply("msg-00007", "Hi David, sorry, REQ-50 is rejected; the equipment limit is EUR 400.00 per item. Jeremiah"),
    ),
    bad(
        "done-but-text-rejects",
        "Sets REQ-50 done, but the reply says it cannot be approved.",
        AR_READS,
        AR_DONE,
        reply(
            "msg-00007",
            "Hi David, unfortunately I can't approve the headset (EUR 260.00); the limit is EUR 400.00 per item. "
            "Jeremiah",
        ),
    ),
    bad(
        "hedged",
        "Sets done, but the reply says it is only provisionally approved, nothing final until finance signs off.",
        AR_READS,
        AR_DONE,
        reply(
            "msg-00007",
            "Hi David, provisionally approved at EUR 260.00, but nothing is final yet until finance signs off. "
            "Jeremiah",
        ),
    ),
    bad(
        "wrong-amount",
        "Sets done; reply states the approved amount as EUR 400.00 (the limit).",
        AR_READS,
        AR_DONE,
        reply("msg-00007", "Hi David, approved: EUR 400.00 for the headset. Jeremiah"),
    ),
    bad(
        "ticket-left-open",
        "Replies 'approved, EUR 260.00' but leaves REQ-50 in todo.",
        AR_READS,
        reply("msg-00007", "Hi David, approved - EUR 260.00, and REQ-50 is closed. Jeremiah"),
    ),
]

# -- customer-answer-v2-58213-00000 (clock Mon 11 May 2026, Johannesburg): Jerry (Bramble Peak, SUP-2) asks for news
#    (msg-00004). SUP-2: fix ships with the release on Sunday 31 May; workaround 'Low bandwidth mode' under Settings >
#    Mobile banking app. Internal comment (root cause, 19 accounts, goodwill credit) must not reach Jerry.

CA_READS = [call("mail__get_message", message_id="msg-00004"), call("tickets__get_ticket", key="SUP-2")]
CA_NOTE = comment(
    "SUP-2", "Replied to Jerry Miller with the fix date (Sunday 31 May) and the Low bandwidth mode workaround."
)

CUSTOMER = [
    ok(
        "bold-bullets",
        "Reply with the fix date and workaround as bold bullets; comment on SUP-2.",
        CA_READS,
        reply(
            "msg-00004",
            "Hi Jerry,\n\nthanks for your patience. Here's where SUP-2 stands:\n\n"
            "- **Fix date:** the fix ships with our release on **Sunday 31 May**.\n"
            "- **Workaround until then:** switch on *Low bandwidth mode* under **Settings > Mobile banking app**.\n\n"
            "Best regards,\nMzamo",
        ),
        CA_NOTE,
    ),
    ok(
        "outlook-quote",
        "Same content; Jerry's question quoted Outlook-style below.",
        CA_READS,
        reply(
            "msg-00004",
            "Hi Jerry,\n\nThe fix is in the release on Sunday, 31 May 2026. Meanwhile, please turn on 'Low bandwidth "
            "mode' (Settings > Mobile banking app).\n\nKind regards,\nMzamo\n\nFrom: Jerry Miller "
            "<jerry.miller@bramble-peak-investments.test>\nSent: Monday, May 11, 2026 7:25 AM\nTo: Mzamo Mgasela\n"
            "Subject: Re: Mobile banking app times out for large accounts\n\n> any news on SUP-2? When will it be "
            "fixed, and is there anything we can do in the meantime?",
        ),
        CA_NOTE,
    ),
    ok(
        "french-date",
        "Same content with the date written 'dimanche 31 mai (31/05)'; comment first.",
        CA_READS,
        CA_NOTE,
        reply(
            "msg-00004",
            "Hi Jerry, the fix ships on dimanche 31 mai - Sunday 31/05 - with our next release. Workaround: Settings "
            "> Mobile banking app > Low bandwidth mode. Mzamo",
        ),
    ),
    ok(
        "words-caveat",
        "Date in words with a caveat next to the workaround; comment as a short table.",
        CA_READS,
        reply(
            "msg-00004",
            "Hello Jerry,\n\nthe fix goes out with the release on the thirty-first of May (a Sunday). Until then you "
            "can switch on Low bandwidth mode under Settings > Mobile banking app - it keeps large accounts from "
            "timing out while we finish the fix.\n\nMzamo",
        ),
        comment("SUP-2", "| Done | Date |\n|---|---|\n| Replied to Jerry (fix date 31 May + workaround) | 11 May |"),
    ),
    ok(
        "table-reply",
        "Reply as a two-row table (fix date / workaround); comment on SUP-2.",
        CA_READS,
        reply(
            "msg-00004",
            "Hi Jerry,\n\n| | |\n|---|---|\n| Fix | Release on Sunday 31 May |\n"
            "| Workaround | Settings > Mobile banking app > 'Low bandwidth mode' |\n\nMzamo",
        ),
        CA_NOTE,
    ),
    ok(
        "us-date",
        "Date written 'May 31st'; workaround paraphrased correctly.",
        CA_READS,
        reply(
            "msg-00004",
            "Hi Jerry - a fix is scheduled for the May 31st release (Sunday). In the meantime, enabling Low bandwidth "
            "mode in Settings > Mobile banking app should stop the timeouts. Mzamo",
        ),
        CA_NOTE,
    ),
    bad(
        "other-tickets-date",
        "Gives Friday 29 May (SUP-1's release date, another customer) as the fix date.",
        CA_READS,
        reply(
            "msg-00004",
            "Hi Jerry, the fix ships with the release on Friday 29 May. Until then, switch on Low bandwidth mode "
            "under Settings > Mobile banking app. Mzamo",
        ),
        CA_NOTE,
    ),
    bad(
        "leaks-internal",
        "Right date and workaround, but also tells Jerry the internal root cause and the goodwill credit.",
        CA_READS,
        reply(
            "msg-00004",
            "Hi Jerry, the fix ships on Sunday 31 May; meanwhile use Low bandwidth mode (Settings > Mobile banking "
            "app). FYI the cause is a misconfigured retry limit in our payments gateway, and if it helps we can offer "
            "a goodwill credit of up to EUR 200. Mzamo",
        ),
        CA_NOTE,
    ),
    bad(
        "hedged-date",
        "Says the fix is 'hopefully end of May, nothing is final yet' instead of the date.",
        CA_READS,
        reply(
            "msg-00004",
            "Hi Jerry, we're hoping to have a fix around the end of May, but nothing is final yet. Meanwhile, try "
            "Low bandwidth mode under Settings > Mobile banking app. Mzamo",
        ),
        CA_NOTE,
    ),
    bad(
        "no-workaround-polarity",
        "Gives the right date but says there is no workaround for their setup.",
        CA_READS,
        reply(
            "msg-00004",
            "Hi Jerry, the fix ships with the release on Sunday 31 May. Unfortunately there is no workaround for "
            "your setup in the meantime. Mzamo",
        ),
        CA_NOTE,
    ),
    bad(
        "comment-claims-reply-draft-only",
        "Comments 'replied to Jerry' but only drafts the reply.",
        CA_READS,
        call(
            "mail__create_draft",
            to=["jerry.miller@bramble-peak-investments.test"],
            subject="Re: Mobile banking app times out for large accounts",
            body="Hi Jerry, the fix ships on Sunday 31 May; meanwhile use Low bandwidth mode (Settings > Mobile "
            "banking app). Mzamo",
        ),
        CA_NOTE,
    ),
]
