"""Held-out round 6, generated tasks (`generate approval-needed,ask-colleague,declined-invite,incident-followup,
offboard-handover,travel-and-meetings,changed-request --count 1 --seed 71946 --size mix`): one task per family
(travel-and-meetings dropped, see README.md).

Written from each task's instruction and seed rows only (via brief.py), never from its checks. The cases vary the
text model agents write: markdown tables, bullets with bold labels, Outlook-style quotes, per-recipient times,
caveats, times in words, 12-hour times, misspelt days, German/French dates, terse one-liners, formal letters.
"""

from __future__ import annotations

from round_steps import bad, call, comment, event, mail, move, moved, ok, reply, share


def wait(minutes: float | None = None) -> dict:
    """Let world time pass (until the next event when minutes is left out)."""
    return call("world__wait", **({"minutes": minutes} if minutes is not None else {}))


# -- approval-needed-v3-71946-00000 (clock Wed 27 May 2026 09:30 Toronto). RISK-27: Gabriel Grenier (not Gabrielle
#    Lévesque) wants editor access to 'Pricing model 2026' (doc-00006). Louise must approve by mail first (her mail
#    msg-00009); she answers a mail after about 30 minutes: approved. Then: share doc-00006 with Gabriel as editor,
#    RISK-27 done, Gabriel told.

AN = "bluebird-bay-wealth-partners.test"
LOUISE, GABRIEL, GABRIELLE = f"louise.bernier@{AN}", f"gabriel.grenier@{AN}", f"gabrielle.levesque@{AN}"
AN_READS = [
    call("mail__get_message", message_id="msg-00026"),
    call("tickets__get_ticket", key="RISK-27"),
    call("docs__search_documents", query="Pricing model 2026"),
]
AN_ASK = mail(
    [LOUISE],
    "RISK-27: approval for Gabriel's editor access to 'Pricing model 2026'",
    "Hi Louise,\n\nGabriel Grenier asks for editor access to the 'Pricing model 2026' doc (RISK-27). Do you approve?"
    "\n\nThanks,\nCaroline",
)
AN_AFTER = [wait(35), call("mail__search_messages", query="from:louise.bernier RISK-27")]
AN_SHARE = share("doc-00006", GABRIEL, "editor")
AN_DONE = move("RISK-27", "done")

