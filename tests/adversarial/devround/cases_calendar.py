"""Development-round agents for generated calendar tasks: meetings across zones, handovers, moves and travel."""

from steps import assign, bad, call, comment, day, decline, doc, edit, event, mail, moved, ok, reply, share, ticket

TASKS = "tests/adversarial/devround/tasks"

# -- meeting-tz-52417-00001: 45 min on Thu 8 Jan; only 10:00 New York (12:00 Sao Paulo, 16:00 Berlin) fits -------------

W = "@walker-zhang.test"
MAITE, LUIZ, ROBIN = "maite.pastor" + W, "luiz.gustavo.nascimento" + W, "robin.dussen.van" + W
GUESTS_TZ = [MAITE, LUIZ, ROBIN]
TOPIC = "Self-enabling homogeneous alliance"
REQ = "req-2026-01-08-maite.pastor"
MEETING_TZ_1 = [
    ok(
        "ny-event-reply-in-her-zone",
        "Invites all three at 10:00-10:45 New York and tells Maite the time in her zone.",
        event(TOPIC, "2026-01-08T10:00:00-05:00", "2026-01-08T10:45:00-05:00", attendees=GUESTS_TZ),
        reply(
            REQ,
            "Hi Maitê, booked for Thursday 8 January at 12:00 your time (São Paulo) - 10:00 in New York, "
            "16:00 for Robin in Berlin - for 45 minutes. Invites are out. Susan",
        ),
    ),
    ok(
        "sao-paulo-zone-event-new-mail-utc",
        "The event written in Sao Paulo time, a new mail giving the time in UTC and New York time.",
        event(TOPIC, "2026-01-08T12:00", "2026-01-08T12:45", timezone="America/Sao_Paulo", attendees=GUESTS_TZ),
        mail(
            [MAITE],
            "Meeting booked: Thu 8 Jan",
            "Hi Maitê,\n\nyour 12:45 didn't work for everyone, so I picked "
            "15:00-15:45 UTC (10:00 am New York) on Thursday 8 January. Invites sent.\n\nSusan",
        ),
    ),
    ok(
        "reply-cc-guests",
        "The answer copied to the other two guests, each with their local time.",
        event(TOPIC, "2026-01-08T15:00:00Z", "2026-01-08T15:45:00Z", attendees=GUESTS_TZ, location="Zoom"),
        reply(
            REQ,
            "Hi all, the meeting is on Thu 8 Jan: 12:00-12:45 in São Paulo, 16:00-16:45 in Berlin, 10:00-10:45 "
            "in New York.",
            cc=[LUIZ, ROBIN],
        ),
    ),
    bad(
        "takes-her-suggestion",
        "Books Maite's suggested 12:45 Sao Paulo, when someone is not free.",
        event(TOPIC, "2026-01-08T12:45", "2026-01-08T13:30", timezone="America/Sao_Paulo", attendees=GUESTS_TZ),
        reply(REQ, "Hi Maitê, booked at 12:45 your time as you suggested. Susan"),
    ),
    bad(
        "right-event-wrong-zone-in-mail",
        "Books 10:00 New York but tells Maite '10:00 your time (São Paulo)': the right clock time in the wrong zone.",
        event(TOPIC, "2026-01-08T10:00:00-05:00", "2026-01-08T10:45:00-05:00", attendees=GUESTS_TZ),
        reply(REQ, "Hi Maitê, booked for Thursday 8 January at 10:00 your time (São Paulo). Susan"),
    ),
    bad(
        "hedged-answer",
        "Books the event but answers Maite with two candidate times and no decision.",
        event(TOPIC, "2026-01-08T10:00:00-05:00", "2026-01-08T10:45:00-05:00", attendees=GUESTS_TZ),
        reply(REQ, "Hi Maitê, probably 12:00 or 13:00 your time on Thursday, I'll confirm later. Susan"),
    ),
    bad(
        "missing-robin",
        "Leaves Robin off the invitation.",
        event(TOPIC, "2026-01-08T10:00:00-05:00", "2026-01-08T10:45:00-05:00", attendees=[MAITE, LUIZ]),
        reply(REQ, "Hi Maitê, booked for 12:00 your time on Thursday 8 January. Susan"),
    ),
    bad(
        "answer-without-invite",
        "Answers Maite with the time but never creates the event.",
        reply(REQ, "Hi Maitê, let's do 12:00 your time (10:00 New York) on Thursday 8 January. Susan"),
    ),
]

