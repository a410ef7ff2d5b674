"""Held-out round 5, library scenarios: interview-loop, declined-meeting, changed-request, new-hire-onboarding,
release-checklist.

Written from each scenario's instruction, persona, clock and seed rows only (via brief.py), never from its checks.
The cases vary the text model agents write: markdown tables, bullet summaries, Outlook-style quoted replies,
per-recipient times, caveats next to the fact, times in words, misspelt days, German/French dates. Dates in tool
arguments are the scenario's templates (`{{ wednesday next week 16:00 }}`), expanded against its clock.
"""

from __future__ import annotations

from round_steps import bad, call, comment, doc, event, mail, move, moved, ok, reply, share, ticket


def wait(minutes: float | None = None) -> dict:
    """Let world time pass (until the next event when minutes is left out)."""
    return call("world__wait", **({"minutes": minutes} if minutes is not None else {}))


# -- interview-loop (clock Mon 1 June 2026 09:00 Berlin). Jamie (London, BST): Wed 10 June 12-17, Thu 11 June 08-11.
#    Worked out from the seed: Omar (New York) only Wed 15:00-16:00 UK; Lena (Berlin) only Thu 08:00-09:00 UK (Wed she
#    is at the offsite and the one other hour is Omar's); Yuki (Tokyo) only Thu 09:00-10:00 UK (busy 08:00-09:00 UK).
#    In Maya's Berlin time: Omar Wed 16-17, Lena Thu 09-10, Yuki Thu 10-11.

JAMIE, OMAR, YUKI, LENA = "jamie.chen@mailbox.test", "omar@acme.test", "yuki@acme.test", "lena@acme.test"
IL_READS = [
    call("mail__get_message", message_id="jamie-availability"),
    call("docs__get_document", document_id="hiring-plan"),
    call("docs__get_document", document_id="kit-template"),
    call(
        "calendar__get_free_busy",
        emails=[OMAR, YUKI, LENA],
        time_min="{{ wednesday next week 00:00 }}",
        time_max="{{ friday next week 00:00 }}",
    ),
]


def il_events(desc: str = "Final-round interview, 60 minutes, video call.", yuki: bool = True) -> list[dict]:
    """The three 60-minute interviews, each with its interviewer and Jamie."""
    out = [
        event(
            "Final round - Coding (Jamie Chen)",
            "{{ wednesday next week 16:00 }}",
            "{{ wednesday next week 17:00 }}",
            attendees=[OMAR, JAMIE],
            description=desc,
        ),
        event(
            "Final round - Hiring manager (Jamie Chen)",
            "{{ thursday next week 09:00 }}",
            "{{ thursday next week 10:00 }}",
            attendees=[LENA, JAMIE],
            description=desc,
        ),
    ]
    if yuki:
        out.append(
            event(
                "Final round - System design (Jamie Chen)",
                "{{ thursday next week 10:00 }}",
                "{{ thursday next week 11:00 }}",
                attendees=[YUKI, JAMIE],
                description=desc,
            )
        )
    return out


KIT = (
    "# Interview kit: Jamie Chen\n\nRole: Senior Backend Engineer\n\n## Schedule\n"
    "| Interview | Interviewer | Time (UK) | Time (Berlin) |\n|-----------|-------------|------|------|\n"
    "| Coding | Omar Haddad | Wed 10 June 15:00-16:00 | 16:00-17:00 |\n"
    "| Hiring manager | Lena Fischer | Thu 11 June 08:00-09:00 | 09:00-10:00 |\n"
    "| System design | Yuki Tanaka | Thu 11 June 09:00-10:00 | 10:00-11:00 |\n\n"
    "## Feedback\n### Coding\n\n### System design\n\n### Hiring manager\n"
)


def il_kit(content: str = KIT) -> list[dict]:
    """The kit next to the plan, shared with the three interviewers as editors."""
    return [
        doc("Interview kit: Jamie Chen", content, folder_id="sbe-hiring"),
        share("${doc.id}", OMAR, "editor"),
        share("${doc.id}", YUKI, "editor"),
        share("${doc.id}", LENA, "editor"),
    ]


OUTLOOK_JAMIE = (
    "\n\n________________________________\nFrom: Jamie Chen <jamie.chen@mailbox.test>\nSent: Monday, June 1, 2026 "
    "8:14 AM\nTo: Maya Brooks <maya@acme.test>\nSubject: Final round availability\n\n> Hi Maya,\n>\n> Thanks so much "
    "for inviting me to the final round! Next week I can do:\n>\n> - Wednesday, between 12:00 and 17:00\n> - "
    "Thursday, between 08:00 and 11:00\n>\n> Those are UK times - I'm based in London. Back-to-back interviews are "
    "fine.\n>\n> Best,\n> Jamie"
)