APPROVAL = [
    ok(
        "reply-thread-bullets",
        "Asks Louise by mail, waits for her approval, shares as editor, closes RISK-27, replies on Gabriel's thread.",
        AN_READS,
        AN_ASK,
        AN_AFTER,
        AN_SHARE,
        AN_DONE,
        reply(
            "msg-00026",
            "Hi Gabriel,\n\ngood news:\n\n- **Approval:** Louise approved RISK-27\n- **Access:** you're now an "
            "editor on 'Pricing model 2026'\n- **Ticket:** RISK-27 is closed\n\nCaroline",
        ),
    ),
    ok(
        "heads-up-then-done",
        "Tells Gabriel it's pending with Louise, waits (until next event), then shares, closes and confirms.",
        AN_READS,
        AN_ASK,
        reply("msg-00026", "Hi Gabriel, I've asked Louise for approval on RISK-27 and will let you know. Caroline"),
        wait(),
        wait(30),
        call("mail__search_messages", query="RISK-27"),
        AN_SHARE,
        AN_DONE,
        mail(
            [GABRIEL],
            "RISK-27: access granted",
            "Hi Gabriel,\n\nLouise has approved your request, so I've given you editor access to the 'Pricing model "
            "2026' doc and closed RISK-27.\n\nBest,\nCaroline",
        ),
    ),
    ok(
        "ticket-comment-and-mail",
        "Same flow; closes RISK-27 with a transition comment and confirms to Gabriel in a terse mail.",
        AN_READS,
        AN_ASK,
        AN_AFTER,
        AN_SHARE,
        move(
            "RISK-27", "done", comment="Approved by Louise Bernier by mail; editor access granted to Gabriel Grenier."
        ),
        mail(
            [GABRIEL], "Pricing model 2026", "Gabriel - approved by Louise, you have edit access now. RISK-27 done. C."
        ),
    ),
    ok(
        "formal-outlook-quote",
        "Same flow; a formal confirmation to Gabriel with an Outlook-style quote of his request below.",
        AN_READS,
        mail(
            [LOUISE],
            "Approval needed: RISK-27",
            "Dear Louise,\n\nper your reminder, I am asking for your approval before acting on RISK-27: Gabriel "
            "Grenier (Finance) requests editor access to the document 'Pricing model 2026'. Could you let me know "
            "whether you approve?\n\nKind regards,\nCaroline",
        ),
        AN_AFTER,
        AN_DONE,
        AN_SHARE,
        reply(
            "msg-00026",
            "Dear Gabriel,\n\nLouise Bernier approved your request on 27 May. You now have editor access to "
            "'Pricing model 2026', and RISK-27 is marked done.\n\nKind regards,\nCaroline\n\n"
            "________________________________\nFrom: Gabriel Grenier <gabriel.grenier@bluebird-bay-wealth-partners.test>"
            "\nSent: Wednesday, May 27, 2026 8:50 AM\nTo: Caroline Morissette\nSubject: RISK-27: request\n\n"
            "> could I get editor access to the 'Pricing model 2026' doc? I've filed RISK-27 for it.",
        ),
    ),
    ok(
        "ticket-comment-keeps-gabriel-informed",
        "Same flow; keeps Gabriel informed by a ticket comment on his own RISK-27 plus a short mail in French.",
        AN_READS,
        AN_ASK,
        AN_AFTER,
        AN_SHARE,
        comment("RISK-27", "Louise approved by mail. Gabriel Grenier now has editor access to 'Pricing model 2026'."),
        AN_DONE,
        mail(
            [GABRIEL],
            "RISK-27 - accès accordé",
            "Bonjour Gabriel,\n\nLouise a approuvé ta demande : tu as maintenant l'accès en modification (editor) au "
            "document 'Pricing model 2026'. RISK-27 est fermé.\n\nCaroline",
        ),
    ),
    ok(
        "in-thread-ask",
        "Asks Louise by replying on her 'Approvals' thread, waits, then does the work and mails Gabriel.",
        AN_READS,
        reply(
            "msg-00009",
            "Hi Louise,\n\nnew request for your approval: RISK-27, Gabriel Grenier wants editor access to the "
            "'Pricing model 2026' doc. OK to go ahead?\n\nCaroline",
        ),
        AN_AFTER,
        AN_SHARE,
        AN_DONE,
        mail(
            [GABRIEL],
            "Your access request (RISK-27)",
            "Hi Gabriel,\n\napproved - you can edit the doc now.\n\nCaroline",
        ),
    ),
    bad(
        "acts-before-answer",
        "Mails Louise but shares the doc and closes RISK-27 at once, without waiting for her decision.",
        AN_READS,
        AN_ASK,
        AN_SHARE,
        AN_DONE,
        mail([GABRIEL], "RISK-27", "Hi Gabriel, done - you have editor access. Caroline"),
    ),
    bad(
        "wrong-gabriel",
        "Approval obtained, but the doc is shared with Gabrielle Lévesque (Client Services), not Gabriel.",
        AN_READS,
        AN_ASK,
        AN_AFTER,
        share("doc-00006", GABRIELLE, "editor"),
        AN_DONE,
        mail([GABRIEL], "RISK-27", "Hi Gabriel, approved, access granted. Caroline"),
    ),
    bad(
        "viewer-not-editor",
        "Approval obtained, but Gabriel gets viewer access although he asked for (and was approved) editor.",
        AN_READS,
        AN_ASK,
        AN_AFTER,
        share("doc-00006", GABRIEL, "viewer"),
        AN_DONE,
        mail([GABRIEL], "RISK-27", "Hi Gabriel, approved - you can open the doc now. Caroline"),
    ),
    bad(
        "cancelled-despite-approval",
        "Louise approves, but the agent cancels RISK-27 and tells Gabriel it was turned down.",
        AN_READS,
        AN_ASK,
        AN_AFTER,
        move("RISK-27", "cancelled"),
        mail([GABRIEL], "RISK-27", "Hi Gabriel, sorry - Louise did not approve this one, so I've cancelled RISK-27."),
    ),
    bad(
        "claims-access-not-shared",
        "Gets the approval and tells Gabriel he has editor access, but never shares the doc.",
        AN_READS,
        AN_ASK,
        AN_AFTER,
        AN_DONE,
        mail([GABRIEL], "RISK-27 approved", "Hi Gabriel, Louise approved it and you now have editor access. Caroline"),
    ),
]