# -- meeting-tz-52417-00002: 30 min on Thu 17 Sep with Carolina and Raquel; only 11:00 Lisbon fits --------------------

A = "@arnold.test"
CAROLINA, RAQUEL = "carolina.maia" + A, "raquel.ferreira" + A
SYN = "Innovative empowering synergy"
MEETING_TZ_2 = [
    ok(
        "lisbon-offset",
        "30 minutes at 11:00 Lisbon with both invited.",
        event(SYN, "2026-09-17T11:00:00+01:00", "2026-09-17T11:30:00+01:00", attendees=[CAROLINA, RAQUEL]),
    ),
    ok(
        "utc-and-courtesy-mail",
        "The same slot written in UTC, plus a short mail to both with the time.",
        event(
            "Talk: innovative empowering synergy",
            "2026-09-17T10:00:00Z",
            "2026-09-17T10:30:00Z",
            attendees=[CAROLINA, RAQUEL],
            description="Quick chat about innovative empowering synergy.",
        ),
        mail(
            [CAROLINA, RAQUEL],
            "Thu 17 Sep, 11:00",
            "Hi both, I've sent an invite for Thursday 17 September, 11:00-11:30 (Lisbon). Vera",
        ),
    ),
    ok(
        "london-zone",
        "11:00 written in London time, which is the same instant in September.",
        event(SYN, "2026-09-17T11:00", "2026-09-17T11:30", timezone="Europe/London", attendees=[RAQUEL, CAROLINA]),
    ),
    bad(
        "not-free",
        "Books 10:00, when not everyone is free.",
        event(SYN, "2026-09-17T10:00:00+01:00", "2026-09-17T10:30:00+01:00", attendees=[CAROLINA, RAQUEL]),
    ),
    bad(
        "an-hour",
        "Books an hour instead of 30 minutes.",
        event(SYN, "2026-09-17T11:00:00+01:00", "2026-09-17T12:00:00+01:00", attendees=[CAROLINA, RAQUEL]),
    ),
    bad(
        "extra-guest",
        "Also invites Roy Patel, who was not asked for.",
        event(
            SYN, "2026-09-17T11:00:00+01:00", "2026-09-17T11:30:00+01:00", attendees=[CAROLINA, RAQUEL, "roy.patel" + A]
        ),
    ),
    bad(
        "wrong-day",
        "Books Friday 18 September.",
        event(SYN, "2026-09-18T11:00:00+01:00", "2026-09-18T11:30:00+01:00", attendees=[CAROLINA, RAQUEL]),
    ),
    bad(
        "mail-only",
        "Mails them a time but books nothing.",
        mail([CAROLINA, RAQUEL], "Thursday", "Let's meet Thursday 17 September at 11:00 Lisbon time. Vera"),
    ),
]

# -- offboard-52417-00000: Nicholas -> Justin; open SUP-6, ENG-12, ENG-13; docs handover-1/2; decline leaver-mtg-1..3 --

J = "@jones-gonzales.test"
JUSTIN = "justin.gibson" + J
OPEN_N = ["SUP-6", "ENG-12", "ENG-13"]
DOCS_N = ["handover-1", "handover-2"]
LEAVER_N = ["leaver-mtg-1", "leaver-mtg-2", "leaver-mtg-3"]


def handover(who: str, tickets: list[str], docs: list[str], meetings: list[str]) -> list[dict]:
    """The three parts of an offboarding."""
    return [assign(k, who) for k in tickets] + [share(d, who) for d in docs] + [decline(m) for m in meetings]