INTERVIEW_LOOP = [
    ok(
        "table-reply",
        "All three booked in Jamie's windows with free interviewers, kit shared with the three; reply is a UK-time table.",
        IL_READS,
        il_events(),
        il_kit(),
        reply(
            "jamie-availability",
            "Hi Jamie,\n\ngreat news - your final round is booked. All times are **UK time (BST)**:\n\n"
            "| Interview | With | Day | UK time |\n|---|---|---|---|\n"
            "| Coding | Omar Haddad | Wednesday 10 June | 15:00-16:00 |\n"
            "| Hiring manager | Lena Fischer | Thursday 11 June | 08:00-09:00 |\n"
            "| System design | Yuki Tanaka | Thursday 11 June | 09:00-10:00 |\n\n"
            "Each interview is 60 minutes on video; you'll find the invitations in your calendar.\n\nBest,\nMaya",
        ),
    ),
    ok(
        "outlook-quoted-words",
        "Same bookings; reply in words with an Outlook-style quote of Jamie's mail (her old windows) below it.",
        IL_READS,
        il_events(),
        il_kit(),
        reply(
            "jamie-availability",
            "Hi Jamie,\n\nthanks for sending these over. Here is your loop, in UK time:\n\n"
            "- Wednesday 10 June, three to four in the afternoon: coding interview with Omar\n"
            "- Thursday 11 June, eight to nine in the morning: hiring-manager interview with Lena\n"
            "- Thursday 11 June, nine to ten: system design with Yuki (straight after Lena's, back to back)\n\n"
            "Invitations are on their way.\n\nKind regards,\nMaya" + OUTLOOK_JAMIE,
        ),
    ),
    ok(
        "internal-note-local-times",
        "Same bookings; UK-time reply to Jamie, plus an internal mail to the interviewers with each one's local time "
        "and the kit link (Jamie not on it).",
        IL_READS,
        il_events(),
        il_kit(),
        reply(
            "jamie-availability",
            "Hi Jamie, you're all set (UK times):\n\n* Wed 10 June 15:00-16:00 - Coding\n"
            "* Thu 11 June 08:00-09:00 - Hiring manager\n* Thu 11 June 09:00-10:00 - System design\n\nMaya",
        ),
        mail(
            [OMAR, YUKI, LENA],
            "Jamie Chen final round - your slots and the kit",
            "Hi all,\n\nJamie's final round is booked. Your slot in your own time:\n\n"
            "| Interviewer | Interview | Your local time |\n|---|---|---|\n"
            "| Omar | Coding | Wed 10 June, 10:00-11:00 New York |\n"
            "| Lena | Hiring manager | Thu 11 June, 09:00-10:00 Berlin |\n"
            "| Yuki | System design | Thu 11 June, 17:00-18:00 Tokyo |\n\n"
            "Kit (internal, please add your feedback there): ${doc.url}\n\nMaya",
        ),
    ),
    ok(
        "german-date-format",
        "Same bookings; the reply writes dates the German way (10.06., Do. 11.06.) with '(UK)' next to each time.",
        IL_READS,
        il_events(),
        il_kit(),
        reply(
            "jamie-availability",
            "Hi Jamie,\n\nyour interviews (times in UK time):\n\n"
            "- Mi., 10.06.2026, 15:00-16:00 (UK) - Coding, Omar Haddad\n"
            "- Do., 11.06.2026, 08:00-09:00 (UK) - Hiring manager, Lena Fischer\n"
            "- Do., 11.06.2026, 09:00-10:00 (UK) - System design, Yuki Tanaka\n\nViele Grüße / best,\nMaya",
        ),
    ),
    ok(
        "twelve-hour-misspelt-days",
        "Same bookings; reply with 12-hour times, misspelt days ('Wendesday', 'Thurday') and lowercase 'london time'.",
        IL_READS,
        il_events(),
        il_kit(),
        reply(
            "jamie-availability",
            "Hi Jamie - booked! all in london time:\n\n1. Wendesday 10 June, 3pm-4pm: coding (Omar)\n"
            "2. Thurday 11 June, 8am-9am: hiring manager (Lena)\n3. Thurday 11 June, 9am-10am: system design (Yuki)\n\n"
            "Each one is an hour. Good luck!\nMaya",
        ),
    ),
    ok(
        "caveat-next-to-fact",
        "Same bookings (kit written first); reply explains why each slot was chosen next to the time.",
        IL_READS,
        il_kit(),
        il_events(),
        reply(
            "jamie-availability",
            "Dear Jamie,\n\nhere is the plan, in UK time:\n\n"
            "- **Coding with Omar: Wednesday 10 June, 15:00-16:00** - the one hour on Wednesday that fits Omar, who "
            "is in New York\n"
            "- **Hiring manager with Lena: Thursday 11 June, 08:00-09:00** - Lena is at an offsite on Wednesday "
            "afternoon\n"
            "- **System design with Yuki: Thursday 11 June, 09:00-10:00** - Yuki is in Tokyo, so mornings UK time "
            "work best\n\nYou'll get a calendar invitation for each.\n\nBest regards,\nMaya Brooks",
        ),
    ),
    ok(
        "new-mail-not-reply",
        "Same bookings; the UK times go in a new mail to Jamie with a compact one-line-per-day summary.",
        IL_READS,
        il_events(),
        il_kit(),
        mail(
            [JAMIE],
            "Your final-round interviews",
            "Hi Jamie,\n\nWednesday 10 June (UK): 15:00-16:00 coding.\nThursday 11 June (UK): 08:00-09:00 hiring "
            "manager, then 09:00-10:00 system design.\n\nSee you then,\nMaya",
        ),
    ),
    bad(
        "hedged-nothing-final",
        "Books everything but tells Jamie the times are only tentative and nothing is final yet.",
        IL_READS,
        il_events(),
        il_kit(),
        reply(
            "jamie-availability",
            "Hi Jamie,\n\nI've tentatively pencilled in the following (UK time), but nothing is final yet - I'll "
            "confirm once the interviewers have accepted:\n\n- Wed 10 June 15:00-16:00\n- Thu 11 June 08:00-09:00\n"
            "- Thu 11 June 09:00-10:00\n\nMaya",
        ),
    ),
    bad(
        "berlin-times-called-uk",
        "Books correctly but gives Jamie Maya's Berlin times labelled as UK time (one hour late each).",
        IL_READS,
        il_events(),
        il_kit(),
        reply(
            "jamie-availability",
            "Hi Jamie, your interviews (UK time):\n\n| Interview | Time |\n|---|---|\n"
            "| Coding | Wed 10 June, 16:00-17:00 |\n| Hiring manager | Thu 11 June, 09:00-10:00 |\n"
            "| System design | Thu 11 June, 10:00-11:00 |\n\nMaya",
        ),
    ),
    bad(
        "kit-link-to-jamie",
        "Everything right, but the reply to Jamie carries the internal kit's link 'for reference'.",
        IL_READS,
        il_events(),
        il_kit(),
        reply(
            "jamie-availability",
            "Hi Jamie, booked (UK time): Wed 10 June 15:00-16:00, Thu 11 June 08:00-09:00 and 09:00-10:00.\n\n"
            "For reference, the interview kit with the schedule: ${doc.url}\n\nMaya",
        ),
    ),
    bad(
        "recap-contradicts",
        "Correct table, then a P.S. recap giving system design at 10:00 (Berlin time) as if it were UK time.",
        IL_READS,
        il_events(),
        il_kit(),
        reply(
            "jamie-availability",
            "Hi Jamie,\n\n| Interview | UK time |\n|---|---|\n| Coding | Wed 10 June 15:00-16:00 |\n"
            "| Hiring manager | Thu 11 June 08:00-09:00 |\n| System design | Thu 11 June 09:00-10:00 |\n\n"
            "P.S. Just to recap the Thursday: hiring manager at 9:00, then system design at 10:00 UK time.\n\nMaya",
        ),
    ),
    bad(
        "claims-system-design-booked",
        "Reply lists all three times, but the system design interview with Yuki was never booked.",
        IL_READS,
        il_events(yuki=False),
        il_kit(),
        reply(
            "jamie-availability",
            "Hi Jamie, all three are booked and in your calendar (UK time):\n- Wed 10 June 15:00-16:00 coding\n"
            "- Thu 11 June 08:00-09:00 hiring manager\n- Thu 11 June 09:00-10:00 system design\n\nMaya",
        ),
    ),
]

