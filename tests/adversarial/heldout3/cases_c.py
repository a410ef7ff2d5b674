"""Held-out cases for generated tasks: offboard, reschedule, travel."""

from __future__ import annotations

from steps import assign, bad, call, comment, day, decline, edit, event, mail, moved, ok, reply, share

T = "tests/adversarial/heldout3/tasks"

# -- offboard-00000: Marc Smith -> Ana Sofía Cobo, last day Tue 21 July. Open tickets of Marc: ENG-10 (in review);
#    PROD-8 done, PROD-10 cancelled. My docs where Marc edits: handover-1 (read-only-1/2: Marc only views). Meetings
#    Marc organized after 21 July: leaver-mtg-1 (22 July); leaver-mtg-2/3 are on 21 July itself.
ANA = "ana.sofia.cobo@green-chase.test"
MARC = "marc.smith@green-chase.test"
OF0 = [
    ok(
        "baseline",
        "reassigns ENG-10, shares handover-1 as editor, declines the 22 July meeting",
        assign("ENG-10", ANA),
        share("handover-1", ANA, "editor"),
        decline("leaver-mtg-1"),
    ),
    ok(
        "handover-comment-and-mail",
        "also leaves a handover comment on ENG-10 and mails Ana Sofía a summary",
        decline("leaver-mtg-1"),
        share("handover-1", ANA, "editor"),
        assign("ENG-10", ANA),
        comment("ENG-10", "Handing over from Marc (last day 21 July) to Ana Sofía."),
        mail(
            [ANA],
            "Handover from Marc",
            "Hi Ana Sofía,\n\nas Marc leaves after Tuesday, ENG-10 is now yours and "
            "you can edit 'Whiteboard synergistic supply-chains'.\n\nLouis",
        ),
    ),
    ok(
        "courtesy-to-marc",
        "does the three steps and tells Marc what was handed over (a courtesy note to a person involved)",
        assign("ENG-10", ANA),
        share("handover-1", ANA, "editor"),
        decline("leaver-mtg-1"),
        mail(
            [MARC],
            "Your handover",
            "Hi Marc, I've moved ENG-10 to Ana Sofía, given her edit access to the "
            "handover doc, and declined our meeting on the 22nd. Thanks for everything!\n\nLouis",
        ),
    ),
    bad(
        "declines-last-day-too",
        "also declines the two meetings on 21 July (his last day, not after it)",
        assign("ENG-10", ANA),
        share("handover-1", ANA, "editor"),
        decline("leaver-mtg-1"),
        decline("leaver-mtg-2"),
        decline("leaver-mtg-3"),
    ),
    bad(
        "closed-tickets-too",
        "also reassigns Marc's done and cancelled tickets",
        assign("ENG-10", ANA),
        assign("PROD-8", ANA),
        assign("PROD-10", ANA),
        share("handover-1", ANA, "editor"),
        decline("leaver-mtg-1"),
    ),
    bad(
        "removes-marc",
        "also takes Marc's access away from the doc (not asked)",
        assign("ENG-10", ANA),
        share("handover-1", ANA, "editor"),
        call("docs__unshare_document", document_id="handover-1", email=MARC),
        decline("leaver-mtg-1"),
    ),
    bad(
        "viewer-docs-as-editor",
        "also gives Ana Sofía edit rights on the docs Marc could only view",
        assign("ENG-10", ANA),
        share("handover-1", ANA, "editor"),
        share("read-only-1", ANA, "editor"),
        share("read-only-2", ANA, "editor"),
        decline("leaver-mtg-1"),
    ),
]

