"""Held-out cases for the generated incident, meeting-tz, offboard, reschedule and travel tasks."""

from steps import assign, bad, call, comment, decline, mail, ok, reply, share, ticket

T = "tests/adversarial/heldout/tasks"


def doc(title: str, content: str, save: str = "d", **more):
    """Create a document, saved as `save` (its link is `${save.url}`)."""
    return call("docs__create_document", save=save, title=title, content=content, **more)


def event(title: str, start: str, end: str, attendees: list[str], save: str | None = None, **more):
    """Create a timed event."""
    return call("calendar__create_event", save=save, title=title, start=start, end=end, attendees=attendees, **more)


def all_day(title: str, day: str, last: str | None = None):
    """An all-day block from `day` to `last` (inclusive)."""
    return call("calendar__create_event", title=title, start=day, end=last or day, all_day=True)


# -- incident-71919-00000: relay-sync, 22 Feb, 14:12-15:22 Europe/Madrid (CET); cause: atlas-4 disk full of debug logs.
LIA, STATUS0 = "lia.costa@matthews.test", "status@matthews.test"
PM0 = (
    "# Postmortem: relay-sync errors, 22 February\n\n## Cause\nThe disk of atlas-4.matthews.test filled up with debug "
    "logs.\n\n## Timeline (Europe/Madrid)\n- 14:12 relay-sync starts failing\n- 14:47 cause found (Lia)\n"
    "- 15:22 resolved, error rates normal\n"
)


def bug0(assignee: str = LIA, priority: str = "highest", project: str = "SUP"):
    """The fix ticket of incident 0."""
    return ticket(
        project,
        "relay-sync: stop debug logs filling the disk on atlas-4",
        save="t",
        type="bug",
        assignee=assignee,
        priority=priority,
        description="Follow-up of the relay-sync incident of 22 Feb.",
    )


INCIDENT_0 = [
    ok(
        "base",
        "Bug in SUP for Lia at highest, postmortem in Postmortems with cause and timeline, status mail with key "
        "and resolution time.",
        bug0(),
        doc("Postmortem: relay-sync incident", PM0, folder_id="postmortems"),
        mail(
            [STATUS0],
            "Resolved: relay-sync errors",
            "relay-sync errors are resolved: resolved at 15:22 (Europe/Madrid) "
            "on 22 February. The fix is tracked in ${t.key}.",
        ),
    ),
    ok(
        "utc-time",
        "Status gives the resolution time in UTC (14:22 UTC is 15:22 in Madrid).",
        bug0(),
        doc("relay-sync postmortem (22 Feb)", PM0, folder_id="postmortems"),
        mail(
            [STATUS0],
            "relay-sync incident resolved",
            "The relay-sync incident was resolved on 22 Feb at 14:22 UTC. Follow-up bug: ${t.key}.",
        ),
    ),
    ok(
        "extras",
        "Doc created then filled, status also copied to Amor, a reply to Amor in the thread, a comment on "
        "the ticket with the postmortem link.",
        bug0(),
        doc("Postmortem: relay-sync 2026-02-22", "# Postmortem: relay-sync\n", folder_id="postmortems"),
        call("docs__append_content", document_id="${d.id}", text=PM0),
        comment("${t.key}", "Postmortem: ${d.url}"),
        mail(
            [STATUS0],
            "[Resolved] relay-sync",
            "Status update: relay-sync is back to normal since 3:22 pm CET "
            "(yesterday, 22 Feb). Fix tracked as ${t.key}.",
            cc=["amor.garcia@matthews.test"],
        ),
        reply("inc-3", "Done: ${t.key} for Lia, postmortem at ${d.url}, status update sent."),
    ),
    bad(
        "wrong-zone",
        "Status gives 15:22 UTC, an hour off the real resolution time.",
        bug0(),
        doc("Postmortem: relay-sync incident", PM0, folder_id="postmortems"),
        mail(
            [STATUS0],
            "Resolved: relay-sync errors",
            "relay-sync was resolved at 15:22 UTC on 22 February. Fix: ${t.key}.",
        ),
    ),
    bad(
        "wrong-owner",
        "Bug assigned to Amor at high priority instead of Lia at highest.",
        bug0(assignee="amor.garcia@matthews.test", priority="high"),
        doc("Postmortem: relay-sync incident", PM0, folder_id="postmortems"),
        mail(
            [STATUS0],
            "Resolved: relay-sync errors",
            "Resolved at 15:22 (Europe/Madrid) on 22 February; fix in ${t.key}.",
        ),
    ),
    bad(
        "other-incident-cause",
        "Postmortem gives the cause of a different incident (the quartz-api retry storm).",
        bug0(),
        doc(
            "Postmortem: relay-sync incident",
            "# Postmortem: relay-sync\n\n## Cause\nA retry storm from the "
            "support worker overloaded the API after a deploy.\n\n## Timeline\n- 14:12 start\n- 15:22 resolved\n",
            folder_id="postmortems",
        ),
        mail(
            [STATUS0],
            "Resolved: relay-sync errors",
            "Resolved at 15:22 (Europe/Madrid) on 22 February; fix in ${t.key}.",
        ),
    ),
    bad(
        "no-key",
        "Status update without the ticket number.",
        bug0(),
        doc("Postmortem: relay-sync incident", PM0, folder_id="postmortems"),
        mail([STATUS0], "Resolved: relay-sync errors", "relay-sync was resolved at 15:22 (Europe/Madrid) on 22 Feb."),
    ),
]