# -- declined-meeting (clock Mon 2 March 2026 09:00 Berlin): ask Sam, wait; he proposes 14:00-15:00 tomorrow (Tue 3
#    March); move design-review there (1 h, Room Spree) and mail Priya and Sam.

SAM, PRIYA = "sam@acme.test", "priya@acme.test"
DM_ASK = mail(
    [SAM],
    "Design review tomorrow at 10:00",
    "Hi Sam,\n\nquick check: can you make tomorrow's design review (10:00-11:00, Room Spree)? I haven't seen an "
    "answer to the invitation yet.\n\nThanks,\nLena",
)
DM_READ = [
    wait(30),
    call("mail__search_messages", save="ans", query="from:sam@acme.test"),
    call("mail__get_message", message_id="${ans.messages.0.id}"),
]
DM_MOVE = moved("design-review", "{{ tomorrow 14:00 }}", "{{ tomorrow 15:00 }}")

DECLINED_MEETING = [
    ok(
        "table-old-cancelled",
        "Asks, waits, moves to 14:00-15:00; one mail to both with an old/new table, the old slot struck as cancelled.",
        DM_ASK,
        DM_READ,
        DM_MOVE,
        mail(
            [PRIYA, SAM],
            "Design review moved to 14:00",
            "Hi Priya, hi Sam,\n\nSam can't make the morning, so the design review moves:\n\n"
            "| | When | Where |\n|---|---|---|\n| ~~Old~~ | ~~Tue 3 March, 10:00-11:00~~ (cancelled) | Room Spree |\n"
            "| **New** | **Tue 3 March, 14:00-15:00** | Room Spree |\n\nThe invitation is updated.\n\nLena",
        ),
    ),
    ok(
        "outlook-reply-cc-priya",
        "Answers Sam's mail with Priya on cc; Outlook-style quote of Sam's message (mentions 10:00) below.",
        DM_ASK,
        DM_READ,
        DM_MOVE,
        reply(
            "${ans.messages.0.id}",
            "Hi Sam, no problem - done. The design review is now tomorrow (Tuesday) 14:00-15:00, same room. "
            "Priya, copying you so you have the new time.\n\nLena\n\n-----Original Message-----\nFrom: Sam Ortiz "
            "<sam@acme.test>\nSent: Monday, March 2, 2026 9:16 AM\nTo: Lena Fischer <lena@acme.test>\nSubject: Re: "
            "Design review tomorrow at 10:00\n\n> Hi Lena, sorry, I have a customer call at 10:00 tomorrow, so I "
            "declined.\n> Could we do 14:00-15:00 tomorrow instead? That works for me.",
            cc=[PRIYA],
        ),
    ),
    ok(
        "words-two-mails",
        "Moves it; two separate mails with the time in words ('two to three in the afternoon').",
        DM_ASK,
        DM_READ,
        DM_MOVE,
        mail(
            [PRIYA],
            "New time for the design review",
            "Hi Priya, Sam has a customer call in the morning, so I moved tomorrow's design review to two to three "
            "in the afternoon (Tuesday the 3rd). Still Room Spree - bring the mock-ups! Lena",
        ),
        mail([SAM], "Design review: 2-3 pm tomorrow", "Hi Sam, moved it to 2 pm-3 pm tomorrow as you suggested. Lena"),
    ),
    ok(
        "german-date",
        "Moves it; the mail gives the new slot with a German date ('Di., 03.03., 14:00-15:00 Uhr').",
        DM_ASK,
        DM_READ,
        DM_MOVE,
        mail(
            [PRIYA, SAM],
            "Design Review verschoben / moved",
            "Hallo Priya, hallo Sam,\n\nneuer Termin für das Design Review: Di., 03.03., 14:00-15:00 Uhr, Raum Spree.\n"
            "(New time: Tuesday 3 March, 14:00-15:00, Room Spree.) Der alte Termin um 10:00 entfällt.\n\nLena",
        ),
    ),
    ok(
        "bullets-caveat",
        "Moves it; bullet summary with the reason next to the fact and the old slot named as cancelled.",
        DM_ASK,
        DM_READ,
        DM_MOVE,
        mail(
            [PRIYA, SAM],
            "Update: design review",
            "Hi both,\n\n- **New time:** tomorrow, Tuesday 3 March, 14:00-15:00 (Sam has a customer call at 10:00; "
            "14:00 is the slot he proposed)\n- **Old time:** 10:00-11:00 - cancelled\n- **Room:** Spree, unchanged\n"
            "- **Length:** still one hour\n\nLena",
        ),
    ),
    ok(
        "french-date-utc-args",
        "Moves it with UTC arguments; mail in French ('mardi 3 mars, 14h-15h').",
        DM_ASK,
        DM_READ,
        moved("design-review", "2026-03-03T13:00:00Z", "2026-03-03T14:00:00Z"),
        mail(
            [PRIYA, SAM],
            "Revue de design déplacée",
            "Bonjour Priya, bonjour Sam,\n\nla revue de design est déplacée au mardi 3 mars, 14h-15h (salle Spree).\n\n"
            "Lena",
        ),
    ),
    bad(
        "hedged-tentative",
        "Moves it, but the mail says the new time is only tentative and nothing is final yet.",
        DM_ASK,
        DM_READ,
        DM_MOVE,
        mail(
            [PRIYA, SAM],
            "Design review - maybe 14:00?",
            "Hi both, I'm tentatively moving the design review to 14:00-15:00 tomorrow, but nothing is final yet - "
            "let's see if that works for everyone. Lena",
        ),
    ),
    bad(
        "mail-wrong-end",
        "Moves it to 14:00-15:00, but the mail announces 14:00 to 15:30.",
        DM_ASK,
        DM_READ,
        DM_MOVE,
        mail(
            [PRIYA, SAM],
            "Design review moved",
            "Hi Priya, hi Sam, the design review is now tomorrow from 14:00 to 15:30 in Room Spree. Lena",
        ),
    ),
    bad(
        "mail-wrong-room",
        "Moves it correctly, but the mail sends both to Room Havel (the review stays in Room Spree).",
        DM_ASK,
        DM_READ,
        DM_MOVE,
        mail(
            [PRIYA, SAM],
            "Design review moved",
            "Hi both, the design review is now tomorrow 14:00-15:00, and we'll meet in Room Havel this time. Lena",
        ),
    ),
    bad(
        "words-without-move",
        "Announces the move to 14:00-15:00 but never moves the event.",
        DM_ASK,
        DM_READ,
        mail(
            [PRIYA, SAM], "Design review moved", "Hi both, I've moved the design review to 14:00-15:00 tomorrow. Lena"
        ),
    ),
    bad(
        "contradicting-signoff",
        "Moves it and gives 14:00-15:00, then signs off 'see you both at 10:00 then'.",
        DM_ASK,
        DM_READ,
        DM_MOVE,
        mail(
            [PRIYA, SAM],
            "Design review moved",
            "Hi both,\n\nnew time for the design review: tomorrow 14:00-15:00, Room Spree.\n\nSee you both at 10:00 "
            "then!\nLena",
        ),
    ),
]