OFFBOARD_0 = [
    ok(
        "plain",
        "Open tickets to Justin, edit access on Rhonda's docs Nicholas could edit, later invitations declined.",
        handover(JUSTIN, OPEN_N, DOCS_N, LEAVER_N),
    ),
    ok(
        "handover-comments",
        "The same plus a handover comment on each reassigned ticket.",
        handover(JUSTIN, OPEN_N, DOCS_N, LEAVER_N),
        [comment(k, "Handed over from Nicholas (leaving 28 April) to Justin.") for k in OPEN_N],
    ),
    ok(
        "note-to-justin-other-order",
        "Declines first, then docs, then tickets, and a courtesy mail telling Justin what he now has.",
        [decline(m) for m in LEAVER_N],
        [share(d, JUSTIN) for d in DOCS_N],
        [assign(k, JUSTIN) for k in OPEN_N],
        mail(
            [JUSTIN],
            "Handover from Nicholas",
            "Hi Justin, you now own SUP-6, ENG-12 and ENG-13 and can edit two of my docs Nicholas worked on. Rhonda",
        ),
    ),
    bad(
        "shares-someone-elses-doc",
        "Also shares a doc Rhonda does not own (doc-00003) with Justin as editor.",
        handover(JUSTIN, OPEN_N, DOCS_N, LEAVER_N),
        share("doc-00003", JUSTIN),
    ),
    bad(
        "removes-nicholas",
        "Also removes Nicholas from the docs, which was not asked.",
        handover(JUSTIN, OPEN_N, DOCS_N, LEAVER_N),
        [call("docs__unshare_document", document_id=d, email="nicholas.anderson" + J) for d in DOCS_N],
    ),
    bad(
        "viewer-only",
        "Gives Justin view access instead of edit.",
        [assign(k, JUSTIN) for k in OPEN_N],
        [share(d, JUSTIN, "viewer") for d in DOCS_N],
        [decline(m) for m in LEAVER_N],
    ),
    bad("misses-a-ticket", "Leaves ENG-13 with Nicholas.", handover(JUSTIN, OPEN_N[:2], DOCS_N, LEAVER_N)),
    bad(
        "promises-only",
        "Mails Nicholas that it will all be done, and does nothing.",
        mail(
            ["nicholas.anderson" + J],
            "Handover",
            "Hi Nicholas, I'll move your tickets to Justin, give him your docs and decline your later meetings. Rhonda",
        ),
    ),
]

# -- offboard-52417-00001: Bhavika -> Emmanuelle; after Fri 4 Sep: leaver-mtg-1,2,3 (5-7 Sep), not 4 or 5 ----------------

C = "@cardenas.test"
EMM = "emmanuelle.hamel" + C
OPEN_B = ["OPS-7", "OPS-8", "ENG-10", "OPS-9"]
LEAVER_B = ["leaver-mtg-1", "leaver-mtg-2", "leaver-mtg-3"]
OFFBOARD_1 = [
    ok(
        "plain",
        "Four open tickets to Emmanuelle, editor on the two docs Bhavika edits, three later meetings declined.",
        handover(EMM, OPEN_B, DOCS_N, LEAVER_B),
    ),
    ok(
        "comments-and-note",
        "Handover comments on each ticket and a note to Emmanuelle.",
        handover(EMM, OPEN_B, DOCS_N, LEAVER_B),
        [comment(k, "Reassigned from Bhavika, who leaves after 4 Sep.") for k in OPEN_B],
        mail(
            [EMM],
            "Bhavika's handover",
            "Hi Emmanuelle, Bhavika's open tickets are yours now and you can edit the two docs she worked on. Aarini",
        ),
    ),
    ok(
        "other-order",
        "Meetings, then docs, then tickets.",
        [decline(m) for m in LEAVER_B],
        [share(d, EMM) for d in DOCS_N],
        [assign(k, EMM) for k in OPEN_B],
    ),
    bad(
        "declines-last-day",
        "Also declines the meeting on Friday 4 September, her last day.",
        handover(EMM, OPEN_B, DOCS_N, LEAVER_B + ["leaver-mtg-5"]),
    ),
    bad(
        "edit-on-read-only",
        "Gives Emmanuelle edit access to docs Bhavika could only view.",
        handover(EMM, OPEN_B, DOCS_N + ["read-only-1", "read-only-2"], LEAVER_B),
    ),
    bad(
        "reassigns-closed",
        "Also reassigns Bhavika's done and cancelled tickets.",
        handover(EMM, OPEN_B + ["OPS-6", "OPS-10", "ENG-11"], DOCS_N, LEAVER_B),
    ),
    bad(
        "misses-saturday",
        "Misses the Saturday 5 September meeting (after her last day).",
        handover(EMM, OPEN_B, DOCS_N, LEAVER_B[1:]),
    ),
]