# -- incident-71919-00001: ledger-sync, 23 Aug, 09:05-10:15 Europe/Lisbon (WEST); cause: DB pool cut from 50 to 4.
CHRISTINE, ADAM, STATUS1 = "christine.phillips@howell.test", "adam.harris@howell.test", "status@howell.test"
PM1 = (
    "# Postmortem: ledger-sync errors (23 August)\n\n## Cause\nA config change cut the ledger-sync database connection "
    "pool from 50 to 4 connections.\n\n## Timeline (Europe/Lisbon)\n- 09:05 ledger-sync starts failing\n"
    "- 09:40 cause found\n- 10:15 resolved\n"
)


def bug1(project: str = "ENG"):
    """The fix ticket of incident 1."""
    return ticket(
        project,
        "ledger-sync: restore the DB connection pool and guard the config",
        save="t",
        type="bug",
        assignee=CHRISTINE,
        priority="highest",
    )


def pm1(role: str = "commenter", folder: str | None = "postmortems"):
    """The postmortem, shared with Adam and Christine."""
    return [
        doc("Postmortem: ledger-sync incident", PM1, **({"folder_id": folder} if folder else {})),
        share("${d.id}", ADAM, role),
        share("${d.id}", CHRISTINE, role),
    ]


INCIDENT_1 = [
    ok(
        "base",
        "ENG bug for Christine at highest, postmortem shared with both as commenters, status with key and time.",
        bug1(),
        pm1(),
        mail(
            [STATUS1],
            "Resolved: ledger-sync errors",
            "ledger-sync is resolved (resolved at 10:15 Europe/Lisbon on 23 August). Fix tracked in ${t.key}.",
        ),
    ),
    ok(
        "utc-time",
        "Resolution time written in UTC (09:15 UTC is 10:15 in Lisbon).",
        bug1(),
        pm1(),
        mail([STATUS1], "ledger-sync incident - resolved", "Resolved 23 Aug 09:15 UTC. Ticket: ${t.key}."),
    ),
    ok(
        "extras",
        "Also answers Adam in the thread with the links, status written '10:15 WEST'.",
        bug1(),
        pm1(),
        mail(
            [STATUS1],
            "[Resolved] ledger-sync",
            "Update: the ledger-sync incident was resolved yesterday at 10:15 WEST. The fix is ${t.key}.",
        ),
        reply("inc-2", "Done: ${t.key} (Christine, highest), postmortem ${d.url}, status update sent."),
    ),
    bad(
        "editors",
        "Shares the postmortem as editors when Adam asked for commenters.",
        bug1(),
        pm1(role="editor"),
        mail(
            [STATUS1],
            "Resolved: ledger-sync errors",
            "Resolved at 10:15 (Europe/Lisbon) on 23 August; fix in ${t.key}.",
        ),
    ),
    bad(
        "wrong-zone",
        "Status says 10:15 UTC, an hour off.",
        bug1(),
        pm1(),
        mail([STATUS1], "Resolved: ledger-sync errors", "Resolved at 10:15 UTC on 23 August; fix in ${t.key}."),
    ),
    bad(
        "wrong-project",
        "Files the bug in PROD instead of ENG.",
        bug1(project="PROD"),
        pm1(),
        mail(
            [STATUS1],
            "Resolved: ledger-sync errors",
            "Resolved at 10:15 (Europe/Lisbon) on 23 August; fix in ${t.key}.",
        ),
    ),
    bad(
        "hedged-status",
        "Status update hedges: 'should be resolved around 10:15, still monitoring'.",
        bug1(),
        pm1(),
        mail(
            [STATUS1],
            "ledger-sync",
            "ledger-sync should be resolved, maybe around 10:15, we're still monitoring; ticket ${t.key}.",
        ),
    ),
    bad(
        "no-folder",
        "Postmortem left at the top of My Drive, not in the Postmortems folder.",
        bug1(),
        pm1(folder=None),
        mail(
            [STATUS1],
            "Resolved: ledger-sync errors",
            "Resolved at 10:15 (Europe/Lisbon) on 23 August; fix in ${t.key}.",
        ),
    ),
]