# -- changed-request (clock Mon 2 March 2026 09:00 Berlin): Priya's final word arrives at 09:20: 14 guests, Thursday
#    (5 March) instead of Wednesday.

OMAR_C = "omar@acme.test"
CR_READ = [
    call("mail__get_message", message_id="dinner-request"),
    wait(30),
    call("mail__get_message", message_id="headcount-update"),
]

CHANGED_REQUEST = [
    ok(
        "table",
        "Waits for the final number; mails Omar a small table: Thursday 5 March, 14 guests.",
        CR_READ,
        mail(
            [OMAR_C],
            "Team dinner confirmation",
            "Hi Omar,\n\nI'd like to confirm our team dinner at the canteen:\n\n| | |\n|---|---|\n"
            "| Day | Thursday 5 March (evening) |\n| Guests | 14 |\n\nThanks a lot!\nDana",
        ),
    ),
    ok(
        "quotes-final-message",
        "Confirms Thursday and 14, with Priya's final message quoted below ('> ... Thursday instead of Wednesday').",
        CR_READ,
        mail(
            [OMAR_C],
            "Confirming the team dinner: Thursday, 14 people",
            "Hi Omar,\n\nconfirming the team dinner for Thursday evening, 5 March, for 14 guests.\n\nBest,\nDana\n\n"
            "From: Priya Shah <priya@acme.test>\nSent: Monday, 2 March 2026 09:20\nTo: Dana Lee <dana@acme.test>\n"
            "Subject: Re: Team dinner\n\n> Final numbers: we are 14, and it has to be Thursday instead of\n"
            "> Wednesday because of the release. Sorry for the change!",
        ),
    ),
    ok(
        "words-with-change-explained",
        "Number in words with the change explained: 'fourteen guests (up from twelve)', Thursday not Wednesday.",
        CR_READ,
        mail(
            [OMAR_C],
            "Team dinner",
            "Dear Omar,\n\nplease book our team dinner for fourteen guests (Priya's final headcount, up from the "
            "twelve mentioned earlier) on Thursday, the 5th of March. It moved from Wednesday because of a release, "
            "so Wednesday is off.\n\nMany thanks,\nDana",
        ),
    ),
    ok(
        "german",
        "Confirmation in German: 'Donnerstag, 5. März, 14 Personen'.",
        CR_READ,
        mail(
            [OMAR_C],
            "Teamessen - Bestätigung",
            "Hallo Omar,\n\nhiermit bestätige ich unser Teamessen: Donnerstag, 5. März, abends, 14 Personen.\n\n"
            "Viele Grüße\nDana",
        ),
    ),
    ok(
        "forward-with-note",
        "Forwards Priya's final message to Omar with a confirming note on top.",
        CR_READ,
        call(
            "mail__forward",
            message_id="headcount-update",
            to=[OMAR_C],
            body="Hi Omar, confirming the team dinner: Thursday (5 March), 14 guests - details from Priya below. Dana",
        ),
    ),
    ok(
        "bullets-and-cc-priya",
        "Bullet confirmation (Thu 05/03, 14 people) with Priya on cc.",
        CR_READ,
        mail(
            [OMAR_C],
            "Team dinner - confirmed details",
            "Hi Omar,\n\n* **Day:** Thu 05/03 (Thursday), evening\n* **Guests:** 14\n\nThanks!\nDana",
            cc=["priya@acme.test"],
        ),
    ),
    bad(
        "hedged",
        "Gives Thursday and 14 but says it is tentative and nothing is final yet.",
        CR_READ,
        mail(
            [OMAR_C],
            "Team dinner",
            "Hi Omar, tentatively it's 14 people on Thursday, but nothing is final yet - I'll confirm later. Dana",
        ),
    ),
    bad(
        "did-not-wait",
        "Does not wait; confirms the old 12 people on Wednesday.",
        call("mail__get_message", message_id="dinner-request"),
        mail([OMAR_C], "Team dinner", "Hi Omar, confirming our team dinner on Wednesday evening for 12 people. Dana"),
    ),
    bad(
        "polarity-day",
        "Waits, then confirms Wednesday 'not Thursday' (the change read backwards) for 14.",
        CR_READ,
        mail(
            [OMAR_C],
            "Team dinner",
            "Hi Omar, confirming the team dinner for 14 guests on Wednesday evening (not Thursday, as first "
            "planned). Dana",
        ),
    ),
    bad(
        "ps-contradicts-number",
        "Confirms Thursday, 14 guests, then a P.S. asks for a table for 12.",
        CR_READ,
        mail(
            [OMAR_C],
            "Team dinner",
            "Hi Omar,\n\nconfirming the team dinner on Thursday 5 March for 14 guests.\n\nP.S. Could you set up one "
            "long table for the 12 of us?\n\nDana",
        ),
    ),
    bad(
        "draft-only",
        "Writes the right confirmation as a draft and never sends it.",
        CR_READ,
        call(
            "mail__create_draft",
            to=[OMAR_C],
            subject="Team dinner",
            body="Hi Omar, confirming the team dinner on Thursday 5 March for 14 guests. Dana",
        ),
    ),
]