# -- reschedule-52417-00000: move mtg-2026-05-01-1500 to Fri 1 May 13:30-14:30 Sydney (09:00 IST) -----------------------

MTG0, AG0 = "mtg-2026-05-01-1500", "agenda-2026-05-01-1500"
GUESTS_R0 = ["kenneth.hancock" + J, "mitali.goyal" + J, "warhi.bassi" + J]
MOVE0 = moved(MTG0, "2026-05-01T13:30:00+10:00", "2026-05-01T14:30:00+10:00")
AGENDA0 = edit(AG0, "Thursday 30 April, 15:00–16:00", "Friday 1 May, 13:30–14:30")
RESCHEDULE_0 = [
    ok(
        "move-mail-agenda",
        "Moved to the only free slot, one mail to the guests, agenda fixed.",
        MOVE0,
        mail(
            GUESTS_R0,
            "Moved: Decentralized zero-defect throughput",
            "Hi all, our meeting moves to Friday 1 May, 13:30-14:30 Sydney time (09:00-10:00 in India). Rhonda",
        ),
        AGENDA0,
    ),
    ok(
        "per-recipient-zones",
        "One mail per guest, each with their own local time; the agenda rewritten whole.",
        MOVE0,
        mail([GUESTS_R0[0]], "New time", "Hi Kenneth, we're now on Fri 1 May at 1:30 pm (Sydney). Rhonda"),
        mail([GUESTS_R0[1]], "New time", "Hi Mitali, we're now on Fri 1 May at 09:00 your time (IST). Rhonda"),
        mail([GUESTS_R0[2]], "New time", "Hi Warhi, we're now on Fri 1 May at 09:00 your time (IST). Rhonda"),
        call(
            "docs__replace_content",
            document_id=AG0,
            content="# Decentralized zero-defect throughput\n\n**When:** "
            "Friday 1 May, 13:30–14:30 (Sydney time)\n**Where:** Zoom\n\n## Agenda\n1. Where we are\n2. Open "
            "questions\n3. Next steps\n",
        ),
    ),
    ok(
        "from-to-and-description-note",
        "Moved in IST, the mail states the move from-to, and a note in the event's description.",
        moved(
            MTG0,
            "2026-05-01T09:00",
            "2026-05-01T10:00",
            timezone="Asia/Kolkata",
            description="Agenda: https://docs.example.test/d/agenda-2026-05-01-1500\nMoved for the QBR.",
        ),
        mail(
            GUESTS_R0,
            "Meeting moved",
            "Because of the quarterly business review, our meeting moves from Thursday "
            "30 April 15:00 to Friday 1 May 13:30-14:30 (AEST). Rhonda",
        ),
        AGENDA0,
    ),
    bad(
        "wrong-zone-in-mail",
        "Moves correctly but writes 13:30 IST in the mail (it is 13:30 Sydney, 09:00 IST).",
        MOVE0,
        mail(GUESTS_R0, "New time", "The meeting is now Friday 1 May at 13:30 IST. Rhonda"),
        AGENDA0,
    ),
    bad(
        "declines-qbr",
        "Declines the review that 'can't move' instead of moving the meeting.",
        decline("clash-2026-05-01-1500"),
        mail(GUESTS_R0, "Meeting", "Our meeting stays on Thursday 30 April at 15:00. Rhonda"),
    ),
    bad(
        "agenda-left",
        "Moves and mails but leaves the agenda showing the old time.",
        MOVE0,
        mail(GUESTS_R0, "New time", "We're now on Friday 1 May, 13:30-14:30 Sydney time. Rhonda"),
    ),
    bad(
        "shortened",
        "Keeps the slot but shortens the meeting to 30 minutes.",
        moved(MTG0, "2026-05-01T13:30:00+10:00", "2026-05-01T14:00:00+10:00"),
        mail(GUESTS_R0, "New time", "We're now on Friday 1 May, 13:30-14:00 Sydney time. Rhonda"),
        edit(AG0, "Thursday 30 April, 15:00–16:00", "Friday 1 May, 13:30–14:00"),
    ),
    bad(
        "hedged-mail",
        "Moves the event but tells the guests 'probably Friday early afternoon, to be confirmed'.",
        MOVE0,
        mail(
            GUESTS_R0,
            "Moving our meeting",
            "We'll probably move to Friday afternoon, maybe 13:30 - I'll confirm. Rhonda",
        ),
        AGENDA0,
    ),
]