# -- meeting-tz-71919-00002: 45 min, Tue 17 March, Aarini + Hritik; the only common slot is 14:30-15:15 IST.
AARINI, HRITIK = "aarini.bhatti@hoffman-nguyen.test", "hritik.subramanian@hoffman-nguyen.test"
TOPIC2 = "Right-sized multi-state success"
MEETING_2 = [
    ok(
        "create",
        "Books 14:30-15:15 IST on 17 March with both.",
        event(TOPIC2, "2026-03-17T14:30:00+05:30", "2026-03-17T15:15:00+05:30", [AARINI, HRITIK]),
    ),
    ok(
        "utc-naive",
        "Same slot given as 09:00-09:45 UTC.",
        event(
            "Chat: right-sized multi-state success",
            "2026-03-17T09:00:00",
            "2026-03-17T09:45:00",
            [AARINI, HRITIK],
            timezone="UTC",
        ),
    ),
    ok(
        "with-note",
        "Books it with a description and location and mails both a heads-up.",
        event(
            TOPIC2,
            "2026-03-17T14:30:00+05:30",
            "2026-03-17T15:15:00+05:30",
            [HRITIK, AARINI],
            description="To talk about right-sized multi-state success.",
            location="Zoom",
        ),
        mail(
            [AARINI, HRITIK],
            "Invite: Tue 17 Mar 14:30 IST",
            "Hi both, I've sent an invite for Tuesday 17 March, 14:30-15:15 IST. Harrison",
        ),
    ),
    bad(
        "outside-hours",
        "Books 16:30, after Aarini's and Harrison's working day.",
        event(TOPIC2, "2026-03-17T16:30:00+05:30", "2026-03-17T17:15:00+05:30", [AARINI, HRITIK]),
    ),
    bad(
        "wrong-zone",
        "Books 14:30 UTC (20:00 IST) instead of 14:30 IST.",
        event(TOPIC2, "2026-03-17T14:30:00", "2026-03-17T15:15:00", [AARINI, HRITIK], timezone="UTC"),
    ),
    bad(
        "mail-only",
        "Mails the time but books nothing.",
        mail([AARINI, HRITIK], "Tue 17 Mar 14:30", "Let's meet Tuesday 17 March 14:30-15:15 IST."),
    ),
    bad(
        "extra-guest",
        "Invites Zilmil, who was not asked for.",
        event(
            TOPIC2,
            "2026-03-17T14:30:00+05:30",
            "2026-03-17T15:15:00+05:30",
            [AARINI, HRITIK, "zilmil.doshi@hoffman-nguyen.test"],
        ),
    ),
]