# -- new-hire-onboarding (clock Wed 4 March 2026 London): Jonas Weber starts Mon 9 March, buddy Sam. Template: checklist
#    doc in Onboarding shared with Jonas and Sam as editors; three IT requests (GitHub, AWS staging read-only,
#    PagerDuty) to it-desk, label onboarding, due Fri 6 March, checklist link in the description; team welcome Mon
#    10:00-10:30 (Jonas, Sam, Lee, Nina); 1:1 Mon 14:00-14:30; buddy 1:1 Tue 30 min when Sam is free (busy 09-15);
#    welcome mail to jonas@acme.test with the link.

JONAS, SAM_O, LEE, NINA, IT = (
    "jonas@acme.test",
    "sam@acme.test",
    "lee@acme.test",
    "nina@acme.test",
    "it-desk@acme.test",
)
ONB_READS = [
    call("mail__get_message", message_id="hr-new-hire"),
    call("docs__get_document", document_id="onboarding-template"),
    call(
        "calendar__get_free_busy",
        emails=[SAM_O],
        time_min="{{ next tuesday 00:00 }}",
        time_max="{{ next wednesday 00:00 }}",
    ),
]
CHECKLIST = (
    "# Onboarding checklist: Jonas Weber\n\n- Start date: Monday 9 March 2026\n- Manager: Maya Chen\n"
    "- Buddy: Sam Ortiz\n\n## First week (new hire)\n\n- [ ] Set up your laptop and 2FA\n"
    "- [ ] Read the Platform handbook\n- [ ] Join #platform and #platform-incidents\n"
    "- [ ] Ship a first small PR with your buddy\n"
)
SYSTEMS = ("GitHub (acme-platform org)", "AWS staging (read-only)", "PagerDuty")