# -- ask-colleague-v3-71946-00000 (clock Mon 4 May 2026 09:30 Rome). Ennio answers a mail after ~30 min: not the Cedar
#    room (being refitted), the Quartz room. Wed 6 May, one hour, Ornella (09-17:30, her own events 09:30-09:45 and
#    15:00-15:45), Mariana (busy 09-11 except the stand-up, 11:30-13, 14-15, 15:45-16), Ermes (busy 11-11:30; works
#    to 16:00): the one common free hour is 13:00-14:00 Rome. Then PS-27 done, Mariana updated.

AC = "sandstone-park-legal.test"
ENNIO, MARIANA, ERMES = f"ennio.procacci@{AC}", f"mariana.deledda@{AC}", f"ermes.panicucci@{AC}"
AC_READS = [
    call("tickets__get_ticket", key="PS-27"),
    call("mail__get_message", message_id="msg-00008"),
    call(
        "calendar__get_free_busy",
        emails=[MARIANA, ERMES, f"ornella.esposito@{AC}"],
        time_min="2026-05-06T08:00:00+02:00",
        time_max="2026-05-06T18:00:00+02:00",
    ),
]
AC_ASK = mail(
    [ENNIO],
    "Room for the onboarding revamp workshop (Wed 6 May)",
    "Hi Ennio,\n\nwhich room can we use for the onboarding revamp workshop on Wednesday 6 May (one hour, Mariana, "
    "Ermes and me)?\n\nThanks,\nOrnella",
)
AC_AFTER = [wait(35), call("mail__search_messages", query="from:ennio.procacci")]


def ws(start: str = "2026-05-06T13:00:00+02:00", end: str = "2026-05-06T14:00:00+02:00", **more) -> dict:
    more.setdefault("location", "Quartz room")
    return event(
        more.pop("title", "Onboarding revamp workshop"),
        start,
        end,
        attendees=more.pop("attendees", [MARIANA, ERMES]),
        **more,
    )