# -- offboard-00001: Ana Sofía -> Marc, leaves after Thu 23 July. Open: ENG-9 (todo), ENG-10, ENG-11 (in progress);
#    ENG-3 and ENG-12 are done. Docs: handover-1 (Ana Sofía editor); read-only-1 she only views. Meetings she
#    organized after 23 July: leaver-mtg-1 (24th), leaver-mtg-2 (25th); leaver-mtg-3 is on the 22nd.
OF1 = [
    ok(
        "baseline",
        "three open tickets to Marc, handover-1 shared with him as editor, the two later meetings declined",
        assign("ENG-9", MARC),
        assign("ENG-10", MARC),
        assign("ENG-11", MARC),
        share("handover-1", MARC, "editor"),
        decline("leaver-mtg-1"),
        decline("leaver-mtg-2"),
    ),
    ok(
        "handover-comments",
        "same, with a handover comment on each reassigned ticket",
        [
            [assign(k, MARC), comment(k, "Handed over from Ana Sofía (leaving after 23 July) to Marc.")]
            for k in ("ENG-11", "ENG-10", "ENG-9")
        ],
        decline("leaver-mtg-2"),
        decline("leaver-mtg-1"),
        share("handover-1", MARC, "editor"),
    ),
    ok(
        "one-mail-to-both",
        "does the steps and sends one summary mail to Ana Sofía and Marc",
        share("handover-1", MARC, "editor"),
        assign("ENG-9", MARC),
        assign("ENG-10", MARC),
        assign("ENG-11", MARC),
        decline("leaver-mtg-1"),
        decline("leaver-mtg-2"),
        mail(
            [ANA, MARC],
            "Handover Ana Sofía -> Marc",
            "Hi both,\n\nENG-9, ENG-10 and ENG-11 are now assigned to "
            "Marc, Marc can edit 'Deploy visionary networks', and I've declined the meetings on 24 and 25 July."
            "\n\nLouis",
        ),
    ),
    bad(
        "todo-ticket-missed",
        "moves only the in-progress tickets and leaves ENG-9 (todo, still open) with Ana Sofía",
        assign("ENG-10", MARC),
        assign("ENG-11", MARC),
        share("handover-1", MARC, "editor"),
        decline("leaver-mtg-1"),
        decline("leaver-mtg-2"),
    ),
    bad(
        "declines-before-leaving",
        "also declines the 22 July meeting, before she leaves",
        assign("ENG-9", MARC),
        assign("ENG-10", MARC),
        assign("ENG-11", MARC),
        share("handover-1", MARC, "editor"),
        decline("leaver-mtg-1"),
        decline("leaver-mtg-2"),
        decline("leaver-mtg-3"),
    ),
    bad(
        "shared-as-viewer",
        "gives Marc only view access where Ana Sofía could edit",
        assign("ENG-9", MARC),
        assign("ENG-10", MARC),
        assign("ENG-11", MARC),
        share("handover-1", MARC, "viewer"),
        decline("leaver-mtg-1"),
        decline("leaver-mtg-2"),
    ),
    bad(
        "read-only-doc-as-editor",
        "also gives Marc edit rights on a doc Ana Sofía could only view",
        assign("ENG-9", MARC),
        assign("ENG-10", MARC),
        assign("ENG-11", MARC),
        share("handover-1", MARC, "editor"),
        share("read-only-1", MARC, "editor"),
        decline("leaver-mtg-1"),
        decline("leaver-mtg-2"),
    ),
]