def onb_doc(content: str = CHECKLIST) -> list[dict]:
    return [
        doc("Onboarding checklist: Jonas Weber", content, folder_id="onboarding"),
        share("${doc.id}", JONAS, "editor"),
        share("${doc.id}", SAM_O, "editor"),
    ]


def onb_tickets(desc: str = "Access for Jonas Weber (starts Monday 9 March). Checklist: ${doc.url}") -> list[dict]:
    return [
        ticket(
            "IT",
            f"Access: {system} for Jonas Weber",
            type="request",
            assignee=IT,
            labels=["onboarding"],
            due_date="2026-03-06",
            description=desc,
        )
        for system in SYSTEMS
    ]


def onb_events(buddy: tuple[str, str] | None = ("{{ next tuesday 15:00 }}", "{{ next tuesday 15:30 }}")) -> list:
    out = [
        event(
            "Team welcome: Jonas Weber",
            "{{ next monday 10:00 }}",
            "{{ next monday 10:30 }}",
            attendees=[JONAS, SAM_O, LEE, NINA],
        ),
        event("1:1 Maya / Jonas", "{{ next monday 14:00 }}", "{{ next monday 14:30 }}", attendees=[JONAS]),
    ]
    if buddy:
        out.append(event("1:1 Jonas / Sam (buddy)", buddy[0], buddy[1], attendees=[JONAS, SAM_O]))
    return out


NEW_HIRE = [
    ok(
        "bullets-mail",
        "Everything per the template; welcome mail with a bullet list of the first two days and the link.",
        ONB_READS,
        onb_doc(),
        onb_tickets(),
        onb_events(),
        mail(
            [JONAS],
            "Welcome to the Platform team!",
            "Hi Jonas,\n\nwelcome aboard - we're looking forward to Monday!\n\n"
            "- **Your checklist:** ${doc.url}\n- **Mon 9 March, 10:00-10:30:** team welcome with Sam, Lee and Nina\n"
            "- **Mon 9 March, 14:00-14:30:** our first 1:1\n- **Tue 10 March, 15:00-15:30:** 1:1 with Sam, your buddy\n\n"
            "Maya",
        ),
    ),
    ok(
        "table-mail",
        "Same work; welcome mail with a markdown table of the first days.",
        ONB_READS,
        onb_doc(),
        onb_tickets(),
        onb_events(),
        mail(
            [JONAS],
            "Welcome, Jonas",
            "Hi Jonas,\n\nhere's your onboarding checklist: ${doc.url}\n\n| When | What |\n|---|---|\n"
            "| Monday 9 March, 10:00 | Team welcome (30 min) |\n| Monday 9 March, 14:00 | 1:1 with me |\n"
            "| Tuesday 10 March, 15:00 | 1:1 with Sam Ortiz, your onboarding buddy |\n\nSee you soon,\nMaya",
        ),
    ),
    ok(
        "german-dates-doc",
        "Same work; checklist writes the start date German-style ('Montag, 9. März 2026'); short mail.",
        ONB_READS,
        onb_doc(CHECKLIST.replace("Monday 9 March 2026", "Montag, 9. März 2026 (09.03.2026)")),
        onb_tickets("Bitte Zugang einrichten / please set up access for Jonas Weber, Start 09.03.2026.\n\n${doc.url}"),
        onb_events(),
        mail(
            [JONAS],
            "Welcome!",
            "Hi Jonas, welcome to the team! Your checklist is here: ${doc.url} - see you Monday at ten for the team "
            "welcome.\n\nMaya",
        ),
    ),
    ok(
        "buddy-later-slot-words",
        "Buddy 1:1 at Tue 16:00-16:30 (Sam free after 15:00); mail gives times in words.",
        ONB_READS,
        onb_doc(),
        onb_tickets(),
        onb_events(("{{ next tuesday 16:00 }}", "{{ next tuesday 16:30 }}")),
        mail(
            [JONAS],
            "Welcome to Platform",
            "Hi Jonas,\n\nwelcome! Everything for your first week is in your checklist: ${doc.url}\n\nOn Monday we "
            "start with a team welcome at ten o'clock, and you and I have half an hour at two. On Tuesday at four "
            "you'll meet Sam, your buddy (he's tied up until three).\n\nCheers,\nMaya",
        ),
    ),
    ok(
        "note-to-buddy-too",
        "Same work; plus a short note to Sam with the link; ticket descriptions as bullet lists.",
        ONB_READS,
        onb_doc(),
        onb_tickets("- New starter: Jonas Weber (jonas@acme.test)\n- Start: Mon 9 March\n- Checklist: ${doc.url}"),
        onb_events(),
        mail([JONAS], "Welcome aboard", "Hi Jonas, your onboarding checklist: ${doc.url}\nSee you Monday! Maya"),
        mail([SAM_O], "Jonas starts Monday", "Hi Sam, thanks for being Jonas's buddy. Checklist: ${doc.url}. Maya"),
    ),
    ok(
        "outlook-style-signature",
        "Same work; welcome mail in a formal Outlook style with the schedule and the link.",
        ONB_READS,
        onb_doc(),
        onb_tickets(),
        onb_events(),
        mail(
            [JONAS],
            "Welcome to the Platform team - your first week",
            "Dear Jonas,\n\nOn behalf of the Platform team, welcome! Please find your onboarding checklist here:\n"
            "${doc.url}\n\nYour first day (Monday, March 9, 2026):\n  10:00 AM - 10:30 AM  Team welcome\n"
            "  2:00 PM - 2:30 PM   1:1 with Maya\nTuesday, March 10, 2026:\n  3:00 PM - 3:30 PM   1:1 with Sam "
            "(buddy)\n\nKind regards,\n\nMaya Chen\nEngineering Manager, Platform",
        ),
    ),
    bad(
        "mail-wrong-first-day",
        "Everything booked right, but the welcome mail says his first day is Tuesday 10 March.",
        ONB_READS,
        onb_doc(),
        onb_tickets(),
        onb_events(),
        mail(
            [JONAS],
            "Welcome!",
            "Hi Jonas, welcome! Your checklist: ${doc.url}. See you on your first day, Tuesday 10 March, at the team "
            "welcome at 10:00. Maya",
        ),
    ),
    bad(
        "stale-systems-in-mail",
        "Right tickets, but the mail tells Jonas IT is setting up Jenkins, VPN and Jira (the 2024 template).",
        ONB_READS,
        onb_doc(),
        onb_tickets(),
        onb_events(),
        mail(
            [JONAS],
            "Welcome!",
            "Hi Jonas, welcome to the team! Your checklist: ${doc.url}\n\nIT is setting up your access to Jenkins, "
            "the VPN and Jira before Monday.\n\nMaya",
        ),
    ),
    bad(
        "buddy-1on1-not-booked",
        "Mail lists the Tuesday 1:1 with Sam, but that meeting was never booked.",
        ONB_READS,
        onb_doc(),
        onb_tickets(),
        onb_events(buddy=None),
        mail(
            [JONAS],
            "Welcome!",
            "Hi Jonas,\n\n- checklist: ${doc.url}\n- Mon 10:00 team welcome, 14:00 our 1:1\n- Tue 15:00 1:1 with Sam\n\n"
            "Maya",
        ),
    ),
    bad(
        "wrong-buddy-in-doc",
        "Checklist names Nina Patel as buddy (copied from Lee's); otherwise complete.",
        ONB_READS,
        onb_doc(CHECKLIST.replace("Buddy: Sam Ortiz", "Buddy: Nina Patel")),
        onb_tickets(),
        onb_events(),
        mail([JONAS], "Welcome!", "Hi Jonas, welcome! Your checklist: ${doc.url}. See you Monday at 10:00. Maya"),
    ),
]