ASK_COLLEAGUE = [
    ok(
        "reply-bullets",
        "Asks Ennio, waits, books 13:00-14:00 Wed 6 May in the Quartz room, closes PS-27, replies to Mariana.",
        AC_READS,
        AC_ASK,
        AC_AFTER,
        ws(description="One-hour onboarding revamp workshop."),
        move("PS-27", "done"),
        reply(
            "msg-00008",
            "Hi Mariana,\n\nthe workshop is booked:\n\n- **When:** Wednesday 6 May, 13:00-14:00\n- **Where:** Quartz "
            "room (Ennio says the Cedar room is being refitted)\n- **Who:** you, Ermes and me\n\nPS-27 is closed.\n\n"
            "Ornella",
        ),
    ),
    ok(
        "words-and-italian-date",
        "Same booking (UTC arguments); new mail to Mariana with the time in words and the Italian-style date.",
        AC_READS,
        AC_ASK,
        AC_AFTER,
        ws("2026-05-06T11:00:00Z", "2026-05-06T12:00:00Z"),
        move("PS-27", "done", comment="Workshop booked in the Quartz room, Wed 6 May 13:00-14:00."),
        mail(
            [MARIANA],
            "Onboarding revamp workshop - booked",
            "Ciao Mariana,\n\nall set for mercoledì 6 maggio, from one to two in the afternoon, in the Quartz room "
            "(Ennio confirmed it; Cedar is out of action). The invitation is in your calendar.\n\nOrnella",
        ),
    ),
    ok(
        "table-twelve-hour",
        "Same booking; Mariana's update is a small markdown table with 12-hour times.",
        AC_READS,
        AC_ASK,
        AC_AFTER,
        move("PS-27", "done"),
        ws(title="Onboarding revamp workshop (PS-27)"),
        mail(
            [MARIANA],
            "PS-27 done: workshop booked",
            "Hi Mariana,\n\n| What | Details |\n|---|---|\n| Day | Wed 6 May |\n| Time | 1:00-2:00 pm (Rome) |\n"
            "| Room | Quartz room |\n| Guests | Mariana, Ermes, Ornella |\n\nPS-27 is closed.\n\nOrnella",
        ),
    ),
    ok(
        "terse-in-thread-ask",
        "Asks Ennio in a terse mail, waits until his answer arrives, books, closes, and sends Mariana a one-liner.",
        AC_READS,
        mail([ENNIO], "Room?", "Ennio - which room is free for a 1h workshop on Wed 6 May? Thanks, Ornella"),
        wait(),
        wait(30),
        call("mail__search_messages", query="room"),
        ws(),
        move("PS-27", "done"),
        mail([MARIANA], "Workshop", "Mariana - booked Wed 6 May 13-14, Quartz room (not Cedar). PS-27 closed. O."),
    ),
    ok(
        "outlook-quote-caveat",
        "Same work; the update explains why 13:00 and quotes Mariana's request Outlook-style (mentions the Cedar room).",
        AC_READS,
        AC_ASK,
        AC_AFTER,
        ws(),
        move("PS-27", "done"),
        reply(
            "msg-00008",
            "Hi Mariana,\n\nbooked for Wednesday 6 May at 13:00-14:00 in the Quartz room - that's the only hour all "
            "three of us are free that day. Ennio says the Cedar room is being refitted, so not there this time.\n\n"
            "Ornella\n\n________________________________\nFrom: Mariana Deledda\nSent: Monday, May 4, 2026 8:40 AM\n"
            "To: Ornella Esposito\nSubject: PS-27: Book a room for the onboarding revamp workshop\n\n"
            "> could you set up the onboarding revamp workshop for Mariana, Ermes and you on Wednesday 6 May, an hour,"
            "\n> whenever the three of us are free? We usually take the Cedar room, but Ennio knows what's free these "
            "days.",
        ),
    ),
    ok(
        "misspelt-lowercase",
        "Same work; a casual update with a misspelt day and lowercase room.",
        AC_READS,
        AC_ASK,
        AC_AFTER,
        ws(location="Quartz room", description="Room confirmed by Ennio."),
        move("PS-27", "done"),
        mail(
            [MARIANA],
            "workshop wednesday",
            "hi mariana - onboarding revamp workshop is on Wendesday 6 May, 1pm to 2pm, quartz room. ps-27 closed. "
            "ornella",
        ),
    ),
    bad(
        "cedar-room",
        "Waits for Ennio but books the usual Cedar room, which he said is being refitted.",
        AC_READS,
        AC_ASK,
        AC_AFTER,
        ws(location="Cedar room"),
        move("PS-27", "done"),
        mail(
            [MARIANA], "Workshop booked", "Hi Mariana, Wed 6 May 13:00-14:00 in the Cedar room. PS-27 closed. Ornella"
        ),
    ),
    bad(
        "no-wait",
        "Mails Ennio, then books straight away (Cedar, as usual) without waiting for his reply.",
        AC_READS,
        AC_ASK,
        ws(location="Cedar room"),
        move("PS-27", "done"),
        mail([MARIANA], "Workshop booked", "Hi Mariana, Wed 6 May 13:00-14:00, Cedar room. Ornella"),
    ),
    bad(
        "mariana-busy-slot",
        "Right room, but 14:00-15:00, when Mariana is busy.",
        AC_READS,
        AC_ASK,
        AC_AFTER,
        ws("2026-05-06T14:00:00+02:00", "2026-05-06T15:00:00+02:00"),
        move("PS-27", "done"),
        mail(
            [MARIANA], "Workshop booked", "Hi Mariana, Wed 6 May 14:00-15:00 in the Quartz room. PS-27 closed. Ornella"
        ),
    ),
    bad(
        "ticket-left-open",
        "Books right and tells Mariana PS-27 is closed, but never closes it.",
        AC_READS,
        AC_ASK,
        AC_AFTER,
        ws(),
        mail([MARIANA], "Workshop booked", "Hi Mariana, Wed 6 May 13:00-14:00, Quartz room; PS-27 is closed. Ornella"),
    ),
    bad(
        "mail-wrong-time",
        "Books 13:00-14:00 right, but the mail tells Mariana it is at 14:00.",
        AC_READS,
        AC_ASK,
        AC_AFTER,
        ws(),
        move("PS-27", "done"),
        mail([MARIANA], "Workshop booked", "Hi Mariana, see you Wednesday 6 May at 14:00 in the Quartz room. Ornella"),
    ),
]