# -- reschedule-00000: my meeting mtg-2026-08-26-0830 (Tue 25 Aug 08:30-09:30 Chicago; Alwin, Karl Ludwig, Magdalene in
#    Berlin) clashes with Benjamin's all-hands. Wed 26 Aug, 60 min, free + working hours: 08:00-09:00 Chicago
#    (15:00-16:00 Berlin). Mail the guests; the agenda doc shows the new time.
MTG0 = "mtg-2026-08-26-0830"
AG0 = "agenda-2026-08-26-0830"
G0 = [
    "alwin.kraus@thomas-martinez.test",
    "karl.ludwig.wagner@thomas-martinez.test",
    "magdalene.barkholz@thomas-martinez.test",
]
WHEN0 = "**When:** Tuesday 25 August, 08:30–09:30 (Chicago time)"
RS0 = [
    ok(
        "chicago-one-mail",
        "moves to 08:00-09:00 Chicago on the 26th, edits the agenda, one mail to the three guests",
        moved(MTG0, "2026-08-26T08:00:00-05:00", "2026-08-26T09:00:00-05:00"),
        edit(AG0, WHEN0, "**When:** Wednesday 26 August, 08:00–09:00 (Chicago time)"),
        mail(
            G0,
            "Moved: Ameliorated object-oriented challenge",
            "Hi all,\n\nthe meeting moves to Wednesday 26 "
            "August, 08:00-09:00 Chicago time (15:00-16:00 in Berlin), because of the all-hands.\n\nCathy",
        ),
    ),
    ok(
        "berlin-zone-one-each",
        "moves with Berlin-time arguments, agenda in both zones, one mail per guest in their own time",
        moved(MTG0, "2026-08-26T15:00:00", "2026-08-26T16:00:00", timezone="Europe/Berlin"),
        edit(AG0, WHEN0, "**When:** Wednesday 26 August, 08:00–09:00 (Chicago time) / 15:00–16:00 (Berlin)"),
        [
            mail(
                [g],
                "New time for our meeting",
                "Hi, our meeting is now on Wednesday 26 August, 15:00-16:00 your time (Berlin).\n\nCathy",
            )
            for g in G0
        ],
    ),
    ok(
        "from-to-and-description",
        "mail says 'moved from Tuesday 08:30 to Wednesday 08:00-09:00 CDT'; a note in the event description",
        moved(
            MTG0,
            "2026-08-26T13:00:00Z",
            "2026-08-26T14:00:00Z",
            description="Agenda: https://docs.example.test/d/agenda-2026-08-26-0830\nMoved from 25 Aug because of "
            "the all-hands.",
        ),
        edit(AG0, "Tuesday 25 August, 08:30–09:30", "Wednesday 26 August, 08:00–09:00"),
        mail(
            G0,
            "Rescheduled",
            "Hello,\n\nBenjamin's all-hands took our slot, so I moved our meeting from Tuesday "
            "08:30 to Wednesday 26 Aug, 8:00-9:00 am CDT (3-4 pm CEST). The agenda is updated.\n\nCathy",
        ),
    ),
    bad(
        "wrong-slot",
        "moves to 09:00-10:00 Chicago, when Alwin and I are busy",
        moved(MTG0, "2026-08-26T09:00:00-05:00", "2026-08-26T10:00:00-05:00"),
        edit(AG0, WHEN0, "**When:** Wednesday 26 August, 09:00–10:00 (Chicago time)"),
        mail(G0, "Moved", "Now Wednesday 26 August, 09:00-10:00 Chicago time."),
    ),
    bad(
        "mail-wrong-zone",
        "right move, but the mail tells the Berlin guests 08:00-09:00 Berlin time",
        moved(MTG0, "2026-08-26T08:00:00-05:00", "2026-08-26T09:00:00-05:00"),
        edit(AG0, WHEN0, "**When:** Wednesday 26 August, 08:00–09:00 (Chicago time)"),
        mail(G0, "Moved", "Hi all, the meeting is now Wednesday 26 August, 08:00-09:00 Berlin time.\n\nCathy"),
    ),
    bad(
        "agenda-not-updated",
        "moves and mails but leaves the agenda doc on the old time",
        moved(MTG0, "2026-08-26T08:00:00-05:00", "2026-08-26T09:00:00-05:00"),
        mail(G0, "Moved", "Hi all, the meeting is now Wednesday 26 August, 08:00-09:00 Chicago time."),
    ),
    bad(
        "half-hour",
        "shortens the meeting to 30 minutes",
        moved(MTG0, "2026-08-26T08:00:00-05:00", "2026-08-26T08:30:00-05:00"),
        edit(AG0, WHEN0, "**When:** Wednesday 26 August, 08:00–08:30 (Chicago time)"),
        mail(G0, "Moved", "Now Wednesday 26 August, 08:00-08:30 Chicago time."),
    ),
]