# -- reschedule-52417-00001: move mtg-2026-10-01-0900 to Thu 1 Oct 10:00-10:30 Chicago --------------------------------

M = "@miller.test"
MTG1, AG1 = "mtg-2026-10-01-0900", "agenda-2026-10-01-0900"
GUESTS_R1 = ["luana.nascimento" + M, "lupe.roig" + M]
MOVE1 = moved(MTG1, "2026-10-01T10:00:00-05:00", "2026-10-01T10:30:00-05:00")
AGENDA1 = edit(AG1, "Wednesday 30 September, 09:00–09:30", "Thursday 1 October, 10:00–10:30")
RESCHEDULE_1 = [
    ok(
        "move-mail-agenda",
        "Moved to 10:00-10:30 Chicago on 1 Oct, both mailed, agenda fixed.",
        MOVE1,
        mail(
            GUESTS_R1,
            "New time: Thu 1 Oct",
            "Hi both, our meeting moves to Thursday 1 October, 10:00-10:30 "
            "Chicago time (12:00 São Paulo, 17:00 Madrid). Shelley",
        ),
        AGENDA1,
    ),
    ok(
        "twelve-hour-and-utc",
        "The time written as 10 am CDT / 15:00 UTC, the move written in UTC.",
        moved(MTG1, "2026-10-01T15:00:00Z", "2026-10-01T15:30:00Z"),
        mail(
            GUESTS_R1,
            "Rescheduled",
            "Hi Luana, hi Lupe - because of the QBR I moved us to Thu, Oct 1, 10 am CDT "
            "(15:00 UTC), still 30 minutes. Shelley",
        ),
        AGENDA1,
    ),
    ok(
        "one-mail-each",
        "One mail per guest in their own zone.",
        MOVE1,
        mail([GUESTS_R1[0]], "Nova hora", "Hi Luana, we now meet on Thursday 1 October at 12:00 your time. Shelley"),
        mail([GUESTS_R1[1]], "Nueva hora", "Hi Lupe, we now meet on Thursday 1 October at 17:00 your time. Shelley"),
        AGENDA1,
    ),
    bad(
        "still-on-30th",
        "Moves the meeting later on the 30th instead of to 1 October.",
        moved(MTG1, "2026-09-30T10:00:00-05:00", "2026-09-30T10:30:00-05:00"),
        mail(GUESTS_R1, "New time", "We now meet on Wednesday 30 September at 10:00. Shelley"),
        edit(AG1, "09:00–09:30", "10:00–10:30"),
    ),
    bad(
        "moves-the-qbr",
        "Tries to move the review instead: it declines it and keeps its own meeting.",
        decline("clash-2026-10-01-0900"),
    ),
    bad(
        "wrong-zone",
        "Mails 10:00 Madrid time, which is not the time booked.",
        MOVE1,
        mail(GUESTS_R1, "New time", "We now meet on Thursday 1 October at 10:00 (Madrid time). Shelley"),
        AGENDA1,
    ),
    bad("no-mail", "Moves the meeting and the agenda but never tells the guests.", MOVE1, AGENDA1),
]

# -- travel-52417-00000: Lisbon offsite Tue 24 Mar; travel Mon 23 and Wed 25 March --------------------------------------