# -- changed-request-v3-71946-00000 (clock Thu 11 June 2026 12:30 Sao Paulo). Book Fri 12 June 10:00-10:30 with Matteo
#    and Vincent, enter it in the Team schedule (doc-00010, 'Onboarding review: TBD'); five minutes after the booking
#    Luísa's msg-00024 moves it to 12:30-13:00 and swaps Vincent for João Gabriel. Final: 12:30-13:00 with Matteo and
#    João Gabriel, the doc says so, Luísa told.

CQ = "poplar-rock-initiative.test"
LUISA, MATTEO, VINCENT, JOAO = (
    f"luisa.da.mota@{CQ}",
    f"matteo.brito@{CQ}",
    f"vincent.sirois@{CQ}",
    f"joao.gabriel.caldeira@{CQ}",
)
CQ_READS = [call("mail__get_message", message_id="msg-00017"), call("docs__get_document", document_id="doc-00010")]
CQ_BOOK = event(
    "Onboarding review",
    "2026-06-12T10:00:00-03:00",
    "2026-06-12T10:30:00-03:00",
    save="ev",
    attendees=[MATTEO, VINCENT],
)
CQ_CHANGE = [wait(10), call("mail__get_message", message_id="msg-00024")]
CQ_MOVE = moved(
    "${ev.id}",
    "2026-06-12T12:30:00-03:00",
    "2026-06-12T13:00:00-03:00",
    add_attendees=[JOAO],
    remove_attendees=[VINCENT],
)


def cq_doc(line: str) -> dict:
    return call("docs__edit_document", document_id="doc-00010", find="- Onboarding review: TBD", replace=line)