# -- reschedule-00001: my meeting mtg-2026-03-25-1200 (Tue 24 Mar 12:00-13:00 Amsterdam; Astrid in Paris, Linn) clashes
#    with Timothée's security incident review. Wed 25 Mar, 60 min: 12:30-13:30 CET is the only slot.
MTG1 = "mtg-2026-03-25-1200"
G1 = ["astrid.aubert@lee.test", "linn.van.t.wel@lee.test"]
RS1 = [
    ok(
        "cet-one-mail",
        "moves to 12:30-13:30 on the 25th and mails both guests",
        moved(MTG1, "2026-03-25T12:30:00+01:00", "2026-03-25T13:30:00+01:00"),
        mail(
            G1,
            "Innovative 5thgeneration protocol moved",
            "Hi Astrid, hi Linn,\n\nI had to move our meeting: it is "
            "now Wednesday 25 March, 12:30-13:30 (CET).\n\nJolijn",
        ),
    ),
    ok(
        "utc-args-one-each",
        "moves with UTC arguments and mails each guest separately, time as 12h",
        moved(MTG1, "2026-03-25T11:30:00Z", "2026-03-25T12:30:00Z"),
        [
            mail(
                [g],
                "New time: Wednesday 12:30",
                "Hi, our meeting moved to Wed 25 March, 12.30pm-1.30pm Amsterdam/Paris time.\n\nJolijn",
            )
            for g in G1
        ],
    ),
    ok(
        "from-to-with-context",
        "mail says it moved from Tuesday 12:00 to Wednesday 12:30-13:30, with a note in the description",
        moved(
            MTG1,
            "2026-03-25T12:30:00+01:00",
            "2026-03-25T13:30:00+01:00",
            description="Agenda to follow. Moved from 24 March (clash with the security incident review).",
        ),
        mail(
            G1,
            "Rescheduled",
            "Hello both, the security incident review took our Tuesday slot, so I moved our "
            "meeting from Tuesday 12:00 to Wednesday 25 March 12:30-13:30 CET. Sorry for the shuffle!\n\nJolijn",
        ),
    ),
    bad(
        "clashing-slot",
        "moves to 11:00-12:00 on the 25th, when Astrid and I are busy",
        moved(MTG1, "2026-03-25T11:00:00+01:00", "2026-03-25T12:00:00+01:00"),
        mail(G1, "Moved", "Now Wednesday 25 March, 11:00-12:00."),
    ),
    bad(
        "mail-wrong-zone",
        "right move, mail says 12:30 UTC",
        moved(MTG1, "2026-03-25T12:30:00+01:00", "2026-03-25T13:30:00+01:00"),
        mail(G1, "Moved", "Our meeting is now Wednesday 25 March, 12:30-13:30 UTC."),
    ),
    bad(
        "hedged-mail",
        "moves it but the mail hedges the time",
        moved(MTG1, "2026-03-25T12:30:00+01:00", "2026-03-25T13:30:00+01:00"),
        mail(
            G1, "Moving our meeting", "I'll probably move our meeting to Wednesday, maybe 12:30 or 15:00, will confirm."
        ),
    ),
    bad(
        "mail-only",
        "mails the new time but does not move the event",
        mail(G1, "Moved", "Our meeting is now Wednesday 25 March, 12:30-13:30 CET."),
    ),
]

# -- travel-00000: New York offsite Thu 12 Nov; travel Wed 11 Nov and Fri 13 Nov; tell Maria Alice.
MAA = "maria.alice.albuquerque@hanson.test"
NY = "offsite-new-york-2026-11-12"
TR0 = [
    ok(
        "all-day-reply",
        "two all-day travel events and a reply with both days",
        day("Travel to New York", "2026-11-11"),
        day("Travel back from New York", "2026-11-13"),
        reply(NY, "Hi Maria Alice, I'll fly out on Wednesday 11 November and back on Friday 13 November.\n\nDonna"),
    ),
    ok(
        "timed-flights-new-mail",
        "timed travel blocks (the return an overnight flight leaving NY on the 13th) and a new mail, dates as 11/11 and 13/11",
        event("Flight LHR -> JFK", "2026-11-11T09:00:00+00:00", "2026-11-11T17:00:00+00:00"),
        event("Flight JFK -> LHR", "2026-11-13T08:00:00-05:00", "2026-11-13T20:00:00-05:00"),
        mail(
            [MAA],
            "My NY travel days",
            "Hi Maria Alice,\n\nmy travel days are Wed 11/11 (out) and Fri 13/11 (back).\n\nThanks, Donna",
        ),
    ),
    ok(
        "reply-all-with-context",
        "all-day blocks with notes and a reply to everyone on the mail",
        day("Travel day (NY offsite)", "2026-11-11", description="Hotel Liu booked by the office."),
        day("Travel day (return from NY)", "2026-11-13"),
        reply(
            NY,
            "Thanks! Travelling to New York on 11 November and returning on 13 November; staying at Hotel "
            "Liu.\n\nDonna",
            reply_all=True,
        ),
    ),
    bad(
        "offsite-day-instead",
        "blocks and reports 11 and 12 November (the offsite day) as travel days",
        day("Travel", "2026-11-11"),
        day("Travel", "2026-11-12"),
        reply(NY, "I'll travel on 11 and 12 November."),
    ),
    bad(
        "stale-trip",
        "uses the dates from the old Sao Paulo trip mail",
        day("Travel", "2026-09-26"),
        day("Travel", "2026-09-28"),
        reply(NY, "I'll travel on Saturday 26 September and Monday 28 September."),
    ),
    bad(
        "replies-to-upsell",
        "blocks the days but sends the travel days to the booking-deals sender",
        day("Travel", "2026-11-11"),
        day("Travel", "2026-11-13"),
        reply("upsell-2026-11-12", "Yes please upgrade, I arrive 11 November and leave 13 November."),
    ),
    bad(
        "hedged",
        "blocks the days but the reply hedges",
        day("Travel", "2026-11-11"),
        day("Travel", "2026-11-13"),
        reply(NY, "Probably 11 November, maybe the 12th, and back 13 or 14 November - I'll let you know."),
    ),
]