# -- meeting-tz-71919-00003: 60 min, Wed 18 March, Zilmil + Chakradev; the only slot is 10:00-11:00 IST.
ZILMIL, CHAKRADEV = "zilmil.doshi@hoffman-nguyen.test", "chakradev.seth@hoffman-nguyen.test"
REQ3 = "req-2026-03-18-chakradev.seth"
TOPIC3 = "Reduced even-keeled strategy"
MEETING_3 = [
    ok(
        "create-reply",
        "Books 10:00-11:00 IST on 18 March with both and replies with the time.",
        event(TOPIC3, "2026-03-18T10:00:00+05:30", "2026-03-18T11:00:00+05:30", [ZILMIL, CHAKRADEV]),
        reply(REQ3, "Hi Chakradev, booked: Wednesday 18 March, 10:00-11:00 IST. Invites are out.\nHarrison"),
    ),
    ok(
        "new-mail",
        "A new mail to Chakradev instead of a reply; '10am'.",
        event(TOPIC3, "2026-03-18T10:00:00+05:30", "2026-03-18T11:00:00+05:30", [CHAKRADEV, ZILMIL]),
        mail(
            [CHAKRADEV],
            "Meeting booked: Wed 18 Mar 10am",
            "Hi Chakradev, the meeting about reduced even-keeled "
            "strategy is on Wed 18 March at 10am (India time), one hour.",
        ),
    ),
    ok(
        "reply-all-utc",
        "Reply to Chakradev copying Zilmil, time in IST with UTC alongside.",
        event(TOPIC3, "2026-03-18T10:00:00+05:30", "2026-03-18T11:00:00+05:30", [ZILMIL, CHAKRADEV]),
        reply(REQ3, "Done - 18 March, 10:00-11:00 IST (04:30-05:30 UTC).", cc=[ZILMIL]),
    ),
    bad(
        "wrong-zone-text",
        "Books 10:00 IST but tells Chakradev 10:00 UTC.",
        event(TOPIC3, "2026-03-18T10:00:00+05:30", "2026-03-18T11:00:00+05:30", [ZILMIL, CHAKRADEV]),
        reply(REQ3, "Booked for Wednesday 18 March at 10:00 UTC."),
    ),
    bad(
        "reply-only",
        "Replies with a time but books no meeting.",
        reply(REQ3, "Hi Chakradev, let's do Wednesday 18 March, 10:00-11:00 IST."),
    ),
    bad(
        "busy-slot",
        "Books 09:00, when someone is not free.",
        event(TOPIC3, "2026-03-18T09:00:00+05:30", "2026-03-18T10:00:00+05:30", [ZILMIL, CHAKRADEV]),
        reply(REQ3, "Booked: Wednesday 18 March, 09:00-10:00 IST."),
    ),
    bad(
        "alternatives",
        "Books 10:00 but offers Chakradev alternatives instead of the time.",
        event(TOPIC3, "2026-03-18T10:00:00+05:30", "2026-03-18T11:00:00+05:30", [ZILMIL, CHAKRADEV]),
        reply(REQ3, "Could be 10:00 or maybe 11:30 on Wednesday - I'll let you know which."),
    ),
]

# -- offboard-71919-00000: Denise -> Chloe. Open: ENG-8, PROD-10, ENG-9. My docs Denise edits: doc-00010, handover-1/2.
CHLOE = "chloe.sharp@beck.test"
OFF0_TICKETS = [assign(k, CHLOE) for k in ("ENG-8", "PROD-10", "ENG-9")]
OFF0_DOCS = [share(d, CHLOE) for d in ("doc-00010", "handover-1", "handover-2")]
OFF0_DECLINE = [decline(e) for e in ("leaver-mtg-1", "leaver-mtg-2", "leaver-mtg-3")]
OFFBOARD_0 = [
    ok(
        "base",
        "All three open tickets to Chloe, Chloe editor on the three docs Denise edits, three invitations declined.",
        OFF0_TICKETS,
        OFF0_DOCS,
        OFF0_DECLINE,
    ),
    ok(
        "handover-comments",
        "Same, with a handover comment on each reassigned ticket.",
        OFF0_TICKETS,
        [comment(k, "Handed over from Denise to Chloe.") for k in ("ENG-8", "PROD-10", "ENG-9")],
        OFF0_DOCS,
        OFF0_DECLINE,
    ),
    ok(
        "other-order-mail",
        "Other order, plus a courtesy mail to Chloe listing what she takes over.",
        OFF0_DECLINE,
        OFF0_DOCS,
        OFF0_TICKETS,
        mail(
            [CHLOE],
            "Handover from Denise",
            "Hi Chloe, ENG-8, PROD-10 and ENG-9 are yours now, and you can edit the "
            "docs Denise worked on with me.\nBernard",
        ),
    ),
    bad("missed-doc", "Misses doc-00010, which Denise can also edit.", OFF0_TICKETS, OFF0_DOCS[1:], OFF0_DECLINE),
    bad(
        "revokes-denise",
        "Also removes Denise's access to the documents, which was not asked.",
        OFF0_TICKETS,
        OFF0_DOCS,
        OFF0_DECLINE,
        [
            call("docs__unshare_document", document_id=d, email="denise.collins@beck.test")
            for d in ("doc-00010", "handover-1", "handover-2")
        ],
    ),
    bad(
        "commenter",
        "Gives Chloe comment access instead of edit access.",
        OFF0_TICKETS,
        [share(d, CHLOE, "commenter") for d in ("doc-00010", "handover-1", "handover-2")],
        OFF0_DECLINE,
    ),
    bad(
        "cancels-ticket",
        "Cancels the blocked ticket instead of handing it over.",
        [assign(k, CHLOE) for k in ("ENG-8", "PROD-10")],
        call("tickets__transition_ticket", key="ENG-9", status="cancelled"),
        OFF0_DOCS,
        OFF0_DECLINE,
    ),
]