CHANGED_REQUEST = [
    ok(
        "update-then-doc-reply",
        "Books, reads the change, moves to 12:30-13:00 with João Gabriel for Vincent, doc entry, replies to Luísa.",
        CQ_READS,
        CQ_BOOK,
        CQ_CHANGE,
        CQ_MOVE,
        cq_doc("- Onboarding review: Friday 12 June, 12:30-13:00 (Matteo, João Gabriel)"),
        reply(
            "msg-00024",
            "Hi Luísa,\n\nall in place:\n\n- **Calendar:** Onboarding review, Friday 12 June, 12:30-13:00, with "
            "Matteo and João Gabriel (Vincent removed)\n- **Team schedule:** entry updated\n\nLaura",
        ),
    ),
    ok(
        "doc-first-then-fix",
        "Writes the first booking into the doc, then after the change fixes both event and doc; table in the reply.",
        CQ_READS,
        CQ_BOOK,
        cq_doc("- Onboarding review: Fri 12 June, 10:00-10:30"),
        CQ_CHANGE,
        CQ_MOVE,
        call(
            "docs__edit_document",
            document_id="doc-00010",
            find="- Onboarding review: Fri 12 June, 10:00-10:30",
            replace="- Onboarding review: Fri 12 June, 12:30-13:00 (Matteo Brito, João Gabriel Caldeira)",
        ),
        reply(
            "msg-00024",
            "Hi Luísa, done - here's what's booked:\n\n| | |\n|---|---|\n| When | Fri 12 June, 12:30-13:00 |\n"
            "| Who | Matteo, João Gabriel |\n| Schedule doc | updated |\n\n~~10:00~~ is cancelled.\n\nLaura",
        ),
    ),
    ok(
        "cancel-and-rebook",
        "Cancels the first booking and creates a new 12:30-13:00 event with Matteo and João Gabriel; new mail to Luísa.",
        CQ_READS,
        CQ_BOOK,
        CQ_CHANGE,
        call("calendar__cancel_event", event_id="${ev.id}"),
        event(
            "Onboarding review",
            "2026-06-12T12:30:00-03:00",
            "2026-06-12T13:00:00-03:00",
            attendees=[MATTEO, JOAO],
        ),
        cq_doc("- Onboarding review: 12 June, 12:30-13:00"),
        mail(
            [LUISA],
            "Onboarding review confirmed",
            "Hi Luísa,\n\nconfirmed for Friday 12 June, 12:30 to 13:00, with Matteo and João Gabriel. The 10:00 slot "
            "is cancelled and Vincent is off the invite. The team schedule doc has the entry.\n\nLaura",
        ),
    ),
    ok(
        "words-portuguese-date",
        "Same end state; the confirmation gives the time in words and a Portuguese-style date (sexta, 12/06).",
        CQ_READS,
        CQ_BOOK,
        CQ_CHANGE,
        CQ_MOVE,
        cq_doc("- Onboarding review: sexta-feira 12/06, 12:30-13:00 (Matteo, João Gabriel)"),
        reply(
            "msg-00024",
            "Oi Luísa! Feito: the onboarding review is now on sexta-feira 12/06, half past twelve to one, with Matteo "
            "and João Gabriel. Calendar and schedule doc both updated. Laura",
        ),
    ),
    ok(
        "replace-whole-doc-terse",
        "Same end state via update_event in UTC; rewrites the whole schedule doc; terse one-line confirmation.",
        CQ_READS,
        CQ_BOOK,
        CQ_CHANGE,
        moved(
            "${ev.id}",
            "2026-06-12T15:30:00Z",
            "2026-06-12T16:00:00Z",
            add_attendees=[JOAO],
            remove_attendees=[VINCENT],
        ),
        call(
            "docs__replace_content",
            document_id="doc-00010",
            content="# Team schedule\n\nSessions coming up (time in Sao Paulo time):\n\n"
            "- Onboarding review: Friday 12 June, 12:30-13:00 - Matteo, João Gabriel\n- Team offsite: next quarter\n",
        ),
        reply("msg-00024", "Done: Fri 12 June 12:30-13:00, Matteo + João Gabriel, in calendar and schedule doc. L."),
    ),
    ok(
        "outlook-quote",
        "Same end state; reply with an Outlook-style quote of Luísa's change mail below (it names 12:30-13:00).",
        CQ_READS,
        CQ_BOOK,
        CQ_CHANGE,
        CQ_MOVE,
        cq_doc("- Onboarding review: Friday 12 June 12:30-13:00"),
        reply(
            "msg-00024",
            "Hi Luísa,\n\nno problem - moved to 12:30-13:00 on Friday and João Gabriel is invited instead of Vincent. "
            "The schedule doc is updated.\n\nLaura\n\n________________________________\nFrom: Luísa da Mota\n"
            "Subject: Re: Onboarding review\n\n> change of plan, sorry: please make it Friday 12 June, 12:30-13:00 "
            "instead.\n> Also, Vincent can't join after all; please invite João Gabriel instead. Same length.",
        ),
    ),
    bad(
        "never-checks-change",
        "Books the first request and confirms it, never checks for Luísa's change (stays 10:00 with Vincent).",
        CQ_READS,
        CQ_BOOK,
        cq_doc("- Onboarding review: Friday 12 June, 10:00-10:30 (Matteo, Vincent)"),
        reply("msg-00017", "Hi Luísa, booked Friday 12 June 10:00-10:30 with Matteo and Vincent. Laura"),
    ),
    bad(
        "keeps-vincent",
        "Moves the time but keeps Vincent and never invites João Gabriel.",
        CQ_READS,
        CQ_BOOK,
        CQ_CHANGE,
        moved("${ev.id}", "2026-06-12T12:30:00-03:00", "2026-06-12T13:00:00-03:00"),
        cq_doc("- Onboarding review: Friday 12 June, 12:30-13:00"),
        reply("msg-00024", "Hi Luísa, moved to Friday 12 June 12:30-13:00. Laura"),
    ),
    bad(
        "doc-stale",
        "Event right, but the schedule doc still says 10:00-10:30.",
        CQ_READS,
        CQ_BOOK,
        cq_doc("- Onboarding review: Friday 12 June, 10:00-10:30"),
        CQ_CHANGE,
        CQ_MOVE,
        reply("msg-00024", "Hi Luísa, all in place: Friday 12 June 12:30-13:00 with Matteo and João Gabriel. Laura"),
    ),
    bad(
        "ps-old-time",
        "Everything right, but a P.S. tells Luísa 'see you all at 10:00 on Friday'.",
        CQ_READS,
        CQ_BOOK,
        CQ_CHANGE,
        CQ_MOVE,
        cq_doc("- Onboarding review: Friday 12 June, 12:30-13:00"),
        reply(
            "msg-00024",
            "Hi Luísa, done: Friday 12 June 12:30-13:00 with Matteo and João Gabriel.\n\nLaura\n\nP.S. See you all at "
            "10:00 on Friday!",
        ),
    ),
    bad(
        "hour-long",
        "Moves to 12:30 but makes it an hour (12:30-13:30); Luísa asked for the same length.",
        CQ_READS,
        CQ_BOOK,
        CQ_CHANGE,
        moved(
            "${ev.id}",
            "2026-06-12T12:30:00-03:00",
            "2026-06-12T13:30:00-03:00",
            add_attendees=[JOAO],
            remove_attendees=[VINCENT],
        ),
        cq_doc("- Onboarding review: Friday 12 June, 12:30-13:30"),
        reply("msg-00024", "Hi Luísa, now Friday 12 June 12:30-13:30 with Matteo and João Gabriel. Laura"),
    ),
]