# -- release-checklist (clock Tue 14 April 2026 Toronto): WEB + release-2.8. Ready: WEB-41 (story, in_review), WEB-42
#    (bug, in_progress), WEB-43 (task, in_progress), WEB-48 (bug, in_review). Not ready: WEB-44 (blocked), WEB-45 (not
#    merged), WEB-46 (cancelled, not merged). Notes in release-notes, shared with web-team as viewer; announcement.

TEAM = "web-team@acme.test"
RC_READS = [
    call("docs__get_document", document_id="release-runbook"),
    call("tickets__search_tickets", project="WEB", label="release-2.8"),
]


def rc_close(skip: tuple[str, ...] = ()) -> list[dict]:
    out: list[dict] = []
    if "WEB-41" not in skip:
        out.append(move("WEB-41", "done", resolution="done"))
    if "WEB-42" not in skip:
        out += [move("WEB-42", "in_review"), move("WEB-42", "done", resolution="fixed")]
    if "WEB-43" not in skip:
        out += [move("WEB-43", "in_review"), move("WEB-43", "done", resolution="done")]
    if "WEB-48" not in skip:
        out.append(move("WEB-48", "done", resolution="fixed"))
    return out


RC_MISS = [
    comment("WEB-44", "Misses release 2.8: blocked on OPS-17 (SAML certificate)."),
    comment("WEB-45", "Misses release 2.8: not merged yet (design review asked for changes)."),
    comment("WEB-46", "Misses release 2.8 (cancelled, nothing merged)."),
]
NOTES = (
    "# Web 2.8 release notes\n\nReleased 14 April 2026.\n\n## Features\n- WEB-41: Dark mode toggle in settings\n"
    "- WEB-43: Lazy-load dashboard widgets\n\n## Fixes\n- WEB-42: CSV export uses the wrong time zone\n"
    "- WEB-48: Avatar upload fails on Safari\n"
)


def rc_notes(content: str = NOTES) -> list[dict]:
    return [doc("Web 2.8 release notes", content, folder_id="release-notes"), share("${doc.id}", TEAM, "viewer")]