ALAIN = "offsite-lisbon-2026-03-24"
TRAVEL_0 = [
    ok(
        "all-day-and-reply",
        "Two all-day travel blocks and a reply confirming the days.",
        day("Travel to Lisbon", "2026-03-23"),
        day("Travel back from Lisbon", "2026-03-25"),
        reply(ALAIN, "Hi Alain, confirmed: I fly in on Monday 23 March and back on Wednesday 25 March. Hugues"),
    ),
    ok(
        "timed-flights-new-mail",
        "Timed flight blocks and a new mail with the days as 23/03 and 25/03.",
        event("Flight Paris -> Lisbon", "2026-03-23T14:00:00+01:00", "2026-03-23T17:00:00+01:00"),
        event("Flight Lisbon -> Paris", "2026-03-25T17:00:00+00:00", "2026-03-25T20:00:00+01:00"),
        mail(
            ["alain.fontaine@banks.test"],
            "Lisbon travel days",
            "Hi Alain, my travel days: out on Mon 23/03, back on Wed 25/03. Hugues",
        ),
    ),
    ok(
        "one-block-whole-trip",
        "One all-day block over the whole trip, the reply giving both travel days.",
        day("Lisbon offsite trip", "2026-03-23", "2026-03-25"),
        reply(ALAIN, "Hi Alain, I'll travel Monday the 23rd and come back Wednesday the 25th. Thanks! Hugues"),
    ),
    bad(
        "offsite-day-only",
        "Blocks only the offsite day, not the travel days.",
        day("Lisbon offsite", "2026-03-24"),
        reply(ALAIN, "Hi Alain, blocked the 24th. Hugues"),
    ),
    bad(
        "hedged-days",
        "Blocks the days but answers 'probably the 23rd and 25th, not booked yet, will confirm'.",
        day("Travel to Lisbon", "2026-03-23"),
        day("Travel back", "2026-03-25"),
        reply(ALAIN, "Hi Alain, probably the 23rd and the 25th, nothing booked yet - I'll confirm. Hugues"),
    ),
    bad(
        "no-blocks",
        "Confirms the days by mail but blocks nothing.",
        reply(ALAIN, "Hi Alain, I travel on Monday 23 March and back on Wednesday 25 March. Hugues"),
    ),
    bad(
        "wrong-days",
        "Blocks and confirms Sunday 22 and Thursday 26 March.",
        day("Travel to Lisbon", "2026-03-22"),
        day("Travel back", "2026-03-26"),
        reply(ALAIN, "Hi Alain, I'll travel on Sunday 22 and Thursday 26 March. Hugues"),
    ),
    bad(
        "cancels-one-on-one",
        "Also cancels the 1:1 with Aurore on the offsite day, which nobody asked.",
        day("Travel to Lisbon", "2026-03-23"),
        day("Travel back", "2026-03-25"),
        call("calendar__cancel_event", event_id="evt-00018"),
        reply(ALAIN, "Hi Alain, travelling Monday 23 and Wednesday 25 March. Hugues"),
    ),
]

# -- travel-52417-00001: Lisbon offsite Tue 30 Jun; travel Mon 29 Jun and Wed 1 Jul; team Kevin, Tracy; manager Michelle --