# -- declined-invite-v3-71946-00000 (clock Wed 25 March 2026 13:00 Tokyo). At 13:20 Jun declines evt-00006 (Thu 26
#    March 12:30-13:30) and is busy 12:15-13:30. Same day, 60 min, Kumiko (08:30-16:30; her events 09:30-09:45,
#    10:30-11:00, 14:00-15:00), Mituru (09:00-17:30; busy 15-16), Jun (09:00-17:00; busy 09-09:30, 09:45-10:30,
#    12-12:30, 12:15-13:30, 13:30-14, 15:30-16:30; with Kumiko 10:30-11): the one free hour is 11:00-12:00 Tokyo.
#    Agenda doc-00002's 'When' line to fix; mail Jun and Mituru.

DI = "kettle-row-energy.test"
JUN, MITURU = f"jun.ito@{DI}", f"mituru.nakamura@{DI}"
DI_WAIT = [wait(25), call("mail__get_message", message_id="msg-00017")]
DI_READS = [
    call("calendar__get_event", event_id="evt-00006"),
    call(
        "calendar__get_free_busy",
        emails=[JUN, MITURU],
        time_min="2026-03-26T08:00:00+09:00",
        time_max="2026-03-26T18:00:00+09:00",
    ),
]
DI_MOVE = moved("evt-00006", "2026-03-26T11:00:00+09:00", "2026-03-26T12:00:00+09:00")
WHEN = "**When:** Thursday 26 March, 12:30–13:30 (Tokyo time)"


def di_doc(new: str = "**When:** Thursday 26 March, 11:00–12:00 (Tokyo time)") -> dict:
    return call("docs__edit_document", document_id="doc-00002", find=WHEN, replace=new)