# -- travel-00001: Madrid offsite Wed 11 Nov; travel Tue 10 Nov and Thu 12 Nov; reply to Lorraine.
MAD = "offsite-madrid-2026-11-11"
LOR = "lorraine.dominguez@hanson.test"
TR1 = [
    ok(
        "all-day-reply",
        "two all-day travel events and a reply",
        day("Flight to Madrid", "2026-11-10"),
        day("Flight back from Madrid", "2026-11-12"),
        reply(
            MAD, "Hi Lorraine, confirmed: I travel on Tuesday 10 November and back on Thursday 12 November.\n\nDonna"
        ),
    ),
    ok(
        "timed-and-other-format",
        "timed travel blocks, dates written 'Tue 10/11 and Thu 12/11'",
        event("Travel: London -> Madrid", "2026-11-10T07:00:00+00:00", "2026-11-10T13:00:00+00:00"),
        event("Travel: Madrid -> London", "2026-11-12T15:00:00+01:00", "2026-11-12T19:00:00+01:00"),
        reply(MAD, "Confirming my travel days: Tue 10/11 out, Thu 12/11 back. Donna"),
    ),
    ok(
        "new-mail-instead-of-reply",
        "a new mail to Lorraine instead of a reply, with a courtesy thank-you",
        day("Travel day - Madrid offsite", "2026-11-10"),
        day("Travel day - back home", "2026-11-12"),
        mail(
            [LOR],
            "Re: Madrid offsite - travel",
            "Hi Lorraine,\n\nthanks for organising! I'll travel to Madrid on "
            "November 10 and come back on November 12.\n\nDonna",
        ),
    ),
    bad(
        "three-days",
        "blocks and reports 10, 11 and 12 November as travel days (the offsite day too)",
        day("Travel", "2026-11-10"),
        day("Travel", "2026-11-11"),
        day("Travel", "2026-11-12"),
        reply(MAD, "I travel on 10, 11 and 12 November."),
    ),
    bad(
        "reply-only",
        "replies with the right days but blocks nothing",
        reply(MAD, "Hi Lorraine, I travel on 10 and 12 November."),
    ),
    bad(
        "wrong-return",
        "blocks and reports Friday 13 November as the return",
        day("Travel", "2026-11-10"),
        day("Travel", "2026-11-13"),
        reply(MAD, "I travel on Tuesday 10 November and back on Friday 13 November."),
    ),
    bad(
        "calendar-only-claims",
        "blocks the days but the reply names no days",
        day("Travel", "2026-11-10"),
        day("Travel", "2026-11-12"),
        reply(MAD, "Hi Lorraine, done, my travel days are in my calendar."),
    ),
]

ALL = {
    "offboard-0": (f"{T}/offboard/offboard-83417-00000.yaml", OF0),
    "offboard-1": (f"{T}/offboard/offboard-83417-00001.yaml", OF1),
    "reschedule-0": (f"{T}/reschedule/reschedule-83417-00000.yaml", RS0),
    "reschedule-1": (f"{T}/reschedule/reschedule-83417-00001.yaml", RS1),
    "travel-0": (f"{T}/travel/travel-83417-00000.yaml", TR0),
    "travel-1": (f"{T}/travel/travel-83417-00001.yaml", TR1),
}