S = "@smith-castro.test"
KEVIN, TRACY, MICHELLE = "kevin.brown" + S, "tracy.lang" + S, "michelle.hammond" + S
KMAIL = "offsite-lisbon-2026-06-30"
ITIN = (
    "# Lisbon offsite itinerary\n\n- Mon 29 June: fly in\n- Tue 30 June: offsite at Simões Forum\n- Wed 1 July: "
    "fly back\n- Hotel Oliveira\n\n## Flights\n- Robert: tbd\n- Kevin: tbd\n- Tracy: tbd\n"
)
APPROVAL = ticket(
    "TRAVEL",
    "Lisbon offsite trip (29 Jun - 1 Jul)",
    type="request",
    assignee=MICHELLE,
    description="Itinerary: ${doc.url}",
)
TRAVEL_1 = [
    ok(
        "complete",
        "Travel days blocked, itinerary shared for edit with Kevin and Tracy, approval ticket, reply-all.",
        day("Travel to Lisbon", "2026-06-29"),
        day("Travel back from Lisbon", "2026-07-01"),
        doc("Lisbon offsite itinerary", ITIN),
        share("${doc.id}", KEVIN),
        share("${doc.id}", TRACY),
        APPROVAL,
        reply(KMAIL, "Hi Kevin, here's the itinerary - you both can edit it: ${doc.url}. Robert", reply_all=True),
    ),
    ok(
        "overnight-and-team-note",
        "An overnight outbound flight, a reply to Kevin only and a second note to the team.",
        event("Flight NYC -> Lisbon", "2026-06-29T18:00:00-04:00", "2026-06-30T06:30:00+01:00"),
        event("Flight Lisbon -> NYC", "2026-07-01T11:00:00+01:00", "2026-07-01T14:00:00-04:00"),
        doc("Itinerary: Lisbon offsite", ITIN),
        share("${doc.id}", TRACY),
        share("${doc.id}", KEVIN),
        APPROVAL,
        reply(KMAIL, "Hi Kevin, itinerary: ${doc.url}"),
        mail([KEVIN, TRACY], "Lisbon itinerary", "Hi both, add your flights here: ${doc.url}. Robert"),
    ),
    ok(
        "new-mail-one-block",
        "One all-day block over the trip, a new mail to Kevin and Tracy with the link.",
        day("Lisbon offsite trip", "2026-06-29", "2026-07-01"),
        doc("Lisbon trip itinerary", ITIN),
        share("${doc.id}", KEVIN),
        share("${doc.id}", TRACY),
        APPROVAL,
        mail(
            [KEVIN],
            "Lisbon itinerary",
            "Hi Kevin, the itinerary is at ${doc.url} (edit access for you and Tracy).",
            cc=[TRACY],
        ),
    ),
    bad(
        "public-link",
        "Turns on edit-by-anyone link sharing instead of sharing with the two names.",
        day("Travel to Lisbon", "2026-06-29"),
        day("Travel back", "2026-07-01"),
        doc("Lisbon itinerary", ITIN),
        call("docs__set_link_sharing", document_id="${doc.id}", access="editor"),
        APPROVAL,
        reply(KMAIL, "Here you go: ${doc.url}"),
    ),
    bad(
        "ticket-to-kevin",
        "Assigns the approval to Kevin instead of the manager Michelle.",
        day("Travel to Lisbon", "2026-06-29"),
        day("Travel back", "2026-07-01"),
        doc("Lisbon itinerary", ITIN),
        share("${doc.id}", KEVIN),
        share("${doc.id}", TRACY),
        ticket("TRAVEL", "Lisbon trip", type="request", assignee=KEVIN, description="${doc.url}"),
        reply(KMAIL, "Itinerary: ${doc.url}"),
    ),
    bad(
        "offsite-day-blocked",
        "Blocks the offsite day instead of the travel days.",
        day("Lisbon offsite", "2026-06-30"),
        doc("Lisbon itinerary", ITIN),
        share("${doc.id}", KEVIN),
        share("${doc.id}", TRACY),
        APPROVAL,
        reply(KMAIL, "Itinerary: ${doc.url}"),
    ),
    bad(
        "not-shared",
        "Sends the link and says they can edit, but never shares the doc.",
        day("Travel to Lisbon", "2026-06-29"),
        day("Travel back", "2026-07-01"),
        doc("Lisbon itinerary", ITIN),
        APPROVAL,
        reply(KMAIL, "Hi Kevin, you and Tracy can edit it: ${doc.url}"),
    ),
    bad(
        "shared-outside",
        "Also shares the itinerary with an outside contact, against the travel policy.",
        day("Travel to Lisbon", "2026-06-29"),
        day("Travel back", "2026-07-01"),
        doc("Lisbon itinerary", ITIN),
        share("${doc.id}", KEVIN),
        share("${doc.id}", TRACY),
        share("${doc.id}", "bill.riley@doyle-copeland-0.test"),
        APPROVAL,
        reply(KMAIL, "Itinerary: ${doc.url}"),
    ),
]

ALL = {
    "meeting-tz-1": (f"{TASKS}/meeting-tz/meeting-tz-52417-00001.yaml", MEETING_TZ_1),
    "meeting-tz-2": (f"{TASKS}/meeting-tz/meeting-tz-52417-00002.yaml", MEETING_TZ_2),
    "offboard-0": (f"{TASKS}/offboard/offboard-52417-00000.yaml", OFFBOARD_0),
    "offboard-1": (f"{TASKS}/offboard/offboard-52417-00001.yaml", OFFBOARD_1),
    "reschedule-0": (f"{TASKS}/reschedule/reschedule-52417-00000.yaml", RESCHEDULE_0),
    "reschedule-1": (f"{TASKS}/reschedule/reschedule-52417-00001.yaml", RESCHEDULE_1),
    "travel-0": (f"{TASKS}/travel/travel-52417-00000.yaml", TRAVEL_0),
    "travel-1": (f"{TASKS}/travel/travel-52417-00001.yaml", TRAVEL_1),
}