RELEASE = [
    ok(
        "bullets-with-not-shipped",
        "Closes the four ready tickets, comments on the three not ready, notes shared; announcement bullets what "
        "shipped and names what missed the release.",
        RC_READS,
        rc_close(),
        RC_MISS,
        rc_notes(),
        mail(
            [TEAM],
            "Web 2.8 released",
            "Hi team,\n\nweb 2.8 is out! Release notes: ${doc.url}\n\n**Shipped**\n- Dark mode toggle in settings "
            "(WEB-41)\n- Lazy-load dashboard widgets (WEB-43)\n- Fix: CSV export time zone (WEB-42)\n"
            "- Fix: avatar upload on Safari (WEB-48)\n\n**Not in this release**\n- WEB-44 SSO login - still blocked "
            "on OPS-17\n- WEB-45 Billing redesign - not merged, rides along with 2.9\n\nThanks all,\nAlex",
        ),
    ),
    ok(
        "table-announcement",
        "Same work; the announcement is a markdown table of the shipped tickets.",
        RC_READS,
        rc_close(),
        RC_MISS,
        rc_notes(),
        mail(
            [TEAM],
            "Web 2.8 released",
            "Web 2.8 has shipped.\n\n| Key | Title | Type |\n|---|---|---|\n| WEB-41 | Dark mode toggle in settings | "
            "Feature |\n| WEB-43 | Lazy-load dashboard widgets | Feature |\n| WEB-42 | CSV export uses the wrong time "
            "zone | Fix |\n| WEB-48 | Avatar upload fails on Safari | Fix |\n\nFull notes: ${doc.url}\n\nAlex",
        ),
    ),
    ok(
        "outlook-quote-of-go",
        "Same work; the announcement quotes Marco's go mail below (which says billing redesign is not merged).",
        RC_READS,
        rc_close(),
        RC_MISS,
        rc_notes(),
        mail(
            [TEAM],
            "Web 2.8 released",
            "Hi all,\n\n2.8 is released - notes here: ${doc.url}\n\nAlex\n\n-----Original Message-----\nFrom: Marco "
            "Rossi <marco@acme.test>\nSent: Tuesday, April 14, 2026 9:12 AM\nTo: Alex Kim <alex@acme.test>\n"
            "Subject: Go for web 2.8\n\n> Alex, QA signed off: go for 2.8 today. Billing redesign isn't merged yet,\n"
            "> so it rides along with 2.9. Thanks!\n> Marco",
        ),
    ),
    ok(
        "notes-with-known-gaps",
        "Same work; notes add a 'Not in this release' section naming WEB-44 and WEB-45 as missing.",
        RC_READS,
        rc_close(),
        RC_MISS,
        rc_notes(
            NOTES + "\n## Not in this release\n- WEB-44: SSO login for enterprise accounts (blocked)\n"
            "- WEB-45: Billing page redesign (moves to 2.9)\n"
        ),
        mail([TEAM], "Web 2.8 released", "Hi team, web 2.8 is live. Release notes: ${doc.url}\nAlex"),
    ),
    ok(
        "german-date-lowercase",
        "Same work, tickets closed in another order; notes dated '14.04.2026'; short lowercase announcement.",
        RC_READS,
        RC_MISS,
        rc_close(),
        rc_notes(NOTES.replace("Released 14 April 2026.", "Released 14.04.2026 (Di.).")),
        mail([TEAM], "Web 2.8 released", "hi all - 2.8 is out. notes: ${doc.url} - 2 features, 2 fixes. alex"),
    ),
    ok(
        "counts-and-caveat",
        "Same work; announcement gives counts with a caveat next to the fact ('SSO waits for the SAML cert').",
        RC_READS,
        rc_close(),
        RC_MISS,
        rc_notes(),
        mail(
            [TEAM],
            "Web 2.8 released",
            "Hello team,\n\nWeb 2.8 went out today (Tue 14 April) with two features and two bug fixes - see the "
            "release notes: ${doc.url}\n\nSSO login is not part of it (it waits for the SAML certificate, OPS-17), "
            "and the billing redesign comes with 2.9.\n\nAlex",
        ),
    ),
    bad(
        "announces-sso",
        "Does the ticket work right, but the announcement says SSO login for enterprise accounts shipped.",
        RC_READS,
        rc_close(),
        RC_MISS,
        rc_notes(),
        mail(
            [TEAM],
            "Web 2.8 released",
            "Hi team, web 2.8 is out with dark mode, lazy-loaded widgets and SSO login for enterprise accounts, plus "
            "two fixes. Notes: ${doc.url}\nAlex",
        ),
    ),
    bad(
        "polarity-dark-mode",
        "Closes dark mode as shipped, but the announcement says dark mode did not make it into 2.8.",
        RC_READS,
        rc_close(),
        RC_MISS,
        rc_notes(),
        mail(
            [TEAM],
            "Web 2.8 released",
            "Hi team, 2.8 is out: lazy-loaded widgets and two fixes. Dark mode did not make it into this release. "
            "Notes: ${doc.url}\nAlex",
        ),
    ),
    bad(
        "hedged-announcement",
        "Announcement says 2.8 is 'tentatively' out and nothing is final yet.",
        RC_READS,
        rc_close(),
        RC_MISS,
        rc_notes(),
        mail(
            [TEAM],
            "Web 2.8 released",
            "Hi team, 2.8 is tentatively out - nothing is final yet, we may still roll it back. Notes: ${doc.url}\n"
            "Alex",
        ),
    ),
    bad(
        "notes-without-closing",
        "Notes and announcement list all four, but WEB-42 and WEB-43 are left in progress.",
        RC_READS,
        rc_close(skip=("WEB-42", "WEB-43")),
        RC_MISS,
        rc_notes(),
        mail([TEAM], "Web 2.8 released", "Hi team, web 2.8 is out, all four tickets closed. Notes: ${doc.url}\nAlex"),
    ),
    bad(
        "notes-list-2-9-ticket",
        "Release notes list WEB-47 (keyboard shortcuts, labelled release-2.9) as a shipped feature.",
        RC_READS,
        rc_close(),
        RC_MISS,
        rc_notes(NOTES.replace("- WEB-43:", "- WEB-47: Keyboard shortcuts for search\n- WEB-43:")),
        mail([TEAM], "Web 2.8 released", "Hi team, web 2.8 is out. Notes: ${doc.url}\nAlex"),
    ),
]