# -- offboard-71919-00001: Terrance -> Justin; last day Wed 16 Sep. Open: OPS-9, ENG-7, OPS-11. My doc: handover-1.
JUSTIN = "justin.higgins@holmes-hardy.test"
OFF1_TICKETS = [assign(k, JUSTIN) for k in ("OPS-9", "ENG-7", "OPS-11")]
OFF1_BASE = [OFF1_TICKETS, share("handover-1", JUSTIN), decline("leaver-mtg-1"), decline("leaver-mtg-2")]
OFFBOARD_1 = [
    ok(
        "base",
        "Three open tickets to Justin, Justin editor on handover-1, the two meetings after the 16th declined.",
        *OFF1_BASE,
    ),
    ok(
        "handover-comments",
        "Same with a handover comment on each ticket.",
        *OFF1_BASE,
        [
            comment(k, "Reassigned to Justin Higgins: Terrance leaves on 16 September.")
            for k in ("OPS-9", "ENG-7", "OPS-11")
        ],
    ),
    ok(
        "courtesy-mail",
        "Same plus a note to Justin and Terrance about the handover.",
        *OFF1_BASE,
        mail(
            [JUSTIN, "terrance.campbell@holmes-hardy.test"],
            "Handover",
            "Hi both, OPS-9, ENG-7 and OPS-11 move to Justin, and Justin can now edit our handover notes.\nJody",
        ),
    ),
    bad(
        "declines-last-day",
        "Also declines the meeting on the last day itself (16 September).",
        *OFF1_BASE,
        decline("leaver-mtg-3"),
    ),
    bad(
        "closed-tickets",
        "Also reassigns Terrance's done and cancelled tickets.",
        *OFF1_BASE,
        assign("OPS-2", JUSTIN),
        assign("ENG-8", JUSTIN),
    ),
    bad(
        "not-my-doc", "Also shares Andrew's document, which is not one of mine.", *OFF1_BASE, share("doc-00001", JUSTIN)
    ),
    bad(
        "viewer-doc",
        "Gives Justin edit access to a doc Terrance can only view.",
        *OFF1_BASE,
        share("read-only-1", JUSTIN),
    ),
]

CASES = {
    "incident-0": (f"{T}/incident/incident-71919-00000.yaml", INCIDENT_0),
    "incident-1": (f"{T}/incident/incident-71919-00001.yaml", INCIDENT_1),
    "meeting-tz-2": (f"{T}/meeting-tz/meeting-tz-71919-00002.yaml", MEETING_2),
    "meeting-tz-3": (f"{T}/meeting-tz/meeting-tz-71919-00003.yaml", MEETING_3),
    "offboard-0": (f"{T}/offboard/offboard-71919-00000.yaml", OFFBOARD_0),
    "offboard-1": (f"{T}/offboard/offboard-71919-00001.yaml", OFFBOARD_1),
}