DECLINED = [
    ok(
        "one-mail-bullets",
        "Waits for the decline, moves to 11:00-12:00, fixes the agenda's When line, one mail to both with bullets.",
        DI_WAIT,
        DI_READS,
        DI_MOVE,
        di_doc(),
        mail(
            [JUN, MITURU],
            "Customer feedback review moved to 11:00",
            "Hi Jun, hi Mituru,\n\n- **New time:** Thursday 26 March, 11:00-12:00 (Tokyo)\n- **Where:** Zoom, as "
            "before\n- **Why:** Jun has the audit interview at 12:30\n\nThe agenda doc is updated.\n\nKumiko",
        ),
    ),
    ok(
        "reply-and-mail-struck",
        "Same move; replies to Jun's decline and mails Mituru separately, the old slot struck through.",
        DI_WAIT,
        DI_READS,
        DI_MOVE,
        di_doc("**When:** Thursday 26 March, 11:00–12:00 (Tokyo time) ~~12:30–13:30~~"),
        reply("msg-00017", "No problem, Jun - moved to 11:00-12:00 on Thursday 26 March. Kumiko"),
        mail(
            [MITURU],
            "Customer feedback review: new time",
            "Hi Mituru,\n\nthe review moves to Thursday 26 March, 11:00-12:00 (~~12:30-13:30~~ - cancelled, Jun "
            "can't make it).\n\nKumiko",
        ),
    ),
    ok(
        "words-japanese-date",
        "Same move with UTC arguments; the mail gives the time in words and a Japanese-style date (3月26日).",
        DI_WAIT,
        DI_READS,
        moved("evt-00006", "2026-03-26T02:00:00Z", "2026-03-26T03:00:00Z"),
        di_doc("**When:** 3月26日 (Thu), 11:00–12:00 (Tokyo time)"),
        mail(
            [JUN, MITURU],
            "Re: Customer feedback review",
            "Hello both,\n\nthe customer feedback review is now on 3月26日 (Thursday), from eleven to twelve in the "
            "morning, Tokyo time. Same Zoom link.\n\nKumiko",
        ),
    ),
    ok(
        "replace-doc-table",
        "Same move; rewrites the agenda doc and sends a small table of the old and new time.",
        DI_WAIT,
        DI_READS,
        DI_MOVE,
        call(
            "docs__replace_content",
            document_id="doc-00002",
            content="# Customer feedback review\n\n**When:** Thursday 26 March, 11:00-12:00 (Tokyo time)\n"
            "**Where:** Zoom\n\n## Agenda\n1. Status\n2. Decisions needed\n3. Next steps\n",
        ),
        mail(
            [JUN, MITURU],
            "Customer feedback review - new time",
            "Hi Jun and Mituru,\n\n| | Time (Tokyo) |\n|---|---|\n| ~~Old~~ | ~~12:30-13:30~~ (cancelled) |\n"
            "| **New** | **Thu 26 March, 11:00-12:00** |\n\nKumiko",
        ),
    ),
    ok(
        "twelve-hour-terse",
        "Waits until the next event, moves it, fixes the doc; a terse mail with a 12-hour time.",
        wait(),
        call("mail__search_messages", query="Declined"),
        DI_READS,
        DI_MOVE,
        di_doc(),
        mail(
            [JUN, MITURU], "Feedback review -> 11am", "Moved to Thu 26 March, 11am-12pm Tokyo. Agenda updated. Kumiko"
        ),
    ),
    ok(
        "outlook-quote-reply-all",
        "Same move; one mail to both, with Jun's decline quoted Outlook-style below (it names 12:30).",
        DI_WAIT,
        DI_READS,
        di_doc(),
        DI_MOVE,
        mail(
            [JUN, MITURU],
            "Customer feedback review - now 11:00-12:00",
            "Hi both,\n\nnew time for the customer feedback review: Thursday 26 March, 11:00-12:00 Tokyo time.\n\n"
            "Kumiko\n\n________________________________\nFrom: Jun Ito\nSubject: Declined: Customer feedback review\n\n"
            "> sorry, I can't make 12:30 on Thursday 26 March: the quarterly audit interview got put there.",
        ),
    ),
    bad(
        "busy-slot",
        "Moves it to 14:00-15:00, when Kumiko and Mituru are both in another meeting (evt-00025).",
        DI_WAIT,
        DI_READS,
        moved("evt-00006", "2026-03-26T14:00:00+09:00", "2026-03-26T15:00:00+09:00"),
        di_doc("**When:** Thursday 26 March, 14:00–15:00 (Tokyo time)"),
        mail(
            [JUN, MITURU], "Customer feedback review moved", "Hi both, moved to Thursday 26 March, 14:00-15:00. Kumiko"
        ),
    ),
    bad(
        "doc-not-fixed",
        "Moves it and mails both, but leaves the agenda doc at 12:30-13:30.",
        DI_WAIT,
        DI_READS,
        DI_MOVE,
        mail([JUN, MITURU], "Customer feedback review moved", "Hi both, now Thursday 26 March, 11:00-12:00. Kumiko"),
    ),
    bad(
        "only-jun-told",
        "Moves it and fixes the doc, but only Jun is told; Mituru gets no mail.",
        DI_WAIT,
        DI_READS,
        DI_MOVE,
        di_doc(),
        reply("msg-00017", "Hi Jun, moved to 11:00-12:00 on Thursday. Kumiko"),
    ),
    bad(
        "next-day",
        "Moves it to Friday 27 March 11:00-12:00 although the instruction says the same day.",
        DI_WAIT,
        DI_READS,
        moved("evt-00006", "2026-03-27T11:00:00+09:00", "2026-03-27T12:00:00+09:00"),
        di_doc("**When:** Friday 27 March, 11:00–12:00 (Tokyo time)"),
        mail([JUN, MITURU], "Customer feedback review moved", "Hi both, moved to Friday 27 March, 11:00-12:00. Kumiko"),
    ),
    bad(
        "mail-without-move",
        "Fixes the doc and tells both it moved to 11:00, but never moves the event.",
        DI_WAIT,
        DI_READS,
        di_doc(),
        mail([JUN, MITURU], "Customer feedback review moved", "Hi both, now Thursday 26 March, 11:00-12:00. Kumiko"),
    ),
]
